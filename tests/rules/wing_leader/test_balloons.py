"""Barrage balloons [14.3]: a strength-0 barrage zone from the balloon down to the ground, supporting other
units' barrages; sweeps pursue one within three squares without a roll and attack it alone in the Combat
Phase; three losses bring it down; scenario ``torpedo`` (balloon B1 over the transport in N2)."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import SeededDice
from pbem.rules.wing_leader import RULESET, flak
from pbem.rules.wing_leader.model import State
from pbem.rules.wing_leader.sky import HEADINGS, parse
from pbem.rules.wing_leader.surface import Balloon, parse_flak
from pbem.testing.known import check_body

SEED = b"wing leader rule 14.3 balloons test seed, 32b"
AWAY = {"T": ("A19", "E"), "V": ("B19", "E"), "R": ("C19", "E"), "P": ("D19", "E"), "G": ("E19", "E"),
        "H": ("F19", "E"), "Z": ("Z19", "W"), "Y": ("Y19", "W")}


def _movement(changes: dict[str, dict] | None = None, **where: tuple[str, str]) -> State:
    state = RULESET.setup("torpedo", RULESET.info.resolve_options({"cadence": "fast"}), SeededDice(SEED, "setup"))
    state = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "t")).state
    place = {**AWAY, **where}
    squadrons = tuple(replace(s, at=parse(place[s.id][0]), heading=HEADINGS.index(place[s.id][1]),
                              **(changes or {}).get(s.id, {})) for s in state.squadrons)
    return replace(state, squadrons=squadrons, surfaces=tuple(replace(u, flak=()) for u in state.surfaces),
                   barrages=())


def _resolve(state: State):
    return RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move"))


def test_the_zone_runs_from_the_balloon_to_the_ground_and_attacks_friend_and_foe():
    state = _movement()
    assert flak.zones(state)["B1"] == {parse("N0"), parse("N1"), parse("N2")}
    texts = [e.text for e in _resolve(_movement(G=("L1", "E"))).events]   # G flies level through N1
    assert any(t.startswith("barrage balloon B1 barrage attack at G in") for t in texts), texts


def test_a_balloon_supports_another_units_barrage():
    """14.3/14.2.3: entering small arms' zone and the balloon's: the best unit leads, +1 for the balloon."""
    state = _movement(G=("L1", "E"))
    state = replace(state, surfaces=tuple(replace(u, flak=(parse_flak("S1"),)) if u.id == "M1" else u
                                          for u in state.surfaces))
    assert sorted(flak.met_zones(state, parse("M0"), [parse("N0")], [], False)) == ["B1", "M1"]
    lead = flak.best_lead([g for g in flak.barrage_units(state) if g.label in ("B1", "M1")], state.squadron("G"))
    assert lead.label == "M1"


def test_no_barrage_marker_may_overlap_a_balloon_zone():
    state = RULESET.setup("torpedo", RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    state = replace(state, balloons=(Balloon("B1", parse("Q2"), "axis"),))
    heavy = flak.gun(state, "K1/1")
    assert flak.barrage_problem(state, heavy, parse("Q1")) == (
        "a barrage zone may not overlap a barrage balloon's zone", "14.2.2")


def test_the_balloon_order_is_for_sweeps_within_three_squares():
    sweep = _movement({"H": {"mission": "sweep", "alert": True}}, H=("L3", "E"))
    assert not check_body(RULESET, sweep, "allies", "BALLOON H B1")[0].problems
    far = _movement({"H": {"mission": "sweep", "alert": True}}, H=("J3", "E"))
    escort = _movement(H=("L3", "E"))
    for state, words in ((far, "more than 3"), (escort, "only squadrons on a sweep")):
        (problem,) = check_body(RULESET, state, "allies", "BALLOON H B1")[0].problems
        assert problem.rule == "14.3" and words in problem.message, problem


def test_a_sweep_pursuing_a_balloon_flies_to_it_unharmed_and_attacks_it_alone():
    """14.3: no barrage from the balloon it pursues; in its square, no enemy there: only the attacker rolls,
    each hit a loss; ammunition spent, a cohesion check."""
    state = _movement({"H": {"mission": "sweep", "alert": True}}, H=("L2", "E"))
    checked = check_body(RULESET, state, "allies", "BALLOON H B1")[0]
    result = RULESET.resolve(state, {"allies": checked.orders, "axis": ()}, SeededDice(SEED, "move"))
    texts = [e.text for e in result.events]
    assert not any("barrage attack at H" in t for t in texts), texts
    (attack,) = [e for e in result.events if e.kind == "balloon"]
    assert attack.text.startswith("H attacks barrage balloon B1 in N2: column ")
    b1 = next(b for b in result.state.balloons if b.id == "B1")
    assert b1.losses == min(attack.data["hits"], 3)
    assert result.state.squadron("H").ammo == 1 and any(t.startswith("H cohesion: rolled") for t in texts)


def test_three_losses_bring_the_balloon_down_and_its_zone_with_it():
    state = _movement()
    down = replace(state, balloons=(replace(state.balloons[0], losses=3),))
    assert "B1" not in flak.zones(down) and "balloons" in RULESET.view(state, "allies")
    assert RULESET.view(down, "allies")["balloons"] == []


def test_setup_refuses_a_balloon_above_altitude_2():
    import pytest
    from pbem.rules.wing_leader.surface import balloon_from_row
    with pytest.raises(ValueError, match="14.3"):
        balloon_from_row(["B9", "N3"], "axis")
