"""The side-view picture: altitude bands, clouds, haze, the sun sector, squadrons as heading arrows with
their IDs, tally lines and dogfight rings [2.2, 4]; every square is labelled by its column and altitude.
Under fog: enemies out of sight grey where last seen (with the turn), radar plots as dashed boxes."""
from __future__ import annotations

from typing import Any

from pbem.core.picture import Circle, Line, Picture, Polygon, Shape, Text
from pbem.core.ruleset import View

from .sky import COLUMNS, VECTORS_UP, parse

CELL, LEFT, TOP = 30, 34, 24
COLUMNS_N, ALTITUDES = 26, 20
SIDE_COLOURS = {"allies": "#1f4fa8", "axis": "#b3261e"}
GREY, RADAR = "#9a9a9a", "#2e8b57"
CLOUD_COLOURS = {"wispy": "#e6e9f2", "broken": "#c4c9d6", "dense": "#8d93a3"}


def _corner(col: int, alt: int) -> tuple[float, float]:
    return (LEFT + col * CELL, TOP + (ALTITUDES - 1 - alt) * CELL)


def _centre(col: int, alt: int) -> tuple[float, float]:
    x, y = _corner(col, alt)
    return (x + CELL / 2, y + CELL / 2)


def _square(col: int, alt: int, fill: str | None, outline: str | None = "#d0d0d0") -> Polygon:
    x, y = _corner(col, alt)
    return Polygon(((x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)), fill=fill, outline=outline)


def _base() -> tuple[Shape, ...]:
    shapes: list[Shape] = [_square(c, a, None) for c in range(COLUMNS_N) for a in range(ALTITUDES)]
    shapes += [Text(_centre(c, -1), COLUMNS[c], size=11) for c in range(COLUMNS_N)]
    shapes += [Text((LEFT - 14, _centre(0, a)[1]), str(a), size=11) for a in range(ALTITUDES)]
    return tuple(shapes)


def picture(view: View) -> Picture:
    sky = view["sky"]
    shapes: list[Shape] = [_square(c, a, "#f1ecdf", None) for c in range(COLUMNS_N) for a in range(sky["haze"] + 1)]
    shapes += [_square(*parse(sq), CLOUD_COLOURS[kind], None) for sq, kind in sky["clouds"]]
    shapes += [Text(_centre(0, min(view["turn"], ALTITUDES - 1)), f"T{view['turn']}", size=10),   # turn = its altitude [6.0]
               Text(_centre(3, 17), f"sun {sky['sun']}", color="#b8860b", size=9)]
    shapes += [s for g in view.get("last_known", ()) for s in _glimpse(g)]
    shapes += [s for p in view.get("radar", ()) for s in _plot(p)]
    squadrons = [s for s in view["squadrons"] if s["status"] == "on"]
    where = {s["id"]: tuple(s["at"]) for s in squadrons}
    for s in squadrons:
        here = [o["id"] for o in squadrons if tuple(o["at"]) == tuple(s["at"])]
        shapes += _squadron(s, where, here.index(s["id"]), len(here))
    return Picture(LEFT + COLUMNS_N * CELL + 10, TOP + (ALTITUDES + 1) * CELL, tuple(shapes),
                   title=f"Wing Leader, turn {view['turn']}", base=_base())


def _glimpse(g: dict[str, Any]) -> list[Shape]:
    """Under fog, an enemy out of sight where it was last seen: a grey arrow, its ID and the turn (t3)."""
    cx, cy = _centre(*g["at"])
    dx, dy = VECTORS_UP[g["heading"]]
    half = CELL * 0.38
    return [Line(((cx - dx * half, cy + dy * half), (cx + dx * half, cy - dy * half)), color=GREY, width=2, arrow=True),
            Text((cx, cy - CELL * 0.32), f"{g['id']} t{g['turn']}", color=GREY, size=8)]


def _plot(p: dict[str, Any]) -> list[Shape]:
    """Under fog, a radar plot of ground control: the sector and band outlined, with how many squadrons."""
    first, last, (low, high) = p["first"], p["last"], p["altitudes"]
    x0, y0 = _corner(first, high)
    x1, y1 = _corner(last, low)
    return [Polygon(((x0, y0), (x1 + CELL, y0), (x1 + CELL, y1 + CELL), (x0, y1 + CELL)), fill=None, outline=RADAR),
            Text(((x0 + x1 + CELL) / 2, (y0 + y1 + CELL) / 2), f"radar: {p['count']}", color=RADAR, size=10)]


def _squadron(s: dict[str, Any], where: dict[str, tuple[int, int]], index: int, count: int) -> list[Shape]:
    """A heading arrow in the side's colour with its ID (a broken one with "x"), side by side with the
    others of its square; a tally line to its target; a ring when it is in a dogfight."""
    colour = SIDE_COLOURS.get(s["side"], "#333333")
    x0, cy = _centre(*s["at"])
    cx = x0 + (index - (count - 1) / 2) * (CELL / max(count, 1))
    dx, dy = VECTORS_UP[s["heading"]]
    half = CELL * (0.38 if count == 1 else 0.16)
    label = s["id"] + ("x" if s["broken"] else "")
    shapes: list[Shape] = [Line(((cx - dx * half, cy + dy * half), (cx + dx * half, cy - dy * half)),
                                color=colour, width=2, arrow=True),
                           Text((cx, cy - CELL * 0.32), label, color=colour, size=9)]
    if s["tally"] in where:
        shapes.append(Line(((cx, cy), _centre(*where[s["tally"]])), color=colour, width=1))
    if s["dogfight"] and index == 0:
        shapes.append(Circle((x0, cy), CELL * 0.5, outline="#444444"))
    return shapes

