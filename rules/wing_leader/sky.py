"""The side-view map and its weather: squares, line of sight, clouds, haze, rain and the sun [2.2, 4].

A square is ``(column, altitude)`` with column 0 = A at the left edge and altitude 0 at the ground
(AMB-1).  The kit's square grid counts y down the page, so :func:`cell` turns a square into
``(column, -altitude)``: heading N is then a vertical climb and E level flight to the right.
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.core import squaregrid as grid

from .tables import tables

Square = tuple[int, int]
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
HEADINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: One step of each heading as (columns, altitudes): N climbs, E flies level to the right.
VECTORS_UP = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
CLOUDS = ("wispy", "broken", "dense")


def name(sq: Square) -> str:
    """``(2, 15)`` -> ``"C15"``; off-map columns are written ``<A`` and ``>Z``."""
    col, alt = sq
    letter = COLUMNS[col] if 0 <= col < len(COLUMNS) else ("<A" if col < 0 else ">Z")
    return f"{letter}{alt}"


def parse(text: str) -> Square:
    """``"G13"`` -> ``(6, 13)`` [2.2].  :raises ValueError: not a square of the map."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in COLUMNS or not t[1:].isdigit() or int(t[1:]) >= tables()["map"]["altitudes"]:
        raise ValueError(f"{text!r} is not a square (A0 to Z19)")
    return (COLUMNS.index(t[0]), int(t[1:]))


def on_map(sq: Square) -> bool:
    m = tables()["map"]
    return 0 <= sq[0] < m["columns"] and 0 <= sq[1] < m["altitudes"]


def cell(sq: Square) -> grid.Cell:
    return (sq[0], -sq[1])


def square(c: grid.Cell) -> Square:
    return (c[0], -c[1])


def step(sq: Square, heading: int) -> Square:
    return square(grid.step(cell(sq), heading))


def heading_to(a: Square, b: Square) -> int | None:
    """The heading of the straight line from ``a`` through ``b``, None if there is none."""
    h = grid.heading_to(cell(a), cell(b))
    return None if h is None else int(h)


def distance(a: Square, b: Square) -> int:
    """Squares between two squares counting diagonal steps; the same square is 0 [1.1, 7.2.1]."""
    return grid.chebyshev(cell(a), cell(b))


def behind(heading: int, at: Square, other: Square) -> bool:
    """Whether ``other`` is behind a squadron at ``at`` [8.1.2]: the diagram is lost (GAP-3); we use the
    90-degree cone astern."""
    return grid.aspect(heading, cell(at), cell(other)) == grid.Aspect.REAR


def front_squares(at: Square, heading: int) -> tuple[Square, ...]:
    """The three squares ahead of a squadron [7.2.3, 10.3]."""
    return tuple(square(c) for c in grid.front_cells(cell(at), heading))


@dataclass(frozen=True)
class Sight:
    """A line of sight: whether clouds block it [4.6.1] and its weather modifier [4.7] (0 if none)."""

    blocked: bool
    weather: int


@dataclass(frozen=True)
class Sky:
    """The scenario's weather: cloud squares, the haze top (-1 = none), rain, and the sun sector [4]."""

    clouds: tuple[tuple[Square, str], ...] = ()
    haze: int = -1
    rain: bool = False
    sun: str = ""
    rain_reading: str = "below"   # option rain_reading (AMB-4): "below" a dense square, or "layer"
    rain_sight: str = "broken"    # option rain_sight (AMB-5): rain blocks sight as broken cloud, or "clear"

    def cloud(self, sq: Square) -> str:
        for where, kind in self.clouds:
            if where == sq:
                return kind
        return "rain" if self.raining(sq) else ""

    def raining(self, sq: Square) -> bool:
        """Rain falls under dense cloud [4.5.1]; we read "beneath the lowest layer" as the squares
        directly below a dense square of the same column (AMB-4, reading b; option ``rain_reading = layer``:
        every square below the lowest dense cloud on the map, reading a)."""
        dense = [w for w, k in self.clouds if k == "dense"]
        if not self.rain or not dense:
            return False
        if self.rain_reading == "layer":
            return sq[1] < min(w[1] for w in dense)
        return any(w[0] == sq[0] and w[1] > sq[1] for w in dense)

    def _blocking(self, kinds: list[str]) -> bool:
        """A dense square, or two broken ones (rain as broken cloud: AMB-5; option ``rain_sight = clear``:
        rain does not block) [4.5.1, 4.6.1]."""
        hiding = ("broken", "rain") if self.rain_sight == "broken" else ("broken",)
        return "dense" in kinds or sum(k in hiding for k in kinds) >= 2

    def weather_at(self, sq: Square) -> int:
        """The worst weather modifier of one square; modifiers are not cumulative [4.7]."""
        w = tables()["weather"]
        values = [w[self.cloud(sq)]] if self.cloud(sq) else []
        if sq[1] <= self.haze:
            values.append(w["haze"])
        return max(values, default=0)

    def sight(self, a: Square, b: Square) -> Sight:
        """Trace the line between the square centres [4.6.1]: a square met only at a corner does not count;
        the line may enter one dense or two broken squares, squares beyond are hidden.  Only the squares
        between the ends block, so sight is reciprocal (AMB-2)."""
        path = grid.line(cell(a), cell(b))
        between = [square(c) for c in path[1:-1]]
        kinds = [self.cloud(s) for s in between]
        blocked = self._blocking(kinds)
        return Sight(blocked, max(self.weather_at(square(c)) for c in path))

    def up_sun(self, at: Square, target: Square) -> bool:
        """Whether ``target`` is up-sun of a squadron at ``at`` [4.2, 4.6.2]: it lies in the scenario's sun
        sector, and the line extended beyond it to the map edge is not blocked (AMB-33: a dense square or
        two broken ones anywhere beyond ``at`` hide the sun)."""
        if not self.sun or at == target:
            return False
        sector = tables()["sun_sectors"][self.sun]
        if grid.nearest_heading(cell(at), cell(target)) != HEADINGS.index(sector):
            return False
        far = _edge_point(at, target)
        kinds = [self.cloud(square(c)) for c in grid.line(cell(at), cell(far))[1:]]
        return not self._blocking(kinds)


def _edge_point(at: Square, target: Square) -> Square:
    """The last square on the map along the ray from ``at`` through ``target`` in whole multiples."""
    dx, dy = target[0] - at[0], target[1] - at[1]
    k = 1
    while on_map((at[0] + (k + 1) * dx, at[1] + (k + 1) * dy)):
        k += 1
    return (at[0] + k * dx, at[1] + k * dy)


def sky_of(scenario: dict, rain_reading: str = "below", rain_sight: str = "broken") -> Sky:
    """The Sky of a scenario; a cloud entry "J6", "M6" fills the rectangle between them (AMB-26); the
    readings of rain are the game's options (AMB-4, AMB-5)."""
    clouds: list[tuple[Square, str]] = []
    for first, last, kind in scenario.get("clouds", ()):
        (c0, a0), (c1, a1) = parse(first), parse(last)
        for col in range(min(c0, c1), max(c0, c1) + 1):
            for alt in range(min(a0, a1), max(a0, a1) + 1):
                clouds.append(((col, alt), kind))
    return Sky(tuple(clouds), scenario.get("haze", -1), bool(scenario.get("rain")), scenario.get("sun", ""),
               rain_reading, rain_sight)
