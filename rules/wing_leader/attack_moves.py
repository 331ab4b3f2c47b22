"""A bomber's own move on its way to its target and on its approach, for every attack [15.2.1, 15.3, 15.5].

The mission flies the squadron; the player chooses only the attack (``ATTACK <sq> <kind>``).  On the way a
bomber flies two squares a turn (a jet three) and changes altitude one level a turn at most [15.2.1], toward
the altitude its attack is made at: 0 for torpedoes and skip bombing, 1 for parafrags, rockets and strafing; a level, dive, steep or
glide attack keeps its altitude.  Near the target each approach flies its own shape, which
``approaches.check`` then judges on the squares flown:

* dive / steep: over the target at altitude 2–10, straight down to 0 (dive) or 1 (steep) [15.3.2, 15.3.3];
* glide: from exactly two columns before it, one level down per column, over it two levels lower [15.3.4];
* torpedo: at altitude 0 straight over the ship (a slow torpedo one square a turn while aiming) [15.3.5];
* rocket / strafing: to the column before the target, straight down to 1 there (within two columns a
  strafer or an ATGR load may come down freely), then down into the target's square, one level in that
  turn [15.2.1, 15.3.6, 15.3.7];
* kamikaze: within seven squares, the shortest path to the target's square [9.2.5, 15.5.3].

A bomber over its target that could not attack flies on and turns back later (15.2.5).
"""
from __future__ import annotations

from pbem.core.errors import IllegalOrderError

from . import movement
from .model import Squadron
from .sky import HEADINGS, Square, distance, name, on_map, step
from .tables import card

#: The altitude a bomber on its way makes for, by attack (None: it keeps its altitude) [15.2.1].
GOAL_ALTITUDE = {"torpedo": 0, "skip": 0, "parafrag": 1, "rocket": 1, "strafing": 1}
VERTICAL_RELEASE = {"dive": 0, "steep": 1}   # the lowest release altitude each allows [15.3.2, 15.3.3]
KAMIKAZE_RANGE = 7


def _fits(sq: Squadron, tokens: list[str], mp: int) -> bool:
    try:
        movement.walk(sq, tokens, mp)
    except IllegalOrderError:
        return False
    return True


def toward(sq: Squadron, column: int, goal_alt: int | None, mp: int) -> list[str]:
    """Two squares (a jet three, a fighter-bomber near the enemy's units three, a slow torpedo one: one a
    movement point, up to 3) toward ``column``, stopping over it, the first changing one level toward
    ``goal_alt`` when it differs [15.2.1, 15.2.4]; in the column already, straight on (15.2.5)."""
    squares = 3 if "jet" in card(sq.model)["abilities"] else min(mp, 3)
    if sq.at[0] == column:
        heading = sq.heading
    else:
        heading = HEADINGS.index("E" if column > sq.at[0] else "W")
    tokens: list[str] = []
    at, changed = sq.at, False
    for _ in range(squares):
        nxt = step(at, heading)
        if goal_alt is not None and not changed and nxt[1] != goal_alt:
            nxt, changed = (nxt[0], nxt[1] + (1 if goal_alt > nxt[1] else -1)), True
        if not on_map(nxt) or not _fits(sq, tokens + [name(nxt)], mp):
            break
        tokens.append(name(nxt))
        at = nxt
        if at[0] == column and sq.at[0] != column:
            break
    return tokens


def vertical(sq: Squadron, column: int, release: int, mp: int) -> list[str]:
    """Straight down over ``column`` toward ``release`` as far as the movement points go [15.3.2, 15.3.3]."""
    tokens: list[str] = []
    for alt in range(sq.at[1] - 1, release - 1, -1):
        if not _fits(sq, tokens + [name((column, alt))], mp):
            break
        tokens.append(name((column, alt)))
    return tokens


def may_begin_vertical(sq: Squadron, column: int) -> bool:
    """A dive or steep approach may begin: over the target at altitude 2 to 10 [15.3.2, 15.3.3]."""
    return sq.at[0] == column and 2 <= sq.at[1] <= 10


def may_begin_glide(sq: Squadron, column: int) -> bool:
    """A glide may begin: exactly two columns from the target, at altitude 2 or more [15.3.4]."""
    return abs(sq.at[0] - column) == 2 and sq.at[1] >= 2


def glide(sq: Squadron, column: int, mp: int) -> list[str]:
    """Down one level for each column toward the target, ending over it [15.3.4]."""
    toward_e = column > sq.at[0]
    tokens: list[str] = []
    at = sq.at
    while at[0] != column:
        at = (at[0] + (1 if toward_e else -1), at[1] - 1)
        if not _fits(sq, tokens + [name(at)], mp):
            break
        tokens.append(name(at))
    return tokens


def low_pass(sq: Squadron, column: int, mp: int) -> list[str]:
    """Rocket and strafing [15.3.6, 15.3.7]: at altitude 1 to the column before the target (coming down
    there if higher), then down into the target's square: one level in the turn of the attack, and never at
    altitude 0 beside it, which would fire the rockets from there at long range."""
    if sq.at[0] == column:
        return toward(sq, column, 1, mp)   # over it high: fly on and come back (15.2.5)
    before = column + (-1 if sq.at[0] < column else 1)
    if sq.at[0] != before:
        return toward(sq, before, 1, mp)
    if sq.at[1] <= 1:   # in: at most one level down in the turn of the attack
        into = [name((column, 0))]
        return into if _fits(sq, into, mp) else []
    return vertical(sq, before, 1, mp)


def kamikaze(sq: Squadron, target: Square, mp: int) -> list[str]:
    """Within seven squares, the shortest path to the target's square; farther, toward its column [15.5.3]."""
    if distance(sq.at, target) <= KAMIKAZE_RANGE:
        return movement.approach(sq, target, mp)
    return toward(sq, target[0], None, mp)


def own_move(sq: Squadron, kind: str, target: Square, mp: int, *, slow_torpedo: bool = False) -> list[str]:
    """The squadron's move this turn for an attack of ``kind`` on the unit at ``target``."""
    column = target[0]
    if kind in VERTICAL_RELEASE and sq.at[0] == column:
        if sq.run or may_begin_vertical(sq, column):
            return vertical(sq, column, VERTICAL_RELEASE[kind], mp)
        return [name((column, sq.at[1] - 1))] if sq.at[1] > 10 else []   # above 10: one level a turn first
    if kind == "glide":
        if sq.run or may_begin_glide(sq, column):
            return glide(sq, column, mp)
        start = column + (-2 if sq.at[0] < column else 2)
        return toward(sq, start, None, mp)
    if kind in ("rocket", "strafing"):
        return low_pass(sq, column, mp)
    if kind == "kamikaze":
        return kamikaze(sq, target, mp)
    tokens = toward(sq, column, GOAL_ALTITUDE.get(kind), mp)
    if kind == "torpedo" and slow_torpedo and sq.at[1] == 0:
        return tokens[:1]   # aiming a slow torpedo: 1 MP a turn [15.3.5.1]
    return tokens
