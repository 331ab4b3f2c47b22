"""Data files load with provenance on every value; the placeholders are exactly the values the book lost."""
from __future__ import annotations

from pbem.core.data import load_data, walk_provenance
from pbem.rules.lew_morski import RULESET, board

PKG = "pbem.rules.lew_morski.data"


def test_every_file_loads_with_provenance():
    for name in ("board.toml", "aircraft.toml", "tables.toml", "scenarios.toml"):
        data = load_data(PKG, name)
        assert all(p in ("rulebook", "example", "placeholder") for _, _, p in walk_provenance(data))


def test_placeholders_are_the_lost_values():
    placeholders = {w for name in ("board.toml", "aircraft.toml", "tables.toml", "scenarios.toml")
                    for w, _, p in walk_provenance(load_data(PKG, name)) if p == "placeholder"}
    assert {"types.spitfire.damaged.attack", "types.ju88.damaged.max_speed_empty"} <= placeholders  # G-4
    assert {"terrain.cloud_full", "terrain.river", "objects[10].id", "objects[11].hex"} <= placeholders  # G-1
    assert {"w4.gb.aa_guns", "w4.gb.min_vp", "w5.gb.aa_guns", "w5.gb.min_vp"} <= placeholders  # G-19
    assert not any(w.startswith(("combat", "aa.", "vp.", "types.he111.max")) for w in placeholders)


def test_every_named_hex_is_on_the_board_and_scenarios_fit():
    """Digest 2.0: every hex named in the book lies on the inferred 42 x 28 board; start areas hold their forces."""
    data = load_data(PKG, "scenarios.toml")
    for sc in ("w1", "w2", "w3", "w4", "w5"):
        s = RULESET.setup(sc, RULESET.info.resolve_options({"sun": "east"}), __import__(
            "pbem.core.dice", fromlist=["FixedDice"]).FixedDice([]))
        hexes = [a.hex for a in s.aircraft if a.status == "board"]
        assert len(hexes) == len(set(hexes)) and all(board.on_board(h) for h in hexes)
        for side in ("de", "gb"):
            for r in data[sc][side].get("reinforcements", []):
                assert all(board.is_edge(board.parse_hex(h)) for h in r["hexes"])
    assert len(board.terrain().objects) == 12


def test_w5_third_entry_option():
    """G-19: the third Hurricane of Wariant 5 enters at A41,B21 as printed, or at A41,B47 under the option."""
    from pbem.core.dice import FixedDice
    for choice in ("A41,B21", "A41,B47"):
        s = RULESET.setup("w5", RULESET.info.resolve_options({"sun": "east", "w5_third_entry": choice}), FixedDice([]))
        due = sorted(board.fmt(a.due_hex) for a in s.aircraft if a.status == "due")
        assert choice in due and len(due) == 3
