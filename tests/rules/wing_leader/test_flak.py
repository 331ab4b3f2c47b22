"""Flak units: zones and Barrage markers, barrage attacks, direct fire and their resolution [14.2]."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.play import play
from pbem.core.work import Work
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader import flak
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.game import seats
from pbem.rules.wing_leader.model import DIVE
from pbem.rules.wing_leader.sky import parse
from pbem.rules.wing_leader.surface import Barrage, Surface, parse_flak
from pbem.testing import known
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body

from .helpers import sq, state

HEAVY_AT_M = Surface("F1", "flak battery", 12, "axis", defence=2, damage=3, flak=(parse_flak("H1^2"),), vp=3)


def _gun(text: str, column: int = 12) -> flak.Gun:
    unit = Surface("G", "battery", column, "axis", flak=(parse_flak(text),))
    return flak.Gun("G", unit, unit.flak[0])


def _squares(*names: str) -> set[tuple[int, int]]:
    return {parse(n) for n in names}


def test_a_barrage_zone_is_the_four_squares_round_its_point():
    assert flak.zone(parse("N9")) == _squares("M8", "N8", "M9", "N9")
    assert flak.zone(parse("A1")) == _squares("A0", "A1")   # off the map's left edge: two squares


def test_where_heavy_light_and_low_angle_flak_may_put_their_markers():
    heavy, light, low = _gun("H1^2"), _gun("L1^1"), _gun("_H1^2")
    assert parse("L15") in flak.barrage_points(heavy) and parse("O3") in flak.barrage_points(heavy)
    assert parse("P3") not in flak.barrage_points(heavy)   # two columns away: not an edge of an adjacent column
    assert sorted(flak.barrage_points(light)) == sorted([parse("M1"), parse("N1")])
    assert all(p[1] == 1 for p in flak.barrage_points(low)) and len(flak.barrage_points(low)) == 4
    assert flak.barrage_points(_gun("S1")) == []


def test_a_barrage_marker_out_of_reach_is_refused_with_its_rule():
    s = state()
    assert flak.barrage_problem(s, _gun("L1^1"), parse("M2"))[1] == "14.2.2"
    assert flak.barrage_problem(s, _gun("_H1^2"), parse("M5"))[1] == "14.2.8"
    assert flak.barrage_problem(s, _gun("S1"), parse("M1"))[1] == "14.2.2"
    assert flak.barrage_problem(s, _gun("H1^2"), parse("M5")) is None


def test_the_barrage_trigger_entering_turning_circling_but_not_leaving():
    """The digest's T17: through a zone without turning: attack; starting inside and flying straight out: none;
    circling inside: attack; through three zones: one attack, +2."""
    s = replace(state(), surfaces=(HEAVY_AT_M,), barrages=(Barrage("F1", parse("N9")),))
    assert flak.met_zones(s, parse("K9"), [parse("L9"), parse("M9"), parse("N9"), parse("O9")], [], False) == ["F1"]
    assert flak.met_zones(s, parse("M9"), [parse("N10"), parse("O10")], [], False) == []      # left: no attack
    assert flak.met_zones(s, parse("M9"), [parse("N10")], [parse("M9")], False) == ["F1"]     # turned inside
    assert flak.met_zones(s, parse("M9"), [], [], True) == ["F1"]                             # circled inside
    three = replace(s, surfaces=s.surfaces + (replace(HEAVY_AT_M, id="F2"), replace(HEAVY_AT_M, id="F3")),
                    barrages=s.barrages + (Barrage("F2", parse("O9")), Barrage("F3", parse("P9"))))
    met = flak.met_zones(three, parse("K9"), [parse(c + "9") for c in "LMNOP"], [], False)
    assert met == ["F1", "F2", "F3"]
    b24 = sq("T", "allies", "b24h", "bombing", "P9", bombs=True)
    assert flak.modifier(flak.guns(three)[0], b24, flak.BARRAGE, len(met) - 1) == \
        flak.modifier(flak.guns(three)[0], b24, flak.BARRAGE, 0) + 2


def test_a_suppressed_unit_has_no_zone_and_fires_no_more():
    s = replace(state(), surfaces=(replace(HEAVY_AT_M, hits=3),), barrages=(Barrage("F1", parse("N9")),))
    assert flak.zones(s) == {} and flak.guns(s) == []


def test_direct_fire_range_heavy_light_and_low_angle():
    """The digest's T15."""
    s = state()
    heavy, light, low = _gun("H1^2"), _gun("L1^1"), _gun("_H1^2")
    assert flak.in_range(s, heavy, sq("T", "allies", "b24h", "bombing", "O19")) is None
    assert "two columns" in flak.in_range(s, heavy, sq("T", "allies", "b24h", "bombing", "P3"))
    assert flak.in_range(s, light, sq("T", "allies", "b24h", "bombing", "N4")) is None
    assert "0 to 4" in flak.in_range(s, light, sq("T", "allies", "b24h", "bombing", "N5"))
    assert flak.in_range(s, low, sq("T", "allies", "b24h", "bombing", "O1")) is None
    assert "14.2.8" in flak.in_range(s, low, sq("T", "allies", "b24h", "bombing", "O2"))
    assert "14.2.8" in flak.in_range(s, low, sq("T", "allies", "f6f", "sweep", "M1", marker=DIVE))


def test_the_automatic_choice_prefers_loaded_bombers_then_the_lowest_up_to_the_number_of_targets():
    s = replace(state(sq("A", "allies", "p47d", "escort", "M3"), sq("T", "allies", "b24h", "bombing", "N9", bombs=True),
                      sq("U", "allies", "b24h", "bombing", "L6", bombs=True), sq("K", "axis", "fw190a8", "sweep", "M2")),
                surfaces=(HEAVY_AT_M,))
    g = flak.guns(s)[0]
    assert [t.id for t in flak.auto_targets(s, g, set())] == ["U", "T"]
    assert [t.id for t in flak.auto_targets(s, g, {"U"})] == ["T", "A"]


def test_the_flak_attack_table_and_confirmation_firepower():
    assert flak.result(2) == ("-", 0) and flak.result(8) == (1, -1) and flak.result(13) == ("die", -2)
    assert flak.confirm_firepower(_gun("H1^2"), flak.BARRAGE) == 0
    assert flak.confirm_firepower(_gun("H1^2"), flak.DIRECT) == 1
    assert flak.confirm_firepower(_gun("H1^2"), flak.DIRECT, ["dual_fuze"]) == 2      # 14.2.7
    assert flak.confirm_firepower(_gun("L1^1"), flak.BARRAGE, ["dual_fuze"]) == 0     # heavy flak only
    b24 = sq("T", "allies", "b24h", "bombing", "N9")
    better = flak.modifier(_gun("H1^2"), b24, flak.DIRECT, 0, ["fire_direction", "proximity_fuse"])
    assert better == flak.modifier(_gun("H1^2"), b24, flak.DIRECT, 0) + 2
    assert flak.modifier(_gun("H1^2"), b24, flak.BARRAGE, 0, ["fire_direction"]) == flak.modifier(_gun("H1^2"), b24, flak.BARRAGE, 0)


def _work(s, rolls):
    w: Work[Air] = Work(s.flow, seats(s), FixedDice(rolls))
    w.data = Air(s, w)
    return w


def test_direct_fire_one_attack_a_squadron_its_pursuer_rolls_too_and_the_worse_bomb_column_is_kept():
    """T16: a squadron is attacked once a phase; squadrons pursuing the target in its square take their own roll."""
    s = replace(state(sq("T", "allies", "b24h", "bombing", "N9", bombs=True),
                      sq("K", "axis", "fw190a8", "sweep", "N9", tally="T")), surfaces=(HEAVY_AT_M,))
    w = _work(s, [6, 6, 3, 6, 6, 1, 2, 2, 1, 1])   # T: 12+1 = 13 "die" -> 3 hits, 6 6 1 confirmed; cohesion 2+2
    flak.direct_fire(w, {})
    texts = [e.text for e in w.events]
    assert texts[0].startswith("flak F1 (H1^2) direct fire at T in N9: rolled 12+1 = 13: 3 hits, bomb column -2")
    assert any(t.startswith("flak F1 (H1^2) direct fire at K in N9: rolled 2+1 = 3: no hits (14.2.4") for t in texts)
    assert w.data.squadron("T").losses == 2 and w.data.flak_bomb == {"T": -2, "K": 0}


def test_a_barrage_order_is_checked_at_ingest():
    start = known.start_state(RULESET, known.Case("flak", "-", "-", {"scenario": "flak", "options": {}, "edits": []}))
    step = next(st for st in play(RULESET, "flak", b"wl14 barrage order ingest test", max_phases=4)
                if RULESET.phase(st.state) and RULESET.phase(st.state).name == "movement")
    assert start.barrages == (Barrage("F1", parse("N9")), Barrage("S2/2", parse("Q1")))
    ok, problems = check_body(RULESET, step.state, "axis", "BARRAGE F1 O12\nBARRAGE S2/2 OFF")
    assert problems == []
    for body, why in (("BARRAGE S2/2 P2", "two upper corners of its own square"), ("BARRAGE Y1 N1", "small arms"),
                      ("BARRAGE X9 N1", "no flak unit X9")):
        _, problems = check_body(RULESET, step.state, "axis", body)
        assert len(problems) == 1 and "14.2.2" in str(problems[0]) and why in str(problems[0]), (body, problems)
    _, problems = check_body(RULESET, step.state, "allies", "BARRAGE F1 O12")
    assert len(problems) == 1 and "not yours" in str(problems[0])


def test_the_flak_scenario_conforms_and_plays_to_its_result_with_flak_firing():
    assert check_ruleset(RULESET, "flak", b"wl14 flak conformance seed 32b", max_phases=60) > 10
    steps = play(RULESET, "flak", b"wl14 flak conformance seed 32b", max_phases=60)
    assert steps[-1].state.flow.over
    kinds = [e.text for st in steps for e in st.events if e.kind == "flak"]
    assert any("barrage attack" in t for t in kinds) and any("direct fire" in t for t in kinds)


def test_the_basic_scenarios_have_no_flak():
    s = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(b"pbem wl14 no flak in the raid", "s"))
    assert s.surfaces == () and s.barrages == () and not s.uses("14.2")
