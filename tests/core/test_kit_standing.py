"""Standing orders: replace by key, cancel, list in every form, reported to the seat when changed."""
from __future__ import annotations

import json

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.standing import Cancel, Standing, parse_cancel

from .kit_game import STEPS, new_doc


def test_set_replace_cancel_and_list():
    s, note = Standing().set("a", "ON_HIT", "ON_HIT DIG")
    assert note == "standing order ON_HIT DIG is now in force"
    s, note = s.set("b", "ON_HIT", "ON_HIT RUN")
    s, note = s.set("a", "ON_SHADOW bismarck", "ON_SHADOW bismarck EVADE")
    s, note = s.set("a", "ON_HIT", "ON_HIT RUN")
    assert note == "standing order ON_HIT RUN replaces ON_HIT DIG"
    assert s.listing("a") == ["ON_HIT RUN", "ON_SHADOW bismarck EVADE"], "replaced in place, first-given order"
    assert s.listing("b") == ["ON_HIT RUN"]
    assert s.set("a", "ON_HIT", "ON_HIT RUN") == (s, None), "no change, no report"
    s, note = s.cancel("a", "ON_HIT")
    assert note == "standing order ON_HIT RUN is cancelled" and s.listing("a") == ["ON_SHADOW bismarck EVADE"]
    assert s.cancel("a", "ON_HIT") == (s, None)
    assert Standing.load(json.loads(json.dumps(s.dump()))) == s


def test_listing_for_views_and_forms():
    s = Standing().set("a", "ON_HIT", "ON_HIT DIG")[0]
    assert s.view_of("a") == [{"key": "ON_HIT", "text": "ON_HIT DIG"}] and s.view_of("b") == []
    assert "#   ON_HIT DIG" in s.form_lines("a")
    assert all(line.startswith("#") for line in s.form_lines("a").splitlines())
    assert s.form_lines("b") == "# Standing orders in force: none\n"


def test_cancel_parses_against_the_view():
    view = {"standing": [{"key": "ON_SHADOW bismarck", "text": "ON_SHADOW bismarck EVADE"}]}
    assert parse_cancel(("on_shadow", "bismarck"), view, "a") == Cancel("ON_SHADOW bismarck")
    assert Cancel("ON_HIT").text() == "CANCEL ON_HIT"
    with pytest.raises(IllegalOrderError, match="in force: ON_SHADOW bismarck"):
        parse_cancel(("ON_HIT",), view, "a")
    with pytest.raises(OrderSyntaxError):
        parse_cancel((), view, "a")
    assert parse_cancel(("ON_HIT",), {}, "a") == Cancel("ON_HIT"), "a view without a listing is not checked"


class KeepOrder:
    def __init__(self, key, text):
        self.key, self._text = key, text

    def text(self):
        return self._text

    def standing_change(self):
        return self.key, self._text


def test_orders_of_any_phase_change_the_store_and_the_seat_is_told():
    doc = new_doc()
    res = STEPS.resolve(doc, {"red-1": (KeepOrder("ON_X", "ON_X GO"),), "blue": (Cancel("ON_Y"),)}, FixedDice([]))
    flow = STEPS.flow(res.state)
    assert flow.standing.listing("red-1") == ["ON_X GO"]
    assert [(e.text, e.visible_to, e.kind) for e in res.events] == [
        ("standing order ON_X GO is now in force", frozenset({"red-1"}), "standing")]
    res = STEPS.resolve(res.state, {}, FixedDice([2]))  # count: nobody acts, the store is carried on
    assert STEPS.flow(res.state).standing.listing("red-1") == ["ON_X GO"]
    res = STEPS.resolve(res.state, {"red-1": (Cancel("ON_X"),)}, FixedDice([]))  # solo
    assert STEPS.flow(res.state).standing.listing("red-1") == []
    assert [e.text for e in res.events] == ["standing order ON_X GO is cancelled"]
