"""The set-up between the players [5.3] (option ``setup = players``): the side the scenario names sets up
first, the other after seeing it; each Intercept places its vector anywhere (step 4), each escort its square
within the escort rules (step 5); anything else waits for the first Tally Phase."""
from __future__ import annotations

from pbem.core.dice import FixedDice, SeededDice
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State

SEED = b"wing leader set-up test seed, 32"


def _start(**options: str) -> State:
    return RULESET.setup("raid", RULESET.info.resolve_options(options), SeededDice(SEED, "setup"))


def _send(state: State, bodies: dict[str, str]) -> State:
    out = {}
    for seat in RULESET.phase(state).awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == [], problems
        out[seat] = checked.orders
    return RULESET.resolve(state, out, FixedDice([])).state


def test_by_default_the_scenario_places_everything_and_the_first_turn_opens():
    assert RULESET.phase(_start()).name.startswith("raider_tally")
    assert dict((o.name, o.default) for o in RULESET.info.options)["setup"] == "scenario"


def test_the_side_named_first_sets_up_first_then_the_other_then_the_first_turn():
    """5.3 step 2: the raid's order of battle sets the Axis up first."""
    state = _start(setup="players")
    assert RULESET.phase(state).name == "setup_first" and set(RULESET.phase(state).awaiting) == {"axis"}
    state = _send(state, {"axis": "VECTOR K H12"})
    assert RULESET.phase(state).name == "setup_second" and set(RULESET.phase(state).awaiting) == {"allies"}
    state = _send(state, {"allies": "PLACE B C14"})
    assert RULESET.phase(state).name == "raider_tally"
    assert state.squadron("K").vector == (7, 12) and state.squadron("B").at == (2, 14)
    assert state.squadron("L").vector == (13, 15)   # unsaid: the scenario's N15 stands


def test_set_up_orders_are_checked_at_ingest_with_their_rule():
    """5.3 step 4 (only an Intercept places a vector), step 5 and 9.2.2 (an escort's square), 5.3 (nothing
    else in the set-up; no PLACE after it)."""
    state = _start(setup="players")
    problems = check_body(RULESET, state, "axis", "PLACE K A1\nTALLY K T\nVECTOR K ZZ9")[1]
    assert len(problems) == 3 and all(p.endswith("[5.3]") for p in problems), problems
    assert "not an escort" in problems[0] and "setting up" in problems[1] and "not a square" in problems[2]
    state = _send(state, {})
    problems = check_body(RULESET, state, "allies", "PLACE A Z1\nPLACE B F14\nVECTOR A H12")[1]
    assert "not within 3 squares" in problems[0] and problems[0].endswith("[9.2.2]"), problems
    assert "ahead of the lead bomber" in problems[1] and "only an Intercept" in problems[2], problems
    late = check_body(RULESET, _start(), "allies", "PLACE B C14")[1]
    assert len(late) == 1 and "only in the set-up" in late[0], late


def test_a_game_with_the_players_set_up_passes_the_kit_conformance_checks():
    from pbem.testing.conformance import check_ruleset
    assert check_ruleset(RULESET, "raid", SEED, options={"setup": "players"}, max_phases=40) > 6


def test_with_several_players_a_side_the_wings_are_chosen_before_the_set_up():
    state = RULESET.setup("raid", RULESET.info.resolve_options({"setup": "players", "seats_per_side": 2}),
                          SeededDice(SEED, "setup"))
    assert RULESET.phase(state).name == "wings"
    assert RULESET.phase(_send(state, {})).name == "setup_first"
