"""The players' choices: wings chosen by the seats [9.1, 9.5], leads, hits and dogfight tallies asked
[10.2, 10.2.2, 10.8.1], the Wing Leader's orders without radio [9.5.4, 9.5.4.1], the leader marker lost
[10.7.3], and a move stopped for a reaction question resumed without repeating what was said [10.4]."""
from __future__ import annotations

from pathlib import Path

from pbem.core.dice import FixedDice, SeededDice
from pbem.testing import known
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State

SEED = b"wing leader choices seed 32 byte"
CASES = Path(__file__).parents[2] / "known" / "wing_leader" / "cases"


def _case(name: str) -> tuple[State, known.Case]:
    case = known.load_case(CASES / f"{name}.toml")
    return known.start_state(RULESET, case), case


def _orders(state: State, bodies: dict[str, str]) -> dict:
    out = {}
    for seat in RULESET.phase(state).awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == [], problems
        out[seat] = checked.orders
    return out


def test_a_note_said_before_a_reaction_question_is_not_said_again_on_resuming():
    """10.4: K's first entry is skipped (its condition does not hold) and said to axis; its PURSUE then
    stops for A's REACT ASK.  Resumed, K's script goes on at the PURSUE: the skip is not said again."""
    state, case = _case("reaction_success_stops_the_attacker")
    skip = "IF TALLIED K THEN RTB K was skipped: TALLIED K does not hold"
    asked = RULESET.resolve(state, _orders(state, {"allies": "REACT A ASK", "axis": "IF TALLIED K THEN RTB K\nPURSUE K"}),
                            FixedDice([]))
    assert [e.text for e in asked.events].count(skip) == 1
    assert RULESET.phase(asked.state).name.startswith("reaction_choice")
    result = RULESET.resolve(asked.state, _orders(asked.state, {"allies": "YES"}), FixedDice(list(case.dice)))
    texts = [e.text for e in result.events]
    assert skip not in texts, texts
    assert "A stop K in L15 (10.4.2)" in texts and any(t.startswith("K (pursue) L16 -> L15") for t in texts), texts


def _start(scenario: str, per_side: int) -> State:
    return RULESET.setup(scenario, RULESET.info.resolve_options({"seats_per_side": per_side}), SeededDice(SEED, "setup"))


def _seats(state: State) -> dict[str, str]:
    return {s.id: s.seat for s in state.squadrons}


def test_the_players_of_a_side_choose_their_wings_before_the_first_turn():
    """9.5: the raid with two players a side opens with the choice of wings; allies-2 claims T's formation
    (allies-1's by the round-robin), allies-1 is silent: T goes to allies-2 and the rest is dealt to the
    seat holding fewest; every player of the side is told who commands what; the Tally Phase follows."""
    state = _start("raid", 2)
    phase = RULESET.phase(state)
    assert phase.name == "wings" and phase.awaiting == {"allies-1", "allies-2", "axis-1", "axis-2"}
    form = RULESET.order_form(RULESET.view(state, "allies-2"), "allies-2")
    assert "#   T: allies-1" in form and "#   U: yours" in form and "WINGS U B" in form
    result = RULESET.resolve(state, _orders(state, {"allies-2": "WINGS T"}), SeededDice(SEED, phase.name))
    after = result.state
    assert {k: v for k, v in _seats(after).items() if k in "TUAB"} == {
        "T": "allies-2", "U": "allies-1", "A": "allies-1", "B": "allies-2"}
    told = [e for e in result.events if e.kind == "wings"]
    assert [e.text for e in told if "allies-2" in e.visible_to and "axis-1" not in e.visible_to] == [
        "allies-1 commands U; A (9.5)", "allies-2 commands T; B (9.5)"]
    assert RULESET.phase(after).name == "raider_tally"
    assert "# T " in RULESET.order_form(RULESET.view(after, "allies-2"), "allies-2")


def test_a_wing_another_seat_took_first_is_refused_and_silence_keeps_the_round_robin():
    """9.5: both Axis players claim K's formation: seat 1 gets it, seat 2 is told it was taken and keeps a
    formation of its own; the silent Allies keep the round-robin of scenario order."""
    state = _start("raid", 2)
    before = _seats(state)
    result = RULESET.resolve(state, _orders(state, {"axis-1": "WINGS K", "axis-2": "WINGS K L"}),
                             SeededDice(SEED, "wings"))
    seats = _seats(result.state)
    assert seats["K"] == "axis-1" and seats["L"] == "axis-2"
    assert all(seats[s] == before[s] for s in "TUAB")
    notes = [e.text for e in result.events if e.visible_to == frozenset({"axis-2"})]
    assert notes == ["K was claimed by axis-1 first: not yours (9.5)"]
    assert sorted(seats.values()).count("axis-1") >= 1 and sorted(seats.values()).count("axis-2") >= 1


def test_a_seat_claiming_every_wing_leaves_its_ally_one():
    """9.5: a seat with nothing to command would have nothing to write; it takes the claimer's last one."""
    state = _start("sweep", 2)   # allies: A and B, a formation each
    result = RULESET.resolve(state, _orders(state, {"allies-1": "WINGS A B"}), SeededDice(SEED, "wings"))
    assert _seats(result.state)["A"] == "allies-1" and _seats(result.state)["B"] == "allies-2"


def test_wings_orders_are_checked_at_ingest():
    state = _start("raid", 2)
    assert "[9.5]" in check_body(RULESET, state, "allies-1", "WINGS K")[1][0]
    assert "[6.0]" in check_body(RULESET, state, "allies-1", "RTB A")[1][0]
    later = RULESET.resolve(state, _orders(state, {}), SeededDice(SEED, "wings")).state
    assert "[9.5]" in check_body(RULESET, later, "allies-1", "WINGS T")[1][0]


def test_one_player_a_side_has_no_choice_of_wings():
    assert RULESET.phase(_start("raid", 1)).name == "raider_tally"


def test_an_allys_per_squadron_standing_orders_are_shown_to_the_other_seats_of_the_side():
    """The side fights one battle: allies-1's TACTIC for its squadron is listed in allies-2's view and form,
    as its ally's (not for allies-2 to cancel); the enemy's view does not list it."""
    state = RULESET.resolve(_start("raid", 2), _orders(_start("raid", 2), {}), SeededDice(SEED, "wings")).state
    state = RULESET.resolve(state, _orders(state, {"allies-1": "TACTIC A TURN"}), SeededDice(SEED, "t")).state
    view = RULESET.view(state, "allies-2")
    assert view["allied_standing"] == [{"seat": "allies-1", "key": "TACTIC A", "text": "TACTIC A TURN"}]
    assert view["standing"] == []
    assert "#   allies-1: TACTIC A TURN" in RULESET.order_form(view, "allies-2")
    assert RULESET.view(state, "axis-1")["allied_standing"] == []
    assert "TACTIC A" not in str(RULESET.view(state, "axis-1"))
