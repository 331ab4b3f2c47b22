"""The board's geometry read through the core hex grid: the digest's table of named hexes and facings."""
from __future__ import annotations

import pytest

from pbem.core import hexgrid
from pbem.rules.lew_morski import board

#: Digest 2.0, "Coordinates of every hex named in the book": (A, B) -> row r = B - ceil(A/2).
NAMED = {(42, 27): 6, (46, 46): 23, (3, 4): 2, (4, 4): 2, (12, 9): 3, (11, 13): 7, (3, 13): 11, (6, 19): 16,
         (16, 24): 16, (4, 24): 22, (10, 31): 26, (18, 32): 23, (10, 8): 3, (3, 8): 6, (8, 17): 13, (1, 22): 21,
         (1, 21): 20, (40, 35): 15, (39, 44): 24, (39, 28): 8, (41, 46): 25, (41, 25): 4, (1, 9): 8, (1, 10): 9,
         (6, 30): 27, (7, 31): 27, (1, 1): 0, (1, 2): 1, (26, 13): 0, (27, 14): 0, (28, 14): 0, (42, 48): 27,
         (42, 47): 26, (41, 21): 0}


@pytest.mark.parametrize("h,r", sorted(NAMED.items()))
def test_rows_of_the_named_hexes(h, r):
    assert board.row(h) == r and board.from_row(h[0], r) == h
    assert board.on_board(h) == (h != (46, 46))  # only the 9.3 illustration lies off the board (G-2)


def test_placement_groups_are_neighbours():
    # digest 2.0: the groups that are obviously side by side are adjacent under the inferred rule
    for a, b in [((26, 13), (27, 14)), ((27, 14), (28, 14)), ((6, 30), (7, 31)), ((42, 48), (42, 47)),
                 ((1, 9), (1, 10))]:
        assert board.distance(a, b) == 1 and b in board.neighbours(a)
        assert board.step(a, board.direction(a, b)) == b


def test_facings_turn_clockwise_as_the_core_directions():
    # digest 2.0 table: right turn is the next row N -> NE -> SE -> S -> SW -> NW -> N
    for i, f in enumerate(board.FACINGS):
        assert board.turn(f, "R") == board.FACINGS[(i + 1) % 6]
        assert board.axial(board.step((20, 20), f)) == hexgrid.step(board.axial((20, 20)), i)


def test_direction_is_only_for_neighbours_and_discs_match_the_distance():
    assert board.direction((10, 10), (10, 8)) is None
    disc = board.zone((10, 10), 2)
    assert len(disc) == 19 and all(board.distance((10, 10), h) <= 2 for h in disc)
    assert board.within((1, 1), 1) == ((1, 1), (1, 2), (2, 1), (2, 2))
