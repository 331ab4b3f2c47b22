"""The attack roll, the hits table, the markers and the Casualty Phase (digest 4.1-4.7, 4.14, 9.2)."""
from __future__ import annotations

import pytest

from pbem.rules.aa_miniatures import combat

from .helpers import unit


@pytest.mark.parametrize("s, hits", [(4, 0), (5, 1), (6, 2), (9, 2), (10, 3), (12, 3)])
def test_hits_table_against_defence_five(s, hits):
    """R1 (Hits, L106-L116): equal gives 1, more 2, twice the defence 3."""
    assert combat.hits_for(s, 5) == hits


def test_defence_one_never_gives_two_hits():
    """R2: with D = 1 one success is 1 hit and two are already twice the defence."""
    assert [combat.hits_for(s, 1) for s in (0, 1, 2, 3)] == [0, 1, 3, 3]


def test_disrupted_target_defends_one_less():
    """R3 (L298): defence 3 Disrupted is 2, so 2, 3, 4 successes give 1, 2, 3 hits."""
    target = unit("t", "flak38", (0, 0), disrupted=True)
    d = combat.defence(target, "front")
    assert d == 2 and [combat.hits_for(s, d) for s in (2, 3, 4)] == [1, 2, 3]


def test_disrupted_and_damaged_take_one_penalty_only():
    """R4 and R6 (L328): Disrupted and Damaged together still cost one point of defence and one per die."""
    both = unit("p", "panzer", (0, 0), disrupted=True, damaged=True)
    assert combat.defence(both, "front") == 4
    assert combat.die_modifier(both, unit("g", "garand", (0, 2), side="axis")) == -1


def test_disrupted_attacker_succeeds_on_five_and_six():
    """R5 (L98): each die -1, so faces 4, 5, 6 give two successes."""
    assert combat.successes([4, 5, 6], -1) == 2
    assert combat.successes([4, 5, 6], 0) == 3


def test_aircraft_target_and_crack_shot():
    """R7 and R28 (L50, L78): -1 per die against an aircraft, a crack shot's +1 does not apply to it;
    a Disrupted shooter off the aircraft's front needs a 6."""
    plane = unit("fw", "fw190", (0, 0), side="axis")
    sniper = unit("s", "sniper", (0, 3))
    assert combat.die_modifier(sniper, plane) == -1
    assert combat.die_modifier(sniper, unit("g", "grenadier", (0, 0), side="axis")) == 1
    shaken = unit("g", "garand", (0, 3), disrupted=True)
    assert combat.die_modifier(shaken, plane) == -2 and combat.successes([4, 5, 6], -2) == 1
    assert combat.die_modifier(shaken, plane, aircraft_front=True) == -1


@pytest.mark.parametrize("n, band", [(0, "close"), (1, "close"), (2, "medium"), (4, "medium"), (5, "long"),
                                     (8, "long"), (9, None)])
def test_range_bands(n, band):
    """R14 (L84-L90): 0-1 close, 2-4 medium, 5-8 long, nothing beyond."""
    assert combat.band((0, 0), (0, n)) == band


def test_markers_by_kind():
    """L126-L136: a vehicle's hits are yellow, red, black; a soldier's yellow, black; never more."""
    assert combat.add_hits((), 2, vehicle=True) == ("yellow", "red")
    assert combat.add_hits(("yellow", "red"), 1, vehicle=True) == ("yellow", "red", "black")
    assert combat.add_hits(("yellow",), 1, vehicle=False) == ("yellow", "black")
    assert combat.add_hits(("yellow", "black"), 3, vehicle=False) == ("yellow", "black")


@pytest.mark.parametrize("before, pending, after", [
    ({}, ("yellow", "black"), None),                                              # R8
    ({}, ("yellow", "red", "black"), None),                                       # R9
    ({"damaged": True}, ("yellow", "red"), None),                                 # R10
    ({"damaged": True}, ("yellow",), {"disrupted": True, "damaged": True}),       # R11
    ({"disrupted": True}, ("yellow",), {"disrupted": True, "damaged": False}),    # R12
    ({"disrupted": True}, (), {"disrupted": False, "damaged": False}),            # R13
    ({}, ("yellow", "red"), {"disrupted": True, "damaged": True}),
])
def test_casualty_phase(before, pending, after):
    """R8-R13 (L288-L338): remove face-up yellows, turn the markers up, remove the destroyed."""
    card = "panzer" if "damaged" in before or "red" in pending else "garand"
    got = combat.casualty(unit("u", card, (0, 0), pending=pending, **before))
    if after is None:
        assert got is None
    else:
        assert got is not None and {"disrupted": got.disrupted, "damaged": got.damaged} == after
        assert got.pending == ()


def test_disruption_ends_overwatch_at_the_casualty_phase():
    """R23 (L232): a face-down yellow turned up ends Overwatch."""
    got = combat.casualty(unit("u", "garand", (0, 0), pending=("yellow",), overwatch=2))
    assert got is not None and got.overwatch is None


def test_cover_limits_an_attack_to_a_disruption():
    """Placeholder effect (digest 4.6): a yellow only if the target had no marker yet this turn."""
    assert combat.after_cover((), ("yellow", "black")) == ("yellow",)
    assert combat.after_cover(("yellow",), ("yellow", "black")) == ("yellow",)
    assert combat.after_cover((), ()) == ()


@pytest.mark.parametrize("dice, d, row", [
    (11, 5, (.274, .226, .494, .006)), (11, 4, (.113, .161, .612, .113)), (8, 4, (.363, .273, .359, .004)),
    (6, 3, (.344, .312, .328, .016)), (4, 2, (.312, .375, .250, .062)), (3, 1, (.125, .375, .000, .500)),
])
def test_probabilities_match_the_digest_table(dice, d, row):
    """Digest 6 (4+ column), computed here by enumeration of the binomial."""
    assert combat.hit_chances(dice, 0, d) == pytest.approx(row, abs=0.0006)


def test_probabilities_with_a_modifier_are_the_five_plus_column():
    assert combat.hit_chances(11, -1, 5) == pytest.approx((.711, .167, .122, .000), abs=0.0006)
