"""Ordered conditional scripts: IF/THEN/ELSE, conditions tested when reached, skipped entries reported."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import OrderSyntaxError, RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.ruleset import Seat
from pbem.core.scripts import Condition, ConditionKind, Conditions, If, run, scripted
from pbem.core.verbs import Verb, VerbTable
from pbem.core.work import Box, Work


@dataclass(frozen=True)
class Step:
    to: int

    def text(self):
        return f"STEP {self.to}"


def _parse_step(args, view, seat):
    if len(args) != 1 or not args[0].isdigit():
        raise OrderSyntaxError("expected STEP <n>")
    return Step(int(args[0]))


def _parse_n(args, view, seat):
    if len(args) != 1 or not args[0].isdigit():
        raise OrderSyntaxError("expected AT <n>")
    return (args[0],)


CONDITIONS = Conditions([
    ConditionKind("AT", _parse_n, lambda w, r, a: w.data.value == int(a[0]), "AT <n>"),
    ConditionKind("PREV_OK", lambda a, v, s: (), lambda w, r, a: r.previous is True, "PREV_OK"),
])
VERBS = scripted(VerbTable([Verb("STEP", _parse_step, "STEP <n>")]), CONDITIONS)


def _run(texts, start=0):
    w: Work[Box[int]] = Work(Flow("a"), (Seat("me", "x"), Seat("you", "y")), FixedDice([]))
    w.data = Box(start)
    entries = [VERBS.parse(t, {}, "me") for t in texts]

    def perform(order):
        if order.to == w.data.value + 1:
            w.data.value = order.to
            return None
        return f"{order.to} is not next to {w.data.value}"

    done = run(w, "me", entries, perform, CONDITIONS)
    return w, done


def test_conditions_are_tested_when_the_entry_is_reached():
    w, done = _run(["STEP 1", "IF AT 1 THEN STEP 2 ELSE STEP 5", "IF AT 1 THEN STEP 7 ELSE STEP 3"])
    assert done == [True, True, True] and w.data.value == 3
    assert w.events == []


def test_else_is_the_fallback_when_then_cannot_be_done_and_the_author_learns_why():
    w, done = _run(["IF AT 0 THEN STEP 4 ELSE STEP 1"])
    assert done == [True] and w.data.value == 1
    assert [(e.text, e.visible_to, e.kind) for e in w.events] == [
        ("IF AT 0 THEN STEP 4 ELSE STEP 1: STEP 4 could not be carried out (4 is not next to 0); STEP 1 was",
         frozenset({"me"}), "fallback")]


def test_every_skipped_entry_is_reported_to_its_author_with_the_reason():
    w, done = _run(["STEP 2", "IF AT 5 THEN STEP 1", "IF PREV_OK THEN STEP 1", "STEP 1",
                    "IF AT 1 THEN STEP 9 ELSE STEP 8"])
    assert done == [False, False, False, True, False]
    assert [(e.text, e.visible_to, e.kind, e.data["entry"]) for e in w.events] == [
        ("STEP 2 was skipped: 2 is not next to 0", frozenset({"me"}), "skipped", 1),
        ("IF AT 5 THEN STEP 1 was skipped: AT 5 does not hold", frozenset({"me"}), "skipped", 2),
        ("IF PREV_OK THEN STEP 1 was skipped: PREV_OK does not hold", frozenset({"me"}), "skipped", 3),
        ("IF AT 1 THEN STEP 9 ELSE STEP 8 was skipped: 9 is not next to 1; ELSE: 8 is not next to 1",
         frozenset({"me"}), "skipped", 5)]


def test_if_text_round_trips():
    entry = VERBS.parse("if at 2 then step 3 else step 4", {}, "me")
    assert entry == If(Condition("AT", ("2",)), Step(3), Step(4))
    assert VERBS.parse(entry.text(), {}, "me") == entry


@pytest.mark.parametrize("text, message", [
    ("IF AT 1 STEP 2", "IF <condition> THEN"),
    ("IF THEN STEP 2", "IF needs a condition"),
    ("IF SOON THEN STEP 2", "unknown condition 'SOON'; conditions: AT <n>, PREV_OK"),
    ("IF AT x THEN STEP 2", "expected AT <n>"),
    ("IF AT 1 THEN", "IF <condition> THEN"),
    ("IF AT 1 THEN STEP 2 ELSE", "IF <condition> THEN"),
    ("IF AT 1 THEN IF AT 2 THEN STEP 3", "'IF' is not an order known"),
])
def test_bad_scripts_are_order_errors(text, message):
    with pytest.raises(OrderSyntaxError, match=message):
        VERBS.parse(text, {}, "me")


def test_condition_table_definition_errors_and_ifs_without_conditions():
    kind = ConditionKind("AT", _parse_n, lambda w, r, a: True, "AT <n>")
    with pytest.raises(RulesetDefinitionError):
        Conditions([kind, kind])
    w: Work[Box[int]] = Work(Flow("a"), (Seat("me", "x"),), FixedDice([]))
    with pytest.raises(RulesetDefinitionError, match="needs the ruleset's conditions"):
        run(w, "me", [If(Condition("AT", ("1",)), Step(1))], lambda o: None)
