"""Fog that holds for events: a whole bot game in fog, every event and roll a German seat is shown names
only British aircraft that seat saw just before or just after the phase (issue #16)."""
from __future__ import annotations

import re
from itertools import pairwise

import pytest

from pbem.core.play import play
from pbem.rules.lew_morski import RULESET, combat

FOG = {"visibility": "fog", "visual_range": 3, "setup": "auto", "sun": "south", "players_per_side": 2}


def _seen(state, seat: str) -> set[str]:
    view = RULESET.view(state, seat)
    return {p["id"] for p in view["planes"] if p["side"] == "gb"}


def _in_sight_during(prev, after) -> set[str]:
    """British aircraft some German could see at some moment of the phase: from where the Germans were
    before or after it (a German shot down in the phase saw until then), at either end of the British
    aircraft's flight [combat.seen: the one rule]."""
    eyes = [a.hex for s in (prev, after) for a in s.aircraft if a.side == "de" and a.hex is not None
            and (a.status == "board" or s is after and a.status == "destroyed")]
    rng = int(after.opts["visual_range"])
    return {a.id for s in (prev, after) for a in s.aircraft
            if a.side == "gb" and a.status == "board" and combat.seen(a.hex, a.alt, eyes, rng)}


@pytest.mark.parametrize("scenario", ["w1", "w4"])
def test_no_german_seat_is_told_of_a_british_aircraft_it_could_not_see(scenario):
    steps = play(RULESET, scenario, b"lew morski fog audit " + scenario.encode(), options=FOG, max_phases=40)
    before = steps[0].state
    british = {a.id for a in before.aircraft if a.side == "gb"}
    names = re.compile(r"\b(" + "|".join(re.escape(x) for x in sorted(british, key=len, reverse=True)) + r")\b")
    told = 0
    for prev, step in pairwise(steps):  # the first phase is the setup: nobody has met yet
        for seat in (s.name for s in RULESET.seats(step.state) if s.side == "de"):
            known = _seen(prev.state, seat) | _seen(step.state, seat) | _in_sight_during(prev.state, step.state)
            texts = [e.text for e in step.events if seat in e.visible_to] + \
                    [r.why for r in step.rolls if seat in r.seen_by]
            for text in texts:
                named = set(names.findall(text))
                told += bool(named)
                assert named <= known, f"{seat} in {step.phase.key}: {text!r} names {named - known}"
    assert told, "the game went on long enough for the Germans to be told of British aircraft"
