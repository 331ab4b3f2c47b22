"""Cells, facings and relative position [2.1, 6.1].

A cell is ``(x, y)`` with x growing east and y growing south (y = 1 is the top row of
a field).  A facing is one of N, E, S, W: the aircraft card turns in 90-degree steps [L217].
"""
from __future__ import annotations

FACINGS = ("N", "E", "S", "W")
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CW = {"N": "E", "E": "S", "S": "W", "W": "N"}
CCW = {v: k for k, v in CW.items()}

NOSE, SIDE, TAIL = "nose", "side", "tail"
FRONT, FLANK, REAR = "front", "flank", "rear"
#: Firing bonus of an attacker that is nose-on to its target, by the target's aspect [L125-129].
BONUS = {NOSE: 0, SIDE: 1, TAIL: 2}
POSITION = {NOSE: FRONT, SIDE: FLANK, TAIL: REAR}


def direction(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The facing that points from cell ``a`` to the orthogonally adjacent cell ``b``, else None."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    for f, step in STEP.items():
        if step == (dx, dy):
            return f
    return None


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Orthogonal neighbours: the dogfight relation; diagonals do not count [L119]."""
    return direction(a, b) is not None


def diagonal(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


def aspect(facing: str, cell: tuple[int, int], other: tuple[int, int]) -> str:
    """How an aircraft at ``cell`` facing ``facing`` shows itself to ``other``: nose, side or tail [6.1]."""
    d = direction(cell, other)
    if d is None:
        raise ValueError(f"{cell} and {other} are not adjacent")
    if facing == d:
        return NOSE
    if facing == OPPOSITE[d]:
        return TAIL
    return SIDE


def rotate(facing: str, way: str) -> str:
    """Turn 90 degrees clockwise (``cw``) or counter-clockwise (``ccw``) [L217]."""
    return CW[facing] if way == "cw" else CCW[facing]


def rotation_between(f0: str, f1: str) -> int:
    """Clockwise quarter turns taking facing ``f0`` to ``f1``."""
    return (FACINGS.index(f1) - FACINGS.index(f0)) % 4


def turn_vector(v: tuple[int, int], quarters: int) -> tuple[int, int]:
    """Rotate a grid vector clockwise by ``quarters`` quarter turns (y grows south)."""
    x, y = v
    for _ in range(quarters % 4):
        x, y = -y, x
    return x, y


def turn_facing(f: str, quarters: int) -> str:
    return FACINGS[(FACINGS.index(f) + quarters) % 4]


def parse_cell(text: str) -> tuple[int, int] | None:
    """``"2,3"`` -> (2, 3); None when malformed."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def cell_text(c) -> str:
    return f"{c[0]},{c[1]}"
