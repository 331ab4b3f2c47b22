"""The core hex grid: conversions, directions, arcs (known answers from the digests, and properties)."""
from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from pbem.core import hexgrid as hg

coords = st.integers(-40, 40)
hexes = st.tuples(coords, coords)


def test_lew_morski_neighbours_are_the_core_directions_read_as_oblique_pairs():
    # Lew Morski digest 2.0: the neighbours of (a, b) and the facing table N, NE, SE, S, SW, NW.
    expected = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1)]
    assert [hg.to_oblique(d) for d in hg.DIRECTIONS] == expected
    assert list(hg.NAMES) == ["N", "NE", "SE", "S", "SW", "NW"]


def test_lew_morski_distance_formula_matches_the_digest():
    # digest 2.0: d = max(|da|, |db|, |da - db|) on A/B pairs
    for p, q in [((6, 19), (12, 9)), ((1, 1), (42, 48)), ((26, 13), (28, 14))]:
        da, db = q[0] - p[0], q[1] - p[1]
        assert hg.distance(hg.from_oblique(*p), hg.from_oblique(*q)) == max(abs(da), abs(db), abs(da - db))


def test_bismarck_rows_are_the_even_r_layout():
    # rules/bismarck/board.py: q = c - 1 - (r + (r & 1)) // 2 for row r, 1-based column c
    for r in range(0, 7):
        for c in range(1, 9):
            assert hg.from_offset(c - 1, r, "even-r") == (c - 1 - (r + (r & 1)) // 2, r)


def test_offset_neighbours_known_answers():
    # flat-topped odd-q: an odd column sits half a hex lower, so its NE neighbour is in the same row
    assert hg.to_offset(hg.step(hg.from_offset(1, 1, "odd-q"), 1), "odd-q") == (2, 1)
    assert hg.to_offset(hg.step(hg.from_offset(2, 1, "odd-q"), 1), "odd-q") == (3, 0)


def test_aa_front_rear_known_answers():
    # A&A Miniatures digest 4.5: dot(N, 3*SE) = -3 (behind); dot(N, (2, -1)) = 0 (exactly right)
    n, se = hg.DIRECTIONS[0], hg.DIRECTIONS[2]
    assert hg.dot(n, (3 * se[0], 3 * se[1])) == -3
    assert hg.dot(n, (2, -1)) == 0
    assert hg.arc((0, 0), 0, (3, 0)) is hg.Arc.REAR
    assert hg.arc((0, 0), 0, (2, -1)) is hg.Arc.SIDE
    assert hg.arc((0, 0), 0, (0, -4)) is hg.Arc.FRONT
    assert hg.arc((5, 5), 3, (5, 5)) is hg.Arc.SAME


def test_adjacent_hexes_are_never_abeam():
    # digest 4.5 note: only hexes at even distance along the spines are exactly left or right
    for f in range(6):
        assert [hg.arc((0, 0), f, n) for n in hg.neighbours((0, 0))].count(hg.Arc.FRONT) == 3
        assert hg.Arc.SIDE not in [hg.arc((0, 0), f, n) for n in hg.neighbours((0, 0))]


def test_exit_side_of_neighbours_and_spines():
    for i, n in enumerate(hg.neighbours((2, 3))):
        assert hg.exit_side((2, 3), n) == (i,)
    for i, c in enumerate(hg.CORNERS):
        assert hg.exit_side((0, 0), c) == (i, (i + 1) % 6)
    assert hg.exit_side((0, 0), (3, -2)) == (1,)  # two NE and one SE: leaves through the NE side
    assert hg.exit_side((0, 0), (3, -1)) == (2,)  # one NE and two SE: through the SE side
    assert hg.exit_side((1, 1), (1, 1)) == ()


def test_hexside_is_one_value_from_either_hex():
    assert hg.hexside((0, 0), (1, 0)) == hg.hexside((1, 0), (0, 0))
    assert len(set(hg.sides((4, -2)))) == 6


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert hg.distance(a, b) == hg.distance(b, a) >= 0
    assert (hg.distance(a, b) == 0) == (a == b)
    assert hg.distance(a, c) <= hg.distance(a, b) + hg.distance(b, c)


@given(hexes, st.sampled_from(hg.LAYOUTS))
def test_conversions_round_trip(h, layout):
    assert hg.from_offset(*hg.to_offset(h, layout), layout) == h
    assert hg.from_cube(hg.to_cube(h)) == h
    assert hg.from_oblique(*hg.to_oblique(h)) == h


@given(hexes, hexes)
def test_line_ends_at_both_hexes_and_steps_one_hex_at_a_time(a, b):
    path = hg.line(a, b)
    assert path[0] == a and path[-1] == b and len(path) == hg.distance(a, b) + 1
    assert all(hg.distance(p, q) == 1 for p, q in pairwise(path))


@given(hexes, st.integers(0, 5), st.integers(1, 12))
def test_direction_finds_the_row_a_hex_lies_on(h, d, n):
    assert hg.direction(h, hg.step(h, d, n)) == d
    assert hg.distance(h, hg.step(h, d, n)) == n


@given(hexes, hexes, st.integers(0, 5))
def test_arc_is_mirrored_by_an_about_turn(a, b, f):
    flip = {hg.Arc.FRONT: hg.Arc.REAR, hg.Arc.REAR: hg.Arc.FRONT}
    arc = hg.arc(a, f, b)
    assert hg.arc(a, f + 3, b) == flip.get(arc, arc)


@given(st.integers(0, 6), hexes)
def test_ring_and_within_sizes(radius, c):
    ring = list(hg.ring(c, radius))
    assert len(ring) == max(1, 6 * radius) and all(hg.distance(c, h) == radius for h in ring)
    assert len(set(hg.within(c, radius))) == 1 + 3 * radius * (radius + 1)
