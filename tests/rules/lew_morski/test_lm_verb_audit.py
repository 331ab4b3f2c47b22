"""Issue #16's verb audit: one case per precondition of every verb, each refused at ingest with the line
and the rulebook's own section (as printed in the Polish rulebook), never acknowledged and then dropped."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.dice import FixedDice
from pbem.rules.lew_morski import RULESET, board

from .lm_helpers import add_gun, asking, at, check, new_state, only, put


def base(**options):
    return new_state(**options)


def british(**options):
    """The British movement phase of stage 1, with AA-1 next to He111-1 and AA-2 far from everything."""
    s = put(at(base(**options), "gb-move"), "He111-1", "A20,B20", "N")
    s = add_gun(s, "AA-1", "A20,B21")
    return add_gun(s, "AA-2", "A05,B30")


def ahead(hex_: str, facing: str, dist: int) -> str:
    return board.fmt(board.ray(board.parse_hex(hex_), facing, dist)[dist - 1])  # type: ignore[arg-type]


def lone(ac: str, hex_: str = "A20,B20", facing: str = "N", **kw):
    """Only ``ac`` and Spit-1 (far off) on the board; ``ac`` at ``hex_``."""
    return put(only(base(), ac, "Spit-1"), ac, hex_, facing, **kw)


def returning(**options):
    """Spit-1 left by the north edge at A20,B10 and may return now (British movement phase, stage 12)."""
    s = put(only(base(**options), "Spit-1", "He111-1"), "He111-1", "A30,B30", "S")
    return replace(at(s, "gb-move", 12), aircraft=tuple(
        replace(a, status="off", hex=None, exit_hex=(20, 10), exit_edge="north", left_alt="HIGH", return_stage=12)
        if a.id == "Spit-1" else a for a in s.aircraft))


def setup(scenario: str = "w3"):
    return RULESET.setup(scenario, RULESET.info.resolve_options({"sun": "south"}), FixedDice([]))


RIVER = board.fmt(sorted(board.terrain().river)[0])  # type: ignore[arg-type]

ASKED = {"ac": "Spit-1", "seat": "gb", "target": "He111-1", "dist": 2, "strength": 4, "range": [7, 11]}

CASES = [
    # verb, precondition, position, seat, orders, the refused line, rule
    ("any", "a verb of the game", base, "de", "LOOP He111-1", 1, "R 3.0"),
    ("any", "the verb belongs to this phase", lambda: at(base(), "gb-move"), "de", "MOVE He111-1 FFF", 1, "R 3.0"),
    ("MOVE", "one of your aircraft", base, "de", "MOVE Spit-1 FF", 1, "R 1"),
    ("MOVE", "a path is given", base, "de", "MOVE He111-1", 1, "R 4"),
    ("MOVE", "between minimum and maximum speed", base, "de", "MOVE He111-1 FF", 1, "R 4.0-4.2"),
    ("MOVE", "turns after the manoeuvrability's straight hexes", lambda: lone("He111-1"), "de",
     "MOVE He111-1 RFF", 1, "R 4.0-4.2"),
    ("MOVE", "no climb above high", base, "de", "MOVE He111-1 CLIMB FFF", 1, "R 4.2.3-4.2.4"),
    ("MOVE", "an altitude change from the first hex", base, "de", "MOVE He111-1 FFDF", 1, "R 4.2.3"),
    ("MOVE", "no occupied hex while a free path exists",
     lambda: put(lone("Me110-1"), "He111-1", ahead("A20,B20", "N", 2), "N", status="board"), "de",
     "MOVE Me110-1 FFF", 1, "R 4.1.1"),
    ("MOVE", "one move per aircraft", lambda: lone("He111-1"), "de", "MOVE He111-1 FFF\nMOVE He111-1 FFF", 2, "R 3.0"),
    ("ENTER", "the aircraft is due", base, "de", "ENTER He111-1 N", 1, "R 4.3.1, 9"),
    ("ENTER", "an edge hex within 5 of the exit", returning, "gb", "ENTER Spit-1 A40,B40 S", 1, "R 4.3.1, 9"),
    ("ENTER", "altitude is the owner's only under the option", returning, "gb", "ENTER Spit-1 S LOW", 1, "R 4.3.1"),
    ("WITHDRAW", "German aircraft only", lambda: at(base(), "gb-move"), "gb", "WITHDRAW Spit-1", 1, "R 8.1"),
    ("WITHDRAW", "it leaves by the south edge", base, "de", "WITHDRAW He111-1", 1, "R 8.1"),
    ("FIRE", "on the board", lambda: put(base(), "Me110-1", "A20,B20", "N", status="off"), "de",
     "FIRE Me110-1", 1, "R 5.2"),
    ("FIRE", "guns not jammed", lambda: lone("Me110-1", jammed=True), "de", "FIRE Me110-1", 1, "R 5.3.4"),
    ("FIRE", "one shot per stage", lambda: lone("Me110-1", fired_stage=1), "de", "FIRE Me110-1", 1, "R 5.3.1"),
    ("FIRE", "at an enemy aircraft", base, "de", "FIRE Me110-1 AT He111-2", 1, "R 5.2"),
    ("FIRE", "the nearest aircraft on the line of fire", base, "de", "FIRE Me110-2 AT Spit-1", 1,
     "R 5.1, 5.2, 5.3.2"),
    ("FIRE", "still on the board in the combat phase", lambda: lone("Me110-1", "A20,B11"), "de",
     "MOVE Me110-1 FFF\nFIRE Me110-1", 2, "R 4.3, 5.1"),
    ("BOMB", "German aircraft only", british, "gb", "BOMB Spit-1 A10,B10", 1, "R 7"),
    ("BOMB", "bomb series left", lambda: lone("He111-1", bombs=1), "de",
     "MOVE He111-1 FFF\nBOMB He111-1 A20,B19 A20,B18", 2, "R 7.0.5"),
    ("BOMB", "one series per hex", lambda: lone("He111-1"), "de",
     "MOVE He111-1 FFF\nBOMB He111-1 A20,B19 A20,B19", 2, "R 7.0.4"),
    ("BOMB", "a hex flown over this stage", lambda: lone("He111-1"), "de",
     "MOVE He111-1 FFF\nBOMB He111-1 A30,B30", 2, "R 7.0.2"),
    ("BOMB", "jammed guns may bomb only under the option",
     lambda: put(only(base(jammed_bombing="no"), "He111-1", "Spit-1"), "He111-1", "A20,B20", "N", jammed=True),
     "de", "MOVE He111-1 FFF\nBOMB He111-1 A20,B19", 2, "R 5.3.4, 7.0"),
    ("BOMB", "still on the board when bombs fall", lambda: lone("He111-1", "A20,B11"), "de",
     "MOVE He111-1 FFF\nBOMB He111-1 A20,B10", 2, "R 7.0.3, 4.3"),
    ("UNJAM", "jammed guns", lambda: lone("Me110-1"), "de", "UNJAM Me110-1", 1, "R 5.3.4"),
    ("UNJAM", "still on the board in the combat phase", lambda: lone("Me110-1", "A20,B11", jammed=True), "de",
     "MOVE Me110-1 FFF\nUNJAM Me110-1", 2, "R 4.3, 5.3.4"),
    ("AAFIRE", "British guns only", base, "de", "AAFIRE AA-1 Spit-1", 1, "R 6"),
    ("AAFIRE", "in the combat phase (option aa_timing)", lambda: british(aa_timing="movement"), "gb",
     "AAFIRE AA-1 He111-1", 1, "R 3.0, 6.1"),
    ("AAFIRE", "at a German aircraft", british, "gb", "AAFIRE AA-1 Spit-1", 1, "R 6.1"),
    ("AAFIRE", "over or next to the gun", british, "gb", "AAFIRE AA-2 He111-1", 1, "R 6.1"),
    ("REACT", "FIRE or HOLD only in a reactive-fire window", lambda: at(base(), "gb-move"), "gb", "REACT Spit-1 FIRE", 1,
     "R 3.0"),
    ("REACT", "FIRE or HOLD for an aircraft that is asked", lambda: asking(base(react_default="ask"), "gb", ASKED), "gb",
     "REACT Spit-2 FIRE", 1, "R 5.4"),
    ("REACT", "a known standing order", base, "de", "REACT He111-1 SOMETIMES", 1, "R 5.4"),
    ("RETURNFIRE", "YES or NO", base, "de", "RETURNFIRE He111-1", 1, "R 5.4"),
    ("AA", "a known standing order", british, "gb", "AA AA-1 MAYBE", 1, "R 6.2.4"),
    ("AA", "a gun on a land hex, not a river", setup, "gb", f"AA AA-1 {RIVER}", 1, "R 6.0.1-6.0.2"),
    ("AA", "one gun per hex", setup, "gb", "AA AA-1 A02,B12", 1, "R 6.0.1"),
    ("PLACE", "inside the start area", setup, "de", "PLACE Me110-1 A01,B01 N", 1, "R 9.3"),
    ("PLACE", "a hex and a facing", setup, "de", "PLACE Me110-1 A40,B35", 1, "R 9.3"),
    ("PASS", "no arguments", base, "de", "PASS NOW", 1, "R 3.0"),
]


@pytest.mark.parametrize("verb,what,make,seat,text,line,rule", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_verb_precondition(verb, what, make, seat, text, line, rule):
    problems = check(make(), seat, text).problems
    assert [(p.line_no, p.rule) for p in problems] == [(line, rule)], [(p.line_no, p.rule, p.message) for p in problems]
