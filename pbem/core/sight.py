"""Exact line of sight on a hex grid: which hexes and hexsides a centre-to-centre line meets, and how.

The segment from the centre of ``start`` to the centre of ``end`` meets each hex it comes near in
one of three ways (:class:`Contact`): it *crosses* the hex (passes through its interior), *grazes*
it (runs along one of its edges and nowhere inside), or *touches* it (meets only a vertex).  A
grazed or touched hex lies wholly on one side of the line, recorded as ``side`` (+1 right, -1 left,
seen travelling from ``start`` to ``end`` on a map with north up).

Rules that say "a line along the border of one blocking hex is clear, between two it is blocked"
(A&A Miniatures 4.8) are the two lines nudged an infinitesimal distance to either side:
:meth:`Sight.nudged` gives the hexes and :meth:`Sight.nudged_sides` the hexsides each one passes.
Everything is computed in integers and fractions on :func:`pbem.core.hexgrid.plane`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise

from .hexgrid import Hex, Hexside, hexside, line, plane, within


class Contact(str, Enum):
    CROSSED = "crossed"
    GRAZED = "grazed"
    TOUCHED = "touched"


@dataclass(frozen=True)
class Passage:
    """One hex the line meets, over the parameter range ``enter``..``leave`` (0 at start, 1 at end)."""

    hex: Hex
    contact: Contact
    side: int
    enter: Fraction
    leave: Fraction


@dataclass(frozen=True)
class Sight:
    """The hexes a centre-to-centre line meets, in the order it meets them, and the hexsides it
    passes through (``crossed_sides``: through the inside of the side) or runs along (``along_sides``)."""

    start: Hex
    end: Hex
    passages: tuple[Passage, ...]
    crossed_sides: tuple[Hexside, ...]
    along_sides: tuple[Hexside, ...]

    def hexes(self, contact: Contact | None = None) -> tuple[Hex, ...]:
        """The hexes met, or only those met in the way ``contact``, in order."""
        return tuple(p.hex for p in self.passages if contact is None or p.contact is contact)

    def contact(self, h: Hex) -> Contact | None:
        return next((p.contact for p in self.passages if p.hex == h), None)

    def nudged(self, side: int) -> tuple[Hex, ...]:
        """The hexes the line passes through once moved a vanishing distance to ``side`` (+1 or -1)."""
        return _nudged(self.passages, side)

    def nudged_sides(self, side: int) -> tuple[Hexside, ...]:
        """The hexsides the line moved to ``side`` passes through, in order."""
        return _sides_between(_nudged(self.passages, side))


@lru_cache(maxsize=4096)
def sight(start: Hex, end: Hex) -> Sight:
    """Classify every hex the segment between the two centres meets; exact, and symmetric in that
    ``sight(b, a)`` meets the same hexes in the same ways, in reverse order and with sides swapped."""
    a, b = plane(start), plane(end)
    # Any hex the segment meets is a neighbour of (or is) a hex holding one of its evenly spaced
    # samples: samples are at most one hex apart, and a hex two steps away is out of reach.
    near = {n for h in line(start, end) for n in within(h, 1)}
    passages = tuple(sorted((p for p in (_meet(h, a, b) for h in near) if p is not None),
                            key=lambda p: (p.enter, p.leave, p.side)))
    # A side crossed through its inside is crossed by the line shifted either way; one passed only
    # at its end (a vertex) is crossed by one shifted line at most.
    left = set(_sides_between(_nudged(passages, -1)))
    crossed = tuple(s for s in _sides_between(_nudged(passages, 1)) if s in left)
    along = tuple(hexside(p.hex, q.hex) for p, q in pairwise(passages)
                  if p.contact is q.contact is Contact.GRAZED and (p.enter, p.leave) == (q.enter, q.leave))
    return Sight(start, end, passages, crossed, along)


def _nudged(passages: tuple[Passage, ...], side: int) -> tuple[Hex, ...]:
    return tuple(p.hex for p in passages if p.contact is Contact.CROSSED or p.side == side)


def _sides_between(path: tuple[Hex, ...]) -> tuple[Hexside, ...]:
    return tuple(hexside(p, q) for p, q in pairwise(path))


#: The hexagon around a centre in the plane of :func:`plane`, as half-planes ``nu*u + nv*v <= k``.
_HALF_PLANES = ((0, 1, 1), (0, -1, 1), (1, 1, 2), (1, -1, 2), (-1, 1, 2), (-1, -1, 2))


def _meet(h: Hex, a: tuple[int, int], b: tuple[int, int]) -> Passage | None:
    """How the segment ``a``-``b`` (plane points) meets hex ``h``, clipped Liang-Barsky style."""
    cx, cy = plane(h)
    dx, dy = b[0] - a[0], b[1] - a[1]
    off = dx * (cy - a[1]) - dy * (cx - a[0])
    if abs(off) > max(2 * abs(dy), abs(dx - dy), abs(dx + dy)):
        return None  # the whole line misses: the centre is further off it than any vertex reaches
    t0, t1, on_edge = Fraction(0), Fraction(1), False
    for nu, nv, k in _HALF_PLANES:
        room = k - (nu * (a[0] - cx) + nv * (a[1] - cy))
        rate = nu * dx + nv * dy
        if rate == 0:
            if room < 0:
                return None
            on_edge = on_edge or room == 0
        elif rate > 0:
            t1 = min(t1, Fraction(room, rate))
        else:
            t0 = max(t0, Fraction(room, rate))
    if t0 > t1:
        return None
    if t0 < t1 and not on_edge:
        return Passage(h, Contact.CROSSED, 0, t0, t1)
    side = 1 if off > 0 else -1
    return Passage(h, Contact.GRAZED if t0 < t1 else Contact.TOUCHED, side, t0, t1)

