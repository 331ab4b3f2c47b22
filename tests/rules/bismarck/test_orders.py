"""Illegal orders are rejected with the line, the unit, the rule and what would be legal."""

from pbem.core.errors import Code
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET

from .conftest import at, fresh


def check(seat, *texts, state=None):
    s = state or at(fresh(), step="orders")
    lines = [OrderLine(i + 1, t) for i, t in enumerate(texts)]
    return RULESET.check_orders(RULESET.view(s, seat), seat, lines)


def test_move_too_far_names_line_unit_and_rule():
    c = check("german", "SEARCH ALL", "MOVE KG1 J28 J27 J26")
    [p] = c.problems
    assert p.line_no == 2 and p.code == Code.ORDER_ILLEGAL and "KG1" in p.message and p.rule == "7.7.2"
    assert "at most 2 hexes" in p.message


def test_move_onto_land_and_unknown_unit_and_bad_hex_all_reported():
    c = check("german", "MOVE KG1 J30 K31", "MOVE tirpitz J28", "MOVE KG1 ZZ9")
    assert [p.line_no for p in c.problems] == [1, 2, 3]
    assert "land" in c.problems[0].message or "adjacent" in c.problems[0].message
    assert "units:" in c.problems[1].message
    assert c.problems[2].code == Code.ORDER_SYNTAX


def test_german_only_orders_and_attack_without_shadowed_contact():
    c = check("allied", "REFUEL hood FROM lothringen", "FLY swordfish-825 K26+A K27")
    assert c.problems[0].rule == "7.5" and "German order" in c.problems[0].message  # Issue 16: was "4"
    assert "Shadowed" in c.problems[1].message and c.problems[1].rule == "7.7.1"


def test_tanker_may_not_enter_convoy_hex_and_dd_line():
    s = at(fresh(), step="orders")
    from pbem.rules.bismarck.board import board
    b = board()
    conv = next(h for h in b.sea_neighbours("R10", "german") if h in b.convoy) if any(
        h in b.convoy for h in b.sea_neighbours("R10", "german")) else None
    if conv:
        c = check("german", f"MOVE lothringen {conv}", state=s)
        assert c.problems and "convoy hex" in c.problems[0].message
    out = [(a, n) for a in b.sea_neighbours("J30", "german") for n in b.sea_neighbours(a, "german")
           if n not in b.dd_area]
    if out:
        a, n = out[0]
        c = check("german", f"MOVE z-5 {a} {n}", state=s)
        assert c.problems and "restriction line" in c.problems[0].message


def test_standing_orders_accepted_and_replaced():
    c = check("german", "ON_SHADOW KG1 DIVERT prinz-eugen", "ON_SHADOW KG1 EVADE", "DOCTRINE ALL STANDOFF BREAK 3")
    assert not c.problems
    assert [o.text() for o in c.orders] == ["ON_SHADOW KG1 DIVERT prinz-eugen", "ON_SHADOW KG1 EVADE",
                                    "DOCTRINE ALL STANDOFF BREAK 3"]
    assert any("replaces" in n for n in c.notes)


def test_diversion_split_must_put_faster_ships_in_the_fast_part():
    c = check("german", "ON_SHADOW KG1 DIVERT bismarck")
    assert c.problems and c.problems[0].rule == "6"


def test_form_task_force_then_move_it_in_the_same_file():
    from pbem.rules.bismarck.board import board
    to = board().sea_neighbours("K27", "allied")[0]
    c = check("allied", f"MOVE TF9 {to}", "FORM TF9 king-george-v victorious")
    assert not c.problems, c.problems


def test_port_needs_a_friendly_port():
    c = check("german", "PORT bismarck")
    assert c.problems[0].rule == "7.4"
