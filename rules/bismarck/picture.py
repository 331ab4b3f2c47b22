"""The Search Map as one side knows it: own units, contacts, fog, ports and its searched hexes.

Every hex can be named from the picture: row letters run down both sides and column numbers along
the top and the bottom, and each unit's label starts with its hex.  Labels are placed so that none
overlaps another (``pbem.core.labels``), with a thin line back to the hex when one had to move.
"""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from pbem.core.data import data_cache
from pbem.core.labels import Box, Label, Occupancy, circle_box, place, points_box, text_box
from pbem.core.legend import Key, legend
from pbem.core.picture import TITLE_BAND, Circle, Picture, Polygon, Shape, Text

from .board import ROW_NAMES, board, hex_key, parse_hex

#: Hex radius in pixels.  At 10 a hex is 17 px across, the whole map about 640 px wide: one screen
#: on a desktop, and the width a phone shows at its natural scale without the text turning to dust.
SIZE = 10.0
HEX_W = math.sqrt(3) * SIZE
LEFT = 30.0  # room for the row letters
TOP = TITLE_BAND + 16 + SIZE  # the title, then the column numbers, then the first row's centre
COORD = "#55606e"
SIDE_COLOUR = {"german": "#c0392b", "allied": "#1f4e99"}


def centre(h: str) -> tuple[float, float]:
    r, c = parse_hex(h)  # type: ignore[misc]
    x = LEFT + (c - 1) * HEX_W + HEX_W / 2 + (HEX_W / 2 if r % 2 == 0 else 0)
    y = TOP + r * 1.5 * SIZE
    return (x, y)


def corners(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + SIZE * math.cos(math.radians(60 * i - 30)), y + SIZE * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


def map_size() -> tuple[float, float]:
    """Width of the canvas and the bottom of the map (the legend goes below)."""
    b = board()
    return LEFT * 2 + (b.cols + 0.5) * HEX_W, TOP + (b.rows - 1) * 1.5 * SIZE + SIZE + 18


def _coordinates() -> list[Shape]:
    """Row letters on both sides of every row, column numbers above and below every column."""
    b = board()
    width, bottom = map_size()
    out: list[Shape] = []
    for r in range(b.rows):
        y = centre(f"{ROW_NAMES[r]}1")[1]
        out.append(Text((LEFT / 2, y), ROW_NAMES[r], COORD, 9))
        out.append(Text((width - LEFT / 2, y), ROW_NAMES[r], COORD, 9))
    for c in range(1, b.cols + 1):
        out.append(Text((centre(f"A{c}")[0], TOP - SIZE - 7), str(c), COORD, 9))
        out.append(Text((centre(f"{ROW_NAMES[b.rows - 1]}{c}")[0], bottom - 9), str(c), COORD, 9))
    return out


@data_cache(maxsize=2)  # one board per game data correction
def base_layer(fog: bool) -> tuple:
    """The map itself: terrain, fog (public weather), convoy lines, ports and coordinates; the same for both sides."""
    b = board()
    shapes: list = []
    for h in b.ids:
        x, y = centre(h)
        if h in b.land:
            fill = "#d8cfae"
        elif fog and h in b.fog:
            fill = "#b8bec4"
        else:
            fill = "#cfe3f3" if h not in b.convoy else "#bcd6ee"
        shapes.append(Polygon(corners(x, y), fill=fill, outline="#9fb3c8"))
    for h, _p in sorted(b.ports.items()):
        x, y = centre(h)
        shapes.append(Circle((x, y), 2.5, fill="#000000"))
    return tuple(shapes + _coordinates())


@data_cache(maxsize=1)  # one board per game data correction
def _fixed_obstacles() -> Occupancy:
    """What no label may cover on any picture: the title band and the coordinates (the same with or without fog)."""
    width, _ = map_size()
    return Occupancy([text_box(t) for t in _coordinates()] + [Box(0, 0, width, TITLE_BAND)])


def _legend_keys(side: str) -> list[Key]:
    colour = SIDE_COLOUR.get(side, "#000000")
    return [Key("dot", f"your unit ({side})", colour, width=1), Key("square", "enemy contact", "#000000", "#ffffff"),
            Key("square", "shadowed contact", "#000000", "#ffffff", 2), Key("triangle", "aircraft aloft", colour, colour),
            Key("hex", "searched by you", "#ff8800", None, 2), Key("dot", "port", "#000000"),
            Key("hex", "sea", "#9fb3c8", "#cfe3f3"), Key("hex", "convoy route", "#9fb3c8", "#bcd6ee"),
            Key("hex", "fog hex (fog on)", "#9fb3c8", "#b8bec4"), Key("hex", "land", "#9fb3c8", "#d8cfae")]


def _marks(view: dict[str, Any], colour: str) -> tuple[list[Shape], list[Box]]:
    """Unit dots, aircraft and contact squares, and the boxes labels must keep clear of."""
    shapes: list[Shape] = []
    boxes: list[Box] = []
    for u in view["units"]:
        c = centre(u["hex"])
        shapes.append(Circle(c, 5, fill=colour, outline="#ffffff"))
        boxes.append(circle_box(c, 5))
    for a in view["air"]:
        if a["status"] == "aloft" and a["hex"]:
            x, y = centre(a["hex"])
            tri = ((x + 2, y - 1), (x + 9, y - 1), (x + 5.5, y - 8))
            shapes.append(Polygon(tri, fill=colour, outline="#ffffff"))
            boxes.append(points_box(tri))
    for c in view["contacts"]:
        x, y = centre(c["hex"])
        sq = ((x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5))
        shapes.append(Polygon(sq, fill="#ffffff", outline="#000000", width=2 if c["status"] == "shadowed" else 1))
        boxes.append(points_box(sq))
    return shapes, boxes


def _labels(view: dict[str, Any], colour: str) -> list[Label]:
    """One block per hex and owner: the hex name first, then each unit (a task force with its ships)."""
    own: dict[str, list[str]] = defaultdict(list)
    for u in view["units"]:
        ships = [s for s in u.get("ships", ()) if s != u["id"]]
        own[u["hex"]].append(u["id"] + (f" ({', '.join(ships)})" if ships else ""))
    for a in view["air"]:
        if a["status"] == "aloft" and a["hex"]:
            own[a["hex"]].append(f"{a['id']} (air)")
    seen: dict[str, list[str]] = defaultdict(list)
    for c in view["contacts"]:
        seen[c["hex"]].append(f"{c['id']} {c['status']}")
    out = []
    for hexes, col in ((own, colour), (seen, "#000000")):
        for h in sorted(hexes, key=hex_key):
            lines = hexes[h]
            out.append(Label(centre(h), (f"{h}: {lines[0]}", *lines[1:]), col, 9, gap=6))
    return out


def picture(view: dict[str, Any]) -> Picture:
    width, bottom = map_size()
    shapes: list[Shape] = []
    for h in sorted(view["searched"]):
        x, y = centre(h)
        shapes.append(Polygon(corners(x, y), fill=None, outline="#ff8800", width=2))
    colour = SIDE_COLOUR.get(view["side"], "#000000")
    marks, boxes = _marks(view, colour)
    shapes += marks
    keys, legend_h = legend(_legend_keys(view["side"]), 10, bottom + 4, width - 20, 10)
    height = int(bottom + legend_h + 10)
    base = base_layer(bool(view["fog"]))
    title = f"{view['side']} search map, {view['turn_name']}, visibility {view['visibility']}"
    taken = _fixed_obstacles().copy()
    for b in boxes:
        taken.add(b)
    shapes += place(_labels(view, colour), Box(0, TITLE_BAND, width, bottom), taken)
    return Picture(int(width), height, tuple(shapes) + keys, "#ffffff", title, base)
