"""Cells, facings and relative position [2.1, 6.1], on :mod:`pbem.core.squaregrid`.

A cell is ``(x, y)`` with x growing east and y growing south (y = 1 is the top row of
a field), as the core's square grid has it.  A facing is one of N, E, S, W: the aircraft
card turns in 90-degree steps [L217], so only the core's four orthogonal headings are used.
This module keeps the game's names and letters; the maths is the core's.
"""
from __future__ import annotations

from pbem.core import squaregrid as sq

FACINGS = ("N", "E", "S", "W")
_HEADING = {f: sq.Heading[f] for f in FACINGS}
STEP = {f: h.vector for f, h in _HEADING.items()}
OPPOSITE = {f: sq.turn(h, 4).name for f, h in _HEADING.items()}
CW = {f: sq.turn(h, 2).name for f, h in _HEADING.items()}
CCW = {v: k for k, v in CW.items()}

NOSE, SIDE, TAIL = "nose", "side", "tail"
FRONT, FLANK, REAR = "front", "flank", "rear"
#: Firing bonus of an attacker that is nose-on to its target, by the target's aspect [L125-129].
BONUS = {NOSE: 0, SIDE: 1, TAIL: 2}
POSITION = {NOSE: FRONT, SIDE: FLANK, TAIL: REAR}
#: The core's aspect of the other cell, seen from an aircraft's facing, as the card shows itself.
_SHOWS = {sq.Aspect.FRONT: NOSE, sq.Aspect.FLANK: SIDE, sq.Aspect.REAR: TAIL}


def direction(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The facing that points from cell ``a`` to the orthogonally adjacent cell ``b``, else None."""
    if not adjacent(a, b):
        return None
    h = sq.heading_to(a, b)
    return None if h is None else h.name


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Orthogonal neighbours: the dogfight relation; diagonals do not count [L119]."""
    return sq.adjacent(a, b, diagonals=False)


def diagonal(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return sq.adjacent(a, b) and not adjacent(a, b)


def aspect(facing: str, cell: tuple[int, int], other: tuple[int, int]) -> str:
    """How an aircraft at ``cell`` facing ``facing`` shows itself to ``other``: nose, side or tail [6.1]."""
    if not adjacent(cell, other):
        raise ValueError(f"{cell} and {other} are not adjacent")
    return _SHOWS[sq.aspect(_HEADING[facing], cell, other)]


def rotate(facing: str, way: str) -> str:
    """Turn 90 degrees clockwise (``cw``) or counter-clockwise (``ccw``) [L217]."""
    return CW[facing] if way == "cw" else CCW[facing]


def rotation_between(f0: str, f1: str) -> int:
    """Clockwise quarter turns taking facing ``f0`` to ``f1``."""
    return ((_HEADING[f1] - _HEADING[f0]) % 8) // 2


def turn_vector(v: tuple[int, int], quarters: int) -> tuple[int, int]:
    """Rotate a grid vector clockwise by ``quarters`` quarter turns (y grows south)."""
    return sq.rotate(v, 2 * quarters)


def turn_facing(f: str, quarters: int) -> str:
    return sq.turn(_HEADING[f], 2 * quarters).name


def parse_cell(text: str) -> tuple[int, int] | None:
    """``"2,3"`` -> (2, 3); None when malformed."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def cell_text(c) -> str:
    return f"{c[0]},{c[1]}"
