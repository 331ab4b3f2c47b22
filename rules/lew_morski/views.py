"""Per-seat views: everything a seat may know, as JSON [digest 5, 11].  This module is the fog boundary.

Open games show everything (the boxed game hides nothing).  In fog games (digest 5) each part of the
view keeps its own rule, stated on the function that builds it:

* the seat's own aircraft, guns, standing orders and pending decisions: complete (``own_aircraft``);
* allied aircraft on the board: complete (allies share the cockpit radio);
* enemy aircraft: the British see every German by radar; German pilots see a British aircraft within
  visual range and not inside full cloud unless adjacent (``combat.seen``); bomb loads, jams and
  seats of enemies are never shown;
* enemy aircraft off the board and enemy reinforcement schedules: hidden;
* British AA guns, for the Germans: only once revealed (they fired or were bombed) or adjacent.
"""
from __future__ import annotations

from typing import Any

from . import board, combat, tables
from .combat import plane
from .options import OPTIONS
from .own_aircraft import Sight, own_rows
from .orders import kept_policy, policy_of
from .phases import STEP_TITLES, STEPS
from .setup import scenario_data, targets
from .state import Aircraft, Gun, State
from .world import reason_text


def side_of(seat: str) -> str:
    return seat.split("-")[0]


def view(state: State, seat: str) -> dict[str, Any]:
    side = side_of(seat)
    kind = phase_kind(state, seat)
    sight = sight_of(state, side)
    own = own_rows(state, seat, kind, sight)
    own_guns = own_gun_rows(state, seat, sight)
    return {
        **public_part(state, seat, kind),
        "own": own, "friends": friend_rows(state, seat),
        "enemies": [plane_dict(a, not sight.fog) for a in sight.enemies],
        "planes": [plane_dict(a, a.side == side or not sight.fog) for a in sight.on_board],
        "offboard": offboard_rows(state, sight), "own_guns": own_guns, "ally_guns": ally_gun_rows(state, seat),
        "enemy_guns": enemy_gun_rows(state, sight), "reinforcements": reinforcement_rows(state, sight),
        "policies": own_policies(state, seat, {x["id"] for x in own} | {g["id"] for g in own_guns}),
        "ask": own_asks(state, seat, kind), "over": state.step == "over", "end_reason": reason_text(state.end_reason),
    }


def public_part(state: State, seat: str, kind: str) -> dict[str, Any]:
    """What every seat knows: scenario, stage, phase, options, sun, VP and the targets' state."""
    opts = state.opts
    sc = scenario_data(state.scenario)
    ter = board.terrain()
    return {
        "game": "lew_morski", "scenario": state.scenario, "scenario_title": sc["title"], "seat": seat,
        "side": side_of(seat), "stage": state.stage, "step": state.step,
        "phase": {"name": state.step, "kind": kind, "mine": kind != "none" and seat_is_awaited(state, seat),
                  "title": STEP_TITLES[state.step]},
        "options": dict(opts),
        "options_text": [f"{o.name} = {opts[o.name]}" for o in OPTIONS if opts[o.name] != o.default],
        "options_count": len(OPTIONS),
        "sun": state.sun, "vp": {"de": state.vp_de, "gb": state.vp_gb},
        "min_vp": {"de": sc["de"]["min_vp"], "gb": sc["gb"]["min_vp"]},
        "targets": [{"id": t, "hex": board.fmt(ter.object_hex(t)), "bombed": t in state.bombed}
                    for t in targets(state.scenario)],
        "objects_bombed": sorted(state.bombed), "bonus": sc["all_targets_bonus"], "bonus_done": state.bonus_done,
    }


def visible_enemies(state: State, side: str) -> list[Aircraft]:
    """Enemy aircraft on the board that ``side`` sees: all of them in open games and for the British
    (radar); for German pilots in fog games only those ``combat.seen`` allows [digest 5.1-5.2]."""
    enemies = [a for a in state.aircraft if a.side != side and a.status == "board"]
    opts = state.opts
    if opts["visibility"] == "open" or side == "gb":
        return enemies
    eyes = [a.hex for a in state.aircraft if a.side == side and a.status == "board"]
    rng = int(opts["visual_range"])
    return [e for e in enemies if combat.seen(e.hex, e.alt, eyes, rng)]


def sight_of(state: State, side: str) -> Sight:
    enemies = tuple(visible_enemies(state, side))
    on_board = tuple(a for a in state.aircraft if a.side == side and a.status == "board") + enemies
    planes = tuple(plane(a) for a in on_board)
    return Sight(side, state.opts["visibility"] == "fog", enemies, on_board, planes, combat.by_hex(planes))


def plane_dict(a: Aircraft, full: bool) -> dict[str, Any]:
    """An aircraft on the board; ``full`` adds what only its own side (or an open game) knows."""
    d: dict[str, Any] = {"id": a.id, "side": a.side, "type": a.type, "name": tables.type_info(a.type)["name"],
                         "hex": board.fmt(a.hex), "alt": a.alt, "facing": a.facing,  # type: ignore[arg-type]
                         "damaged": a.damaged, "commander": a.commander,
                         "class": tables.type_info(a.type)["vp_class"]}
    if full:
        d.update(bombs=a.bombs, jammed=a.jammed, seat=a.seat)
    return d


def friend_rows(state: State, seat: str) -> list[dict[str, Any]]:
    """Allied seats' aircraft on the board, complete: allies share everything about their own side."""
    side = side_of(seat)
    return [plane_dict(a, True) for a in state.aircraft if a.side == side and a.status == "board" and a.seat != seat]


def offboard_rows(state: State, sight: Sight) -> list[dict[str, Any]]:
    """Aircraft not on the board: the own side's always, the enemy's only in open games."""
    return [{"id": a.id, "side": a.side, "type": a.type, "status": a.status,
             "return_stage": a.return_stage if a.status == "off" else 0,
             "due_stage": a.due_stage if a.status == "due" else 0,
             "exit_edge": a.exit_edge if a.status == "off" else ""}
            for a in state.aircraft
            if a.status in ("off", "due", "withdrawn", "destroyed") and (a.side == sight.side or not sight.fog)]


def own_gun_rows(state: State, seat: str, sight: Sight) -> list[dict[str, Any]]:
    """The seat's own AA guns (British seats only) with their standing order and what each can reach."""
    if sight.side != "gb":
        return []
    return [{"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed,  # type: ignore[arg-type]
             "fired": g.fired_stage == state.stage,
             "policy": kept_policy(state.flow.standing, seat, g.id, "aa", "AUTO"),
             "in_range": guns_reach(state, g, sight)}
            for g in state.guns if g.seat == seat]


def guns_reach(state: State, g: Gun, sight: Sight) -> list[dict[str, Any]]:
    """Visible enemies over or next to a gun, with its hit range or why it cannot hit [R 6.1, Table 4]."""
    out = []
    for e in sight.enemies:
        if not g.destroyed and board.distance(g.hex, e.hex) <= 1:  # type: ignore[arg-type]
            rng, why = combat.aa_can_hit(g.hex, plane(e), state.sun, state.opts)  # type: ignore[arg-type]
            out.append({"target": e.id, "range": list(rng) if rng else [], "why": why})
    return out


def ally_gun_rows(state: State, seat: str) -> list[dict[str, Any]]:
    """Other British seats' guns: where they stand, not their standing orders."""
    if side_of(seat) != "gb":
        return []
    return [{"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed, "seat": g.seat}  # type: ignore[arg-type]
            for g in state.guns if g.seat != seat]


def enemy_gun_rows(state: State, sight: Sight) -> list[dict[str, Any]]:
    """AA guns as the Germans know them: all in open games; in fog only revealed ones (they fired or were
    bombed) and those over or next to a German aircraft [digest 5]."""
    if sight.side == "gb":
        return []
    eyes = [a.hex for a in state.aircraft if a.side == sight.side and a.status == "board"]
    return [{"id": g.id, "hex": board.fmt(g.hex), "destroyed": g.destroyed}  # type: ignore[arg-type]
            for g in state.guns
            if not sight.fog or g.revealed or any(board.distance(g.hex, h) <= 1 for h in eyes)]  # type: ignore[arg-type]


def reinforcement_rows(state: State, sight: Sight) -> list[dict[str, Any]]:
    """The scenario's reinforcement schedule: the own side's always, the enemy's only in open games."""
    sc = scenario_data(state.scenario)
    return [{"side": s, "stage": r["stage"], "hexes": r["hexes"],
             "aircraft": [f"{x['n']} {x['type']}" for x in r["aircraft"]]}
            for s in ("de", "gb") if s == sight.side or not sight.fog
            for r in sc[s].get("reinforcements", [])]


def own_policies(state: State, seat: str, own_ids: set[str]) -> list[list[str]]:
    """The seat's standing orders for its aircraft and guns still in play; nobody else's, not even an ally's."""
    rows = ([p.unit, p.kind, p.value] for p in map(policy_of, state.flow.standing.of(seat)))
    return sorted(r for r in rows if r[0] in own_ids)


def own_asks(state: State, seat: str, kind: str) -> list[dict[str, Any]]:
    """The reactive-fire decisions this seat is asked for in its interrupt window, nobody else's."""
    return [x for x in state.asks if x["seat"] == seat] if kind == "react" else []


def seat_is_awaited(state: State, seat: str) -> bool:
    ph = STEPS.phase(state)
    return ph is not None and (seat in ph.awaiting or seat in ph.optional)


def phase_kind(state: State, seat: str) -> str:
    """What the seat may order now: setup, move, react or none."""
    side = side_of(seat)
    step = state.step
    if step == "setup":
        return "setup"
    if step == f"{side}-move":
        return "move"
    if step == f"{side}-react":
        return "react"
    return "none"
