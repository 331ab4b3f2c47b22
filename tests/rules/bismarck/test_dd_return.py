"""German destroyers and the restriction line [7.7.2]: they may cross it only while a reduced-ER heavy
ship carries a Return to Base marker; when that ends (sunk, repaired, in port or refuelled) they must go
back behind the line as soon as possible."""

from pbem.core.dice import SeededDice
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET, game, moves
from pbem.rules.bismarck import movement as M
from pbem.rules.bismarck.board import board
from pbem.rules.bismarck.model import to_json
from pbem.rules.bismarck.work import Work

from .conftest import fresh


def _dd_out(hex_="J24", rtb=False):
    w = Work(fresh())
    w.set("z-5", hex=hex_, tf=None)
    if rtb:  # Bismarck, ER reduced, returning to base: the exception is on
        w.set("bismarck", ee=(-3,), markers=("rtb",))
    return w


def _own(w):
    return [to_json(x) for x in w.afloat("german")]


def test_distances_to_the_line():
    d = M.dd_distances()
    assert all(d[h] == 0 for h in board().dd_area)
    assert d["J27"] == 1 and d["J26"] == 2 and d["J24"] == 4


def test_outside_the_line_without_the_exception_each_hex_must_close_in_by_full_allowance():
    w = _dd_out()
    x = to_json(w.ships["z-5"])
    own = _own(w)
    assert M.must_return(x, own)
    assert M.check_path("german", [x], ["J25", "J26"], own) == ""
    away = M.check_path("german", [x], ["J23"], own)
    assert "must return behind the destroyer restriction line" in away and "J25" in away and "[7.7.2]" in away
    short = M.check_path("german", [x], ["J25"], own)
    assert "move 2 hexes toward it this turn" in short


def test_while_the_exception_holds_the_dd_goes_where_it_likes():
    w = _dd_out(rtb=True)
    x = to_json(w.ships["z-5"])
    assert not M.must_return(x, _own(w))
    assert M.check_path("german", [x], ["J23"], _own(w)) == ""


def test_one_hex_from_the_line_it_steps_inside_and_may_not_leave_again():
    w = _dd_out("J27")
    x = to_json(w.ships["z-5"])
    assert M.return_length(x, 2) == 1
    p = M.return_path(x, 2)
    assert len(p) == 1 and p[0] in board().dd_area
    assert M.check_path("german", [x], p + ["J27"], _own(w)) != ""


def test_low_fuel_shortens_the_forced_return_to_what_it_can_pay():
    w = _dd_out()
    w.set("z-5", fuel=0, moved_last=2)
    assert M.return_length(to_json(w.ships["z-5"]), 2) == 1


def test_no_order_moves_it_home_and_the_german_is_told():
    w = _dd_out()
    moves.force_dds_home(w)
    d = M.dd_distances()
    assert d[w.ships["z-5"].hex] == 2
    assert any("must return behind the destroyer restriction line as soon as possible: moved to" in e.text
               for e in w.events if e.visible_to == frozenset({"german"}))


def test_a_dd_in_a_tf_that_stays_is_detached_and_sent_home():
    w = _dd_out()
    w.set("prinz-eugen", hex="J24", tf="KG2")
    w.set("z-5", tf="KG2")
    w.set("bismarck", tf=None)
    moves.force_dds_home(w)
    assert w.ships["z-5"].tf is None and w.ships["z-5"].hex != "J24"
    assert w.ships["prinz-eugen"].hex == "J24"


def test_the_exception_ends_when_the_heavy_ship_refuels_and_the_dd_goes_back_that_turn():
    w = _dd_out(rtb=True)
    for sid in ("bismarck", "lothringen"):
        w.set(sid, hex="R10", tf=None)
    w.set("prinz-eugen", tf=None)
    s = w.freeze(step="orders")
    view = RULESET.view(s, "german")
    c = RULESET.check_orders(view, "german", [OrderLine(1, "REFUEL bismarck FROM lothringen")])
    assert not c.problems
    w = Work(s)
    game.main_orders(w, {"german": c.orders, "allied": ()}, SeededDice(b"dd", "t"))
    assert "rtb" not in w.ships["bismarck"].markers
    assert M.dd_distances()[w.ships["z-5"].hex] == 2


def test_move_order_away_from_the_line_is_rejected_with_rule_and_line():
    s = _dd_out().freeze(step="orders")
    view = RULESET.view(s, "german")
    c = RULESET.check_orders(view, "german", [OrderLine(1, "SEARCH ALL"), OrderLine(2, "MOVE z-5 J23")])
    assert len(c.problems) == 1 and c.problems[0].line_no == 2 and c.problems[0].rule == "7.7.2"
    assert "must return behind the destroyer restriction line" in c.problems[0].message
    ok = RULESET.check_orders(view, "german", [OrderLine(1, "MOVE z-5 J25 J26")])
    assert not ok.problems


def test_inside_the_line_the_old_restriction_still_holds():
    w = _dd_out("J28")
    x = to_json(w.ships["z-5"])
    assert not M.must_return(x, _own(w))
    assert "may not cross" in M.check_path("german", [x], ["J27"], _own(w))


def test_view_and_form_flag_the_returning_destroyer():
    view = RULESET.view(_dd_out().freeze(step="orders"), "german")
    u = next(u for u in view["units"] if u["id"] == "z-5")
    assert u["dd_return"] is True
    assert "must return behind the destroyer line" in RULESET.order_form(view, "german")
    inside = RULESET.view(_dd_out("J28").freeze(step="orders"), "german")
    assert not next(u for u in inside["units"] if u["id"] == "z-5")["dd_return"]
