"""Interrupts: suspend for decisions, a short window for exactly the asked seats, defaults, resume."""
from __future__ import annotations

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.interrupts import Ask, Pending, answers
from pbem.core.phases import ASKED, NOBODY, Step, Steps
from pbem.core.ruleset import Seat, Window

from .kit_game import STEPS, Add, AskMe, Reply, new_doc


def _suspended(total=4):
    orders = {"red-1": (AskMe(),), "red-2": (Add(1),), "blue": (AskMe(), Add(2))}
    return STEPS.resolve(new_doc(total), orders, FixedDice([]))


def test_a_decision_suspends_and_opens_a_window_for_exactly_the_asked_seats():
    res = _suspended()
    flow = STEPS.flow(res.state)
    assert flow.step == "ask" and flow.counter == 1
    assert flow.pending.data == {"total_then": 7}
    phase = STEPS.phase(res.state)
    assert (phase.name, phase.window, phase.hours, phase.awaiting) == \
        ("ask-1", Window.INTERRUPT, 6, frozenset({"red-1", "blue"}))


def test_resume_uses_each_answer_and_the_default_on_silence():
    res = _suspended()
    done = STEPS.resolve(res.state, {"red-1": (Reply("q-red-1", "DOUBLE"),), "blue": ()}, FixedDice([]))
    assert done.state["total"] == 14
    assert [(e.text, e.visible_to) for e in done.events] == [
        ("blue chose KEEP", frozenset({"blue"})), ("red-1 chose DOUBLE", frozenset({"red-1"}))]
    flow = STEPS.flow(done.state)
    assert flow.step == "count" and flow.pending is None


def test_an_answer_about_another_ask_is_not_taken():
    res = _suspended()
    done = STEPS.resolve(res.state, {"red-1": (), "blue": (Reply("q-red-1", "DOUBLE"),)}, FixedDice([]))
    assert done.state["total"] == 7


def test_interrupt_phase_names_never_repeat():
    keys = []
    doc = new_doc(-100)
    for _ in range(3):
        doc = STEPS.resolve(doc, {"red-1": (AskMe(),)}, FixedDice([])).state
        keys.append(STEPS.phase(doc).key)
        doc = STEPS.resolve(doc, {}, FixedDice([])).state  # the ask, answered by default
        doc = STEPS.resolve(doc, {}, FixedDice([1])).state  # count
        doc = STEPS.resolve(doc, {}, FixedDice([])).state  # solo
    assert keys == ["1/ask-1", "2/ask-2", "3/ask-3"]


def test_later_answer_wins_and_orders_that_are_not_answers_are_ignored():
    pending = Pending("ask", (Ask("a", "k", "?", "NO", ("NO", "YES")),))
    assert answers(pending, {"a": (Reply("k", "YES"), Add(3), Reply("k", "NO"))}) == {"k": "NO"}
    assert answers(pending, {}) == {"k": "NO"}


def test_ask_and_pending_definition_errors():
    with pytest.raises(RulesetDefinitionError, match="is not one of"):
        Ask("a", "k", "?", "MAYBE", ("NO", "YES"))
    with pytest.raises(RulesetDefinitionError, match="repeats an ask key"):
        Pending("ask", (Ask("a", "k", "?", "NO"), Ask("b", "k", "?", "NO")))
    with pytest.raises(RulesetDefinitionError, match="asks nothing"):
        Pending("ask", ())


def test_interrupt_must_resume_at_an_interrupt_step():
    def suspend(w, orders):
        w.interrupt("b", [Ask("a", "k", "?", "NO")])

    table = Steps([Step("a", suspend, "a"), Step("b", suspend, "a")], seats=lambda s: (Seat("a", "x"),))
    with pytest.raises(RulesetDefinitionError, match="does not await the asked seats"):
        table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))


def test_a_turn_may_stop_for_one_seat_in_an_ordinary_orders_window():
    def turn(w, orders):
        w.interrupt("give", [Ask("b", "turn", "your turn", "PASS")], ac="Spitfire-1")

    def give(w, orders):
        w.say(f"{w.resumed.data['ac']}: {w.answers['turn']}", to="b")

    table = Steps([Step("turn", turn, "turn", who=NOBODY), Step("give", give, "turn", who=ASKED)],
                  seats=lambda s: (Seat("a", "x"), Seat("b", "y")))
    doc = table.resolve({"flow": table.start().dump()}, {}, FixedDice([])).state
    phase = table.phase(doc)
    assert (phase.name, phase.window, phase.awaiting) == ("give-1", Window.ORDERS, frozenset({"b"}))
    res = table.resolve(doc, {"b": ()}, FixedDice([]))
    assert [e.text for e in res.events] == ["Spitfire-1: PASS"]
    assert table.phase(table.resolve(res.state, {}, FixedDice([])).state).name == "give-2"


def test_resumed_outside_an_interrupt_is_an_error():
    def peek(w, orders):
        return w.resumed

    table = Steps([Step("a", peek, "a")], seats=lambda s: (Seat("a", "x"),))
    with pytest.raises(RulesetDefinitionError, match="resumes nothing"):
        table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))
