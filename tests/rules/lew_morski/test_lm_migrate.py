"""Lew Morski positions stored before the kit port still load, and play on as the old code played them.

``data/old_positions.json.gz`` was written by ``tests/rules/bismarck/data/make_old_positions.py`` under the
code before the port (commit ea073a1) from seeded bot games with REACT ... ASK, RETURNFIRE and AA
standing orders: each position keeps the old dump, its phase key, every seat's view and the next
resolutions (bodies sent, events given with the game's dice).
"""
import json
from pathlib import Path

import pytest

from pbem.core.play import check_text, phase_dice
from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.migrate import upgrade
from tests.rules import old_positions
from tests.rules.old_positions import events_json, plain

OLD, POSITIONS, FINISHED = old_positions.load(Path(__file__).parent)


def test_the_fixtures_are_old_dumps_of_every_kind():
    assert all("flow" not in p["dump"] and "step" in p["dump"] for p in OLD)
    assert {p["dump"]["step"] for p in OLD} >= {"setup", "gb-react", "de-move"}
    assert any(p["dump"]["pending"] for p in OLD) and any(p["dump"]["policies"] for p in OLD)


@pytest.mark.parametrize("why", sorted(POSITIONS))
def test_old_position_loads_with_its_phase_and_views(why):
    old = POSITIONS[why]
    state = RULESET.load(old["dump"])
    assert RULESET.phase(state).key == old["phase"]
    for seat, view in old["views"].items():
        assert without_options(plain(RULESET.view(state, seat))) == without_options(view), seat


def without_options(view: dict) -> dict:
    """Since issue 16 a view lists only the options that differ from the default (and counts them all): a
    change of presentation, not of the converted position."""
    return {k: v for k, v in view.items() if k not in ("options_text", "options_count")}


@pytest.mark.parametrize("why", sorted(POSITIONS))
def test_old_position_plays_on_as_before(why):
    old = POSITIONS[why]
    state, seed = RULESET.load(old["dump"]), bytes.fromhex(old["seed"])
    for step in old["next"]:
        phase = RULESET.phase(state)
        assert phase.key == step["phase"]
        orders = {}
        for seat, body in step["bodies"].items():
            orders[seat], problems = check_text(RULESET, state, seat, body)
            assert not problems, (seat, problems)
        res = RULESET.resolve(state, orders, phase_dice(seed, phase))
        assert events_json(res.events) == step["events"]
        state = res.state


def test_the_react_window_becomes_the_kits_continuation():
    old = POSITIONS["react interrupt"]["dump"]
    flow = RULESET.load(old).flow
    paused = json.loads(old["pending"])
    assert flow.step == flow.pending.resume == old["step"] and flow.turn == old["stage"]
    assert [(a.seat, a.key, a.default) for a in flow.pending.asks] == [(x["seat"], x["ac"], "HOLD")
                                                                        for x in paused["asks"]]
    assert flow.pending.data["phasing"] == paused["phasing"]


def test_policies_become_standing_orders_of_the_units_seat():
    old = POSITIONS["move with standing orders"]["dump"]
    state = RULESET.load(old)
    seat = {a["id"]: a["seat"] for a in old["aircraft"]} | {g["id"]: g["seat"] for g in old["guns"]}
    kept = {(o.seat, o.key) for o in state.flow.standing.orders}
    words = {"react": "REACT", "return": "RETURNFIRE", "aa": "AA"}
    assert kept == {(seat[unit], f"{words[kind]} {unit}") for unit, kind, _ in old["policies"]}
    assert any(o.text.endswith(" ASK") for o in state.flow.standing.orders)


@pytest.mark.parametrize("old", FINISHED, ids=lambda p: p["scenario"])
def test_a_finished_game_stays_finished_with_its_outcome(old):
    state = RULESET.load(old["dump"])
    assert RULESET.phase(state) is None
    o = RULESET.outcome(state)
    assert {"winner": o.winner, "text": o.text, "scores": dict(o.scores)} == old["outcome"]


def test_a_new_dump_is_left_alone_and_round_trips():
    state = RULESET.load(POSITIONS["react interrupt"]["dump"])
    dump = RULESET.dump(state)
    assert upgrade(dump) == dump
    assert RULESET.load(json.loads(json.dumps(dump))) == state
