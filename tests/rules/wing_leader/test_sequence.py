"""The order of movement [6.1]: categories, initiative and tally chains."""
from __future__ import annotations

from itertools import count

from pbem.rules.wing_leader.sequence import movement_order

from .helpers import sq


def _no_dice(s):
    raise AssertionError(f"no initiative roll expected for {s.id}")


def test_escorts_and_bombers_first_raider_before_defender_then_unalert_then_alert():
    """6.1, 6.1.4: bombers and escorts (Raider's first), Unalert fighters, Alert fighters."""
    units = [sq("A", "allies", "spitfire9", "sweep", "E3", alert=True),
             sq("U", "axis", "ju88a4", "bombing", "E9", bombs=True),
             sq("T", "allies", "b24h", "bombing", "E14", bombs=True),
             sq("B", "allies", "spitfire9", "sweep", "E15")]
    assert movement_order(units, "allies", _no_dice) == ["T", "U", "B", "A"]


def test_initiative_lower_altitude_then_lower_speed_then_the_lower_die():
    """6.1.1: lower altitude first; same altitude, lower Basic Speed; fighters still tied roll, lower first."""
    units = [sq("A", "allies", "spitfire9", "sweep", "E10", alert=True),   # speed 6 in the medium band
             sq("K", "axis", "a6m", "sweep", "F10", alert=True),           # speed 4
             sq("L", "axis", "a6m", "sweep", "G10", alert=True),           # speed 4, ties with K
             sq("M", "axis", "a6m", "sweep", "G2", alert=True)]
    rolls = {"K": 5, "L": 2}
    assert movement_order(units, "allies", lambda s: rolls[s.id]) == ["M", "L", "K", "A"]


def test_equal_initiative_rolls_are_rolled_again_among_the_tied():
    """6.1.1: squadrons rolling the same re-roll among themselves."""
    units = [sq("K", "axis", "a6m", "sweep", "F10", alert=True), sq("L", "axis", "a6m", "sweep", "G10", alert=True)]
    rolls = iter([3, 3, 4, 1])
    assert movement_order(units, "allies", lambda s: next(rolls)) == ["L", "K"]


def test_tallying_squadrons_follow_their_target_breadth_first():
    """6.1.2 (AMB-35): B and C tally A, D tallies B: A, B, C, D, whatever initiative says."""
    n = count(1)
    units = [sq("D", "axis", "a6m", "sweep", "E1", alert=True, tally="B"),
             sq("C", "axis", "a6m", "sweep", "E2", alert=True, tally="A"),
             sq("B", "axis", "a6m", "sweep", "E3", alert=True, tally="A"),
             sq("A", "allies", "spitfire9", "sweep", "E15", alert=True)]
    assert movement_order(units, "allies", lambda s: next(n)) == ["A", "C", "B", "D"]


def test_mutual_tallies_move_in_initiative_order():
    """6.1.2: two squadrons tallying each other move in initiative order; the loop starts at the first."""
    units = [sq("A", "allies", "spitfire9", "sweep", "E15", alert=True, tally="K"),
             sq("K", "axis", "a6m", "sweep", "E5", alert=True, tally="A")]
    assert movement_order(units, "allies", _no_dice) == ["K", "A"]
