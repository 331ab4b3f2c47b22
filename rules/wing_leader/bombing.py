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

from .approaches import Run
from .model import Squadron
from .sky import Square, distance
from .tables import card, halve, round_half_up, tables

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
    flak: int = 0             # the worst flak Bomb-column result it took this turn (0, -1 or -2) [14.2.5]
    from_sun: bool = False    # a dive or steep attack from the sun on a ship [14.1.3]
    remaining: int = 0        # a kamikaze's aircraft left: max losses - losses [15.5.3]
    card_modifier: int = 0    # the card's torpedo attack modifier [15.3.5]
    turn: int = 0             # the turn (a carrier that launched this turn has modifier 0, 13.7.1)


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
    own = getattr(target, "defence_against", None)
    if callable(own):   # rule 14's surface unit knows its immobile and launching cases too [14.1.3, 13.7.1]
        return int(own(from_sun=s.from_sun, dive_or_steep=s.kind in ("dive", "steep"), turn=s.turn))
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
    if s.kind == "torpedo":
        out.append(("torpedo (card)", s.card_modifier))
    for kind in ("parafrag", "kamikaze", "skip"):
        if s.kind == kind:
            out.append((kind, m[kind]))
    out.append(("flak", s.flak))
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


def strike_of(sq: Squadron, run: Run, target: Target, *, anvil: bool = False, flak: int = 0,
              from_sun: bool = False, max_losses: int = 0, turn: int = 0, kamikaze: bool = False) -> Strike:
    """The strike a released run makes, read from the squadron and its card [15.3, 15.4, 15.5]: the card's bomb
    load (its ATGR value for rockets), firepower for strafing, a flight, disrupted or broken squadron, the
    release altitude and bombsight; a kamikaze's aircraft left are ``max_losses`` less its losses."""
    c = card(sq.model)
    kind = "kamikaze" if kamikaze else run.kind
    return Strike(kind, bomb=int(c.get("atgr" if kind == "rocket" else "bomb", 0)), firepower=sq.firepower or 0,
                  flight=sq.flight, disrupted=sq.disruption > 0 and not sq.broken, broken=sq.broken,
                  aimed=run.aimed, long_range=run.long_range, altitude=run.release[1] if run.release else 0,
                  bombsight=c.get("bombsight", "T"), anvil=anvil, flak=flak, from_sun=from_sun,
                  remaining=max(0, max_losses - sq.losses), card_modifier=int(c.get("torpedo_modifier", 0)),
                  turn=turn)


def anvils(torpedo_targets: list[str]) -> set[str]:
    """The ships two squadrons or more torpedo this turn: every torpedo attack on them gets the Anvil [15.5.1]."""
    return {t for t in torpedo_targets if torpedo_targets.count(t) >= 2}


# ---- the bombing mission on its way to the target [15.2.1, 15.2.4, 15.5.3] -------------------------------

def altitude_problem(path: list[Square], target_column: int, *, load: str, strafing: bool = False) -> str:
    """A bomber not on an approach climbs or dives one level a turn at most; a strafer or an ATGR load within
    two columns of the target may come down any number [15.2.1].  ``path`` is this turn's squares."""
    if len(path) < 2:
        return ""
    changed = sum(abs(b[1] - a[1]) for a, b in zip(path, path[1:], strict=False))
    if changed <= 1:
        return ""
    free = (strafing or load == "atgr") and abs(path[0][0] - target_column) <= 2 and all(
        b[1] <= a[1] for a, b in zip(path, path[1:], strict=False))
    return "" if free else (f"15.2.1: a bomber on its way changes altitude one level a turn, not {changed}"
                            " (a strafer or an ATGR load may dive freely within two columns of its target)")


def fighter_bomber_allowance(sq: Squadron, enemy_targets: list[Square]) -> int:
    """A fighter-bomber starting its move within three squares of an enemy surface unit has 3 MP, not the
    bombers' 2 [15.2.4]."""
    near = any(distance(sq.at, t) <= 3 for t in enemy_targets)
    return 3 if near else 2


def circling_problem(*, has_circled: bool, approaching: bool) -> str:
    """A bomber may begin circling once a game, before its approach [15.2.1, 15.3]."""
    if approaching:
        return "15.3: no circling during an approach"
    return "15.2.1: a bomber begins circling once a game and may not begin again" if has_circled else ""


KAMIKAZE_RANGE = 7


def kamikaze_problem(sq: Squadron, target_at: Square) -> str:
    """A kamikaze declares a surface target within 7 squares [15.5.3]."""
    d = distance(sq.at, target_at)
    return "" if d <= KAMIKAZE_RANGE else f"15.5.3: a kamikaze's target is within {KAMIKAZE_RANGE} squares, not {d}"


# ---- what the players are told ------------------------------------------------------------------------------

#: Ways to roll each total on 2d6, of 36.
TWO_DICE = {t: 6 - abs(t - 7) for t in range(2, 13)}


def chances(s: Strike, target: Target) -> dict[int, int]:
    """For a planned strike, the hits it may score and in how many of the 36 rolls of 2d6 each comes [15.4]:
    what the acknowledgement of a bomb run previews."""
    mod = sum(v for _, v in modifiers(s, target))
    n = strength(s, target)
    out: dict[int, int] = {}
    for total, ways in TWO_DICE.items():
        h = hits(n, percent(total + mod))
        out[h] = out.get(h, 0) + ways
    return dict(sorted(out.items()))


def preview(s: Strike, target: Target, target_id: str) -> str:
    """One line: strength, modifiers and the spread of hits, e.g. ``strength 12, modifiers -3 (no aim -3): 0
    hits 10/36, 1 hit 6/36 ... (on average 1.9) [15.4]``."""
    mods = modifiers(s, target)
    spread = chances(s, target)
    mean = sum(h * ways for h, ways in spread.items()) / 36
    named = ", ".join(f"{name} {value:+d}" for name, value in mods)
    total = sum(v for _, v in mods)
    parts = ", ".join(f"{h} hit{'s' if h != 1 else ''} {ways}/36" for h, ways in spread.items())
    return (f"{s.kind} attack on {target_id}: strength {strength(s, target)}, modifier {total:+d}"
            f"{f' ({named})' if named else ''}: {parts} (on average {mean:.1f}) [15.4]")


def describe(sid: str, target_id: str, s: Strike, r: Result) -> str:
    """The event of a strike resolved in the Combat Phase [15.4]."""
    named = "".join(f" {name} {value:+d}" for name, value in r.modifiers)
    return (f"{sid}'s {s.kind} attack on {target_id}: strength {r.strength}, roll {r.roll}{named} = "
            f"{r.roll + r.modifier}: {r.percent}% of the load hits, {r.hits} hit{'s' if r.hits != 1 else ''} [15.4]")


def escort_follows(bomber_before: Square, bomber_after: Square) -> int:
    """The levels an escort climbs (+) or dives (-) with its bombers' change of altitude or approach [15.2.2]."""
    return bomber_after[1] - bomber_before[1]


def approach_allowance(sq: Squadron, mp: int, *, kind: str, aiming: bool, descending: bool) -> int:
    """Movement on an approach [15.3]: the full allowance (no circling), +1 for a descent where the approach
    changes altitude (the 8.2 bonus, which bombers on their way do not get, 15.2.1); a slow torpedo
    aircraft moves 1 MP a turn while aiming [15.3.5.1]."""
    if kind == "torpedo" and aiming and "slow_torpedo" in card(sq.model)["abilities"]:
        return 1
    return mp + (1 if descending and kind in ("dive", "steep", "glide", "rocket", "strafing") else 0)


def may_evade(approaching: bool) -> bool:
    """Bombers on an approach cannot evade [15.3, 13.4.2]."""
    return not approaching


def after_pursuit(sq: Squadron) -> Squadron:
    """A fighter-bomber that begins pursuing jettisons its load and is a fighter again: a Sweep, Alert,
    which may strafe [15.2.4, 3.2.1]."""
    if not may_decline_pursuit(sq):   # not a fighter-bomber
        return sq
    return sq.move(bombs=False, mission="sweep", alert=True)


def may_decline_pursuit(sq: Squadron) -> bool:
    """After air combat only a defending fighter-bomber still carrying its load may decline to pursue [15.2.4]."""
    return sq.mission == "bombing" and sq.bombs and card(sq.model)["class"] == "fighter"



def recon_succeeds(run: Run, *, broken_after_flak: bool) -> bool:
    """Reconnaissance succeeds when its aiming was done and the squadron is unbroken after the Combat Phase's
    flak; its victory points come when it leaves the map or escapes, even broken by then [15.2.1.2]."""
    return run.kind == "recon" and run.released and run.aimed and not broken_after_flak
