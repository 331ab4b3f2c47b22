"""Fighter-bombers roll to tally [15.2.4]: a loaded fighter on the Bombing mission may roll where the scenario
uses 15.2.4 (torpedo does, sweep does not); tallying in the Tally Phase it jettisons (9.2.1.1); a defending
fighter-bomber declines the tally an air combat gives it and keeps its load."""
from __future__ import annotations

from pbem.core.dice import FixedDice
from pbem.core.work import Work
from pbem.rules.wing_leader import fighter_bombers, tally
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.game import seats

from .helpers import sq, state


def _loaded(sid: str = "P", **kw):
    return sq(sid, "allies", "p47d", "bombing", "E10", bombs=True, **kw)


def _work(s):
    w: Work[Air] = Work(s.flow, seats(s), FixedDice([]))
    w.data = Air(s, w)
    return w


def test_a_loaded_fighter_bomber_rolls_only_where_the_scenario_uses_15_2_4():
    p47, zero = _loaded(), sq("Z", "axis", "a6m", "sweep", "G10")
    assert tally.may_tally(p47, state(p47, zero, scenario="torpedo")) is None
    assert "bomber by mission" in tally.may_tally(p47, state(p47, zero, scenario="sweep"))
    assert "bomber by mission" in tally.may_tally(p47)   # no position known: the basic rule 7.2


def test_bombers_and_unloaded_bombing_fighters_still_may_not_roll_under_15_2_4():
    tbf, empty = sq("T", "allies", "tbf1", "bombing", "E10", bombs=True), _loaded("G").move(bombs=False)
    s = state(tbf, empty, scenario="torpedo")
    assert tally.may_tally(tbf, s) is not None
    assert tally.may_tally(empty, s) is not None


def test_a_defending_fighter_bomber_declines_the_tally_after_combat_and_keeps_its_load():
    p47, sweep_p47 = _loaded(tally="Z"), sq("Q", "allies", "p47d", "sweep", "E10", tally="Z")
    zero = sq("Z", "axis", "a6m", "sweep", "E10")
    w = _work(state(p47, sweep_p47, zero, step="combat", scenario="torpedo"))
    fighter_bombers.decline_after_combat(w, ["P", "Q"])
    fighter_bombers.jettison_on_tally(w, "after the air combat")
    kept, fighter = w.data.squadron("P"), w.data.squadron("Q")
    assert (kept.tally, kept.bombs, kept.mission) == ("", True, "bombing")
    assert fighter.tally == "Z"
    assert any("declines to pursue Z" in e.text and "15.2.4" in e.text for e in w.events)


def test_without_15_2_4_the_defender_does_not_decline_and_must_jettison():
    p47, zero = _loaded(tally="Z"), sq("Z", "axis", "a6m", "sweep", "E10")
    w = _work(state(p47, zero, step="combat", scenario="sweep"))
    fighter_bombers.decline_after_combat(w, ["P"])
    fighter_bombers.jettison_on_tally(w, "after the air combat")
    gone = w.data.squadron("P")
    assert (gone.tally, gone.bombs, gone.mission) == ("Z", False, "sweep")
