"""A picture as data: shapes a ruleset describes from a view, drawn to PNG at the edge.

Rulesets stay pure (no imaging library in the core) and a picture cannot
show more than the view it was built from.  ``pbem.pictures`` draws it.
Coordinates are pixels, origin top left.
"""
from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    outline: str | None = "#555555"
    width: int = 1


@dataclass(frozen=True)
class Circle:
    center: Point
    radius: float
    fill: str | None = None
    outline: str | None = "#000000"
    width: int = 1


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    color: str = "#000000"
    width: int = 1
    arrow: bool = False  # an arrowhead at the last point


@dataclass(frozen=True)
class Text:
    at: Point
    text: str
    color: str = "#000000"
    size: int = 12
    anchor: str = "mm"  # Pillow text anchors: "mm" centred, "la" left-top, ...


Shape = Polygon | Circle | Line | Text


@dataclass(frozen=True)
class Picture:
    """A canvas and what to draw on it, in order.

    ``base`` holds the shapes that do not depend on what the reader knows
    (the board itself: hex grid, terrain, labels).  They are drawn first, and
    the renderer draws each distinct base once and reuses it, which is most of
    the cost of a map with a thousand hexes.  Everything that depends on the
    view goes in ``shapes``.
    """

    width: int
    height: int
    shapes: tuple[Shape, ...]
    background: str = "#ffffff"
    title: str = ""
    base: tuple[Shape, ...] = ()


#: Where the renderer writes a picture's title: top left, above anything a ruleset draws there
#: (rulesets keep the band ``TITLE_BAND`` pixels high free of other text).
TITLE_AT: Point = (6, 4)
TITLE_SIZE = 14
TITLE_BAND = 24


def title_text(picture: Picture) -> Text | None:
    """The title as the text the renderer draws, or None when there is none."""
    return Text(TITLE_AT, picture.title, "#000000", TITLE_SIZE, "la") if picture.title else None
