"""Hex-grid geometry shared by the hex games (axial coordinates).

Axial ``(q, r)`` with the six neighbours at the :data:`DIRECTIONS` offsets;
distance is ``max(|dq|, |dr|, |dq + dr|)`` in the usual cube form.  A game
with another printed coordinate system converts at its edge (Lew Morski's
A/B pairs, Bismarck's column-row labels).
"""
from __future__ import annotations

from collections.abc import Iterator

Hex = tuple[int, int]

#: Neighbour offsets in clockwise order for flat-topped hexes starting at north.
DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def step(h: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive (cube lerp, nudged off edges)."""
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

