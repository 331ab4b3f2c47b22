"""Approaches [15.3]: how a bomber must fly before its strike, checked on the squares it flew.

A run is the list of squares a squadron has flown through since it began its approach, the first being the
square it began in (a run may take several turns; ``turn_start`` is the index of the square this turn's
movement began in).  Each approach has prerequisites (refused when not met, with the rule), aiming
instructions (failing them does not stop the strike, it gives the "no aim" modifier) and the point where the
bombs go.  A target sits on the ground, altitude 0, in its column [14.0]; "over the target" is its column.

Readings (NOTES.md, rule 15): a level run counts the straight, level squares *entered* up to and including the
first square over the target (as reconnaissance counts its four, 15.2.1.2); a dive or steep run goes straight
down, and one begun in the next column may make one step into the target's column (level or down); a
release altitude the player does not name is the lowest the approach allows.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from pbem.core.errors import IllegalOrderError

from . import loads, movement
from .model import Squadron
from .sky import HEADINGS, Square, name, step
from .tables import card

KINDS = ("level", "dive", "steep", "glide", "torpedo", "rocket", "strafing", "parafrag", "skip", "recon")
#: Squares of straight level flight a bombsight needs to aim [15.3.1]; reconnaissance needs four [15.2.1.2].
BOMBSIGHT_CELLS = {"T": 1, "V": 2, "G": 4}
RECON_CELLS = 4


class Aimed(Protocol):
    """What an approach reads of its target (rule 14's surface unit, ``surface.py``): its square, altitude 0
    of its column [14.0], and whether it is a ship."""

    @property
    def at(self) -> Square: ...

    @property
    def ship(self) -> bool: ...


@dataclass(frozen=True)
class Run:
    """What an approach came to: ``problem`` is why it may not be made ("" if it may); ``released`` whether
    the strike was made (at ``release``); ``aimed`` false gives the no-aim modifier; ``long_range`` a
    torpedo or rocket strike from the next column [15.3.5, 15.3.6]; ``immune`` a dive bomber that dived two
    levels or more this turn, out of air combat [15.3.2]."""

    kind: str
    problem: str = ""
    released: bool = False
    release: Square | None = None
    aimed: bool = False
    long_range: bool = False
    immune: bool = False


def _steps(path: Sequence[Square]) -> list[tuple[int, int]]:
    return [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)]


def _first_over(path: Sequence[Square], column: int, start: int = 0) -> int | None:
    return next((i for i in range(start, len(path)) if path[i][0] == column), None)


def straight_level(path: Sequence[Square], end: int) -> int:
    """How many squares the squadron entered in straight, level flight, ending with ``path[end]`` [15.3.1]."""
    steps = _steps(path[: end + 1])
    if not steps or steps[-1][1] != 0:
        return 0
    last, count = steps[-1], 0
    for s in reversed(steps):
        if s != last:
            break
        count += 1
    return count


def level(path: Sequence[Square], column: int, bombsight: str, *, cells: int = 0) -> Run:
    """Level bombing [15.3.1]: any aircraft; bombs go as soon as it is over the target; aimed when the
    last ``cells`` squares (by bombsight: T 1, V 2, G 4) were flown straight and level."""
    need = cells or BOMBSIGHT_CELLS.get(bombsight, BOMBSIGHT_CELLS["T"])
    i = _first_over(path, column)
    if i is None:
        return Run("level")
    return Run("level", released=True, release=path[i], aimed=straight_level(path, i) >= need)


def _vertical(kind: str, rule: str, path: Sequence[Square], column: int, release_alt: int,
              lowest: int, turn_start: int) -> tuple[Run, int]:
    """The shared shape of dive and steep runs [15.3.2, 15.3.3]; returns the run and the levels descended."""
    start = path[0]
    if not 2 <= start[1] <= 10:
        return Run(kind, problem=f"{rule}: the approach begins at altitude 2 to 10, not {start[1]}"), 0
    if abs(start[0] - column) > 1:
        return Run(kind, problem=f"{rule}: the approach begins over the target or in the next column"), 0
    if release_alt < lowest or release_alt >= start[1]:
        return Run(kind, problem=f"{rule}: the bombs go at altitude {lowest} or lower than the start, "
                                 f"not {release_alt}"), 0
    sideways = 0
    for i, (dc, da) in enumerate(_steps(path), start=1):
        if dc != 0:
            sideways += 1
            toward = (column - path[i - 1][0]) * dc > 0
            if sideways > 1 or not toward or da > 0:
                return Run(kind, problem=f"{rule}: the squadron dives straight down; from the next column "
                                         f"it enters the target's column once"), 0
        elif da != -1:
            return Run(kind, problem=f"{rule}: the squadron dives straight down"), 0
        if path[i][1] < release_alt:
            return Run(kind, problem=f"{rule}: the squadron dived below its release altitude "
                                     f"{release_alt}"), 0
        if path[i][0] == column and path[i][1] == release_alt:
            dived = sum(1 for k in range(max(turn_start, 0), i) if path[k + 1][1] < path[k][1])
            return Run(kind, released=True, release=path[i], immune=dived >= 2), start[1] - release_alt
    return Run(kind), 0


def dive(path: Sequence[Square], column: int, *, abilities: Sequence[str], sight: bool,
         release_alt: int = 0, turn_start: int = 0) -> Run:
    """Dive bombing [15.3.2]: Dive Brake only, the target in sight as the dive begins, from altitude 2–10
    over the target or the next column, straight down to 1 or 0; aimed after at least 4 levels; diving two
    levels or more in a turn keeps the squadron out of air combat that turn."""
    if "dive_brakes" not in abilities:
        return Run("dive", problem="15.3.2: only aircraft with a Dive Brake may dive-bomb")
    if not sight:
        return Run("dive", problem="15.3.2: the squadron must see the target before the dive begins [4.6]")
    if release_alt not in (0, 1):
        return Run("dive", problem=f"15.3.2: dive bombs go at altitude 1 or 0, not {release_alt}")
    run, descended = _vertical("dive", "15.3.2", path, column, release_alt, 0, turn_start)
    return Run("dive", run.problem, run.released, run.release, descended >= 4, immune=run.immune)


def steep(path: Sequence[Square], column: int, *, abilities: Sequence[str], aircraft_class: str,
          fighter_bomber: bool, sight: bool, release_alt: int = 1) -> Run:
    """Steep-angle bombing [15.3.3]: fighter-bombers and dive bombers (a Dive Brake), others only with Speed
    Brakes; the target in sight; from 2–10 straight down to 1 or higher; aimed after at least 3 levels."""
    dive_bomber = aircraft_class == "dive_bomber" or "dive_brakes" in abilities
    if not (fighter_bomber or dive_bomber or "speed_brakes" in abilities):
        return Run("steep", problem="15.3.3: only fighter-bombers, dive bombers and aircraft with Speed "
                                    "Brakes may make a steep-angle attack")
    if not sight:
        return Run("steep", problem="15.3.3: the squadron must see the target before the dive begins [4.6]")
    run, descended = _vertical("steep", "15.3.3", path, column, release_alt, 1, 0)
    return Run("steep", run.problem, run.released, run.release, descended >= 3)


def glide(path: Sequence[Square], column: int, *, aircraft_class: str, sight: bool) -> Run:
    """Glide bombing [15.3.4]: anything but heavy bombers; the target in sight; begun exactly two columns
    from the target, one level down for each column flown toward it (from altitude 3 it is over the target at
    1, the rule's own example); aimed when it came down exactly 2."""
    if aircraft_class == "heavy_bomber":
        return Run("glide", problem="15.3.4: heavy bombers may not glide-bomb")
    if not sight:
        return Run("glide", problem="15.3.4: the squadron must see the target before the glide begins [4.6]")
    start = path[0]
    if abs(start[0] - column) != 2:
        return Run("glide", problem="15.3.4: a glide begins exactly two columns from the target")
    if start[1] < 2:
        return Run("glide", problem="15.3.4: a glide comes down two levels, so it begins at altitude 2 or more")
    toward = 1 if column > start[0] else -1
    for i, move in enumerate(_steps(path), start=1):
        if move != (toward, -1):
            return Run("glide", problem="15.3.4: the squadron glides down one level for each column "
                                        "toward the target")
        if path[i][0] == column:
            return Run("glide", released=True, release=path[i], aimed=start[1] - path[i][1] == 2)
    return Run("glide")


def torpedo(path: Sequence[Square], column: int, *, abilities: Sequence[str], ship: bool,
            adjacent: bool = False) -> Run:
    """A torpedo attack [15.3.5]: torpedo-equipped aircraft against a ship; it flies at altitude 0 without
    turning toward the target and drops over it, or in the column before it (``adjacent``, long range);
    aimed after at least two squares straight at altitude 0."""
    if "torpedo" not in abilities:
        return Run("torpedo", problem="15.3.5: only aircraft equipped with torpedoes may make a torpedo attack")
    if not ship:
        return Run("torpedo", problem="15.3.5: a torpedo attack is made only at sea, against a ship")
    for i in range(1, len(path)):
        at, before = path[i], path[i - 1]
        dc = at[0] - before[0]
        facing = dc != 0 and (column - before[0]) * dc > 0
        drop = at[0] == column or (adjacent and abs(at[0] - column) == 1 and (column - at[0]) * dc > 0)
        if drop:
            if at[1] != 0 or before[1] != 0 or not facing:
                return Run("torpedo", problem="15.3.5: the torpedo goes from altitude 0, flying straight "
                                              "at the target")
            return Run("torpedo", released=True, release=at, aimed=straight_level(path, i) >= 2,
                       long_range=at[0] != column)
    return Run("torpedo")


def _low_pass(kind: str, rule: str, path: Sequence[Square], column: int, turn_start: int,
              adjacent_ok: bool) -> Run:
    """Rocket and strafing attacks: the strike comes on entering the target's square (for rockets also the
    next one, facing the target) at altitude 0, having come down at most one level this turn."""
    for i in range(1, len(path)):
        at, before = path[i], path[i - 1]
        dc = at[0] - before[0]
        here = at == (column, 0)
        beside = adjacent_ok and at[1] == 0 and abs(at[0] - column) == 1 and dc != 0 and (column - at[0]) * dc > 0
        if here or beside:
            fell = path[max(turn_start, 0)][1] - at[1]
            if fell > 1:
                return Run(kind, problem=f"{rule}: in the turn of the attack the squadron may come down one "
                                         f"level at most, not {fell}")
            return Run(kind, released=True, release=at, aimed=True, long_range=not here)
    return Run(kind)


def rocket(path: Sequence[Square], column: int, *, abilities: Sequence[str], turn_start: int = 0) -> Run:
    """A rocket attack [15.3.6]: ATGR-equipped aircraft; at altitude 0 in the target's square, or the next one
    facing it (long range)."""
    if "atgr" not in abilities:
        return Run("rocket", problem="15.3.6: only aircraft equipped with ATGR may make a rocket attack")
    return _low_pass("rocket", "15.3.6", path, column, turn_start, adjacent_ok=True)


def strafing(path: Sequence[Square], column: int, *, armed: bool, mission: str, ammo: int,
             turn_start: int = 0) -> Run:
    """A strafing attack [15.3.7]: an armed squadron on a sweep or strafing mission with ammunition left
    (not Depleted); the strike comes on entering the target's square."""
    if not armed:
        return Run("strafing", problem="15.3.7: an unarmed squadron (firepower U) may not strafe [3.3]")
    if mission not in ("sweep", "strafing"):
        return Run("strafing", problem=f"15.3.7: only sweep and strafing missions strafe, not {mission}")
    if ammo >= 2:
        return Run("strafing", problem="15.3.7: a squadron that has expended its ammunition may not strafe")
    return _low_pass("strafing", "15.3.7", path, column, turn_start, adjacent_ok=False)


def parafrag(path: Sequence[Square], column: int, bombsight: str) -> Run:
    """A parafrag attack [15.5.2]: level bombing at altitude 0 or 1."""
    run = level(path, column, bombsight)
    if run.release and run.release[1] > 1:
        return Run("parafrag", problem="15.5.2: parafrags are dropped in level flight at altitude 0 or 1")
    return Run("parafrag", run.problem, run.released, run.release, run.aimed)


def skip(path: Sequence[Square], column: int, bombsight: str, *, allowed: bool, ship: bool) -> Run:
    """Skip bombing [15.5.4]: only where the scenario allows it, against a ship, level at altitude 0."""
    if not allowed:
        return Run("skip", problem="15.5.4: skip bombing only where the scenario allows it")
    if not ship:
        return Run("skip", problem="15.5.4: skip bombing is made only against ships")
    run = level(path, column, bombsight)
    if run.release and run.release[1] != 0:
        return Run("skip", problem="15.5.4: skip bombs are dropped in level flight at altitude 0")
    return Run("skip", run.problem, run.released, run.release, run.aimed)


def recon(path: Sequence[Square], column: int, *, sight_all_the_way: bool) -> Run:
    """Reconnaissance [15.2.1.2]: a level run with no bombsight of four squares, the last over the target, the
    target in sight throughout; success is decided later (unbroken after flak)."""
    run = level(path, column, "", cells=RECON_CELLS)
    return Run("recon", released=run.released, release=run.release, aimed=run.aimed and sight_all_the_way)


def check(sq: Squadron, kind: str, path: Sequence[Square], target: Aimed, *, load: str, sight: bool = True,
          release_alt: int | None = None, adjacent: bool = False, turn_start: int = 0,
          skip_allowed: bool = False, fighter_bomber: bool = False, sight_all_the_way: bool = True) -> Run:
    """A squadron's run of ``kind`` at ``target``, its card and load read: the load first [15.1], then the
    approach's own prerequisites and aim [15.3, 15.5].  ``release_alt`` None = the lowest allowed."""
    if kind not in KINDS:
        return Run(kind, problem=f"15.3: {kind!r} is not an approach ({', '.join(KINDS)})")
    problem = loads.approach_problem(load, kind)
    if problem:
        return Run(kind, problem=problem)
    c = card(sq.model)
    abilities, cls, sight_kind, column = c["abilities"], c["class"], c.get("bombsight", "T"), target.at[0]
    if kind == "level":
        return level(path, column, sight_kind)
    if kind == "dive":
        return dive(path, column, abilities=abilities, sight=sight,
                    release_alt=0 if release_alt is None else release_alt, turn_start=turn_start)
    if kind == "steep":
        return steep(path, column, abilities=abilities, aircraft_class=cls, fighter_bomber=fighter_bomber,
                     sight=sight, release_alt=1 if release_alt is None else release_alt)
    if kind == "glide":
        return glide(path, column, aircraft_class=cls, sight=sight)
    if kind == "torpedo":
        return torpedo(path, column, abilities=abilities, ship=target.ship, adjacent=adjacent)
    if kind == "rocket":
        return rocket(path, column, abilities=abilities, turn_start=turn_start)
    if kind == "strafing":
        mission = "strafing" if sq.mission == "bombing" else sq.mission   # the bombing variant [15.2.1.1]
        return strafing(path, column, armed=sq.armed, mission=mission, ammo=sq.ammo, turn_start=turn_start)
    if kind == "parafrag":
        return parafrag(path, column, sight_kind)
    if kind == "skip":
        return skip(path, column, sight_kind, allowed=skip_allowed, ship=target.ship)
    return recon(path, column, sight_all_the_way=sight_all_the_way)


# ---- the order: a bomb run planned in the movement window [15.3] ------------------------------------------

@dataclass(frozen=True)
class Approach:
    """``APPROACH <sq> <kind> <target> [RELEASE <altitude>] [EARLY] <steps>...``: the squadron begins (or goes
    on with) an approach of ``kind`` at surface unit ``target``, flying ``steps`` as a ``MOVE`` does [15.3];
    ``RELEASE`` names the dive or steep release altitude, ``EARLY`` drops a torpedo in the column before the
    ship [15.3.5]."""

    sq: str
    kind: str
    target: str
    steps: tuple[str, ...] = ()
    release: int | None = None
    early: bool = False

    def text(self) -> str:
        extra = (f" RELEASE {self.release}" if self.release is not None else "") + (" EARLY" if self.early else "")
        return " ".join([f"APPROACH {self.sq} {self.kind.upper()} {self.target}{extra}", *self.steps]).strip()


def parse_approach(words: Sequence[str]) -> Approach:
    """The words after ``APPROACH``.  :raises IllegalOrderError: not an approach order (rule 15.3)."""
    if len(words) < 3:
        raise IllegalOrderError("write APPROACH <squadron> <kind> <target> [RELEASE <altitude>] [EARLY] <steps>; "
                                f"kinds: {', '.join(k.upper() for k in KINDS)}", rule="15.3")
    sq, kind, target, rest = words[0].upper(), words[1].lower(), words[2].upper(), [w.upper() for w in words[3:]]
    if kind not in KINDS:
        raise IllegalOrderError(f"{words[1]!r} is not an approach ({', '.join(k.upper() for k in KINDS)})",
                                rule="15.3")
    release, early = None, False
    while rest and rest[0] in ("RELEASE", "EARLY"):
        if rest[0] == "EARLY":
            early, rest = True, rest[1:]
            continue
        if len(rest) < 2 or not rest[1].isdigit():
            raise IllegalOrderError("RELEASE is followed by the release altitude, e.g. RELEASE 1", rule="15.3")
        release, rest = int(rest[1]), rest[2:]
    if early and kind != "torpedo":
        raise IllegalOrderError("EARLY (dropping in the column before the target) is for torpedoes only",
                                rule="15.3.5")
    return Approach(sq, kind, target, tuple(rest), release, early)


def planned(sq: Squadron, order: Approach, target: Aimed, *, load: str, mp: int,
            flown: Sequence[Square] = (), sight: bool = True, skip_allowed: bool = False,
            fighter_bomber: bool = False) -> Run:
    """The ingest check of an approach order: its steps walked as a move (refused as a move is, 8.x), then the
    run — the squares ``flown`` on earlier turns of this approach, then this turn's — checked as the approach
    requires [15.1, 15.3].  A problem is returned in the Run; a step the movement rules forbid raises."""
    walk = movement.walk(sq, order.steps, mp)
    start = list(flown) or [sq.at]
    path = start + list(walk.path)
    return check(sq, order.kind, path, target, load=load, sight=sight, release_alt=order.release,
                 adjacent=order.early, turn_start=len(start) - 1, skip_allowed=skip_allowed,
                 fighter_bomber=fighter_bomber)


def toward_column(sq: Squadron, column: int, mp: int) -> list[str]:
    """A bomber's own move on its way to the target [15.2.1]: level toward the target's column, two squares
    for 2 MP (a jet bomber three for 3), stopping over it; nothing once there (the approach is the player's)."""
    if sq.at[0] == column:
        return []
    heading = HEADINGS.index("E" if column > sq.at[0] else "W")
    squares = 3 if "jet" in card(sq.model)["abilities"] else 2
    tokens: list[str] = []
    at = sq.at
    for _ in range(squares):
        at = step(at, heading)
        try:
            movement.walk(sq, tokens + [name(at)], mp)
        except IllegalOrderError:
            break
        tokens.append(name(at))
        if at[0] == column:
            break
    return tokens
