"""Typed orders: canonical text round trips, the verb table, every problem collected with its line."""
from __future__ import annotations

import pytest

from pbem.core.errors import Code, OrderSyntaxError, RulesetDefinitionError
from pbem.core.orders import OrderLine
from pbem.core.verbs import Verb, VerbTable, arity, one_of
from tests.fixtures.duel import ANSWERS, ORDERS, Answer, Fire, Move, OnHit

VIEW = {"post": 3, "asking": False}


@pytest.mark.parametrize("text", ["FIRE 1", "FIRE 5", "MOVE -1", "MOVE 0", "MOVE +1", "ON_HIT DIG",
                                  "ON_HIT RUN", "ON_HIT ASK", "CANCEL ON_HIT", "IF HIT THEN MOVE +1",
                                  "IF AT 3 THEN MOVE -1 ELSE MOVE +1"])
def test_parse_of_the_canonical_text_gives_the_same_order(text):
    order = ORDERS.parse(text, VIEW, "east")
    assert order.text() == text
    assert ORDERS.parse(order.text(), VIEW, "east") == order


@pytest.mark.parametrize("text, order", [("fire 2", Fire(2)), ("MOVE 1", Move(1)), ("on_hit dig", OnHit("DIG"))])
def test_other_spellings_parse_to_the_canonical_order(text, order):
    assert ORDERS.parse(text, VIEW, "east") == order
    assert ORDERS.parse(order.text(), VIEW, "east") == order


def test_answers_are_their_own_table():
    assert ANSWERS.parse("run", {}, "east") == Answer("RUN") and Answer("RUN").text() == "RUN"


def test_check_lines_collects_every_problem_with_its_line_and_rule():
    lines = [OrderLine(2, "FIRE 9"), OrderLine(3, "MOVE 0"), OrderLine(4, "DANCE"),
             OrderLine(6, "MOVE +1"), OrderLine(7, "ON_HIT MAYBE")]
    checked = ORDERS.check_lines({"post": 5, "asking": False}, "east", lines)
    assert checked.orders == (Move(0),)
    assert [(p.line_no, p.code, p.rule) for p in checked.problems] == [
        (2, Code.ORDER_SYNTAX, "duel 1"), (4, Code.ORDER_SYNTAX, "duel 1"),
        (6, Code.ORDER_ILLEGAL, "duel 2"), (7, Code.ORDER_SYNTAX, "duel 1")]
    assert "from post 5 you may move to 4" in checked.problems[2].message
    assert "FIRE <post 1-5>" in checked.problems[1].message, "an unknown verb lists what may be ordered"


def test_allowed_limits_the_verbs_of_a_phase():
    with pytest.raises(OrderSyntaxError, match="not an order here; expected FIRE"):
        ORDERS.parse("MOVE 0", VIEW, "east", allowed=["FIRE"])
    with pytest.raises(RulesetDefinitionError, match="not in the table"):
        ORDERS.parse("MOVE 0", VIEW, "east", allowed=["DANCE"])


def test_whole_check_adds_problems_of_the_orders_taken_together():
    from pbem.core.errors import IllegalOrderError

    def one_fire(parsed, view, seat):
        fires = [line for line, o in parsed if isinstance(o, Fire)]
        return [IllegalOrderError("one FIRE a turn").problem(x.line_no, x.text) for x in fires[1:]]

    checked = ORDERS.check_lines(VIEW, "east", [OrderLine(1, "FIRE 1"), OrderLine(2, "FIRE 2")], whole=one_fire)
    assert [(p.line_no, p.message) for p in checked.problems] == [(2, "one FIRE a turn")]


@pytest.mark.parametrize("verbs", [
    [Verb("GO", lambda a, v, s: Fire(1), "GO"), Verb("GO", lambda a, v, s: Fire(1), "GO")],
    [Verb("go", lambda a, v, s: Fire(1), "go")],
    [Verb("GO ON", lambda a, v, s: Fire(1), "GO ON")],
])
def test_verb_table_definition_errors(verbs):
    with pytest.raises(RulesetDefinitionError):
        VerbTable(verbs)


def test_small_parsing_helpers():
    assert one_of("dig", ("DIG", "RUN"), "answer") == "DIG"
    with pytest.raises(OrderSyntaxError, match="answer must be one of DIG, RUN"):
        one_of("hide", ("DIG", "RUN"), "answer")
    with pytest.raises(OrderSyntaxError, match="expected GO <x>"):
        arity(("a", "b"), 1, "GO <x>")
    with pytest.raises(OrderSyntaxError, match="an empty order"):
        ORDERS.parse("  ", VIEW, "east")


def test_notes_for_the_acknowledgement():
    lines = [OrderLine(1, "ON_HIT RUN"), OrderLine(2, "FIRE 2")]
    checked = ORDERS.check_lines(VIEW, "east", lines,
                                 note=lambda o: f"{o.text()} is kept" if isinstance(o, OnHit) else None)
    assert checked.notes == ("ON_HIT RUN is kept",)
    assert ORDERS.check_lines(VIEW, "east", lines).notes == ()
