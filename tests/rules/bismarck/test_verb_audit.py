"""Every verb's preconditions, one case each, refused at ingest with the line and the rulebook's section.

The position is the last dash at the main orders: Bismarck (Shadowed by the Allied contact C1, one lost
ER marker) in W17, the tanker Lothringen in R10; TF2 (King George V, Rodney) in U16, TF3 (Renown,
Ark Royal) in Y21, Sheffield in X20, Norfolk in V15, Dorsetshire in Z15.  ``edit`` changes it first.
"""
import re
from dataclasses import replace

import pytest

from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck.work import Work

from .conftest import at, fresh

FOG_HEX = "A2"


def _position(edit=None):
    w = Work(at(fresh("last-dash"), step="orders"))
    if edit:
        edit(w)
    return w.freeze()


def _fog(w):
    w.set("norfolk", hex=FOG_HEX)
    w.set("bismarck", hex=FOG_HEX)
    w.s = replace(w.s, fog=True)


def _vis_x(w):
    w.s = replace(w.s, vis=T.X)


CASES = [
    # verb, seat, lines, the rule, a piece of the message; the last line is the refused one
    ("FORM", "allied", ["FORM TF4 norfolk dorsetshire"], "7.2", "in one hex"),
    ("FORM", "allied", ["FORM TF2 norfolk"], "7.2", "write FORM"),
    ("FORM", "allied", ["FORM TF3 sheffield norfolk"], "7.2", "already exists"),
    ("FORM", "german", ["FORM KG2 bismarck lothringen"], "7.2", "in one hex"),
    ("JOIN", "allied", ["JOIN norfolk TF2"], "7.2", "task force's hex"),
    ("JOIN", "allied", ["JOIN norfolk dorsetshire"], "7.2", "not a task force"),
    ("DETACH", "allied", ["DETACH norfolk"], "7.2", "not in a task force"),
    ("DETACH", "allied", ["DETACH rodney", "MOVE TF2 U17"], "2.3", "no unit of yours is called TF2"),  # TF of one
    ("FORM", "allied", ["FORM TF4 ark-royal renown", "MOVE TF3 Y20"], "2.3", "no unit of yours is called TF3"),
    ("REPAIR", "allied", ["REPAIR norfolk"], "7.3", "no rudder damage"),
    ("REPAIR", "german", ["MOVE bismarck W18", "REPAIR bismarck"], "7.3", "already moves"),
    ("PORT", "allied", ["PORT norfolk"], "7.4", "friendly port"),
    ("PATROL", "allied", ["MOVE norfolk V16", "PATROL norfolk"], "7.6", "already moves"),
    ("RTB", "german", ["RTB lothringen"], "7.7.2", "reduced ER"),
    ("RTB", "allied", ["RTB norfolk"], "7.7.2", "German order"),
    ("REFUEL", "allied", ["REFUEL norfolk FROM lothringen"], "7.5", "German order"),
    ("REFUEL", "german", ["REFUEL bismarck FROM lothringen"], "7.5", "tanker in its hex"),
    ("MOVE", "allied", ["MOVE TF2 U17 U18 U19 U20"], "7.7.2", "at most"),
    ("MOVE", "allied", ["MOVE norfolk V16", "MOVE norfolk V15"], "7.7", "already has an order"),
    ("MOVE", "german", ["MOVE bismarck ZZ99"], "2.1", "not a hex id"),
    ("MOVE", "german", ["MOVE bismarck Y17"], "2.1", "not adjacent to W17 by sea"),
    ("FLY", "allied", ["FLY spitfire-1 L27"], "2.3.2", "no air unit"),
    ("FLY", "allied", ["FLY hudson-220 L28"], "7.7.1", "not adjacent"),
    ("FLY", "allied", ["FLY hudson-220 L27+A L26"], "7.7.1", "recon unit"),
    ("FLY", "allied", ["FLY beaufort-42 L27+A L26"], "7.7.1", "Shadowed enemy unit"),
    ("FLY", "allied", ["FLY beaufort-42 L27+S L26", "FLY beaufort-42 L27 L26"], "7.7.1", "already has a flight"),
    ("FLY", "allied", ["FLY beaufort-42 L27 L28"], "7.7.1", "end its flight at its base"),
    ("SEARCH", "allied", ["SEARCH ALL", "SEARCH V16"], "8", "one SEARCH line"),
    ("ENGAGE", "allied", ["ENGAGE C9"], "10", "no contact"),
    ("ENGAGE", "allied", ["ENGAGE C1 TF2"], "10", "write ENGAGE"),
    ("RELEASE", "allied", ["RELEASE norfolk"], "12", "nothing to release"),
    ("SHADOW", "german", ["SHADOW ON"], "6", "Allied order"),
    ("SUB_HEX", "allied", ["SUB_HEX N20"], "11.1", "German order"),
    ("ON_CONVOY", "allied", ["ON_CONVOY ASK"], "11.3", "German order"),
]


@pytest.mark.parametrize("verb, seat, lines, rule, says", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_precondition_is_refused_with_its_section(verb, seat, lines, rule, says):
    _refused(_position(), seat, lines, rule, says)


WEATHER_CASES = [
    (_fog, "allied", ["PATROL norfolk"], "7.6", "fog hex"),
    (_fog, "allied", ["SEARCH " + FOG_HEX], "8", "fog hex"),
    (_fog, "allied", ["FLY beaufort-42 L27+S L26"], None, None),  # L27 is no fog hex: accepted
    (_vis_x, "allied", ["PATROL norfolk"], "7.6", "visibility X"),
    (_vis_x, "allied", ["SEARCH V16"], "8", "visibility X"),
    (_vis_x, "allied", ["ENGAGE C1"], "10", "visibility X"),
    (_vis_x, "allied", ["FLY beaufort-42 L27+S L26"], "7.7.1", "visibility X"),
]


@pytest.mark.parametrize("edit, seat, lines, rule, says", WEATHER_CASES)
def test_weather_preconditions(edit, seat, lines, rule, says):
    s = _position(edit)
    if rule is None:
        assert not _check(s, seat, lines).problems
    else:
        _refused(s, seat, lines, rule, says)


def test_only_moves_in_the_shadowed_movement_and_only_doctrine_before_a_battle():
    s = at(fresh("last-dash"), step="shadowed-german")
    _refused(s, "german", ["SEARCH ALL"], "7.1", "only your Shadowed units move now")
    _refused(at(fresh("last-dash"), step="doctrine"), "allied", ["SEARCH ALL"], "10", "DOCTRINE")


def test_the_legal_file_of_each_side_passes():
    """The other half of every case above: the same verbs, legal here, are taken."""
    s = _position()
    assert not _check(s, "allied", ["MOVE TF2 U17", "DETACH renown", "PATROL renown", "MOVE ark-royal Y20",
                                    "SEARCH V16 W17", "FLY beaufort-42 L27+S L26", "ENGAGE C1 IF PREVIOUS NONE"]).problems
    assert not _check(s, "german", ["MOVE bismarck W18", "SUB_HEX N20", "ON_CONVOY ASK", "SEARCH NONE"]).problems


def _check(state, seat, lines):
    return RULESET.check_orders(RULESET.view(state, seat), seat, [OrderLine(i + 1, t) for i, t in enumerate(lines)])


def _refused(state, seat, lines, rule, says):
    c = _check(state, seat, lines)
    assert [p.line_no for p in c.problems] == [len(lines)], c.problems
    [p] = c.problems
    assert p.rule == rule and says in p.message, p
    assert not re.search(r"\[[0-9]", p.message), "the section is cited once, as the problem's rule"


def test_a_call_with_a_unit_that_will_be_elsewhere_is_acknowledged_with_a_warning():
    """ENGAGE is fought after movement, so it cannot be refused; the acknowledgement says it will find
    nothing unless the enemy comes to the unit [10]."""
    s = _position()
    far = _check(s, "allied", ["ENGAGE C1 WITH TF2"])
    assert not far.problems
    assert [n for n in far.notes if n.startswith("warning: ENGAGE C1 WITH TF2: TF2 will be in U16")]
    near = _check(_position(lambda w: w.set("norfolk", hex="W18")), "allied",
                  ["MOVE norfolk W17", "ENGAGE C1 WITH norfolk"])
    assert not near.problems and not [n for n in near.notes if "warning" in n]
