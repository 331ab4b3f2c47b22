"""Exact hex line of sight: crossed, grazed and touched hexes, hexsides, nudged lines.

Every hex reported is met (each is clipped exactly), so the property checks guard the other way:
a hex the search missed would break one of the nudged lines into non-adjacent steps.
"""
from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from pbem.core import hexgrid as hg
from pbem.core.sight import Contact, sight

coords = st.integers(-9, 9)
hexes = st.tuples(coords, coords)


def test_a_straight_row_crosses_every_hex_and_side():
    s = sight((0, 0), (0, -3))
    assert s.hexes() == s.hexes(Contact.CROSSED) == ((0, 0), (0, -1), (0, -2), (0, -3))
    assert s.crossed_sides == (hg.hexside((0, 0), (0, -1)), hg.hexside((0, -1), (0, -2)),
                               hg.hexside((0, -2), (0, -3)))
    assert s.along_sides == ()


def test_a_spine_runs_along_the_edge_between_two_grazed_hexes():
    # A&A digest 4.8 notes: centre-to-centre lines run along hexsides only in the six spine directions.
    s = sight((0, 0), (1, 1))  # SE + S
    assert s.hexes(Contact.CROSSED) == ((0, 0), (1, 1))
    assert set(s.hexes(Contact.GRAZED)) == {(1, 0), (0, 1)}
    assert s.along_sides == (hg.hexside((1, 0), (0, 1)),)
    assert s.crossed_sides == ()
    # travelling south-south-east, the SE hex is on the left and the S hex on the right
    assert s.nudged(-1) == ((0, 0), (1, 0), (1, 1))
    assert s.nudged(1) == ((0, 0), (0, 1), (1, 1))


def test_a_line_through_a_vertex_touches_the_third_hex():
    s = sight((0, 0), (-4, -1))
    assert s.hexes(Contact.TOUCHED) == ((-1, -1), (-3, 0))
    assert [p.side for p in s.passages if p.contact is Contact.TOUCHED] == [1, -1]
    # at a vertex no hexside is crossed: the line passes from (-1, 0) to (-2, 0) over their side's end only
    assert hg.hexside((-1, 0), (-2, 0)) not in s.crossed_sides
    # ... but each nudged line crosses a side there: one straight across, one round the touched hex
    assert hg.hexside((-1, 0), (-2, 0)) in s.nudged_sides(-1)
    assert hg.hexside((-1, -1), (-1, 0)) in s.nudged_sides(1)


def test_aa_border_rules_follow_from_the_two_nudged_lines():
    # A&A digest 4.8: along a border with one blocking hex, clear; between two blocking hexes, blocked.
    s = sight((0, 0), (1, 1))

    def blocked(blocking):
        return all(any(h in blocking for h in s.nudged(side)[1:-1]) for side in (1, -1))

    assert not blocked({(1, 0)})
    assert blocked({(1, 0), (0, 1)})


def test_same_hex():
    s = sight((3, 3), (3, 3))
    assert s.hexes() == ((3, 3),) and s.crossed_sides == () and s.contact((3, 3)) is Contact.CROSSED


@given(hexes, hexes)
def test_sight_is_symmetric(a, b):
    there, back = sight(a, b), sight(b, a)
    assert {(p.hex, p.contact, p.side) for p in there.passages} == {
        (p.hex, p.contact, -p.side) for p in back.passages}
    assert set(there.crossed_sides) == set(back.crossed_sides)
    assert set(there.along_sides) == set(back.along_sides)


@given(hexes, hexes)
def test_endpoints_are_crossed_and_nudged_lines_are_chains_of_neighbours(a, b):
    s = sight(a, b)
    assert s.hexes()[0] == a and s.hexes()[-1] == b
    assert s.contact(a) is s.contact(b) is Contact.CROSSED
    for side in (1, -1):
        path = s.nudged(side)
        assert all(hg.distance(p, q) == 1 for p, q in pairwise(path))
        assert len(s.nudged_sides(side)) == len(path) - 1


@given(hexes, hexes)
def test_grazing_happens_only_along_spines(a, b):
    v = (b[0] - a[0], b[1] - a[1])
    on_spine = any(hg.cross(c, v) == 0 and hg.dot(c, v) > 0 for c in hg.CORNERS)
    assert bool(sight(a, b).hexes(Contact.GRAZED)) == on_spine


@given(hexes, hexes)
def test_the_old_line_stays_inside_what_sight_meets(a, b):
    assert set(hg.line(a, b)) <= set(sight(a, b).hexes())
