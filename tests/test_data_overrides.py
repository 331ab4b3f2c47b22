"""A game's corrections laid over the packaged data (pbem.core.data, issue 15): the rules of an override."""
import copy
import hashlib
from importlib import resources

import pytest

from pbem.core.data import (DataOverrideError, Overrides, apply_override, data_cache, load_data, override_problems,
                            use_overrides)

PACKAGED = {
    "provenance": "placeholder",
    "weather": {"fog_from": 5, "drm": 0.5, "slots": ["night", "day"], "ref": "5"},
    "ships": {
        "provenance": "rulebook",
        "bismarck": {"side": "german", "hull": 12, "radar": 3, "damaged": {"hull": 6}},
        "hood": {"side": "allied", "hull": 10, "damaged": {"hull": 5, "speed": "M"}, "note": "sunk early"},
    },
    "ports": [{"name": "Brest", "hex": "A1"}, {"name": "Bergen", "hex": "B2", "side": "german"}],
}


def problems(override):
    return override_problems(PACKAGED, override, "tables.toml")


def test_a_value_replaced_the_rest_kept_and_the_packaged_data_untouched():
    before = copy.deepcopy(PACKAGED)
    merged = apply_override(PACKAGED, {"provenance": "rulebook", "weather": {"fog_from": 6},
                                       "ships": {"hood": {"damaged": {"speed": "S"}}}}, "tables.toml")
    assert merged["weather"] == {"fog_from": 6, "drm": 0.5, "slots": ["night", "day"], "ref": "5"}
    assert merged["ships"]["hood"]["damaged"] == {"hull": 5, "speed": "S"}
    assert merged["ships"]["bismarck"] == PACKAGED["ships"]["bismarck"]
    assert merged["provenance"] == "placeholder"  # the packaged marks stay; the override's are with the game
    assert PACKAGED == before
    merged["ships"]["bismarck"]["hull"] = 1  # the merged data is a copy
    assert PACKAGED == before


def test_lists_are_replaced_whole_and_their_items_checked():
    merged = apply_override(PACKAGED, {"provenance": "example", "weather": {"slots": ["dawn"]},
                                       "ports": [{"name": "Kiel", "hex": "C3", "provenance": "rulebook"}]}, "t.toml")
    assert merged["weather"]["slots"] == ["dawn"]
    assert merged["ports"] == [{"name": "Kiel", "hex": "C3"}]  # an override's marks never reach a ruleset
    assert problems({"provenance": "example", "weather": {"slots": ["dawn", 3]},
                     "ports": [{"name": "Kiel"}, {"name": "Oslo", "hex": "D4", "depth": 3}]}) == [
        "tables.toml: weather.slots[1]: expected text, got an integer (3)",
        "tables.toml: ports[0]: a new row needs every key the packaged rows all have; missing: hex",
        "tables.toml: ports[1].depth: no such key in the packaged file (known here: name, hex, side)",
    ]


def test_unknown_keys_and_wrong_kinds_are_named_with_what_is_allowed():
    assert problems({"provenance": "rulebook", "wether": {"fog_from": 6},
                     "weather": {"fog_from": "6", "drm": 1, "fogfrom": 1, "ref": 5},
                     "ships": {"bismarck": {"hull": True, "damaged": {"hull": 6.5}}}}) == [
        "tables.toml: wether: no such key in the packaged file (known here: weather, ships, ports)",
        "tables.toml: weather.fog_from: expected an integer, got text ('6')",
        "tables.toml: weather.fogfrom: no such key in the packaged file (known here: fog_from, drm, slots)",
        "tables.toml: weather.ref: expected text, got an integer",
        "tables.toml: ships.bismarck.hull: expected an integer, got true or false (True)",
        "tables.toml: ships.bismarck.damaged.hull: expected an integer, got a number (6.5)",
    ]  # drm = 1 is fine: an integer may stand for a number with a fraction


def test_every_value_needs_a_provenance_of_the_override_itself():
    found = problems({"weather": {"fog_from": 6}, "ships": {"provenance": "guess", "hood": {"hull": 9}}})
    assert found == [
        "tables.toml: weather.fog_from has no provenance: set provenance = one of rulebook, example, "
        "placeholder in its table or a table above it",
        "tables.toml: ships.hood.hull: provenance 'guess' is not one of rulebook, example, placeholder",
    ]
    with pytest.raises(DataOverrideError, match="weather.fog_from has no provenance"):
        apply_override(PACKAGED, {"weather": {"fog_from": 6}}, "tables.toml")


def test_a_new_row_may_join_a_table_of_rows_in_the_packaged_shape():
    new = {"side": "allied", "hull": 9, "damaged": {"hull": 4, "speed": "S"}, "provenance": "example"}
    merged = apply_override(PACKAGED, {"ships": {"rodney": new}}, "tables.toml")
    assert merged["ships"]["rodney"] == {"side": "allied", "hull": 9, "damaged": {"hull": 4, "speed": "S"}}
    assert problems({"ships": {"provenance": "example", "rodnye": {"hull": 9}, "nelson": {**new, "guns": 9}}}) == [
        "tables.toml: ships.rodnye: a new row needs every key the packaged rows all have; missing: damaged, side",
        "tables.toml: ships.nelson.guns: no such key in the packaged file (known here: side, hull, radar, damaged)",
    ]
    # the top of a file and a table of values are not tables of rows
    assert problems({"provenance": "rulebook", "extra": {"a": 1}, "weather": {"new": 1}})[0].startswith(
        "tables.toml: extra: no such key")


def test_load_data_lays_the_active_override_over_the_packaged_file():
    path = resources.files("pbem.rules.bismarck").joinpath("data/tables.toml")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    packaged = load_data("pbem.rules.bismarck", "data/tables.toml")
    units = load_data("pbem.rules.bismarck", "data/units.toml")
    corrected = Overrides("pbem.rules.bismarck", {"tables.toml": {"weather": {"provenance": "rulebook",
                                                                            "fog_from": 7}}})
    other_game = Overrides("pbem.rules.lew_morski", {"tables.toml": {}})
    with use_overrides(corrected):
        assert load_data("pbem.rules.bismarck", "data/tables.toml")["weather"]["fog_from"] == 7
        assert load_data("pbem.rules.bismarck", "data/units.toml") == units  # a file it does not name
    with use_overrides(other_game):  # another ruleset's override does not touch bismarck's files
        assert load_data("pbem.rules.bismarck", "data/tables.toml") == packaged
    assert load_data("pbem.rules.bismarck", "data/tables.toml") == packaged
    assert packaged["weather"]["fog_from"] == 5
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_an_override_names_files_of_the_data_folder_whatever_the_package_a_ruleset_reads_them_from():
    o = Overrides("pbem.rules.lew_morski", {"tables.toml": {}})
    assert o.file_of("pbem.rules.lew_morski.data", "tables.toml") == "tables.toml"
    assert o.file_of("pbem.rules.lew_morski", "data/tables.toml") == "tables.toml"
    assert o.file_of("pbem.rules.lew_morski", "tables.toml") is None  # not in data/
    assert o.file_of("pbem.rules.lew_morski.data", "board.toml") is None  # not corrected
    assert o.file_of("pbem.rules.lew_morski_two.data", "tables.toml") is None
    assert Overrides("p", {"a.toml": {"x": 1}}).key == Overrides("p", {"a.toml": {"x": 1}}).key
    assert Overrides("p", {"a.toml": {"x": 1}}).key != Overrides("p", {"a.toml": {"x": 2}}).key


def test_data_cache_keeps_one_result_per_override():
    calls = []

    @data_cache
    def fog_from():
        calls.append(1)
        return load_data("pbem.rules.bismarck", "data/tables.toml")["weather"]["fog_from"]

    seven = Overrides("pbem.rules.bismarck", {"tables.toml": {"weather": {"provenance": "example", "fog_from": 7}}})
    assert fog_from() == 5
    with use_overrides(seven):
        assert fog_from() == 7
        assert fog_from() == 7
    with use_overrides(Overrides("pbem.rules.bismarck", {"tables.toml": {"weather": {"provenance": "example",
                                                                                       "fog_from": 7}}})):
        assert fog_from() == 7  # the same corrections in another game: the same cached tables
    assert fog_from() == 5
    assert len(calls) == 2
    fog_from.cache_clear()
    assert fog_from() == 5 and len(calls) == 3


def test_data_cache_with_arguments_and_a_bound():
    @data_cache(maxsize=2)
    def twice(n):
        return 2 * n + load_data("pbem.rules.bismarck", "data/tables.toml")["weather"]["fog_from"]

    assert twice(1) == 7
    with use_overrides(Overrides("pbem.rules.bismarck", {"tables.toml": {"weather": {"provenance": "example",
                                                                                       "fog_from": 0}}})):
        assert twice(1) == 2
    assert twice(1) == 7
