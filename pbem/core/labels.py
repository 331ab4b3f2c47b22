"""Where text goes on a picture: conservative text boxes, label placement and the overlap check.

A map is only useful if a player can read every label.  This module keeps that property in data:
``text_box`` estimates, from the font size and the characters alone, a box that holds whatever the
renderer draws (a test at the edge measures Pillow's font against it), ``place`` puts unit labels
where they touch nothing else, and ``problems`` lists every pair of texts that overlap and every
text that leaves the canvas.  Pure: no imaging library, so rulesets and tests can use it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .picture import Line, Picture, Point, Shape, Text, title_text

#: Advance widths as a fraction of the font size, rounded up from the renderer's scalable default font
#: (its widest glyphs, W and @, are one em).  Anything not listed counts as a wide letter.
_NARROW = frozenset(" '.,:;`")
_THIN = frozenset("fijltI!\"()-/[]\\{}|r")
_MEDIUM = frozenset("0123456789ABEFJKLPRSTVXYabcdegkopqsvxyz#<=>^~_?")
_WIDE = frozenset("mwMWHN@%&")
_WIDTH = {**dict.fromkeys(_NARROW, 0.3), **dict.fromkeys(_THIN, 0.45), **dict.fromkeys(_MEDIUM, 0.65),
          **dict.fromkeys(_WIDE, 1.0)}
_DEFAULT_WIDTH = 0.75
#: How far the drawn glyphs reach above and below the anchor's reference line, in font sizes, per Pillow's
#: vertical anchor letter: a(scender)/t(op), m(iddle), s (baseline), b(ottom)/d(escender).
_VERTICAL = {"a": (0.0, 1.3), "t": (0.0, 1.3), "m": (-0.7, 0.7), "s": (-1.05, 0.35), "b": (-1.3, 0.0),
             "d": (-1.3, 0.0)}
#: Boxes closer than this (pixels) count as touching, not overlapping: float arithmetic, not layout.
EPSILON = 1e-6
#: Lines of a label block are this many font sizes apart.
LINE_PITCH = 1.3


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle, x0 <= x1 and y0 <= y1, in pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box) -> bool:
        """True when the interiors meet (touching edges do not count, nor rounding errors)."""
        e = EPSILON
        return self.x0 + e < other.x1 and other.x0 + e < self.x1 and self.y0 + e < other.y1 and other.y0 + e < self.y1

    def inside(self, outer: Box) -> bool:
        return outer.x0 <= self.x0 and outer.y0 <= self.y0 and self.x1 <= outer.x1 and self.y1 <= outer.y1

    def grow(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def nearest(self, p: Point) -> Point:
        """The point of the box closest to ``p``."""
        return (min(max(p[0], self.x0), self.x1), min(max(p[1], self.y0), self.y1))


def text_width(text: str, size: float) -> float:
    """A width no smaller than the text's advance, in pixels (one pixel spare for rounding)."""
    return size * sum(_WIDTH.get(c, _DEFAULT_WIDTH) for c in text) + 1


def text_box(t: Text) -> Box:
    """A box that holds everything the renderer draws for ``t`` (one line or several)."""
    lines = t.text.split("\n")
    w = max(text_width(line, t.size) for line in lines)
    h_extra = (len(lines) - 1) * LINE_PITCH * t.size
    horizontal, vertical = (t.anchor[0], t.anchor[1]) if len(t.anchor) == 2 else ("m", "m")
    x0 = {"l": t.at[0], "m": t.at[0] - w / 2, "r": t.at[0] - w}.get(horizontal, t.at[0] - w / 2)
    up, down = _VERTICAL.get(vertical, _VERTICAL["m"])
    # a pixel spare on every side: glyphs overhang their advance by up to one pixel
    return Box(x0 - 1, t.at[1] + up * t.size - 1, x0 + w + 1, t.at[1] + down * t.size + h_extra + 1)


def circle_box(center: Point, radius: float) -> Box:
    return Box(center[0] - radius, center[1] - radius, center[0] + radius, center[1] + radius)


def points_box(points: Iterable[Point]) -> Box:
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return Box(min(xs), min(ys), max(xs), max(ys))


class Occupancy:
    """Boxes already taken, bucketed on a coarse grid so a query looks only at its neighbours."""

    CELL = 32.0

    def __init__(self, boxes: Iterable[Box] = ()) -> None:
        self._grid: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            self.add(b)

    def _cells(self, b: Box) -> Iterator[tuple[int, int]]:
        c = self.CELL
        for i in range(math.floor(b.x0 / c), math.floor(b.x1 / c) + 1):
            for j in range(math.floor(b.y0 / c), math.floor(b.y1 / c) + 1):
                yield i, j

    def copy(self) -> Occupancy:
        """An independent copy: a cached set of fixed obstacles can seed every picture's placement."""
        out = Occupancy()
        out._grid = {k: list(v) for k, v in self._grid.items()}
        return out

    def add(self, b: Box) -> None:
        for key in self._cells(b):
            self._grid.setdefault(key, []).append(b)

    def hits(self, b: Box) -> Iterator[Box]:
        seen: set[int] = set()
        for key in self._cells(b):
            for other in self._grid.get(key, ()):
                if id(other) not in seen and other.overlaps(b):
                    seen.add(id(other))
                    yield other

    def free(self, b: Box) -> bool:
        return next(self.hits(b), None) is None


@dataclass(frozen=True)
class Label:
    """Text naming a mark at ``anchor``: one or more lines, kept together as one block."""

    anchor: Point
    lines: tuple[str, ...]
    color: str = "#000000"
    size: int = 9
    gap: float = 5.0  # the distance kept between the anchor and the block when it sits next to it


#: The directions tried around an anchor, best first: right, left, above, below, then the corners.
_DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1))
#: Directions added once a label has to move away from its mark (rings beyond the first).
_FAR = _DIRECTIONS + ((2, -1), (2, 1), (-2, -1), (-2, 1), (1, -2), (1, 2), (-1, -2), (-1, 2))
MAX_RINGS = 60


def line_pitch(size: int) -> float:
    """The distance between lines of a block: the height of one line's text box, in whole pixels."""
    return float(math.ceil(LINE_PITCH * size + 2))


def block_size(label: Label) -> tuple[float, float]:
    w = max(text_width(line, label.size) for line in label.lines)
    return w + 2, line_pitch(label.size) * len(label.lines)


def _candidates(label: Label) -> Iterator[tuple[Box, bool]]:
    """Block positions around the anchor, nearest first; True where a leader line is needed."""
    w, h = block_size(label)
    ax, ay = label.anchor
    step = LINE_PITCH * label.size
    for ring in range(MAX_RINGS):
        r = label.gap + ring * step
        for dx, dy in _DIRECTIONS if ring == 0 else _FAR:
            cx = ax + dx * (w / 2 + r) if abs(dx) <= 1 else ax + math.copysign(w / 2 + 2 * r, dx)
            cy = ay + dy * (h / 2 + r) if abs(dy) <= 1 else ay + math.copysign(h / 2 + 2 * r, dy)
            # whole pixels: the renderer caches each label's glyphs per sub-pixel offset, so a label that
            # moves by a fraction between phases would be rasterised afresh every time
            x0, y0 = round(cx - w / 2), round(cy - h / 2)
            yield Box(x0, y0, x0 + w, y0 + h), ring > 0


def _spot(label: Label, area: Box, taken: Occupancy, placed: Occupancy) -> tuple[Box, bool]:
    """The first free candidate inside ``area`` whose leader line (if any) crosses no placed label;
    failing that, the first free one; failing that, the nearest one inside ``area``.

    A sitrep must go out even on a board too crowded for its labels, so the last resort overlaps
    rather than fails; :func:`problems` (run by the tests on every game) reports it.
    """
    crossing = overlapping = None
    for box, far in _candidates(label):
        if not box.inside(area):
            continue
        if taken.free(box.grow(1)):
            if not far or _leader_clear(label.anchor, box, placed):
                return box, far
            crossing = crossing or (box, far)
        overlapping = overlapping or (box, far)
    return crossing or overlapping or next(_candidates(label))


def _leader_clear(anchor: Point, box: Box, labels: Occupancy) -> bool:
    """Whether the leader line from ``anchor`` to ``box`` stays off every label placed so far."""
    end = box.nearest(anchor)
    n = max(1, int(math.dist(anchor, end) / 3))
    for i in range(1, n):
        x = anchor[0] + (end[0] - anchor[0]) * i / n
        y = anchor[1] + (end[1] - anchor[1]) * i / n
        if not labels.free(Box(x - 0.5, y - 0.5, x + 0.5, y + 0.5)):
            return False
    return True


def place(labels: Sequence[Label], area: Box, taken: Occupancy, leader: str = "#555555") -> tuple[Shape, ...]:
    """Texts (and leader lines) for ``labels``, in order, each where it overlaps nothing in ``taken``.

    Each block goes in the first free spot of the candidates around its anchor (right of the mark
    first, then further out in rings); a block that had to move away from its mark gets a thin
    line back to it, which crosses no other label.  Placed blocks are added to ``taken``, so later labels avoid them too.
    Every block stays inside ``area`` if it fits there at all.
    """
    out: list[Shape] = []
    placed = Occupancy()
    for label in labels:
        box, far = _spot(label, area, taken, placed)
        taken.add(box)
        placed.add(box)
        if far:
            out.append(Line((label.anchor, box.nearest(label.anchor)), leader, 1))
        pitch = line_pitch(label.size)
        for i, line in enumerate(label.lines):
            out.append(Text((box.x0 + 1, box.y0 + 1 + i * pitch), line, label.color, label.size, "la"))
    return tuple(out)


def columns(blocks: Sequence[tuple[str, Sequence[str]]], x: float, y: float, width: float, size: int = 9,
            color: str = "#000000") -> tuple[tuple[Shape, ...], float]:
    """Blocks of lines (a heading, then its lines indented) set in columns across ``width``, and their height.

    For lists that would crowd the map: each block stays in one column, columns are as wide as the
    widest line, and a block that would cross the right edge starts a new band of columns below.
    """
    pitch = line_pitch(size)
    shapes: list[Shape] = []
    x, y = float(round(x)), float(round(y))  # whole pixels keep the renderer's glyph cache warm
    cx, top, band_h = x, y, 0.0
    for heading, lines in blocks:
        w = max(text_width(t, size) + (size if i else 0) for i, t in enumerate([heading, *lines])) + 2
        if cx + w > x + width and cx > x:
            cx, top, band_h = x, top + band_h, 0.0
        for i, t in enumerate([heading, *lines]):
            shapes.append(Text((cx + 1 + (size if i else 0), top + 1 + i * pitch), t, color, size, "la"))
        band_h = max(band_h, pitch * (len(lines) + 1) + round(pitch / 2))
        cx += round(w + 2 * size)
    return tuple(shapes), top + band_h - y


def texts(picture: Picture) -> list[Text]:
    """Every text the renderer draws for ``picture``: base, shapes and the title."""
    out = [s for s in picture.base + picture.shapes if isinstance(s, Text)]
    title = title_text(picture)
    return out + ([title] if title else [])


def problems(picture: Picture) -> list[str]:
    """What makes a picture unreadable: texts that overlap each other, texts that leave the canvas.

    Empty for a good picture.  Boxes come from :func:`text_box`, which is conservative, so a picture
    that passes here is readable whatever the exact glyph shapes.
    """
    canvas = Box(0, 0, picture.width, picture.height)
    out: list[str] = []
    taken = Occupancy()
    owner: dict[int, Text] = {}
    for t in texts(picture):
        if not t.text.strip():
            continue
        box = text_box(t)
        if not box.inside(canvas):
            out.append(f"{t.text!r} at {t.at} leaves the {picture.width}x{picture.height} canvas")
        for other in taken.hits(box):
            out.append(f"{t.text!r} at {t.at} overlaps {owner[id(other)].text!r} at {owner[id(other)].at}")
        taken.add(box)
        owner[id(box)] = t
    return out
