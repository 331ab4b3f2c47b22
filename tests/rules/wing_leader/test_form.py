"""The order form: per squadron what it may do this window, the tally targets with the roll each needs,
escort reaction with its odds, later arrivals, and the standing orders in force with the defaults."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.play import play
from pbem.rules.wing_leader import RULESET
from pbem.testing import known
from pbem.testing.known import check_body


def _form(seat: str, scenario: str = "raid", options: dict | None = None, edits: list | None = None) -> str:
    start = {"scenario": scenario, "options": options or {}, "edits": edits or []}
    state = known.start_state(RULESET, known.Case("form", "-", "-", start))
    if RULESET.phase(state).key.endswith("wings"):  # several seats a side: the wings go as silence gives them
        state = RULESET.resolve(state, {}, SeededDice(b"pbem wing leader form test", "wings")).state
    return RULESET.order_form(RULESET.view(state, seat), seat)


def test_cadence_single_shows_the_tally_and_the_move_of_each_squadron():
    """6.0: with one window a turn the form holds both the tally choices and what the mission allows."""
    form = _form("allies", "sweep", {"cadence": "single"}, [["squadrons[id=A].at", [15, 13]]])
    a = form.split("# A ", 1)[1].split("\n# B ", 1)[0]
    assert "may tally: K needs" in a and "\nTALLY A K" in a
    assert "#   only fly straight on (no order needed)\n#   if its tally succeeds it pursues (9.2.7): IF TALLYING A THEN" in a
    standard = _form("allies", "sweep", {}, [["squadrons[id=A].at", [15, 13]]])
    assert "IF TALLYING" not in standard  # the Raider's tally window: no move yet


def test_later_arrivals_are_listed_with_their_turn_edge_and_altitudes():
    """5.3.1: a seat whose squadrons are all still to come sees when, where and at what altitude."""
    form = _form("axis-3", options={"seats_per_side": 3})
    assert "# M Fw 190A-8 arrives on turn 3 at the E edge at altitude 10 or 12 (ARRIVE M <altitude>; else 10) (5.3.1)" in form
    assert "# P Bf 109G-6 arrives on turn 4 at the E edge at altitude 14" in form
    entering = _form("axis-3", options={"seats_per_side": 3},
                     edits=[["squadrons[id=M].status", "entering"], ["squadrons[id=M].at", [25, 12]]])
    assert "# M Fw 190A-8 flies in from beyond the E edge this turn at altitude 12, heading W (5.3.1, 8.4.1)" in entering


def test_an_escort_learns_the_reaction_odds_or_that_it_is_too_far():
    """10.4: within 3 squares, at most one altitude below, in sight; the 2d6 needed after quality and weather."""
    near = _form("allies", edits=[["flow.step", "movement"]])
    assert "may react for T (2d6 9+, late 7+), U (2d6 9+, late 7+) (10.4; REACT B NO holds it back)" in near
    far = _form("allies", edits=[["flow.step", "movement"], ["squadrons[id=B].at", [3, 5]]])
    b = far.split("# B ", 1)[1]
    assert "may react for no bomber now" in b and "(10.4)" in b


def test_standing_orders_in_force_and_the_defaults():
    """10.4, 10.5, 10.8, 11.0: what holds where no standing order was given; each refusal cites its rule once."""
    form = _form("allies", edits=[["flow.standing", [["allies", "REACT B", "REACT B ASK"]]]])
    assert "# Standing orders in force (CANCEL <key> removes one):\n#   REACT B ASK\n" in form
    assert "# Where no standing order says otherwise: TACTIC <sq> BEST, REACT <escort> YES, DOGFIGHT DECLINE" in form
    assert "T is a bomber by mission and may not tally (3.2.1, 7.2)\n" in form
    assert "(7.2) (7.2)" not in form


def test_an_interrupt_form_names_its_rule_and_prefills_the_answer_silence_gives():
    """10.4: a reaction asked of the escort's owner; signing the form unchanged answers YES, the default."""
    case = known.load_case(Path(__file__).parents[2] / "known" / "wing_leader" / "reaction_success_stops_the_attacker.toml")
    state = known.start_state(RULESET, case)
    orders = {"allies": check_body(RULESET, state, "allies", "REACT A ASK")[0].orders, "axis": ()}
    asked = RULESET.resolve(state, orders, FixedDice([])).state
    form = RULESET.order_form(RULESET.view(asked, "allies"), "allies")
    assert form.endswith("# Answer YES or NO (10.4); on silence: YES\nYES\n"), form


@pytest.mark.parametrize("scenario", ["sweep", "raid", "dogfight"])
def test_every_form_of_a_bot_game_sent_back_unchanged_is_accepted(scenario):
    """A player who signs the form as it came gets no refusal: its suggested lines are legal orders (a
    squadron in a dogfight is told how the stack moves instead of being offered a PURSUE, 10.8.2)."""
    refused, forms = [], 0
    for options in ({}, {"cadence": "fast", "seats_per_side": 3}):
        for step in play(RULESET, scenario, b"every form signed as it came, 2026", options=options):
            phase = RULESET.phase(step.state)
            for seat in sorted(phase.awaiting) if phase else ():
                form = RULESET.order_form(RULESET.view(step.state, seat), seat)
                body = "\n".join(line for line in form.splitlines() if not line.startswith("#"))
                refused += [f"{phase.key} {seat}: {p}" for p in check_body(RULESET, step.state, seat, body)[1]]
                forms += 1
    assert forms > 40 and refused == []


def test_a_dogfighting_squadron_is_told_how_the_stack_moves():
    edits = [["flow.step", "movement"], ["squadrons[id=A].dogfight", True], ["squadrons[id=A].tally", "K"],
             ["squadrons[id=K].dogfight", True], ["squadrons[id=K].tally", "A"], ["squadrons[id=A].at", [10, 12]],
             ["squadrons[id=K].at", [10, 12]]]
    form = _form("allies", "sweep", edits=edits)
    assert "PURSUE A" not in form
    assert "#   in a dogfight: the stack moves as one, for the side a d6 picks (1-3 Raider, 4-6 Defender); it stays " \
           "unless that side's STACK A <square> names one of " in form
