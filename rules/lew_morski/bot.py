"""A scripted player that sees only its view [contract: bot_orders].

German: bomb carriers fly to the nearest target, bomb it, then leave by the south edge and withdraw
[R 8.1]; fighters escort, fire when they can, and go home with the bombers.  British: intercept the
nearest German aircraft (bombers first) and fire whenever a move ends with an enemy on the line of fire.
Moves are simulated in the order written, as the order checker does, so every order is legal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable, Mapping, Set

from pbem.core.dice import Dice

from . import board, movement, planning
from .board import Hex
from .orders import stats_of
from .setup import facing_toward
from .state import ALTS

GIVE_UP_STAGE = 25  # the German raid turns home after this stage whatever it has achieved


def orders(view: Mapping[str, Any], seat: str, dice: Dice) -> str:
    kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
    if kind == "react":
        lines = [f"REACT {x['ac']} {'FIRE' if x['range'] else 'HOLD'}" for x in view["ask"]]
        return "\n".join(lines or ["PASS"]) + "\n"
    if kind != "move":
        return "PASS\n"
    return "\n".join(move_orders(view)) + "\n"


def _turns(f1: str, f2: str) -> int:
    d = abs(board.FACINGS.index(f1) - board.FACINGS.index(f2)) % 6
    return min(d, 6 - d)


def _next_passes(h: Hex, facing: str, st: Any, targets: Set[Hex]) -> bool:
    """Could a move next stage from here fly over a target? (one stage of look-ahead for bombers)"""
    return any(c in targets for p in movement.all_paths(st, "none") for c, _ in movement.walk(h, facing, p).cells)


def _trapped(h: Hex, facing: str, st: Any) -> bool:
    return all(movement.walk(h, facing, p).exited for p in movement.all_paths(st, "none"))


def _goal_hexes(view: Mapping[str, Any]) -> list[Hex]:
    return _hexes(t for t in view["targets"] if not t["bombed"]) or _hexes(view["targets"])


@dataclass(frozen=True)
class Outlook:
    """What every aircraft's choice this stage depends on, read once from the view."""

    view: Mapping[str, Any]
    side: str
    stage: int
    going_home: bool  # the German raid has turned for the south edge
    target_hexes: frozenset[Hex]
    shots: Mapping[str, Any]  # end hex + facing + altitude -> the shot a move ending there gives
    enemies: list[Mapping[str, Any]]


@dataclass(frozen=True)
class Flyer:
    """One aircraft about to choose its move: its stats, starting altitude, role and goals."""

    a: Mapping[str, Any]
    stats: Any
    alt: str
    bomber: bool  # still carries bombs for this raid
    goals: list[Hex]  # empty: head for the south edge


def outlook(view: Mapping[str, Any]) -> Outlook:
    side, stage = view["side"], view["stage"]
    carriers_left = any(a["bombs"] > 0 and a["status"] in ("board", "due", "off") for a in view["own"]) or \
        any(f.get("bombs", 0) > 0 for f in view["friends"])
    return Outlook(
        view=view, side=side, stage=stage,
        going_home=side == "de" and (stage > GIVE_UP_STAGE or not carriers_left),
        target_hexes=frozenset(board.parse_hex(t["hex"]) for t in view["targets"]),  # type: ignore[misc]
        shots={m["end"] + m["facing"] + m["alt"]: m["shot"] for a in view["own"] for m in a["moves"] if m["shot"]},
        enemies=[p for p in view["planes"] if p["side"] != side])


def move_orders(view: Mapping[str, Any]) -> list[str]:
    """Every MOVE in a legal order, the withdrawals, then the BOMB, UNJAM and FIRE orders."""
    out = outlook(view)
    order = planning.movers(view)
    order.sort(key=lambda a: (-a["bombs"], a["id"]))
    lines: list[str] = []
    acts: list[str] = []
    for a, choice in planning.plan(view, order, lambda a, opts: choose(out, a, opts)):
        lines += move_lines(out, a, choice)
        acts += combat_acts(out, a, choice)
    lines += [f"WITHDRAW {a['id']}" for a in view["own"] if a["status"] == "off" and a.get("exit_edge") == "south"
              and out.side == "de" and not a.get("entry")]
    return lines + acts or ["PASS"]


def flyer(out: Outlook, a: Mapping[str, Any]) -> Flyer:
    _, _, alt = planning.start_of(a)
    bomber = a["bombs"] > 0 and out.side == "de" and out.stage <= GIVE_UP_STAGE
    return Flyer(a, stats_of(a), alt, bomber, goals_of(out, a, bomber))


def goals_of(out: Outlook, a: Mapping[str, Any], bomber: bool) -> list[Hex]:
    """Bombers seek targets; an empty German heads home; fighters seek the enemy (the British, bombers first;
    a German escort with no enemy in sight, its bombers or their targets)."""
    if bomber:
        return _goal_hexes(out.view)
    empty_bomber = out.side == "de" and a["type"] in ("he111", "ju88")
    if out.side == "de" and (out.going_home or empty_bomber):
        return []
    pool = _hexes(out.enemies)
    if out.side == "gb":
        pool = _hexes(p for p in out.enemies if p["class"] == "bomber") or pool
    if out.side == "de" and not pool:
        pool = _hexes(x for x in out.view["friends"] if x.get("bombs", 0) > 0) or _goal_hexes(out.view)
    return pool or [board.from_row(21, 14)]


def _hexes(records: Iterable[Mapping[str, Any]]) -> list[Hex]:
    return [board.parse_hex(r["hex"]) for r in records]  # type: ignore[misc]


def choose(out: Outlook, a: Mapping[str, Any], opts: list[planning.Choice]) -> planning.Choice:
    """The best scoring move; ties go to the first path and altitude change in text order."""
    me = flyer(out, a)
    best = min(opts, key=lambda o: (-score(out, me, o[0], o[2]), o[1], o[0]))
    return best[0], best[1], best[2]


def score(out: Outlook, me: Flyer, change: str, w: movement.Walk) -> float:
    """How good ending this move is; leaving the board is good only for the German going home south."""
    if w.exited:
        home = out.side == "de" and out.going_home and board.edge_of(w.off_hex) == "south" and not me.bomber  # type: ignore[arg-type]
        return 1000.0 if home else -1000.0
    end: Hex = w.end  # type: ignore[assignment]
    alt2 = movement.new_alt(me.alt, change)
    total = course(out, me, w)
    shot = out.shots.get(board.fmt(end) + w.facing + alt2)
    if shot and not me.a["jammed"]:
        total += 40 * shot["chance"] * (2 if out.side == "gb" else 1)
    if change != "none":
        total -= 1.5 if alt2 != "HIGH" else 0.5
    if out.side == "de":  # the raid keeps its height: low bombers are easy prey for AA [R 6.1]
        total -= 3 * ALTS.index(alt2)
    if not board.on_board(board.step(end, w.facing)):
        total -= 5
    if _trapped(end, w.facing, me.stats):
        total -= 500  # every move next stage would leave the board [R 4.3]
    return total


def course(out: Outlook, me: Flyer, w: movement.Walk) -> float:
    """Bombs dropped on the way, then how near (and how well pointed) the move ends to the nearest goal.
    Every term is a whole number, so the order of the sums cannot change the float that ``score`` adds to."""
    end: Hex = w.end  # type: ignore[assignment]
    total = 0.0
    if me.bomber:
        total += 100 * len([c for c, _ in w.cells if c in out.target_hexes][: me.a["bombs"]])
    if not me.goals:  # home: the south edge [R 8.1]
        return total - ((board.ROWS - 1 - board.row(end)) * 2 + (0 if w.facing in ("S", "SE", "SW") else 3))
    g = min(me.goals, key=lambda x: (board.distance(end, x), x))
    # one 60 degree turn per stage [R 4.0]: a badly pointed aircraft needs stages to come round
    turns = _turns(w.facing, facing_toward(end, g)) if end != g else 0
    total -= board.distance(end, g) + (2 + me.stats.manoeuvrability) * turns
    if me.bomber and not any(c in out.target_hexes for c, _ in w.cells) and \
            _next_passes(end, w.facing, me.stats, out.target_hexes):
        total += 30
    return total


def move_lines(out: Outlook, a: Mapping[str, Any], choice: planning.Choice) -> list[str]:
    """The MOVE line, and WITHDRAW for a German leaving by the south edge [R 8.1]."""
    w = choice[2]
    south = w.exited and out.side == "de" and board.edge_of(w.off_hex) == "south"  # type: ignore[arg-type]
    return [planning.line(a, choice)] + ([f"WITHDRAW {a['id']}"] if south else [])


def combat_acts(out: Outlook, a: Mapping[str, Any], choice: planning.Choice) -> list[str]:
    """Bomb the targets flown over, clear jammed guns, fire where the move ends with a shot."""
    change, _, w = choice
    if w.exited:
        return []
    acts = bomb_orders(out, a, w)
    _, _, alt = planning.start_of(a)
    alt2 = movement.new_alt(alt, change)
    if a["jammed"] and not a["unjam_pending"]:
        acts.append(f"UNJAM {a['id']}")
    elif not a["jammed"] and not (a["fired"] and out.view["options"]["one_shot"] == "shot") and \
            out.shots.get(board.fmt(w.end) + w.facing + alt2):  # type: ignore[arg-type]
        acts.append(f"FIRE {a['id']}")
    return acts


def bomb_orders(out: Outlook, a: Mapping[str, Any], w: movement.Walk) -> list[str]:
    """BOMB the first distinct targets flown over, one per bomb carried (G-34: jammed may not bomb if so set)."""
    if not (a["bombs"] > 0 and out.side == "de") or (a["jammed"] and out.view["options"]["jammed_bombing"] == "no"):
        return []
    hexes: list[Hex] = []
    for c, _ in w.cells:
        if c in out.target_hexes and c not in hexes and len(hexes) < a["bombs"]:
            hexes.append(c)
    return [f"BOMB {a['id']} " + " ".join(board.fmt(x) for x in hexes)] if hexes else []
