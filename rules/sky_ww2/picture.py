"""The board as the reader knows it [2.1]: three altitude fields, aircraft with facing."""
from __future__ import annotations

from functools import lru_cache

from pbem.core.picture import Picture, Polygon, Text

from . import tables

CELL = 56
MARGIN = 24
GAP = 30
COLOURS = {"coalition": "#c0392b", "axis": "#2c3e50"}
ARROW = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@lru_cache(maxsize=1)
def base_layer() -> tuple:
    """The empty board (fields, cells, start cells, labels): the same for every reader."""
    b = tables.board()
    fw = b.width * CELL
    shapes: list = []
    for i, alt in enumerate(reversed(tables.ALTITUDES)):
        ox = MARGIN + i * (fw + GAP)
        oy = MARGIN + 20
        shapes.append(Text((ox + fw / 2, MARGIN + 6), f"{alt} altitude", size=13))
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
    b = tables.board()
    fw = b.width * CELL
    shapes: list = []
    height = MARGIN * 2 + 20 + (b.height + 1) * CELL + 60
    width = MARGIN * 2 + 3 * fw + 2 * GAP
    fields = list(reversed(tables.ALTITUDES))  # high on the left ... low on the right, ground row under low
    for i, alt in enumerate(fields):
        ox = MARGIN + i * (fw + GAP)
        oy = MARGIN + 20
        if alt == "low":
            for side in tables.SIDES:
                for o in v["ground"][side]:
                    x, y = o["slot"]
                    x0, y0 = ox + (x - 1) * CELL, oy + (y - 1) * CELL
                    shapes.append(Polygon(((x0, y0), (x0 + CELL, y0), (x0 + CELL, y0 + CELL), (x0, y0 + CELL)),
                                          fill="#d8c9a8" if not o["destroyed"] else "#777777"))
                    label = (o["obj"] or "?").upper()
                    shapes.append(Text((x0 + CELL / 2, y0 + CELL / 2 - 6), label, color=COLOURS[side], size=12))
                    if o["obj"] and o["structure"]:
                        shapes.append(Text((x0 + CELL / 2, y0 + CELL / 2 + 10), f"{o['damage']}/{o['structure']}",
                                           size=9))
        for a in v["aircraft"]:
            if not a["placed"] or a["destroyed"] or a["alt"] != alt:
                continue
            x, y = a["cell"]
            cx, cy = ox + (x - 0.5) * CELL, oy + (y - 0.5) * CELL
            dx, dy = ARROW[a["facing"]]
            tip = (cx + dx * CELL * 0.42, cy + dy * CELL * 0.42)
            tail = (cx - dx * CELL * 0.3, cy - dy * CELL * 0.3)
            px, py = -dy, dx
            body = (tip, (tail[0] + px * 12, tail[1] + py * 12), (tail[0] - px * 12, tail[1] - py * 12))
            mine = a["seat"] == v["seat"]
            shapes.append(Polygon(body, fill=COLOURS[a["side"]], outline="#ffd700" if mine else "#000000",
                                  width=3 if mine else 1))
            state = f"damaged {a['markers']}" if a["damaged"] else f"{a['markers']}/{a['structure']}"
            shapes.append(Text((cx, cy + CELL * 0.36), f"{a['id']} {state}", size=9))
    notes = side_panel(v)
    height += 15 * len(notes)
    y = MARGIN + 20 + (b.height + 1) * CELL + 14
    vp = v["vp"]
    shapes.append(Text((MARGIN, y), f"round {v['round']} · VP coalition {vp['coalition']} · axis {vp['axis']} · "
                       f"deck {v['deck_size']} · discard {v['discard_size']}", anchor="la", size=12))
    hands = ", ".join(f"{a['id']}:{a['hand_size']}" + (f"({a['malfunctions']}M)" if a["malfunctions"] else "")
                      for a in v["aircraft"] if not a["destroyed"])
    shapes.append(Text((MARGIN, y + 18), f"hand sizes {hands}", anchor="la", size=11))
    for i, note in enumerate(notes):
        shapes.append(Text((MARGIN, y + 36 + 15 * i), note, anchor="la", size=10))
    return Picture(width, height, tuple(shapes), title=f"Sky of WWII - {v['seat']}", base=base_layer())


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
    return [line if len(line) <= 130 else line[:127] + "..." for line in out]
