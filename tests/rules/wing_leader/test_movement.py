"""Movement [8]: allowances, costs, turning, climbing, diving, slow climb; mission moves [9.2]."""
from __future__ import annotations

import pytest

from pbem.rules.wing_leader import movement
from pbem.rules.wing_leader.model import CLIMB, DIVE, SLOW_CLIMB
from pbem.rules.wing_leader.sky import name

from .helpers import refused, sq


def _path(w: movement.Walk) -> list[str]:
    return [name(s) for s in w.path]


def test_allowances_by_mission_alert_and_jet():
    """8.2: bomber 2, escort 2, Unalert 2, Alert 3, jet fighter 4, jet bomber 3, +1 with a declared dive."""
    assert movement.allowance(sq("T", "allies", "b24h", "bombing", "E10")) == 2
    assert movement.allowance(sq("A", "allies", "spitfire9", "escort", "E10")) == 2
    assert movement.allowance(sq("A", "allies", "spitfire9", "sweep", "E10")) == 2
    assert movement.allowance(sq("A", "allies", "spitfire9", "sweep", "E10", alert=True)) == 3
    assert movement.allowance(sq("A", "allies", "spitfire9", "sweep", "E10", alert=True), dive=True) == 4
    assert movement.allowance(sq("J", "axis", "me262", "sweep", "E10")) == 4
    assert movement.allowance(sq("J", "axis", "me262", "bombing", "E10")) == 3


def test_a_vertical_dive_costs_half_a_point():
    """8.3: an Alert fighter declaring a dive has 4 MP: eight vertical dives."""
    a = sq("A", "allies", "spitfire9", "sweep", "E12", heading="S", alert=True)
    w = movement.walk(a, [f"E{n}" for n in range(11, 3, -1)], movement.allowance(a, dive=True))
    assert w.at == (4, 4) and w.spent == 4
    assert movement.finish(a, w, dive_declared=True).marker == DIVE


def test_the_first_climb_costs_the_card_climb_value_and_each_further_climb_two():
    """8.3: Climb 1 in the band where it starts: 1 then 2, so 3 MP climb exactly twice."""
    a = sq("A", "allies", "spitfire9", "sweep", "E5", heading="N", alert=True)
    w = movement.walk(a, ["E6", "E7"], 3)
    assert w.spent == 3 and movement.finish(a, w).marker == CLIMB
    with refused("8.3"):
        movement.walk(a, ["E6", "E7", "E8"], 3)


def test_a_climb_costing_more_than_the_allowance_is_impossible():
    """8.3: the P-47D climbs at 2 in the low band: with 2 MP it climbs at once, but not after a level step."""
    p = sq("P", "allies", "p47d", "sweep", "E5")
    assert movement.walk(p, ["F6"], 2).spent == 2
    with refused("8.3"):
        movement.walk(p, ["F5", "G6"], 2)


def test_an_about_turn_costs_one_point_and_smaller_turns_are_free():
    """8.1.1: 180 degrees costs 1 MP, 45/90/135 nothing."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10", alert=True)
    assert movement.walk(a, ["D10"], 3).spent == 2
    assert movement.walk(a, ["E11", "D11"], 3).spent == 2
    assert movement.walk(a, ["W"], 3).spent == 1


def test_no_climb_and_dive_in_one_move_and_a_declared_dive_must_dive():
    """8.5: never both in one Movement Phase; 8.2: a declared dive must lose at least one altitude."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10", alert=True)
    with refused("8.5"):
        movement.walk(a, ["F9", "G10"], 4)
    w = movement.walk(a, ["F10"], 4)
    with refused("8.2"):
        movement.finish(a, w, dive_declared=True)


def test_a_squadron_moves_only_into_adjacent_squares_and_stays_on_the_map_vertically():
    """8.1, 8.4: one adjacent square at a time; altitudes 0-19 only."""
    a = sq("A", "allies", "spitfire9", "sweep", "E0", heading="S", alert=True)
    with refused("8.1"):
        movement.walk(a, ["G0"], 3)
    with pytest.raises(ValueError):
        movement.sky.parse("E-1")


def test_slow_climb_takes_two_moves():
    """8.5.1: turn 1 spends all MP (one level square allowed) and marks Slow Climb; turn 2 spends all MP
    and enters the square above; without the marker an S aircraft cannot climb."""
    b = sq("T", "allies", "b24h", "bombing", "E10", bombs=True)
    with refused("8.5.1"):
        movement.walk(b, ["F11"], 2)
    w1 = movement.walk(b, ["SLOW", "F10"], 2)
    first = movement.finish(b, w1)
    assert first.marker == SLOW_CLIMB and w1.spent == 2 and name(first.at) == "F10"
    w2 = movement.walk(first, ["G11"], 2)
    assert movement.finish(first, w2).marker == CLIMB and w2.spent == 2


def test_leaving_the_map_through_a_side_edge():
    """8.4.1: a squadron leaves through the left or right edge into the imaginary square and is out."""
    a = sq("A", "allies", "spitfire9", "sweep", "Z10")
    w = movement.walk(a, movement.straight(a, 2), 2)
    assert w.exited == "E" and movement.finish(a, w).status == "exited"


def test_entering_the_tallied_target_square_ends_the_move():
    """7.2.3: a tallying squadron that enters its target's square stops there."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10", alert=True, tally="K")
    w = movement.walk(a, ["F10", "G10", "H10"], 3, stop_at=(6, 10))
    assert _path(w) == ["F10", "G10"]


def test_mission_moves_straight_shortest_path_and_return_to_base():
    """9.2.1-9.2.3 fly two squares straight; 9.2.5 every step nearer the goal, climbing toward it;
    9.2.6 toward the own edge with all MP, turning about first."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10")
    assert movement.straight(a, 2) == ["F10", "G10"]
    k = sq("K", "axis", "fw190a4", "intercept", "W8", heading="W", alert=True)
    assert movement.approach(k, (14, 13), 3) == ["V9", "U10"]
    assert movement.toward_edge(a.move(alert=True), "W", 3) == ["D10", "C10"]


def test_head_on_a_squadron_may_fly_through_its_target_square_if_it_leaves_at_once():
    """7.2.3 exception: entering from one of the target's three front squares it need not stop, but its
    next MP must take it out; from elsewhere it stops there."""
    target_at, target_front = (6, 10), [(7, 9), (7, 10), (7, 11)]   # target in G10 heading E
    a = sq("A", "allies", "spitfire9", "sweep", "I10", heading="W", alert=True, tally="K")
    w = movement.walk(a, ["H10", "G10", "F10"], 3, stop_at=target_at, head_on_from=target_front)
    assert _path(w) == ["H10", "G10", "F10"]
    with refused("7.2.3"):
        movement.walk(a, ["H10", "G10", "E"], 3, stop_at=target_at, head_on_from=target_front)
    behind = sq("A", "allies", "spitfire9", "sweep", "D10", heading="E", alert=True, tally="K")
    assert _path(movement.walk(behind, ["E10", "F10", "G10"], 3, stop_at=target_at,
                               head_on_from=target_front)) == ["E10", "F10", "G10"]
    assert _path(movement.walk(behind, ["E10", "F10", "G10", "H10"], 4, stop_at=target_at,
                               head_on_from=target_front)) == ["E10", "F10", "G10"]
