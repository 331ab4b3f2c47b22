"""The square grid with eight headings: steps, turns, distances, aspect and lines of cells."""
from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from pbem.core import squaregrid as sg
from pbem.core.squaregrid import Aspect, Heading

coords = st.integers(-30, 30)
cells = st.tuples(coords, coords)
headings = st.sampled_from(list(Heading))


def test_headings_step_clockwise_from_north():
    assert [sg.step((0, 0), h) for h in Heading] == [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1),
                                                     (-1, 0), (-1, -1)]
    assert sg.turn(Heading.NW, 1) is Heading.N and sg.turn(Heading.N, -2) is Heading.W
    assert sg.turn_between(Heading.E, Heading.N) == -2 and sg.turn_between(Heading.E, Heading.W) == 4


def test_wing_leader_distance_and_adjacency():
    # Wing Leader digest 1.1: adjacent is any of the 8 squares around; distance is Chebyshev
    assert sg.chebyshev((1, 5), (4, 3)) == 3 and sg.chebyshev((2, 2), (2, 2)) == 0
    assert len(sg.neighbours((5, 5))) == 8 and all(sg.adjacent((5, 5), c) for c in sg.neighbours((5, 5)))
    assert not sg.adjacent((0, 0), (1, 1), diagonals=False) and sg.manhattan((0, 0), (1, 1)) == 2


def test_wing_leader_front_squares():
    # digest 2.2: the three front squares are along the heading and 45 degrees either side
    assert set(sg.front_cells((5, 5), Heading.E)) == {(6, 4), (6, 5), (6, 6)}
    assert all(sg.aspect(Heading.E, (5, 5), c) is Aspect.FRONT for c in sg.front_cells((5, 5), Heading.E))


def test_sky_ww2_positions():
    # Sky WW2 digest 9.3 TEST-POS-1: A at (2,2) facing E, B at (3,2); B's facing decides the position
    a, b = (2, 2), (3, 2)
    assert sg.aspect(Heading.E, a, b) is Aspect.FRONT  # A is nose-on to B
    assert sg.aspect(Heading.W, b, a) is Aspect.FRONT  # B faces W: front
    assert sg.aspect(Heading.N, b, a) is Aspect.FLANK and sg.aspect(Heading.S, b, a) is Aspect.FLANK
    assert sg.aspect(Heading.E, b, a) is Aspect.REAR


def test_sector_names_lines_and_gaps():
    assert [sg.sector(Heading.N, (0, 0), c) for c in [(0, -1), (1, -2), (1, -1), (1, 0), (0, 1), (-1, 0)]] == [
        0, 1, 2, 4, 8, 12]
    assert sg.sector(Heading.E, (0, 0), (0, 0)) is None


def test_cloud_corner_rule():
    # Wing Leader digest 4.6.1: a line passing only through a corner of a square is not affected by it
    assert sg.line((0, 0), (2, 2)) == ((0, 0), (1, 1), (2, 2))
    assert set(sg.corners((0, 0), (2, 2))) == {(1, 0), (0, 1), (2, 1), (1, 2)}
    assert sg.line((0, 0), (3, 1)) == ((0, 0), (1, 0), (2, 1), (3, 1))
    assert sg.corners((0, 0), (3, 1)) == ((2, 0), (1, 1))
    assert sg.line((4, 4), (4, 4)) == ((4, 4),) and sg.corners((4, 4), (4, 4)) == ()


@given(cells, cells, cells)
def test_distances_are_metrics(a, b, c):
    for d in (sg.chebyshev, sg.manhattan):
        assert d(a, b) == d(b, a) and (d(a, b) == 0) == (a == b)
        assert d(a, c) <= d(a, b) + d(b, c)


@given(cells, cells)
def test_lines_join_the_ends_and_are_symmetric(a, b):
    path = sg.line(a, b)
    assert path[0] == a and path[-1] == b
    assert all(sg.adjacent(p, q) for p, q in pairwise(path))
    assert path == tuple(reversed(sg.line(b, a)))
    assert set(sg.corners(a, b)) == set(sg.corners(b, a)) and not set(sg.corners(a, b)) & set(path)


@given(headings, cells, cells)
def test_aspect_flips_with_an_about_turn_and_sector_turns_with_the_heading(h, a, b):
    flip = {Aspect.FRONT: Aspect.REAR, Aspect.REAR: Aspect.FRONT}
    asp = sg.aspect(h, a, b)
    assert sg.aspect(sg.turn(h, 4), a, b) is flip.get(asp, asp)
    if a != b:
        assert sg.sector(sg.turn(h, 1), a, b) == (sg.sector(h, a, b) - 2) % 16


@given(cells, headings, st.integers(1, 10))
def test_heading_to_finds_the_line(c, h, n):
    assert sg.heading_to(c, sg.step(c, h, n)) is h
    assert sg.chebyshev(c, sg.step(c, h, n)) == n


@given(cells, st.integers(-9, 9))
def test_rotate_by_quarters_keeps_length_and_undoes(v, q):
    w = sg.rotate(v, 2 * q)
    assert sg.manhattan((0, 0), w) == sg.manhattan((0, 0), v) and sg.rotate(w, -2 * q) == v


def test_nearest_heading_splits_at_22_and_a_half_degrees():
    # Wing Leader digest 4.2 placeholder: level sectors reach 22.5 degrees from the horizontal
    assert sg.nearest_heading((0, 0), (5, -2)) is Heading.E  # 21.8 degrees above level
    assert sg.nearest_heading((0, 0), (2, -1)) is Heading.NE  # 26.6 degrees
    assert sg.nearest_heading((0, 0), (-1, -2)) is Heading.NW  # 63.4 degrees: high-left, not high
    assert sg.nearest_heading((0, 0), (-2, -5)) is Heading.N  # 68.2 degrees
    assert sg.nearest_heading((3, 3), (3, 3)) is None


@given(cells, cells)
def test_nearest_heading_is_reversed_from_the_other_end_and_within_a_step_of_the_sector(a, b):
    h = sg.nearest_heading(a, b)
    if a == b:
        assert h is None
        return
    assert sg.nearest_heading(b, a) is sg.turn(h, 4)
    assert sg.sector(h, a, b) in (15, 0, 1)


@given(cells, headings, st.integers(1, 10))
def test_nearest_heading_of_a_cell_on_a_heading_line_is_that_heading(c, h, n):
    assert sg.nearest_heading(c, sg.step(c, h, n)) is h
