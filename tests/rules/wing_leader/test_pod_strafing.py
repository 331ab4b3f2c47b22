"""A pod's strafing bonus [13.5.6] read by the strafing attack [15.3.7]: a gun pod +1 firepower, an AT pod +2, or
+4 against a ship (or a tank, truck or train); only where the scenario uses 13.5.6 (jets does, torpedo does not)."""
from __future__ import annotations

from dataclasses import replace

from pbem.rules.wing_leader import bombing
from pbem.rules.wing_leader.bomb_runs import pod_bonus
from pbem.rules.wing_leader.sky import parse
from pbem.rules.wing_leader.surface import Surface

from .helpers import sq, state

SHIP = Surface("D1", "DD", parse("J0")[0], "axis", defence=1, damage=4)
YARD = replace(SHIP, id="Y1", type="RY")


def _strafer(pod: str):
    return sq("S", "allies", "bf109g6", "bombing", "J0", gun_pod=pod)


def test_the_pods_bonus_by_pod_and_target():
    s = state(scenario="jets", step="combat")
    assert pod_bonus(s, _strafer("gun"), "strafing", SHIP) == 1
    assert pod_bonus(s, _strafer("at"), "strafing", SHIP) == 4
    assert pod_bonus(s, _strafer("at"), "strafing", YARD) == 2
    assert pod_bonus(s, _strafer(""), "strafing", SHIP) == 0


def test_no_bonus_for_other_attacks_or_without_13_5_6():
    assert pod_bonus(state(scenario="jets", step="combat"), _strafer("at"), "rocket", SHIP) == 0
    assert pod_bonus(state(scenario="torpedo", step="combat"), _strafer("at"), "strafing", SHIP) == 0


def test_the_bonus_adds_to_the_strafing_strength():
    """15.3.7: strength 1 + firepower; with a gun pod's +1 a firepower-2 squadron strafes at 4."""
    plain, podded = bombing.Strike("strafing", firepower=2), bombing.Strike("strafing", firepower=3)
    assert bombing.strength(podded, SHIP) == bombing.strength(plain, SHIP) + 1
