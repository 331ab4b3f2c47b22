"""Hex-grid geometry shared by the hex games (axial coordinates).

Axial ``(q, r)`` with the six neighbours at the :data:`DIRECTIONS` offsets;
distance is ``max(|dq|, |dr|, |dq + dr|)`` in the usual cube form.  A game
with another printed coordinate system converts at its edge: offset layouts
(Bismarck's rows) with :func:`to_offset`/:func:`from_offset`, oblique pairs
(Lew Morski's A/B) with :func:`from_oblique`/:func:`to_oblique`.

Directions are indices 0..5 clockwise from north on a flat-topped map with
north up (:data:`NAMES`); a pointy-topped game only renames them.  Every
test here but the old :func:`line` is in integers: :func:`plane` maps a hex
to an integer point of an affine image of the drawn map, which keeps straight
lines, which side of a line a point lies on and where lines meet, so arcs and
line of sight (:mod:`pbem.core.sight`) need no floats.
"""
from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

Hex = tuple[int, int]
Cube = tuple[int, int, int]
#: A hexside as the sorted pair of the two hexes that share it (see :func:`hexside`).
Hexside = tuple[Hex, Hex]

#: Neighbour offsets in clockwise order for flat-topped hexes starting at north.
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
#: Compass names of :data:`DIRECTIONS` (flat-topped, north up).
NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
#: The six "spine" offsets through a vertex: corner ``i`` lies between direction ``i`` and ``i + 1``.
CORNERS: tuple[Hex, ...] = tuple(
    (DIRECTIONS[i][0] + DIRECTIONS[(i + 1) % 6][0], DIRECTIONS[i][1] + DIRECTIONS[(i + 1) % 6][1]) for i in range(6))
#: Offset layouts of :func:`to_offset`: flat-topped columns ("q") or pointy-topped rows ("r"),
#: the odd or even ones shoved half a hex (Red Blob Games' names).
LAYOUTS = ("odd-q", "even-q", "odd-r", "even-r")


def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def step(h: Hex, direction: int, n: int = 1) -> Hex:
    """The hex ``n`` steps from ``h`` towards ``direction`` (taken modulo 6)."""
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + n * dq, h[1] + n * dr)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def direction(a: Hex, b: Hex) -> int | None:
    """The direction in which ``b`` lies on a straight hex row from ``a``; None if off every row or equal."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    n = distance(a, b)
    if n == 0:
        return None
    for i, (sq, sr) in enumerate(DIRECTIONS):
        if (sq * n, sr * n) == (dq, dr):
            return i
    return None


def hexside(a: Hex, b: Hex) -> Hexside:
    """The side shared by two adjacent hexes, one value whichever hex it is named from."""
    if distance(a, b) != 1:
        raise ValueError(f"hexside: {a!r} and {b!r} are not adjacent")
    return (a, b) if a <= b else (b, a)


def sides(h: Hex) -> tuple[Hexside, ...]:
    """The six sides of ``h`` in direction order."""
    return tuple(hexside(h, n) for n in neighbours(h))


# -- conversions -------------------------------------------------------------
def to_cube(h: Hex) -> Cube:
    return (h[0], h[1], -h[0] - h[1])


def from_cube(c: Cube) -> Hex:
    if sum(c) != 0:
        raise ValueError(f"from_cube: {c!r} does not sum to 0")
    return (c[0], c[1])


def to_offset(h: Hex, layout: str) -> tuple[int, int]:
    """``(col, row)`` of ``h`` in an offset layout of :data:`LAYOUTS` (0-based; add 1 at a game's edge)."""
    q, r = h
    if layout.endswith("q"):
        return q, r + _half(q, layout)
    return q + _half(r, layout), r


def from_offset(col: int, row: int, layout: str) -> Hex:
    """The axial hex at ``(col, row)`` of an offset layout; inverse of :func:`to_offset`."""
    if layout.endswith("q"):
        return col, row - _half(col, layout)
    return col - _half(row, layout), row


def _half(n: int, layout: str) -> int:
    """How far the shoved lines of an offset layout drift: half of ``n``, its odd half rounded
    down where the odd lines are shoved and up where the even ones are."""
    return (n - (n & 1)) // 2 if _known(layout).startswith("odd") else (n + (n & 1)) // 2


def _known(layout: str) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"offset layout: unknown {layout!r}, expected one of {LAYOUTS}")
    return layout


def from_oblique(a: int, b: int) -> Hex:
    """Axial hex of an oblique pair: ``a`` counts the columns, ``b`` the rows slanting down to the
    right, so that ``(a, b)`` and ``(a + 1, b + 1)`` are neighbours (Lew Morski's A/B pairs)."""
    return a, b - a


def to_oblique(h: Hex) -> tuple[int, int]:
    return h[0], h[0] + h[1]


# -- the plane ---------------------------------------------------------------
def plane(h: Hex) -> tuple[int, int]:
    """The centre of ``h`` as an integer point ``(X, Y)`` of an affine image of the drawn map.

    For flat-topped hexes of size s the drawn centre is ``(X * s/2, Y * s*sqrt(3)/2)`` with y
    growing south; each hex is then the hexagon ``|v| <= 1, |u| + |v| <= 2`` around its centre.
    Scaling each axis keeps lines, incidence and orientation, not lengths or angles.
    """
    return 3 * h[0], 2 * h[1] + h[0]


def dot(f: Hex, v: Hex) -> int:
    """An integer with the sign (and 2/3 of the size) of the drawn dot product of two axial vectors."""
    return 2 * f[0] * v[0] + 2 * f[1] * v[1] + f[0] * v[1] + f[1] * v[0]


def cross(f: Hex, v: Hex) -> int:
    """An integer with the sign of the drawn cross product: > 0 when ``v`` turns clockwise from ``f``."""
    return f[0] * v[1] - f[1] * v[0]


class Arc(str, Enum):
    """Where a hex lies relative to a facing: the half-plane ahead, behind, or exactly abeam."""

    FRONT = "front"
    REAR = "rear"
    SIDE = "side"
    SAME = "same"


def arc(at: Hex, facing: int, other: Hex) -> Arc:
    """Is ``other`` in front of, behind, or exactly left or right of a unit at ``at`` facing ``facing``?

    Front means the line from the unit's centre to ``other``'s leaves through one of the three front
    hexsides or the two corners between them; rear mirrors it; ``SIDE`` is the line through the
    corners at 90 degrees (only hexes at even distance along the two spines lie there).
    """
    v = (other[0] - at[0], other[1] - at[1])
    if v == (0, 0):
        return Arc.SAME
    d = dot(DIRECTIONS[facing % 6], v)
    return Arc.FRONT if d > 0 else Arc.REAR if d < 0 else Arc.SIDE


def exit_side(a: Hex, b: Hex) -> tuple[int, ...]:
    """Through which side of ``a`` the line from its centre to ``b``'s leaves: ``(i,)`` through the side
    facing direction ``i``, ``(i, i + 1)`` (mod 6) exactly through the corner between them, ``()`` if equal."""
    v = (b[0] - a[0], b[1] - a[1])
    if v == (0, 0):
        return ()
    for i, c in enumerate(CORNERS):
        if cross(c, v) == 0 and dot(c, v) > 0:
            return (i, (i + 1) % 6)
    for i in range(6):
        if cross(CORNERS[i - 1], v) > 0 and cross(v, CORNERS[i]) > 0:
            return (i,)
    raise AssertionError("unreachable: the six sides and corners cover every bearing")


# -- lines and areas ---------------------------------------------------------
def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive, one per step (cube lerp, nudged off edges).

    Kept exactly as Bismarck's bot has always had it: where the line runs along a spine the float
    nudge cannot choose and rounding noise does.  For anything a rule decides, use
    :func:`pbem.core.sight.sight`, which is exact.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        t = i / n
        q = a[0] + (b[0] - a[0]) * t + 1e-6
        r = a[1] + (b[1] - a[1]) * t + 1e-6
        out.append(_round(q, r))
    return out


def _round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def ring(center: Hex, radius: int) -> Iterator[Hex]:
    if radius == 0:
        yield center
        return
    h = (center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    for d in range(6):
        for _ in range(radius):
            yield h
            h = step(h, d)


def within(center: Hex, radius: int) -> Iterator[Hex]:
    for k in range(radius + 1):
        yield from ring(center, k)
