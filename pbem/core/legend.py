"""A picture's legend: what each mark and colour means, flowed into rows that fit the canvas."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .labels import text_width
from .picture import Circle, Line, Point, Polygon, Shape, Text

MARK = 12  # the side of a legend mark's square, pixels
_PAD = 5  # between a mark and its text
_SPACING = 16  # between one entry and the next


@dataclass(frozen=True)
class Key:
    """One legend entry: a mark drawn as on the map, and what it means.

    ``mark`` is one of dot (filled circle), ring (hollow circle), square, hex, triangle, line, arrow,
    or "" for a note without a mark.
    """

    mark: str
    text: str
    color: str = "#000000"
    fill: str | None = None
    width: int = 1


def _mark(key: Key, x: float, y: float) -> tuple[Shape, ...]:
    """The mark in the MARK-sized square whose top left is (x, y)."""
    c: Point = (x + MARK / 2, y + MARK / 2)
    r = MARK / 2 - 1
    if not key.mark:
        return ()
    if key.mark == "dot":
        return (Circle(c, r, fill=key.fill or key.color, outline=key.color, width=key.width),)
    if key.mark == "ring":
        return (Circle(c, r, fill=key.fill, outline=key.color, width=key.width),)
    if key.mark == "square":
        return (Polygon(((x, y), (x + MARK, y), (x + MARK, y + MARK), (x, y + MARK)), fill=key.fill,
                        outline=key.color, width=key.width),)
    if key.mark == "hex":
        return (Polygon(tuple((c[0] + r * math.cos(math.radians(60 * i)), c[1] + r * math.sin(math.radians(60 * i)))
                              for i in range(6)), fill=key.fill, outline=key.color, width=key.width),)
    if key.mark == "triangle":
        return (Polygon(((x + 1, y + MARK - 1), (x + MARK - 1, y + MARK - 1), (c[0], y + 1)), fill=key.fill,
                        outline=key.color, width=key.width),)
    if key.mark in ("line", "arrow"):
        return (Line(((x, c[1]), (x + MARK, c[1])), key.color, key.width, arrow=key.mark == "arrow"),)
    raise ValueError(f"unknown legend mark {key.mark!r}")


def entry_width(key: Key, size: int) -> float:
    return MARK + _PAD + text_width(key.text, size)


def legend(keys: Sequence[Key], x: float, y: float, width: float, size: int = 10,
           heading: str = "Legend:") -> tuple[tuple[Shape, ...], float]:
    """The shapes of a legend starting at (x, y) and never wider than ``width``, and its height.

    Entries flow left to right and wrap to a new row before they would cross the right edge, so the
    legend fits any canvas at least as wide as its widest entry; the caller makes room for the height.
    """
    row_h = round(max(MARK, 1.3 * size) + 6)  # whole pixels keep the renderer's glyph cache warm
    shapes: list[Shape] = []
    x, y = round(x), round(y)
    cx, cy = x, y
    if heading:
        shapes.append(Text((cx, cy + row_h / 2), heading, "#000000", size, "lm"))
        cx += round(text_width(heading, size) + _PAD)
    for key in keys:
        w = entry_width(key, size)
        if cx + w > x + width and cx > x:
            cx, cy = x, cy + row_h
        shapes += _mark(key, cx, cy + (row_h - MARK) / 2)
        shapes.append(Text((cx + MARK + _PAD, cy + row_h / 2), key.text, "#222222", size, "lm"))
        cx += round(w + _SPACING)
    return tuple(shapes), cy + row_h - y
