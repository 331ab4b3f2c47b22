"""Phases as data: the step table's definition checks and the generic phase()/resolve() driver."""
from __future__ import annotations

import json

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import OVER, Flow, FlowSlot
from pbem.core.phases import ASKED, NOBODY, Step, Steps
from pbem.core.ruleset import Seat, Window

from .kit_game import STEPS, Add, new_doc

SEATS = (Seat("a", "x"), Seat("b", "y"))


def _noop(w, orders):
    return None


def _table(*steps, sides=("x", "y")):
    return Steps(list(steps), seats=lambda s: SEATS, sides=sides)


@pytest.mark.parametrize("steps, message", [
    ((Step("a", _noop, "a"), Step("a", _noop, "a")), "repeated or reserved"),
    ((Step(OVER, _noop, "a"),), "repeated or reserved"),
    ((Step("a", _noop, "b"),), "next names no step: 'b'"),
    ((Step("a", _noop, "a", who="green"),), "who='green'"),
    ((Step("a", _noop, "a", optional="green"),), "optional='green'"),
    ((Step("a", _noop, "b"), Step("b", _noop, "a", who=ASKED)), "only Work.interrupt enters it"),
    ((Step("a", _noop, "b"), Step("b", _noop, "a", window=Window.INTERRUPT)), "only Work.interrupt enters it"),
    ((), "at least one step"),
])
def test_a_definition_error_is_raised_when_the_table_is_built(steps, message):
    with pytest.raises(RulesetDefinitionError, match=message):
        _table(*steps)


def test_start_must_name_a_step_entered_without_an_interrupt():
    table = _table(Step("a", _noop, "a"), Step("b", _noop, "a", who=ASKED))
    with pytest.raises(RulesetDefinitionError, match="start names no step"):
        table.start("nope")
    with pytest.raises(RulesetDefinitionError, match="only Work.interrupt"):
        table.start("b")


def test_a_next_function_may_not_enter_a_resume_step():
    table = _table(Step("a", _noop, lambda w: "b"), Step("b", _noop, "a", who=ASKED))
    with pytest.raises(RulesetDefinitionError, match="only Work.interrupt"):
        table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))


def test_phase_comes_from_the_current_row():
    doc = new_doc(3)
    phase = STEPS.phase(doc)
    assert (phase.turn, phase.name, phase.awaiting, phase.title, phase.prompt, phase.window) == \
        (1, "plan", frozenset({"red-1", "red-2", "blue"}), "Plan", "total is 3", Window.ORDERS)


def test_who_by_side_nobody_and_optional():
    doc = {**new_doc(), "flow": Flow("solo").dump()}
    phase = STEPS.phase(doc)
    assert phase.awaiting == frozenset({"red-1", "red-2"}) and phase.optional == frozenset({"blue"})
    assert STEPS.phase({**doc, "flow": Flow("count").dump()}).awaiting == frozenset()
    assert STEPS.phase({**doc, "flow": Flow(OVER).dump()}) is None


def test_who_may_be_a_function_of_the_state():
    table = _table(Step("a", _noop, "a", who=lambda s: {"b"} if s.flag else set()))

    class S:
        flag = True
        flow = Flow("a")

    assert table.phase(S()).awaiting == frozenset({"b"})


def test_resolve_runs_the_step_and_follows_next_through_a_function():
    doc = new_doc(8)
    res = STEPS.resolve(doc, {"red-1": (Add(1),), "red-2": (), "blue": (Add(2),)}, FixedDice([]))
    assert res.state["total"] == 11 and STEPS.flow(res.state).step == "count"
    assert doc["total"] == 8, "the input state is not changed"
    assert [(e.text, e.visible_to, e.kind, dict(e.data)) for e in res.events] == [
        ("blue adds 2", frozenset({"blue"}), "add", {"n": 2}),
        ("red-1 adds 1", frozenset({"red-1"}), "add", {"n": 1})]
    done = STEPS.resolve(res.state, {}, FixedDice([4]))
    assert STEPS.flow(done.state) == Flow(OVER, turn=2)
    assert STEPS.phase(done.state) is None
    with pytest.raises(RulesetDefinitionError, match="finished game"):
        STEPS.resolve(done.state, {}, FixedDice([]))


def test_next_function_naming_no_step_is_a_definition_error_at_resolution():
    table = _table(Step("a", _noop, lambda w: "nowhere"))
    with pytest.raises(RulesetDefinitionError, match="'nowhere'"):
        table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))


def test_goto_overrides_next():
    def jump(w, orders):
        w.goto("c")

    table = _table(Step("a", jump, "b"), Step("b", _noop, "a"), Step("c", _noop, "a", who=NOBODY))
    res = table.resolve({"flow": table.start().dump()}, {}, FixedDice([]))
    assert table.flow(res.state).step == "c"


def test_dataclass_state_keeps_its_flow_in_a_field():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class S:
        n: int
        flow: Flow

    def bump(w, orders):
        w.data.value = S(w.data.value.n + 1, w.data.value.flow)
        w.new_turn()

    table = _table(Step("a", bump, "a"))
    res = table.resolve(S(0, table.start()), {}, FixedDice([]))
    assert res.state == S(1, Flow("a", turn=2))
    assert table.phase(res.state).key == "2/a"


def test_flow_slot_names_a_missing_field():
    with pytest.raises(TypeError, match="no field 'flow'"):
        FlowSlot().put(object(), Flow("a"))


def test_flow_round_trips_through_json():
    from pbem.core.interrupts import Ask, Pending
    from pbem.core.standing import Standing

    flow = Flow("ask", 3, 2, Pending("ask", (Ask("a", "k", "q?", "NO", ("NO", "YES")),), {"at": [1, 2]}),
                Standing().set("a", "ON_X", "ON_X GO")[0])
    assert Flow.load(json.loads(json.dumps(flow.dump()))) == flow


def test_default_orders_come_from_the_step():
    table = _table(Step("a", _noop, "a", default=lambda s, seat: (f"silent {seat}",)), Step("b", _noop, "a"))
    assert table.default_orders({"flow": Flow("a").dump()}, "b") == ("silent b",)
    assert table.default_orders({"flow": Flow("b").dump()}, "b") == ()
