"""Known-answer cases as data: each file under tests/known/<ruleset>/ agrees with its ruleset (P14.4).

A case cites the rule or worked example it checks; see :mod:`pbem.testing.known` for the format.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.testing import known
from pbem.testing.golden import known_rulesets

ROOT = Path(__file__).parent / "known"
CASES = known.case_files(ROOT)
RULESETS = {r.info.name: r for r in known_rulesets()}


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_known_answer(path):
    """The ruleset's events, views and state after the case's orders and dice are the ones the case states."""
    case = known.load_case(path)
    failures = known.run_case(RULESETS[path.parent.name], case)
    assert not failures, f"{path.parent.name}/{path.name} [{case.rule}] {case.title}:\n  " + "\n  ".join(failures)


def test_every_ruleset_has_known_answer_cases():
    """Each registered ruleset carries worked examples as data (the duel fixture included)."""
    without = sorted(set(RULESETS) - {p.parent.name for p in CASES})
    assert not without, f"no known-answer cases for {without}"


def test_a_wrong_expectation_is_reported_with_what_the_ruleset_said():
    """The runner is not a rubber stamp: a wrong event, field, phase or dice count each give a failure."""
    case = known.load_case(ROOT / "duel" / "hit_on_three_asks_the_target.toml")
    wrong = known.Case(case.name, case.rule, case.title, case.start, case.orders, (3, 1), 0, {
        "next_phase": "2/fire", "events": [{"contains": "west hit"}], "absent": ["missed"],
        "view": {"west": {"hits": 2, "nowhere": 1}}, "dump": {"flow.turn": 9}})
    failures = known.run_case(RULESETS["duel"], wrong)
    text = "\n".join(failures)
    for fragment in ("1 of the fixed dice were left", "next phase 1/hit-west, not 2/fire", "no event",
                     "an event holds 'missed'", "west's view hits: expected 2, got 1", "nothing at 'nowhere'",
                     "dump flow.turn: expected 9, got 1"):
        assert fragment in text
    refused = known.Case("x", "duel 2", "t", {"setup_dice": [1, 4]}, {"east": "MOVE -1"}, (), 0, {})
    assert any("off the line" in f for f in known.run_case(RULESETS["duel"], refused))


def test_paths_select_list_items_by_key():
    """`ships[id=hood].hex` finds the one item whose id is hood; edits go through the same paths."""
    data = {"ships": [{"id": "hood", "hex": "A1"}, {"id": "rodney", "hex": "B2"}], "grid": [[0, 1]]}
    assert known.get_path(data, "ships[id=rodney].hex") == "B2"
    assert known.get_path(data, "grid[0][1]") == 1
    known.set_path(data, "ships[id=hood].hex", "C3")
    assert data["ships"][0]["hex"] == "C3"
    with pytest.raises(known.CaseError):
        known.get_path(data, "ships[id=tirpitz].hex")


def test_unknown_keys_in_a_case_are_refused(tmp_path):
    """A misspelt key would silently check nothing, so the loader refuses it."""
    path = tmp_path / "bad.toml"
    path.write_text('rule = "1"\ntitle = "t"\n[start]\n[expect]\nevent = []\n')
    with pytest.raises(known.CaseError, match="event"):
        known.load_case(path)
