"""The conditions of a turn script's ``IF <condition> THEN <beat>`` (the kit's scripts) [10.2].

``PREV_OK`` / ``PREV_FAILED``: how the turn's previous beat ended (its action stood, or
was cancelled).  ``POS <enemy> FRONT,FLANK,REAR``: the acting aircraft is nose-on to that
enemy, which shows its nose, side or tail.  ``DOGFIGHT <enemy>``: the acting aircraft is in a
dogfight with that enemy.  ``ALT <aircraft> LOW,MEDIUM,HIGH``: that aircraft (either side's:
altitudes are open) flies at one of them.  Each is read without the position (a stored script
is read back the same way) and judged when the line is reached -- what a round plan is for.
"""
from __future__ import annotations

from typing import Any

from pbem.core.texts import t_
from pbem.core.scripts import ConditionKind, Conditions, Reached
from pbem.core.work import Work

from .geometry import NOSE, POSITION
from .words import syntax

POSITIONS = ("FRONT", "FLANK", "REAR")
ALTITUDES = ("LOW", "MEDIUM", "HIGH")
USAGE = ("PREV_OK, PREV_FAILED, POS <enemy> FRONT|FLANK|REAR[,...], DOGFIGHT <enemy>, "
         "ALT <aircraft> LOW|MEDIUM|HIGH[,...]")


def no_words(args: tuple[str, ...], view: Any, seat: str) -> tuple[str, ...]:
    if args:
        raise syntax(t_("PREV_OK and PREV_FAILED take no words after them; conditions: %(usage)s", usage=USAGE), "L297")
    return ()


def positions(args: tuple[str, ...], view: Any, seat: str) -> tuple[str, ...]:
    if len(args) != 2:
        raise syntax(t_("POS takes an enemy aircraft and FRONT|FLANK|REAR[,...]; conditions: %(usage)s", usage=USAGE),
                     "L297")
    vals = [p.strip() for p in args[1].upper().split(",")]
    if any(p not in POSITIONS for p in vals):
        raise syntax(t_("POS takes FRONT, FLANK, REAR (comma separated)"), "L121")
    return args[0].lower(), ",".join(vals)


def one_aircraft(args: tuple[str, ...], view: Any, seat: str) -> tuple[str, ...]:
    if len(args) != 1:
        raise syntax(t_("DOGFIGHT takes one enemy aircraft; conditions: %(usage)s", usage=USAGE), "L297")
    return (args[0].lower(),)


def altitudes(args: tuple[str, ...], view: Any, seat: str) -> tuple[str, ...]:
    if len(args) != 2:
        raise syntax(t_("ALT takes an aircraft and LOW|MEDIUM|HIGH[,...]; conditions: %(usage)s", usage=USAGE), "L297")
    vals = [p.strip() for p in args[1].upper().split(",")]
    if any(p not in ALTITUDES for p in vals):
        raise syntax(t_("ALT takes LOW, MEDIUM, HIGH (comma separated)"), "L29")
    return args[0].lower(), ",".join(vals)


def previous(ok: bool):
    """Whether the turn's previous beat ended that way (no beat yet: neither holds); the turn's
    runner gives the kit its outcome (``Reached.previous``: the beat's action stood)."""
    return lambda w, reached, args: reached.previous is ok


def position_holds(w: Work, reached: Reached, args: tuple[str, ...]) -> bool:
    g, a = w.data, reached.about
    e = g.ac(args[0])
    if e["destroyed"] or e not in g.enemies_in_dogfight(a) or g.aspect(a, e) != NOSE:
        return False
    return POSITION[g.aspect(e, a)].upper() in args[1].split(",")


def dogfight_holds(w: Work, reached: Reached, args: tuple[str, ...]) -> bool:
    g, a = w.data, reached.about
    e = g.doc["aircraft"].get(args[0])
    return e is not None and e in g.enemies_in_dogfight(a)


def altitude_holds(w: Work, reached: Reached, args: tuple[str, ...]) -> bool:
    e = w.data.doc["aircraft"].get(args[0])
    return e is not None and not e["destroyed"] and bool(e["placed"]) and e["alt"].upper() in args[1].split(",")


CONDITIONS = Conditions([
    ConditionKind("PREV_OK", no_words, previous(True), "PREV_OK"),
    ConditionKind("PREV_FAILED", no_words, previous(False), "PREV_FAILED"),
    ConditionKind("POS", positions, position_holds, "POS <enemy> FRONT|FLANK|REAR[,...]"),
    ConditionKind("DOGFIGHT", one_aircraft, dogfight_holds, "DOGFIGHT <enemy>"),
    ConditionKind("ALT", altitudes, altitude_holds, "ALT <aircraft> LOW|MEDIUM|HIGH[,...]"),
], rule="L297")
