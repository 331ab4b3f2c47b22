"""Cases derived from every table: Table 2 cell by cell, Table 4, modifiers, Tables 1/3 (VP), Table 5, dice."""
from __future__ import annotations

import pytest

from pbem.rules.lew_morski import attacks, board, combat, tables
from pbem.rules.lew_morski.ruleset import decide

from .lm_helpers import new_state, only, put, world

# Table 2 as printed (digest 6), "-" = None
TABLE2 = {
    1: [(9, 11), (10, 11), (11, 11), None, None],
    2: [(8, 11), (9, 11), (10, 11), (11, 11), None],
    3: [(7, 11), (8, 11), (9, 11), (10, 11), (11, 11)],
    4: [(6, 11), (7, 11), (8, 11), (9, 11), (10, 11)],
    5: [(5, 11), (6, 11), (7, 11), (8, 11), (9, 11)],
}


@pytest.mark.parametrize("strength,dist", [(s, d) for s in range(1, 6) for d in range(1, 6)])
def test_table2_cell(strength, dist):
    """Table 2 [R 5.2]: each cell; and a roll at each end of the range hits, just outside misses."""
    assert tables.hit_range(strength, dist) == TABLE2[strength][dist - 1]


@pytest.mark.parametrize("strength,dist", [(s, d) for s in range(1, 6) for d in range(1, 6) if TABLE2[s][d - 1]])
def test_table2_cell_resolves(strength, dist):
    lo, hi = TABLE2[strength][dist - 1]
    for total in range(3, 12):
        s = only(new_state(), "Spit-1", "He111-1")
        s = put(s, "Spit-1", "A20,B20", "N")
        s = put(s, "He111-1", board.fmt((20, 20 - dist)), "N")
        w = world(s, [min(6, total - 1), total - min(6, total - 1)])
        assert attacks.shot(w, w.ac["Spit-1"], w.ac["He111-1"], dist, strength, []) is (lo <= total <= hi)


def test_table2_strength_zero_no_roll_and_jam_roll_option():
    """G-14: strength 0 has no row: no roll by default; option zero_strength=jam_roll rolls only for a jam."""
    s = only(new_state(), "Spit-1", "He111-1")
    w = world(s, [])
    assert attacks.shot(w, w.ac["Spit-1"], w.ac["He111-1"], 1, 0, []) is False
    s2 = only(new_state(zero_strength="jam_roll"), "Spit-1", "He111-1")
    w2 = world(s2, [6, 6])
    assert attacks.shot(w2, w2.ac["Spit-1"], w2.ac["He111-1"], 1, 0, []) is False and w2.ac["Spit-1"].jammed


@pytest.mark.parametrize("alt,dist,expected", [("HIGH", 0, (6, 6)), ("HIGH", 1, None), ("LOW", 0, (5, 6)),
                                               ("LOW", 1, (6, 6)), ("VLOW", 0, (4, 6)), ("VLOW", 1, (5, 6))])
def test_table4_aa(alt, dist, expected):
    """Table 4 [R 6.1]: d6 ranges by target altitude and distance."""
    assert tables.aa_range(alt, dist) == expected
    tgt = combat.Plane("He111-1", "de", "he111", (30, 30 - dist), alt, "N")
    assert combat.aa_can_hit((30, 30), tgt, "south")[0] == expected
    if expected:
        for die in range(1, 7):
            s = only(new_state("w3"), "Spit-1")
            from dataclasses import replace
            from pbem.rules.lew_morski.state import Aircraft
            he = Aircraft("He111-9", "he111", "de", "de", hex=(30, 30 - dist), alt=alt, bombs=2)
            s = replace(s, aircraft=s.aircraft + (he,))
            from pbem.rules.lew_morski.state import Gun
            s = replace(s, guns=(Gun("AA-1", "gb", (30, 30)),))
            w = world(s, [die])
            attacks.aa_fire(w, w.guns["AA-1"], w.ac["He111-9"])
            assert w.ac["He111-9"].damaged is (expected[0] <= die <= expected[1])


def test_aa_against_the_sun_is_automatic_miss():
    """R 6.2.5, G-11: the gun-to-target line extended crosses the sun strip: no roll."""
    gun = board.from_row(20, 26)
    tgt = combat.Plane("h", "de", "he111", board.step(gun, "S"), "VLOW", "N")
    assert combat.aa_can_hit(gun, tgt, "south") == (None, "target against the sun: automatic miss")
    assert combat.aa_can_hit(gun, tgt, "east")[0] == (5, 6)


@pytest.mark.parametrize("target_cloud,shooter_cloud,variant,sun,expected", [
    ("none", "none", "text", False, 4), ("none", "none", "text", True, 3),
    ("edge", "none", "text", True, 3), ("full", "none", "text", True, 2),
    ("none", "edge", "text", False, 3), ("none", "full", "text", False, 2),
    ("none", "edge", "table", False, 2), ("none", "full", "table", False, 1),
    ("full", "full", "table", False, 0),
])
def test_modifiers(target_cloud, shooter_cloud, variant, sun, expected):
    """Modyfikacje sily ataku [R 5.0.1-5.0.3, 5.0.7, G-12]: sums subtracted, floor 0, sun ignored into cloud."""
    ter = board.terrain()
    pick = {"none": board.from_row(20, 20), "edge": next(iter(sorted(ter.cloud_edge))),
            "full": next(iter(sorted(ter.cloud_full)))}
    sh = combat.Plane("Spit-1", "gb", "spitfire", pick[shooter_cloud], "HIGH", "S")
    tg = combat.Plane("He111-1", "de", "he111", pick[target_cloud] if target_cloud != "none" else (5, 5), "HIGH", "N")
    sun_edge = "south" if sun else "north"
    assert board.into_sun(sh.hex, "S", "south") or not sun
    st, _ = combat.strength(sh, tg, sun_edge, {"from_cloud": variant})
    assert st == expected


# Table 5 [R 2.1]: max, min, attack, manoeuvrability, bombs (front side)
TABLE5 = {"hurricane": (5, 2, 4, 0, 0), "spitfire": (6, 2, 4, 0, 0), "me109": (6, 2, 4, 0, 0),
          "me110": (5, 3, 4, 1, 1), "he111": (4, 3, 2, 2, 2), "ju88": (4, 3, 1, 2, 3)}


@pytest.mark.parametrize("typ", sorted(TABLE5))
def test_table5_aircraft(typ):
    mx, mn, att, man, bombs = TABLE5[typ]
    st = tables.stats(typ, False, False, bombs)
    assert (st.max_speed, st.min_speed, st.attack, st.manoeuvrability) == (mx, mn, att, man)
    assert tables.type_info(typ)["bomb_load"] == bombs
    assert tables.stats(typ, False, True, bombs).attack == att + 1  # commander [R 5.0.6]
    dmg = tables.stats(typ, True, False, bombs)  # placeholder reverse side (G-4): weaker, never stronger
    assert dmg.attack <= att and dmg.max_speed < mx and dmg.manoeuvrability >= man and dmg.min_speed == mn
    # a damaged aircraft can still make its one turn within its speed [R 4.0]
    assert dmg.manoeuvrability + 1 <= dmg.max_speed


@pytest.mark.parametrize("victim,de,gb", [("Spit-1", 2, -1), ("Me110-1", -1, 2), ("He111-1", -2, 4)])
def test_table1_vp_for_losses(victim, de, gb):
    """Tables 1/3 [R 8]: British fighter DE +2/GB -1; German fighter GB +2/DE -1; bomber GB +4/DE -2."""
    w = world(new_state(), [])
    w.destroy(w.ac[victim], "test")
    assert w.vp == {"de": de, "gb": gb}


@pytest.mark.parametrize("per_series,target,expected", [(3, "A06,B19", 3), (2, "A06,B19", 2), (3, "A12,B09", 0),
                                                        (3, "A20,B20", 0)])
def test_table1_vp_for_bombs(per_series, target, expected):
    """Table 1 / R 9.2 (G-17): a series on a scenario target scores; other objects or hexes score nothing."""
    s = put(new_state(vp_per_series=per_series), "He111-1", "A30,B30", "S")
    w = world(s, [])
    h = board.parse_hex(target)
    w.set("He111-1", path=(h,))
    attacks.drop(w, w.ac["He111-1"], h)
    assert w.vp["de"] == expected and w.ac["He111-1"].bombs == 1


@pytest.mark.parametrize("die,kept", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_bomb_on_gun_roll(die, kept):
    """R 7.0.6: 4-6 destroys the gun."""
    from dataclasses import replace
    from pbem.rules.lew_morski.state import Gun
    s = replace(put(new_state(), "He111-1", "A30,B30", "S"), guns=(Gun("AA-1", "gb", (30, 31)),))
    w = world(s, [die])
    w.set("He111-1", path=((30, 31),))
    attacks.drop(w, w.ac["He111-1"], (30, 31))
    assert (not w.guns["AA-1"].destroyed) is kept


@pytest.mark.parametrize("die", range(1, 7))
def test_unjam_roll(die):
    """R 5.3.4: 6 clears the guns."""
    s = put(new_state(), "Spit-1", "A20,B20", "N", jammed=True)
    w = world(s, [die])
    attacks.unjam(w, w.ac["Spit-1"])
    assert bool(w.ac["Spit-1"].unjam_stage) is (die == 6)


@pytest.mark.parametrize("vp_de,vp_gb,winner", [(10, 0, "de"), (0, 15, "gb"), (9, 13, "de"), (5, 14, "gb"),
                                                (12, 16, "de"), (10, 15, None)])
def test_victory_table_w1(vp_de, vp_gb, winner):
    """R 8.2 with W1 minima DE 10, GB 15 (G-27: both reached -> larger share; equal shares -> draw)."""
    assert decide(vp_de, 10, vp_gb, 15).winner == winner


def test_both_reach_draw_option():
    assert decide(12, 10, 16, 15, "draw").winner is None
