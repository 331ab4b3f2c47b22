"""Escort reaction [10.4]: the trigger, eligibility, the (placeholder) table and the best result."""
from __future__ import annotations

from pbem.rules.wing_leader import reaction

from .helpers import sq, state

B24 = sq("T", "allies", "b24h", "bombing", "M14", bombs=True)


def test_a_fighter_entering_from_behind_triggers_and_from_the_front_does_not():
    """10.4, 10.3: a head-on approach (from the bomber's three front squares) denies reaction."""
    k = sq("K", "axis", "fw190a8", "intercept", "L15", alert=True, tally="T")
    assert reaction.triggered(k, B24, (11, 15)) and not reaction.triggered(k, B24, (13, 15))
    assert not reaction.triggered(k, B24, (10, 14))   # not adjacent: it did not come from next door


def test_eligible_escorts_are_available_near_not_far_below_and_in_sight():
    """10.4: within 3 squares, at most one altitude below the bomber, Available, line of sight."""
    near = sq("A", "allies", "p47d", "escort", "K13")
    low = sq("B", "allies", "p47d", "escort", "L12")
    far = sq("C", "allies", "p47d", "escort", "H14")
    broken = sq("D", "allies", "p47d", "escort", "M15", broken=True)
    s = state(B24, near, low, far, broken)
    assert [e.id for e in reaction.eligible(s, B24)] == ["A"]


def test_the_best_result_counts_for_every_reacting_escort():
    """10.4.5."""
    assert reaction.best(["none", "late"]) == "late" and reaction.best(["late", "success"]) == "success"
    assert reaction.best([]) == "none"
    assert [reaction.result(r) for r in (6, 7, 8, 9)] == ["none", "late", "late", "success"]
