"""The board: A/B hex coordinates, facings, edges, sun strips and the authored terrain [R 2.0].

A hex is the pair (A, B) of the rulebook: A numbers the straight vertical columns, B the oblique
rows (digest 2.0): an oblique pair of :mod:`pbem.core.hexgrid`, whose maths this module only
translates.  The neighbours of (a, b) are (a, b-1), (a+1, b), (a+1, b+1), (a, b+1), (a-1, b),
(a-1, b-1); the board is 42 columns x 28 hexes with ``r = B - ceil(A/2)`` in 0..27.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pbem.core import hexgrid
from pbem.core.data import data_cache, load_data

Hex = tuple[int, int]

#: Facings clockwise from north, with their (dA, dB) steps (digest 2.0, G-3): the core's
#: directions, named as the core names them, read as oblique pairs.
FACINGS: tuple[str, ...] = hexgrid.NAMES
STEPS: dict[str, Hex] = {f: hexgrid.to_oblique(d) for f, d in zip(FACINGS, hexgrid.DIRECTIONS, strict=True)}
COLUMNS = 42
ROWS = 28

_HEX = re.compile(r"^\(?\s*A\s*(\d{1,2})\s*,?\s*B\s*(\d{1,2})\s*\)?$", re.IGNORECASE)


def parse_hex(text: str) -> Hex | None:
    """Read "A06,B19", "A06, B19", "(A06 ,B19)" or "a6b19"; None if it is not a hex name."""
    m = _HEX.match(text.strip())
    if not m:
        return None
    return int(m.group(1)), int(m.group(2))


def fmt(h: Hex) -> str:
    """The canonical name of a hex, e.g. ``A06,B19``."""
    return f"A{h[0]:02d},B{h[1]:02d}"


@lru_cache(maxsize=4096)
def row(h: Hex) -> int:
    """The hex's row counted from the north edge (0..27 on the board): ``B - ceil(A/2)``, the row of
    the core's odd-q offset layout (odd columns half a hex lower)."""
    return hexgrid.to_offset(axial(h), "odd-q")[1]


def from_row(a: int, r: int) -> Hex:
    return hexgrid.to_oblique(hexgrid.from_offset(a, r, "odd-q"))


def on_board(h: Hex) -> bool:
    return h in _BOARD


def step(h: Hex, facing: str) -> Hex:
    da, db = STEPS[facing]
    return h[0] + da, h[1] + db


def turn(facing: str, side: str) -> str:
    """Facing after a 60 degree turn to the right ("R") or left ("L") [R 4.0]."""
    i = FACINGS.index(facing)
    return FACINGS[(i + (1 if side == "R" else -1)) % 6]


def axial(h: Hex) -> hexgrid.Hex:
    """The core's axial hex of an A/B pair."""
    return hexgrid.from_oblique(*h)


@lru_cache(maxsize=1 << 16)
def distance(p: Hex, q: Hex) -> int:
    """Hex steps between two hexes (cached: the bot and the line of fire ask the same pairs often)."""
    return hexgrid.distance(axial(p), axial(q))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(step(h, f) for f in FACINGS)


def direction(p: Hex, q: Hex) -> str | None:
    """The facing that steps from ``p`` to the adjacent ``q``."""
    if distance(p, q) != 1:
        return None
    i = hexgrid.direction(axial(p), axial(q))
    return None if i is None else FACINGS[i]


def side_of(off: Hex) -> str:
    """The board side an off-board hex lies beyond: bottom and top rows first, then left and right columns."""
    if row(off) > ROWS - 1:
        return "bottom"
    if row(off) < 0:
        return "top"
    return "left" if off[0] < 1 else "right"


def edge_of(off: Hex) -> str:
    """The compass edge an off-board hex lies beyond [R 4.3, 8.1], per the compass in board.toml (G-3)."""
    side = side_of(off)
    return next(name for name, s in compass().items() if s == side)


@lru_cache(maxsize=4096)
def is_edge(h: Hex) -> bool:
    return on_board(h) and any(not on_board(n) for n in neighbours(h))


def all_hexes() -> tuple[Hex, ...]:
    return _ALL


_ALL: tuple[Hex, ...] = tuple(from_row(a, r) for a in range(1, COLUMNS + 1) for r in range(ROWS))
_BOARD: frozenset[Hex] = frozenset(_ALL)


def within(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes at distance <= radius of ``center``, on the board, sorted [R 9.3]."""
    return tuple(h for h in zone(center, radius) if on_board(h))


def zone(center: Hex, radius: int) -> tuple[Hex, ...]:
    """The same disc without clipping (used to test radius semantics, digest E-16)."""
    return tuple(sorted(hexgrid.to_oblique(h) for h in hexgrid.within(axial(center), radius)))


@lru_cache(maxsize=65536)
def ray(h: Hex, facing: str, n: int) -> tuple[Hex, ...]:
    """Up to ``n`` hexes straight ahead of ``h`` (off-board hexes included)."""
    out, cur = [], h
    for _ in range(n):
        cur = step(cur, facing)
        out.append(cur)
    return tuple(out)


@data_cache  # one result per game data correction (pbem.core.data)
def _board_data() -> dict:
    return load_data(__name__.rsplit(".", 1)[0] + ".data", "board.toml")


@data_cache
def compass() -> dict[str, str]:
    """Compass edge name -> board side (top, bottom, left, right) [G-3]."""
    c = _board_data()["compass"]
    return {k: c[k] for k in ("north", "east", "south", "west")}


@data_cache(maxsize=8)
def sun_hexes(edge: str) -> frozenset[Hex]:
    """The 10 hexes of the sun shield on a compass edge (digest 7.2.3, G-11), from board.toml."""
    side = compass().get(edge)
    if side is None:
        return frozenset()
    lo, hi = _board_data()["sun"][side]
    if side == "top":
        return frozenset(from_row(a, 0) for a in range(lo, hi + 1))
    if side == "bottom":
        return frozenset(from_row(a, ROWS - 1) for a in range(lo, hi + 1))
    col = 1 if side == "left" else COLUMNS
    return frozenset(from_row(col, r) for r in range(lo, hi + 1))


@data_cache(maxsize=65536)
def into_sun(h: Hex, facing: str, sun: str) -> bool:
    """Does the extension of a straight line from ``h`` along ``facing`` cross the sun shield? [R 5.0.1]"""
    cur = h
    while True:
        nxt = step(cur, facing)
        if not on_board(nxt):
            return edge_of(nxt) == sun and cur in sun_hexes(sun)
        cur = nxt


@dataclass(frozen=True)
class Terrain:
    """The authored map (digest G-1): clouds, river, water and the 12 strategic objects."""

    cloud_full: frozenset[Hex]
    cloud_edge: frozenset[Hex]
    river: frozenset[Hex]
    water: frozenset[Hex]
    objects: tuple[tuple[str, Hex], ...]

    def cloud(self, h: Hex) -> str:
        if h in self.cloud_full:
            return "full"
        if h in self.cloud_edge:
            return "edge"
        return "none"

    def object_at(self, h: Hex) -> str | None:
        for oid, oh in self.objects:
            if oh == h:
                return oid
        return None

    def object_hex(self, oid: str) -> Hex:
        return dict(self.objects)[oid]


@data_cache
def terrain() -> Terrain:
    data = _board_data()
    t = data["terrain"]

    def hexes(names: list[str]) -> frozenset[Hex]:
        return frozenset(parse_hex(n) for n in names)  # type: ignore[misc]

    objs = tuple((o["id"], parse_hex(o["hex"])) for o in data["objects"])
    return Terrain(hexes(t["cloud_full"]), hexes(t["cloud_edge"]), hexes(t["river"]), hexes(t["water"]),
                   objs)  # type: ignore[arg-type]
