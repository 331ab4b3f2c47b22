"""One to three seats a side, one per wing [9.1]: seat names, who orders what, forms and views per seat,
every seat of a side awaited, the side's files merged, and whole bot games with six players."""
from __future__ import annotations

import pytest

from pbem.core.dice import SeededDice
from pbem.core.play import canonical_json, play
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State, owner

SEED = b"wing leader seats seed, 32 bytes"
SCENARIOS = [s.name for s in RULESET.info.scenarios]


def _start(scenario: str, per_side: int, **options: object) -> State:
    opts = RULESET.info.resolve_options({"seats_per_side": per_side, **options})
    return RULESET.setup(scenario, opts, SeededDice(SEED, "setup"))


@pytest.mark.parametrize("per_side", [2, 3])
@pytest.mark.parametrize("cadence", ["standard", "fast", "single"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_ruleset_passes_the_kit_conformance_checks_with_seats_per_wing(scenario, cadence, per_side):
    assert check_ruleset(RULESET, scenario, SEED, options={"cadence": cadence, "seats_per_side": per_side},
                         max_phases=40) > 6


def test_one_seat_a_side_keeps_the_side_names():
    state = _start("raid", 1)
    assert [s.name for s in RULESET.seats(state)] == ["allies", "axis"]
    assert {owner(s) for s in state.squadrons} == {"allies", "axis"}


def test_wings_go_round_the_seats_and_a_side_with_fewer_wings_gets_fewer_seats():
    """The sweep's Axis flies one wing (K, L): one Axis seat however many are asked for; the Allies' two
    squadrons in no wing are a wing each."""
    state = _start("sweep", 3)
    assert [s.name for s in RULESET.seats(state)] == ["allies-1", "allies-2", "axis-1"]
    seats = {s.id: owner(s) for s in state.squadrons}
    assert seats["K"] == seats["L"] == "axis-1"
    assert sorted(seats[s.id] for s in state.of_side("allies")) == ["allies-1", "allies-2"]


def _first_two(state: State, side: str) -> tuple[str, str]:
    """A squadron of ``<side>-1`` and one of ``<side>-2``."""
    mine = [s.id for s in state.squadrons if owner(s) == f"{side}-1"]
    theirs = [s.id for s in state.squadrons if owner(s) == f"{side}-2"]
    return mine[0], theirs[0]


def test_a_seat_orders_only_its_own_wings_and_the_refusal_names_the_rule():
    state = _start("raid", 2)
    mine, theirs = _first_two(state, "allies")
    assert check_body(RULESET, state, "allies-1", f"TACTIC {mine} SPEED")[1] == []
    problems = check_body(RULESET, state, "allies-1", f"TACTIC {theirs} SPEED")[1]
    assert len(problems) == 1 and "[9.1]" in problems[0] and "allies-2" in problems[0]


def _past_wings(state: State) -> State:
    """The first Tally Phase, every seat silent in the choice of wings (the round-robin stands)."""
    phase = RULESET.phase(state)
    assert phase.name == "wings"
    return RULESET.resolve(state, {s: () for s in phase.awaiting}, SeededDice(SEED, phase.name)).state


def test_every_seat_of_the_side_is_awaited_and_forms_list_only_the_seats_squadrons():
    state = _past_wings(_start("raid", 2))
    phase = RULESET.phase(state)
    raider = state.raider
    assert phase.awaiting == {f"{raider}-1", f"{raider}-2"}
    mine, theirs = _first_two(state, raider)
    form = RULESET.order_form(RULESET.view(state, f"{raider}-1"), f"{raider}-1")
    assert f"# {mine} " in form and f"# {theirs} " not in form
    views = [RULESET.view(state, seat.name) for seat in RULESET.seats(state)]
    assert all(v["squadrons"] == views[0]["squadrons"] for v in views)   # open information [5.2]


def test_a_silent_seat_leaves_its_squadrons_to_their_missions_while_its_ally_orders():
    """Both seats' files make the side's orders: seat 1's TACTIC is set, seat 2's silence changes nothing."""
    state = _to_movement(_start("raid", 2))
    phase = RULESET.phase(state)
    assert phase.name == "movement" and len(phase.awaiting) == 4
    side = state.raider
    mine, _ = _first_two(state, side)
    orders = {s: () for s in phase.awaiting}
    orders[f"{side}-1"] = check_body(RULESET, state, f"{side}-1", f"TACTIC {mine} TURN")[0].orders
    after = RULESET.resolve(state, orders, SeededDice(SEED, phase.name)).state
    assert [o.text for o in after.flow.standing.of(f"{side}-1")] == [f"TACTIC {mine} TURN"]
    assert after.flow.standing.of(f"{side}-2") == ()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_six_player_bot_game_reaches_its_result_and_replays_byte_for_byte(scenario):
    options = {"seats_per_side": 3}
    first = play(RULESET, scenario, SEED, options=options, max_phases=200)
    again = play(RULESET, scenario, SEED, options=options, max_phases=200)
    end = first[-1].state
    assert end.flow.over and "victory points" in RULESET.outcome(end).text
    assert [canonical_json(RULESET.dump(s.state)) for s in first] == [canonical_json(RULESET.dump(s.state)) for s in again]


def _known(case: str, seats: dict[str, str]) -> State:
    """A known-answer position played by wing players: ``seats`` gives each squadron's commander."""
    from dataclasses import replace
    from pathlib import Path

    from pbem.testing import known
    state = known.start_state(RULESET, known.load_case(Path(__file__).parents[2] / "known" / "wing_leader"
                                                       / f"{case}.toml"))
    names = ("allies-1", "allies-2", "axis-1", "axis-2")
    return replace(state, seat_names=names, squadrons=tuple(s.move(seat=seats[s.id]) for s in state.squadrons))


def _orders(state: State, bodies: dict[str, str]) -> dict:
    out = {}
    for seat in RULESET.phase(state).awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == []
        out[seat] = checked.orders
    return out


def test_a_rating_question_goes_to_the_seat_commanding_the_attacking_lead():
    """10.5 with wing players: K's commander (axis-2) asks to be asked; only that seat is awaited, and its
    answer TURN makes the turning fight."""
    state = _known("air_combat_example_10_5_1", {"A": "allies-1", "B": "allies-2", "K": "axis-2", "L": "axis-1"})
    assert "[9.1]" in check_body(RULESET, state, "axis-1", "PURSUE K")[1][0]
    asked = RULESET.resolve(state, _orders(state, {"axis-2": "TACTIC K ASK\nPURSUE K"}), SeededDice(SEED, "m")).state
    phase = RULESET.phase(asked)
    assert phase.name.startswith("combat_choice") and phase.awaiting == {"axis-2"}
    result = RULESET.resolve(asked, _orders(asked, {"axis-2": "TURN"}), SeededDice(SEED, phase.name))
    assert any("turning fight (turn) 3 against 0" in e.text for e in result.events)


def test_a_side_wide_dogfight_order_from_any_seat_asks_the_commander_of_the_side_in_the_fight():
    """10.8 with wing players: allies-2 and axis-1 give DOGFIGHT ASK for their sides; the questions go to
    the commanders of the squadrons in the fight (A: allies-1, K: axis-2), and both SEEK starts it."""
    from pbem.core.dice import FixedDice
    state = _known("dogfight_contested_start", {"A": "allies-1", "B": "allies-2", "C": "allies-2",
                                                "K": "axis-2", "L": "axis-1", "N": "axis-1"})
    orders = _orders(state, {"allies-2": "DOGFIGHT ASK", "axis-1": "DOGFIGHT ASK", "axis-2": "PURSUE K"})
    asked = RULESET.resolve(state, orders, FixedDice([1, 2, 2, 2, 6, 6, 6, 6])).state
    phase = RULESET.phase(asked)
    assert phase.name.startswith("dogfight_choice") and phase.awaiting == {"allies-1", "axis-2"}
    result = RULESET.resolve(asked, _orders(asked, {"allies-1": "SEEK", "axis-2": "SEEK"}), FixedDice([]))
    assert any(e.text == "dogfight in J10: A K (10.8.1)" for e in result.events)


def _to_movement(state: State) -> State:
    """The next Movement Phase window, every seat silent before it."""
    while RULESET.phase(state).name != "movement":
        phase = RULESET.phase(state)
        state = RULESET.resolve(state, {s: () for s in phase.awaiting}, SeededDice(SEED, phase.name)).state
    return state


def test_side_wide_standing_orders_are_the_sides_and_the_last_change_wins():
    """DOGFIGHT is the side's [10.8]: set by seat 1, seen in seat 2's view and form, changed by seat 2."""
    state = _to_movement(_start("raid", 2))
    side = state.raider
    one, two = f"{side}-1", f"{side}-2"
    state = RULESET.resolve(state, _orders(state, {one: "DOGFIGHT SEEK"}), SeededDice(SEED, "a")).state
    assert [o["text"] for o in RULESET.view(state, two)["standing"]] == ["DOGFIGHT SEEK"]
    assert "#   DOGFIGHT SEEK" in RULESET.order_form(RULESET.view(state, two), two)
    state = _to_movement(state)
    state = RULESET.resolve(state, _orders(state, {two: "DOGFIGHT ASK"}), SeededDice(SEED, "b")).state
    for seat in (one, two):
        assert [o["text"] for o in RULESET.view(state, seat)["standing"]] == ["DOGFIGHT ASK"]
    enemy = f"{state.defender}-1"
    assert RULESET.view(state, enemy)["standing"] == []
