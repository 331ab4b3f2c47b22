"""The board as a seat knows it: hexes, clouds, river, targets, AA guns and aircraft [R 2.0]."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any
from collections.abc import Mapping

from pbem.core.picture import Circle, Line, Picture, Polygon, Text

from . import board

SIZE = 11.0
MARGIN = 26.0
SIDE_COLOUR = {"de": "#c0392b", "gb": "#1f5fbf"}
ALT_MARK = {"HIGH": "", "LOW": "L", "VLOW": "V"}


def centre(h: tuple[int, int]) -> tuple[float, float]:
    """Flat-topped layout: x = 1.5 s A, y = sqrt(3) s (B - A/2) (digest 2.0)."""
    x = 1.5 * SIZE * h[0]
    y = math.sqrt(3) * SIZE * (h[1] - h[0] / 2)
    return x - 1.5 * SIZE + MARGIN + SIZE, y + MARGIN + SIZE


def corners(c: tuple[float, float], s: float = SIZE) -> tuple[tuple[float, float], ...]:
    return tuple((c[0] + s * math.cos(math.radians(60 * i)), c[1] + s * math.sin(math.radians(60 * i)))
                 for i in range(6))


@lru_cache(maxsize=8)
def base_layer(sun_edge: str) -> tuple[Any, ...]:
    """The static board (terrain and the sun strip), drawn once per sun edge."""
    ter = board.terrain()
    sun = board.sun_hexes(sun_edge)
    shapes = []
    for h in board.all_hexes():
        fill = "#f4f1e6"
        if h in ter.river:
            fill = "#9cc7e8"
        cl = ter.cloud(h)
        if cl == "full":
            fill = "#c9c9c9"
        elif cl == "edge":
            fill = "#e2e2e2"
        if h in sun:
            fill = "#f7dc6f"
        shapes.append(Polygon(corners(centre(h)), fill=fill, outline="#b8b8a8"))
    # coordinates: column numbers on the north edge, oblique-row numbers down the west and east edges [R 2.0]
    for a in range(1, board.COLUMNS + 1, 2):
        c = centre(board.from_row(a, 0))
        shapes.append(Text((c[0], c[1] - SIZE * 1.2), f"A{a:02d}", "#777777", 7))
    for r in range(0, board.ROWS, 3):
        for a in (1, board.COLUMNS):
            h = board.from_row(a, r)
            c = centre(h)
            dx = -SIZE * 1.5 if a == 1 else SIZE * 1.5
            shapes.append(Text((c[0] + dx, c[1]), f"B{h[1]:02d}", "#777777", 7))
    return tuple(shapes)


def draw(view: Mapping[str, Any]) -> Picture:
    ter = board.terrain()
    shapes: list[Any] = []
    targets = {t["hex"]: t for t in view["targets"]}
    for oid, h in ter.objects:
        name = board.fmt(h)
        t = targets.get(name)
        colour = "#7d3c98" if t else "#999999"
        shapes.append(Polygon(corners(centre(h), SIZE * 0.7), fill=None, outline=colour, width=2))
        label = oid + ("*" if (t and t["bombed"]) or oid in view["objects_bombed"] else "")
        shapes.append(Text((centre(h)[0], centre(h)[1] + SIZE * 0.9), label, colour, 8))
    for g in view["own_guns"] + view.get("ally_guns", []) + view["enemy_guns"]:
        c = centre(board.parse_hex(g["hex"]))  # type: ignore[arg-type]
        shapes.append(Polygon(((c[0] - 4, c[1] + 4), (c[0] + 4, c[1] + 4), (c[0], c[1] - 4)),
                              fill="#555555" if not g["destroyed"] else "#dddddd", outline="#000000"))
    for p in view["planes"]:
        h = board.parse_hex(p["hex"])
        c = centre(h)  # type: ignore[arg-type]
        off = {"HIGH": (0.0, 0.0), "LOW": (-3.0, 3.0), "VLOW": (3.0, 3.0)}[p["alt"]]
        c = (c[0] + off[0], c[1] + off[1])
        colour = SIDE_COLOUR[p["side"]]
        shapes.append(Circle(c, SIZE * 0.45, fill=colour if not p["damaged"] else "#ffffff", outline=colour, width=2))
        nxt = centre(board.step(h, p["facing"]))  # type: ignore[arg-type]
        base = centre(h)  # type: ignore[arg-type]
        tip = (c[0] + (nxt[0] - base[0]) * 0.6, c[1] + (nxt[1] - base[1]) * 0.6)
        shapes.append(Line((c, tip), colour, 2, arrow=True))
        tag = p["id"].replace("-", "") + ALT_MARK[p["alt"]]
        shapes.append(Text((c[0], c[1] - SIZE * 0.8), tag, "#000000", 7))
    w = int(1.5 * SIZE * board.COLUMNS + 2 * MARGIN + SIZE)
    hgt = int(math.sqrt(3) * SIZE * (board.ROWS + 1) + 2 * MARGIN + SIZE + 12)
    shapes.append(Text((MARGIN, hgt - 8), "red = German, blue = British; hollow = damaged; tag suffix L = low, "
                       "V = very low (none = high); arrow = facing; triangles = AA guns; yellow = sun; "
                       "purple hexagons = targets (* bombed)", "#444444", 8, "la"))
    title = f"Lew Morski {view['scenario']} stage {view['stage']} as seen by {view['seat']} (sun {view['sun']})"
    return Picture(w, hgt, tuple(shapes), "#ffffff", title, base_layer(view["sun"]))
