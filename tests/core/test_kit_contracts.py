"""Kit contracts that a ruleset could break without noticing: each must fail loudly, at import or at once."""
from __future__ import annotations

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.interrupts import Ask
from pbem.core.phases import ASKED, Step, Steps
from pbem.core.ruleset import Seat
from pbem.core.standing import Standing
from pbem.core.standing_rules import StandingKind, StandingRules


def test_a_kind_that_covers_another_kind_is_a_definition_error():
    # "CHASE ALL" is both a kind of its own and a key of the kind "CHASE": which one rules it would
    # depend on declaration order, and the second kind's default would never be in force.
    with pytest.raises(RulesetDefinitionError, match="CHASE ALL"):
        StandingRules([StandingKind("CHASE", group=True), StandingKind("CHASE ALL", default="CHASE ALL ASK")])


def test_a_default_for_a_key_its_kind_does_not_cover_is_a_definition_error():
    # read back through kind_of("PACE"), which is no kind: the default would be listed by nobody
    with pytest.raises(RulesetDefinitionError, match="PACE"):
        StandingRules([StandingKind("CHASE", default={"PACE": "PACE SLOW"})])


def test_kinds_that_only_share_a_prefix_are_distinct():
    rules = StandingRules([StandingKind("REACT", group=True), StandingKind("REACT_DEFAULT", default="REACT_DEFAULT ASK")])
    assert rules.listing(Standing(), "red-1", "red") == ["REACT_DEFAULT ASK"]


def _suspending(asks):
    def fire(w, orders):
        w.interrupt("hit", asks)

    table = Steps([Step("fire", fire, "fire"), Step("hit", lambda w, o: None, "fire", who=ASKED)],
                  seats=lambda s: (Seat("red-1", "red"), Seat("blue", "blue")))
    return table, table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))


def test_an_interrupt_asking_a_seat_the_game_does_not_have_is_an_error_at_once():
    # a side's name, or a misspelt seat, would make a window await someone who can never answer
    with pytest.raises(RulesetDefinitionError, match="red"):
        _suspending([Ask("red", "k", "?", "NO")])
    _, res = _suspending([Ask("red-1", "k", "?", "NO")])
    assert res.state["flow"]["pending"]["asks"][0]["seat"] == "red-1"


def test_a_step_that_comes_back_without_a_new_turn_is_an_error_at_once():
    def fire(w, orders):
        w.say("bang")

    def fire_and_turn(w, orders):
        w.new_turn()

    seats = (Seat("red-1", "red"), Seat("blue", "blue"))
    looping = Steps([Step("fire", fire, "fire")], seats=lambda s: seats)
    with pytest.raises(RulesetDefinitionError, match="1/fire"):
        looping.resolve({"flow": looping.start().dump()}, {}, FixedDice([]))
    turning = Steps([Step("fire", fire_and_turn, "fire")], seats=lambda s: seats)
    doc = turning.resolve({"flow": turning.start().dump()}, {}, FixedDice([])).state
    assert turning.phase(doc).key == "2/fire"


def test_a_second_interrupt_in_one_resolution_is_an_error_not_a_lost_question():
    def fire(w, orders):
        w.interrupt("hit", [Ask("red-1", "a", "?", "NO")])
        w.interrupt("hit", [Ask("blue", "b", "?", "NO")])  # red-1's question would silently vanish

    seats = (Seat("red-1", "red"), Seat("blue", "blue"))
    table = Steps([Step("fire", fire, "fire"), Step("hit", lambda w, o: None, "fire", who=ASKED)],
                  seats=lambda s: seats)
    with pytest.raises(RulesetDefinitionError, match="one interrupt"):
        table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))
