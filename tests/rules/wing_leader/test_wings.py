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
