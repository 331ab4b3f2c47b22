"""The picture renderer: cached text masks draw exactly what Pillow's ``draw.text`` draws."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from pbem import pictures
from pbem.core.picture import Circle, Picture, Polygon, Text

#: Whole and fractional positions (negative ones too: Pillow truncates them towards zero), every anchor maps use.
PLACES = [((20, 15), "mm"), ((33.5, 17.25), "mm"), ((6, 4), "la"), ((40.75, 30.4), "la"), ((-3.5, 12.6), "la"),
          ((50.2, 25.9), "rs"), ((12.0, 40.5), "lt")]


def _pair(mode: str):
    background = "#eef5fb" if mode == "RGB" else 0
    a = Image.new(mode, (120, 60), background)
    if mode == "P":
        a.putpalette([238, 245, 251] * 256)
    return a, a.copy()


@pytest.mark.parametrize("mode", ["P", "RGB"])  # palette (1-bit glyphs) and the full-colour fallback (anti-aliased)
def test_cached_text_matches_pillow(mode):
    for (at, anchor) in PLACES:
        for text, size, colour in (("A07", 7, "#777777"), ("Bf109 2/4", 9, "#c0392b"), ("round 3 · VP 1", 12, "#000")):
            ours, theirs = _pair(mode)
            pictures._text(ImageDraw.Draw(ours), at, text, colour, size, anchor)
            pictures._text(ImageDraw.Draw(ours), at, text, colour, size, anchor)  # second time: from the cache
            draw = ImageDraw.Draw(theirs)
            draw.text(at, text, fill=colour, font=pictures._font(size), anchor=anchor)
            draw.text(at, text, fill=colour, font=pictures._font(size), anchor=anchor)
            assert ours.tobytes() == theirs.tobytes(), (mode, at, anchor, text)
            assert ours.getpalette() == theirs.getpalette()


def test_multiline_text_still_drawn():
    ours, theirs = _pair("RGB")
    pictures._text(ImageDraw.Draw(ours), (10, 10), "two\nlines", "#000000", 10, "la")
    ImageDraw.Draw(theirs).text((10, 10), "two\nlines", fill="#000000", font=pictures._font(10), anchor="la")
    assert ours.tobytes() == theirs.tobytes()


def test_render_png_is_deterministic():
    def picture(label: str) -> Picture:
        return Picture(200, 100, (Circle((50, 50), 10, fill="#c0392b"), Text((50.5, 70.25), label, size=9),
                                  Text((5, 90), "legend", anchor="la", size=8)),
                       title="t", base=(Polygon(((0, 0), (10, 0), (10, 10)), fill="#eeeeee"), Text((100, 8), "A01")))

    first = pictures.render_png(picture("Bf109"))
    pictures.render_png(picture("Spitfire"))  # other masks in between
    assert pictures.render_png(picture("Bf109")) == first
