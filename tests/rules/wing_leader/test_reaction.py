"""Escort reaction [10.4]: the trigger, eligibility, the (placeholder) table and the best result."""
from __future__ import annotations

from pathlib import Path

from pbem.core.dice import FixedDice
from pbem.testing import known
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET, reaction

from .helpers import sq, state

CASES = Path(__file__).parents[2] / "known" / "wing_leader"

B24 = sq("T", "allies", "b24h", "bombing", "M14", bombs=True)


def test_a_fighter_entering_from_behind_triggers_and_from_the_front_does_not():
    """10.4, 10.3: a head-on approach (from the bomber's three front squares) denies reaction."""
    k = sq("K", "axis", "fw190a8", "intercept", "L15", alert=True, tally="T")
    assert reaction.triggered(k, B24, (11, 15)) and not reaction.triggered(k, B24, (13, 15))
    assert not reaction.triggered(k, B24, (10, 14))   # not adjacent: it did not come from next door


def test_eligible_escorts_are_available_near_not_far_below_and_in_sight():
    """10.4: within 3 squares, at most one altitude below the bomber, Available, line of sight."""
    near = sq("A", "allies", "p47d", "escort", "K13")
    low = sq("B", "allies", "p47d", "escort", "L12")
    far = sq("C", "allies", "p47d", "escort", "H14")
    broken = sq("D", "allies", "p47d", "escort", "M15", broken=True)
    s = state(B24, near, low, far, broken)
    assert [e.id for e in reaction.eligible(s, B24)] == ["A"]


def test_the_best_result_counts_for_every_reacting_escort():
    """10.4.5."""
    assert reaction.best(["none", "late"]) == "late" and reaction.best(["late", "success"]) == "success"
    assert reaction.best([]) == "none"
    assert [reaction.result(r) for r in (6, 7, 8, 9)] == ["none", "late", "late", "success"]


def _ingest(scenario: str, body: str, edits: tuple = ()) -> list:
    """The problems ingest finds in ``body`` from the Allies at the start of ``scenario``'s movement."""
    case = known.Case("ingest", "10.4.2", "ingest", {"scenario": scenario, "edits": [["flow.step", "movement"], *edits]},
                      {}, (), 0, {})
    state = known.start_state(RULESET, case)
    return check_body(RULESET, state, "allies", body)[1]


def test_react_split_is_refused_at_ingest_without_tactical_flexibility_or_for_a_flight():
    """10.4.2 option 2, 9.3.2: only a side the scenario gives tactical flexibility splits on reacting (the
    raid gives none; the dogfight gives the Allies); 9.3: a flight never splits."""
    escort = (["squadrons[id=A].mission", "escort"],)
    refused = _ingest("raid", "REACT A SPLIT")
    assert len(refused) == 1 and "[10.4.2]" in refused[0] and "tactical flexibility" in refused[0], refused
    assert _ingest("raid", "REACT A YES") == []
    assert _ingest("dogfight", "REACT A SPLIT", escort) == []
    flight = _ingest("dogfight", "REACT A SPLIT", (*escort, ["squadrons[id=A].flight", True]))
    assert len(flight) == 1 and "flights never split" in flight[0] and "[9.3]" in flight[0], flight


def test_a_disrupted_escort_told_to_split_reacts_whole():
    """9.3: a disrupted squadron may not split; REACT SPLIT then reacts with the whole squadron, its owner told."""
    case = known.load_case(CASES / "reaction_split_one_flight_attacks_10_4_2.toml")
    case.start["edits"].append(["squadrons[id=A].disruption", 1])
    state = known.start_state(RULESET, case)
    orders = {seat: check_body(RULESET, state, seat, case.orders.get(seat, ""))[0].orders
              for seat in RULESET.phase(state).awaiting}
    result = RULESET.resolve(state, orders, FixedDice([5, 5, 1, 1, 1, 1, 6, 6, 6, 6]))
    texts = [e.text for e in result.events]
    assert "REACT A SPLIT: A is disrupted or broken; it reacts whole (10.4.2)" in texts, texts
    assert "A stop K in L15 (10.4.2)" in texts and result.state.find("A1") is None


def test_an_escort_asked_whether_it_reacts_may_answer_split_with_tactical_flexibility():
    """10.4.2 option 2: REACT A ASK stops K's move; the Allies (tactical flexibility) answer SPLIT and A1 reacts."""
    case = known.load_case(CASES / "reaction_split_one_flight_attacks_10_4_2.toml")
    state = known.start_state(RULESET, case)
    bodies = {"allies": "REACT A ASK"}
    orders = {seat: check_body(RULESET, state, seat, bodies.get(seat, ""))[0].orders
              for seat in RULESET.phase(state).awaiting}
    asked = RULESET.resolve(state, orders, FixedDice([]))
    assert RULESET.phase(asked.state).name.startswith("reaction_choice")
    checked, problems = check_body(RULESET, asked.state, "allies", "SPLIT")
    assert problems == [], problems
    result = RULESET.resolve(asked.state, {"allies": checked.orders}, FixedDice(list(case.dice)))
    texts = [e.text for e in result.events]
    assert "A splits on reacting: A1 flies at the enemy, A2 stays with the bombers (10.4.2, 9.3.2)" in texts, texts
    assert result.state.squadron("A2").mission == "escort"


def test_without_tactical_flexibility_the_answer_split_is_refused():
    """10.4.2: the raid gives the Allies no tactical flexibility, so its reaction question takes YES or NO only."""
    case = known.load_case(CASES / "reaction_success_stops_the_attacker.toml")
    state = known.start_state(RULESET, case)
    orders = {seat: check_body(RULESET, state, seat, {"allies": "REACT A ASK"}.get(seat, ""))[0].orders
              for seat in RULESET.phase(state).awaiting}
    asked = RULESET.resolve(state, orders, FixedDice([]))
    problems = check_body(RULESET, asked.state, "allies", "SPLIT")[1]
    assert len(problems) == 1 and "answer YES or NO" in problems[0], problems


def test_the_order_form_offers_react_split_only_with_tactical_flexibility():
    """10.4.2 option 2: the escort's reaction line names SPLIT where its side may split on reacting."""
    flexible = known.start_state(RULESET, known.load_case(CASES / "reaction_split_one_flight_attacks_10_4_2.toml"))
    rigid = known.start_state(RULESET, known.load_case(CASES / "reaction_success_stops_the_attacker.toml"))
    form = RULESET.order_form(RULESET.view(flexible, "allies"), "allies")
    assert "REACT A SPLIT sends one flight, 10.4.2" in form, form
    assert "SPLIT sends" not in RULESET.order_form(RULESET.view(rigid, "allies"), "allies")
