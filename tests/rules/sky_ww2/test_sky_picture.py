"""The Sky of WWII board a player plans on: every cell named, facing in words, legend and panel inside the canvas."""
from __future__ import annotations

from skyhelp import position

from pbem.core.labels import problems
from pbem.core.picture import Text
from pbem.rules.sky_ww2 import RULESET


def test_full_fields_read_cleanly():
    cells = [(x, y) for x in range(1, 5) for y in range(1, 5)]
    spec = {f"c{i + 1}": {"number": 8, "alt": "medium", "cell": c, "facing": "ENSW"[i % 4],
                          "hand": ["short-burst", "banked-turn", "dodge", "feint", "barrel-roll"]}
            for i, c in enumerate(cells[:5])}
    spec.update({f"x{i + 1}": {"number": 2, "alt": "medium", "cell": c, "facing": "W", "damaged": i % 2 == 0}
                 for i, c in enumerate(cells[5:10])})
    pic = RULESET.picture(RULESET.view(position(spec), "coalition-1"))
    assert problems(pic) == []
    texts = [s.text for s in pic.base + pic.shapes if isinstance(s, Text)]
    assert {"c1 east", "c2 north", "c3 south", "c4 west", "x1 west"} <= set(texts)
    assert {f"{x},{y}" for x, y in cells} <= set(texts)
    assert "Legend:" in texts
