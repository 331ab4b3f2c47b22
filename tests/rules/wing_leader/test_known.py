"""The known-answer cases of tests/known/wing_leader/cases, run through the ruleset's public contract.

They sit one folder deeper than the registered rulesets' cases because Wing Leader is not registered yet
(tests/test_known_answers.py runs ``<ruleset>/*.toml`` for registered rulesets only); move them up a level
when it is.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.testing import known
from pbem.rules.wing_leader import RULESET

CASES = sorted((Path(__file__).parents[2] / "known" / "wing_leader" / "cases").glob("*.toml"))


def test_there_are_cases():
    assert len(CASES) >= 5


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_known_answer(path):
    case = known.load_case(path)
    failures = known.run_case(RULESET, case)
    assert not failures, f"{path.name} [{case.rule}] {case.title}:\n  " + "\n  ".join(failures)
