"""Naval combat calls one at a time [10]: "a player may wait for the result of one combat before
calling the next" becomes ENGAGE lines with conditions, evaluated in file order after each battle."""
from dataclasses import replace

import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.interrupts import Ask, Pending
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET, battle, game, naval
from pbem.core.scripts import Condition, If
from pbem.rules.bismarck.verbs import Engage
from pbem.rules.bismarck.work import Work

from .conftest import at, fresh


@pytest.fixture
def battles(monkeypatch):
    """Replace the tactical battle by a script: each call returns the next scripted result and may sink ships."""
    fought = []
    script = []

    def fake(w, dice, attacker, att, dfn, h, no_abort=""):
        res, sink = script.pop(0)
        fought.append((attacker, tuple(att), tuple(dfn)))
        for s in sink:
            w.sink(s, "scripted")
        w.kw["last_battle"] = res
        return [f"battle in {h}"]

    monkeypatch.setattr(battle, "fight", fake)
    return fought, script


def _two_contacts():
    """C1: KG1 (Bismarck, Prinz Eugen) in J29 with TF1 (Hood, Prince of Wales); C2: Z-5 in J30 with Norfolk."""
    s = at(fresh(), standing=(("allied", ("AUTO_ENGAGE OFF",)), ("german", ("AUTO_ENGAGE OFF",))))
    w = Work(s)
    for sid in ("hood", "prince-of-wales"):
        w.set(sid, hex="J29")
    w.set("norfolk", hex="J30")
    assert w.mark("allied", "KG1", "sighted", "search").cid == "C1"
    assert w.mark("allied", "z-5", "sighted", "search").cid == "C2"
    return w


def _call(contact, unit, cond=None, otherwise=None):
    """A call, or (with ``cond``) the script entry IF <cond> THEN <call> [ELSE <otherwise>]."""
    call = Engage(contact, unit)
    return If(Condition(cond[0], (cond[1],)), call, otherwise) if cond else call


def _text(w):
    return "\n".join(e.text for e in w.events)


@pytest.mark.parametrize("first, fights_second", [("WON", True), ("LOST", False), ("DRAWN", False)])
def test_second_call_waits_for_the_first_result(battles, first, fights_second):
    fought, script = battles
    script += [(first, ()), ("DRAWN", ())]
    w = _two_contacts()
    by = {"allied": [_call("C2", "norfolk"), _call("C1", "TF1", ["PREVIOUS", "WON"])], "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert len(fought) == (2 if fights_second else 1)
    assert fought[0][1] == ("norfolk",)
    if not fights_second:
        assert "IF PREVIOUS WON THEN ENGAGE C1 WITH TF1 was skipped: PREVIOUS WON does not hold" in _text(w)


def test_if_ship_sunk_and_a_skipped_call_counts_as_none(battles):
    fought, script = battles
    script += [("LOST", ("norfolk",)), ("WON", ())]
    w = _two_contacts()
    by = {"allied": [_call("C2", "norfolk"),
                     _call("C1", "TF1", ["PREVIOUS", "WON"]),       # not called: previous LOST
                     _call("C1", "TF1", ["SUNK", "norfolk"])],      # called: Norfolk went down
          "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[1] for f in fought] == [("norfolk",), ("hood", "prince-of-wales")]
    assert "ENGAGE C1: won" in _text(w)


def test_if_previous_none_when_the_first_call_cannot_be_fought(battles):
    fought, script = battles
    script += [("WON", ())]
    w = _two_contacts()
    w.set("norfolk", hex="K30")  # no longer with Z-5: the first call has no battle
    by = {"allied": [_call("C2", "norfolk"), _call("C1", "TF1", ["PREVIOUS", "NONE"])], "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[1] for f in fought] == [("hood", "prince-of-wales")]
    assert "ENGAGE C2: no battle" in _text(w)


def test_allied_calls_come_first_and_previous_is_per_side(battles):
    fought, script = battles
    script += [("WON", ()), ("LOST", ())]
    w = _two_contacts()
    k = w.mark("german", "TF1", "sighted", "search").cid
    by = {"allied": [_call("C2", "norfolk")],
          "german": [_call(k, "KG1", ["PREVIOUS", "NONE"])]}  # the German's own first call: previous is NONE
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[0] for f in fought] == ["allied", "german"]


def test_a_unit_fights_one_called_combat_a_turn(battles):
    fought, script = battles
    script += [("DRAWN", ())]
    w = _two_contacts()
    by = {"allied": [_call("C1", "TF1"), _call("C1", "TF1", ["PREVIOUS", "DRAWN"])], "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert len(fought) == 1
    assert "ENGAGE C1: a naval battle was already fought in J29 this turn" in _text(w)


def test_a_named_call_never_opens_a_second_battle_in_a_hex(battles):
    """Issue 16: "there is only ever one naval battle per hex per turn" [10] also holds for a call that
    names a fresh unit WITH it (Norfolk has not fought) -- before, it opened a second battle in J29."""
    fought, script = battles
    script += [("DRAWN", ()), ("WON", ())]
    w = _two_contacts()
    w.set("norfolk", hex="J29")
    by = {"allied": [_call("C1", "TF1"), _call("C1", "norfolk")], "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[1] for f in fought] == [("hood", "prince-of-wales")]
    assert "a naval battle was already fought in J29 this turn, and a hex sees only one a turn [10]" in _text(w)


def test_the_german_may_not_fight_again_in_a_hex_the_allied_fought_in(battles):
    fought, script = battles
    script += [("DRAWN", ()), ("WON", ())]
    w = _two_contacts()
    k = w.mark("german", "TF1", "sighted", "search").cid
    by = {"allied": [_call("C1", "TF1")], "german": [_call(k, "KG1")]}
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[0] for f in fought] == ["allied"]


@pytest.mark.parametrize("att, dfn, res", [(True, False, "WON"), (False, True, "LOST"), (True, True, "DRAWN"),
                                           (False, False, "DRAWN")])
def test_battle_result_from_the_attackers_side(att, dfn, res):
    assert battle.result(att, dfn) == res


def test_a_real_battle_reports_a_result_that_matches_the_ships():
    w = _two_contacts()
    battle.fight(w, SeededDice(b"r", "x"), "allied", ["norfolk"], ["z-5"], "J30")
    res = w.kw["last_battle"]
    assert res in ("WON", "LOST", "DRAWN")
    if res == "LOST":
        assert not w.ships["norfolk"].afloat or w.ships["z-5"].afloat


def test_doctrine_interrupt_keeps_the_conditions(battles):
    fought, script = battles
    script += [("LOST", ()), ("WON", ())]
    s = _two_contacts().freeze()
    calls = {"allied": naval.calls_json([_call("C2", "norfolk"), _call("C1", "TF1", ["PREVIOUS", "WON"])]),
             "german": []}
    asked = Pending("doctrine", (Ask("allied", "doctrine allied", "declare a doctrine", "CLOSE"),),
                    {"calls": calls, "release": []})
    assert Pending.load(asked.dump()) == asked  # the continuation is plain JSON
    w = Work(replace(s, flow=replace(s.flow, step="doctrine", pending=asked)))
    game.resume_after_doctrine(w, SeededDice(b"d", "x"))  # random events follow the battles
    assert len(fought) == 1 and "PREVIOUS WON does not hold" in _text(w)


def _view():
    w = _two_contacts()
    return RULESET.view(w.freeze(step="orders"), "allied")


def test_check_conditional_calls_and_round_trip():
    view = _view()
    lines = ["engage c2 with norfolk", "ENGAGE C1 WITH TF1 IF previous won", "ENGAGE C1 IF hood afloat",
             "ENGAGE C1 WITH tf1 IF PREVIOUS NONE"]
    c = RULESET.check_orders(view, "allied", [OrderLine(i + 1, t) for i, t in enumerate(lines)])
    assert not c.problems, c.problems
    canon = [o.text() for o in c.orders]
    assert canon == ["ENGAGE C2 WITH norfolk", "IF PREVIOUS WON THEN ENGAGE C1 WITH TF1", "IF AFLOAT hood THEN ENGAGE C1",
                     "IF PREVIOUS NONE THEN ENGAGE C1 WITH TF1"]
    again = RULESET.check_orders(view, "allied", [OrderLine(i + 1, t) for i, t in enumerate(canon)])
    assert [o.text() for o in again.orders] == canon
    assert again.orders == c.orders


def test_check_rejects_bad_conditions_naming_line_and_rule():
    view = _view()
    lines = ["ENGAGE C1 IF PREVIOUS MAYBE", "ENGAGE C1 IF bismarck SUNK", "ENGAGE C1 IF", "ENGAGE C1 IF hood GONE"]
    c = RULESET.check_orders(view, "allied", [OrderLine(i + 1, t) for i, t in enumerate(lines)])
    assert [p.line_no for p in c.problems] == [1, 2, 3, 4]
    assert all(p.rule == "10" for p in c.problems)
    assert "WON, LOST, DRAWN or NONE" in c.problems[0].message
    assert "neither your ship nor a Ship Card in play" in c.problems[1].message  # Bismarck's card is not in play


def test_else_calls_another_contact_when_the_condition_fails(battles):
    fought, script = battles
    script += [("LOST", ()), ("WON", ())]
    w = _two_contacts()
    # Norfolk fights Z-5 in J30, then TF1 takes on KG1 in J29 (one battle per hex per turn [10])
    by = {"allied": [_call("C2", "norfolk"), _call("C1", "TF1", ["PREVIOUS", "WON"], otherwise=Engage("C1", "TF1"))],
          "german": []}
    naval.naval_phase(w, by, FixedDice([]))
    assert [f[1] for f in fought] == [("norfolk",), ("hood", "prince-of-wales")]
    assert "skipped" not in _text(w)  # the ELSE was carried out


def test_only_engage_calls_may_wait_for_a_condition():
    c = RULESET.check_orders(_view(), "allied", [OrderLine(1, "IF PREVIOUS WON THEN SEARCH ALL"),
                                                   OrderLine(2, "IF SUNK hood THEN ENGAGE C1 ELSE ENGAGE C2")])
    assert [p.line_no for p in c.problems] == [1] and c.problems[0].rule == "10"
    assert c.orders[0].text() == "IF SUNK hood THEN ENGAGE C1 ELSE ENGAGE C2"
