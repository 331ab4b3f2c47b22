"""The Search Map as one side knows it: own units, contacts, fog, ports and its searched hexes."""
from __future__ import annotations

import math
from functools import lru_cache

from pbem.core.picture import Circle, Picture, Polygon, Text

from .board import board, parse_hex

SIZE = 8.0


def centre(h: str) -> tuple[float, float]:
    r, c = parse_hex(h)  # type: ignore[misc]
    w = math.sqrt(3) * SIZE
    x = 30 + (c - 1) * w + (w / 2 if r % 2 == 0 else 0)
    y = 30 + r * 1.5 * SIZE
    return (x, y)


def corners(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + SIZE * math.cos(math.radians(60 * i - 30)), y + SIZE * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


@lru_cache(maxsize=2)
def base_layer(fog: bool) -> tuple:
    """The map itself: terrain, fog (public weather), convoy lines, ports and labels; the same for both sides."""
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
    for r in range(0, b.rows, 4):
        shapes.append(Text((12, centre(f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[r] if r < 26 else 'A' + chr(65 + r - 26)}1")[1]),
                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r] if r < 26 else "A" + chr(65 + r - 26), size=9))
    for c in range(1, b.cols + 1, 4):
        shapes.append(Text((centre(f"B{c}")[0], 10), str(c), size=9))
    return tuple(shapes)


def picture(view: dict) -> Picture:
    shapes = []
    for h in sorted(view["searched"]):
        x, y = centre(h)
        shapes.append(Polygon(corners(x, y), fill=None, outline="#ff8800", width=2))
    colour = "#c0392b" if view["side"] == "german" else "#1f4e99"
    for u in view["units"]:
        x, y = centre(u["hex"])
        shapes.append(Circle((x, y), 5, fill=colour, outline="#ffffff"))
        shapes.append(Text((x, y - 10), u["id"], color=colour, size=9))
    for a in view["air"]:
        if a["status"] == "aloft" and a["hex"]:
            x, y = centre(a["hex"])
            shapes.append(Text((x, y), "^", color=colour, size=11))
    for c in view["contacts"]:
        x, y = centre(c["hex"])
        shapes.append(Polygon(((x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5)),
                              fill="#ffffff", outline="#000000", width=2 if c["status"] == "shadowed" else 1))
        shapes.append(Text((x, y + 11), c["id"], size=9))
    title = f"{view['side']} search map, {view['turn_name']}, visibility {view['visibility']}"
    return Picture(int(60 + 34 * math.sqrt(3) * SIZE), int(60 + 35 * 1.5 * SIZE), tuple(shapes), "#ffffff", title,
                   base_layer(bool(view["fog"])))
