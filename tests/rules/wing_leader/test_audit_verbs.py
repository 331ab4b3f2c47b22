"""The verb audit (issue 18 "Done when": every rule of 1-12 enforced at ingest and cited by its rulebook number):
every verb of the order tables and of the answers to a question has a refused case here, each refusal citing
the rulebook's own section numbers, and always one of rules 1-12.

Verbs of the advanced rules (a usage rule of 13-15) are audited with those rules and left out here.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.dice import FixedDice
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.parsing import ANSWERS, VERBS
from pbem.testing import known
from pbem.testing.known import check_body

SECTION = re.compile(r"^[0-9]+(\.[0-9]+)*(, [0-9]+(\.[0-9]+)*)*$")
MOVEMENT = [["flow.step", "movement"]]


def _basic(rule: str) -> bool:
    return all(1 <= int(r.split(".")[0]) <= 12 for r in rule.split(", "))


def _start(edits: list) -> object:
    return known.start_state(RULESET, known.Case("audit", "-", "-", {"scenario": "raid", "edits": edits}))


def _asked() -> object:
    """An escort's owner asked whether it reacts (10.4): only the answers are taken."""
    case = known.load_case(Path(__file__).parents[2] / "known" / "wing_leader" / "reaction_success_stops_the_attacker.toml")
    state = known.start_state(RULESET, case)
    orders = {"allies": check_body(RULESET, state, "allies", "REACT A ASK")[0].orders, "axis": ()}
    return RULESET.resolve(state, orders, FixedDice([])).state


ORDERS = [
    # verb, edits of the raid's start (None: the reaction question), seat, the refused line, rule, a piece of it
    ("TALLY", [], "allies", "TALLY T K", "7.2", "bomber by mission and may not tally"),
    ("TALLY", [], "allies", "TALLY A K", "7.2", "a tally reaches 9"),
    ("DROP", [], "allies", "DROP A", "7.2.2", "A tallies nobody"),
    ("SPLIT", [], "allies", "SPLIT Z", "9.3", "no squadron Z"),
    ("SPLIT", MOVEMENT, "allies", "SPLIT T", "6.0", "belongs to the Tally Phase"),
    ("SPLIT", [], "allies", "SPLIT A LOSSES 1", "9.3.1", "A has 0 losses to share, not 1"),
    ("SPLIT", [], "allies", "SPLIT A EXPERTE 2", "9.3.1", "A has no Experte"),
    ("ORDER", [], "allies", "ORDER A K", "9.5.4", "in no wing formation"),
    ("MOVE", MOVEMENT, "allies", "MOVE T E", "9.2.7", "its bombing mission sets its move"),
    ("MOVE", [], "allies", "MOVE A E", "6.0", "belongs to the Movement Phase"),
    ("PURSUE", MOVEMENT, "allies", "PURSUE A", "7.2.3", "A tallies nobody"),
    ("RTB", MOVEMENT, "allies", "RTB A", "9.2.6", "unalert escort"),
    ("RTB", MOVEMENT + [["squadrons[id=A].mission", "sweep"], ["squadrons[id=A].alert", True],
                        ["squadrons[id=A].at", [5, 0]]], "allies", "RTB A DIVE", "8.2", "at the lowest altitude"),
    ("DIVE", MOVEMENT, "allies", "DIVE A", "8.2", "A is no Intercept flying to its vector"),
    ("DIVE", MOVEMENT, "axis", "DIVE K", "9.2.5", "below its vector M13"),
    ("DIVE", [], "axis", "DIVE K", "6.0", "belongs to the Movement Phase"),
    ("SPLIT", [], "allies", "SPLIT A LEADER 2", "9.3.1", "no Wing Leader marker"),
    ("SWEEP", MOVEMENT, "allies", "SWEEP A", "9.2.3", "unalert escort"),
    ("CIRCLE", MOVEMENT, "allies", "CIRCLE T", "8.3.1", "bomber by mission"),
    ("JOIN", MOVEMENT, "allies", "JOIN A B", "9.2.3", "only an Alert Sweep"),
    ("RETURN", MOVEMENT, "allies", "RETURN A E14", "9.2.2", "only a former escort"),
    ("JETTISON", MOVEMENT, "allies", "JETTISON A", "9.2.1.1", "carries no bomb load"),
    ("VECTOR", MOVEMENT, "allies", "VECTOR A E14", "9.2.4", "only an Intercept squadron"),
    ("VECTOR", MOVEMENT, "axis", "VECTOR K ZZ99", "9.2.4", "not a square"),
    ("PLACE", MOVEMENT, "allies", "PLACE B C14", "5.3", "only in the set-up"),
    ("VETERAN", MOVEMENT, "allies", "VETERAN B", "5.2.1", "only in the set-up"),
    ("GREEN", [["flow.step", "setup_second"]], "allies", "GREEN A", "5.2.1", "no Green marker to place"),
    ("LEADER", MOVEMENT, "allies", "LEADER A", "5.2.1", "only in the set-up"),
    ("LEADER", [["flow.step", "setup_second"]], "allies", "LEADER A", "5.2.1", "A flies in no wing"),
    ("EXPERTE", [["flow.step", "setup_second"]], "allies", "EXPERTE T", "5.2.1", "no Experte marker to place"),
    ("VECTOR", [["flow.step", "arrivals_first"], ["flow.turn", 3]], "axis", "VECTOR K H12", "5.3.1",
     "arriving this turn"),
    ("ESCAPE", MOVEMENT, "allies", "ESCAPE K", "11.0", "K is not yours"),
    ("BREAK", MOVEMENT, "allies", "BREAK Z", "10.7.1", "no squadron Z"),
    ("ESCORT", MOVEMENT, "allies", "ESCORT A", "9.2.2", "not a former escort"),
    ("END", MOVEMENT, "allies", "END NOW", "12.0", "expected END"),
    ("TACTIC", MOVEMENT, "allies", "TACTIC A FAST", "10.5", "must be one of SPEED, TURN, BEST, ASK"),
    ("REACT", MOVEMENT, "allies", "REACT T YES", "10.4", "only escorts react"),
    ("DOGFIGHT", MOVEMENT, "allies", "DOGFIGHT MAYBE", "10.8", "must be one of SEEK, DECLINE, ASK"),
    ("CONSENT", MOVEMENT, "allies", "CONSENT MAYBE", "11.0", "must be one of YES, NO"),
    ("KEEP", MOVEMENT, "axis", "KEEP THIRD", "9.3.1", "must be one of FIRST, SECOND"),
    ("CANCEL", MOVEMENT, "axis", "CANCEL KEEP", "9.3.1", "no standing order KEEP is in force"),
    ("ARRIVE", MOVEMENT, "axis", "ARRIVE M 14", "5.3.1", "may arrive at altitude 10, 12"),
    ("ARRIVE", MOVEMENT, "allies", "ARRIVE A 10", "5.3.1", "still to arrive"),
    ("LEADS", MOVEMENT, "allies", "LEADS K", "10.2", "not yours"),
    ("HITS", MOVEMENT, "allies", "HITS A", "10.2.2", "not the enemy's"),
    ("RETALLY", MOVEMENT, "allies", "RETALLY A", "10.8.1", "not the enemy's"),
    ("WINGS", MOVEMENT, "allies", "WINGS A", "9.5", "before the first turn"),
    ("STACK", MOVEMENT, "allies", "STACK A STAY", "10.8.2", "not in a dogfight"),
    ("CANCEL", MOVEMENT, "allies", "CANCEL REACT A", "10.4", "no standing order REACT A is in force"),
    ("CANCEL", MOVEMENT, "allies", "CANCEL TACTIC A", "10.5", "no standing order TACTIC A is in force"),
    ("CANCEL", MOVEMENT, "allies", "CANCEL", "6.0", "e.g. CANCEL TACTIC A"),
    ("IF", MOVEMENT, "allies", "IF FOO A THEN RTB A", "9.2", "unknown condition 'FOO'"),
    (None, MOVEMENT, "allies", "FLY A", "6.0", "'FLY' is not an order known"),
]

ANSWERED = [
    ("SPEED", "SPEED", "10.5, 10.8", "answer YES or NO"),
    ("TURN", "TURN", "10.5, 10.8", "answer YES or NO"),
    ("BEST", "BEST", "10.5, 10.8", "answer YES or NO"),
    ("SEEK", "SEEK", "10.5, 10.8", "answer YES or NO"),
    ("DECLINE", "DECLINE", "10.5, 10.8", "answer YES or NO"),
    ("YES", "YES NOW", "10.4", "expected YES"),
    ("NO", "NO NOW", "10.4", "expected NO"),
    ("SPLIT", "SPLIT", "10.5, 10.8", "answer YES or NO"),   # the raid gives no tactical flexibility (10.4.2)
    ("LEAD", "LEAD A", "10.2", "does A react? -> YES or NO (10.4)"),
    ("HITS", "HITS K", "10.2.2", "does A react?"),
    ("TALLY", "TALLY A K", "10.8.1", "does A react?"),
    (None, "MOVE A E", "10.5, 10.8", "'MOVE' is not an order known"),
]


def _one_problem(state: object, seat: str, line: str) -> str:
    problems = check_body(RULESET, state, seat, line)[1]
    assert len(problems) == 1, problems
    return problems[0]


@pytest.mark.parametrize("verb, edits, seat, line, rule, says", ORDERS, ids=[f"{c[0]}-{i}" for i, c in enumerate(ORDERS)])
def test_each_order_is_refused_with_its_section(verb, edits, seat, line, rule, says):
    problem = _one_problem(_start(edits), seat, line)
    assert problem.endswith(f"[{rule}]") and says in problem, problem


@pytest.mark.parametrize("verb, line, rule, says", ANSWERED, ids=[f"{c[0]}-{i}" for i, c in enumerate(ANSWERED)])
def test_each_answer_is_refused_with_its_section(verb, line, rule, says):
    problem = _one_problem(_asked(), "allies", line)
    assert problem.endswith(f"[{rule}]") and says in problem, problem


def test_every_verb_of_rules_1_to_12_has_a_refused_case_citing_a_rulebook_section():
    """Before: CANCEL was refused with no section at all (the kit's message), and YES/NO with a word too many
    under 10.5 (combat tactics) instead of 10.4 (reaction)."""
    basic = {w for w, v in VERBS.verbs.items() if not v.rule or _basic(v.rule)} | {"IF"}
    assert basic - {c[0] for c in ORDERS} == set()
    answers = {w for w, v in ANSWERS.verbs.items() if not v.rule or _basic(v.rule)}
    assert answers - {c[0] for c in ANSWERED} == set()
    for case in ORDERS:
        assert SECTION.match(case[4]) and _basic(case[4]), case
    for case in ANSWERED:
        assert SECTION.match(case[2]) and _basic(case[2]), case
