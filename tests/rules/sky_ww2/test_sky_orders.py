"""Typed orders: one frozen value per verb whose canonical text reads back into an equal value."""
import dataclasses
import re

import pytest

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.scripts import Condition, If

from pbem.rules.sky_ww2 import RULESET
from pbem.rules.sky_ww2 import orders as sky_orders
from pbem.rules.sky_ww2 import script_verbs as sv
from pbem.rules.sky_ww2 import standing as so
from pbem.rules.sky_ww2 import step_verbs as st
from skyhelp import position

SCRIPT = [
    sv.Stay(), sv.MoveTo((2, 3), "N"), sv.Rotate("W"), sv.Climb(), sv.Climb((1, 2), "E", "dodge"),
    sv.Descend(), sv.Descend((4, 4), "S"),
    sv.Attack("short-burst", "x1"), sv.Attack("long-burst", "x2", "crit-pilot", "dive", True),
    sv.Manoeuvre("banked-turn", "x1", "target", "ccw"), sv.Manoeuvre("banked-turn", None, "self", "cw"),
    sv.Manoeuvre("half-loop", "x1", "target"), sv.Manoeuvre("dive", None, "self", "cw", (1, 1), "S", True),
    If(Condition("PREV_FAILED"), sv.Attack("snap-shot", "c1")),
    If(Condition("POS", ("c2", "FLANK,REAR")), sv.Manoeuvre("feint", "c2", "target", "cw")),
    sv.OnCancelled(), sv.OnCancelled(("dodge", "sideslip"), True), sv.OnCancelled(("dodge",), False),
    sv.GroundAttack(), sv.Swap("dive"), sv.CpUse(), sv.CpUse("dive"), sv.DpDeposit("dodge"),
    sv.EndDiscard(("dive", "dodge")), sv.NextDiscard(), sv.End(),
]


@pytest.mark.parametrize("order", SCRIPT, ids=lambda o: o.text())
def test_script_orders_read_back_from_their_text(order):
    assert dataclasses.is_dataclass(order) and order.__dataclass_params__.frozen
    assert sv.parse_script_line(order.text()) == order


def test_script_text_is_canonical_whatever_the_case_and_defaults():
    o = sv.parse_script_line("manoeuvre Banked-Turn target X1")
    assert o == sv.Manoeuvre("banked-turn", "x1", "target", "cw")
    assert o.text() == "MANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW"
    # APPLY and ROTATE mean nothing to a manoeuvre that does not turn: refused, never dropped (issue 16)
    with pytest.raises(IllegalOrderError, match="does not turn an aircraft"):
        sv.parse_script_line("MANOEUVRE half-loop TARGET x1 APPLY SELF ROTATE CCW")
    assert sv.parse_script_line("MANOEUVRE half-loop TARGET x1").text() == "MANOEUVRE half-loop TARGET x1"
    with pytest.raises(IllegalOrderError, match="CELL and FACE are for a climb or dive"):
        sv.parse_script_line("MANOEUVRE banked-turn TARGET x1 CELL 2,2")


@pytest.mark.parametrize("text,error", [
    ("FLY", OrderSyntaxError), ("STAY now", OrderSyntaxError), ("MOVE 9,9", OrderSyntaxError),
    ("ATTACK dodge TARGET x1", IllegalOrderError), ("ATTACK short-burst", OrderSyntaxError),
    ("IF PREV_OK ATTACK short-burst TARGET x1", OrderSyntaxError), ("IF POS x1 AHEAD THEN END", OrderSyntaxError),
    ("ON_CANCELLED short-burst", IllegalOrderError), ("NEXT_DISCARD gun-jam", IllegalOrderError),
])
def test_script_lines_fail_with_core_errors(text, error):
    with pytest.raises(error) as e:
        sv.parse_script_line(text)
    assert e.value.rule and not re.match(r"[A-Z][a-z]", e.value.message) and not e.value.message.endswith(".")


def test_standing_orders_read_back_from_their_text():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": ["dodge"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["dodge"]}})
    v = RULESET.view(s, "coalition-1")
    orders = [so.React("*", "*"), so.React("c1", "dodge", "short-burst", 2, 1, True), so.ReactNone(),
              so.ReactDefault("pass"), so.OnPursuit("c1", "free"), so.DiscardPriority(("dive", "dodge")),
              so.DiscardPriority(), so.Rescue("no"), so.Activation("ask"), so.DpUse("never"), so.AaFire(False),
              so.SequenceOrder(("c1",))]
    for o in orders:
        assert so.parse_standing(v, o.text().split()) == o, o.text()


def test_step_orders_read_back_from_their_text():
    """Each through the ruleset's verb table, with a view that awaits that step."""
    decide = {"cells": [[1, 1], [3, 3]], "aircraft": ["c1", "c2"], "options": [{"card": "dodge", "source": "dp", "on": 1}],
              "ac": "c1"}
    deploy = {"aircraft": ["c1"], "cells": {"low": [[1, 1]], "medium": [[1, 2], [2, 2]], "high": []}}
    v = {"selection": {"mode": "limited", "candidates": [3, 5, 7, 9], "keep": 2}, "hands": {}, "decide": decide}
    cases = [st.Pursue(True, (3, 3), "N"), st.Pursue(False), st.Play("dodge", 1, True), st.Pass(),
             st.Activate("c2"), st.PreDiscard(("dive",)), st.Ground(("dp", "aa")), st.Keep((9, 3))]
    for o in cases:
        assert sky_orders.TABLE.parse(o.text(), v, "coalition-1") == o, o.text()
    for o in (st.Deploy("c1", "medium", (2, 2), "E"), st.Deploy("c1", "low")):
        assert sky_orders.TABLE.parse(o.text(), dict(v, decide=deploy), "coalition-1") == o
