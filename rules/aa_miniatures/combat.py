"""The attack: range bands, the dice and their modifiers, the hits table, face-down markers, cover
and the Casualty Phase.  Pure functions of cards and units; the dice are passed in."""
from __future__ import annotations

from collections.abc import Sequence
from math import comb

from pbem.core.hexgrid import Arc, Hex, arc, distance
from pbem.core.texts import t_

from .model import Unit
from .tables import AIRCRAFT, BANDS, VEHICLE, tables

BAND_RULE = t_("Range bands, L84-L90")
HITS_RULE = t_("Hits, L106-L116")


def band(a: Hex, b: Hex) -> str | None:
    """Close, medium or long for the hex distance (the attacker's hex not counted, the target's
    counted, L84-L90); None beyond long range (no column beyond 8 hexes, digest 4.1)."""
    n = distance(a, b)
    limits = tables()["range"]
    return next((name for name in BANDS if n <= limits[name]), None)


def facing_defence(target: Unit, attacker_hex: Hex, *, advanced: bool = False) -> str:
    """``front`` or ``rear``: a vehicle uses its front defence only when attacked from its front arc;
    from the same hex or exactly abeam it uses the rear (L160-L180).  Other kinds use the first value
    under the Standard rules (facing matters for vehicles only); under the Advanced rules facing
    matters for every unit (L17, option ``rules=advanced``, digest G30)."""
    if target.stats.kind != VEHICLE and not advanced:
        return "front"
    return "front" if arc(target.hex, target.facing, attacker_hex) is Arc.FRONT else "rear"


def defence(target: Unit, side: str) -> int:
    """The defence used: front or rear, -1 when Disrupted or Damaged (once, L298, L318, L328); never
    below 1, where the table would make every attack a 3-hit kill (digest G: D = 0 clamp)."""
    card = target.stats
    value = card.front if side == "front" else card.rear
    if target.impaired:
        value += tables()["modifiers"]["impaired_defence"]
    return max(1, value)


def die_modifier(attacker: Unit, target: Unit, *, enfilade: bool = False, aircraft_front: bool = False) -> int:
    """What is added to every die: -1 impaired attacker (L98, L328), -1 against an aircraft unless
    the shooter is in its front (L50, L248) or has AA (digest G17), +1 enfilade (L258), +1 crack shot,
    never against an aircraft (L78).  ``aircraft_front`` matters only when the target is an aircraft."""
    mods = tables()["modifiers"]
    total = mods["impaired"] if attacker.impaired else 0
    aircraft = target.stats.kind == AIRCRAFT
    exempt = attacker.stats.has("antiair") and tables()["readings"]["aa_shooters_exempt"]
    if aircraft and not aircraft_front and not exempt:
        total += mods["aircraft_target"]
    if enfilade and target.stats.kind not in (VEHICLE, AIRCRAFT):
        total += mods["enfilade"]
    if attacker.stats.has("crack_shot") and not aircraft:
        total += mods["crack_shot"]
    return total


def successes(faces: Sequence[int], modifier: int) -> int:
    """Each die succeeds on a modified 4 or more (L92-L96); no automatic success or failure, unless
    ``tables.toml [readings] natural_rolls`` says a natural 6 always succeeds and a natural 1 always
    fails (digest G13; with the fragment's modifiers, -2 to +2 on 4+, the two readings never differ)."""
    need = tables()["roll"]["success"]
    natural = tables()["readings"]["natural_rolls"]
    return sum(1 for f in faces if (f == 6 if natural and f in (1, 6) else f + modifier >= need))


def hits_for(hits_successes: int, d: int) -> int:
    """The hits table (L106-L116): fewer successes than the defence miss, equal gives 1, more gives 2,
    at least twice the defence gives 3."""
    table = tables()["hits"]
    if hits_successes < d:
        return 0
    if hits_successes >= 2 * d:
        return table["double"]
    return table["equal"] if hits_successes == d else table["more"]


def add_hits(pending: tuple[str, ...], hits: int, vehicle: bool) -> tuple[str, ...]:
    """The face-down markers after ``hits`` more hits this turn (L126-L138): a vehicle's 1st, 2nd and
    3rd are yellow, red, black; a soldier's (artillery's, aircraft's) 1st and 2nd yellow, black."""
    colours = tables()["markers"]["vehicle" if vehicle else "soldier"]
    return tuple(colours[: min(len(colours), len(pending) + hits)])


def after_cover(before: tuple[str, ...], after: tuple[str, ...]) -> tuple[str, ...]:
    """A successful cover roll limits that attack to a Disruption: a face-down yellow only if the
    target had no marker yet this turn, else nothing (placeholder effect, digest 4.6, G8)."""
    if len(after) <= len(before):
        return before
    return before if before else after[:1]


def casualty(unit: Unit) -> Unit | None:
    """The Casualty Phase for one unit (L288, L304, L336-L338): the face-up Disruption goes, the
    face-down markers turn up; a red on a Damaged vehicle or a black destroys (None)."""
    disrupted, damaged = False, unit.damaged
    for colour in unit.pending:
        if colour == "black" or (colour == "red" and damaged):
            return None
        disrupted = disrupted or colour == "yellow"
        damaged = damaged or colour == "red"
    overwatch = None if disrupted else unit.overwatch  # becoming Disrupted ends Overwatch (L232)
    return unit.but(disrupted=disrupted, damaged=damaged, pending=(), overwatch=overwatch)


def overwatch_limit(points: int) -> int:
    """The side's Overwatch limit: 2 units per 100 points (L236), at least 2; the scaling for other
    armies is lost (digest G24), so the minimum and the rounding are data (``tables.toml [readings]``)."""
    per, read = tables()["overwatch"]["per_100_points"], tables()["readings"]
    scaled = per * (points // 100) if read["ow_whole_hundreds"] else per * points // 100
    return max(read["ow_minimum"], scaled)


def hit_chances(dice: int, modifier: int, d: int) -> tuple[float, float, float, float]:
    """P(0, 1, 2, 3 hits) for ``dice`` dice, each independent, against defence ``d``."""
    need = tables()["roll"]["success"]
    p = min(1.0, max(0.0, (7 - (need - modifier)) / 6))
    out = [0.0, 0.0, 0.0, 0.0]
    for s in range(dice + 1):
        out[hits_for(s, d)] += comb(dice, s) * p ** s * (1 - p) ** (dice - s)
    return out[0], out[1], out[2], out[3]


# ------------------------------------------------------------------------------- words in events
# The game's words as they appear in events, marked for translation (the English value is the word itself).
_WORDS = {"close": t_("close"), "medium": t_("medium"), "long": t_("long"), "front": t_("front"), "rear": t_("rear"),
          "yellow": t_("yellow"), "red": t_("red"), "black": t_("black"),
          "vehicle": t_("vehicle"), "soldier": t_("soldier"), "artillery": t_("artillery"), "aircraft": t_("aircraft")}


def band_word(band: str) -> str:
    """A range band (close, medium, long) as a marked word."""
    return _WORDS.get(band, band)


def side_word(side: str) -> str:
    """The defence used (front, rear) as a marked word."""
    return _WORDS.get(side, side)


def kind_word(kind: str) -> str:
    """A unit's kind (vehicle, soldier, artillery, aircraft) as a marked word."""
    return _WORDS.get(kind, kind)


def marker(colour: str) -> str:
    """A hit marker's colour (yellow, red, black) as a marked word."""
    return _WORDS.get(colour, colour)
