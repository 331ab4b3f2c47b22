"""The scripted player's turn-script decisions, one per test, on hands of real cards from cards.toml."""
from __future__ import annotations

from collections import Counter

from pbem.rules.sky_ww2 import bot

FIGHTER = {"turret": False}
GUNSHIP = {"turret": True}


def test_nose_to_nose_it_turns_the_enemy_and_guards_the_manoeuvre_with_its_reactions():
    hand = Counter({"banked-turn": 1, "dodge": 1})
    beats, certain = bot.turn_plan("x1", "nose", "nose", hand, FIGHTER)
    assert beats == ["MANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW", "ON_CANCELLED dodge"]
    assert certain  # after the turn the enemy shows its side to our nose
    assert hand["banked-turn"] == 0 and hand["dodge"] == 1


def test_side_on_it_turns_itself_and_tries_the_other_way_if_that_fails():
    hand = Counter({"banked-turn": 1, "feint": 1})
    beats, certain = bot.turn_plan("x1", "side", "tail", hand, FIGHTER)
    assert beats == ["MANOEUVRE banked-turn TARGET x1 APPLY SELF ROTATE CW",
                     "IF PREV_FAILED THEN MANOEUVRE feint TARGET x1 APPLY SELF ROTATE CCW"]
    assert not certain and +hand == Counter()


def test_a_turret_aircraft_does_not_turn_itself():
    hand = Counter({"banked-turn": 1, "half-loop": 1})
    assert bot.turn_plan("x1", "side", "tail", hand, GUNSHIP) == ([], False)
    assert hand == Counter({"banked-turn": 1, "half-loop": 1})


def test_sure_of_its_position_it_fires_the_hardest_hits_the_points_allow():
    hand = Counter({"short-burst": 1, "aimed-fire": 1, "snap-shot": 1})  # costs 2, 2, 1; damage 3, 2, 1
    spent = {"guns": 0, "turret": 0}
    out = bot.attacks("x1", hand, 3, "guns", spent, strict=True)
    assert out == ["ATTACK short-burst TARGET x1", "ATTACK snap-shot TARGET x1"]
    assert spent == {"guns": 3, "turret": 0} and +hand == Counter({"aimed-fire": 1})


def test_unsure_of_its_position_it_may_spend_two_points_over():
    hand = Counter({"short-burst": 1})
    assert bot.attacks("x1", hand, 0, "guns", {"guns": 0}, strict=True) == []
    assert bot.attacks("x1", hand, 0, "guns", {"guns": 0}, strict=False) == ["ATTACK short-burst TARGET x1"]


def test_a_long_burst_discards_the_least_valued_manoeuvre_and_needs_one():
    spent = {"guns": 0}
    hand = Counter({"long-burst": 1, "dive": 1, "half-loop": 1})  # keep values 2 and 3
    assert bot.attacks("x1", hand, 3, "guns", spent, strict=True) == ["ATTACK long-burst TARGET x1 EXTRA dive"]
    assert +hand == Counter({"half-loop": 1})
    assert bot.attacks("x1", Counter({"long-burst": 1, "dodge": 1}), 3, "guns", spent, strict=True) == []


def test_step_mode_keeps_only_the_first_beat_and_leaves_the_script_open():
    lines = ["STAY", "MANOEUVRE half-loop TARGET x1", "ON_CANCELLED dodge", "ATTACK snap-shot TARGET x1", "END"]
    assert bot.one_beat(lines) == lines[:3]
    assert bot.one_beat(["STAY", "CP_USE", "END"]) == ["STAY", "CP_USE", "END"]  # no beat: the script ends
