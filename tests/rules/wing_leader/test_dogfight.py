"""Dogfights [10.8]: the contested start, the stack, who moves it, and where."""
from __future__ import annotations

from pbem.rules.wing_leader import combat, dogfight
from pbem.rules.wing_leader.sequence import movement_order
from pbem.rules.wing_leader.sky import HEADINGS, name, parse

from .helpers import sq

HELLCAT = sq("A", "allies", "f6f", "sweep", "J10", alert=True, tally="K", quality="veteran")
ZERO = sq("K", "axis", "a6m", "intercept", "J10", heading="W", alert=True, tally="A", quality="green")


def test_the_contested_start_is_d6_plus_basic_speed_and_quality_and_the_seeker_wins_ties():
    """10.8: the Hellcat (speed 5, veteran +1) seeking against the Zero (speed 4, green -1): 1 against 3
    gives 7 against 6, a dogfight; a tie (3 + 4 against 2 + 5) also starts one."""
    assert dogfight.contest(1, HELLCAT, 3, ZERO)
    assert not dogfight.contest(1, HELLCAT, 6, ZERO)
    assert dogfight.contest(3, ZERO.move(quality="trained"), 2, HELLCAT.move(quality="trained"))


def test_only_unbroken_fighters_dogfight_and_they_face_their_own_edges():
    """10.8, 10.8.1: bombers never; everyone turns level toward its own edge and tallies someone in it."""
    bomber = sq("T", "allies", "b24h", "bombing", "J10", bombs=True)
    broken = sq("B", "allies", "f6f", "sweep", "J10", broken=True)
    here = dogfight.candidates([HELLCAT, ZERO, bomber, broken], parse("J10"))
    assert [s.id for s in here] == ["A", "K"]
    locked = dogfight.lock([HELLCAT.move(tally=""), ZERO], {"allies": "W", "axis": "E"})
    assert [(s.dogfight, HEADINGS[s.heading], s.tally) for s in locked] == [(True, "W", "K"), (True, "E", "A")]


def test_the_stack_stays_or_moves_one_square_level_or_lower_and_never_off_the_map():
    """10.8.2: five squares and its own in open air; fewer at the ground or an edge; the die gives the move
    to the Raider on 1-3."""
    assert {name(c) for c in dogfight.stack_moves(parse("J10"))} == {"I10", "J10", "K10", "I9", "J9", "K9"}
    assert {name(c) for c in dogfight.stack_moves(parse("A0"))} == {"A0", "B0"}
    assert [dogfight.mover(r, "allies", "axis") for r in (3, 4)] == ["allies", "axis"]


def test_a_dogfight_moves_first_and_its_attacker_has_the_best_basic_turn():
    """6.1, 10.8.1: dogfights move before everyone; the Zero's turn 6 beats the Hellcat's 4."""
    a, k = HELLCAT.move(dogfight=True), ZERO.move(dogfight=True)
    bomber = sq("T", "allies", "b24h", "bombing", "E14", bombs=True)
    assert movement_order([bomber, a, k], "allies", lambda s: 1)[0] in ("A", "K")
    assert combat.fights([a, k], ["A", "K"])[0].attackers == ("K",)


def test_equal_turn_in_a_dogfight_is_decided_by_the_tie_roll():
    a = sq("A", "allies", "a6m", "sweep", "J10", tally="K", dogfight=True)
    k = ZERO.move(dogfight=True)
    assert combat.fights([a, k], ["A", "K"], lambda: "allies")[0].attackers == ("A",)
