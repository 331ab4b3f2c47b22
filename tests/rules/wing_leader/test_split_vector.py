"""9.3.1, 9.2.4: an Intercept that tallies and splits at once: the flight with the tally pursues, the other flies
on toward the vector, which it holds as its own from then on (GAP-9: on the same square), so ground control
moves it alone in the Administrative Phase."""
from __future__ import annotations

from dataclasses import replace

from pbem.rules.wing_leader import RULESET, split
from pbem.rules.wing_leader.parsing import parse_vector

from .helpers import refused, sq, state


def test_the_second_flight_of_a_split_intercept_keeps_its_own_vector():
    k = sq("K", "axis", "fw190a4", "intercept", "O13", heading="W", vector=(5, 10), tally="A", alert=True)
    a = sq("A", "allies", "spitfire9", "sweep", "H13", heading="E", alert=True)
    first, second = split.split(k, split.Choice(tally=1))
    assert (first.tally, second.tally) == ("A", "") and first.vector == second.vector == (5, 10)
    seen = RULESET.view(replace(state(first, second, a)), "axis")
    assert parse_vector(["K2", "H12"], seen, "axis").text() == "VECTOR K2 H12"   # its own vector moves alone
    with refused("9.2.4"):   # the tallying flight gets none
        parse_vector(["K1", "H12"], seen, "axis")
