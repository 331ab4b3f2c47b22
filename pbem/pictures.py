"""Drawing a :class:`pbem.core.picture.Picture` to PNG with Pillow.

Pillow is the imaging library: mature, wheels everywhere, and its PNG
output is byte-stable for the same input, which ``pbem replay`` relies on.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from pbem.core.picture import Circle, Line, Picture, Polygon, Text, title_text


@lru_cache(maxsize=16)
def _font(size: int):
    # Pillow ships a scalable default font from 10.1 on; no system font is needed.
    return ImageFont.load_default(size=size)


#: Maps use few colours.  The cached board is reduced once to a palette with room to spare, and each
#: picture is drawn straight onto a copy of it: no per-picture colour reduction, small files.
#: (Text drawn on a palette image is not anti-aliased; it stays legible at the sizes maps use.)
BASE_COLOURS = 128


@lru_cache(maxsize=32)
def _base(width: int, height: int, background: str, shapes: tuple) -> Image.Image:
    img = Image.new("RGB", (width, height), background)
    _draw(ImageDraw.Draw(img), shapes)
    return img.quantize(colors=BASE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


#: The last base drawn, by identity: rulesets hand back the same cached tuple of board shapes every time,
#: and hashing a thousand frozen shapes for the lru_cache key costs more than drawing the labels.
_LAST_BASE: list[tuple[tuple, tuple, Image.Image]] = []


def _base_for(size: tuple[int, int], picture: Picture) -> Image.Image:
    key = (size, picture.background)
    for shapes, k, img in _LAST_BASE:
        if shapes is picture.base and k == key:
            return img
    img = _base(*size, picture.background, picture.base)
    _LAST_BASE[:] = [(picture.base, key, img), *_LAST_BASE[:7]]
    return img


def render_png(picture: Picture) -> bytes:
    size = (max(1, int(picture.width)), max(1, int(picture.height)))
    base = _base_for(size, picture)
    try:
        img = _over(base.copy(), picture)
    except ValueError:  # more colours than a palette holds: draw in full colour, reduce at the end
        img = _over(base.convert("RGB"), picture).quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                                            dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)  # palette images are small already; level 1 is fastest
    return out.getvalue()


def _over(img: Image.Image, picture: Picture) -> Image.Image:
    draw = ImageDraw.Draw(img)
    _draw(draw, picture.shapes)
    title = title_text(picture)
    if title is not None:
        _text(draw, title.at, title.text, title.color, title.size, title.anchor)
    return img


def _draw(draw: ImageDraw.ImageDraw, shapes) -> None:
    for shape in shapes:
        if isinstance(shape, Polygon):
            draw.polygon(list(shape.points), fill=shape.fill, outline=shape.outline, width=shape.width)
        elif isinstance(shape, Circle):
            (x, y), r = shape.center, shape.radius
            draw.ellipse((x - r, y - r, x + r, y + r), fill=shape.fill, outline=shape.outline, width=shape.width)
        elif isinstance(shape, Line):
            draw.line(list(shape.points), fill=shape.color, width=shape.width)
            if shape.arrow and len(shape.points) >= 2:
                _arrowhead(draw, shape.points[-2], shape.points[-1], shape.color, max(6, 3 * shape.width))
        elif isinstance(shape, Text):
            _text(draw, shape.at, shape.text, shape.color, shape.size, shape.anchor)


def _text(draw: ImageDraw.ImageDraw, at, text: str, colour: str, size: int, anchor: str) -> None:
    """Draw one line of text exactly as ``draw.text`` would, from a cached glyph mask.

    Rasterising glyphs is most of the cost of a picture, and maps repeat the same labels at the
    same places every phase and for every seat.  The mask depends only on the text, size, anchor,
    font mode and the sub-pixel part of the position, so each distinct one is rendered once;
    drawing it in a colour is cheap.  Output is byte-identical to ``draw.text`` (tests pin it).
    """
    font = _font(size)
    if "\n" in text or not isinstance(font, ImageFont.FreeTypeFont):
        draw.text(at, text, fill=colour, font=font, anchor=anchor)  # multi-line layout or bitmap font: rare
        return
    # Pillow splits a position into whole pixels and the fraction the glyphs are rendered at.
    x, y = at
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _mask(size, text, anchor, draw.fontmode, start)
    draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=colour)


#: Bounded because a long-running server meets ever new labels; a few thousand small masks cover
#: every label of the games in play (a full benchmark run uses under a thousand).
@lru_cache(maxsize=4096)
def _mask(size: int, text: str, anchor: str, mode: str, start: tuple[float, float]):
    """The glyph coverage of one line of text and its offset from the anchor point, as Pillow renders it."""
    core, offset = _font(size).getmask2(text, mode, anchor=anchor, start=start)
    # getmask2 hands back Pillow's internal image; wrap it so ImageDraw.bitmap can take it.
    return Image.Image()._new(core), offset


def _arrowhead(draw, a, b, color, size):
    import math

    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - size * math.cos(angle - 0.45), b[1] - size * math.sin(angle - 0.45))
    right = (b[0] - size * math.cos(angle + 0.45), b[1] - size * math.sin(angle + 0.45))
    draw.polygon([b, left, right], fill=color)
