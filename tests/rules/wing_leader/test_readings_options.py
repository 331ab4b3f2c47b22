"""More of the digests' open readings as named options, the proposed reading the default: rain under dense cloud
[4.5.1, AMB-4], rain and sight [AMB-5], the wing formation's chain [9.5.2, AMB-22], a fourth squadron in trail
[8.4.1, GAP-21]; the counter mix [9.3, GAP-9]; the options orders are checked against at ingest."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from pbem.core.dice import SeededDice
from pbem.rules.wing_leader import RULESET, combat, split, wings
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.model import ENTERING
from pbem.rules.wing_leader.moves import _trail_penalty
from pbem.rules.wing_leader.parsing import position
from pbem.rules.wing_leader.sky import Sky

from .helpers import sq, state


def test_the_new_readings_are_options_defaulting_to_the_proposed_one():
    options = {o.name: (o.default, o.choices) for o in RULESET.info.options}
    assert options["rain_reading"] == ("below", ("below", "layer"))
    assert options["rain_sight"] == ("broken", ("broken", "clear"))
    assert options["formation_chain"] == ("any", ("any", "wing"))
    assert options["trail_fourth"] == ("less", ("less", "wait"))
    assert options["flight_counters"] == ("unlimited", ("unlimited", "2", "4"))


def test_rain_falls_below_a_dense_square_or_below_the_lowest_dense_layer():
    """4.5.1, AMB-4: dense cloud in F10 and M8; under reading b only the squares below them rain, under
    reading a every square below altitude 8."""
    clouds = (((5, 10), "dense"), ((12, 8), "dense"))
    below, layer = Sky(clouds, rain=True), Sky(clouds, rain=True, rain_reading="layer")
    assert below.raining((5, 3)) and not below.raining((7, 3))
    assert layer.raining((7, 3)) and layer.raining((5, 3)) and not layer.raining((7, 9))
    assert not Sky(clouds).raining((5, 3)) and not Sky(clouds, rain=True, rain_reading="layer").raining((5, 9))


def test_rain_blocks_sight_as_broken_cloud_or_not():
    """4.5.1, AMB-5: a line through two rain squares is blocked only when rain counts as broken cloud; it
    worsens the weather either way."""
    clouds = (((5, 10), "dense"),)
    literal, clear = Sky(clouds, rain=True), Sky(clouds, rain=True, rain_sight="clear")
    assert literal.sight((5, 2), (5, 6)).blocked
    assert not clear.sight((5, 2), (5, 6)).blocked
    assert clear.sight((5, 2), (5, 6)).weather == literal.sight((5, 2), (5, 6)).weather > 0


def test_the_rain_options_reach_the_games_sky():
    plain = state(sq("A", "allies", "spitfire9", "sweep", "C15"))
    chosen = replace(plain, options=(("rain_reading", "layer"), ("rain_sight", "clear")))
    assert (plain.sky.rain_reading, plain.sky.rain_sight) == ("below", "broken")
    assert (chosen.sky.rain_reading, chosen.sky.rain_sight) == ("layer", "clear")


def test_a_wing_formation_chains_through_any_friend_or_only_the_wing():
    """9.5.2, AMB-22: L is two squares from its leader K, linked only through X, an Axis squadron of no wing."""
    k = sq("K", "axis", "fw190a4", "intercept", "O13", heading="W")
    x = sq("X", "axis", "fw190a4", "intercept", "P13", heading="W")
    lone = sq("L", "axis", "fw190a4", "intercept", "Q13", heading="W")
    any_friend = state(k, x, lone)
    wing = wings.wings(any_friend)[0]
    assert wings.wing_formation(any_friend, wing) == {"K", "L"}
    own_only = replace(any_friend, options=(("formation_chain", "wing"),))
    assert wings.wing_formation(own_only, wing) == {"K"}
    assert wings.leaving(own_only) == ["L"] and wings.leaving(any_friend) == []


def test_a_fourth_jet_in_trail_enters_with_less_or_waits():
    """8.4.1, GAP-21: three jets ahead of it in trail this turn: the fourth has 4 - 3 = 1 MP, or waits."""
    group = [sq(i, "axis", "me262", "intercept", "Z14", heading="W", status=ENTERING, trail="t", alert=True)
             for i in "NOPM"]
    for options, expected in (((), 3), ((("trail_fourth", "wait"),), 4)):
        air = Air(replace(state(*group), options=options), None)
        air.moved = ["N", "O", "P"]
        assert _trail_penalty(air, group[3]) == expected
        air.moved = ["N", "O"]
        assert _trail_penalty(air, group[3]) == 2


def test_the_counter_mix_limits_splits_only_by_option():
    """9.3, GAP-9: flights of the model in play hold their counters; a split needs two free ones."""
    a = sq("A", "allies", "f6f", "sweep", "J10", flight=True)
    b = sq("B", "allies", "f6f", "sweep", "K10")
    other = sq("C", "allies", "spitfire9", "sweep", "L10", flight=True)
    gone = sq("D", "allies", "f6f", "sweep", "L10", flight=True, status="destroyed")
    game = state(a, b, other, gone)
    assert split.counters_problem(game, b) is None
    assert "1 are in play" in split.counters_problem(replace(game, options=(("flight_counters", "2"),)), b)
    assert split.counters_problem(replace(game, options=(("flight_counters", "4"),)), b) is None


def test_the_wing_leader_marker_and_an_experte_are_one_marker_in_a_split():
    """9.3.1 with 5.2.1: the leader's squadron holding an Experte carries one flipped marker."""
    assert split.leader_choice(True, False, {"LEADER": 2}) == (1, 2)
    assert split.leader_choice(True, True, {"EXPERTE": 2}) == (2, 2)
    assert split.leader_choice(True, True, {}) == (1, 1)
    for leads, experte, chosen, rule in ((True, True, {"EXPERTE": 1, "LEADER": 2}, "(5.2.1)"),
                                         (False, False, {"LEADER": 2}, "(9.3.1)")):
        with pytest.raises(ValueError, match=re.escape(rule)):
            split.leader_choice(leads, experte, chosen)


def test_the_second_flight_named_leader_leads_the_wing():
    """9.3.1: K split with LEADER 2: K2 carries the marker; without the choice K1 does."""
    k1 = sq("K1", "axis", "fw190a4", "intercept", "O13", heading="W", flight=True)
    k2 = sq("K2", "axis", "fw190a4", "intercept", "P13", heading="W", flight=True)
    wing = wings.wings(state(k1, k2))[0]
    assert wings.leader_id(state(k1, k2), wing) == "K1"
    assert wings.leader_id(state(k1, k2.move(wing_leader=True)), wing) == "K2"
    assert wings.leader_id(state(k2), wing) is None    # the first flight, which had the marker, is gone


def test_views_carry_the_options_checked_at_ingest_only_when_chosen():
    plain = RULESET.setup("dogfight", RULESET.info.resolve_options({}), SeededDice(b"readings options view seed", "s"))
    assert "options" not in RULESET.view(plain, "allies")
    chosen = RULESET.setup("dogfight", RULESET.info.resolve_options({"flight_counters": "4", "split_count": "losses",
                                                                     "rain_sight": "clear"}),
                           SeededDice(b"readings options view seed", "s"))
    v = RULESET.view(chosen, "allies")
    assert v["options"] == {"flight_counters": "4", "split_count": "losses"}
    assert position(v).option("split_count") == "losses"


def test_an_experte_flipped_into_the_wing_leader_marker_fires_or_only_leads():
    """5.2.1, 10.6: K leads JG 1 and holds an Experte (one flipped marker): +1 firepower by default; under
    ``leader_experte = leads`` only an Experte outside the leader's squadron adds it."""
    k = sq("K", "axis", "fw190a4", "intercept", "O13", heading="W", experte=True)
    lone = sq("L", "axis", "fw190a4", "intercept", "P13", heading="W", experte=True)
    fires = state(k, lone)
    leads = replace(fires, options=(("leader_experte", "leads"),))
    assert wings.experte_fires(fires, k) and wings.experte_fires(leads, lone)
    assert not wings.experte_fires(leads, k)
    base = combat.firepower(k.move(experte=False))
    assert combat.firepower(k, wings.experte_fires(fires, k)) == base + 1
    assert combat.firepower(k, wings.experte_fires(leads, k)) == base
    assert dict((o.name, o.default) for o in RULESET.info.options)["leader_experte"] == "fires"


def test_the_form_offers_the_wing_leader_marker_and_shows_the_counter_mix():
    """9.3.1: the leader's squadron is told it may give the marker to the second flight; 9.3: a side short of
    flight counters (option flight_counters) is told before it writes a SPLIT."""
    plain = RULESET.setup("sweep", RULESET.info.resolve_options({}), SeededDice(b"readings options form seed", "s"))
    tally_window = replace(plain, flow=replace(plain.flow, step="defender_tally"))
    form = RULESET.order_form(RULESET.view(tally_window, "axis"), "axis")
    assert "SPLIT K LEADER 2 gives it to the second flight" in form and "SPLIT L LEADER" not in form
    assert "flight counters" not in form
    short = replace(tally_window, options=(("flight_counters", "2"),),
                    squadrons=tuple(s.move(flight=True) if s.id == "L" else s for s in tally_window.squadrons))
    form = RULESET.order_form(RULESET.view(short, "axis"), "axis")
    assert "K cannot split: its side has 2 flight counters of its aircraft and 1 are in play" in form


def test_each_kind_of_question_is_answered_from_one_table():
    """The usage and the answering line of every kind of question (10.2, 10.2.2, 10.8.1, 14.2.4, 13.4.2, and
    the plain choices) come from one table entry per kind."""
    from pbem.rules.wing_leader.parsing import answer_line, answer_usage
    asks = [({"key": "lead", "choices": ["A", "B"]}, "LEAD <A or B> (10.2)", "LEAD A"),
            ({"key": "hits", "choices": ["K", "L"]}, "HITS <K L in the order they take the hits> (10.2.2)", "HITS A"),
            ({"key": "tally-A1", "choices": ["K", "L"]}, "TALLY A1 <K or L> (10.8.1)", "TALLY A1 A"),
            ({"key": "flak-T1/1", "choices": ["AUTO", "HOLD", "K"]}, "FLAK T1/1 AUTO|HOLD|<K...> (14.2.4)",
             "FLAK T1/1 A"),
            ({"key": "evade-K", "choices": ["YES", "NO"]}, "YES or NO (13.4.2)", "A"),
            ({"key": "react-A", "choices": ["YES", "NO"]}, "YES or NO (10.4)", "A"),
            ({"key": "rating-1", "choices": ["SPEED", "TURN", "BEST"]}, "SPEED or TURN or BEST (10.5)", "A")]
    for ask, usage, line in asks:
        assert (answer_usage(ask), answer_line(ask, "A")) == (usage, line)
