"""A scripted player that sees only its view [contract: bot_orders].

German: bomb carriers fly to the nearest target, bomb it, then leave by the south edge and withdraw
[R 8.1]; fighters escort, fire when they can, and go home with the bombers.  British: intercept the
nearest German aircraft (bombers first) and fire whenever a move ends with an enemy on the line of fire.
Moves are simulated in the order written, as the order checker does, so every order is legal.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

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


def _next_passes(h: Hex, facing: str, st: Any, targets: set) -> bool:
    """Could a move next stage from here fly over a target? (one stage of look-ahead for bombers)"""
    return any(c in targets for p in movement.all_paths(st, "none") for c, _ in movement.walk(h, facing, p).cells)


def _trapped(h: Hex, facing: str, st: Any) -> bool:
    return all(movement.walk(h, facing, p).exited for p in movement.all_paths(st, "none"))


def _goal_hexes(view: Mapping[str, Any]) -> list[Hex]:
    unbombed = [board.parse_hex(t["hex"]) for t in view["targets"] if not t["bombed"]]
    return unbombed or [board.parse_hex(t["hex"]) for t in view["targets"]]  # type: ignore[misc]


def move_orders(view: Mapping[str, Any]) -> list[str]:
    side = view["side"]
    stage = view["stage"]
    opts = view["options"]
    enemies = [p for p in view["planes"] if p["side"] != side]
    carriers_left = any(a["bombs"] > 0 and a["status"] in ("board", "due", "off") for a in view["own"]) or \
        any(f.get("bombs", 0) > 0 for f in view["friends"])
    going_home = side == "de" and (stage > GIVE_UP_STAGE or not carriers_left)
    target_hexes = {board.parse_hex(t["hex"]) for t in view["targets"]}
    shots = {m["end"] + m["facing"] + m["alt"]: m["shot"] for a in view["own"] for m in a["moves"] if m["shot"]}
    lines: list[str] = []
    acts: list[str] = []
    order = planning.movers(view)
    order.sort(key=lambda a: (-a["bombs"], a["id"]))

    def choose(a: Mapping[str, Any], opts_: list[planning.Choice]) -> planning.Choice:
        st = stats_of(a)
        h, f, alt = planning.start_of(a)
        bomber = a["bombs"] > 0 and side == "de" and stage <= GIVE_UP_STAGE
        empty_bomber = side == "de" and a["type"] in ("he111", "ju88") and not bomber
        if bomber:
            goals = _goal_hexes(view)
        elif side == "de" and (going_home or empty_bomber):
            goals = []
        else:
            pool = [board.parse_hex(p["hex"]) for p in enemies]
            if side == "gb":
                bombers = [board.parse_hex(p["hex"]) for p in enemies if p["class"] == "bomber"]
                pool = bombers or pool
            if side == "de" and not pool:
                pool = [board.parse_hex(x["hex"]) for x in view["friends"] if x.get("bombs", 0) > 0] or _goal_hexes(view)
            goals = pool or [board.from_row(21, 14)]  # type: ignore[list-item]
        best = None
        for change, path, w in opts_:
            alt2 = movement.new_alt(alt, change)
            score = 0.0
            if w.exited:
                edge = board.edge_of(w.off_hex)  # type: ignore[arg-type]
                score = 1000.0 if (side == "de" and going_home and edge == "south" and not bomber) else -1000.0
            else:
                end = w.end
                if bomber:
                    hits = [c for c, _ in w.cells if c in target_hexes][: a["bombs"]]
                    score += 100 * len(hits)
                if goals:
                    g = min(goals, key=lambda x: (board.distance(end, x), x))  # type: ignore[arg-type]
                    # one 60 degree turn per stage [R 4.0]: a badly pointed aircraft needs stages to come round
                    turns = _turns(w.facing, facing_toward(end, g)) if end != g else 0  # type: ignore[arg-type]
                    score -= board.distance(end, g) + (2 + st.manoeuvrability) * turns  # type: ignore[arg-type]
                    if bomber and not any(c in target_hexes for c, _ in w.cells) and \
                            _next_passes(end, w.facing, st, target_hexes):  # type: ignore[arg-type]
                        score += 30
                else:  # home: the south edge [R 8.1]
                    score -= (board.ROWS - 1 - board.row(end)) * 2 + (0 if w.facing in ("S", "SE", "SW") else 3)  # type: ignore[arg-type]
                shot = shots.get(board.fmt(end) + w.facing + alt2)  # type: ignore[arg-type]
                if shot and not a["jammed"]:
                    score += 40 * shot["chance"] * (2 if side == "gb" else 1)
                if change != "none":
                    score -= 1.5 if alt2 != "HIGH" else 0.5
                if side == "de":  # the raid keeps its height: low bombers are easy prey for AA [R 6.1]
                    score -= 3 * ALTS.index(alt2)
                if not board.on_board(board.step(end, w.facing)):  # type: ignore[arg-type]
                    score -= 5
                if _trapped(end, w.facing, st):  # type: ignore[arg-type]
                    score -= 500  # every move next stage would leave the board [R 4.3]
            key = (-score, path, change)
            if best is None or key < best[0]:
                best = (key, change, path, w)
        assert best is not None
        return best[1], best[2], best[3]

    for a, (change, path, w) in planning.plan(view, order, choose):
        h, f, alt = planning.start_of(a)
        alt2 = movement.new_alt(alt, change)
        lines.append(planning.line(a, (change, path, w)))
        if w.exited:
            if side == "de" and board.edge_of(w.off_hex) == "south":  # type: ignore[arg-type]
                lines.append(f"WITHDRAW {a['id']}")
        else:
            if a["bombs"] > 0 and side == "de" and not (a["jammed"] and opts["jammed_bombing"] == "no"):
                hexes = []
                for c, _ in w.cells:
                    if c in target_hexes and c not in hexes and len(hexes) < a["bombs"]:
                        hexes.append(c)
                if hexes:
                    acts.append(f"BOMB {a['id']} " + " ".join(board.fmt(x) for x in hexes))
            if a["jammed"] and not a["unjam_pending"]:
                acts.append(f"UNJAM {a['id']}")
            elif not a["jammed"] and not (a["fired"] and opts["one_shot"] == "shot") and \
                    shots.get(board.fmt(w.end) + w.facing + alt2):  # type: ignore[arg-type]
                acts.append(f"FIRE {a['id']}")
    for a in view["own"]:
        if a["status"] == "off" and a.get("exit_edge") == "south" and side == "de" and not a.get("entry"):
            lines.append(f"WITHDRAW {a['id']}")
    out = lines + acts
    return out or ["PASS"]

