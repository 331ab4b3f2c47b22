"""Issue 16, Bismarck: what an owner of the box met, each now a test (the rulebook's section numbers).

The fog example (a missed air strike named its target to the Allied player) is a leak-probe pair in
tests/test_leak_probe.py; the one-battle-per-hex example is in test_engage_calls.py.
"""
import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET, setup
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck.game import visibility_phase
from pbem.rules.bismarck.work import Work

from .conftest import at, fresh

SEED = b"issue 16, bismarck, sixteen+ bytes"


def check(state, seat, *texts):
    lines = [OrderLine(i + 1, t) for i, t in enumerate(texts)]
    return RULESET.check_orders(RULESET.view(state, seat), seat, lines)


def after_shadowed_move(*german_lines):
    """Last dash: the Shadowed Bismarck (one lost ER marker) moves or stays in 3A; the main orders follow."""
    s = at(fresh("last-dash"), step="shadowed-german")
    c = check(s, "german", *german_lines)
    assert not c.problems
    r = RULESET.resolve(s, {"german": c.orders}, SeededDice(SEED, "3A"))
    assert r.state.step == "orders"
    return r.state


@pytest.mark.parametrize("verb, rule", [("REPAIR", "7.1, 7.3"), ("PATROL", "7.1, 7.6")])
def test_a_ship_that_moved_in_the_shadowed_movement_may_not_repair_or_patrol(verb, rule):
    """Before: both were acknowledged, and the patrol added 3 search factors to a ship that had moved."""
    s = after_shadowed_move("MOVE bismarck W18")
    [p] = check(s, "german", f"{verb} bismarck").problems
    assert p.rule == rule and "moved in the Shadowed movement" in p.message


def test_a_shadowed_ship_that_stayed_may_repair_but_not_move():
    """7.1: a Shadowed unit moves in 3A or not at all, "to be able to repair at sea and refuel"."""
    s = after_shadowed_move()
    assert not check(s, "german", "REPAIR bismarck").problems
    [p] = check(s, "german", "MOVE bismarck W18").problems
    assert p.rule == "7.1" and "stayed" in p.message


@pytest.mark.parametrize("lines, rule", [
    (("MOVE TF3 X21", "REPAIR renown"), "7.3"),           # the ship's task force moves
    (("MOVE TF3 X21", "PATROL sheffield", "PATROL TF3"), "7.6"),
    (("REPAIR renown", "PATROL TF3"), "7.6"),             # a repairing ship's task force may not patrol
    (("REPAIR renown", "MOVE TF3 X21"), "7.7"),
])
def test_a_task_force_that_moves_keeps_its_ships_from_repair_and_patrol(lines, rule):
    """Before: REPAIR renown after MOVE TF3 was accepted (the check compared the ship with "TF3")."""
    s = at(fresh("last-dash"), step="orders")
    w = Work(s)
    w.set("renown", ee=(-3,))
    c = check(w.freeze(), "allied", *lines)
    assert [p.line_no for p in c.problems] == [len(lines)] and c.problems[0].rule == rule


def test_an_allied_refuel_at_sea_is_refused_under_7_5():
    """Before: the refusal cited "[4]"; only the German player refuels at sea (7.5)."""
    [p] = check(at(fresh("last-dash"), step="orders"), "allied", "REFUEL renown FROM lothringen").problems
    assert p.rule == "7.5" and p.message == "REFUEL is a German order"


def test_one_sided_verbs_cite_their_own_sections():
    s = at(fresh("last-dash"), step="orders")
    assert [p.rule for p in check(s, "german", "SHADOW ON", "RELEASE norfolk").problems] == ["6", "12"]
    assert [p.rule for p in check(s, "allied", "SUB_HEX N20", "ON_CONVOY ASK").problems] == ["11.1", "11.3"]


@pytest.mark.parametrize("face, read", [(1, 1), (6, 6), (9, 9), (10, 0)])
def test_the_listed_d10_is_the_number_the_rules_read(face, read):
    """2.8: a 0 is zero, never ten.  Before: the dice list showed face 7 where the events read 6."""
    dice = FixedDice([face])
    assert T.d10(dice, "test", ()) == read
    [roll] = dice.rolls
    assert roll.value == (read or 10)
    # the list shows the die's face: a 10 says it is read as 0, as the events read it
    assert roll.why == "test (10 reads 0)"


def test_the_weather_roll_listed_is_the_weather_roll_the_event_reads():
    s = fresh("last-dash")
    w = Work(at(s, weather=4, turn=s.start + 1))  # no weather roll on the first turn [4]
    dice = FixedDice([5])
    visibility_phase(w, dice)
    [roll] = dice.rolls
    assert roll.value == 5 and any("weather roll 5+" in e.text for e in w.events)


def test_every_task_force_of_every_scenario_starts_in_one_hex():
    """7.2: a task force's ships are all in its hex.  Before: last dash put Sheffield in TF3 but in X20."""
    for scenario in (s.name for s in RULESET.info.scenarios):
        ships = RULESET.setup(scenario, RULESET.info.resolve_options({}), SeededDice(SEED, "setup")).ships
        hexes: dict[str, set] = {}
        for x in ships:
            if x.tf and x.hex:
                hexes.setdefault(x.tf, set()).add(x.hex)
        assert all(len(h) == 1 for h in hexes.values()), (scenario, hexes)
    dash = {x.id: x for x in fresh("last-dash").ships}
    assert dash["sheffield"].tf is None and dash["sheffield"].hex == "X20"


def test_a_scenario_that_splits_a_task_force_is_a_data_error(monkeypatch):
    bad = dict(T.scenarios()["last-dash"], tfs={"TF3": ["renown", "sheffield"]})
    with pytest.raises(RulesetDefinitionError, match="TF3 is spread over X20, Y21"):
        setup._ships("last-dash", bad, {}, {}, {})


def test_an_owners_printed_map_loads_through_the_data_override():
    """Issue 16: an owner's own map loads through the kit's per-game data override, and the orders are
    checked against it.  Here the owner's map has land in W18, next to Bismarck's W17 in the last dash."""
    from pbem.core.data import Overrides, load_data, use_overrides
    from pbem.rules.bismarck.board import board
    rows = list(load_data("pbem.rules.bismarck", "data/map.toml")["terrain"]["rows"])
    w, col = ord("W") - ord("A"), 18 - 1
    assert rows[w][col] == "."
    rows[w] = rows[w][:col] + "#" + rows[w][col + 1:]
    mine = Overrides("pbem.rules.bismarck", {"map.toml": {"terrain": {"provenance": "rulebook", "rows": rows}}})
    s = at(fresh("last-dash"), step="orders")
    assert not check(s, "german", "MOVE bismarck W18").problems
    with use_overrides(mine):
        assert not board().ship_step("W17", "W18", "german")
        [p] = check(s, "german", "MOVE bismarck W18").problems
        assert p.rule == "2.1" and "W18 is land" in p.message
    assert board().ship_step("W17", "W18", "german")


def test_an_owners_ship_roster_loads_through_the_data_override():
    """The owner's own ship cards (here Bismarck's hull) are the ones a new game is set up with."""
    from pbem.core.data import Overrides, use_overrides
    hull = T.units()["ships"]["bismarck"]["hull"]
    mine = Overrides("pbem.rules.bismarck", {"units.toml": {"ships": {"bismarck": {"provenance": "rulebook", "hull": hull + 3}}}})
    with use_overrides(mine):
        assert {x.id: x.hull for x in fresh("last-dash").ships}["bismarck"] == hull + 3
    assert {x.id: x.hull for x in fresh("last-dash").ships}["bismarck"] == hull


def test_a_second_plain_call_in_a_hex_is_acknowledged_with_a_warning():
    """One naval battle per hex per turn [10]: the second of two plain calls at a contact in one hex is
    fought only if the first finds none, and the acknowledgement says so (an acknowledged line is acted on,
    or the player is told why it may not be).  A call that waits for IF PREVIOUS is not warned about."""
    s = at(fresh("last-dash"), step="orders")
    c = check(s, "allied", "ENGAGE C1 WITH TF2", "ENGAGE C1 WITH norfolk", "IF PREVIOUS NONE THEN ENGAGE C1 WITH TF3")
    assert not c.problems
    [one] = [n for n in c.notes if "one naval battle a turn" in n]
    assert one.startswith("warning: ENGAGE C1 WITH norfolk: ENGAGE C1 WITH TF2 is called first at a contact "
                          "reported in W17") and one.endswith("[10]")
    assert not [n for n in check(s, "allied", "ENGAGE C1 WITH TF2").notes if "one naval battle" in n]
