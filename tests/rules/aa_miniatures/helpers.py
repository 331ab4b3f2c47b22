"""Small boards and units for the pure rules tests (axial hexes, as in the digest's examples)."""
from __future__ import annotations

from types import MappingProxyType

from pbem.core.hexgrid import NAMES, hexside, step, within
from pbem.rules.aa_miniatures.board import Board
from pbem.rules.aa_miniatures.model import Unit


def open_board(terrain: dict | None = None, sides: dict | None = None, radius: int = 9) -> Board:
    """Clear hexes around (0, 0), with ``terrain`` {hex: name} and ``sides`` {(hex, dir): kind} laid on."""
    hexes = {h: "clear" for h in within((0, 0), radius)}
    hexes.update(terrain or {})
    marked = {hexside(h, step(h, d)): kind for (h, d), kind in (sides or {}).items()}
    return Board("test", 0, 0, MappingProxyType(hexes), MappingProxyType(marked))


def unit(uid: str, card: str, at: tuple[int, int], facing: str = "N", side: str = "allies", **kw) -> Unit:
    return Unit(uid, card, side, at, NAMES.index(facing), **kw)
