"""Entering a field, moving, altitude change and pursuit placement [6.2]."""
from __future__ import annotations

from . import tables
from .geometry import STEP, diagonal, rotation_between, turn_facing, turn_vector
from .state import Game


def entry_cells(g: Game, side: str, alt: str, *, setup: bool = False) -> list[tuple[int, int]]:
    """Cells an aircraft of ``side`` may enter ``alt`` in [L133]: its start cell when free, else any free cell.

    At deployment the aircraft must also stay within two columns of its edge [L317].
    """
    b = tables.board()
    start = b.start_cell[side]
    if g.free(alt, start):
        return [start]
    cells = g.free_cells(alt)
    if setup:
        edge = b.edge_column[side]
        cells = [c for c in cells if abs(c[0] - edge) < b.setup_columns]
    return cells


def place(a: dict, alt: str, cell, facing: str) -> None:
    a["alt"], a["cell"], a["facing"], a["placed"] = alt, list(cell), facing, True


def shifted_alt(alt: str, step: int) -> str | None:
    i = tables.ALTITUDES.index(alt) + step
    return tables.ALTITUDES[i] if 0 <= i < len(tables.ALTITUDES) else None


def pursuit_cells(g: Game, p: dict, x_old: tuple, f0: str, x_new: tuple, f1: str, alt: str
                  ) -> tuple[list[tuple[int, int]], str, tuple | None]:
    """Where pursuer ``p`` may go after target X moved from ``x_old``/``f0`` to ``x_new``/``f1`` [L140].

    Returns ``(cells, facing, preserved)``: the preserved cell keeps the mutual position
    (the offset and facing turn with X); if it is taken the pursuer picks a free cell of X's
    dogfight zone, and if all four are taken a free cell diagonal to X.  ``cells`` is
    empty when no cell is free: the pursuit cannot happen.
    """
    q = rotation_between(f0, f1)
    off = (p["cell"][0] - x_old[0], p["cell"][1] - x_old[1])
    v = turn_vector(off, q)
    preserved = (x_new[0] + v[0], x_new[1] + v[1])
    facing = turn_facing(p["facing"], q)
    if g.free(alt, preserved):
        return [preserved], facing, preserved
    cells = [c for c in dogfight_zone(x_new) if g.free(alt, c)]
    if not cells:
        cells = [c for c in g.free_cells(alt) if diagonal(c, x_new)]
    return sorted(cells), facing, None


def dogfight_zone(cell) -> list[tuple[int, int]]:
    """The four cells orthogonally next to ``cell`` [L119]."""
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in STEP.values()]


def aa_sector(slot) -> list[tuple[int, int]]:
    """The AA battery fires at the sky cells directly and diagonally above it [L152]."""
    x, y = slot
    return [(x - 1, y - 1), (x, y - 1), (x + 1, y - 1)]
