"""Advanced rules 13–15 are switched on per scenario [13.0]: the basic scenarios use none of them."""
from __future__ import annotations

from pbem.core.dice import SeededDice
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.advanced import SECTIONS, problems, uses
from pbem.rules.wing_leader.tables import scenario, scenario_names


def test_a_listed_section_switches_on_everything_under_it_and_nothing_else():
    assert uses(["14.2"], "14.2") and uses(["14.2"], "14.2.3") and uses(["14"], "14.2.3")
    assert not uses(["14.2"], "14.1") and not uses(["14.2"], "14") and not uses(["14.2"], "15.3")
    assert not uses(["13.1"], "13.10") and not uses([], "13.2")


def test_every_scenario_lists_only_sections_of_rules_13_to_15():
    for name in scenario_names():
        assert problems(scenario(name).get("advanced", ())) == [], name
    assert problems(["13.9", "16"]) == [
        "advanced rule '13.9' is not a section of rules 13-15 (e.g. '13.2', '14.2', '15')",
        "advanced rule '16' is not a section of rules 13-15 (e.g. '13.2', '14.2', '15')"]
    assert all(key.split(".")[0] in {"13", "14", "15"} for key in SECTIONS)


def test_the_basic_scenarios_use_no_advanced_rule():
    for name in ("sweep", "raid", "dogfight"):
        state = RULESET.setup(name, RULESET.info.resolve_options({}), SeededDice(b"pbem advanced switch test", "s"))
        assert not any(state.uses(rule) for rule in SECTIONS), name
