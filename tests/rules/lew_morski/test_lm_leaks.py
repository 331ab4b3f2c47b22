"""No leaks: two states differing only in what a seat may not see give identical views, forms, checks, pictures."""
from __future__ import annotations

import json
from dataclasses import replace

from pbem.core.dice import FixedDice
from pbem.rules.lew_morski import RULESET

from .lm_helpers import at, lines, new_state, put

PROBE = "MOVE He111-1 FFF\nFIRE Me110-1\nMOVE Spit-1 FF\nAAFIRE AA-1 He111-1\nBOMB He111-1 A30,B30\nREACT ALL ALWAYS"


def same_for(seat, a, b):
    va, vb = RULESET.view(a, seat), RULESET.view(b, seat)
    assert json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True)
    assert RULESET.order_form(va, seat) == RULESET.order_form(vb, seat)
    pa = RULESET.check_orders(va, seat, lines(PROBE))
    pb = RULESET.check_orders(vb, seat, lines(PROBE))
    assert pa.problems == pb.problems and pa.orders == pb.orders
    assert RULESET.picture(va) == RULESET.picture(vb)
    assert RULESET.bot_orders(va, seat, FixedDice([])) == RULESET.bot_orders(vb, seat, FixedDice([]))


def test_fog_german_does_not_see_far_british():
    base = new_state(visibility="fog")
    a = put(base, "Spit-1", "A10,B10", "S")
    b = put(base, "Spit-1", "A12,B14", "N", "LOW", damaged=True)
    same_for("de", a, b)
    assert json.dumps(RULESET.view(a, "gb")) != json.dumps(RULESET.view(b, "gb"))


def test_fog_german_does_not_see_into_cloud():
    base = new_state(visibility="fog")
    base = put(base, "He111-1", "A24,B21", "N")  # 4 hexes south of the full cloud at A24,B17
    a = put(base, "Spit-1", "A24,B17", "N")
    b = put(base, "Spit-1", "A24,B16", "NE")
    same_for("de", a, b)
    near = put(base, "Spit-1", "A24,B20", "N")  # clear air within range: seen
    assert any(e["id"] == "Spit-1" for e in RULESET.view(near, "de")["enemies"])


def test_fog_british_do_not_see_bombs_jams_or_parked_aircraft():
    base = at(new_state(visibility="fog"), "gb-move")
    a = base
    b = put(base, "He111-2", "A40,B34", "SW", bombs=0, jammed=True)
    c = replace(b, aircraft=tuple(replace(x, status="off", return_stage=9, exit_hex=(42, 30), exit_edge="east")
                                  if x.id == "He111-4" else x for x in b.aircraft))
    d = replace(b, aircraft=tuple(replace(x, status="off", return_stage=7, exit_hex=(41, 44), exit_edge="east")
                                  if x.id == "He111-4" else x for x in b.aircraft))
    same_for("gb", a, b)
    same_for("gb", c, d)


def test_fog_hidden_aa_guns():
    base = new_state("w3", visibility="fog")
    g = base.guns[0]
    a = base
    b = replace(base, guns=(replace(g, hex=(g.hex[0], g.hex[1] + 1)),) + base.guns[1:])
    same_for("de", a, b)


def test_fog_reinforcement_schedule_hidden():
    a = new_state("w4", visibility="fog")
    b = replace(a, aircraft=tuple(replace(x, due_stage=x.due_stage + 1) if x.status == "due" else x
                                  for x in a.aircraft))
    same_for("de", a, b)


def test_allied_seat_sees_only_its_own_orders_form():
    s = new_state(players_per_side=2)
    v1, v2 = RULESET.view(s, "de-1"), RULESET.view(s, "de-2")
    own1 = {a["id"] for a in v1["own"]}
    own2 = {a["id"] for a in v2["own"]}
    assert own1 and own2 and not own1 & own2
    mine = sorted(own1)[0]
    p = RULESET.check_orders(v2, "de-2", lines(f"MOVE {mine} FFF")).problems
    assert p and "not one of your aircraft" in p[0].message
