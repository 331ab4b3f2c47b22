"""The packaged data: provenance on every value, cards for the fragment's units, sound scenarios."""
from __future__ import annotations

import pytest

from pbem.core.data import package_data, provenance_counts, walk_provenance
from pbem.core.dice import SeededDice
from pbem.rules.aa_miniatures import RULESET
from pbem.rules.aa_miniatures.board import board
from pbem.rules.aa_miniatures.movement import overstacked
from pbem.rules.aa_miniatures.tables import cards

NAMED = ["Sherman", "Panzer IV", "PaK 38", "PaK 40", "ZiS-2", "6 Pounder", "Bazooka", "M1 Garand Rifle",
         "MG 42 Machine Gun", "Red Devil Captain", "Focke-Wulf Fw 190A"]


def test_every_value_is_marked_and_the_examples_are_kept():
    files = package_data("pbem.rules.aa_miniatures")
    assert {"data/units.toml", "data/terrain.toml", "data/tables.toml", "data/maps.toml",
            "data/scenarios.toml"} <= set(files)
    for name, data in files.items():
        assert all(p in ("rulebook", "example", "placeholder") for _, _, p in walk_provenance(data)), name
    assert provenance_counts(files["data/units.toml"])["example"] > 0
    assert cards()["sherman"].vs_vehicle[1] == 11 and cards()["panzer"].front == 5  # L142, L144


def test_the_cards_cover_the_named_units_and_every_mechanic():
    names = {c.name for c in cards().values()}
    assert set(NAMED) <= names and len(cards()) == 18
    has = {a for c in cards().values() for a in c.abilities}
    assert {"crack_shot", "double_shot", "antiair", "transport"} <= has
    assert any(c.kind == "vehicle" and not c.turret for c in cards().values())
    assert {c.side for c in cards().values() if c.kind == "aircraft"} == {"allies", "axis"}


@pytest.mark.parametrize("scenario", [s.name for s in RULESET.info.scenarios])
def test_scenarios_set_up_on_their_maps(scenario):
    state = RULESET.setup(scenario, RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    m = board(state.map)
    assert all(u.hex in m for u in state.units) and all(h in m for h in state.objectives)
    assert len({u.id for u in state.units}) == len(state.units)
    assert all(overstacked(state.units, side) == () for side in ("allies", "axis"))


def test_the_meeting_engagement_is_about_a_hundred_points_a_side():
    state = RULESET.setup("meeting", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    for side in ("allies", "axis"):
        assert 90 <= sum(u.stats.cost for u in state.units if u.side == side) <= 100


def test_every_ability_on_a_card_is_in_the_glossary_with_its_lines():
    """The glossary is lost (digest G19): each ability a card carries has an entry citing the fragment's
    lines, saying what the fragment says of it and what this game does."""
    import re
    from pbem.rules.aa_miniatures.tables import abilities, cards
    glossary = abilities()
    used = {a for c in cards().values() for a in c.abilities}
    assert used == set(glossary), (used, set(glossary))
    for key, row in glossary.items():
        assert re.search(r"\bL\d+", row["ref"]) and row["fragment"] and row["effect"] and row["title"], key


def test_the_order_form_explains_the_abilities_of_the_sides_units():
    from pbem.core.dice import SeededDice
    from pbem.rules.aa_miniatures import RULESET
    state = RULESET.setup("meeting", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures glossary seed", "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = "attack"
    state = RULESET.load(data)
    allies = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "# ability Crack Shot (L78): +1 to every attack die" in allies      # the sniper
    assert "# ability Transport (L9): LOAD <unit> INTO <transport>" in allies  # the half-track
    axis = RULESET.order_form(RULESET.view(state, "axis"), "axis")
    assert "# ability Anti-aircraft (AA)" in axis and "Transport (L9)" not in axis
