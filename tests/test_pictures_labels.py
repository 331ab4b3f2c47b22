"""Readable pictures: the text-box estimate holds what Pillow draws, placement never overlaps, the check catches faults,
and every seat's picture of every ruleset and scenario passes the check in sampled phases of a bot game."""
from __future__ import annotations

import importlib

import pytest

from pbem import pictures
from pbem.core.labels import Box, Label, Occupancy, place, problems, text_box
from pbem.core.legend import Key, legend
from pbem.core.picture import Circle, Picture, Text, title_text
from pbem.core.play import play

SEED = b"pictures: labels never overlap, 2026"
RULESETS = ("aa_miniatures", "bismarck", "lew_morski", "sky_ww2", "wing_leader")


def _ruleset(name: str):
    return importlib.import_module(f"pbem.rules.{name}").RULESET


def _games():
    for name in RULESETS:
        for sc in _ruleset(name).info.scenarios:
            yield name, sc.name


def _measured(t: Text) -> Box:
    """The box of the pixels Pillow draws for ``t`` (its own bounding box for the anchor)."""
    x0, y0, x1, y1 = pictures._font(t.size).getbbox(t.text, anchor=t.anchor)
    return Box(t.at[0] + x0, t.at[1] + y0, t.at[0] + x1, t.at[1] + y1)


# ----------------------------------------------------------------------------------------------- the estimate
@pytest.mark.parametrize("anchor", ["mm", "la", "lm", "rm", "ls", "lt", "rs", "mb"])
@pytest.mark.parametrize("size", [7, 8, 9, 10, 12, 13, 14])
def test_text_box_holds_the_drawn_glyphs(size, anchor):
    for text in ("WWW@@@", "He111-2", "A42", "B07", "iiii,,,", "round 3 · VP 1", "Mg|jy", "ramillies (dd1, dd2)"):
        t = Text((100.5, 50.25), text, size=size, anchor=anchor)
        assert _measured(t).inside(text_box(t)), (text, size, anchor)


def test_every_text_of_sampled_pictures_is_inside_its_estimate():
    for name, scenario in _games():
        rs = _ruleset(name)
        st = play(rs, scenario, SEED, max_phases=6)[-1]
        for seat in rs.seats(st.state):
            pic = rs.picture(rs.view(st.state, seat.name))
            for t in [s for s in pic.base + pic.shapes if isinstance(s, Text)] + [title_text(pic)]:
                assert _measured(t).inside(text_box(t)), (name, t)


# ----------------------------------------------------------------------------------------------- the check
def test_the_check_finds_overlaps_and_text_off_the_canvas():
    good = Picture(200, 100, (Text((50, 50), "Spit-1"), Text((150, 50), "He111-2")), title="t")
    assert problems(good) == []
    clash = Picture(200, 100, (Text((50, 50), "revenge"), Text((58, 52), "dd2")))
    assert len(problems(clash)) == 1 and "overlaps" in problems(clash)[0]
    off = Picture(200, 100, (Text((195, 50), "He111-2"),))
    assert "leaves" in problems(off)[0]
    under_title = Picture(300, 100, (Text((40, 12), "A01"),), title="a long title over the column numbers")
    assert "overlaps" in problems(under_title)[0]


# ----------------------------------------------------------------------------------------------- placement
def _placed(labels, width=400, height=300, marks=()):
    taken = Occupancy([Box(x - r, y - r, x + r, y + r) for (x, y), r in marks])
    shapes = place(labels, Box(0, 0, width, height), taken)
    return Picture(width, height, tuple(Circle(c, r) for c, r in marks) + shapes)


def test_six_aircraft_in_one_formation_get_six_separate_labels():
    hexes = [(200 + 20 * (i % 3), 150 + 17 * (i // 3)) for i in range(6)]
    labels = [Label(h, (f"He111-{i + 1}", "very low NE"), size=9, gap=8) for i, h in enumerate(hexes)]
    pic = _placed(labels, marks=[(h, 5) for h in hexes])
    assert problems(pic) == []
    drawn = [s.text for s in pic.shapes if isinstance(s, Text)]
    assert sorted(d for d in drawn if d.startswith("He")) == [f"He111-{i}" for i in range(1, 7)]  # hyphens kept
    # no label covers an aircraft mark
    boxes = [text_box(s) for s in pic.shapes if isinstance(s, Text)]
    assert not any(b.overlaps(Box(x - 5, y - 5, x + 5, y + 5)) for b in boxes for (x, y) in hexes)


def test_ships_stacked_in_one_hex_and_many_in_adjacent_hexes():
    stacked = Label((100, 100), ("U26: TF3 (ark-royal, renown, sheffield)", "norfolk", "suffolk", "dd1"))
    row = [Label((160 + 17 * i, 100 + 15 * (i % 2)), (f"V{20 + i}: {name}",))
           for i, name in enumerate(["revenge", "dd2", "ramillies", "rodney", "king-george-v", "london", "dd3"])]
    pic = _placed([stacked, *row], width=520, marks=[((100, 100), 5)] + [(lb.anchor, 5) for lb in row])
    assert problems(pic) == []
    assert {"norfolk", "suffolk", "dd1", "V21: dd2"} <= {s.text for s in pic.shapes if isinstance(s, Text)}


def test_a_displaced_label_gets_a_leader_line_and_a_crowded_board_still_draws():
    from pbem.core.picture import Line
    wall = [Label((60, 60), (f"unit-{i}",)) for i in range(12)]  # twelve labels for one spot: most move out
    pic = _placed(wall, width=300, height=200)
    assert problems(pic) == [] and any(isinstance(s, Line) for s in pic.shapes)
    # no room at all: the labels still come back (overlapping), so a sitrep is never lost to a crowded map
    tiny = _placed([Label((10, 10), ("a rather long name",)) for _ in range(3)], width=40, height=20)
    assert len([s for s in tiny.shapes if isinstance(s, Text)]) == 3 and problems(tiny)


def test_legend_wraps_inside_its_width():
    keys = [Key("dot", f"meaning number {i}", "#c0392b") for i in range(12)]
    shapes, height = legend(keys, 10, 0, 280, 10)
    pic = Picture(300, int(height) + 2, shapes)
    assert problems(pic) == [] and height > 60


# ----------------------------------------------------------------------------------------------- every game
def _sample(n: int, every: int) -> list[int]:
    return sorted(set(range(0, n, every)) | {n - 1})


@pytest.mark.parametrize("name,scenario", list(_games()))
def test_every_seat_picture_in_a_bot_game_is_readable(name, scenario):
    """Sampled phases cover the crowded ones: formations meet mid-board by the middle of a game."""
    rs = _ruleset(name)
    steps = play(rs, scenario, SEED, max_phases=40)
    bad = []
    for i in _sample(len(steps), 3):
        for seat in rs.seats(steps[i].state):
            found = problems(rs.picture(rs.view(steps[i].state, seat.name)))
            bad += [f"{steps[i].phase.key} {seat.name}: {p}" for p in found]
    assert bad == []
