"""The side-view picture [2.2, 4]: every square identifiable, IDs that never overlap and stay with their arrows,
tally lines, dogfight frames, clouds, haze, the sun and a legend that fits."""
from __future__ import annotations

import math

from pbem import pictures
from pbem.core.labels import Box, problems, text_box
from pbem.core.picture import Circle, Line, Polygon, Text
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader import picture as pic
from pbem.rules.wing_leader.sky import COLUMNS
from pbem.testing import known


def _picture(scenario: str = "sweep", edits: list | None = None, seat: str = "allies"):
    state = known.start_state(RULESET, known.Case("picture", "-", "-", {"scenario": scenario, "edits": edits or []}))
    return RULESET.picture(RULESET.view(state, seat))


def _texts(p, colour: str | None = None) -> dict[str, list[Text]]:
    out: dict[str, list[Text]] = {}
    for t in p.shapes:
        if isinstance(t, Text) and (colour is None or t.color == colour):
            out.setdefault(t.text, []).append(t)
    return out


def test_every_column_and_altitude_is_named_on_both_sides_of_the_map():
    """2.2: 26 columns A-Z and altitudes 0-19, each written twice, so any square is found from the nearest edge."""
    p = _picture()
    base = [t.text for t in p.base if isinstance(t, Text)]
    assert len(COLUMNS) >= 26 and all(base.count(c) == 2 for c in COLUMNS[:26])
    assert all(base.count(str(a)) == 2 for a in range(20)) and len(base) == 2 * 26 + 2 * 20
    assert problems(p) == [] and pictures.render_png(p)[:4] == b"\x89PNG"


def test_lone_squadrons_carry_their_id_inside_their_square_in_their_side_colour():
    p = _picture()
    allied, axis = _texts(p, pic.SIDE_COLOURS["allies"]), _texts(p, pic.SIDE_COLOURS["axis"])
    assert {"A", "B"} <= set(allied) and {"K", "L"} <= set(axis)
    view = RULESET.view(known.start_state(RULESET, known.Case("p", "-", "-", {"scenario": "sweep"})), "allies")
    for s in view["squadrons"]:
        (t,) = (allied | axis)[s["id"]]
        x0, y0 = pic._corner(*s["at"])
        box = text_box(t)
        assert x0 <= box.x0 and box.x1 <= x0 + pic.CELL and y0 <= box.y0 and box.y1 <= y0 + pic.CELL, s["id"]


def test_a_crowded_dogfight_square_gets_a_frame_and_ids_with_leader_lines():
    """10.8: four squadrons in one square, two of them in a dogfight: a frame round it, each ID placed
    outside with a line back to its arrow, no text overlapping."""
    edits = [[f"squadrons[id={i}].at", [12, 12]] for i in "ABKL"] + [["squadrons[id=A].dogfight", True],
                                                                       ["squadrons[id=K].dogfight", True]]
    p = _picture(edits=edits)
    assert problems(p) == []
    x0, y0 = pic._corner(12, 12)
    frames = [s for s in p.shapes if isinstance(s, Polygon) and s.outline == pic.DOGFIGHT
              and s.points[0][1] < pic.GRID_BOTTOM]  # not the legend's mark
    assert len(frames) == 1 and frames[0].points[0] == (x0 + 1, y0 + 1)
    texts = _texts(p)
    leaders = [s for s in p.shapes if isinstance(s, Line) and s.color == "#555555"]
    for sid in "ABKL":
        box = text_box(texts[sid][0])
        assert any(math.dist(line.points[-1], box.nearest(line.points[-1])) < 1 for line in leaders), sid
        assert box.x1 <= x0 or box.x0 >= x0 + pic.CELL or box.y1 <= y0 or box.y0 >= y0 + pic.CELL  # outside


def test_a_tally_line_runs_from_the_tallying_squadron_to_a_dot_short_of_its_target():
    """7.2: the line is in a pale shade of the tallying side's colour, the dot marks which end is the target."""
    edits = [["squadrons[id=A].at", [10, 12]], ["squadrons[id=K].at", [14, 12]], ["squadrons[id=A].tally", "K"]]
    p = _picture(edits=edits)
    pale = pic.TALLY_COLOURS["allies"]
    (line,) = [s for s in p.shapes if isinstance(s, Line) and s.color == pale]
    (dot,) = [s for s in p.shapes if isinstance(s, Circle) and s.fill == pale]
    a, k = pic._centre(10, 12), pic._centre(14, 12)
    assert line.points[0][0] == a[0] and dot.center == line.points[-1]
    assert 0 < math.dist(dot.center, (k[0], dot.center[1])) <= 10 and dot.center[0] < k[0]
    assert not [s for s in p.shapes if isinstance(s, Line) and s.color == pic.TALLY_COLOURS["axis"]]


def test_weather_the_sun_and_the_legend():
    """4.2-4.5: cloud kinds and haze in the legend as drawn; the sun on the frame; the legend fits the canvas."""
    p = _picture("raid")
    legend = {t.text for t in p.shapes if isinstance(t, Text)}
    assert {"Legend:", "broken cloud", "wispy cloud", "dogfight", "tally line (dot at the target)"} <= legend
    assert any(t.startswith("haze (altitudes 0-") for t in legend) and any(t.startswith("sun: ") for t in legend)
    assert [s for s in p.shapes if isinstance(s, Circle) and s.fill == pic.SUN]
    bottom = max(text_box(t).y1 for t in p.shapes if isinstance(t, Text))
    assert bottom <= p.height and problems(p) == []


def test_rain_falls_under_dense_cloud_when_the_scenario_has_rain():
    """4.5.1 (AMB-4): the squares under a dense square are hatched."""
    view = RULESET.view(known.start_state(RULESET, known.Case("p", "-", "-", {"scenario": "sweep"})), "allies")
    view = {**view, "sky": {**view["sky"], "clouds": [["E10", "dense"]], "rain": True}}
    p = RULESET.picture(view)
    rain = [s for s in p.shapes if isinstance(s, Line) and s.color == pic.RAIN and s.points[0][1] < pic.GRID_BOTTOM]
    assert len(rain) == 3 * 10 and "rain (under dense cloud)" in {t.text for t in p.shapes if isinstance(t, Text)}


def test_the_sun_of_every_sector_sits_on_the_frame_clear_of_every_text():
    """4.2: each of the five sun sectors is drawn off the squares, on its own side, overlapping no coordinate."""
    view = RULESET.view(known.start_state(RULESET, known.Case("p", "-", "-", {"scenario": "raid"})), "allies")
    grid = (pic.LEFT, pic.TOP, pic.LEFT + 26 * pic.CELL, pic.GRID_BOTTOM)
    for sector in ("left_level", "left_high", "high", "right_high", "right_level"):
        p = RULESET.picture({**view, "sky": {**view["sky"], "sun": sector}})
        (sun,) = [s for s in p.shapes if isinstance(s, Circle) and s.fill == pic.SUN and s.center[1] < pic.GRID_BOTTOM]
        x, y = sun.center
        assert not (grid[0] < x < grid[2] and grid[1] < y < grid[3]), sector
        assert (x < grid[0]) == sector.startswith("left") and (x > grid[2]) == sector.startswith("right")
        box = Box(x - 9, y - 9, x + 9, y + 9)
        assert not any(box.overlaps(text_box(t)) for t in p.base + p.shapes if isinstance(t, Text)), sector


def test_bomb_runs_and_target_damage_are_drawn():
    """15.2.1/15.3: a line from each bomber on its way to its target, its approach so far drawn thick;
    14.1.1: a hit surface unit's label gives its damage and hits over its damage rating; no overlaps."""
    edits = [["squadrons[id=T].run", [[14, 0], [15, 0]]], ["squadrons[id=T].at", [15, 0]],
             ["surfaces[id=K1].hits", 4]]
    p = _picture("torpedo", edits)
    assert problems(p) == []
    runs = [s for s in p.shapes if isinstance(s, Line) and s.color == pic.BOMB_RUN and s.points[0][1] < pic.GRID_BOTTOM]
    assert len([r for r in runs if r.width == 1]) == 5   # T, V, R, P, G each to its target
    (thick,) = [r for r in runs if r.width == 3]
    assert thick.points == (pic._centre(14, 0), pic._centre(15, 0))
    assert "K1 l 4/6" in _texts(p) and any("bomb run" in t for t in _texts(p))
    assert "damage rating" in " ".join(_texts(p))
    # 14.3: the balloon B1 over N2, its ID beside it, in the legend
    assert "B1" in _texts(p, pic.BALLOON) and any("barrage balloon" in t for t in _texts(p))
    assert any(isinstance(c, Circle) and c.outline == pic.BALLOON and c.center[1] < pic.GRID_BOTTOM for c in p.shapes)
