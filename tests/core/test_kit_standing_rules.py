"""Declared standing orders: shared by a side, ordered groups replaced whole, defaults in force, own wording."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.phases import Step, Steps
from pbem.core.standing import Standing
from pbem.core.standing_rules import PLAIN, StandingKind, StandingRules
from pbem.core.work import Work

from .kit_game import SEATS


@dataclass(frozen=True)
class Line:
    """A standing order as a test sends it: ``key`` and the text kept (None: cancel)."""

    key: str
    kept: str | None

    def text(self) -> str:
        return self.kept or f"CANCEL {self.key}"

    def standing_change(self) -> tuple[str, str | None]:
        return self.key, self.kept


RULES = StandingRules([
    StandingKind("RULE", group=True),
    StandingKind("PACE", default="PACE SLOW"),
    StandingKind("CHASE", default={"CHASE ALL": "CHASE ALL ASK"}),
    StandingKind("FLAK", side=True, default="FLAK YES"),
])


def apply(store: Standing, seat: str, side: str, *lines: Line) -> Standing:
    return RULES.apply(store, seat, side, lines)[0]


def test_defaults_are_listed_as_in_force_until_changed_and_come_back_on_cancel():
    s = Standing()
    assert RULES.listing(s, "red-1", "red") == ["PACE SLOW", "CHASE ALL ASK", "FLAK YES"]
    s = apply(s, "red-1", "red", Line("PACE", "PACE FAST"), Line("CHASE c2", "CHASE c2 NO"))
    assert RULES.listing(s, "red-1", "red") == ["PACE FAST", "CHASE ALL ASK", "CHASE c2 NO", "FLAK YES"]
    assert RULES.get(s, "red-2", "red", "PACE").text == "PACE SLOW", "a seat's order is its own"
    s = apply(s, "red-1", "red", Line("PACE", None))
    assert RULES.get(s, "red-1", "red", "PACE").text == "PACE SLOW"
    assert RULES.get(s, "red-1", "red", "UNDECLARED") is None
    assert RULES.view_of(s, "blue", "blue")[0] == {"key": "PACE", "text": "PACE SLOW"}
    assert "#   FLAK YES\n" in RULES.form_lines(s, "blue", "blue")
    assert StandingRules().form_lines(s, "blue", "blue") == Standing().form_lines("blue")


def test_a_side_order_is_shared_by_every_seat_of_the_side_and_the_last_change_wins():
    s = apply(Standing(), "red-1", "red", Line("FLAK", "FLAK NO"))
    assert RULES.get(s, "red-2", "red", "FLAK").text == "FLAK NO"
    assert RULES.get(s, "blue", "blue", "FLAK").text == "FLAK YES", "the other side keeps its default"
    s = apply(s, "red-2", "red", Line("FLAK", "FLAK YES"))
    assert RULES.get(s, "red-1", "red", "FLAK").text == "FLAK YES"
    assert [o.seat for o in s.orders] == ["red"], "kept once, under the side"


def test_a_group_is_ordered_and_one_file_replaces_it_whole():
    s = apply(Standing(), "red-1", "red", Line("RULE", "RULE a"), Line("RULE", "RULE b"))
    assert RULES.group(s, "red-1", "red", "RULE") == ("RULE a", "RULE b")
    s = apply(s, "red-1", "red", Line("PACE", "PACE FAST"), Line("RULE", "RULE c"))
    assert RULES.group(s, "red-1", "red", "RULE") == ("RULE c",), "the next file's lines replace the list"
    assert RULES.get(s, "red-1", "red", "RULE").text == "RULE c"
    s = apply(s, "red-1", "red", Line("RULE", None), Line("RULE", "RULE d"))
    assert RULES.group(s, "red-1", "red", "RULE") == ("RULE d",), "a cancel empties, later lines refill"
    s = apply(s, "red-1", "red", Line("RULE", None))
    assert RULES.group(s, "red-1", "red", "RULE") == () and RULES.group(s, "red-2", "red", "RULE") == ()


def test_changes_say_what_each_line_did_for_the_games_wording():
    s = apply(Standing(), "red-1", "red", Line("RULE", "RULE a"))
    _, changes = RULES.apply(s, "red-1", "red", [Line("RULE", "RULE b"), Line("PACE", "PACE SLOW")])
    assert [(c.key, c.before, c.after, c.changed) for c in changes] == [
        ("RULE", ("RULE a",), ("RULE b",), True), ("PACE", (), ("PACE SLOW",), True)]
    _, same = RULES.apply(s, "red-1", "red", [Line("RULE", "RULE a")])
    assert not same[0].changed


def test_undeclared_keys_behave_as_the_plain_store():
    s = apply(Standing(), "red-1", "red", Line("ON_X", "ON_X GO"), Line("ON_A", "ON_A GO"))
    assert RULES.listing(s, "red-1", "red")[-2:] == ["ON_X GO", "ON_A GO"], "first-given order"
    plain, changes = PLAIN.apply(Standing(), "red-1", "red", [Line("ON_X", "ON_X GO"), Line("ON_X", None)])
    assert plain == Standing() and PLAIN.notice("red-1", changes) == (
        "standing order ON_X GO is now in force; standing order ON_X GO is cancelled")


def test_a_kind_declared_twice_is_a_definition_error():
    with pytest.raises(RulesetDefinitionError):
        StandingRules([StandingKind("PACE"), StandingKind("PACE", side=True)])


def lines_said(seat: str, changes) -> str | None:
    return f"{len(changes)} standing line(s) taken" + (": rules replaced" if any(c.key == "RULE" for c in changes)
                                                       else "")


def test_the_step_table_applies_declared_orders_and_says_the_games_notice():
    rules = StandingRules(RULES.kinds, notice=lines_said)
    seen = {}

    def look(w: Work, orders) -> None:
        seen["flak"] = w.standing_order("red-2", "FLAK").text
        seen["rules"] = w.standing_group("red-1", "RULE")
        seen["pace"] = w.standing_order("blue", "PACE").text
        w.new_turn()  # "look" comes round again: a phase key never repeats

    steps = Steps([Step("look", look, next="look")], seats=lambda s: SEATS, standing=rules)
    doc = {"flow": steps.start().dump()}
    res = steps.resolve(doc, {"red-1": (Line("FLAK", "FLAK NO"), Line("RULE", "RULE x"), "not a standing order")},
                        FixedDice([]))
    assert seen == {"flak": "FLAK NO", "rules": ("RULE x",), "pace": "PACE SLOW"}
    assert [(e.text, e.visible_to, e.kind) for e in res.events] == [
        ("2 standing line(s) taken: rules replaced", frozenset({"red-1"}), "standing")]
    flow = Flow.load(res.state["flow"])
    assert rules.listing(flow.standing, "red-2", "red") == ["PACE SLOW", "CHASE ALL ASK", "FLAK NO"]
