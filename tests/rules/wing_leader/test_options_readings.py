"""Readings the digests leave open, as named options with the proposed reading as default: branching tally
chains [6.1.2], jet sweeps flying straight on [9.2.3, 8.2], what a flight's share of a split counts [9.3.1]."""
from __future__ import annotations

from itertools import count

from pbem.rules.wing_leader import RULESET, split
from pbem.rules.wing_leader.moves import _straight_squares
from pbem.rules.wing_leader.sequence import movement_order

from .helpers import sq


def test_the_readings_are_options_defaulting_to_the_proposed_one():
    options = {o.name: (o.default, o.choices) for o in RULESET.info.options}
    assert options["tally_chains"] == ("breadth", ("breadth", "depth"))
    assert options["jet_sweeps"] == ("four", ("four", "fixed"))
    assert options["split_count"] == ("together", ("together", "losses"))
    assert options["escape_reading"] == ("rule", ("rule", "example"))


def test_a_branching_tally_chain_breadth_first_or_depth_first():
    """6.1.2: B and C tally A, D tallies C: breadth moves A, C, B, D; depth A, C, D, B."""
    units = [sq("D", "axis", "a6m", "sweep", "E1", alert=True, tally="C"),
             sq("C", "axis", "a6m", "sweep", "E2", alert=True, tally="A"),
             sq("B", "axis", "a6m", "sweep", "E3", alert=True, tally="A"),
             sq("A", "allies", "spitfire9", "sweep", "E15", alert=True)]
    n, m = count(1), count(1)
    assert movement_order(units, "allies", lambda s: next(n)) == ["A", "C", "B", "D"]
    assert movement_order(units, "allies", lambda s: next(m), depth_first=True) == ["A", "C", "D", "B"]


def test_a_jet_sweep_flies_four_squares_straight_or_two():
    """9.2.3 with 8.2: jets always have 4 MP; the other reading keeps the sweep's 2 squares."""
    jet = sq("J", "axis", "me262", "sweep", "P10", heading="W")
    assert _straight_squares(jet) == 4 and _straight_squares(jet, "fixed") == 2
    assert _straight_squares(jet.move(mission="escort"), "fixed") == 3
    assert _straight_squares(sq("A", "allies", "spitfire9", "sweep", "E10")) == 2


def test_a_flights_share_counts_its_straggler_or_only_the_losses():
    """9.3.1: two losses and the straggler in one flight exceed a flight's Max Losses of 2 only when counted
    together."""
    a = sq("A", "allies", "f6f", "sweep", "J10", tally="K", losses=2, straggler=True)
    choice = split.Choice(losses=2)
    assert "do not fit" in split.fit_problem(a, choice, 2)
    assert split.fit_problem(a, choice, 2, "losses") is None


def test_the_tally_chains_option_reaches_the_movement_order(monkeypatch):
    from pbem.core.dice import SeededDice
    from pbem.rules.wing_leader import sequence
    from pbem.testing import known
    seen = []
    real = sequence.movement_order

    def spy(*args, **kw):
        seen.append(kw.get("depth_first"))
        return real(*args, **kw)
    monkeypatch.setattr(sequence, "movement_order", spy)
    for reading in ("breadth", "depth"):
        start = {"scenario": "sweep", "options": {"tally_chains": reading}, "edits": [["flow.step", "movement"]]}
        state = known.start_state(RULESET, known.Case("chains", "-", "-", start))
        RULESET.resolve(state, {"allies": (), "axis": ()}, SeededDice(b"tally chains option reaches the order", "m"))
    assert seen == [False, True]


def test_any_sweep_may_be_marked_escort_only_by_option():
    """9.2.2: which Sweep squadrons the Administrative Phase may mark Escort; the proposed reading is former
    escorts only."""
    from dataclasses import replace

    from pbem.rules.wing_leader.missions import rejoin_problem

    from .helpers import state
    bomber = sq("T", "allies", "b24h", "bombing", "J14", bombs=True)
    sweep = sq("B", "allies", "p47d", "sweep", "H14")
    assert "former escort" in rejoin_problem(state(bomber, sweep), sweep)
    anyone = replace(state(bomber, sweep), options=(("escort_again", "any"),))
    assert rejoin_problem(anyone, sweep) is None
    assert "within 3" in rejoin_problem(anyone, sweep.move(at=(3, 14)))
    assert dict((o.name, o.default) for o in RULESET.info.options)["escort_again"] == "former"


def test_escorts_go_home_when_their_own_bomber_formation_has_escaped():
    """9.2.2: a bomber escaping sends home the escorts of its formation once no bomber of that formation is
    left; escorts near another bomber of the side stay.  Option ``escorts_home = side``: only once no bomber
    of the side is left."""
    from dataclasses import replace

    from pbem.rules.wing_leader.missions import bomber_formation, escorts_going_home

    from .helpers import state
    t = sq("T", "allies", "b24h", "bombing", "K14", bombs=True)
    t2 = sq("S", "allies", "b24h", "bombing", "L15", bombs=True)     # in formation with T (adjacent, same heading)
    u = sq("U", "allies", "b24h", "bombing", "C13", bombs=True)
    a = sq("A", "allies", "p47d", "escort", "K15")
    b = sq("B", "allies", "p47d", "escort", "B15")
    near_t = sq("C", "allies", "p47d", "escort", "H14")                # 3 squares from T, 5 from U
    near_u = sq("D", "allies", "p47d", "escort", "F13")                # 3 squares from U, 5 from T
    near_both = sq("E", "allies", "p47d", "escort", "G14")             # 4 from each: escorting neither
    alone = state(t, u, a, b, near_t, near_u, near_both)
    assert [e.id for e in escorts_going_home(alone, t)] == ["A", "C"]
    v = sq("V", "allies", "b24h", "bombing", "N11", bombs=True)       # another formation, 3 squares from T
    shared = sq("F", "allies", "p47d", "escort", "L13")                # near T and V: it goes on escorting V
    assert [e.id for e in escorts_going_home(state(t, v, a, shared), t)] == ["A"]
    assert bomber_formation(state(t, t2, u), t) == {"T", "S"}
    assert escorts_going_home(state(t, t2, u, a, b), t) == []        # S is still in T's formation
    side = replace(alone, options=(("escorts_home", "side"),))
    assert escorts_going_home(side, t) == []                           # U is left
    last = replace(state(t, a, b), options=(("escorts_home", "side"),))
    assert [e.id for e in escorts_going_home(last, t)] == ["A", "B"]
    assert escorts_going_home(alone, a) == []                          # a fighter escaping sends nobody home
    assert dict((o.name, o.default) for o in RULESET.info.options)["escorts_home"] == "formation"
