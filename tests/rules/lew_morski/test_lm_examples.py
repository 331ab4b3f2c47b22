"""Known-answer tests for every worked example of the digest (section 10, E-1..E-16, D-1..D-11)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.dice import FixedDice
from pbem.rules.lew_morski import RULESET, attacks, board, combat, flight, movement, tables
from pbem.rules.lew_morski.ruleset import decide
from pbem.rules.lew_morski.combat import plane
from pbem.rules.lew_morski.orders import Action, Fire, Move, of_type

from .lm_helpers import ac, add_gun, at, check, keeping, new_state, only, put, world


def test_e1_coordinates():
    """E-1 [R 2.0]: "A42, B27" is column A42, oblique row B27, on the board (row 6)."""
    assert board.parse_hex("A42, B27") == (42, 27)
    assert board.parse_hex("(A06 ,B19)") == (6, 19)
    assert board.on_board((42, 27)) and board.row((42, 27)) == 6
    assert not board.on_board((46, 46))  # the 9.3 example lies off the inferred board (G-2)


def test_e2_stage_track_overflow():
    """E-2 [R 2.0]: after stage 28 comes stage 29; stage 28 ends nothing (no stage limit by default)."""
    s = new_state()
    w = world(s, [])
    w.stage = 28
    assert w.end_reason_now(after_gb_phase=True) == ""
    w.new_stage()
    assert w.stage == 29


def test_e3_ju88_bomb_series_and_empty_speed():
    """E-3 [R 2.1, 7.0]: a Ju-88 carries 3 series; with none left its maximum speed is 5 (G-30)."""
    s = only(new_state("w2"), "Ju88-1")
    s = put(s, "Ju88-1", "A16,B22", "S")
    assert ac(s, "Ju88-1").bombs == 3
    assert tables.stats("ju88", False, False, 3).max_speed == 4
    w = world(s, [])
    w.set("Ju88-1", path=((16, 23), (16, 24), (16, 25)))
    attacks.bomb(w, w.ac["Ju88-1"], [(16, 23), (16, 24), (16, 25)])
    assert w.ac["Ju88-1"].bombs == 0
    assert w.stats(w.ac["Ju88-1"]).max_speed == 5
    s2 = w.freeze()
    res = check(s2, "de", "MOVE Ju88-1 FFF\nBOMB Ju88-1 A16,B26")
    assert any(p.rule == "R 7.0.5" for p in res.problems)


SPIT = tables.stats("spitfire", False, False, 0)
ME110 = tables.stats("me110", False, False, 1)
HE111 = tables.stats("he111", False, False, 2)


@pytest.mark.parametrize("path,legal", [("RFFFFFF", True), ("FFFRFFF", True), ("FFFR", False), ("RF", False),
                                        ("RFF", True)])
def test_e4_manoeuvrability_0(path, legal):
    """E-4 [R 4.0]: a Spitfire (M 0) may turn in its start hex or later; at least 1 hex after the turn."""
    assert (movement.shape_problem(path, SPIT, "none", (20, 25), "N") is None) is legal


@pytest.mark.parametrize("path,legal", [("RFFF", False), ("FRFF", True), ("FFRFF", True), ("FRFRF", False)])
def test_e5_manoeuvrability_1(path, legal):
    """E-5 [R 4.0]: a Me-110 (M 1) flies 1 hex before turning; only one turn."""
    assert (movement.shape_problem(path, ME110, "none", (20, 25), "N") is None) is legal


def test_e6_he111_movement():
    """E-6 [R 4.0]: He-111 at A20,B30 facing N flies FFRFF to A22,B28 facing NE."""
    w = movement.walk((20, 30), "N", "FFRFF")
    assert [board.fmt(h) for h, _ in w.cells] == ["A20,B29", "A20,B28", "A21,B28", "A22,B28"]
    assert w.facing == "NE"
    assert movement.shape_problem("FFRFF", HE111, "none", (20, 30), "N") is None
    assert movement.shape_problem("FRFFF", HE111, "none", (20, 30), "N") is not None
    assert movement.shape_problem("FFRFFF", HE111, "none", (20, 30), "N") is not None
    assert movement.shape_problem("FFRFFF", HE111, "dive", (20, 30), "N") is None
    assert movement.shape_problem("FF", HE111, "none", (20, 30), "N") is not None


def _forced_collision_state():
    """He-111 (M 2) high at A20,B20 facing N; the hex ahead holds a Spitfire high and a Me-110 low."""
    s = only(new_state(), "He111-1", "Spit-1", "Me110-1")
    s = put(s, "He111-1", "A20,B20", "N")
    s = put(s, "Spit-1", "A20,B19", "N")
    return put(s, "Me110-1", "A20,B19", "N", "LOW")


@pytest.mark.parametrize("die,collide", [(6, True), (1, False), (5, False)])
def test_e7_collision_roll(die, collide):
    """E-7 [R 4.2.6]: no path and no altitude avoids the hex: 6 = both destroyed, 1-5 = both share it."""
    s = _forced_collision_state()
    w = world(s, [die])
    flight.move_one(w, w.ac["He111-1"], Move("He111-1", "FFF"), [], False)
    if collide:
        assert w.ac["He111-1"].status == "destroyed" and w.ac["Spit-1"].status == "destroyed"
        # G-25 default: each side loses its own VP, nobody scores a shot down
        assert w.vp == {"de": -2, "gb": -1}
    else:
        assert w.ac["He111-1"].hex == (20, 17) and w.ac["Spit-1"].status == "board"
        assert w.vp == {"de": 0, "gb": 0}


def test_e8_offboard_return():
    """E-8 [R 4.3.1]: leaving in stage 7 parks the aircraft for stage 12; it re-enters within 5 of its exit hex."""
    s = only(new_state(), "Spit-1", "He111-1")
    s = put(s, "Spit-1", "A20,B11", "N")  # row 1: two hexes north and it is off the board
    s = put(s, "He111-1", "A30,B30", "S")
    w = world(s, [])
    w.stage = 7
    flight.move_one(w, w.ac["Spit-1"], Move("Spit-1", "FF"), [], False)
    a = w.ac["Spit-1"]
    assert a.status == "off" and a.return_stage == 12 and a.exit_hex == (20, 10) and a.exit_edge == "north"
    s2 = at(w.freeze(), "gb-move", 12)
    v = RULESET.view(s2, "gb")
    entry = next(x for x in v["own"] if x["id"] == "Spit-1")["entry"]
    assert "A20,B10" in entry["hexes"] and "A25,B13" in entry["hexes"] and "A26,B13" not in entry["hexes"]
    assert not check(s2, "gb", "ENTER Spit-1 A25,B13 S").problems
    bad = check(s2, "gb", "ENTER Spit-1 A26,B13 S").problems
    assert bad and bad[0].rule.startswith("R 4.3.1")


@pytest.mark.parametrize("die,damaged,result", [
    (1, False, "destroyed"), (2, False, "damaged"), (2, True, "destroyed"),
    (3, False, "safe"), (4, False, "safe"), (5, False, "safe"), (6, True, "safe")])
def test_e9_german_offboard_roll(die, damaged, result):
    """E-9 [R 4.3.2]: leaving other than south: 1 shot down, 2 damaged (destroyed if already), 3-6 safe."""
    s = only(new_state(), "He111-1")
    s = put(s, "He111-1", "A41,B30", "NE", damaged=damaged)
    w = world(s, [die])
    flight.move_one(w, w.ac["He111-1"], Move("He111-1", "FFF"), [], False)
    a = w.ac["He111-1"]
    if result == "destroyed":
        assert a.status == "destroyed" and w.vp == {"de": -2, "gb": 4}
    elif result == "damaged":
        assert a.status == "off" and a.damaged
    else:
        assert a.status == "off" and a.damaged == damaged and w.vp == {"de": 0, "gb": 0}


def test_e9_south_exit_withdraw_no_roll():
    """E-9 / R 8.1: leaving south with a WITHDRAW declaration: no roll, never returns, no VP."""
    s = only(new_state(), "He111-1")
    s = put(s, "He111-1", "A20,B36", "S")  # row 26
    w = world(s, [])  # FixedDice([]) proves no roll is made
    flight.move_one(w, w.ac["He111-1"], Move("He111-1", "FFF"), [], True)
    assert w.ac["He111-1"].status == "withdrawn" and w.vp == {"de": 0, "gb": 0}


def _dice_for_sum(total):
    return [min(6, total - 1), total - min(6, total - 1)]


@pytest.mark.parametrize("total", range(2, 13))
def test_e10_combat_table_reading(total):
    """E-10 [R 5.2]: strength 4 at distance 2 hits on 7-11; 2 and 12 jam; others miss."""
    s = only(new_state(), "Spit-1", "He111-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "He111-1", "A20,B18", "N")
    w = world(s, _dice_for_sum(total))
    attacks.fire(w, w.ac["Spit-1"])
    he = w.ac["He111-1"]
    assert he.damaged is (7 <= total <= 11)
    assert w.ac["Spit-1"].jammed is (total in (2, 12))


def test_e10_second_hit_destroys():
    s = only(new_state(), "Spit-1", "He111-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "He111-1", "A20,B18", "N", damaged=True)
    w = world(s, [4, 4])
    attacks.fire(w, w.ac["Spit-1"])
    assert w.ac["He111-1"].status == "destroyed"


def test_e11_mutual_fire_both_destroyed():
    """E-11 [R 5.4]: damaged A and B face each other 3 hexes apart; both fire, both hit, both fall."""
    s = only(new_state(), "Spit-1", "Me110-1")
    s = put(s, "Spit-1", "A20,B20", "N", damaged=True)
    s = put(s, "Me110-1", "A20,B17", "S", damaged=True)
    w = world(s, [5, 5, 5, 5])  # damaged attack 3 at distance 3 hits on 9-11
    attacks.combat_phase(w, "de", [Fire("Me110-1")], {})
    assert w.ac["Spit-1"].status == "destroyed" and w.ac["Me110-1"].status == "destroyed"
    assert w.vp == {"de": 2 - 1, "gb": -1 + 2}


def test_e11_reaction_before_attack_cancels_it():
    """E-11: A ends on B's line (B not on A's): B fires first; A destroyed -> A's attack is cancelled."""
    s = only(new_state(), "Spit-1", "Me110-1", "He111-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "Me110-1", "A20,B18", "NE", damaged=True)  # not facing the Spitfire
    s = put(s, "He111-1", "A21,B18", "N")  # would be Me110-1's own target (friendly, no shot anyway)
    w = world(s, [4, 4])  # the Spitfire hits (7-11)
    attacks.combat_phase(w, "de", [Fire("Me110-1")], {})
    assert w.ac["Me110-1"].status == "destroyed"
    assert not any("Me110-1 fires" in e.text for e in w.w.events)


def test_e11_damaged_reactive_target_fires_with_reverse_strength():
    s = only(new_state(), "Spit-1", "Me110-1", "Spit-2")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "Me110-1", "A20,B18", "NE")
    s = put(s, "Spit-2", "A21,B18", "SE")  # Me110-1's target at distance 1, not facing it
    s = keeping(s, ("Spit-2", "react", "NEVER"))
    w = world(s, [4, 4, 3, 3])  # Spit-1 hits (damage); Me110 (now attack 3) at distance 1 needs 7-11: rolls 6, miss
    attacks.combat_phase(w, "de", [Fire("Me110-1")], {})
    assert w.ac["Me110-1"].damaged and w.ac["Spit-2"].damaged is False
    assert any("strength 3" in e.text and e.text.startswith("Me110-1 fires") for e in w.w.events)


@pytest.mark.parametrize("die,edge", [(1, "east"), (2, "east"), (3, "south"), (4, "south"), (5, "west"), (6, "west")])
def test_e12_sun_die(die, edge):
    """E-12 [R 5.0.1]: 1-2 east, 3-4 south, 5-6 west."""
    s = RULESET.setup("w1", RULESET.info.resolve_options({"sun": "die"}), FixedDice([die]))
    assert s.sun == edge


def test_e13_vp_thresholds_as_data():
    """E-13 [R 8]: thresholds are per side and scenario, e.g. W1 Germany 10, Great Britain 15."""
    v = RULESET.view(new_state(), "de")
    assert v["min_vp"] == {"de": 10, "gb": 15}


def test_e14_vp_track():
    """E-14 [R 8.0]: DE 0 -> +2 -> +3 = 5 -> -4 = 1 -> -3 = -2; GB -1 +4 +4 +2 +4 = 13."""
    s = new_state("w2")
    s = put(s, "He111-1", "A16,B22", "S")
    w = world(s, [])
    w.destroy(w.ac["Spit-1"], "test")
    assert w.vp["de"] == 2
    w.set("He111-1", path=((12, 9),))
    attacks.drop(w, w.ac["He111-1"], (12, 9))
    assert w.vp["de"] == 5
    w.destroy(w.ac["He111-2"], "test")
    w.destroy(w.ac["Ju88-1"], "test")
    assert w.vp["de"] == 1
    w.destroy(w.ac["Me109-1"], "test")
    w.destroy(w.ac["He111-3"], "test")
    assert w.vp == {"de": -2, "gb": 13}


def test_e15_victory_by_shortfall_and_percentage():
    """E-15 [R 8.2]: W2, GB 19/23 vs DE 27/35 -> GB; GB 19/23 vs DE 31/35 -> equal shortfall, DE on percentage."""
    assert decide(27, 35, 19, 23).winner == "gb"
    o = decide(31, 35, 19, 23)
    assert o.winner == "de" and "88.6%" in o.text


def test_e16_start_radius():
    """E-16 [R 9.3]: within 5 hexes of A46,B46 means distance <= 5 including the centre: 91 hexes."""
    assert len(board.zone((46, 46), 5)) == 91
    assert len(board.within((10, 8), 1)) == 7


def test_d1_table_closed_form():
    """D-1: every cell of Table 2 equals L = 9 + distance - strength .. 11 (none when L > 11)."""
    for s in range(1, 6):
        for d in range(1, 6):
            low = 9 + d - s
            assert tables.hit_range(s, d) == ((low, 11) if low <= 11 else None)


def test_d2_sun_ignored_against_target_in_cloud():
    """D-2 [R 5.0.3]: commander Spitfire (5) fires into the sun at a Me-109 in full cloud: 5 - 2 = 3, 8-11."""
    s = only(new_state("w3", sun="north"), "Spit-1")
    s2 = only(new_state("w2", sun="north"), "Me109-1")
    sp = put(s, "Spit-1", "A24,B20", "N")
    me = put(s2, "Me109-1", "A24,B18", "S")
    shooter, target = plane(sp.ac("Spit-1")), plane(me.ac("Me109-1"))
    assert shooter.commander and board.into_sun(shooter.hex, "N", "north")
    st, notes = combat.strength(shooter, target, "north", sp.opts)
    assert st == 3 and tables.hit_range(st, 2) == (8, 11)
    clear_target = combat.Plane("x", "de", "me109", (24, 19), "HIGH", "S")  # A24,B19 is a cloud edge hex
    assert combat.strength(shooter, clear_target, "north", sp.opts)[0] == 4


@pytest.mark.parametrize("variant,expected", [("text", 1), ("table", 0)])
def test_d3_from_cloud_modifier(variant, expected):
    """D-3 [R 5.0.2, G-12]: Me-109 in a cloud-edge hex fires at distance 1 into full cloud: text 1, table 0."""
    shooter = combat.Plane("Me109-1", "de", "me109", (24, 19), "HIGH", "N")
    target = combat.Plane("Hurr-1", "gb", "hurricane", (24, 18), "HIGH", "S")
    st, _ = combat.strength(shooter, target, "south", {"from_cloud": variant})
    assert st == expected
    assert tables.hit_range(st, 1) == ((9, 11) if expected == 1 else None)


def test_d4_line_of_fire_in_cloud_is_one_hex():
    """D-4 [R 5.0.5]: at HIGH in a full-cloud hex the line of fire is 1 hex."""
    shooter = combat.Plane("Spit-1", "gb", "spitfire", (24, 17), "HIGH", "N")
    far = combat.Plane("He111-1", "de", "he111", (24, 15), "HIGH", "N")
    near = combat.Plane("He111-2", "de", "he111", (24, 16), "HIGH", "N")
    assert combat.target_of(shooter, [far], {}) is None
    assert combat.target_of(shooter, [near], {})[1] == 1


def test_d5_altitudes_must_match_and_low_ignores_cloud():
    """D-5 [R 5.2, 5.0.4]: LOW shooter, HIGH target: no shot; a LOW aircraft in a cloud hex has no cloud modifier."""
    shooter = combat.Plane("Spit-1", "gb", "spitfire", (24, 20), "LOW", "N")
    high = combat.Plane("He111-1", "de", "he111", (24, 18), "HIGH", "N")
    assert combat.target_of(shooter, [high], {}) is None
    low_in_cloud = combat.Plane("He111-2", "de", "he111", (24, 18), "LOW", "N")
    tg = combat.target_of(shooter, [low_in_cloud], {})
    assert tg is not None and combat.strength(shooter, low_in_cloud, "south", {})[0] == 4


def test_d6_aa_cases():
    """D-6 [R 6.1, 6.2.5, Table 4]."""
    gun = (30, 30)
    assert combat.aa_can_hit(gun, combat.Plane("h", "de", "he111", (30, 29), "VLOW", "N"), "south")[0] == (5, 6)
    assert combat.aa_can_hit(gun, combat.Plane("h", "de", "he111", (30, 29), "HIGH", "N"), "south")[0] is None
    assert combat.aa_can_hit(gun, combat.Plane("h", "de", "he111", (30, 30), "HIGH", "N"), "south")[0] == (6, 6)
    cloud = board.parse_hex("A24,B17")
    rng, why = combat.aa_can_hit((24, 18), combat.Plane("h", "de", "he111", cloud, "HIGH", "N"), "south")
    assert rng is None and "cloud" in why


def test_d7_he111_climb_exactly_three_and_no_double_change():
    """D-7 [R 4.2.3, 4.2.4]: climbing He-111 has limit 3 = min 3; HIGH to VLOW in one stage is impossible."""
    assert movement.altitude_problem(HE111, "LOW", "climb") is None
    assert all(p.count("F") == 3 for p in movement.all_paths(HE111, "climb"))
    damaged = tables.stats("he111", True, False, 2)
    assert movement.altitude_problem(damaged, "LOW", "climb") is not None
    s = put(new_state(), "He111-1", "A30,B30", "SW")
    assert check(s, "de", "MOVE He111-1 DIVE DIVE FFF").problems


def test_d8_bombing_targets_and_guns():
    """D-8 [R 7.0.2, 7.0.5, 7.0.6]: He-111 bombs target A16,B24 and the AA gun hex it ends on."""
    s = only(new_state(), "He111-1")
    s = put(s, "He111-1", "A16,B22", "S")
    s = add_gun(s, "AA-1", "A16,B25")
    r = check(s, "de", "MOVE He111-1 FFF\nBOMB He111-1 A16,B24 A16,B25")
    assert not r.problems
    assert check(s, "de", "MOVE He111-1 FFF\nBOMB He111-1 A16,B23 A16,B24 A16,B25").problems[0].rule == "R 7.0.5"
    assert check(s, "de", "MOVE He111-1 FFF\nBOMB He111-1 A16,B27").problems[0].rule == "R 7.0.2"
    w = world(s, [4])
    flight.movement_phase(w, "de", r.orders)
    attacks.written_actions(w, of_type(r.orders, Action))
    assert w.vp["de"] == 3 and w.guns["AA-1"].destroyed and "T07" in w.bombed
    w2 = world(s, [3])
    flight.movement_phase(w2, "de", r.orders)
    attacks.written_actions(w2, of_type(r.orders, Action))
    assert not w2.guns["AA-1"].destroyed


def test_d9_all_targets_bonus_once():
    """D-9 [R 9.2]: W2, the 4th distinct target bombed gives +3 once."""
    s = put(new_state("w2"), "He111-1", "A20,B20", "S")
    w = world(s, [])
    hexes = [(12, 9), (11, 13), (4, 24), (10, 31)]
    for i, h in enumerate(hexes):
        w.set("He111-1", path=(h,), bombs=2, bombed=())
        attacks.drop(w, w.ac["He111-1"], h)
        assert w.vp["de"] == 3 * (i + 1) + (3 if i == 3 else 0)
    w.set("He111-1", path=((12, 9),), bombs=2, bombed=())
    attacks.drop(w, w.ac["He111-1"], (12, 9))
    assert w.vp["de"] == 18


def test_d10_one_shot_per_stage():
    """D-10 [R 5.3.1, G-31]: a Spitfire that reacted in Phase 2 cannot fire in Phase 4."""
    s = only(new_state(), "Spit-1", "He111-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "He111-1", "A20,B18", "N")
    w = world(s, [1, 2])  # a miss
    attacks.combat_phase(w, "de", [], {})
    assert w.ac["Spit-1"].fired_stage == 1
    s2 = at(w.freeze(), "gb-move")
    p = check(s2, "gb", "MOVE Spit-1 RFF\nFIRE Spit-1").problems
    assert p and p[0].rule == "R 5.3.1" and p[0].line_no == 2
    s3 = replace(at(w.freeze(), "gb-move"), options=tuple(sorted({**s.opts, "one_shot": "target"}.items())))
    assert not check(s3, "gb", "MOVE Spit-1 RFF\nFIRE Spit-1").problems


def test_d11_unjam_takes_effect_next_stage():
    """D-11 [R 5.3.4]: unjammed in Phase 2 of stage 5 -> no reaction in Phase 4; fires from stage 6."""
    s = only(new_state(), "Me110-1", "Spit-1")
    s = put(s, "Me110-1", "A20,B20", "N", jammed=True)
    s = put(s, "Spit-1", "A20,B18", "S")
    w = world(s, [6])
    w.stage = 5
    attacks.unjam(w, w.ac["Me110-1"])
    assert w.ac["Me110-1"].jammed and w.ac["Me110-1"].unjam_stage == 5
    assert attacks.reactive_candidates(w, "gb") == []
    w.new_stage()
    assert not w.ac["Me110-1"].jammed and w.stage == 6
    assert [b.id for b, _, _ in attacks.reactive_candidates(w, "gb")] == ["Me110-1"]


def test_g22_altitude_change_at_a_chosen_hex():
    """G-22 option alt_change=any_hex: "FFDF" flies 2 hexes high, then dives; the default rejects it."""
    s = only(new_state(), "He111-1", "Spit-1")
    s = put(s, "He111-1", "A30,B30", "N")
    s = put(s, "Spit-1", "A30,B27", "N", "LOW")  # third hex ahead is taken at LOW only
    p = check(s, "de", "MOVE He111-1 FFDF").problems
    assert p and p[0].rule == "R 4.2.3"  # the rulebook's section, not the digest's G-22
    s2 = replace(s, options=tuple(sorted({**s.opts, "alt_change": "any_hex"}.items())))
    assert check(s2, "de", "MOVE He111-1 FFDFF").problems[0].rule == "R 4.1.1"  # dives into the LOW Spitfire
    r = check(s2, "de", "MOVE He111-1 FFFFDF")  # 4 hexes then dive: +1 limit makes 5 legal
    assert not r.problems
    w = world(s2, [])
    flight.move_one(w, w.ac["He111-1"], of_type(r.orders, Move)[0], [], False)
    assert w.ac["He111-1"].alt == "LOW" and w.ac["He111-1"].hex == (30, 25)


@pytest.mark.parametrize("setting,ignored", [("counts", True), ("full_only", False)])
def test_g13_cloud_edge_option(setting, ignored):
    """G-13: does a cloud-edge target hex make the sun irrelevant (R 5.0.3) and AA miss (R 6.2.5)?"""
    edge = board.parse_hex("A24,B19")
    sh = combat.Plane("Spit-1", "gb", "spitfire", (24, 21), "HIGH", "N")
    tg = combat.Plane("Me109-1", "de", "me109", edge, "HIGH", "S")
    st, _ = combat.strength(sh, tg, "north", {"cloud_edge": setting})
    assert st == (3 if ignored else 2)  # 4 - 1 (edge) [- 1 sun]
    rng, _ = combat.aa_can_hit(edge, tg, "south", {"cloud_edge": setting})
    assert (rng is None) is ignored
