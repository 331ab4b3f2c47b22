"""Tally [7.2]: eligibility, targets, the roll and its modifiers, keeping a tally."""
from __future__ import annotations

from pbem.rules.wing_leader import tally
from pbem.rules.wing_leader.sky import Sky

from .helpers import sq, state


def test_the_worked_tally_example_needs_a_six():
    """7.2.2 example: a Hellcat tallies a Zero two squares behind it through haze: behind -2, haze -1,
    so only a 6 succeeds (6 - 3 = 3 > 2)."""
    sky = Sky(haze=5)
    hellcat = sq("A", "allies", "f6f", "sweep", "J3", heading="E", alert=True)
    zero = sq("K", "axis", "a6m", "sweep", "H3", heading="E")
    mods = tally.modifiers(sky, hellcat, zero)
    assert sorted(m.value for m in mods) == [-2, -1]
    assert [tally.succeeds(r, mods, 2) for r in range(1, 7)] == [False] * 5 + [True]
    assert tally.needed(sky, hellcat, zero) == 6


def test_without_modifiers_the_roll_must_beat_the_distance():
    """7.2.1: at distance 2 rolls 3-6 succeed; at distance 0 any roll does."""
    assert [tally.succeeds(r, [], 2) for r in range(1, 7)] == [False, False, True, True, True, True]
    assert all(tally.succeeds(r, [], 0) for r in range(1, 7))


def test_rear_view_cancels_the_behind_penalty():
    """3.3 Rear View: no -2 for a target behind."""
    p47 = sq("P", "allies", "p47d", "sweep", "J10", heading="E", alert=True)
    zero = sq("K", "axis", "a6m", "sweep", "H10")
    assert tally.modifiers(Sky(), p47, zero) == []


def test_a_tally_reaches_nine_squares_and_needs_a_clear_line_of_sight():
    """7.2: distance below 10, in sight."""
    a = sq("A", "allies", "spitfire9", "sweep", "A10", alert=True)
    near, far = sq("K", "axis", "fw190a4", "sweep", "J10"), sq("L", "axis", "fw190a4", "sweep", "K10")
    s = state(a, near, far)
    assert tally.target_problem(s, a, near) is None
    assert "reaches 9" in tally.target_problem(s, a, far)


def test_in_a_square_with_an_unbroken_enemy_only_that_square_may_be_tallied():
    """7.2: the restriction to enemies in the squadron's own square."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10", alert=True)
    here, there = sq("K", "axis", "fw190a4", "sweep", "E10"), sq("L", "axis", "fw190a4", "sweep", "F10")
    s = state(a, here, there)
    assert tally.target_problem(s, a, here) is None and "only enemies in that square" in tally.target_problem(s, a, there)
    s2 = state(a, here.move(broken=True), there)
    assert tally.target_problem(s2, a, there) is None


def test_bombers_broken_and_tallying_squadrons_do_not_roll():
    """7.2, 3.2.1, 10.7.1: only fighters by mission; a broken one may not; one tally at a time."""
    assert tally.may_tally(sq("T", "allies", "b24h", "bombing", "E10")) is not None
    assert tally.may_tally(sq("A", "allies", "spitfire9", "sweep", "E10", broken=True)) is not None
    assert tally.may_tally(sq("A", "allies", "spitfire9", "sweep", "E10", tally="K")) is not None
    assert tally.may_tally(sq("B", "allies", "b24h", "escort", "E10")) is None


def test_a_tally_is_lost_beyond_nine_squares_out_of_sight_or_when_the_target_left():
    """7.2.2: the conditions for keeping a tally, checked as the Tally Phase opens (AMB-13)."""
    a = sq("A", "allies", "spitfire9", "sweep", "A10", alert=True, tally="K")
    assert tally.kept(state(a, sq("K", "axis", "fw190a4", "sweep", "J10")), a) is None
    assert "more than 9" in tally.kept(state(a, sq("K", "axis", "fw190a4", "sweep", "K10")), a)
    assert "left the map" in tally.kept(state(a, sq("K", "axis", "fw190a4", "sweep", "J10", status="exited")), a)
