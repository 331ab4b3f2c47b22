"""Bismarck on the kit: typed orders round-trip through the verb table, CANCEL and the store's reports."""
from pbem.core.dice import SeededDice
from pbem.core.orders import OrderLine
from pbem.core.play import bot_dice, play
from pbem.core.standing import Cancel
from pbem.rules.bismarck import RULESET

from .conftest import at, fresh

SEED = b"kit port round trip seed"


def _check(view, seat, texts):
    return RULESET.check_orders(view, seat, [OrderLine(i + 1, t) for i, t in enumerate(texts)])


def test_the_bots_orders_round_trip_through_their_canonical_text():
    """Every typed order's text(), checked again against the same view, gives the same values."""
    kinds = set()

    def orders_for(state, phase, seat):
        view = RULESET.view(state, seat)
        body = RULESET.bot_orders(view, seat, bot_dice(SEED, phase, seat))
        first = _check(view, seat, [ln for ln in body.splitlines() if ln.strip()])
        again = _check(view, seat, [o.text() for o in first.orders])
        assert not first.problems and not again.problems
        assert again.orders == first.orders
        kinds.update(type(o).__name__ for o in first.orders)
        return body

    play(RULESET, "rheinubung", SEED, max_phases=60, orders_for=orders_for)
    assert {"Move", "Search", "Policy", "Fly", "Patrol"} <= kinds, kinds


def test_cancel_drops_a_standing_order_and_tells_only_its_seat():
    s = at(fresh(), step="orders")
    c = _check(RULESET.view(s, "german"), "german", ["CANCEL on_convoy"])
    assert not c.problems and c.orders == (Cancel("ON_CONVOY"),)
    res = RULESET.resolve(s, {"german": c.orders, "allied": ()}, SeededDice(b"cancel seed 0123456", "x"))
    assert "ON_CONVOY ATTACK" not in res.state.flow.standing.listing("german")
    told = [e for e in res.events if e.kind == "standing"]
    assert [e.visible_to for e in told] == [frozenset({"german"})]
    assert "ON_CONVOY ATTACK is cancelled" in told[0].text


def test_cancel_of_an_order_not_in_force_is_refused():
    c = _check(RULESET.view(at(fresh(), step="orders"), "allied"), "allied", ["CANCEL SUB_HEX"])
    assert c.problems and "in force: AUTO_ENGAGE, SHADOW" in c.problems[0].message


def test_a_standing_order_sent_in_a_shadowed_move_phase_is_kept():
    s = at(fresh("last-dash"), step="shadowed-german")
    c = _check(RULESET.view(s, "german"), "german", ["SUB_HEX N20", "SEARCH ALL"])
    assert [p.line_no for p in c.problems] == [2]  # only MOVE and standing orders in 3A [7.1]
    res = RULESET.resolve(s, {"german": c.orders[:1]}, SeededDice(b"shadowed seed 012345", "x"))
    assert "SUB_HEX N20" in res.state.flow.standing.listing("german")
    assert res.state.step == "orders"


def test_a_plain_engage_call_beside_auto_engage_is_fought():
    """A plain ENGAGE while AUTO_ENGAGE ON is in force (the Allied default) used to crash the resolution: the
    calls named by the script were read as if every entry were an IF."""
    from pbem.core.play import bot_dice, check_text, play
    from pbem.rules.bismarck import RULESET as R

    seed = b"bismarck-migrate-seed-0002"
    called = []

    def orders_for(state, phase, seat):
        body = R.bot_orders(R.view(state, seat), seat, bot_dice(seed, phase, seat))
        if seat == "allied" and phase.name == "orders" and not check_text(R, state, seat, body + "ENGAGE C1\n")[1]:
            called.append(phase.key)
            return body + "ENGAGE C1\n"
        return body

    steps = play(R, "last-dash", seed, orders_for=orders_for, max_phases=60)
    assert called, "the case needs a turn in which the Allies may call C1"
    texts = [e.text for s in steps if s.phase.key in called for e in s.events if "allied" in e.visible_to]
    assert any(t.startswith("ENGAGE C1") for t in texts)
