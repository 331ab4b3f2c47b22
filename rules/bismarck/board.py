"""The Operational Search Map [2.1] as data: hex ids, sea and land, ports, fog, search values, zones.

Hex ids follow the rulebook: row letters A..AH (north to south) then a column number 1..33
(west to east); even rows (A, C, ...) sit half a hex east of odd rows, so K29 touches L30 [8]. Internally a hex also has axial
coordinates for distances (:mod:`pbem.core.hexgrid`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core import hexgrid
from pbem.core.data import data_cache, load_data

PACKAGE = __package__  # "pbem.rules.bismarck" once installed
ROW_NAMES = tuple([chr(65 + i) for i in range(26)] + ["A" + chr(65 + i) for i in range(8)])
HEX_RE = re.compile(r"^([A-Z]{1,2})([0-9]{1,2})$")


def parse_hex(h: str) -> tuple[int, int] | None:
    """(row index, column) of a hex id such as ``U26``, or None if it is not one."""
    m = HEX_RE.match(h.upper())
    if not m or m.group(1) not in ROW_NAMES:
        return None
    return ROW_NAMES.index(m.group(1)), int(m.group(2))


def hex_id(row: int, col: int) -> str:
    return f"{ROW_NAMES[row]}{col}"


def hex_key(h: str) -> tuple[int, int]:
    """Sort key: north to south, then west to east."""
    p = parse_hex(h)
    return p if p else (99, 99)


@dataclass(frozen=True)
class Port:
    hex: str
    name: str
    side: str
    country: str


class Board:
    """The map, loaded from ``data/map.toml``; read-only."""

    def __init__(self, data: dict) -> None:
        self.rows = int(data["rows"])
        self.cols = int(data["cols"])
        terrain = data["terrain"]["rows"]
        self.ids: list[str] = []
        self.sea: frozenset[str]
        sea, land = set(), set()
        for r in range(self.rows):
            for c in range(1, self.cols + 1):
                h = hex_id(r, c)
                self.ids.append(h)
                (land if terrain[r][c - 1] == "#" else sea).add(h)
        self.sea = frozenset(sea)
        self.land = frozenset(land)

        def layer(name: str) -> dict[str, str]:
            rows = data[name]["rows"]
            return {hex_id(r, c): rows[r][c - 1] for r in range(self.rows) for c in range(1, self.cols + 1)
                    if rows[r][c - 1] not in ".#"}

        self.fog = frozenset(layer("fog"))
        self.intrinsic = {"allied": {h: int(v) for h, v in layer("search_allied").items()},
                          "german": {h: int(v) for h, v in layer("search_german").items()}}
        self.sector = frozenset(layer("air_sector"))
        self.eastern = frozenset(layer("eastern_cover"))
        self.convoy = layer("convoy")
        self.dd_area = frozenset(layer("dd_area"))
        self.blocked = frozenset(frozenset(p.split("-")) for p in data["hexsides"]["blocked"])
        self.canal = frozenset(data["canal"]["hexside"].split("-"))
        self.canal_side = data["canal"]["side"]
        self.channel = frozenset(data["channel"]["hexes"])
        self.ports = {p["hex"]: Port(p["hex"], p["name"], p["side"], p["country"]) for p in data["ports"]}

    # geometry -------------------------------------------------------------
    def axial(self, h: str) -> tuple[int, int]:
        cache = self.__dict__.setdefault("_ax", {})
        if h not in cache:
            r, c = parse_hex(h)  # type: ignore[misc]
            cache[h] = (c - 1 - (r + (r & 1)) // 2, r)
        return cache[h]

    def from_axial(self, a: tuple[int, int]) -> str | None:
        q, r = a
        if not 0 <= r < self.rows:
            return None
        c = q + (r + (r & 1)) // 2 + 1
        if not 1 <= c <= self.cols:
            return None
        return hex_id(r, c)

    def exists(self, h: str) -> bool:
        p = parse_hex(h)
        return p is not None and p[0] < self.rows and 1 <= p[1] <= self.cols

    def neighbours(self, h: str) -> list[str]:
        cache = self.__dict__.setdefault("_nb", {})
        if h not in cache:
            out = [self.from_axial(a) for a in hexgrid.neighbours(self.axial(h))]
            cache[h] = sorted((x for x in out if x), key=hex_key)
        return cache[h]

    def distance(self, a: str, b: str) -> int:
        return hexgrid.distance(self.axial(a), self.axial(b))

    def within(self, h: str, k: int) -> list[str]:
        out = [self.from_axial(a) for a in hexgrid.within(self.axial(h), k)]
        return sorted((x for x in out if x), key=hex_key)

    # ships ------------------------------------------------------------------
    def ship_step(self, a: str, b: str, side: str) -> bool:
        """May a ship of ``side`` move from ``a`` to the adjacent ``b`` [2.1, 7.7.2]?"""
        if b not in self.sea or a not in self.sea or self.distance(a, b) != 1:
            return False
        pair = frozenset((a, b))
        if pair in self.blocked:
            return side == self.canal_side and pair == self.canal
        return True

    def sea_neighbours(self, h: str, side: str) -> list[str]:
        cache = self.__dict__.setdefault("_snb", {})
        if (h, side) not in cache:
            cache[(h, side)] = [n for n in self.neighbours(h) if self.ship_step(h, n, side)]
        return cache[(h, side)]

    def sea_distances(self, goal: str, side: str) -> dict[str, int]:
        """Shortest ship distance from every reachable sea hex to ``goal`` (cached)."""
        cache = self.__dict__.setdefault("_sd", {})
        if (goal, side) not in cache:
            dist = {goal: 0}
            frontier = [goal]
            while frontier:
                nxt = []
                for h in frontier:
                    for n in self.sea_neighbours(h, side):
                        if n not in dist:
                            dist[n] = dist[h] + 1
                            nxt.append(n)
                frontier = nxt
            cache[(goal, side)] = dist
        return cache[(goal, side)]

    def route(self, a: str, b: str, side: str, avoid: frozenset[str] = frozenset(),
              allowed: frozenset[str] | None = None) -> list[str] | None:
        """A shortest ship route from ``a`` to ``b`` (excluding ``a``), or None."""
        if a == b:
            return []
        prev = {a: a}
        frontier = [a]
        while frontier:
            nxt = []
            for h in frontier:
                for n in self.sea_neighbours(h, side):
                    if n in prev or n in avoid or (allowed is not None and n not in allowed and n != b):
                        continue
                    prev[n] = h
                    if n == b:
                        path = [b]
                        while prev[path[-1]] != a:
                            path.append(prev[path[-1]])
                        return path[::-1]
                    nxt.append(n)
            frontier = nxt
        return None

    def random_sighting_column(self, h: str) -> str:
        """Column A-D of the Random Sighting Table for a unit in ``h`` (mapping: digest 6.12)."""
        if h in self.sector:
            near = any(self.intrinsic["allied"].get(n, 0) > 0 for n in [h, *self.neighbours(h)])
            return "B" if near else "A"
        return "D" if h in self.convoy else "C"


@data_cache  # one result per game data correction (pbem.core.data)
def board() -> Board:
    return Board(load_data(PACKAGE, "data/map.toml"))
