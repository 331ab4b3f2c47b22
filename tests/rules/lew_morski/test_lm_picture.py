"""The Lew Morski board a player plans on: every column and oblique row nameable, aircraft labels readable."""
from __future__ import annotations

from pbem.core.labels import problems
from pbem.core.picture import Text
from pbem.rules.lew_morski import RULESET, board

from .lm_helpers import new_state


def _view(planes):
    v = dict(RULESET.view(new_state("w1"), "de"))
    v["planes"] = planes
    return v


def _plane(pid, hex_, side="de", alt="HIGH", facing="SW", damaged=False):
    return {"id": pid, "side": side, "hex": hex_, "alt": alt, "facing": facing, "damaged": damaged}


def _texts(pic):
    return [s.text for s in pic.base + pic.shapes if isinstance(s, Text)]


def test_every_column_and_every_oblique_row_is_named():
    texts = set(_texts(RULESET.picture(_view([]))))
    assert {f"A{a:02d}" for a in range(1, board.COLUMNS + 1)} <= texts
    assert {f"B{h[1]:02d}" for h in board.all_hexes()} <= texts


def test_every_hex_has_its_b_printed_within_three_columns():
    """Following an oblique row by eye is hard; the picture prints each hex's B at most three columns away."""
    from pbem.rules.lew_morski.picture import SIZE, centre
    pic = RULESET.picture(_view([]))
    printed: dict[str, list[float]] = {}
    for t in pic.base:
        if isinstance(t, Text) and t.text.startswith("B"):
            printed.setdefault(t.text, []).append(t.at[0])
    reach = 3 * 1.5 * SIZE + 2.5 * SIZE  # three columns, or the edge label just outside the board
    for h in board.all_hexes():
        x = centre(h)[0]
        assert any(abs(px - x) <= reach for px in printed[f"B{h[1]:02d}"]), h


def test_labels_say_altitude_and_facing_in_words_and_keep_hyphens():
    pic = RULESET.picture(_view([_plane("He111-2", "A20,B20", alt="LOW", facing="NE"),
                                 _plane("Spit-1", "A05,B10", side="gb", alt="VLOW", facing="S", damaged=True)]))
    texts = _texts(pic)
    assert {"He111-2", "low NE", "Spit-1", "very low S dmg"} <= set(texts)
    assert problems(pic) == []


def test_six_aircraft_in_formation_are_tagged_and_listed_with_their_hexes():
    hexes = ["A30,B25", "A31,B25", "A31,B26", "A30,B26", "A32,B26", "A32,B27"]
    pic = RULESET.picture(_view([_plane(f"He111-{i + 1}", h) for i, h in enumerate(hexes)]))
    assert problems(pic) == []
    texts = _texts(pic)
    assert "group 1" in texts and "group 1 (German):" in texts
    assert {f"He111-{i + 1}  {h}  high SW" for i, h in enumerate(hexes)} <= set(texts)


def test_three_close_aircraft_and_three_at_one_hex_get_their_own_labels():
    planes = [_plane("Me109-1", "A20,B20"), _plane("Me109-2", "A21,B21"), _plane("Me109-3", "A21,B20"),
              _plane("Spit-1", "A10,B15", "gb", "HIGH"), _plane("Spit-2", "A10,B15", "gb", "LOW"),
              _plane("Spit-3", "A10,B15", "gb", "VLOW")]
    pic = RULESET.picture(_view(planes))
    assert problems(pic) == []
    texts = _texts(pic)
    assert {"Me109-1", "Me109-2", "Me109-3", "Spit-1", "Spit-2", "Spit-3", "very low SW"} <= set(texts)
    assert not any(t.startswith("group") for t in texts)
