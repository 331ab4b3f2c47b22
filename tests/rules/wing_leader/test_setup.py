"""The set-up between the players [5.3] (option ``setup = players``): the side the scenario names sets up
first, the other after seeing it; each Intercept places its vector anywhere (step 4), each escort its square
within the escort rules (step 5); anything else waits for the first Tally Phase."""
from __future__ import annotations

import pytest

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


# --- the players' own choices beyond vectors and escorts: markers [5.2.1], wing squadrons [5.3 step 6] and
# --- later arrivals' vectors [5.3.1]

def _setup(scenario: str, **options: str) -> State:
    return RULESET.setup(scenario, RULESET.info.resolve_options({"setup": "players", **options}),
                         SeededDice(SEED, "setup"))


def test_the_players_place_their_veteran_green_and_experte_markers_as_the_scenario_counts_them():
    """5.2.1: the dogfight gives the Allies one Veteran (A), one Green (C) and one Experte (A); they place
    them anew; the Axis (silent) keeps the scenario's."""
    state = _send(_setup("dogfight"), {})
    assert RULESET.phase(state).name == "setup_second"
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "1 Veteran marker, now on A" in form and "1 Experte marker, now on A" in form, form
    after = _send(state, {"allies": "VETERAN C\nGREEN A\nEXPERTE B"})
    quality = {s.id: (s.quality, s.experte) for s in after.squadrons}
    assert quality["A"] == ("green", False) and quality["B"] == ("trained", True) and quality["C"] == ("veteran", False)
    assert quality["K"] == ("veteran", False)
    assert RULESET.phase(after).name == "raider_tally"


def test_markers_are_checked_at_ingest_with_their_rule():
    """5.2.1: as many markers as the scenario gives, on different squadrons of one's own, at most one Veteran
    or Green a squadron (an unsaid kind keeps the scenario's), an Experte only on a fighter; only in the set-up."""
    state = _send(_setup("dogfight"), {})
    problems = check_body(RULESET, state, "allies", "VETERAN A B\nGREEN K\nEXPERTE B B")[1]
    assert len(problems) == 3 and all(p.endswith("[5.2.1]") for p in problems), problems
    assert "you have 1 Veteran marker" in problems[0] and "name 1 different squadron" in problems[0]
    assert "not among your squadrons" in problems[1] and "you have 1 Experte marker" in problems[2]
    clash = check_body(RULESET, state, "allies", "GREEN A")[1]
    assert len(clash) == 1 and "A would carry both a Veteran and a Green marker" in clash[0], clash
    assert "the scenario's Veteran markers stand unless you place them too" in clash[0]
    assert check_body(RULESET, state, "allies", "GREEN A\nVETERAN B")[1] == []
    raid = _setup("raid")
    assert "gives you no Experte marker" in check_body(RULESET, raid, "axis", "EXPERTE K")[1][0]
    late = check_body(RULESET, _send(state, {}), "allies", "VETERAN C")[1]
    assert len(late) == 1 and "only in the set-up" in late[0] and late[0].endswith("[5.2.1]"), late


def test_an_experte_goes_only_to_a_fighter():
    from dataclasses import replace
    from pbem.rules.wing_leader.placing import marker_problem
    state = _setup("raid")
    state = replace(state, squadrons=tuple(s.move(experte=s.id == "A") for s in state.squadrons))
    assert marker_problem(state, "allies", "EXPERTE", ["T"]) == "T: an Experte goes only to a fighter squadron"
    assert marker_problem(state, "allies", "EXPERTE", ["B"]) is None


def test_a_wing_squadron_is_set_up_in_formation_with_its_wing_leaders_squadron():
    """5.3 step 6, 9.1, 9.5.2: in the sweep, JG 1's L sets up anywhere in formation with K (the leader, on the
    order of battle's W8, step 2); out of formation it is refused; the leader's square is not asked; L, keeping
    formation, places no vector (9.5.3)."""
    state = _setup("sweep")
    form = RULESET.order_form(RULESET.view(state, "axis"), "axis")
    assert "PLACE L <square>: in formation with the Wing Leader's squadron of JG 1 (step 6): V7, V8, V9, W7, W8, " \
           "W9, X7, X8, X9; else X7" in form, form
    assert "VECTOR L" not in form and "VECTOR K <square>" in form
    problems = check_body(RULESET, state, "axis", "PLACE L V5\nPLACE K W9\nVECTOR L H12")[1]
    assert len(problems) == 3, problems
    assert "L would not be in formation with K" in problems[0] and problems[0].endswith("[5.3]")
    assert "not an escort (step 5) nor a wing squadron" in problems[1] and problems[1].endswith("[5.3]")
    assert "only its Wing Leader's squadron places a vector" in problems[2] and problems[2].endswith("[9.5.3]")
    after = _send(state, {"axis": "PLACE L V9"})
    assert after.squadron("L").at == (21, 9) and after.squadron("K").at == (22, 8)


def _to_phase(state: State, name: str, limit: int = 30) -> State:
    for _ in range(limit):
        if RULESET.phase(state).name == name:
            return state
        out = {seat: RULESET.default_orders(state, seat) for seat in RULESET.phase(state).awaiting}
        state = RULESET.resolve(state, out, SeededDice(SEED, str(state.flow))).state
    raise AssertionError(f"never reached {name}")


def test_a_later_intercept_places_its_vector_in_the_setup_phase_of_its_arrival():
    """5.3.1: the raid's M arrives on turn 3: the Axis (setting up first) places its vector then, in its own
    window; N, O and P on turn 4 likewise; unsaid, the scenario's vector stands."""
    state = _setup("raid")
    form = RULESET.order_form(RULESET.view(state, "axis"), "axis")
    assert "its vector is placed in the Setup Phase of turn 3, when it arrives (VECTOR M <square>, 5.3.1); " \
           "else the scenario's K12" in form, form
    state = _to_phase(state, "arrivals_first")
    assert state.turn == 3 and set(RULESET.phase(state).awaiting) == {"axis"}
    assert state.squadron("M").status == "entering"
    form = RULESET.order_form(RULESET.view(state, "axis"), "axis")
    assert "M Fw 190A-8 arrives this turn: VECTOR M <square> places its vector anywhere on the map (5.3.1); " \
           "else K12" in form, form
    problems = check_body(RULESET, state, "axis", "VECTOR K H12\nTALLY M A\nVECTOR N H12")[1]
    assert len(problems) == 3 and all(p.endswith("[5.3.1]") for p in problems), problems
    assert "(M)" in problems[0] and "the Setup Phase" in problems[1]
    checked, problems = check_body(RULESET, state, "axis", "VECTOR M H12")
    assert problems == []
    result = RULESET.resolve(state, {"axis": checked.orders}, FixedDice([]))
    assert result.state.squadron("M").vector == (7, 12)
    assert [e.text for e in result.events if e.kind == "setup"] == ["M places its vector on H12 (5.3.1)"]
    assert RULESET.phase(result.state).name == "raider_tally"
    state = _to_phase(result.state, "arrivals_first")
    assert state.turn == 4 and state.squadron("N").vector == (9, 15)
    state = _send(state, {})
    assert state.squadron("N").vector == (9, 15) and RULESET.phase(state).name == "raider_tally"


def test_by_default_no_setup_phase_window_opens_for_arrivals():
    state = _to_phase(_start(), "movement")
    for _ in range(3):
        state = _to_phase(state, "raider_tally")
        assert RULESET.phase(state).name == "raider_tally"
        state = _to_phase(state, "movement")
    assert state.turn >= 3 and state.squadron("M").status != "waiting"


def test_under_fog_an_arrivals_vector_is_told_only_to_its_side():
    state = _to_phase(_setup("raid", visibility="fog"), "arrivals_first")
    checked, problems = check_body(RULESET, state, "axis", "VECTOR M H12")
    assert problems == []
    result = RULESET.resolve(state, {"axis": checked.orders}, FixedDice([]))
    told = [e for e in result.events if e.kind == "setup"]
    assert len(told) == 1 and told[0].visible_to == frozenset({"axis"})


@pytest.mark.parametrize("scenario", ["sweep", "dogfight"])
def test_other_scenarios_set_up_by_the_players_pass_the_kit_conformance_checks(scenario):
    from pbem.testing.conformance import check_ruleset
    assert check_ruleset(RULESET, scenario, SEED, options={"setup": "players"}, max_phases=30) > 6


def test_under_fog_a_set_up_vector_is_told_only_to_its_side():
    """Vectors are a side's ground control's business (the fog views hide them): the set-up says them to it alone,
    even of a squadron the enemy sees (K set up next to the bombers)."""
    from dataclasses import replace
    state = _setup("raid", visibility="fog")
    state = replace(state, squadrons=tuple(s.move(at=(5, 14)) if s.id == "K" else s for s in state.squadrons))
    assert "K" in {s["id"] for s in RULESET.view(state, "allies")["squadrons"]}
    checked, problems = check_body(RULESET, state, "axis", "VECTOR K H12")
    assert problems == []
    told = [e for e in RULESET.resolve(state, {"axis": checked.orders}, FixedDice([])).events if e.kind == "setup"]
    assert [(e.text, e.visible_to) for e in told] == [("K places its vector on H12 (5.3)", frozenset({"axis"}))]
