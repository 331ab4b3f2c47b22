"""The map picture: terrain, hedges and cliffs, every hex's name and the objectives; units as discs of
their side's colour with a facing wedge, a yellow rim when Disrupted, a red centre when Damaged and a
black square per face-down hit marker; overwatch rows as red arrows; obstacle pieces as a brown x or #; in fog, enemies out of sight grey
where they were last seen.  Each hex's units are named in a label block placed where it covers no
other text (:func:`pbem.core.labels.place`), and a legend under the map says what each mark means."""
from __future__ import annotations

from collections import defaultdict
from math import cos, radians, sin, sqrt
from typing import Any

from pbem.core.data import data_cache
from pbem.core.hexgrid import NAMES, Hex, step
from pbem.core.labels import Box, Label, Occupancy, circle_box, place, points_box, text_box
from pbem.core.legend import Key, legend
from pbem.core.picture import TITLE_BAND, Circle, Line, Picture, Polygon, Shape, Text
from pbem.core.verbs import View

from .board import board, hex_name, parse_hex
from .tables import BANDS, cards, tables

SIZE = 34
MARGIN = 44  # room beyond the outer hexes for labels of units on the edge
FILL = {"clear": "#e8efd8", "forest": "#7fa86a", "town": "#c9b8a6", "hill": "#d8c27a", "marsh": "#a9c7c2",
        "craters": "#c7c0b5"}
SIDE = {"allies": "#2f5fa8", "axis": "#555555"}
EDGE = {"hedge": ("#2e6b2e", 4), "cliff": ("#6b4a2e", 5)}
GREY = "#d0d0d0"
DISRUPTED = "#e0b000"
DAMAGED = "#c00000"
ROW = "#c03030"
OBJECTIVE = "#d4a017"
NAME_COLOUR = "#666666"
OBSTACLE = "#7a4a10"
#: Where the units sharing a hex sit, as offsets from its centre in hex sizes, by how many there are.
SLOTS = {1: ((0.0, -0.1),), 2: ((-0.32, -0.1), (0.32, -0.1)), 3: ((-0.54, -0.1), (0.0, -0.1), (0.54, -0.1)),
         4: ((-0.32, -0.4), (0.32, -0.4), (-0.32, 0.14), (0.32, 0.14))}
CROWDED = ((-0.54, -0.4), (0.0, -0.4), (0.54, -0.4), (-0.54, 0.14), (0.0, 0.14), (0.54, 0.14))


@data_cache(maxsize=8)
def _origin(name: str) -> tuple[float, float]:
    points = [_raw(h) for h in board(name).hexes]
    return MARGIN - min(x for x, _ in points), TITLE_BAND + MARGIN - min(y for _, y in points)


def _raw(h: Hex) -> tuple[float, float]:
    return SIZE * 1.5 * h[0], SIZE * sqrt(3) * (h[1] + h[0] / 2)


def centre(name: str, h: Hex) -> tuple[float, float]:
    ox, oy = _origin(name)
    x, y = _raw(h)
    return round(x + ox, 1), round(y + oy, 1)


def _corner(c: tuple[float, float], degrees: float, scale: float = 1.0) -> tuple[float, float]:
    return round(c[0] + SIZE * scale * cos(radians(degrees)), 1), round(c[1] + SIZE * scale * sin(radians(degrees)), 1)


def _name(name: str, h: Hex) -> Text:
    c = centre(name, h)
    return Text((c[0], c[1] + SIZE * 0.62), hex_name(h), color=NAME_COLOUR, size=7)


@data_cache(maxsize=8)
def _base(name: str) -> tuple[Shape, ...]:
    """The board, the same for every reader: terrain, hexsides, hex names."""
    m = board(name)
    shapes: list[Shape] = []
    for h, kind in sorted(m.hexes.items()):
        c = centre(name, h)
        shapes.append(Polygon(tuple(_corner(c, 60 * i) for i in range(6)), fill=FILL[kind], outline="#999999"))
        shapes.append(_name(name, h))
    for (a, b), kind in sorted(m.sides.items()):
        d = next(i for i in range(6) if step(a, i) == b)
        facing = -90 + 60 * d
        c = centre(name, a)
        colour, width = EDGE[kind]
        shapes.append(Line((_corner(c, facing - 30), _corner(c, facing + 30)), color=colour, width=width))
    return tuple(shapes)


@data_cache(maxsize=8)
def _size(name: str) -> tuple[int, int]:
    far = [centre(name, h) for h in board(name).hexes]
    return int(max(x for x, _ in far) + MARGIN), int(max(y for _, y in far) + MARGIN)


@data_cache(maxsize=8)
def _fixed(name: str) -> Occupancy:
    """What no label may cover: every hex name and the title band."""
    width, _ = _size(name)
    return Occupancy([text_box(_name(name, h)) for h in board(name).hexes] + [Box(0, 0, width, TITLE_BAND)])


def _reach(card: str) -> int:
    """The farthest range band (in hexes) at which the card has dice against anything: its row's length."""
    stats = cards()[card]
    limits = tables()["range"]
    usable = [limits[b] for i, b in enumerate(BANDS) if stats.vs_soldier[i] or stats.vs_vehicle[i]]
    return max(usable, default=1)


def _row_end(name: str, h: Hex, direction: int, reach: int) -> Hex:
    """The last hex of the row from ``h`` that is still on the map, at most ``reach`` hexes away."""
    m = board(name)
    end = h
    for n in range(1, reach + 1):
        nxt = step(h, direction, n)
        if nxt not in m:
            break
        end = nxt
    return end


def _slots(n: int) -> tuple[tuple[float, float], ...]:
    return SLOTS.get(n) or tuple(CROWDED[i % len(CROWDED)] for i in range(n))


def _marks(view: View, u: dict[str, Any], c: tuple[float, float], r: float, grey: bool = False
           ) -> tuple[list[Shape], list[Box]]:
    """One unit's disc, facing wedge, state and face-down markers (or a grey ring for a glimpse)."""
    d = -90 + 60 * NAMES.index(u["facing"])
    tip = (round(c[0] + (r + 6) * cos(radians(d)), 1), round(c[1] + (r + 6) * sin(radians(d)), 1))
    flank = [(round(c[0] + (r - 1) * cos(radians(d + a)), 1), round(c[1] + (r - 1) * sin(radians(d + a)), 1))
             for a in (-35, 35)]
    colour = SIDE[u["side"]]
    if grey:
        return ([Circle(c, r, fill=GREY, outline=colour), Polygon((tip, *flank), fill="#999999", outline="#999999")],
                [circle_box(c, r), points_box((tip, *flank))])
    shapes: list[Shape] = [Circle(c, r, fill=colour, outline=DISRUPTED if u["disrupted"] else "#ffffff",
                                  width=3 if u["disrupted"] else 1),
                           Polygon((tip, *flank), fill="#111111", outline="#ffffff")]
    boxes = [circle_box(c, r + 2), points_box((tip, *flank))]
    if u["damaged"]:
        shapes.append(Circle(c, r * 0.4, fill=DAMAGED, outline=DAMAGED))
    for k in range(len(u["pending"])):
        x = c[0] - 3 * (len(u["pending"]) - 1) + 6 * k
        sq = ((x - 2.5, c[1] + r - 1), (x + 2.5, c[1] + r - 1), (x + 2.5, c[1] + r + 4), (x - 2.5, c[1] + r + 4))
        shapes.append(Polygon(sq, fill="#000000", outline="#ffffff"))
        boxes.append(points_box(sq))
    if u["overwatch"] is not None and parse_hex(u["hex"]) is not None:
        h = parse_hex(u["hex"])
        assert h is not None
        o = NAMES.index(u["overwatch"])
        end = centre(view["map"], _row_end(view["map"], h, o, _reach(u["card"])))
        # beside the row's hex centres, not through them: a row north or south would cross every hex name
        dx, dy = round(SIZE * 0.3 * cos(radians(60 * o)), 1), round(SIZE * 0.3 * sin(radians(60 * o)), 1)
        shapes.append(Line(((c[0] + dx, c[1] + dy), (end[0] + dx, end[1] + dy)), color=ROW, width=2, arrow=True))
    return shapes, boxes


def _obstacle(name: str, o: dict[str, Any]) -> Text:
    """An obstacle piece (digest G28): a brown x (barbed wire) or # (dragon's teeth) at the top of its hex."""
    h = parse_hex(o["hex"])
    assert h is not None
    c = centre(name, h)
    return Text((c[0], c[1] - SIZE * 0.62), "#" if o["kind"] == "teeth" else "x", color=OBSTACLE, size=10)


def _line(u: dict[str, Any]) -> str:
    """A unit's line in its hex's label: id, then D (Disrupted), dmg (Damaged), +n face-down, OW."""
    flags = (["D"] if u["disrupted"] else []) + (["dmg"] if u["damaged"] else []) \
        + ([f"+{len(u['pending'])}"] if u["pending"] else []) + (["OW"] if u["overwatch"] is not None else [])
    return " ".join([u["id"], *flags])


def _legend_keys(view: View) -> list[Key]:
    m = board(view["map"])
    keys = [Key("dot", "Allies", SIDE["allies"]), Key("dot", "Axis", SIDE["axis"]),
            Key("triangle", "facing wedge", "#111111", "#111111"),
            Key("ring", "D: Disrupted", DISRUPTED, None, 3), Key("dot", "dmg: Damaged", DAMAGED),
            Key("square", "+n: face-down hit markers", "#000000", "#000000"),
            Key("arrow", "OW: overwatch row", ROW, width=2)]
    if view.get("fog"):
        keys.append(Key("ring", "last seen (t3: on turn 3)", "#777777", GREY))
    if view["objectives"]:
        keys.append(Key("hex", "objective", OBJECTIVE, None, 3))
    kinds = {o["kind"] for o in view.get("obstacles", ())}
    if kinds:
        keys.append(Key("", ", ".join(t for k, t in (("wire", "x: barbed wire"), ("teeth", "#: dragon's teeth"))
                                      if k in kinds) or "obstacle", OBSTACLE))
    keys += [Key("hex", kind, "#999999", FILL[kind]) for kind in FILL if kind in set(m.hexes.values())]
    keys += [Key("line", kind, colour, width=width) for kind, (colour, width) in EDGE.items()
             if kind in set(m.sides.values())]
    return keys


def picture(view: View) -> Picture:
    """The map as the seat knows it, with its units' labels and the legend below it."""
    name = view["map"]
    width, bottom = _size(name)
    shapes: list[Shape] = []
    for o in view["objectives"]:
        h = parse_hex(o)
        assert h is not None
        shapes.append(Polygon(tuple(_corner(centre(name, h), 60 * i, 0.86) for i in range(6)), fill=None,
                              outline=OBJECTIVE, width=3))
    taken = _fixed(name).copy()
    for o in view.get("obstacles", ()):
        mark = _obstacle(name, o)
        shapes.append(mark)
        taken.add(text_box(mark))
    here: dict[str, list[tuple[dict[str, Any], bool]]] = defaultdict(list)
    for g in view.get("last_known", ()):
        here[g["hex"]].append((g, True))
    for u in view["units"]:
        here[u["hex"]].append((u, False))
    labels: list[Label] = []
    for hexname, group in sorted(here.items()):
        h = parse_hex(hexname)
        assert h is not None
        c0 = centre(name, h)
        r = SIZE * (0.28 if len(group) <= 3 else 0.22)
        lines: dict[str, list[str]] = defaultdict(list)
        for (u, grey), (dx, dy) in zip(group, _slots(len(group)), strict=True):
            s, boxes = _marks(view, u, (round(c0[0] + dx * SIZE, 1), round(c0[1] + dy * SIZE, 1)), r, grey)
            shapes += s
            for b in boxes:
                taken.add(b)
            lines["grey" if grey else u["side"]].append(f"{u['id']} t{u['turn']}" if grey else _line(u))
        labels += [Label(c0, tuple(ls), "#777777" if key == "grey" else SIDE[key], 7, gap=SIZE * 0.55)
                   for key, ls in sorted(lines.items())]
    texts = place(labels, Box(0, TITLE_BAND, width, bottom), taken)
    keys, legend_h = legend(_legend_keys(view), 10, bottom + 4, width - 20, 10)
    title = f"{view['scenario']}, turn {view['turn']} of {view['last_turn']}, as seen by {view['seat']}"
    return Picture(width, int(bottom + legend_h + 10), tuple(shapes) + texts + keys, title=title, base=_base(name))
