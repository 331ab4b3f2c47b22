"""The board as the reader knows it [2.1]: three altitude fields, aircraft with facing.

Every cell carries its "x,y" name in its corner; each aircraft is labelled with its name and facing
in words under its arrow, and its damage in the opposite corner, so no label reaches into the next
cell.  Text that could run wide (hands, card uses) is cut to the canvas; a legend says what the
marks mean.  The layout is fixed, so these properties hold for every position
(``pbem.core.labels.problems`` checks them in the tests).
"""
from __future__ import annotations


from pbem.core.data import data_cache
from pbem.core.labels import text_width
from pbem.core.legend import Key, legend
from pbem.core.picture import TITLE_BAND, Picture, Polygon, Text

from . import tables

#: 56 px cells hold an aircraft, its name and its damage at sizes that read on a phone, and the three
#: fields side by side stay under 800 px, a desktop window at natural size.
CELL = 56
MARGIN = 24
GAP = 30
TOP = TITLE_BAND + 6  # the altitude headings sit under the title
FACING_WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}
COLOURS = {"coalition": "#c0392b", "axis": "#2c3e50"}
ARROW = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@data_cache(maxsize=1)  # one board per game data correction
def base_layer() -> tuple:
    """The empty board (fields, cells, start cells, labels): the same for every reader."""
    b = tables.board()
    fw = b.width * CELL
    shapes: list = []
    for i, alt in enumerate(reversed(tables.ALTITUDES)):
        ox = MARGIN + i * (fw + GAP)
        oy = TOP + 20
        shapes.append(Text((ox + fw / 2, TOP + 6), f"{alt} altitude", size=13))
        for y in range(1, b.height + 1):
            for x in range(1, b.width + 1):
                fill = "#eef5fb"
                for side in tables.SIDES:
                    if b.start_cell[side] == (x, y):
                        fill = "#f6d5d0" if b.start_colour[side] == "red" else "#d5f0d5"
                x0, y0 = ox + (x - 1) * CELL, oy + (y - 1) * CELL
                shapes.append(Polygon(((x0, y0), (x0 + CELL, y0), (x0 + CELL, y0 + CELL), (x0, y0 + CELL)),
                                      fill=fill))
                shapes.append(Text((x0 + 8, y0 + 8), f"{x},{y}", color="#999999", size=8))
    return tuple(shapes)


def draw(v: dict) -> Picture:
    """The reader's picture: each altitude field with its aircraft (the ground row under the low one), then
    the status lines, the reader's notes and the legend under the fields."""
    b = tables.board()
    fw = b.width * CELL
    shapes: list = []
    width = MARGIN * 2 + 3 * fw + 2 * GAP
    fields = list(reversed(tables.ALTITUDES))  # high on the left ... low on the right, ground row under low
    for i, alt in enumerate(fields):
        origin = (MARGIN + i * (fw + GAP), TOP + 20)
        if alt == "low":
            shapes += _ground_shapes(v, origin)
        shapes += [s for a in v["aircraft"] if a["placed"] and not a["destroyed"] and a["alt"] == alt
                   for s in _aircraft_shapes(a, a["seat"] == v["seat"], origin)]
    notes = [_fit(n, width - 2 * MARGIN, 10) for n in side_panel(v)]
    y = TOP + 20 + (b.height + 1) * CELL + 14
    shapes += _status_shapes(v, notes, y)
    keys, legend_h = legend(LEGEND, MARGIN, y + 36 + 15 * len(notes) + 4, width - 2 * MARGIN, 10)
    height = int(y + 36 + 15 * len(notes) + 4 + legend_h + 8)
    return Picture(width, height, tuple(shapes) + keys, title=f"Sky of WWII - {v['seat']}", base=base_layer())


def _cell_corner(origin: tuple[float, float], cell: tuple[int, int]) -> tuple[float, float]:
    """The top left corner of cell ``x,y`` in the field whose top left corner is ``origin``."""
    return origin[0] + (cell[0] - 1) * CELL, origin[1] + (cell[1] - 1) * CELL


def _ground_shapes(v: dict, origin: tuple[float, float]) -> list:
    """Each side's ground slots in the ground row: filled (grey once destroyed), named after their
    objective, with its damage against its structure."""
    shapes: list = []
    for side in tables.SIDES:
        for o in v["ground"][side]:
            x0, y0 = _cell_corner(origin, o["slot"])
            shapes.append(Polygon(((x0, y0), (x0 + CELL, y0), (x0 + CELL, y0 + CELL), (x0, y0 + CELL)),
                                  fill="#d8c9a8" if not o["destroyed"] else "#777777"))
            label = (o["obj"] or "?").upper()
            shapes.append(Text((x0 + CELL / 2, y0 + CELL / 2 - 8), label, color=COLOURS[side], size=12))
            if o["obj"] and o["structure"]:
                shapes.append(Text((x0 + CELL / 2, y0 + CELL / 2 + 12), f"{o['damage']}/{o['structure']}",
                                   size=9))
    return shapes


def _aircraft_shapes(a: dict, mine: bool, origin: tuple[float, float]) -> list:
    """One aircraft: an arrow along its facing (outlined in gold when it is the reader's), its name and
    facing under it and its damage in the cell's corner."""
    x0, y0 = _cell_corner(origin, a["cell"])
    cx, cy = x0 + CELL / 2, y0 + CELL / 2
    dx, dy = ARROW[a["facing"]]
    tip = (cx + dx * CELL * 0.42, cy + dy * CELL * 0.42)
    tail = (cx - dx * CELL * 0.3, cy - dy * CELL * 0.3)
    px, py = -dy, dx
    body = (tip, (tail[0] + px * 12, tail[1] + py * 12), (tail[0] - px * 12, tail[1] - py * 12))
    state = f"dmg {a['markers']}" if a["damaged"] else f"{a['markers']}/{a['structure']}"
    return [Polygon(body, fill=COLOURS[a["side"]], outline="#ffd700" if mine else "#000000", width=3 if mine else 1),
            Text((cx, y0 + CELL - 6), f"{a['id']} {FACING_WORD.get(a['facing'], a['facing'])}", size=9),
            Text((x0 + CELL - 3, y0 + 8), state, size=8, anchor="rm")]


def _status_shapes(v: dict, notes: list[str], y: float) -> list:
    """Under the fields from ``y``: the round, victory points and deck, each aircraft's hand size, then
    the reader's notes."""
    vp = v["vp"]
    hands = ", ".join(f"{a['id']}:{a['hand_size']}" + (f"({a['malfunctions']}M)" if a["malfunctions"] else "")
                      for a in v["aircraft"] if not a["destroyed"])
    return [Text((MARGIN, y), f"round {v['round']} · VP coalition {vp['coalition']} · axis {vp['axis']} · "
                 f"deck {v['deck_size']} · discard {v['discard_size']}", anchor="la", size=12),
            Text((MARGIN, y + 18), f"hand sizes {hands}", anchor="la", size=11),
            *(Text((MARGIN, y + 36 + 15 * i), note, anchor="la", size=10) for i, note in enumerate(notes))]


#: Marks only (no polygons): a player's picture holds exactly one polygon per cell, slot and aircraft.
LEGEND = (Key("dot", "coalition aircraft", COLOURS["coalition"]), Key("dot", "axis aircraft", COLOURS["axis"]),
          Key("ring", "yours (gold outline)", "#ffd700", None, 3), Key("arrow", "nose points this way", width=2),
          Key("dot", "red / green start cells", "#f6d5d0"),
          Key("", "under an aircraft: its name and facing; in the corner: damage markers/structure "
                  "(dmg = damaged)"))


def _fit(line: str, width: float, size: int) -> str:
    """``line`` cut with "..." so that it fits ``width`` pixels at ``size``."""
    if text_width(line, size) <= width:
        return line
    while line and text_width(line + "...", size) > width:
        line = line[:-1]
    return line + "..."


def side_panel(v: dict) -> list[str]:
    """The reader's own hands and, when its turn is due, what each card could do now."""
    out = []
    for ac, cards in sorted(v["hand_details"].items()):
        out.append(f"{ac} hand:" + ("" if cards else " empty"))
        out += [f"    {c['card']}: {c['brief']}" for c in cards]
    d = v.get("decide")
    if d and d["kind"] == "script":
        out.append(f"{d['ac']} could now:")
        for cu in d["card_uses"]:
            for u in cu["uses"]:
                out.append(f"    {cu['card']}: {u}")
    return out
