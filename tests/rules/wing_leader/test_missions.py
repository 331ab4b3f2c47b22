"""Escort set-up [5.3, 9.2.2], Experte and crew loss [10.6, 10.7.3], voluntary breaks [10.7.1], bomber
radios [9.4.1]."""
from __future__ import annotations

import pytest

from pbem.core.dice import SeededDice
from pbem.core.errors import RulesetDefinitionError
from pbem.rules.wing_leader import RULESET, combat, radio, tables
from pbem.rules.wing_leader.missions import escort_setup_problem
from pbem.testing.known import check_body

from .helpers import sq, state

T = sq("T", "allies", "b24h", "bombing", "J14", bombs=True)


@pytest.mark.parametrize("at, heading, problem", [
    ("J14", "E", None), ("H15", "E", None), ("G13", "E", None),
    ("F14", "E", "within 3"), ("J14", "W", "within 3"), ("I12", "E", "altitude below"), ("K14", "E", "ahead"),
])
def test_escorts_start_near_their_bombers_same_heading_not_low_not_ahead(at, heading, problem):
    """5.3 step 5, 9.2.2."""
    found = escort_setup_problem(sq("A", "allies", "p47d", "escort", at, heading=heading), [T])
    assert (found is None) if problem is None else (problem in found)


def test_a_scenario_with_a_badly_placed_escort_is_refused_at_setup(monkeypatch):
    bad = dict(tables.scenario("raid"))
    bad["squadrons"] = [dict(r, at="Q14") if r["id"] == "B" else r for r in bad["squadrons"]]
    monkeypatch.setattr("pbem.rules.wing_leader.ruleset.scenario", lambda name: bad)
    with pytest.raises(RulesetDefinitionError, match="escort B"):
        RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(b"escort set-up seed, 16+", "setup"))


def test_an_experte_adds_one_firepower_and_is_lost_on_a_natural_two_after_a_loss():
    """10.6, 10.7.3."""
    ace = sq("A", "allies", "f6f", "sweep", "J10", experte=True)
    assert combat.firepower(ace) == 4 and combat.firepower(ace.move(experte=False)) == 3
    assert combat.crew_loss(ace, 1, 2) and not combat.crew_loss(ace, 0, 2) and not combat.crew_loss(ace, 1, 3)


def test_fighters_on_an_attacked_bomber_net_are_alerted():
    """9.4.1: the escort shares the side's net with the attacked bomber."""
    escort = sq("A", "allies", "p47d", "escort", "H14")
    assert radio.alerted_by_bombers(state(T, escort), ["T"]) == ["A"]
    assert radio.alerted_by_bombers(state(T, escort), []) == []


def test_a_player_may_break_his_own_squadron_after_combat():
    """10.7.1: BREAK takes effect in the Administrative Phase; a broken fighter returns to base."""
    start = RULESET.setup("sweep", RULESET.info.resolve_options({}), SeededDice(b"voluntary break seed 16+", "setup"))
    for _ in range(2):
        phase = RULESET.phase(start)
        start = RULESET.resolve(start, {s: () for s in phase.awaiting}, SeededDice(b"x" * 16, phase.name)).state
    checked, problems = check_body(RULESET, start, "allies", "BREAK A")
    assert problems == []
    after = RULESET.resolve(start, {"allies": checked.orders, "axis": ()}, SeededDice(b"y" * 16, "m")).state
    a = after.squadron("A")
    assert a.broken and a.mission == "rtb" and not a.tally


def test_an_escort_that_tallies_or_fights_becomes_a_sweep_and_may_escort_again():
    """9.2.2 a, 9.2.2 (Sweep to Escort in the Administrative Phase, AMB-20: former escorts only)."""
    from pbem.rules.wing_leader.missions import rejoin_problem
    escort = sq("A", "allies", "p47d", "escort", "H14")
    swept = escort.unescort()
    assert (swept.mission, swept.former_escort) == ("sweep", True)
    assert sq("B", "allies", "p47d", "sweep", "H14").unescort().former_escort is False
    assert rejoin_problem(state(T, swept), swept) is None
    assert "within 3" in rejoin_problem(state(T, swept.move(at=(3, 14))), swept.move(at=(3, 14)))
    assert "tallies" in rejoin_problem(state(T, swept.move(tally="K")), swept.move(tally="K"))
    assert "former escort" in rejoin_problem(state(T), sq("B", "allies", "p47d", "sweep", "H14"))


def test_return_and_escort_orders_are_checked_at_ingest():
    """9.2.2: RETURN and ESCORT are for former escorts only."""
    start = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(b"return to escort seed 16+", "setup"))
    for _ in range(2):
        phase = RULESET.phase(start)
        start = RULESET.resolve(start, {s: () for s in phase.awaiting}, SeededDice(b"z" * 16, phase.name)).state
    assert "[9.2.2]" in check_body(RULESET, start, "allies", "RETURN A E14")[1][0]
    assert "[9.2.2]" in check_body(RULESET, start, "allies", "ESCORT A")[1][0]
    from dataclasses import replace
    former = replace(start, squadrons=tuple(s.unescort() if s.id == "A" else s for s in start.squadrons))
    assert check_body(RULESET, former, "allies", "RETURN A E14\nESCORT A")[1] == []


def test_a_fourth_squadron_in_trail_is_held_back_to_enter_next_turn():
    """8.4.1 (GAP-21 extrapolated: the fourth has 3 MP less) and AMB-34 (it enters first next turn)."""
    from dataclasses import replace
    start = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(b"trail of four seed 16+ b", "setup"))
    four = [s.move(status="entering", at=(26, 14), trail="late", edge="E", altitudes=(14,), arrives=4)
            if s.id in "MNOP" else s.move(status="exited") for s in start.squadrons]
    state = replace(start, squadrons=tuple(four), flow=replace(start.flow, step="movement", turn=4))
    result = RULESET.resolve(state, {"allies": (), "axis": ()}, SeededDice(b"trail roll seed, 16 bytes", "t"))
    held = [s for s in result.state.squadrons if s.id in "MNOP" and s.status == "entering"]
    assert len(held) == 1 and any("enters first next turn" in e.text for e in result.events)
    assert "[5.3.1]" in check_body(RULESET, start, "axis", "ARRIVE M 14")[1][0]
    assert check_body(RULESET, start, "axis", "ARRIVE M 12")[1] == []
