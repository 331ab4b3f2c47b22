"""The seat's own aircraft in its view: counters, the target each has now, entry hexes, legal moves.

Everything here is the seat's own knowledge, so each row is complete; the one input that touches
the enemy is :class:`Sight` (built in ``views``), which holds only the enemies the side may see.
Targets and move previews are therefore computed against visible aircraft only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from . import board, combat, movement, tables
from .combat import plane
from .setup import inward, scenario_data, start_area
from .state import Aircraft, State

Position = tuple[board.Hex, str, str]  # hex, facing, altitude


@dataclass(frozen=True)
class Sight:
    """What one side sees on the board: its own aircraft there and the enemies it may see."""

    side: str
    fog: bool
    enemies: tuple[Aircraft, ...]
    on_board: tuple[Aircraft, ...]  # own side's aircraft on the board, then the visible enemies
    planes: tuple[combat.Plane, ...]
    index: dict[board.Hex, list[combat.Plane]]

    @property
    def taken(self) -> set[tuple[board.Hex, str]]:
        return {(p.hex, p.alt) for p in self.planes}


def own_rows(state: State, seat: str, kind: str, sight: Sight) -> list[dict[str, Any]]:
    """One row per aircraft of ``seat`` that is not destroyed, in state order."""
    return [own_row(state, a, kind, sight) for a in state.aircraft if a.seat == seat and a.status != "destroyed"]


def own_row(state: State, a: Aircraft, kind: str, sight: Sight) -> dict[str, Any]:
    d = counter(state, a)
    if a.status == "board":
        d["target"] = target_now(state, a, sight)
    entry = own_entry(state, a, sight.taken) if kind == "move" else None
    d["entry"] = entry
    if kind == "setup":
        d.update(start_zone(state, a))
    if kind == "move" and (a.status == "board" or entry):
        start = (a.hex, a.facing, a.alt) if entry is None else \
            (board.parse_hex(entry["hex"]), entry["facing"], entry["alt"])
        others = [p for p in sight.planes if p.id != a.id]
        moved = replace(a, hex=start[0], facing=start[1], alt=start[2])
        d["moves"] = move_options(moved, start, others, state)  # type: ignore[arg-type]
    return d


def counter(state: State, a: Aircraft) -> dict[str, Any]:
    """The counter as its owner knows it, with no target and no moves yet."""
    st = tables.stats(a.type, a.damaged, a.commander, a.bombs)
    return {"id": a.id, "type": a.type, "name": tables.type_info(a.type)["name"], "side": a.side,
            "status": a.status, "commander": a.commander, "damaged": a.damaged,
            "hex": board.fmt(a.hex) if a.hex else "", "facing": a.facing, "alt": a.alt,
            "jammed": a.jammed, "unjam_pending": bool(a.unjam_stage), "bombs": a.bombs,
            "fired": a.fired_stage == state.stage,
            "stats": {"max_speed": st.max_speed, "min_speed": st.min_speed, "attack": st.attack,
                      "manoeuvrability": st.manoeuvrability},
            "exit_hex": board.fmt(a.exit_hex) if a.exit_hex else "", "exit_edge": a.exit_edge,
            "return_stage": a.return_stage, "due_stage": a.due_stage,
            "path": [board.fmt(h) for h in a.path], "target": None, "moves": []}


def stats_of(row: Mapping[str, Any]) -> tables.Stats:
    """The counter values of an own-aircraft row (the inverse of its "stats" entry)."""
    s = row["stats"]
    return tables.Stats(s["max_speed"], s["min_speed"], s["attack"], s["manoeuvrability"])


def shot_dict(state: State, shooter: combat.Plane, target: combat.Plane, dist: int,
              with_mods: bool = False) -> dict[str, Any]:
    """The shot ``shooter`` would have at ``target``: strength, Table 2 range and chance [R 5.2]."""
    s, notes = combat.strength(shooter, target, state.sun, state.opts)
    rng = tables.hit_range(s, dist)
    d: dict[str, Any] = {"target": target.id, "dist": dist, "strength": s}
    if with_mods:
        d["mods"] = notes
    d.update(range=list(rng) if rng else [], chance=round(combat.hit_chance(rng), 3))
    return d


def target_now(state: State, a: Aircraft, sight: Sight) -> dict[str, Any] | None:
    """The visible enemy on the aircraft's line of fire now, if any [R 5.2, 5.3.2]."""
    tg = combat.target_of(plane(a), sight.planes, state.opts, sight.index)
    return shot_dict(state, plane(a), tg[0], tg[1], with_mods=True) if tg else None


def start_zone(state: State, a: Aircraft) -> dict[str, Any]:
    """The setup start area of the aircraft's group [R 9.3]."""
    d: dict[str, Any] = {}
    area = start_area(state.scenario, a.side, a.hex) if a.hex else ()
    d["start_area"] = [board.fmt(h) for h in area]
    for g in scenario_data(state.scenario)[a.side]["groups"]:
        if a.hex in board.within(board.parse_hex(g["center"]), g["radius"]):  # type: ignore[arg-type]
            d["start_centre"], d["start_radius"] = g["center"], g["radius"]
    return d


def own_entry(state: State, a: Aircraft, taken: set) -> dict[str, Any] | None:
    """Where an aircraft due this stage enters, and the hexes it may choose [R 4.3.1, 9, G-21]."""
    if state.step != f"{a.side}-move":
        return None
    if a.status == "due" and a.due_stage <= state.stage:
        h = a.due_hex
        return {"hex": board.fmt(h), "facing": a.facing, "alt": "HIGH", "hexes": [board.fmt(h)],  # type: ignore[arg-type]
                "reinforcement": True}
    if a.status == "off" and 0 < a.return_stage <= state.stage:
        r = tables.dice_table()["return_radius"]
        hexes = [h for h in board.all_hexes() if board.is_edge(h) and board.distance(h, a.exit_hex) <= r]  # type: ignore[arg-type]
        free = [h for h in hexes if (h, a.left_alt) not in taken] or hexes
        h = min(free, key=lambda x: (board.distance(x, a.exit_hex), x))  # type: ignore[arg-type]
        return {"hex": board.fmt(h), "facing": inward(h), "alt": a.left_alt,
                "hexes": [board.fmt(x) for x in sorted(hexes)], "reinforcement": False}
    return None


def move_options(a: Aircraft, start: Position, planes: list[combat.Plane], state: State) -> list[dict[str, Any]]:
    """Legal moves summarised by end position, each with the shot it would give [R 4, 5]."""
    opts = state.opts
    st = tables.stats(a.type, a.damaged, a.commander, a.bombs)
    h, f, alt = start
    others = [p for p in planes if p.id != a.id]
    taken = {(p.hex, p.alt) for p in others}
    index = combat.by_hex(others)
    seen: dict[tuple, dict[str, Any]] = {}
    for change, path, w in movement.options(st, h, f, alt, lambda x, y: (x, y) in taken,
                                            opts["occupancy"] == "end_hex"):
        alt2 = movement.new_alt(alt, change)
        key = ("exit", change, board.edge_of(w.off_hex)) if w.exited else (w.end, w.facing, alt2)  # type: ignore[arg-type]
        if key not in seen:
            seen[key] = {"change": change, "path": path, "alt": alt2, **_move_end(a, w, alt2, others, index, state)}
    return list(seen.values())


def _move_end(a: Aircraft, w: movement.Walk, alt2: str, others: list[combat.Plane],
              index: dict[board.Hex, list[combat.Plane]], state: State) -> dict[str, Any]:
    """Where a move ends (or which edge it leaves by) and the shot it gives from there."""
    if w.exited:
        return {"end": "", "facing": w.facing, "exits": board.edge_of(w.off_hex), "shot": None}  # type: ignore[arg-type]
    me = combat.Plane(a.id, a.side, a.type, w.end, alt2, w.facing, a.damaged, a.commander, a.bombs)  # type: ignore[arg-type]
    tg = combat.target_of(me, others, state.opts, index)
    shot = shot_dict(state, me, tg[0], tg[1]) if tg else None
    return {"end": board.fmt(w.end), "facing": w.facing, "exits": "", "shot": shot}  # type: ignore[arg-type]
