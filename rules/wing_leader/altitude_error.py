"""Altitude errors [13.1]: ground control's vector is not always where it was meant to be.

After a player places a Vector marker in the set-up, or ground control moves one in the Administrative Phase
[9.2.4], the opponent may roll a die; on a 6 the opponent moves that marker up to two squares in any
direction (two steps through the eight neighbours: our reading of "any direction" on the side-view map).

The opponent decides in advance by the side-wide standing order ``ERROR AWAY|DOWN|UP|NO`` (AWAY by default):
NO does not roll; DOWN and UP move the vector two altitudes straight down or up (as far as the map allows);
AWAY moves it to the square within two steps farthest from the opponent's own squadrons on the map (nearest
to the vector's first square breaking a tie, then the lower, then the more westerly), which is where it misleads
most.  The scenario's own vectors (option ``setup = scenario``) are not a player's placement and are not rolled
for.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .model import State
from .radio import under_gci
from .sky import Square, distance, name, on_map

POLICIES = ("AWAY", "DOWN", "UP", "NO")
#: How far an altitude error moves the vector [13.1].
REACH = 2


def within_reach(vector: Square) -> list[Square]:
    """Every square on the map at most two steps from ``vector`` (itself excluded) [13.1]."""
    x, y = vector
    return [(x + dx, y + dy) for dx in range(-REACH, REACH + 1) for dy in range(-REACH, REACH + 1)
            if (dx, dy) != (0, 0) and on_map((x + dx, y + dy))]


def displaced(vector: Square, policy: str, opponents: Iterable[Square]) -> Square:
    """Where the opponent's policy puts a vector after an error [13.1] (its own square when it cannot move)."""
    x, y = vector
    if policy in ("DOWN", "UP"):
        step = -1 if policy == "DOWN" else 1
        for n in range(REACH, 0, -1):
            if on_map((x, y + step * n)):
                return x, y + step * n
        return vector
    squares = list(opponents)
    if not squares:
        return vector
    return max(within_reach(vector),
               key=lambda s: (min(distance(s, o) for o in squares), -distance(s, vector), -s[1], -s[0]),
               default=vector)


def bot_lines(state: State, seat_squadrons: Iterable, roll: Callable[[int, str], int]) -> list[str]:
    """The bot's use of 13.1: now and then a new vector onto the nearest enemy bomber for an Intercept under
    ground control that tallies nobody (so altitude errors come up), and sometimes an ERROR policy."""
    if not state.uses("13.1"):
        return []
    lines = []
    for s in seat_squadrons:
        if not (s.on_map and s.mission == "intercept" and not s.tally and not s.broken and under_gci(state, s)):
            continue
        bombers = [b.at for b in state.squadrons if b.side != s.side and b.on_map and b.mission == "bombing"]
        if bombers and roll(2, "bot vector") == 1:
            goal = min(bombers, key=lambda b: (distance(b, s.at), b))
            if goal != s.vector:
                lines.append(f"VECTOR {s.id} {name(goal)}")
    if roll(4, "bot altitude error") == 1:
        lines.append(f"ERROR {('DOWN', 'UP', 'AWAY')[roll(3, 'bot altitude error') - 1]}")
    return lines
