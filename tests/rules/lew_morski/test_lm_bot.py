"""The scripted player's decisions, one per test: bombing, unjamming, going home, and whom each side chases."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.dice import FixedDice
from pbem.rules.lew_morski import RULESET, board, bot
from tests.rules.lew_morski.lm_helpers import new_state, only, put

TARGET = "A06,B19"  # target T06 of Wariant 1


def _orders(state, seat: str = "de") -> list[str]:
    return bot.orders(RULESET.view(state, seat), seat, FixedDice([])).splitlines()


def _two_hexes_south_of(hex_text: str) -> str:
    t = board.parse_hex(hex_text)
    return board.fmt(board.step(board.step(t, "S"), "S"))  # type: ignore[arg-type]


def test_a_bomber_pointed_at_a_target_flies_over_it_and_bombs_it():
    state = only(put(new_state("w1"), "He111-1", _two_hexes_south_of(TARGET), "N"), "He111-1", "Spit-1")
    out = _orders(state)
    assert out[0].startswith("MOVE He111-1 ")
    assert f"BOMB He111-1 {TARGET}" in out


def test_a_jammed_bomber_unjams_instead_when_jammed_guns_may_not_bomb():
    """G-34 set to "no": the same flight drops nothing and asks to clear the guns."""
    state = new_state("w1", jammed_bombing="no")
    state = only(put(state, "He111-1", _two_hexes_south_of(TARGET), "N", jammed=True), "He111-1", "Spit-1")
    out = _orders(state)
    assert not any(line.startswith("BOMB") for line in out)
    assert "UNJAM He111-1" in out


@pytest.mark.parametrize(("stage", "leaves"), [(bot.GIVE_UP_STAGE + 1, True), (5, False)])
def test_after_the_give_up_stage_an_escort_leaves_by_the_south_edge(stage, leaves):
    """An escort four rows from the south edge withdraws only once the raid has turned home [R 8.1]."""
    state = put(new_state("w1"), "Me110-1", board.fmt(board.from_row(14, 23)), "S")
    state = only(state, "Me110-1", "He111-1", "Spit-1")
    state = replace(state, flow=replace(state.flow, turn=stage))  # the stage is the kit's turn
    assert ("WITHDRAW Me110-1" in _orders(state)) is leaves


def test_british_fighters_chase_the_bombers_first():
    view = RULESET.view(new_state("w1"), "gb")
    spitfire = next(a for a in view["own"] if a["id"] == "Spit-1")
    bombers = sorted(board.parse_hex(p["hex"]) for p in view["planes"] if p["class"] == "bomber")
    assert bombers and sorted(bot.goals_of(bot.outlook(view), spitfire, False)) == bombers


def test_a_loaded_bomber_seeks_the_unbombed_targets_and_an_empty_one_goes_home():
    view = RULESET.view(new_state("w1"), "de")
    view = dict(view, targets=[dict(t, bombed=t["hex"] == TARGET) for t in view["targets"]])
    heinkel = next(a for a in view["own"] if a["id"] == "He111-1")
    out = bot.outlook(view)
    unbombed = [board.parse_hex(t["hex"]) for t in view["targets"] if t["hex"] != TARGET]
    assert bot.goals_of(out, heinkel, True) == unbombed
    assert bot.goals_of(out, dict(heinkel, bombs=0), False) == []  # no goal: the score heads south


def test_a_seat_that_does_not_move_now_passes():
    assert _orders(new_state("w1"), "gb") == ["PASS"]
