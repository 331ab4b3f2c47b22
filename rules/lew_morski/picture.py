"""The board as a seat knows it: hexes, clouds, river, targets, AA guns and aircraft [R 2.0].

A hex is named by its column A and its oblique row B.  Every column is numbered above and below the
board and every oblique row where it meets the west or east edge; because an oblique row is hard to
follow across the board, every seventh column also carries the B number inside each of its hexes, as
do the hexes where an oblique row meets the north or south edge, so any hex is at most three columns
from a printed B of its own row.  Aircraft labels say the name, the altitude and the
facing in words, one block per hex, placed so that no two overlap (``pbem.core.labels``); a large
formation is tagged "group n" on the map and its aircraft listed under the board, each with its hex.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pbem.core.data import data_cache
from pbem.core.labels import Box, Label, Occupancy, circle_box, columns, place, points_box, text_box
from pbem.core.legend import Key, legend
from pbem.core.picture import TITLE_BAND, Circle, Line, Picture, Polygon, Shape, Text

from . import board

#: Hex radius in pixels.  13 gives hexes 26 px across, room for a "B17" inside a hex and a column
#: number above each column at a size that still reads; the board is about 900 px wide, a desktop
#: window at natural size and a phone screen at two zoom steps.
SIZE = 13.0
MARGIN = 30.0  # room for the B numbers outside the west and east edges
TOP = TITLE_BAND + 14.0  # the title, then the column numbers
CROWD = 4  # a formation of this many aircraft is tagged on the map and listed under it
LINK = 2  # aircraft of one side this many hexes apart or closer belong to one formation
RULER_EVERY = 7  # columns A07, A14, ... print B in every hex; wide enough apart for aircraft labels between
SIDE_COLOUR = {"de": "#c0392b", "gb": "#1f5fbf"}
SIDE_NAME = {"de": "German", "gb": "British"}
ALT_WORD = {"HIGH": "high", "LOW": "low", "VLOW": "very low"}
COORD = "#666666"


def centre(h: tuple[int, int]) -> tuple[float, float]:
    """Flat-topped layout: x = 1.5 s A, y = sqrt(3) s (B - A/2) (digest 2.0)."""
    x = 1.5 * SIZE * (h[0] - 1) + MARGIN + SIZE
    y = math.sqrt(3) * SIZE * (h[1] - math.ceil(h[0] / 2) + (0.5 if h[0] % 2 else 0.0)) + TOP + SIZE
    return x, y


def corners(c: tuple[float, float], s: float = SIZE) -> tuple[tuple[float, float], ...]:
    return tuple((c[0] + s * math.cos(math.radians(60 * i)), c[1] + s * math.sin(math.radians(60 * i)))
                 for i in range(6))


def map_size() -> tuple[float, float]:
    """Canvas width and the bottom of the board with its column numbers (the legend goes below)."""
    w = 1.5 * SIZE * (board.COLUMNS - 1) + 2 * SIZE + 2 * MARGIN
    return w, TOP + SIZE + math.sqrt(3) * SIZE * (board.ROWS + 0.5) + 14


def _coordinates() -> list[Shape]:
    """Column names above and below, B numbers outside both edges and inside the ruler columns."""
    out: list[Shape] = []
    _, bottom = map_size()
    for a in range(1, board.COLUMNS + 1):
        top_hex, low_hex = centre(board.from_row(a, 0)), centre(board.from_row(a, board.ROWS - 1))
        out.append(Text((top_hex[0], TOP - 6), f"A{a:02d}", COORD, 8))
        out.append(Text((low_hex[0], bottom - 8), f"A{a:02d}", COORD, 8))
    for r in range(board.ROWS):
        for a, dx in ((1, -SIZE - MARGIN / 2), (board.COLUMNS, SIZE + MARGIN / 2)):
            h = board.from_row(a, r)
            c = centre(h)
            out.append(Text((c[0] + dx, c[1]), f"B{h[1]:02d}", COORD, 8))
        for a in range(RULER_EVERY, board.COLUMNS, RULER_EVERY):
            h = board.from_row(a, r)
            out.append(Text(centre(h), f"B{h[1]:02d}", "#8a8a7a", 7))
    # oblique rows that meet the north or south edge: their B in the edge hex where each one starts
    for a in range(1, board.COLUMNS + 1):
        if a % RULER_EVERY:
            h = board.from_row(a, 0 if a % 2 else board.ROWS - 1)
            out.append(Text(centre(h), f"B{h[1]:02d}", "#8a8a7a", 7))
    return out


@data_cache(maxsize=8)  # one board per game data correction
def base_layer(sun_edge: str) -> tuple[Any, ...]:
    """The static board (terrain, the sun strip and the coordinates), drawn once per sun edge."""
    ter = board.terrain()
    sun = board.sun_hexes(sun_edge)
    shapes: list[Shape] = []
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
    return tuple(shapes + _coordinates())


@data_cache(maxsize=8)  # one board per game data correction
def _fixed_obstacles(sun_edge: str) -> Occupancy:
    """What no label may cover on any picture: the title band and the board's own coordinates."""
    width, _ = map_size()
    return Occupancy([text_box(t) for t in base_layer(sun_edge) if isinstance(t, Text)] + [Box(0, 0, width, TITLE_BAND)])


def _legend_keys() -> list[Key]:
    return [Key("dot", "German aircraft", SIDE_COLOUR["de"]), Key("dot", "British aircraft", SIDE_COLOUR["gb"]),
            Key("ring", "damaged (dmg)", "#000000", "#ffffff", 2), Key("arrow", "facing", "#000000", width=2),
            Key("triangle", "AA gun", "#000000", "#555555"), Key("triangle", "AA gun destroyed", "#000000", "#dddddd"),
            Key("hex", "target (* bombed)", "#7d3c98", None, 2), Key("hex", "other object", "#999999", None, 2),
            Key("hex", "sun", "#b8b8a8", "#f7dc6f"), Key("hex", "cloud", "#b8b8a8", "#c9c9c9"),
            Key("hex", "cloud edge", "#b8b8a8", "#e2e2e2"), Key("hex", "river", "#b8b8a8", "#9cc7e8")]


def _objects(view: Mapping[str, Any]) -> tuple[list[Shape], list[Box], list[Label]]:
    ter = board.terrain()
    shapes: list[Shape] = []
    boxes: list[Box] = []
    labels = []
    targets = {t["hex"]: t for t in view["targets"]}
    for oid, h in ter.objects:
        t = targets.get(board.fmt(h))
        colour = "#7d3c98" if t else "#999999"
        ring = corners(centre(h), SIZE * 0.7)
        shapes.append(Polygon(ring, fill=None, outline=colour, width=2))
        boxes.append(points_box(ring))
        label = oid + ("*" if (t and t["bombed"]) or oid in view["objects_bombed"] else "")
        labels.append(Label(centre(h), (label,), colour, 8, gap=SIZE * 0.7))
    for g in view["own_guns"] + view.get("ally_guns", []) + view["enemy_guns"]:
        c = centre(board.parse_hex(g["hex"]))  # type: ignore[arg-type]
        tri = ((c[0] - 4, c[1] + 4), (c[0] + 4, c[1] + 4), (c[0], c[1] - 4))
        shapes.append(Polygon(tri, fill="#555555" if not g["destroyed"] else "#dddddd", outline="#000000"))
        boxes.append(points_box(tri))
    return shapes, boxes, labels


def _groups(planes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Aircraft of one side chained at most LINK hexes apart (a formation), in board order."""
    parent = list(range(len(planes)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    hexes = [board.parse_hex(p["hex"]) for p in planes]
    for i, p in enumerate(planes):
        for j in range(i):
            if p["side"] == planes[j]["side"] and board.distance(hexes[i], hexes[j]) <= LINK:  # type: ignore[arg-type]
                parent[root(i)] = root(j)
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for i, p in enumerate(planes):
        groups[root(i)].append(p)
    return [sorted(g, key=lambda p: (p["hex"], p["id"])) for _, g in sorted(groups.items())]


def _plane_mark(p: dict[str, Any]) -> tuple[tuple[float, float], list[Shape], list[Box]]:
    h = board.parse_hex(p["hex"])
    base = centre(h)  # type: ignore[arg-type]
    # several aircraft in one hex (different altitudes) sit side by side
    off = {"HIGH": (0.0, 0.0), "LOW": (-4.0, 4.0), "VLOW": (4.0, 4.0)}[p["alt"]]
    c = (base[0] + off[0], base[1] + off[1])
    colour = SIDE_COLOUR[p["side"]]
    r = SIZE * 0.42
    nxt = centre(board.step(h, p["facing"]))  # type: ignore[arg-type]
    tip = (c[0] + (nxt[0] - base[0]) * 0.6, c[1] + (nxt[1] - base[1]) * 0.6)
    shapes: list[Shape] = [Circle(c, r, fill=colour if not p["damaged"] else "#ffffff", outline=colour, width=2),
                           Line((c, tip), colour, 2, arrow=True)]
    return c, shapes, [circle_box(c, r), points_box((c, tip)).grow(2)]


def _state(p: dict[str, Any]) -> str:
    return f"{ALT_WORD[p['alt']]} {p['facing']}" + (" dmg" if p["damaged"] else "")


def _planes(view: Mapping[str, Any]) -> tuple[list[Shape], list[Box], list[Label], list[tuple[str, list[str]]]]:
    """Marks, their boxes, labels, and the lists of formations too crowded to label one by one.

    A lone aircraft (or two or three close together) gets its name, altitude and facing next to it.
    A formation of ``CROWD`` or more gets one tag on the map, "group n", and its aircraft are listed
    under the board with their hexes: a dozen labels with crossing leader lines read worse than a list.
    """
    shapes: list[Shape] = []
    boxes: list[Box] = []
    labels: list[Label] = []
    roster: list[tuple[str, list[str]]] = []
    for group in _groups(list(view["planes"])):
        colour = SIDE_COLOUR[group[0]["side"]]
        marks = []
        for p in group:
            c, s, b = _plane_mark(p)
            marks.append(c)
            shapes += s
            boxes += b
        if len(group) >= CROWD:
            n = len(roster) + 1
            mid = (sum(c[0] for c in marks) / len(marks), sum(c[1] for c in marks) / len(marks))
            reach = max(math.dist(mid, c) for c in marks) + SIZE * 0.6
            labels.append(Label(mid, (f"group {n}",), colour, 10, gap=reach))
            roster.append((f"group {n} ({SIDE_NAME[group[0]['side']]}):",
                           [f"{p['id']}  {p['hex']}  {_state(p)}" for p in group]))
            continue
        by_hex: dict[str, list[str]] = defaultdict(list)
        for p in group:
            by_hex[p["hex"]] += [p["id"], _state(p)]  # short lines: a block fits between the ruler columns
        labels += [Label(centre(board.parse_hex(h)), tuple(ls), colour, 9, gap=SIZE * 0.8)  # type: ignore[arg-type]
                   for h, ls in sorted(by_hex.items())]
    return shapes, boxes, labels, roster


def draw(view: Mapping[str, Any]) -> Picture:
    width, bottom = map_size()
    obj_shapes, obj_boxes, obj_labels = _objects(view)
    plane_shapes, plane_boxes, plane_labels, roster = _planes(view)
    base = base_layer(view["sun"])
    taken = _fixed_obstacles(view["sun"]).copy()
    for b in obj_boxes + plane_boxes:
        taken.add(b)
    # aircraft first: they are what a player plans with, so they get the places nearest their marks
    labels = place(plane_labels + obj_labels, Box(0, TITLE_BAND, width, bottom), taken)
    lists, lists_h = columns(roster, 10, bottom + 4, width - 20, 9)
    keys, legend_h = legend(_legend_keys(), 10, bottom + 4 + lists_h, width - 20, 10)
    title = f"Lew Morski {view['scenario']} stage {view['stage']} as seen by {view['seat']} (sun {view['sun']})"
    return Picture(int(width), int(bottom + lists_h + legend_h + 10),
                   tuple(obj_shapes + plane_shapes) + labels + lists + keys, "#ffffff", title, base)
