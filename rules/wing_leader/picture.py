"""The side-view picture [2.2, 4]: altitude bands, clouds, haze, rain, the sun sector, squadrons as heading
arrows with their IDs, tally lines and dogfight rings, and a legend under the map.

Every square is identifiable: the column letters stand above and below the map, the altitudes left and right
of it, and light rules mark the band borders.  Squadrons sharing a square sit side by side (in rows when there
are many); each ID is placed with ``pbem.core.labels.place`` next to its arrow, so no two labels overlap
and none covers a mark or a coordinate.  The picture is built from the view only (open information [5.2]:
every seat sees the same one).  Under fog the view holds less, and the picture draws only that: enemies out
of sight as grey arrows where last seen (``t3``: on turn 3), and the Defender's radar plots as outlined boxes.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pbem.core.labels import Box, Label, Occupancy, place, points_box, text_box
from pbem.core.legend import Key, legend
from pbem.core.picture import TITLE_BAND, Circle, Line, Picture, Polygon, Shape, Text

from .sky import COLUMNS, VECTORS_UP, parse
from .tables import tables

#: Square side in pixels: room for three arrows abreast or two rows of them, and a one-letter ID beside each.
CELL = 36
COLUMNS_N, ALTITUDES = 26, 20
MARGIN = 28  # altitude numbers, left and right
TOP = TITLE_BAND + 16  # the title, then the column letters
LEFT = MARGIN
GRID_BOTTOM = TOP + ALTITUDES * CELL
WIDTH = LEFT + COLUMNS_N * CELL + MARGIN
LEGEND_TOP = GRID_BOTTOM + 18  # below the bottom row of column letters
SIDE_COLOURS = {"allies": "#1f4fa8", "axis": "#b3261e"}
TALLY_COLOURS = {"allies": "#7f9bd3", "axis": "#db8f89"}
SIDE_NAMES = {"allies": "Allied", "axis": "Axis"}
CLOUD_COLOURS = {"wispy": "#e6e9f2", "broken": "#c4c9d6", "dense": "#8d93a3"}
HAZE, RAIN, SUN, COORD, RULE, DOGFIGHT = "#f1ecdf", "#5d8fc9", "#e0a800", "#666666", "#d0d0d0", "#222222"
GREY, RADAR = "#9a9a9a", "#2e8b57"
SURFACE, SURFACE_FILL, BARRAGE, BOMB_RUN = "#6b4f2a", "#d8c8a8", "#d2691e", "#8e44ad"
BALLOON, BALLOON_FILL = "#556b2f", "#c5d6a0"
DAMAGE_MARK = {"": "-", "minor": "m", "light": "l", "heavy": "H", "critical": "C", "fatal": "F"}
SUN_WORDS = {"left_level": "left, level", "left_high": "left, high", "high": "overhead",
             "right_high": "right, high", "right_level": "right, level"}
#: Where the sun is drawn for each sector [4.2]: on the frame, never on a square; level suns sit in the side margin
#: between altitudes 9 and 10, high ones in the corners beside the column letters, overhead above the letters.
SUN_AT = {"left_level": (LEFT - MARGIN / 2, TOP + ALTITUDES * CELL / 2), "left_high": (LEFT - MARGIN / 2, TOP - 8),
          "high": (LEFT + COLUMNS_N * CELL / 2, TITLE_BAND / 2), "right_high": (WIDTH - MARGIN / 2, TOP - 8),
          "right_level": (WIDTH - MARGIN / 2, TOP + ALTITUDES * CELL / 2)}


def _corner(col: int, alt: int) -> tuple[float, float]:
    return (LEFT + col * CELL, TOP + (ALTITUDES - 1 - alt) * CELL)


def _centre(col: int, alt: int) -> tuple[float, float]:
    x, y = _corner(col, alt)
    return (x + CELL / 2, y + CELL / 2)


def _square(col: int, alt: int, fill: str | None, outline: str | None = RULE) -> Polygon:
    x, y = _corner(col, alt)
    return Polygon(((x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)), fill=fill, outline=outline)


def _base() -> tuple[Shape, ...]:
    """The grid and its coordinates: letters above and below, altitudes left and right [2.2]."""
    shapes: list[Shape] = [_square(c, a, None) for c in range(COLUMNS_N) for a in range(ALTITUDES)]
    for c in range(COLUMNS_N):
        x = _centre(c, 0)[0]
        shapes += [Text((x, TOP - 8), COLUMNS[c], COORD, 10), Text((x, GRID_BOTTOM + 8), COLUMNS[c], COORD, 10)]
    for a in range(ALTITUDES):
        y = _centre(0, a)[1]
        shapes += [Text((LEFT - MARGIN / 2, y), str(a), COORD, 10),
                   Text((WIDTH - MARGIN / 2, y), str(a), COORD, 10)]
    return tuple(shapes)


BASE = _base()
#: What no label may cover: the title band and the coordinates.
FIXED = tuple([Box(0, 0, WIDTH, TITLE_BAND)] + [text_box(t) for t in BASE if isinstance(t, Text)])


def picture(view: Mapping[str, Any]) -> Picture:
    sky = view["sky"]
    shapes, taken = _weather(sky)
    squadrons = [s for s in view["squadrons"] if s["status"] == "on"]
    labels: list[Label] = []
    for p in view.get("radar", ()):
        shapes.append(_plot(p))
        labels.append(Label(_plot_centre(p), (f"radar: {p['count']}",), RADAR, 9, gap=2))
    marks: dict[str, tuple[float, float]] = {}
    by_square: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for s in [*squadrons, *(_glimpse(g) for g in view.get("last_known", ()))]:
        by_square[(s["at"][0], s["at"][1])].append(s)
    drawn: list[Shape] = []
    for square, here in sorted(by_square.items()):
        marked, boxes, named, centres = _square_marks(square, here)
        drawn += marked
        taken += boxes
        labels += named
        marks.update({s["id"]: c for s, c in zip(here, centres, strict=True)})
    shapes += [*_tally_lines(squadrons, marks), *_bomb_runs(view, squadrons, marks), *drawn]
    ground, ground_boxes, ground_labels = _surface_marks(view)   # advanced rule 14: surface units, barrages
    shapes += ground
    taken += ground_boxes
    labels += ground_labels
    turn = min(max(int(view["turn"]), 0), ALTITUDES - 1)  # the turn marker rides the altitude track [6.0]
    labels.append(Label(_centre(0, turn), (f"T{view['turn']}",), "#444444", 9, gap=2))
    placed = place(labels, Box(0, TITLE_BAND, WIDTH, GRID_BOTTOM + 1), Occupancy([*FIXED, *taken]))
    shapes += [*_leaders(placed, labels), *placed]
    keys, width = _legend_keys(sky, squadrons), WIDTH - 2 * MARGIN
    if view.get("last_known"):
        keys.append(Key("arrow", "enemy out of sight, where last seen (t3: on turn 3)", GREY, width=2))
    if view.get("radar"):
        keys.append(Key("square", "radar plot: how many unseen squadrons in that sector and band", RADAR))
    if view.get("surfaces"):
        keys.append(Key("square", "surface unit (ID, damage: - none, m minor, l light, H heavy, C critical, F fatal)",
                        SURFACE, SURFACE_FILL))
    if view.get("barrages"):
        keys.append(Key("square", "barrage zone (dot: its marker, 14.2.2)", BARRAGE))
    if view.get("balloons"):
        keys.append(Key("dot", "barrage balloon (ID, losses of 3) and its zone down to the ground (14.3)", BALLOON,
                        BALLOON_FILL))
    if any(_on_a_run(s) for s in squadrons):
        keys.append(Key("line", "bomb run: a bomber to its target; thick, its approach so far (15.3)", BOMB_RUN))
    if any(u.get("hits") for u in view.get("surfaces", ())):
        keys.append(Key("", "after a surface unit's damage: its hits / damage rating (14.1.1)"))
    drawn_legend, height = legend(keys, MARGIN, LEGEND_TOP, width, size=10)
    shapes += drawn_legend
    return Picture(WIDTH, int(LEGEND_TOP + height + 8), tuple(shapes),
                   title=f"Wing Leader, turn {view['turn']}: side view", base=BASE)


def _weather(sky: Mapping[str, Any]) -> tuple[list[Shape], list[Box]]:
    """Haze, clouds, rain under dense cloud [4.3, 4.4, 4.5.1] and the sun on the frame [4.2]."""
    shapes: list[Shape] = [_square(c, a, HAZE, None) for c in range(COLUMNS_N) for a in range(sky["haze"] + 1)]
    shapes += [_square(*parse(sq), CLOUD_COLOURS[kind], None) for sq, kind in sky["clouds"]]
    if sky.get("rain"):
        for sq, kind in sky["clouds"]:
            if kind != "dense":
                continue
            col, alt = parse(sq)
            for a in range(alt):
                x, y = _corner(col, a)
                shapes += [Line(((x + f * CELL, y + 3), (x + f * CELL - 4, y + CELL - 3)), RAIN, 1)
                           for f in (0.3, 0.6, 0.9)]
    taken: list[Box] = []
    if sky.get("sun") in SUN_AT:
        x, y = SUN_AT[sky["sun"]]
        shapes += _sun((x, y))
        taken.append(Box(x - 9, y - 9, x + 9, y + 9))
    return shapes, taken


def _sun(at: tuple[float, float]) -> list[Shape]:
    x, y = at
    rays = [Line(((x + 6 * math.cos(t), y + 6 * math.sin(t)), (x + 9 * math.cos(t), y + 9 * math.sin(t))), SUN, 1)
            for t in (i * math.pi / 4 for i in range(8))]
    return [Circle(at, 5, fill=SUN, outline="#b8860b"), *rays]


def _slots(n: int) -> list[tuple[float, float, float]]:
    """Arrow centres (as fractions of the square) and half length for ``n`` squadrons in one square: one or
    two abreast under their IDs, more in a grid whose IDs are placed outside the square."""
    if n <= 2:
        return [((i + 0.5) / n, 0.7, CELL * (0.24 if n == 1 else 0.17)) for i in range(n)]
    cols = 2 if n <= 4 else 3
    rows = math.ceil(n / cols)
    return [((i % cols + 0.5) / cols, (i // cols + 0.5) / rows, CELL * (0.16 if n <= 4 else 0.11)) for i in range(n)]


def _square_marks(square: tuple[int, int], here: list[dict[str, Any]]
                  ) -> tuple[list[Shape], list[Box], list[Label], list[tuple[float, float]]]:
    """A dogfight frame round the square [10.8], then each squadron's heading arrow in its side's colour with
    its ID ("x" after it when broken [10.6]): written above the arrow inside the square for one or two, else
    a label to place outside.  Also the boxes no placed label may cover, and the arrows' centres."""
    x0, y0 = _corner(*square)
    shapes: list[Shape] = []
    if any(s["dogfight"] for s in here):
        shapes.append(Polygon(((x0 + 1, y0 + 1), (x0 + CELL - 1, y0 + 1), (x0 + CELL - 1, y0 + CELL - 1),
                               (x0 + 1, y0 + CELL - 1)), fill=None, outline=DOGFIGHT, width=2))
    boxes: list[Box] = []
    labels: list[Label] = []
    centres: list[tuple[float, float]] = []
    slots = _slots(len(here))
    for s, (fx, fy, half) in zip(here, slots, strict=True):
        colour = s.get("colour") or SIDE_COLOURS.get(s["side"], "#333333")
        cx, cy = x0 + fx * CELL, y0 + fy * CELL
        dx, dy = VECTORS_UP[s["heading"]]
        norm = math.hypot(dx, dy)
        tail, tip = (cx - dx * half / norm, cy + dy * half / norm), (cx + dx * half / norm, cy - dy * half / norm)
        shapes.append(Line((tail, tip), colour, 2, arrow=True))
        boxes.append(points_box((tail, tip)).grow(2))
        centres.append((cx, cy))
        if len(here) <= 2:
            text = Text((cx, y0 + CELL * 0.27), _name(s), colour, 9 if len(here) == 1 else 8)
            shapes.append(text)
            boxes.append(text_box(text))
        else:
            labels.append(Label((cx, cy), (_name(s),), colour, 8, gap=CELL / 2))
    return shapes, boxes, labels, centres


def _leaders(placed: tuple[Shape, ...], labels: list[Label]) -> list[Shape]:
    """Leader lines for crowded squares: from each arrow to its ID (``place`` draws them only for IDs it had
    to move away; here every one gets its line, so an ID is never read as an empty neighbour's)."""
    out: list[Shape] = []
    texts = [t for t in placed if isinstance(t, Text)]
    lined = {line.points[0] for line in placed if isinstance(line, Line)}
    for label, text in zip(labels, texts, strict=True):
        if label.size == 8 and label.anchor not in lined:
            out.append(Line((label.anchor, text_box(text).nearest(label.anchor)), "#555555", 1))
    return out


def _glimpse(g: Mapping[str, Any]) -> dict[str, Any]:
    """An enemy out of sight (fog), drawn like a squadron where it was last seen, grey, its ID with the turn."""
    return {"id": f"{g['id']} t{g['turn']}", "side": "", "colour": GREY, "at": g["at"], "heading": g["heading"],
            "broken": False, "dogfight": False, "tally": None}


def _plot(p: Mapping[str, Any]) -> Polygon:
    """A radar plot (fog, the Defender under GCI): its sector of columns and its altitude band outlined."""
    low, high = p["altitudes"]
    x0, y0 = _corner(p["first"], high)
    x1, y1 = _corner(p["last"], low)
    return Polygon(((x0, y0), (x1 + CELL, y0), (x1 + CELL, y1 + CELL), (x0, y1 + CELL)), fill=None, outline=RADAR,
                   width=2)


def _plot_centre(p: Mapping[str, Any]) -> tuple[float, float]:
    low, high = p["altitudes"]
    x0, y0 = _corner(p["first"], high)
    x1, y1 = _corner(p["last"], low)
    return ((x0 + x1 + CELL) / 2, (y0 + y1 + CELL) / 2)


def _name(s: Mapping[str, Any]) -> str:
    return s["id"] + ("x" if s["broken"] else "")


def _tally_lines(squadrons: list[dict[str, Any]], marks: Mapping[str, tuple[float, float]]) -> list[Shape]:
    """A thin line in a pale shade of the side's colour from each tallying squadron to its target, with a
    dot just short of the target [7.2]; drawn under the arrows."""
    out: list[Shape] = []
    for s in squadrons:
        if s["tally"] not in marks or s["id"] not in marks:
            continue
        a, b = marks[s["id"]], marks[s["tally"]]
        colour = TALLY_COLOURS.get(s["side"], "#999999")
        d = math.dist(a, b)
        if d < 1:
            continue
        k = max(d - 10, d / 2) / d  # the dot sits just outside the target's arrow
        end = (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        out += [Line((a, end), colour, 1), Circle(end, 2.5, fill=colour, outline=colour)]
    return out


def _on_a_run(s: Mapping[str, Any]) -> bool:
    """A bomber flying to its target with its load, or a strafer [15.2.1, 15.3.7]."""
    return bool(s.get("target")) and s["mission"] == "bombing" and (s["bombs"] or s.get("attack") == "strafing")


def _bomb_runs(view: Mapping[str, Any], squadrons: list[dict[str, Any]],
               marks: Mapping[str, tuple[float, float]]) -> list[Shape]:
    """Each bomber on its way: a thin line to its target's box, and its approach so far (the run's squares)
    drawn thick, both in the bomb-run colour, under the arrows [15.2.1, 15.3]."""
    where = _surface_centres(view)
    out: list[Shape] = []
    for s in squadrons:
        if not _on_a_run(s) or s["target"] not in where or s["id"] not in marks:
            continue
        x, y, size = where[s["target"]]
        out.append(Line((marks[s["id"]], (x + size / 2, y)), BOMB_RUN, 1))
        run = [_centre(int(c), int(a)) for c, a in s.get("run", ())]
        if len(run) >= 2:
            out.append(Line(tuple(run), BOMB_RUN, 3))
    return out


def _surface_centres(view: Mapping[str, Any]) -> dict[str, tuple[float, float, float]]:
    """Each surface unit's box: its upper-left corner and side, along the bottom of its column's altitude-0
    square, side by side when several share the column [14.0]."""
    by_column: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for u in view.get("surfaces", ()):
        by_column[int(u["column"])].append(u)
    out: dict[str, tuple[float, float, float]] = {}
    for col, units in by_column.items():
        x0, y0 = _corner(col, 0)
        size = min(8.0, (CELL - 4) / len(units) - 2)
        for i, u in enumerate(units):
            out[u["id"]] = (x0 + 2 + i * (size + 2), y0 + CELL - size - 2, size)
    return out


def _surface_marks(view: Mapping[str, Any]) -> tuple[list[Shape], list[Box], list[Label]]:
    """Surface units as small boxes along the bottom of their column's altitude-0 square, each labelled with its
    ID, damage and hits over its damage rating once hit [14.0, 14.1.1]; Barrage markers as a dot on their point
    and their zone outlined [14.2.2]."""
    shapes: list[Shape] = []
    boxes: list[Box] = []
    labels: list[Label] = []
    levels = {u["id"]: u["level"] for u in view.get("surface_status", ())}
    where = _surface_centres(view)
    for u in sorted(view.get("surfaces", ()), key=lambda u: (int(u["column"]), where[u["id"]][0])):
        x, y, size = where[u["id"]]
        pts = ((x, y), (x + size, y), (x + size, y + size), (x, y + size))
        shapes.append(Polygon(pts, fill=SURFACE_FILL, outline=SURFACE))
        boxes.append(points_box(pts))
        hits = f" {u['hits']}/{u['damage']}" if u.get("hits") else ""
        labels.append(Label((x + size / 2, y + size / 2),
                            (f"{u['id']} {DAMAGE_MARK.get(levels.get(u['id'], ''), '-')}{hits}",), SURFACE, 8, gap=2))
    for b in view.get("barrages", ()):
        c, a = int(b["point"][0]), int(b["point"][1])
        x, y = LEFT + c * CELL, TOP + (ALTITUDES - a) * CELL   # the point: lower-left corner of square (c, a)
        left, right = max(LEFT, x - CELL), min(LEFT + COLUMNS_N * CELL, x + CELL)
        top, bottom = y - CELL, min(GRID_BOTTOM, y + CELL)
        shapes.append(Polygon(((left, top), (right, top), (right, bottom), (left, bottom)), fill=None, outline=BARRAGE))
        shapes.append(Circle((x, y), 3, fill=BARRAGE, outline=BARRAGE))
        boxes.append(Box(x - 3, y - 3, x + 3, y + 3))
        labels.append(Label((x, y), (str(b["unit"]),), BARRAGE, 8, gap=3))
    for b in view.get("balloons", ()):   # a barrage balloon: its zone down to the ground, the balloon on top [14.3]
        col, alt = int(b["at"][0]), int(b["at"][1])
        x0, top = _corner(col, alt)
        bottom = _corner(col, 0)[1] + CELL
        shapes.append(Polygon(((x0 + 3, top + 3), (x0 + CELL - 3, top + 3), (x0 + CELL - 3, bottom - 12),
                               (x0 + 3, bottom - 12)), fill=None, outline=BALLOON))
        cx, cy = x0 + CELL / 2, top + 10
        shapes.append(Circle((cx, cy), 5, fill=BALLOON_FILL, outline=BALLOON))
        boxes.append(Box(cx - 5, cy - 5, cx + 5, cy + 5))
        losses = f" {b['losses']}/3" if b.get("losses") else ""
        labels.append(Label((cx, cy), (f"{b['id']}{losses}",), BALLOON, 8, gap=3))
    return shapes, boxes, labels


def _legend_keys(sky: Mapping[str, Any], squadrons: list[dict[str, Any]]) -> list[Key]:
    keys = [Key("arrow", f"{SIDE_NAMES[side]} squadron, heading", colour, width=2)
            for side, colour in SIDE_COLOURS.items()]
    keys += [Key("line", "tally line (dot at the target)", "#888888"), Key("square", "dogfight", DOGFIGHT, width=2)]
    if any(s["broken"] for s in squadrons):
        keys.append(Key("", "x after an ID: broken"))
    kinds = {kind for _, kind in sky["clouds"]}
    keys += [Key("square", f"{kind} cloud", "#888888", CLOUD_COLOURS[kind]) for kind in CLOUD_COLOURS if kind in kinds]
    if sky["haze"] >= 0:
        keys.append(Key("square", f"haze (altitudes 0-{sky['haze']})", "#888888", HAZE))
    if sky.get("rain"):
        keys.append(Key("line", "rain (under dense cloud)", RAIN))
    if sky.get("sun") in SUN_WORDS:
        bearing = tables()["sun_sectors"].get(sky["sun"], "")
        keys.append(Key("dot", f"sun: {SUN_WORDS[sky['sun']]} (bearing {bearing})", "#b8860b", SUN))
    keys.append(Key("", "T = turn (on the altitude track)"))
    return keys

