"""The verb audit, completed (issue 16 "Done when"): every verb of the order vocabulary has a refused case
in test_lm_verb_audit.py or here, each citing the rulebook's own section ("R ...")."""
from __future__ import annotations

import re

import pytest

from pbem.rules.lew_morski.checker import VERBS

from .lm_helpers import check
from .test_lm_verb_audit import CASES, base, lone

MORE = [
    ("DROP", "a hex flown over this stage (DROP is BOMB)", lambda: lone("He111-1"), "de",
     "MOVE He111-1 FFF\nDROP He111-1 A10,B10", 2, "R 7.0.2"),
    ("DROP", "an aircraft and a hex", base, "de", "DROP", 1, "R 7"),
]


@pytest.mark.parametrize("verb,what,make,seat,text,line,rule", MORE, ids=[f"{c[0]}: {c[1]}" for c in MORE])
def test_verb_precondition(verb, what, make, seat, text, line, rule):
    problems = check(make(), seat, text).problems
    assert [(p.line_no, p.rule) for p in problems] == [(line, rule)], [(p.line_no, p.rule, p.message) for p in problems]


def test_every_verb_has_a_refused_case_citing_the_rulebook():
    """Before: DROP had none."""
    covered = {c[0] for c in CASES + MORE}
    assert set(VERBS.verbs) <= covered, sorted(set(VERBS.verbs) - covered)
    for c in CASES + MORE:
        assert re.match(r"^R [0-9]", c[6]), c
