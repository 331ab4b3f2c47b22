"""Line of sight on the map (L43-L45, L188-L210), cover (L58-L60, L184-L186), enfilade (L256-L270)
and grazing fire's secondary hexes (L274-L282), on the exact classification of :mod:`pbem.core.sight`.

The reading (digest 4.8): the line between the two centre dots is moved a vanishing distance to
either side; it is blocked when *both* moved lines meet blocking terrain (a town, forest or hill
hex, or a hedge or cliff hexside crossed).  That gives every case the text states: along the border
of one blocking hex is clear, between two blocking hexes blocked, blocking hexes zig-zagging on both
sides blocked, along a hedge clear.  The terrain of the two end hexes, and the sides of those hexes,
never block (L206).  ``strict=True`` is the other reading of "even the smallest part" (L194): a
blocking hex met only at a vertex blocks too.
"""
from __future__ import annotations

from collections.abc import Iterable

from pbem.core.texts import t_
from pbem.core.hexgrid import DIRECTIONS, Hex, Hexside, distance, dot, exit_side
from pbem.core.sight import Contact, sight

from .board import Board
from .model import Unit
from .tables import AIRCRAFT, VEHICLE, tables

LOS_RULE = t_("Line of sight, L43-L45, L188-L210")


def _side_blocks(board: Board, side: Hexside, ends: set[Hex], cliffs_open: bool) -> bool:
    if side[0] in ends or side[1] in ends:
        return False
    kind = board.sides.get(side)
    if kind is None or (kind == "cliff" and cliffs_open):
        return False
    return board.terrain_of_side(kind).blocks


def _meets_blocking(board: Board, hexes: Iterable[Hex], sides: Iterable[Hexside], ends: set[Hex],
                    cliffs_open: bool) -> bool:
    return (any(h not in ends and h in board and board.terrain(h).blocks for h in hexes)
            or any(_side_blocks(board, s, ends, cliffs_open) for s in sides))


def clear(board: Board, a: Hex, b: Hex, *, strict: bool = False) -> bool:
    """Whether the line of sight from ``a`` to ``b`` is open (units never block it, L70)."""
    if a == b:
        return True
    s = sight(a, b)
    ends = {a, b}
    cliffs_open = board.on_cliff(a) and board.on_cliff(b)  # both ends on cliffs (L202)
    blocked = all(_meets_blocking(board, s.nudged(side), s.nudged_sides(side), ends, cliffs_open)
                  for side in (1, -1))
    if strict and not blocked:  # "even the smallest part" (L194): a blocking hex met at a vertex, and a
        # hedge or cliff side whose end the line passes (crossed by one nudged line only) block too
        touched = s.hexes(Contact.TOUCHED)
        blocked = _meets_blocking(board, touched, (), ends, cliffs_open) or \
            any(_side_blocks(board, side, ends, cliffs_open) for n in (1, -1) for side in s.nudged_sides(n))
    return not blocked


def cover_needed(board: Board, target: Unit, attacker_hex: Hex) -> int:
    """The cover roll the target needs (0: no cover): in cover terrain or on a cliff hex, or behind a
    hedge that the line crosses on the target hex's boundary (L184-L186; the numbers are placeholders).
    ``hedge_cover = "line"`` (digest G9): behind any hedge the line crosses, the attacker's own too
    (every other crossed hedge blocks the sight, L204)."""
    kind = "vehicle" if target.stats.kind == VEHICLE else "soldier"
    needs = [board.terrain(target.hex).cover[kind]]
    if board.on_cliff(target.hex):
        needs.append(board.terrain_of_side("cliff").cover[kind])
    if attacker_hex != target.hex:
        crossed = sight(attacker_hex, target.hex).crossed_sides
        anywhere = tables()["readings"]["hedge_cover"] == "line"
        if any((anywhere or target.hex in side) and board.sides.get(side) == "hedge" for side in crossed):
            needs.append(board.terrain_of_side("hedge").cover[kind])
    offered = [n for n in needs if n > 0]
    return min(offered) if offered else 0


def enfilade(attacker: Unit, target: Unit, friends: Iterable[Unit], *, advanced: bool) -> bool:
    """+1 per die against a Soldier (artillery too) when some other friendly vehicle or soldier is
    adjacent to it, not in its hex nor the attacker's, and the attacker is behind it as seen from
    that friendly (the target is deemed to face it, L256-L270; digest 4.9).  Only under the Advanced
    rules (``advanced``), where a soldier's facing matters at all (L17-L21; a reading, digest G21)."""
    if not advanced or target.stats.kind in (VEHICLE, AIRCRAFT):  # they have a real facing (L256)
        return False
    v = (attacker.hex[0] - target.hex[0], attacker.hex[1] - target.hex[1])
    for f in friends:
        if f.id == attacker.id or f.hex in (attacker.hex, target.hex) or distance(f.hex, target.hex) != 1:
            continue
        if not f.stats.ground:
            continue
        toward = (f.hex[0] - target.hex[0], f.hex[1] - target.hex[1])
        if toward in DIRECTIONS and dot(toward, v) < 0:
            return True
    return False


def aircraft_front(aircraft: Unit, shooter_hex: Hex) -> bool:
    """The shooter is in front of the aircraft when the line between them leaves the aircraft's hex
    through the one hexside it faces (L248; through a corner of it counts, a reading)."""
    return aircraft.facing in exit_side(aircraft.hex, shooter_hex)


def strike_facings(aircraft_hex: Hex, target_hex: Hex) -> tuple[int, ...]:
    """The hexsides an aircraft attacking ``target_hex`` may face: the one its line of sight to the
    target crosses, or either of two when the line leaves through a corner (L246, IP14)."""
    return exit_side(aircraft_hex, target_hex)


def grazed_hexes(a: Hex, primary: Hex) -> tuple[Hex, ...]:
    """The hexes adjacent to the primary target that the line to it meets in any way (crossed, along
    an edge or at a vertex): where grazing fire's secondary targets stand (L278-L282)."""
    return tuple(h for h in sight(a, primary).hexes() if h not in (a, primary) and distance(h, primary) == 1)
