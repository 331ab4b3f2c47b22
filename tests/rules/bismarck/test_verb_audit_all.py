"""The verb audit, completed (issue 16 "Done when"): every verb of the order vocabulary has a refused case
here or in test_verb_audit.py, each refusal citing the rulebook's own section numbers.

Same position as test_verb_audit.py: the last dash at the main orders.
"""
import re

import pytest

from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.orders import ANSWERS, VERBS

from .conftest import at, fresh
from .test_verb_audit import CASES, _check, _position, _refused

SECTION = re.compile(r"^[0-9]+(\.[0-9]+)*(-[0-9]+(\.[0-9]+)*)?(, [0-9]+(\.[0-9]+)*(-[0-9]+(\.[0-9]+)*)?)*$")

MORE = [
    # verb, seat, lines, the rule, a piece of the message; the last line is the refused one
    ("STAY", "german", ["STAY bismarck"], "7.1", "Shadowed movement"),
    ("ON_SHADOW", "german", ["ON_SHADOW bismarck DIVERT lothringen"], "6", "needs a task force"),
    ("ON_SHADOW", "german", ["ON_SHADOW bismarck FLEE"], "6", "write ON_SHADOW"),
    ("ON_SHADOW", "allied", ["ON_SHADOW TF2 EVADE"], "6", "German order"),
    ("ON_DIVERSION", "allied", ["ON_DIVERSION C1"], "6", "write ON_DIVERSION"),
    ("ON_DIVERSION", "german", ["ON_DIVERSION FAST"], "6", "Allied order"),
    ("AUTO_ENGAGE", "allied", ["AUTO_ENGAGE MAYBE"], "10", "AUTO_ENGAGE ON|OFF"),
    ("ON_MERCHANT", "german", ["ON_MERCHANT ASK"], "11.3", "ON_MERCHANT ATTACK|IGNORE"),
    ("ON_MERCHANT", "allied", ["ON_MERCHANT ATTACK"], "11.3", "German order"),
    ("STRIKE_CLASSES", "allied", ["STRIKE_CLASSES BB SUB"], "9", "classes from"),
    ("DEFEND_PRIORITY", "allied", ["DEFEND_PRIORITY"], "9", "write DEFEND_PRIORITY"),
    ("DEFEND_PRIORITY", "allied", ["DEFEND_PRIORITY bismarck"], "2.3", "no ship of yours"),
    ("HUNT", "german", ["HUNT"], "11.3", "write HUNT"),
    ("HUNT", "allied", ["HUNT TF2"], "11.3", "German order"),
    ("DOCTRINE", "allied", ["DOCTRINE ALL CHARGE"], "10", "CLOSE, STANDOFF or EVADE"),
    ("DOCTRINE", "allied", ["DOCTRINE ALL CLOSE BREAK soon"], "10", "BREAK <hull>"),
    ("CANCEL", "allied", ["CANCEL SUB_HEX"], "4", "no standing order SUB_HEX is in force"),
    ("CANCEL", "allied", ["CANCEL"], "4", "CANCEL needs the key"),
    ("IF", "allied", ["IF PREVIOUS WON THEN SEARCH ALL"], "10", "only ENGAGE calls may wait"),
    ("IF", "allied", ["IF RAINING THEN ENGAGE C1"], "10", "unknown condition"),
    ("IF", "german", ["IF SHADOWED bismarck THEN STAY bismarck ELSE STAY bismarck"], "7.1", "no ELSE"),
    ("ATTACK", "german", ["ATTACK"], "11.3", "no convoy question is open"),
    ("IGNORE", "german", ["IGNORE"], "11.3", "no convoy question is open"),
    ("PORT", "allied", ["PORT"], "7.4", "write PORT"),
    ("REPAIR", "allied", ["REPAIR"], "7.3", "write REPAIR"),
    ("RTB", "german", ["RTB"], "7.7.2", "write RTB"),
    ("PATROL", "allied", ["PATROL"], "7.6", "write PATROL"),
    (None, "allied", ["SINK bismarck"], "4", "not an order known"),  # an unknown word
]


@pytest.mark.parametrize("verb, seat, lines, rule, says", MORE, ids=[f"{c[0]}-{i}" for i, c in enumerate(MORE)])
def test_each_precondition_is_refused_with_its_section(verb, seat, lines, rule, says):
    _refused(_position(), seat, lines, rule, says)


def test_every_verb_has_a_refused_case_citing_a_rulebook_section():
    """Before: the standing-order verbs, CANCEL, IF and the convoy answers had none, and CANCEL, an unknown
    word, the convoy answers out of their window and PORT/REPAIR/RTB/PATROL without a ship cited no section."""
    covered = {c[0] for c in CASES + MORE}
    assert set(VERBS.verbs) | set(ANSWERS.verbs) <= covered, sorted(set(VERBS.verbs) | set(ANSWERS.verbs) - covered)
    for verb, seat, lines, rule, _ in CASES + MORE:
        assert SECTION.match(rule), (verb, rule)
        [p] = _check(_position(), seat, lines).problems
        assert SECTION.match(p.rule), (verb, p.rule)


def test_in_the_convoy_window_only_the_answers_are_taken():
    s = at(fresh("last-dash"), step="convoy")
    c = RULESET.check_orders(RULESET.view(s, "german"), "german", [OrderLine(1, "SEARCH ALL")])
    [p] = c.problems
    assert p.rule == "11.3"
    ok = RULESET.check_orders(RULESET.view(s, "german"), "german", [OrderLine(1, "attack")])
    assert not ok.problems and [o.text() for o in ok.orders] == ["ATTACK"]
