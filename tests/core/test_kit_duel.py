"""The duel on the kit: the contract holds, and each kit part does what the duel's rules say."""
from __future__ import annotations

from pbem.core.dice import FixedDice
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Window
from pbem.testing.conformance import check_ruleset
from tests.fixtures.duel import RULESET as DUEL
from tests.fixtures.duel import STEPS, Gunner, State

SEED = b"the duel on the kit, seed of sixteen+ bytes"


def _state(east=2, west=4):
    return State((Gunner(east), Gunner(west)), STEPS.start("fire"))


def _orders(state, **bodies):
    out = {}
    for seat, body in bodies.items():
        lines = [OrderLine(n + 1, t) for n, t in enumerate(body.splitlines())]
        checked = DUEL.check_orders(DUEL.view(state, seat), seat, lines)
        assert not checked.problems, checked.problems
        out[seat] = checked.orders
    return out


def _texts(res, seat):
    return [e.text for e in res.events if seat in e.visible_to]


def test_the_duel_passes_the_conformance_check():
    assert check_ruleset(DUEL, "standard", SEED) >= 6


def test_a_hit_without_standing_order_asks_and_silence_digs_in():
    s = _state()
    res = DUEL.resolve(s, _orders(s, east="FIRE 4", west="MOVE 0"), FixedDice([5]))
    phase = DUEL.phase(res.state)
    assert (phase.name, phase.window, phase.awaiting, phase.turn) == ("hit-west", Window.INTERRUPT, {"west"}, 1)
    assert DUEL.view(res.state, "west")["asking"] and not DUEL.view(res.state, "east")["asking"]
    done = DUEL.resolve(res.state, {"west": DUEL.default_orders(res.state, "west")}, FixedDice([]))
    assert done.state.gunners[1] == Gunner(4, 1, True)
    assert _texts(done, "west") == ["west chose to DIG"] and _texts(done, "east") == []
    assert DUEL.phase(done.state).key == "2/fire"


def test_a_standing_order_answers_the_hit_without_asking():
    s = _state()
    res = DUEL.resolve(s, _orders(s, east="FIRE 4", west="ON_HIT RUN"), FixedDice([6]))
    assert res.state.gunners[1] == Gunner(1, 1) and DUEL.phase(res.state).key == "2/fire"
    assert _texts(res, "west") == ["standing order ON_HIT RUN is now in force", "east hit the gunner at post 4"]
    assert _texts(res, "east") == ["east hit the gunner at post 4"], "east does not learn west's standing order"
    assert DUEL.view(res.state, "west")["on_hit"] == "RUN" and DUEL.view(res.state, "east")["on_hit"] == ""
    assert "ON_HIT RUN" in DUEL.order_form(DUEL.view(res.state, "west"), "west")
    cancelled = DUEL.resolve(res.state, _orders(res.state, west="CANCEL ON_HIT"), FixedDice([]))
    assert DUEL.view(cancelled.state, "west")["on_hit"] == ""
    assert _texts(cancelled, "west") == ["standing order ON_HIT RUN is cancelled"]


def test_a_conditional_move_is_decided_after_the_shots():
    s = _state()
    body = "IF HIT THEN MOVE -1 ELSE MOVE +1\nIF AT 5 THEN MOVE -1"
    res = DUEL.resolve(s, _orders(s, east="FIRE 4", west=body), FixedDice([1]))  # a near miss
    assert res.state.gunners[1].post == 5
    assert _texts(res, "west")[-1] == "IF AT 5 THEN MOVE -1 was skipped: the gunner has already moved this turn"
    hit = DUEL.resolve(s, _orders(s, east="FIRE 4", west="ON_HIT DIG\n" + body), FixedDice([3]))
    assert hit.state.gunners[1] == Gunner(3, 1, True)


def test_only_moves_may_be_conditional_and_every_problem_is_listed():
    s = _state()
    lines = [OrderLine(1, "IF HIT THEN FIRE 2"), OrderLine(2, "MOVE +2"), OrderLine(3, "IF SOON THEN MOVE 0")]
    problems = DUEL.check_orders(DUEL.view(s, "east"), "east", lines).problems
    assert [(p.line_no, p.rule) for p in problems] == [(1, "duel 4"), (2, "duel 1"), (3, "duel 4")]


def test_the_interrupt_window_takes_only_answers():
    s = _state()
    res = DUEL.resolve(s, _orders(s, east="FIRE 4"), FixedDice([5]))
    checked = DUEL.check_orders(DUEL.view(res.state, "west"), "west", [OrderLine(1, "FIRE 2"), OrderLine(2, "RUN")])
    assert [(p.line_no, p.rule) for p in checked.problems] == [(1, "duel 3")]
    done = DUEL.resolve(res.state, {"west": checked.orders}, FixedDice([]))
    assert done.state.gunners[1] == Gunner(1, 1)
