"""Contract conformance and whole bot games [contract, digest 10]."""
import pytest

from pbem.core.dice import SeededDice
from pbem.core.play import play
from pbem.testing.conformance import check_ruleset

from pbem.rules.sky_ww2 import RULESET

CASES = [
    ("quick", {}),
    ("battle", {}),
    ("battle", {"players": 4, "selection": "free", "step_mode": True}),
    ("battle", {"players": 6, "selection": "limited", "events": True}),
    ("battle", {"aircraft": 1, "selection": "limited"}),
    ("battle", {"aircraft": 2, "players": 4, "selection": "free", "events": True}),
    ("quick", {"players": 3}),
    ("battle", {"players": 5, "selection": "limited"}),
    ("quick", {"cadence": "turn"}),
    ("battle", {"players": 4, "cadence": "turn", "events": True}),
]


@pytest.mark.parametrize("scenario,options", CASES, ids=lambda x: str(x))
def test_conformance(scenario, options):
    assert check_ruleset(RULESET, scenario, b"conformance", options=options, max_phases=60) > 5


@pytest.mark.parametrize("cadence", ["round", "turn"])
@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("seed", [b"a", b"b"])
def test_whole_three_v_three_game_ends(players, seed, cadence):
    steps = play(RULESET, "battle", seed, options={"players": players, "max_rounds": 0, "cadence": cadence},
                 max_phases=3000)
    out = RULESET.outcome(steps[-1].state)
    assert out is not None, "the bots did not finish the game"
    assert "no aircraft left" in out.text
    rounds = steps[-1].state.read()["round"]
    if cadence == "round":  # set-up, the sealed deployment, then one plan window a round (the bots ask nothing)
        assert len(steps) == 2 + rounds
    else:  # set-up (1) + deployment (6) + at least one turn per aircraft and round
        assert 10 < len(steps) < 1500
    d = steps[-1].state.read()
    loser = [s for s in ("coalition", "axis") if not any(not a["destroyed"] and a["side"] == s
                                                         for a in d["aircraft"].values())]
    assert loser


def test_seats_per_player():
    s = RULESET.setup("battle", RULESET.info.resolve_options({"players": 6}), SeededDice(b"s", "setup"))
    names = sorted(x.name for x in RULESET.seats(s))
    assert names == ["axis-1", "axis-2", "axis-3", "coalition-1", "coalition-2", "coalition-3"]
    steps = play(RULESET, "battle", b"s", options={"players": 6}, max_phases=2)
    d = steps[-1].state.read()
    owners = sorted((a["id"], a["seat"]) for a in d["aircraft"].values())
    assert owners == [("c1", "coalition-1"), ("c2", "coalition-2"), ("c3", "coalition-3"),
                      ("x1", "axis-1"), ("x2", "axis-2"), ("x3", "axis-3")]


def test_max_rounds_ends_on_vp():
    steps = play(RULESET, "quick", b"r", options={"max_rounds": 4}, max_phases=500)
    out = RULESET.outcome(steps[-1].state)
    assert out is not None and steps[-1].phase.turn <= 4


def test_too_few_aircraft_for_the_players_is_refused():
    from pbem.core.errors import RulesetDefinitionError
    with pytest.raises(RulesetDefinitionError):
        RULESET.setup("battle", RULESET.info.resolve_options({"players": 6, "aircraft": 2}), SeededDice(b"s", "s"))
