"""Executing the bombing attack [15.4]: the strength of the strike, the Bombing Table roll and the hits.

Pure arithmetic, no dice: the caller rolls 2d6.  The strength is the card's bomb load (20 for a torpedo,
the card's ATGR value for rockets, 1 + firepower for strafing), divided for a flight or a disrupted squadron
(by 2), a broken one (by 4), a broken flight (by 2, then by 4), and for some loads against a hardened target
(by 2); every division is rounded at once, a half up [1.2].  Hits are the strength times the percentage the
Bombing Table gives, rounded the same way (zero is possible) [15.4].

A target is anything with ``defence`` (its defensive modifier, added to the roll [14.0]), ``hardened`` and
``ship`` — the surface units of rule 14 (``surface.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .tables import halve, round_half_up, tables

TORPEDO_STRENGTH = 20      # always, whatever the card's bomb load [15.3.5]
KAMIKAZE_PER_AIRCRAFT = 3  # added per aircraft left in the squadron [15.5.3]


class Target(Protocol):
    """What a bombing attack reads of its target (rule 14's surface unit)."""

    @property
    def defence(self) -> int: ...

    @property
    def hardened(self) -> bool: ...

    @property
    def ship(self) -> bool: ...


@dataclass(frozen=True)
class Strike:
    """One squadron's attack as the Bombing Table sees it: the approach made, and the squadron's state."""

    kind: str                 # an approach of approaches.KINDS, or "kamikaze"
    bomb: int = 0             # the card's bomb load (or ATGR value for rockets)
    firepower: int = 0        # for strafing
    flight: bool = False
    disrupted: bool = False
    broken: bool = False
    aimed: bool = True
    long_range: bool = False
    altitude: int = 0         # of the release
    bombsight: str = "T"
    anvil: bool = False       # two torpedo attacks on the ship this turn [15.5.1]
    flak: str = ""            # "barrage" or "direct": the worst Bomb-column flak result it took [14.2.5]
    from_sun: bool = False    # a dive or steep attack from the sun on a ship [14.1.3]
    remaining: int = 0        # a kamikaze's aircraft left: max losses - losses [15.5.3]


def strength(s: Strike, target: Target) -> int:
    """The strength of the strike before the Bombing Table [15.3.5–15.3.7, 15.4, 15.5.2, 15.5.3]."""
    if s.kind == "torpedo":
        n = TORPEDO_STRENGTH
    elif s.kind == "strafing":
        n = 1 + s.firepower
    else:
        n = s.bomb
    if s.kind == "kamikaze":
        # the flight's halving first, then +3 per aircraft left, then disruption or breaking [15.5.3]
        n = halve(n) if s.flight else n
        n += KAMIKAZE_PER_AIRCRAFT * s.remaining
        if s.broken:
            n = round_half_up(n, 4)
        elif s.disrupted:
            n = halve(n)
    else:
        if s.flight or (s.disrupted and not s.broken):
            n = halve(n)
        if s.broken:
            n = round_half_up(n, 4)
    if target.hardened and s.kind in ("rocket", "strafing", "parafrag") or (s.kind == "parafrag" and target.ship):
        n = halve(n)
    return n


def target_modifier(s: Strike, target: Target) -> int:
    """The target's defensive modifier [14.0], one nearer zero for a dive or steep attack from the sun on a
    ship [14.1.3]."""
    d = target.defence
    if target.ship and s.from_sun and s.kind in ("dive", "steep") and d:
        d -= 1 if d > 0 else -1
    return d


def bombsight_modifier(bombsight: str, altitude: int) -> int:
    """The Altitude Modifier Table: the bombsight's modifier at the release altitude [15.4]."""
    rows = tables()["bombsight_altitude"]
    mod = 0
    for lowest, value in rows.get(bombsight or "T", rows["T"]):
        if altitude >= lowest:
            mod = value
    return mod


def modifiers(s: Strike, target: Target) -> list[tuple[str, int]]:
    """Every modifier of the Bombing Table roll, named [15.3, 15.4, 15.5, 14.0, 14.2.5]."""
    m = tables()["bombing_modifiers"]
    out = [("target", target_modifier(s, target)), ("bombsight", bombsight_modifier(s.bombsight, s.altitude))]
    if not s.aimed:
        out.append(("no aim", m["no_aim"]))
    if s.long_range:
        out.append(("long range", m["long_range"]))
    if s.anvil and s.kind == "torpedo":
        out.append(("anvil", m["anvil"]))
    for kind in ("parafrag", "kamikaze", "skip"):
        if s.kind == kind:
            out.append((kind, m[kind]))
    if s.flak:
        out.append((f"flak ({s.flak})", m[f"flak_{s.flak}"]))
    return [(name, value) for name, value in out if value]


def percent(total: int) -> int:
    """The Bombing Table: the percentage of the load that hits for a modified 2d6 roll [15.4]."""
    t = tables()["bombing_table"]
    row = t["percent"]
    return row[min(max(total - t["lowest"], 0), len(row) - 1)] if total >= t["lowest"] else row[0]


def hits(strength_: int, pct: int) -> int:
    """Hits on the target: the strength times the percentage, rounded to nearest, a half up [15.4, 1.2]."""
    return round_half_up(strength_ * pct, 100)


@dataclass(frozen=True)
class Result:
    strength: int
    roll: int
    modifier: int
    percent: int
    hits: int
    modifiers: tuple[tuple[str, int], ...]


def resolve(s: Strike, target: Target, roll: int) -> Result:
    """The whole of 15.4 for a 2d6 ``roll`` already made."""
    mods = modifiers(s, target)
    total_mod = sum(v for _, v in mods)
    n = strength(s, target)
    pct = percent(roll + total_mod)
    return Result(n, roll, total_mod, pct, hits(n, pct), tuple(mods))
