"""The map: terrain per hex, hedges and cliffs per hexside, and the names players write.

Hexes are axial ``(q, r)`` (:mod:`pbem.core.hexgrid`, flat-topped, north up: the fragment's
"adjacent to the north" and "three hexes to the south-east" are straight rows, digest 2.1).  A map
is drawn in TOML as rows of terrain letters in the odd-q offset layout; a hex is named by its column
letter and row number (``C4``), as on a printed map.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Mapping

from pbem.core.data import data_cache, load_data
from pbem.core.hexgrid import NAMES, Hex, Hexside, from_offset, hexside, step, to_offset

PACKAGE = __package__  # "pbem.rules.aa_miniatures" once installed
LAYOUT = "odd-q"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Terrain:
    """One row of the terrain chart (hex terrain) or of its hexside part (hedge, cliff)."""

    name: str
    blocks: bool
    cost: Mapping[str, int]
    entry: Mapping[str, int]
    cover: Mapping[str, int]


@dataclass(frozen=True)
class Board:
    """A map: every hex's terrain name and the hexsides carrying a hedge or a cliff."""

    name: str
    width: int
    height: int
    hexes: Mapping[Hex, str]
    sides: Mapping[Hexside, str]

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def terrain(self, h: Hex) -> Terrain:
        return terrain_chart()[self.hexes[h]]

    def terrain_of_side(self, kind: str) -> Terrain:
        """The chart row of a hexside feature (``hedge``, ``cliff``)."""
        return terrain_chart()[kind]

    def side(self, a: Hex, b: Hex) -> str | None:
        """``"hedge"``, ``"cliff"`` or None for the side between two adjacent hexes."""
        return self.sides.get(hexside(a, b))

    def on_cliff(self, h: Hex) -> bool:
        """A hex with a cliff on one of its sides is a cliff hex (fringe terrain, L200)."""
        return any(kind == "cliff" and h in side for side, kind in self.sides.items())


def hex_name(h: Hex) -> str:
    col, row = to_offset(h, LAYOUT)
    return f"{LETTERS[col]}{row + 1}"


def parse_hex(text: str) -> Hex | None:
    """The hex a name such as ``C4`` stands for, or None if it is not a hex name."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        return None
    return from_offset(LETTERS.index(text[0]), int(text[1:]) - 1, LAYOUT)


def direction_of(word: str) -> int | None:
    word = word.upper()
    return NAMES.index(word) if word in NAMES else None


@data_cache
def terrain_chart() -> Mapping[str, Terrain]:
    data = load_data(PACKAGE, "data/terrain.toml")
    rows = {**data["hexes"], **data["hexsides"]}
    return MappingProxyType({
        name: Terrain(name, row["blocks"], row.get("cost", row.get("extra_cost", {})),
                      row.get("entry", {}), row["cover"])
        for name, row in rows.items()})


@data_cache
def board(name: str) -> Board:
    data = load_data(PACKAGE, "data/maps.toml")["maps"][name]
    codes = {row["code"]: kind for kind, row in load_data(PACKAGE, "data/terrain.toml")["hexes"].items()}
    hexes = {from_offset(col, row, LAYOUT): codes[ch]
             for row, line in enumerate(data["rows"]) for col, ch in enumerate(line)}
    sides = {}
    for kind in ("hedge", "cliff"):
        for entry in data.get(f"{kind}s", []):
            where, facing = entry.split()
            h = parse_hex(where)
            d = direction_of(facing)
            if h is None or d is None:
                raise ValueError(f"map {name}: bad {kind} {entry!r}")
            sides[hexside(h, step(h, d))] = kind
    return Board(name, len(data["rows"][0]), len(data["rows"]), MappingProxyType(hexes), MappingProxyType(sides))
