"""A square grid with eight headings, for side-view and card-board games (Wing Leader, Sky WW2).

A cell is ``(x, y)`` with x growing east (right) and y growing south (down the page), as a
printed grid is read.  A side view whose rows count altitude upwards (Wing Leader) passes
``(column, -altitude)``: then N is a vertical climb, E level flight to the right.

Headings are :class:`Heading` values 0..7 clockwise from N in steps of 45 degrees.  Bearings are
compared exactly in integers: :func:`sector` says on which of the eight heading lines a cell lies,
or between which two, so arcs (:func:`aspect`, :func:`front_cells`) need no angles.
"""
from __future__ import annotations

from enum import Enum, IntEnum

Cell = tuple[int, int]


class Heading(IntEnum):
    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def vector(self) -> Cell:
        return VECTORS[self]

    @property
    def diagonal(self) -> bool:
        return self % 2 == 1


#: One step of each heading, in heading order.
VECTORS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
#: The four orthogonal headings (a card that turns by quarters).
ORTHOGONAL: tuple[Heading, ...] = (Heading.N, Heading.E, Heading.S, Heading.W)


def step(c: Cell, heading: int, n: int = 1) -> Cell:
    """The cell ``n`` steps from ``c`` along ``heading`` (taken modulo 8)."""
    dx, dy = VECTORS[heading % 8]
    return (c[0] + n * dx, c[1] + n * dy)


def neighbours(c: Cell, *, diagonals: bool = True) -> tuple[Cell, ...]:
    """The eight adjacent cells in heading order, or the four orthogonal ones."""
    return tuple(step(c, h) for h in (Heading if diagonals else ORTHOGONAL))


def turn(heading: int, eighths: int) -> Heading:
    """The heading after turning ``eighths`` steps of 45 degrees, clockwise if positive."""
    return Heading((heading + eighths) % 8)


def turn_between(h0: int, h1: int) -> int:
    """The shortest turn from ``h0`` to ``h1`` in 45-degree steps: -3..4, positive clockwise
    (an about-turn counts as +4)."""
    d = (h1 - h0) % 8
    return d - 8 if d > 4 else d


def rotate(v: Cell, eighths: int) -> Cell:
    """A grid vector turned clockwise by ``eighths`` steps; only multiples of 2 keep it on the grid
    for every vector, so odd steps are refused."""
    if eighths % 2:
        raise ValueError(f"rotate: {eighths} eighths does not map the grid onto itself")
    x, y = v
    for _ in range((eighths // 2) % 4):
        x, y = -y, x
    return (x, y)


def chebyshev(a: Cell, b: Cell) -> int:
    """Steps between cells when diagonal steps are allowed (Wing Leader's distance)."""
    return max(abs(b[0] - a[0]), abs(b[1] - a[1]))


def manhattan(a: Cell, b: Cell) -> int:
    """Steps between cells moving orthogonally only."""
    return abs(b[0] - a[0]) + abs(b[1] - a[1])


def adjacent(a: Cell, b: Cell, *, diagonals: bool = True) -> bool:
    return a != b and (chebyshev(a, b) == 1 if diagonals else manhattan(a, b) == 1)


def heading_to(a: Cell, b: Cell) -> Heading | None:
    """The heading whose straight line from ``a`` passes through ``b``; None if none does or equal."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = chebyshev(a, b)
    if n == 0:
        return None
    for h, (sx, sy) in enumerate(VECTORS):
        if (sx * n, sy * n) == (dx, dy):
            return Heading(h)
    return None


def sector(heading: int, at: Cell, other: Cell) -> int | None:
    """Where ``other`` lies seen from ``at`` heading ``heading``, in sixteenths of a turn clockwise:
    even ``2k`` exactly on the line ``k`` eighths round from dead ahead, odd ``2k + 1`` strictly
    between lines ``k`` and ``k + 1``.  0 is dead ahead, 8 dead astern; None for the same cell."""
    v = (other[0] - at[0], other[1] - at[1])
    if v == (0, 0):
        return None
    for k in range(8):
        line = VECTORS[(heading + k) % 8]
        if _cross(line, v) == 0 and _dot(line, v) > 0:
            return 2 * k
        nxt = VECTORS[(heading + k + 1) % 8]
        if _cross(line, v) > 0 and _cross(v, nxt) > 0:
            return 2 * k + 1
    raise AssertionError("unreachable: eight lines and eight gaps cover every bearing")


def nearest_heading(a: Cell, b: Cell) -> Heading | None:
    """The heading nearest the bearing from ``a`` to ``b``: each heading owns the 45-degree sector
    centred on it.  Its edges at 22.5 degrees pass through no cell centre, so there are no ties;
    None for the same cell.  (Wing Leader's sun sectors: level, high-left, high, high-right.)"""
    s = sector(Heading.N, a, b)
    if s is None:
        return None
    k = s // 2
    if s % 2 == 0:
        return Heading(k)
    o = k if k % 2 == 0 else k + 1  # the orthogonal one of the two headings the bearing lies between
    v = (b[0] - a[0], b[1] - a[1])
    along, off = _dot(VECTORS[o % 8], v), abs(_cross(VECTORS[o % 8], v))
    # within 22.5 degrees of the orthogonal heading iff off / along < sqrt(2) - 1
    near_orthogonal = (off + along) ** 2 < 2 * along * along
    return Heading((o if near_orthogonal else k + 1 if o == k else k) % 8)


class Aspect(str, Enum):
    """Where a target lies relative to a heading: the 90-degree cone ahead, the one behind, or a flank."""

    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"
    SAME = "same"


def aspect(heading: int, at: Cell, other: Cell) -> Aspect:
    """FRONT within 45 degrees of dead ahead (both edges included, so the three front cells are
    front), REAR within 45 degrees of dead astern, FLANK between, SAME in the same cell."""
    s = sector(heading, at, other)
    if s is None:
        return Aspect.SAME
    if s <= 2 or s >= 14:
        return Aspect.FRONT
    if 6 <= s <= 10:
        return Aspect.REAR
    return Aspect.FLANK


def front_cells(c: Cell, heading: int) -> tuple[Cell, Cell, Cell]:
    """The three adjacent cells ahead: along the heading and 45 degrees either side."""
    return (step(c, heading - 1), step(c, heading), step(c, heading + 1))


def line(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The cells whose inside the segment between the two centres passes through, in order.

    Centres sit mid-cell, so the segment never runs along a grid line; where it passes exactly
    through a grid corner it goes diagonally, and the two cells beside that corner are only
    touched (see :func:`corners`), not passed through (Wing Leader 4.6.1).
    """
    return _walk(a, b)[0]


def corners(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The cells the segment between the two centres meets only at a corner, in order."""
    return _walk(a, b)[1]


def _walk(a: Cell, b: Cell) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """Step cell to cell, comparing the next x-line and y-line crossings in integers.

    The k-th vertical grid line is met at t = (2k + 1) / (2|dx|), the j-th horizontal one at
    t = (2j + 1) / (2|dy|); cross-multiplying compares them exactly.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    ax, ay = abs(dx), abs(dy)
    x, y = a
    k = j = 0
    passed, touched = [a], []
    while (x, y) != b:
        tx = (2 * k + 1) * ay if k < ax else None
        ty = (2 * j + 1) * ax if j < ay else None
        if ty is None or (tx is not None and tx < ty):
            x, k = x + sx, k + 1
        elif tx is None or ty < tx:
            y, j = y + sy, j + 1
        else:
            touched += [(x + sx, y), (x, y + sy)]
            x, y, k, j = x + sx, y + sy, k + 1, j + 1
        passed.append((x, y))
    return tuple(passed), tuple(touched)


def _dot(f: Cell, v: Cell) -> int:
    return f[0] * v[0] + f[1] * v[1]


def _cross(f: Cell, v: Cell) -> int:
    """> 0 when ``v`` turns clockwise from ``f`` (y grows down)."""
    return f[0] * v[1] - f[1] * v[0]
