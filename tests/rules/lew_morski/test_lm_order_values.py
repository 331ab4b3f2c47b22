"""Orders are typed values, one per verb, whose canonical text reads back to the same value."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.dice import FixedDice
from pbem.core.play import play, setup_dice
from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.orders import (AaFire, Bomb, Enter, Fire, Move, Pass, Place, PlaceGun, ReactAnswer,
                                          Policy, Withdraw, action_data, action_from_data)

from .lm_helpers import at, check, lines, new_state, only, put


def round_trip(state, seat, text):
    """Check ``text``, write its orders back as canonical text, check that: the same orders."""
    first = check(state, seat, text)
    assert not first.problems, first.problems
    again = check(state, seat, "\n".join(o.text() for o in first.orders))
    assert not again.problems and again.orders == first.orders
    return first.orders


def test_movement_orders_read_back():
    s = only(new_state("w2", alt_change="any_hex"), "He111-1", "Ju88-1", "Me110-1", "Spit-1")
    s = put(s, "He111-1", "A30,B30", "N", "LOW")
    s = put(s, "Ju88-1", "A20,B36", "S")
    s = put(s, "Me110-1", "A25,B25", "N")
    s = put(s, "Spit-1", "A29,B24", "S", "LOW")  # two hexes ahead of where Me110-1 ends, as FIRE needs
    got = round_trip(s, "de", "move he111-1 ffdff\nMOVE ju88-1 FFF\nWITHDRAW Ju88-1\nMOVE Me110-1 DESCEND FRFF "
                              "FORCED CLIMB\nFIRE Me110-1 EXPECT Spit-1\nBOMB He111-1 a30,b29 (A30 ,B28)\n"
                              "REACT ALL IF STRENGTH>=3\nRETURNFIRE Me110-1 NO")
    assert got[:3] == (Move("He111-1", "FFFF", "dive", 2), Move("Ju88-1", "FFF"), Withdraw("Ju88-1"))
    assert got[3] == Move("Me110-1", "FRFF", "dive", 0, "climb")
    assert got[4:6] == (Fire("Me110-1", "Spit-1"), Bomb("He111-1", ("A30,B29", "A30,B28")))
    assert Policy("He111-1", "react", "STRENGTH:3") in got and got[-1] == Policy("Me110-1", "return", "NO")
    assert [o.text() for o in got[:2]] == ["MOVE He111-1 FFDFF", "MOVE Ju88-1 FFF"]


def test_entry_orders_read_back_with_and_without_a_chosen_altitude():
    s = only(new_state(return_altitude="owner"), "Spit-1", "He111-1")
    s = put(s, "He111-1", "A30,B30", "N")
    s = replace(at(s, "gb-move"), aircraft=tuple(
        replace(a, status="off", hex=None, exit_hex=(30, 15), exit_edge="north", left_alt="HIGH", return_stage=1)
        if a.id == "Spit-1" else a for a in s.aircraft))
    entry = RULESET.view(s, "gb")["own"][0]["entry"]
    got = round_trip(s, "gb", f"ENTER Spit-1 {entry['hex']} SE LOW\nMOVE Spit-1 FF\nAA ALL BOMBERS")
    assert got[0] == Enter("Spit-1", got[0].hex, "SE", "LOW")
    plain = round_trip(s, "gb", "ENTER Spit-1 S")
    assert plain[0].alt == "" and plain[0].text().endswith(" S")


def test_setup_and_interrupt_orders_read_back():
    s = RULESET.setup("w3", RULESET.info.resolve_options({"sun": "east"}), FixedDice([]))
    v = RULESET.view(s, "gb")
    spit, gun = v["own"][0], v["own_guns"][0]
    got = round_trip(s, "gb", f"PLACE {spit['id']} {spit['hex']} FACING sw\nAA {gun['id']} {gun['hex']}\nPASS")
    assert [type(o) for o in got] == [Place, PlaceGun, Pass]
    assert ReactAnswer("Spit-1", "HOLD").text() == "REACT Spit-1 HOLD"
    assert AaFire("AA-1", "He111-2").text() == "AAFIRE AA-1 He111-2"


@pytest.mark.parametrize("action", [Fire("Me110-1"), Fire("Spit-1", "He111-2"), Bomb("He111-1", ("A06,B19",)),
                                    AaFire("AA-3", "He111-4")])
def test_actions_survive_an_interrupt_window_as_json(action):
    assert action_from_data(action_data(action)) == action


def test_every_bot_order_file_reads_back():
    """Across whole bot games, every accepted order file written back canonically gives the same orders."""
    kinds = set()
    for scenario, opts in (("w2", {"setup": "auto"}), ("w4", {"react_default": "ask", "setup": "auto"})):
        steps = play(RULESET, scenario, b"order-values-round-trip", options=opts, max_phases=40)
        prev = RULESET.setup(scenario, RULESET.info.resolve_options(opts), setup_dice(b"order-values-round-trip"))
        for step in steps:
            for seat, body in step.bodies.items():
                orders = RULESET.check_orders(RULESET.view(prev, seat), seat, lines(body)).orders
                text = "\n".join(o.text() for o in orders)
                assert RULESET.check_orders(RULESET.view(prev, seat), seat, lines(text)).orders == orders
                kinds |= {type(o) for o in orders}
            prev = step.state
    assert {Move, Fire, ReactAnswer} <= kinds  # the games moved, fired and answered interrupt windows
