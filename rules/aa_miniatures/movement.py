"""Stacking (L1-L9) and movement (L11-L35): what a path may be, and what ends it.

The full-hex numbers and the terrain costs are lost (digest G1, G7): they come from
``data/tables.toml`` and ``data/terrain.toml`` as placeholders.  Stacking counts a side's own ground
units only (digest G2); a transported unit is not yet built.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.core.texts import t_
from pbem.core.hexgrid import Hex, direction, distance

from .board import Board, hex_name
from .combat import kind_word
from .model import Unit
from .tables import VEHICLE, tables

STACK_RULE = t_("Stacking, L1-L7")
MOVE_RULE = t_("Terrain and movement, L11-L13 (costs: placeholder chart)")
FACING_RULE = t_("Unit facing, L15-L35")
OBSTACLE_RULE = t_("Stacking, L1: one obstacle a hex; its effects are a placeholder chart")


def _counts(units: Iterable[Unit], h: Hex, side: str) -> tuple[int, int]:
    here = [u for u in units if u.hex == h and u.side == side and u.stats.ground]
    vehicles = sum(1 for u in here if u.stats.kind == VEHICLE)
    return vehicles, len(here) - vehicles


def within_full(vehicles: int, soldiers: int) -> bool:
    limits = tables()["stacking"]
    return vehicles <= limits["full_vehicles"] and vehicles + soldiers <= limits["full_total"]


def within_maximum(vehicles: int, soldiers: int) -> bool:
    """A maximum hex: full plus at most one more vehicle and one more soldier (L3)."""
    limits = tables()["stacking"]
    return any(within_full(vehicles - dv, soldiers - ds)
               for dv in range(min(vehicles, limits["extra_vehicles"]) + 1)
               for ds in range(min(soldiers, limits["extra_soldiers"]) + 1))


def _with(unit: Unit, counts: tuple[int, int]) -> tuple[int, int]:
    vehicle = unit.stats.kind == VEHICLE
    return counts[0] + vehicle, counts[1] + (not vehicle)


def overstacked(units: Sequence[Unit], side: str) -> tuple[Hex, ...]:
    """The hexes where ``side`` is beyond full (the opponent's penalty at the end of the phase, L5)."""
    hexes = sorted({u.hex for u in units if u.side == side and u.stats.ground})
    return tuple(h for h in hexes if not within_full(*_counts(units, h, side)))


@dataclass(frozen=True)
class Step:
    """One hex entered: its cost and the d6 roll needed to enter it (0: none)."""

    hex: Hex
    cost: int
    entry: int


def speed(unit: Unit) -> int:
    """The card's speed, -1 when Damaged (L320)."""
    damaged = tables()["modifiers"]["damaged_speed"] if unit.damaged else 0
    return max(0, unit.stats.speed + damaged)


def _kind(unit: Unit) -> str:
    return "vehicle" if unit.stats.kind == VEHICLE else "soldier"


def _step_cost(board: Board, unit: Unit, a: Hex, b: Hex) -> int:
    """Movement points to go from ``a`` into ``b``; 0 if it cannot be done."""
    kind = _kind(unit)
    cost = board.terrain(b).cost[kind]
    side = board.side(a, b)
    if side is not None:
        extra = board.terrain_of_side(side).cost[kind]
        cost = 0 if cost == 0 or extra == 0 else cost + extra
    piece = board.obstacle(b)
    if piece is not None and cost:
        cost = 0 if kind in piece.impassable else cost + piece.extra_cost[kind]
    return cost


def ends_move(board: Board, unit: Unit, h: Hex) -> bool:
    """Whether an obstacle in ``h`` ends the move of ``unit`` entering it (placeholder chart, G28)."""
    piece = board.obstacle(h)
    return piece is not None and _kind(unit) in piece.ends_move


def path_problem(board: Board, units: Sequence[Unit], unit: Unit, path: Sequence[Hex]) -> str | None:
    """Why ``unit`` may not take ``path`` (the hexes entered, in order), or None.

    A Disrupted unit cannot move (L300); each hex must be next to the one before and on the map; the
    cost may not exceed the speed; a vehicle never reverses, so each step goes into one of the three
    hexes ahead of its heading (L35, reading: digest 4.5); a full hex of one's own cannot be passed
    through, and the last hex may be at most a maximum hex (L7)."""
    if unit.disrupted:
        return t_("a Disrupted unit cannot move (L300)")
    spent, at, heading = 0, unit.hex, unit.facing
    for i, h in enumerate(path):
        if h not in board:
            return t_("%(hex)s is off the map", hex=hex_name(h))
        d = direction(at, h)
        if d is None or distance(at, h) != 1:
            return t_("%(hex)s is not next to %(at)s", hex=hex_name(h), at=hex_name(at))
        if unit.stats.kind == VEHICLE and (d - heading) % 6 not in (0, 1, 5):
            return t_("a vehicle moves only forward (%(rule)s): %(hex)s is not ahead of it", rule=FACING_RULE, hex=hex_name(h))
        cost = _step_cost(board, unit, at, h)
        piece = board.obstacle(h)
        if cost == 0 and piece is not None and _kind(unit) in piece.impassable:
            return t_("%(hex)s holds %(piece)s, which a %(kind)s cannot enter (%(rule)s)", hex=hex_name(h), piece=piece.title, kind=kind_word(_kind(unit)), rule=OBSTACLE_RULE)
        if cost == 0:
            return t_("%(hex)s cannot be entered from %(at)s (%(rule)s)", hex=hex_name(h), at=hex_name(at), rule=MOVE_RULE)
        if piece is not None and i < len(path) - 1 and ends_move(board, unit, h):
            return t_("%(hex)s holds %(piece)s: a %(kind)s's move ends on entering it (%(rule)s)", hex=hex_name(h), piece=piece.title, kind=kind_word(_kind(unit)), rule=OBSTACLE_RULE)
        spent += cost
        if spent > speed(unit):
            return t_("the path costs %(spent)s but %(unit)s's speed is %(speed)s (%(rule)s)", spent=spent, unit=unit.id, speed=speed(unit), rule=MOVE_RULE)
        after = _with(unit, _counts(units, h, unit.side))
        if not within_maximum(*after):
            return t_("%(hex)s would hold more than a maximum hex (%(rule)s)", hex=hex_name(h), rule=STACK_RULE)
        if i < len(path) - 1 and not within_full(*after):
            return t_("%(hex)s is full: a unit may enter it but not pass through (%(rule)s)", hex=hex_name(h), rule=STACK_RULE)
        at, heading = h, d
    return None


def placement_problem(board: Board, units: Sequence[Unit], unit: Unit, h: Hex) -> str | None:
    """Why ``unit`` may not be put into ``h`` (unloading, L9): terrain it cannot be in, or beyond a
    maximum hex; None if it may."""
    kind = _kind(unit)
    if h not in board or board.terrain(h).cost[kind] == 0:
        return t_("%(hex)s is terrain it cannot be in", hex=hex_name(h))
    piece = board.obstacle(h)
    if piece is not None and kind in piece.impassable:
        return t_("%(hex)s holds %(piece)s, which a %(kind)s cannot enter (%(rule)s)", hex=hex_name(h), piece=piece.title, kind=kind_word(kind), rule=OBSTACLE_RULE)
    if not within_maximum(*_with(unit, _counts(units, h, unit.side))):
        return t_("%(hex)s would hold more than a maximum hex (%(rule)s)", hex=hex_name(h), rule=STACK_RULE)
    return None


def steps_of(board: Board, unit: Unit, path: Sequence[Hex]) -> tuple[Step, ...]:
    """The path as steps with their costs and entry rolls (for resolution)."""
    kind = _kind(unit)
    out, at = [], unit.hex
    for h in path:
        out.append(Step(h, _step_cost(board, unit, at, h), board.terrain(h).entry[kind]))
        at = h
    return tuple(out)
