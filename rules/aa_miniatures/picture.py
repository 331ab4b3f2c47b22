"""The map picture: terrain, hedges and cliffs, hex names; units with facing wedges, state markers,
face-down marker counts and overwatch rows (everything in the seat's view; in fog,
the last-known positions of enemies out of sight are drawn greyed)."""
from __future__ import annotations

from math import cos, radians, sin, sqrt

from pbem.core.data import data_cache
from pbem.core.hexgrid import NAMES, Hex, step
from pbem.core.picture import Circle, Line, Picture, Polygon, Shape, Text
from pbem.core.verbs import View

from .board import board, hex_name, parse_hex

SIZE = 22
MARGIN = 30
FILL = {"clear": "#e8efd8", "forest": "#7fa86a", "town": "#c9b8a6", "hill": "#d8c27a", "marsh": "#a9c7c2",
        "craters": "#c7c0b5"}
SIDE = {"allies": "#2f5fa8", "axis": "#555555"}
EDGE = {"hedge": ("#2e6b2e", 4), "cliff": ("#6b4a2e", 5)}


@data_cache(maxsize=8)
def _origin(name: str) -> tuple[float, float]:
    points = [_raw(h) for h in board(name).hexes]
    return MARGIN - min(x for x, _ in points), MARGIN - min(y for _, y in points)


def _raw(h: Hex) -> tuple[float, float]:
    return SIZE * 1.5 * h[0], SIZE * sqrt(3) * (h[1] + h[0] / 2)


def centre(name: str, h: Hex) -> tuple[float, float]:
    ox, oy = _origin(name)
    x, y = _raw(h)
    return round(x + ox, 1), round(y + oy, 1)


def _corner(c: tuple[float, float], degrees: float, scale: float = 1.0) -> tuple[float, float]:
    return round(c[0] + SIZE * scale * cos(radians(degrees)), 1), round(c[1] + SIZE * scale * sin(radians(degrees)), 1)


@data_cache(maxsize=8)
def _base(name: str) -> tuple[Shape, ...]:
    """The board, the same for every reader: terrain, hexsides, hex names."""
    m = board(name)
    shapes: list[Shape] = []
    for h, kind in sorted(m.hexes.items()):
        c = centre(name, h)
        shapes.append(Polygon(tuple(_corner(c, 60 * i) for i in range(6)), fill=FILL[kind], outline="#999999"))
        shapes.append(Text((c[0], c[1] + SIZE * 0.6), hex_name(h), color="#666666", size=8))
    for (a, b), kind in sorted(m.sides.items()):
        d = next(i for i in range(6) if step(a, i) == b)
        facing = -90 + 60 * d
        c = centre(name, a)
        colour, width = EDGE[kind]
        shapes.append(Line((_corner(c, facing - 30), _corner(c, facing + 30)), color=colour, width=width))
    return tuple(shapes)


def _unit(view: View, u: dict) -> list[Shape]:
    h = parse_hex(u["hex"])
    assert h is not None
    c = centre(view["map"], h)
    d = NAMES.index(u["facing"])
    out: list[Shape] = [Circle(c, SIZE * 0.45, fill=SIDE[u["side"]]),
                        Line((c, _corner(c, -90 + 60 * d, 0.75)), color="#ffffff", width=3)]
    if u["overwatch"] is not None:
        o = NAMES.index(u["overwatch"])
        out.append(Line((c, centre(view["map"], step(h, o, 3))), color="#c03030", width=1, arrow=True))
    state = ("D" if u["disrupted"] else "") + ("R" if u["damaged"] else "") + ("+" * len(u["pending"]))
    out.append(Text((c[0], c[1] - SIZE * 0.05), u["id"][:3], color="#ffffff", size=8))
    if state:
        out.append(Text((c[0] + SIZE * 0.5, c[1] - SIZE * 0.5), state, color="#b00000", size=9))
    return out


def _glimpse(view: View, g: dict) -> list[Shape]:
    """In fog, an enemy out of sight where it was last seen: a grey ring, its facing, and the turn."""
    h = parse_hex(g["hex"])
    assert h is not None
    c = centre(view["map"], h)
    d = NAMES.index(g["facing"])
    return [Circle(c, SIZE * 0.45, fill="#d0d0d0", outline=SIDE[g["side"]]),
            Line((c, _corner(c, -90 + 60 * d, 0.75)), color="#999999", width=2),
            Text((c[0], c[1] - SIZE * 0.05), g["id"][:3], color="#777777", size=8),
            Text((c[0] + SIZE * 0.5, c[1] - SIZE * 0.5), f"t{g['turn']}", color="#777777", size=8)]


def _obstacle(view: View, o: dict) -> list[Shape]:
    """An obstacle piece: a brown cross-hatch mark (x: barbed wire, #: dragon's teeth) at the hex's top."""
    h = parse_hex(o["hex"])
    assert h is not None
    c = centre(view["map"], h)
    return [Text((c[0], c[1] - SIZE * 0.62), "#" if o["kind"] == "teeth" else "x", color="#7a4a10", size=10)]


def picture(view: View) -> Picture:
    """D: Disrupted, R: Damaged (red), +: a face-down marker; the red arrow is an overwatch row; in fog,
    grey rings are enemies out of sight where last seen, with the turn (t3)."""
    base = _base(view["map"])
    m = board(view["map"])
    far = [centre(view["map"], h) for h in m.hexes]
    width = int(max(x for x, _ in far) + MARGIN)
    height = int(max(y for _, y in far) + MARGIN)
    shapes = [s for o in view.get("obstacles", ()) for s in _obstacle(view, o)]
    shapes += [s for g in view.get("last_known", ()) for s in _glimpse(view, g)]
    shapes += [s for u in view["units"] for s in _unit(view, u)]
    return Picture(width, height, tuple(shapes), title=f"{view['scenario']}, turn {view['turn']}", base=base)
