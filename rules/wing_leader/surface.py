"""Surface and ground units: ships and targets on the ground, their damage and its effects [14.0, 14.1].

A surface unit never moves and sits at altitude 0 of its column [14.0]; any number share a square.  Its counter
gives a type (DD, CL, CA, CV, CVL, CVE, BC, BB, Aux and PG are ships), a defensive modifier added to every attack
on it (underlined: an armoured ship), a damage rating — the bomb hits that do heavy damage (with a triangle: a
hardened target) —, its flak ratings [14.2] and the victory points heavy damage earns.

Hits add up over the game [14.1.1]; the damage level is the highest the total reaches, and only that level's
victory points count.  A unit is never removed, however badly hit.  Heavy damage or worse silences its flak for
the rest of the game [14.1.2] and stops takeoffs from it [13.7]; critical damage or worse leaves a ship immobile,
and an immobile ship's defensive modifier is 0 [14.1.3].

Scenario rows (``[[<scenario>.surfaces]]`` in ``scenarios.toml``)::

    {id = "T1", type = "CV", at = "M", defence = 2, armoured = false, damage = 4, hardened = false,
     flak = ["H1^2", "L1^1"], vp = 6, immobile = false, side = "allies"}

``at`` is a column letter (or a square of altitude 0); ``side`` defaults to the scenario's Defender [14.0].  A flak
rating is written type, strength, ``^`` and the number of targets (``H1^2``; small arms have none: ``S1``); a
leading ``_`` stands for the underline of low-angle naval guns (``_H1^2``, 14.2.8).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .sky import parse

SHIPS = ("DD", "CL", "CA", "CV", "CVL", "CVE", "BC", "BB", "AUX", "PG")
CARRIERS = ("CV", "CVL", "CVE")
#: Flak types [14.2]: small arms (barrage only), light and heavy flak (barrage or direct fire).
SMALL, LIGHT, HEAVY = "S", "L", "H"
#: Damage levels [14.1.1], lightest first; "" = no hit yet.
NO_DAMAGE, MINOR, LIGHT_DAMAGE, HEAVY_DAMAGE, CRITICAL, FATAL = "", "minor", "light", "heavy", "critical", "fatal"
LEVELS = (NO_DAMAGE, MINOR, LIGHT_DAMAGE, HEAVY_DAMAGE, CRITICAL, FATAL)

_RATING = re.compile(r"^(_?)([SLH])([0-2])(?:\^(\d+))?$")


@dataclass(frozen=True)
class Flak:
    """One flak rating of a unit, e.g. ``H1^2`` [14.2]: type, strength 0–2 and the squadrons it may engage by
    direct fire each turn (none for small arms); ``low_angle`` for an underlined heavy naval rating [14.2.8]."""

    kind: str
    strength: int
    targets: int = 0
    low_angle: bool = False

    @property
    def direct(self) -> bool:
        """Light and heavy flak may fire directly; small arms only barrage [14.2, 14.2.1]."""
        return self.kind in (LIGHT, HEAVY)

    def text(self) -> str:
        return f"{'_' if self.low_angle else ''}{self.kind}{self.strength}" + (f"^{self.targets}" if self.direct else "")


def parse_flak(text: str) -> Flak:
    """``"H1^2"`` -> heavy flak, strength 1, two targets [14.2].  :raises ValueError: not a flak rating."""
    m = _RATING.match(text.strip().upper())
    if not m:
        raise ValueError(f"{text!r} is not a flak rating: type S, L or H, strength 0-2, '^' and targets (e.g. H1^2) [14.2]")
    under, kind, strength, targets = m.groups()
    if kind == SMALL and targets:
        raise ValueError(f"{text!r}: small arms fire only barrage and have no number of targets [14.2]")
    if kind != SMALL and not targets:
        raise ValueError(f"{text!r}: light and heavy flak give their number of targets (e.g. {kind}{strength}^1) [14.2]")
    if under and kind != HEAVY:
        raise ValueError(f"{text!r}: only heavy naval guns are underlined as low-angle [14.2.8]")
    return Flak(kind, int(strength), int(targets or 0), bool(under))


@dataclass(frozen=True)
class Surface:
    """A surface or ground unit and the hits it has taken [14.0, 14.1.1]."""

    id: str
    type: str
    column: int
    side: str
    defence: int = 0             # defensive modifier, added to any attack on it [14.0]
    armoured: bool = False       # underlined defensive modifier: an armoured ship [14.0]
    damage: int = 1              # damage rating: the hits that do heavy damage [14.0, 14.1.1]
    hardened: bool = False       # triangle by the damage rating [14.0]
    flak: tuple[Flak, ...] = ()  # each rating fires as its own flak unit [14.1.3, 14.2]
    vp: int = 0                  # victory points for heavy damage [14.0, 14.1.1]
    hits: int = 0                # bomb hits so far, cumulative [14.1.1]
    immobile_at_start: bool = False  # a ship the scenario declares immobile [14.1.3]
    launched_turn: int = 0       # the last turn a squadron took off from it (a carrier's modifier is 0 then, 13.7.1)
    reconnoitred: bool = False   # a reconnaissance of it was carried out [14.1.1, 15.2.1.2]

    @property
    def at(self) -> tuple[int, int]:
        """Its square: altitude 0 of its column [14.0]."""
        return (self.column, 0)

    @property
    def ship(self) -> bool:
        return self.type.upper().rstrip("0123456789") in SHIPS

    @property
    def carrier(self) -> bool:
        return self.type.upper().rstrip("0123456789") in CARRIERS

    @property
    def level(self) -> str:
        return damage_level(self.hits, self.damage)

    @property
    def suppressed(self) -> bool:
        """Hits at least its damage rating: its flak is silent for the rest of the game [14.1.2]."""
        return self.hits >= self.damage

    @property
    def takeoff_prohibited(self) -> bool:
        """Heavy damage or worse: nothing takes off from it [14.1.1, 13.7]."""
        return LEVELS.index(self.level) >= LEVELS.index(HEAVY_DAMAGE)

    @property
    def immobile(self) -> bool:
        """A ship with critical or fatal damage, or declared immobile by the scenario [14.1.3]."""
        return self.ship and (self.immobile_at_start or LEVELS.index(self.level) >= LEVELS.index(CRITICAL))

    def defence_against(self, *, from_sun: bool = False, dive_or_steep: bool = False, turn: int = 0) -> int:
        """The defensive modifier an attack meets [14.0]: 0 for an immobile ship [14.1.3] or a carrier that
        launched this turn [13.7.1]; a dive or steep attack on a ship from the Sun takes 1 off it, toward zero
        [14.1.3]."""
        if (self.ship and self.immobile) or (self.carrier and turn and self.launched_turn == turn):
            return 0
        value = self.defence
        if self.ship and from_sun and dive_or_steep and value:
            value -= 1 if value > 0 else -1
        return value

    @property
    def victory_points(self) -> int:
        """What it is worth to the side that attacked it: the highest damage level's points only; a
        reconnaissance of an undamaged unit is worth its value [14.1.1]."""
        points = damage_vp(self.hits, self.damage, self.vp)
        return max(points, self.vp) if self.reconnoitred else points

    def hit(self, hits: int) -> Surface:
        """The unit after ``hits`` more bomb hits (they add up, 14.1.1)."""
        return replace(self, hits=self.hits + max(0, hits))

    def firing(self) -> tuple[Flak, ...]:
        """Its flak units that may still fire: none once suppressed [14.1.2]."""
        return () if self.suppressed else self.flak


@dataclass(frozen=True)
class Barrage:
    """A Barrage marker of flak unit ``unit`` (flak.py) on the point below and to the left of square ``point``
    [14.2.2]."""

    unit: str
    point: tuple[int, int]


BALLOON_MAX_LOSSES = 3   # a balloon is removed at its third loss [14.3]


@dataclass(frozen=True)
class Balloon:
    """A barrage balloon [14.3]: set up at altitude 0-2, never moving; a strength-0 barrage flak zone in its
    square and every square below it; removed, with its zone, at three losses."""

    id: str
    at: tuple[int, int]
    side: str
    losses: int = 0

    @property
    def up(self) -> bool:
        return self.losses < BALLOON_MAX_LOSSES

    def zone(self) -> set[tuple[int, int]]:
        return {(self.at[0], a) for a in range(self.at[1] + 1)} if self.up else set()


def balloon_from_row(row: Any, defender: str) -> Balloon:
    """A scenario's ``balloons`` entry ``[id, square]`` (the Defender's) [14.3].  :raises ValueError: not at 0-2."""
    bid, where = row[0], row[1]
    at = parse(where)
    if not 0 <= at[1] <= 2:
        raise ValueError(f"balloon {bid} at {where}: balloons are set up at altitude 0 to 2 (14.3)")
    return Balloon(str(bid), at, defender)


def damage_level(hits: int, rating: int) -> str:
    """The damage level ``hits`` reach against damage rating ``rating`` [14.1.1].

    Reading (the rule leaves exactly half the rating uncovered: light needs more than half, minor less than
    half): exactly half is **minor** — light damage needs strictly more than half, compared unrounded."""
    if hits <= 0:
        return NO_DAMAGE
    if hits >= 3 * rating:
        return FATAL
    if hits >= 2 * rating:
        return CRITICAL
    if hits >= rating:
        return HEAVY_DAMAGE
    if 2 * hits > rating:
        return LIGHT_DAMAGE
    return MINOR


def damage_vp(hits: int, rating: int, vp: int) -> int:
    """Victory points for the damage level reached [14.1.1]: fatal 3x, critical 2x, heavy 1x the unit's VP,
    light half of it (a half rounds up, 1.2), minor 1."""
    level = damage_level(hits, rating)
    return {NO_DAMAGE: 0, MINOR: 1, LIGHT_DAMAGE: (vp + 1) // 2, HEAVY_DAMAGE: vp,
            CRITICAL: 2 * vp, FATAL: 3 * vp}[level]


def surface_status(unit: Surface) -> dict[str, Any]:
    """What a view shows of a unit beyond its record: damage level and its effects, and a form line [14.1]."""
    from .sky import name
    effects = [e for e, on in (("flak suppressed (14.1.2)", unit.suppressed and bool(unit.flak)),
                               ("no takeoff (13.7)", unit.takeoff_prohibited), ("immobile (14.1.3)", unit.immobile)) if on]
    flak = " ".join(f.text() for f in unit.flak) or "none"
    line = (f"surface unit {unit.id} ({unit.type}, {unit.side}) at {name(unit.at)}: defensive modifier "
            f"{unit.defence}{' armoured' if unit.armoured else ''}, damage rating {unit.damage}"
            f"{' hardened' if unit.hardened else ''}, flak {flak}, {unit.vp} VP; {unit.hits} hits, "
            f"{unit.level or 'undamaged'}" + (f", {', '.join(effects)}" if effects else "") + " [14.0, 14.1.1]")
    return {"id": unit.id, "level": unit.level, "suppressed": unit.suppressed, "immobile": unit.immobile,
            "takeoff_prohibited": unit.takeoff_prohibited, "victory_points": unit.victory_points, "line": line}


def from_row(row: Mapping[str, Any], defender: str) -> Surface:
    """A surface unit from its scenario row (see the module docstring).  :raises ValueError: a bad row."""
    from .sky import COLUMNS   # sky imports nothing of ours; local to keep this module free-standing
    at = str(row["at"]).strip().upper()
    if not at or at[0] not in COLUMNS or (at[1:] and at[1:] != "0"):
        raise ValueError(f"surface unit {row.get('id')!r}: {row['at']!r} is not a column (or a square at altitude 0) [14.0]")
    damage = int(row.get("damage", 1))
    if damage < 1:
        raise ValueError(f"surface unit {row.get('id')!r}: damage rating must be at least 1 [14.0]")
    return Surface(id=str(row["id"]), type=str(row["type"]), column=COLUMNS.index(at[0]),
                   side=str(row.get("side", defender)), defence=int(row.get("defence", 0)),
                   armoured=bool(row.get("armoured", False)), damage=damage, hardened=bool(row.get("hardened", False)),
                   flak=tuple(parse_flak(t) for t in row.get("flak", ())), vp=int(row.get("vp", 0)),
                   immobile_at_start=bool(row.get("immobile", False)))
