"""The data files: provenance on every value, complete cards, the worked examples' values, tuned tables."""
from __future__ import annotations

from pbem.core.data import packaged_file, provenance_counts
from pbem.rules.wing_leader import tables
from pbem.rules.wing_leader.sky import sky_of

FILES = ("data/aircraft.toml", "data/tables.toml", "data/scenarios.toml")


def test_every_file_loads_with_a_provenance_on_every_value():
    for f in FILES:
        counts = provenance_counts(packaged_file(tables.PACKAGE, f))
        assert sum(counts.values()) > 0


def test_every_card_has_each_band_and_the_fields_the_rules_read():
    """3.3: class, VP, firepower (fighter/bomber or U), protection, defence, abilities; speed, turn and
    climb in every altitude band (3.3.1)."""
    models = tables.aircraft()["models"]
    assert len(models) >= 14
    classes = {m["class"] for m in models.values()}
    assert {"fighter", "heavy_bomber", "medium_bomber"} <= classes
    assert any("jet" in m["abilities"] for m in models.values()) and any("bomb" in m for m in models.values()
                                                                        if m["class"] == "fighter")
    for key, m in models.items():
        for field in ("name", "vp", "firepower", "protection", "defence", "abilities"):
            assert field in m, (key, field)
        for band in tables.BANDS:
            assert {"speed", "turn", "climb"} <= set(m[band]), (key, band)


def test_the_values_the_worked_combat_example_fixes():
    """10.5.1: at altitude 14 the Bf 109G-6 has speed 6, the B-24H speed 4 and defence 1."""
    assert tables.band_value("bf109g6", 14, "speed") == 6 and tables.band_value("b24h", 14, "speed") == 4
    assert tables.card("b24h")["defence"] == 1


def test_the_map_is_26_columns_by_20_altitudes():
    """2.2."""
    assert (tables.tables()["map"]["columns"], tables.tables()["map"]["altitudes"]) == (26, 20)


def test_every_scenario_places_its_squadrons_on_the_map_with_known_cards():
    """5.1: order of battle, edges, weather and a turn limit (GAP-22: ours)."""
    for name in tables.scenario_names():
        s = tables.scenario(name)
        sky_of(s)
        assert {s["raider"], s["defender"]} == set(s["edges"]) and s["last_turn"] > 2
        ids = [row["id"] for row in s["squadrons"]]
        assert len(ids) == len(set(ids))
        for row in s["squadrons"]:
            tables.card(row["model"])
