"""Whole games with the bots, and the generic conformance check."""
import pytest

from pbem.core.play import play
from pbem.testing.conformance import check_ruleset
from pbem.rules.bismarck import RULESET


@pytest.mark.parametrize("scenario", ["rheinubung", "last-dash"])
def test_conformance(scenario):
    assert check_ruleset(RULESET, scenario, b"conformance") > 0


def test_conformance_with_optional_rules():
    opts = {"crew_exhaustion": True, "tirpitz": True, "new_york": True, "self_report": "shadowed"}
    assert check_ruleset(RULESET, "rheinubung", b"opt", options=opts, max_phases=25) > 0


@pytest.mark.parametrize("scenario,seed", [("last-dash", b"demo"), ("last-dash", b"x"), ("rheinubung", b"y"),
                                           ("rheinubung", b"long")])
def test_bots_play_to_a_victory_condition(scenario, seed):
    steps = play(RULESET, scenario, seed, max_phases=400)
    final = steps[-1].state
    out = RULESET.outcome(final)
    assert out is not None and out.winner in ("german", "allied")
    assert RULESET.phase(final) is None
    # at most 4 phases a turn (weather, shadowed moves, orders, admin) and at most 40 turns
    assert len(steps) <= 4 * 41
    assert final.ended in ("sunk", "port-france", "port-norway", "emergency-fuel", "turn-track")


def test_views_pictures_and_forms_every_phase():
    steps = play(RULESET, "last-dash", b"views", max_phases=60)
    for st in steps:
        for seat in ("german", "allied"):
            v = RULESET.view(st.state, seat)
            assert v["side"] == seat
            assert RULESET.picture(v).shapes


def test_conformance_with_the_doctrine_interrupt_option():
    assert check_ruleset(RULESET, "last-dash", b"ask", options={"battle_doctrine": "ask"}, max_phases=30) > 0
