"""Every worked example and derived check the rules digests list for rules 1-12, mapped to the test or
known-answer case that holds it (issue 18: every worked example as a known-answer test); the few that had none
are written here.  The guard fails when a mapped test or case is renamed or removed.

Left out on purpose: the image-only examples (the pictures are lost), the Slow marker (only taking off and
slow torpedoes place it: advanced rules 13-15), and the barrage zone of escape (advanced).
"""
from __future__ import annotations

import re
from pathlib import Path

from pbem.rules.wing_leader import escape, sky, tally, tables, wings
from pbem.rules.wing_leader.model import DIVE

from .helpers import sq, state

HERE = Path(__file__).parent
KNOWN = HERE.parents[1] / "known" / "wing_leader"

#: (the digest's name for it, what it checks, where it is held: "<test file>::<test>" or "known:<case file>")
EXAMPLES = [
    # worked examples printed in the rulebook
    ("T-ROUND-1 (1.2)", "halve 5 twice: 3, then 2", "test_combat.py::test_rounding_halves_up_after_each_division"),
    ("T-TALLY-1 (7.2.2)", "Hellcat on a Zero at 2, behind and through haze: needs a 6",
     "known:tally_example_7_2_2_six_succeeds.toml"),
    ("T-TALLY-1 (7.2.2)", "... a 5 fails", "known:tally_example_7_2_2_five_fails.toml"),
    ("T-TALLY-1 (7.2.2)", "... the form shows the 6 needed", "known:tally_example_7_2_2_form_shows_six.toml"),
    ("T-TALLY-1 (7.2.2)", "unit level, and 3+ without modifiers", "test_tally.py::test_the_worked_tally_example_needs_a_six"),
    ("T-ALT-1 (1.1)", "7 is higher than 6, lower than 8", "test_audit_examples.py::test_higher_and_lower_compare_altitudes"),
    ("T-COORD-1 (2.2)", "B5, G13 name column and altitude", "test_sky.py::test_squares_are_named_by_column_letter_and_altitude"),
    ("T-MODEL-1 (3.2)", "values by model, not by type", "test_audit_examples.py::test_values_are_looked_up_by_model_not_type"),
    ("D1 (10.5.1)", "the air combat example: +4/-4, 2 hits and 1 hit", "known:air_combat_example_10_5_1.toml"),
    ("D1 (10.5.1)", "unit level, and the turning-fight +3", "test_combat.py::test_the_worked_air_combat_example"),
    ("D1 (3.3.2)", "B-24H 4 -> 3 loaded, Bf 109G-6 6 -> 7 diving", "test_data.py::test_the_values_the_worked_combat_example_fixes"),
    ("D2 (11.0)", "escape example by the rule: 1-3 escape", "known:escape_example_11_0_rule_reading.toml"),
    ("D2 (11.0)", "escape example as printed (option escape_reading=example): 1-2",
     "known:escape_example_11_0_example_reading.toml"),
    ("D2 (11.0)", "the Zero with the clear line is chosen", "test_radio.py::test_the_chaser_is_the_available_fighter_with_the_best_odds"),
    # checks derived from the rules, part 1
    ("derived 2.2", "distances", "test_sky.py::test_distance_counts_diagonal_steps_and_the_same_square_is_zero"),
    ("derived 7.2", "a tally reaches 9, not 10", "test_tally.py::test_a_tally_reaches_nine_squares_and_needs_a_clear_line_of_sight"),
    ("derived 7.2.1", "at distance 0 any roll succeeds", "test_audit_examples.py::test_a_tally_at_distance_zero_always_succeeds"),
    ("derived 4.7", "weather not cumulative", "test_sky.py::test_weather_is_not_cumulative_and_haze_covers_every_altitude_up_to_its_top"),
    ("derived 4.6.1", "dense cloud hides what lies beyond", "test_sky.py::test_a_dense_cloud_may_be_entered_but_hides_what_lies_beyond"),
    ("derived 4.6.1", "two broken squares", "test_sky.py::test_two_broken_squares_may_be_entered_and_block_beyond_the_second"),
    ("derived 4.6.1", "a corner of a cloud square", "test_sky.py::test_a_line_through_only_a_corner_of_a_cloud_square_is_unaffected"),
    ("derived 8.2", "allowances 2/3/4, jets 4, jet bombers 3", "test_movement.py::test_allowances_by_mission_alert_and_jet"),
    ("derived 8.3", "eight vertical dives on 4 MP", "test_movement.py::test_a_vertical_dive_costs_half_a_point"),
    ("derived 8.3", "climb 1 then 2", "test_movement.py::test_the_first_climb_costs_the_card_climb_value_and_each_further_climb_two"),
    ("derived 8.3", "a climb dearer than the allowance", "test_movement.py::test_a_climb_costing_more_than_the_allowance_is_impossible"),
    ("derived 8.4.1", "in trail: 2, 1, 0 MP", "known:arrivals_in_trail_8_4_1.toml"),
    ("derived 8.4.1", "a fourth in trail waits", "test_missions.py::test_a_fourth_squadron_in_trail_is_held_back_to_enter_next_turn"),
    ("derived 9.2.4", "GCI 4: 4-6, jammed 6", "test_radio.py::test_a_vector_needs_the_gci_rating_or_a_six_when_jammed"),
    ("derived 9.5.6", "two squadrons no Balbo, two and a flight a Balbo",
     "test_wings.py::test_two_squadrons_and_a_flight_in_wing_formation_fly_a_balbo"),
    ("derived 9.5.6", "five flights are a Balbo", "test_audit_examples.py::test_five_flights_in_wing_formation_are_a_balbo"),
    ("derived 3.3.2", "loaded and diving: speed as printed, turn -1",
     "test_audit_examples.py::test_a_loaded_squadron_diving_keeps_its_speed_and_loses_one_turn"),
    ("derived 9.1", "a formation is a chain", "test_wings.py::test_a_formation_is_a_chain_of_same_heading_neighbours"),
    # checks derived from the rules, part 2
    ("derived 10.5", "columns held within 4", "test_combat.py::test_columns_are_held_within_four"),
    ("derived 10.2", "extra armed fighters +1 each", "test_combat.py::test_extra_armed_fighters_add_one_each_bombers_and_unarmed_nothing"),
    ("derived 10.5.2", "the best defence, not the sum", "test_combat.py::test_defence_is_the_best_rating_not_the_sum"),
    ("derived 10.2.2", "hits spread one each", "test_combat.py::test_hits_are_spread_one_each_before_any_second"),
    ("derived 10.6", "confirmation against Protection", "test_combat.py::test_confirmation_against_protection"),
    ("derived 10.6.1", "a second straggler is a loss", "test_combat.py::test_a_second_straggler_becomes_a_loss"),
    ("derived 10.6", "Max Losses removes the squadron, its losses kept", "known:max_losses_removes_the_squadron_10_6.toml"),
    ("derived 10.7", "cohesion: flight 1, squadron 2", "test_combat.py::test_disruption_breaks_a_flight_at_one_level_and_a_squadron_at_two"),
    ("derived 10.7.2", "ammunition", "test_combat.py::test_ammunition_low_after_the_first_combat_depleted_after_the_second_never_for_bombers"),
    ("derived 10.7.3", "crew loss on a natural 2 after a loss", "test_missions.py::test_an_experte_adds_one_firepower_and_is_lost_on_a_natural_two_after_a_loss"),
    ("derived 10.7.3", "the Wing Leader lost", "known:wing_leader_lost_crew_loss_10_7_3.toml"),
    ("derived 10.8", "the contested start", "known:dogfight_contested_start.toml"),
    ("derived 10.8", "seeker wins ties", "test_dogfight.py::test_the_contested_start_is_d6_plus_basic_speed_and_quality_and_the_seeker_wins_ties"),
    ("derived 10.8.2", "the stack stays or moves one square", "test_dogfight.py::test_the_stack_stays_or_moves_one_square_level_or_lower_and_never_off_the_map"),
    ("derived 11.0", "range 3, weather 1: 1-3 escape", "test_radio.py::test_escape_rule_and_the_disputed_example"),
    ("derived 11.0", "range 0: only a negative roll escapes", "test_audit_examples.py::test_an_escape_from_the_same_square"),
    ("derived 12.1", "exit points 6/3/1/0", "test_victory.py::test_exit_points_of_a_bomber_leaving_through_the_enemy_edge"),
    ("derived 12.1", "losses score the card's points", "test_victory.py::test_every_loss_scores_the_card_victory_points"),
]


def test_every_example_is_held_by_a_test_or_a_case_that_exists():
    missing = []
    for name, _, where in EXAMPLES:
        if where.startswith("known:"):
            if not (KNOWN / where.removeprefix("known:")).is_file():
                missing.append((name, where))
            continue
        file, test = where.split("::")
        path = HERE / file
        if not path.is_file() or not re.search(rf"^def {re.escape(test)}\(", path.read_text(encoding="utf-8"), re.M):
            missing.append((name, where))
    assert missing == []
    assert len({n.split(" ")[0] for n, _, _ in EXAMPLES if not n.startswith("derived")}) == 7  # T-ROUND, -TALLY, -ALT, -COORD, -MODEL, D1, D2


def test_higher_and_lower_compare_altitudes():
    """1.1: a squadron at 7 is higher than one at 6 and lower than one at 8."""
    at7, at6, at8 = sky.parse("C7"), sky.parse("C6"), sky.parse("C8")
    assert at6[1] < at7[1] < at8[1] and sky.distance(at7, at6) == sky.distance(at7, at8) == 1


def test_values_are_looked_up_by_model_not_type():
    """3.2: the Fw 190A is a type; the A-4 and the A-8 are models with cards of their own."""
    a4, a8 = tables.card("fw190a4"), tables.card("fw190a8")
    assert a4["name"] == "Fw 190A-4" and a8["name"] == "Fw 190A-8"
    assert a4 != a8
    k = sq("K", "axis", "fw190a4", "intercept", "J10")
    assert k.basic() == (tables.band_value("fw190a4", 10, "speed"), tables.band_value("fw190a4", 10, "turn"))


def test_a_tally_at_distance_zero_always_succeeds():
    """7.2.1: the modified roll must beat the distance; at 0 even a 1 does."""
    assert tally.succeeds(1, [], 0)
    assert not tally.succeeds(1, [], 1)


def test_a_loaded_squadron_diving_keeps_its_speed_and_loses_one_turn():
    """3.3.2: -1 speed and turn for the load, +1 speed for the Dive marker (no Low Drag on the B-24H)."""
    clean = sq("T", "allies", "b24h", "bombing", "J10")
    speed, turn = clean.basic()
    assert clean.move(bombs=True, marker=DIVE).basic() == (speed, turn - 1)
    assert clean.move(bombs=True).basic() == (speed - 1, turn - 1)


def test_five_flights_in_wing_formation_are_a_balbo(monkeypatch):
    """9.5.6: more than two squadrons' worth: five flights make 2.5."""
    squares = ["W8", "X8", "X7", "Y8", "Y7"]
    flights = [sq(i, "axis", "fw190a4", "intercept", at, heading="W", alert=True, flight=True)
               for i, at in zip("KLMNO", squares, strict=True)]
    monkeypatch.setattr(wings, "wings", lambda s: [{"name": "big", "members": list("KLMNO"), "leader": "K"}])
    assert wings.in_balbo(state(*flights), flights[1])
    assert not wings.in_balbo(state(*flights[:4]), flights[1])  # four flights: 2, not more than 2


def test_an_escape_from_the_same_square():
    """11.0: at range 0 only a modified roll below 0 escapes: a natural 1 with weather 2 or 3, never with 1."""
    assert escape.escapes(1, escape.Chase("K", 0, 2)) and escape.escapes(1, escape.Chase("K", 0, 3))
    assert not escape.escapes(1, escape.Chase("K", 0, 1)) and not escape.escapes(2, escape.Chase("K", 0, 2))
