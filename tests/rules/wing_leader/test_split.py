"""Splitting squadrons [9.3]."""
from __future__ import annotations

from pbem.rules.wing_leader import split

from .helpers import sq

A = sq("A", "allies", "f6f", "sweep", "J10", tally="K", losses=3, experte=True)


def test_who_may_split():
    """9.3: not flights, not disrupted or broken; on a Wing Leader's order, or with tactical flexibility in a
    phase the squadron tallied; losses must fit in two flights (AMB-21)."""
    assert split.may_split(A.move(losses=1), True, False, True, 2) is None
    assert split.may_split(A.move(losses=1), False, True, False, 2) is None
    assert "Wing Leader ordered" in split.may_split(A.move(losses=1), True, False, False, 2)
    assert "flight" in split.may_split(A.move(flight=True), True, True, True, 2)
    assert "disrupted" in split.may_split(A.move(disruption=1), True, True, True, 2)
    assert "do not fit" in split.may_split(A.move(straggler=True), True, True, True, 2)


def test_the_flights_share_losses_and_the_first_keeps_tally_experte_and_straggler():
    """9.3.1 (defaults for the owner's choices); an escort's tallying flight becomes a Sweep."""
    first, second = split.split(A)
    assert (first.id, first.losses, first.tally, first.experte) == ("A1", 2, "K", True)
    assert (second.id, second.losses, second.tally, second.experte) == ("A2", 1, "", False)
    assert first.flight and second.flight
    escort = sq("E", "allies", "p47d", "escort", "J10", tally="K")
    one, two = split.split(escort)
    assert (one.mission, two.mission) == ("sweep", "escort")


def test_a_flight_split_off_may_not_roll_this_phase():
    """9.3.1: the other flight tallies nobody and cannot roll in this phase (it may be given an order)."""
    from pbem.core.dice import FixedDice
    from pbem.core.scripts import If
    from pbem.rules.wing_leader import RULESET
    from pbem.rules.wing_leader.orders import Split, Tally
    from pbem.testing.known import check_body

    state = RULESET.setup("dogfight", RULESET.info.resolve_options({}), FixedDice([1] * 8))
    from dataclasses import replace
    state = replace(state, squadrons=tuple(s.move(at=(15, 10)) if s.id == "A" else s for s in state.squadrons))
    checked = check_body(RULESET, state, "allies", "TALLY A K\nIF TALLYING A THEN SPLIT A")[0].orders
    assert isinstance(checked[0], Tally) and isinstance(checked[1], If) and isinstance(checked[1].then, Split)
    orders = {"allies": (*checked, Tally("A2", "K"))}   # written as if A2 existed: refused when reached
    events = [e.text for e in RULESET.resolve(state, orders, FixedDice([6])).events]
    assert "TALLY A2 K was skipped: A2 was split off this phase and may not roll (9.3.1)" in events


def test_the_owner_shares_losses_and_gives_the_straggler_experte_and_tally_to_either_flight():
    """9.3.1: any proportion, each flight within a flight's Max Losses counting a straggler (AMB-21)."""
    one = A.move(straggler=True, losses=2)
    choice = split.Choice(losses=0, straggler=1, experte=2, tally=2)
    assert split.fit_problem(one, choice, 2) is None
    first, second = split.split(one, choice)
    assert (first.losses, first.straggler, first.experte, first.tally) == (0, True, False, "")
    assert (second.losses, second.straggler, second.experte, second.tally) == (2, False, True, "K")
    assert "do not fit" in split.fit_problem(one, split.Choice(losses=2), 2)  # 2 losses + the straggler
    assert "not 3" in split.fit_problem(one, split.Choice(losses=3), 2)
    escort = sq("E", "allies", "p47d", "escort", "J10", tally="K")
    one_, two_ = split.split(escort, split.Choice(tally=2))
    assert (one_.mission, two_.mission) == ("escort", "sweep")
