"""Conformance for all five scenarios and whole bot games to their end."""
from __future__ import annotations

import pytest

from pbem.core.play import play
from pbem.rules.lew_morski import RULESET
from pbem.testing.conformance import check_ruleset


@pytest.mark.parametrize("scenario", ["w1", "w2", "w3", "w4", "w5"])
def test_conformance(scenario):
    assert check_ruleset(RULESET, scenario, max_phases=24) > 10


@pytest.mark.parametrize("scenario,options", [
    ("w3", {"visibility": "fog", "players_per_side": 2}),
    ("w3", {"react_default": "ask", "aa_timing": "movement", "bomb_timing": "movement", "alt_change": "any_hex"}),
    ("w4", {"one_shot": "target", "occupancy": "end_hex", "blocking": "any", "cloud_line": "any", "zero_strength": "jam_roll",
     "offboard_roll": "return", "return_altitude": "owner", "collision_vp": "award", "jammed_bombing": "no",
     "from_cloud": "table", "vp_per_series": 2, "sun": "north", "setup": "auto", "cloud_edge": "full_only"}),
])
def test_conformance_with_options(scenario, options):
    assert check_ruleset(RULESET, scenario, options=options, max_phases=24) > 10


def test_whole_game_w1_bots_reach_the_end():
    """The demo game: Wariant 1 with bots plays to an outcome in a sane number of phases."""
    steps = play(RULESET, "w1", b"lew morski demo game w1", max_phases=300)
    final = steps[-1].state
    out = RULESET.outcome(final)
    assert out is not None and RULESET.phase(final) is None
    assert 10 < len(steps) < 150
    kinds = {e.kind for s in steps for e in s.events}
    assert {"fire", "bomb", "move"} <= kinds  # the bots actually fly, fight and bomb


@pytest.mark.parametrize("seed", [b"lew morski seed one", b"lew morski seed two"])
def test_w1_ends_for_several_seeds(seed):
    steps = play(RULESET, "w1", seed, max_phases=300, options={"setup": "auto"})
    assert RULESET.outcome(steps[-1].state) is not None and len(steps) < 150


@pytest.mark.parametrize("scenario", ["w2", "w3", "w4", "w5"])
def test_whole_game_other_scenarios(scenario):
    steps = play(RULESET, scenario, b"lew morski whole game", max_phases=400, options={"setup": "auto"})
    assert RULESET.outcome(steps[-1].state) is not None


def test_step_mode_interrupts_are_answered():
    """react_default=ask opens interrupt windows awaiting one side; the bot answers them and the game ends."""
    steps = play(RULESET, "w1", b"lew morski ask windows", max_phases=300, options={"react_default": "ask", "setup": "auto"})
    names = {s.phase.name for s in steps}
    assert names & {"gb-react", "de-react"}
    for s in steps:
        if s.phase.name.endswith("react"):
            assert s.phase.window.value == "interrupt" and len({x[:2] for x in s.phase.awaiting}) == 1
    assert RULESET.outcome(steps[-1].state) is not None
