"""The Search Map a player plans on: every hex nameable, unit labels that never overlap, a legend inside."""
from __future__ import annotations

from pbem.core.labels import problems
from pbem.core.picture import Text
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.board import ROW_NAMES, board

from .conftest import fresh


def _view(**changes):
    v = dict(RULESET.view(fresh(), "allied"))
    v.update(changes)
    return v


def _texts(pic):
    return [s.text for s in pic.base + pic.shapes if isinstance(s, Text)]


def test_every_row_and_column_is_named_on_both_sides():
    texts = _texts(RULESET.picture(_view()))
    b = board()
    assert all(texts.count(r) == 2 for r in ROW_NAMES[:b.rows])
    assert all(texts.count(str(c)) >= 2 for c in range(1, b.cols + 1))


def test_the_title_clears_the_column_numbers_and_the_legend_fits():
    pic = RULESET.picture(_view())
    assert problems(pic) == []
    assert "Legend:" in _texts(pic) and "shadowed contact" in _texts(pic)


def test_ships_stacked_in_one_hex_and_many_in_adjacent_hexes_stay_readable():
    names = ["revenge", "dd2", "ramillies", "rodney", "king-george-v", "london", "norfolk", "suffolk", "dd1", "dd3"]
    units = [{"id": "TF3", "hex": "Q20", "ships": ["ark-royal", "renown", "sheffield"]},
             *({"id": n, "hex": "Q20", "ships": [n]} for n in names[:3]),  # four units stacked in one hex
             *({"id": n, "hex": h, "ships": [n]} for n, h in zip(names[3:], ["Q21", "R20", "R21", "P20", "P21",
                                                                          "Q19", "S20"], strict=True))]
    contacts = [{"id": f"C{i}", "hex": h, "status": "shadowed" if i % 2 else "sighted", "classes": {"BB": 1}}
                for i, h in enumerate(["Q22", "R22", "P22"])]
    air = [{"id": "catalina-209", "hex": "Q20", "status": "aloft"}, {"id": "catalina-240", "hex": "R19",
                                                                        "status": "aloft"}]
    pic = RULESET.picture(_view(units=units, contacts=contacts, air=air))
    assert problems(pic) == []
    texts = _texts(pic)
    assert "Q20: TF3 (ark-royal, renown, sheffield)" in texts
    assert {"revenge", "dd2", "ramillies", "catalina-209 (air)"} <= set(texts)
    assert {"R20: king-george-v", "Q22: C0 sighted", "R22: C1 shadowed"} <= set(texts)
