"""The map: terrain per hex, hedges and cliffs per hexside, and the names players write.

Hexes are axial ``(q, r)`` (:mod:`pbem.core.hexgrid`, flat-topped, north up: the fragment's
"adjacent to the north" and "three hexes to the south-east" are straight rows, digest 2.1).  A map
is drawn in TOML as rows of terrain letters in the odd-q offset layout; a hex is named by its column
letter and row number (``C4``), as on a printed map.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from collections.abc import Mapping, Sequence
from typing import Any

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
class Obstacle:
    """A kind of obstacle piece (L1 names the piece only; every effect is a placeholder, digest G28):
    the extra movement points to enter its hex, the kinds that cannot enter it, and the kinds whose
    move ends on entering it.  It neither blocks sight nor gives cover (L186, L194 do not list it)."""

    name: str
    title: str
    extra_cost: Mapping[str, int]
    impassable: tuple[str, ...]
    ends_move: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """A map: every hex's terrain name, the hexsides carrying a hedge or a cliff, and the obstacle
    pieces a scenario placed (at most one a hex, L1)."""

    name: str
    width: int
    height: int
    hexes: Mapping[Hex, str]
    sides: Mapping[Hexside, str]
    obstacles: Mapping[Hex, str] = field(default_factory=lambda: MappingProxyType({}))

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

    def obstacle(self, h: Hex) -> Obstacle | None:
        """The obstacle piece in ``h``, or None."""
        kind = self.obstacles.get(h)
        return None if kind is None else obstacle_chart()[kind]

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
def obstacle_chart() -> Mapping[str, Obstacle]:
    rows = load_data(PACKAGE, "data/terrain.toml")["obstacles"]
    return MappingProxyType({
        name: Obstacle(name, row["title"], MappingProxyType(dict(row["extra_cost"])), tuple(row["impassable"]),
                       tuple(row["ends_move"]))
        for name, row in rows.items()})


def obstacles_of(lines: Sequence[str]) -> tuple[tuple[Hex, str], ...]:
    """A scenario's obstacle pieces, ``"<kind> <hex>"`` each, in map order; at most one a hex (L1)."""
    out: dict[Hex, str] = {}
    for line in lines:
        kind, where = line.split()
        h = parse_hex(where)
        if h is None or kind not in obstacle_chart():
            raise ValueError(f"obstacle {line!r}")
        if h in out:
            raise ValueError(f"obstacle {line!r}: a hex holds one obstacle at most (L1)")
        out[h] = kind
    return tuple(sorted(out.items()))


@data_cache(maxsize=32)
def board_with(name: str, obstacles: tuple[tuple[Hex, str], ...] = ()) -> Board:
    """The map ``name`` with a game's obstacle pieces on it."""
    plain = board(name)
    return replace(plain, obstacles=MappingProxyType(dict(obstacles))) if obstacles else plain


def view_board(view: Mapping[str, Any]) -> Board:
    """The board a seat's view stands on: its map and the obstacles on it (in every view: pieces on
    the map are open to both sides, like the terrain)."""
    return board_with(view["map"], tuple((parse_hex(o["hex"]), o["kind"]) for o in view.get("obstacles", ())))


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
