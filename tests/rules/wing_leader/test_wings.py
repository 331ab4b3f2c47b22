"""Formations and wings [9.1, 9.5]."""
from __future__ import annotations

from pbem.rules.wing_leader import wings
from pbem.rules.wing_leader.moves import keeping_formation

from .helpers import sq, state


def test_a_formation_is_a_chain_of_same_heading_neighbours():
    """9.1 (derived check): C5, D6 and E6 with one heading are one formation although C5 and E6 are not
    adjacent; turning D6 breaks it."""
    c, d, e = (sq(i, "allies", "spitfire9", "sweep", at) for i, at in (("C", "C5"), ("D", "D6"), ("E", "E6")))
    assert wings.formation_of(state(c, d, e), c) == {"C", "D", "E"}
    turned = d.move(heading=6)
    assert wings.formation_of(state(c, turned, e), c) == {"C"}


def test_the_wing_formation_and_who_keeps_formation_on_the_leader():
    """9.5.2, 9.5.3: in the sweep scenario K leads L; L (no vector, no tally) follows K; out of formation it
    leaves the wing."""
    k = sq("K", "axis", "fw190a4", "intercept", "W8", heading="W", alert=True, vector=(14, 13))
    l_ = sq("L", "axis", "fw190a4", "intercept", "X7", heading="W", alert=True)
    s = state(k, l_)
    wing = wings.wings(s)[0]
    assert wings.wing_formation(s, wing) == {"K", "L"} and keeping_formation(s) == {"L": "K"}
    apart = state(k, l_.move(at=(20, 7)))
    assert wings.leaving(apart) == ["L"] and keeping_formation(apart) == {}


def test_a_balbo_is_a_wing_formation_of_more_than_two_squadrons_and_pays_for_turns():
    """9.5.6: two squadrons and a flight (2.5) make a Balbo, two squadrons do not; in a Balbo a 90-degree
    turn costs 1 MP (AMB-23: an about-turn costs 1, not 2)."""
    from pbem.rules.wing_leader import movement
    k = sq("K", "axis", "fw190a4", "intercept", "W8", heading="W", alert=True)
    l_ = sq("L", "axis", "fw190a4", "intercept", "X7", heading="W", alert=True)
    assert not wings.in_balbo(state(k, l_), k)
    assert movement.walk(k, ["W9"], 3).spent == 1
    assert movement.walk(k, ["W9"], 3, balbo=True).spent == 2
    assert movement.walk(k, ["X8"], 3, balbo=True).spent == 2


def test_two_squadrons_and_a_flight_in_wing_formation_fly_a_balbo(monkeypatch):
    """9.5.6: 1 + 1 + 0.5 > 2."""
    k = sq("K", "axis", "fw190a4", "intercept", "W8", heading="W", alert=True)
    l_ = sq("L", "axis", "fw190a4", "intercept", "X7", heading="W", alert=True)
    m = sq("M", "axis", "fw190a4", "intercept", "X8", heading="W", alert=True, flight=True)
    monkeypatch.setattr(wings, "wings", lambda s: [{"name": "big", "members": ["K", "L", "M"], "leader": "K"}])
    assert wings.in_balbo(state(k, l_, m), l_)
    assert not wings.in_balbo(state(k, l_, m.move(at=(20, 3))), l_)
