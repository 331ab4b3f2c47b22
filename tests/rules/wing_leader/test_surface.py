"""Surface and ground units, their damage and its effects [14.0, 14.1]."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.defaults import from_json, to_json
from pbem.rules.wing_leader.parsing import position
from pbem.rules.wing_leader.surface import (CRITICAL, FATAL, HEAVY, HEAVY_DAMAGE, LIGHT, LIGHT_DAMAGE, MINOR,
                                            NO_DAMAGE, SMALL, Flak, Surface, damage_level, damage_vp, from_row,
                                            parse_flak)
from pbem.rules.wing_leader.victory import points
from pbem.rules.wing_leader.views import order_form, view

from .helpers import sq, state


def carrier(**kw: object) -> Surface:
    base = Surface("T1", "CV", 12, "axis", defence=2, damage=4, flak=(parse_flak("H1^2"), parse_flak("L1^1")), vp=6)
    return replace(base, **kw)


def test_the_damage_table_with_damage_rating_4_and_6_vp():
    """The digest's T13: DR 4, unit VP 6 — highest level only, 1/2 VP rounds up [14.1.1, 1.2]."""
    expected = {0: (NO_DAMAGE, 0), 1: (MINOR, 1), 3: (LIGHT_DAMAGE, 3), 4: (HEAVY_DAMAGE, 6), 7: (HEAVY_DAMAGE, 6),
                8: (CRITICAL, 12), 11: (CRITICAL, 12), 12: (FATAL, 18), 30: (FATAL, 18)}
    for hits, (level, vp) in expected.items():
        assert (damage_level(hits, 4), damage_vp(hits, 4, 6)) == (level, vp), hits


def test_exactly_half_the_rating_is_minor_and_half_vp_rounds_up():
    assert damage_level(2, 4) == MINOR            # the reading chosen for the gap (NOTES.md)
    assert damage_level(3, 5) == LIGHT_DAMAGE     # 3 > 2.5: compared unrounded
    assert damage_vp(3, 5, 5) == 3                # half of 5 is 2.5 -> 3 [1.2]


def test_hits_add_up_and_heavy_damage_silences_the_flak_and_stops_takeoffs():
    t = carrier().hit(2).hit(1)
    assert t.hits == 3 and t.level == LIGHT_DAMAGE and t.firing() == t.flak and not t.takeoff_prohibited
    t = t.hit(1)
    assert t.level == HEAVY_DAMAGE and t.suppressed and t.firing() == () and t.takeoff_prohibited
    assert not t.immobile and t.victory_points == 6


def test_a_critically_damaged_ship_is_immobile_with_modifier_0_a_ground_target_is_not():
    ship = carrier(hits=8)
    assert ship.immobile and ship.defence_against() == 0
    ground = replace(ship, type="factory")
    assert not ground.ship and not ground.immobile and ground.defence_against() == 2


def test_a_ship_declared_immobile_keeps_its_flak_until_heavy_damage():
    ship = carrier(immobile_at_start=True)
    assert ship.immobile and ship.defence_against() == 0 and ship.firing() == ship.flak


def test_a_dive_or_steep_attack_from_the_sun_takes_1_off_a_ships_modifier_toward_zero():
    assert carrier().defence_against(from_sun=True, dive_or_steep=True) == 1
    assert carrier(defence=-2).defence_against(from_sun=True, dive_or_steep=True) == -1
    assert carrier(defence=0).defence_against(from_sun=True, dive_or_steep=True) == 0
    assert carrier().defence_against(from_sun=True) == 2              # a level attack from the Sun: no change
    assert carrier(type="depot").defence_against(from_sun=True, dive_or_steep=True) == 2   # not a ship


def test_a_carrier_that_launched_this_turn_has_modifier_0_13_7_1():
    assert carrier(launched_turn=3).defence_against(turn=3) == 0
    assert carrier(launched_turn=2).defence_against(turn=3) == 2


def test_reconnaissance_scores_the_units_value():
    assert carrier(reconnoitred=True).victory_points == 6 and carrier(reconnoitred=True, hits=8).victory_points == 12


def test_flak_ratings_are_read_as_printed_and_bad_ones_refused():
    assert parse_flak("H1^2") == Flak(HEAVY, 1, 2) and parse_flak("l0^1") == Flak(LIGHT, 0, 1)
    assert parse_flak("S2") == Flak(SMALL, 2) and not parse_flak("S2").direct
    assert parse_flak("_H2^3") == Flak(HEAVY, 2, 3, low_angle=True) and parse_flak("_H2^3").text() == "_H2^3"
    for bad, why in (("H3^1", "not a flak rating"), ("S1^2", "small arms"), ("L1", "number of targets"),
                     ("_L1^1", "low-angle"), ("X1^1", "not a flak rating")):
        with pytest.raises(ValueError, match=why):
            parse_flak(bad)


def test_a_scenario_row_belongs_to_the_defender_unless_it_says_otherwise():
    unit = from_row({"id": "S1", "type": "DD2", "at": "M", "defence": 1, "damage": 3, "flak": ["L1^1"], "vp": 4},
                    "axis")
    assert unit == Surface("S1", "DD2", 12, "axis", defence=1, damage=3, flak=(Flak(LIGHT, 1, 1),), vp=4)
    assert unit.ship and unit.at == (12, 0)
    assert from_row({"id": "B", "type": "bridge", "at": "C0", "side": "allies"}, "axis").side == "allies"
    for bad in ({"id": "X", "type": "BB", "at": "C3"}, {"id": "X", "type": "BB", "at": "C", "damage": 0}):
        with pytest.raises(ValueError, match=r"\[14\.0\]"):
            from_row(bad, "axis")


def test_surface_units_round_trip_through_the_view_and_score_for_the_enemy():
    s = replace(state(sq("A", "allies", "f6f", "sweep", "C10")), surfaces=(carrier(hits=4),))
    assert from_json(Surface, to_json(carrier(hits=4))) == carrier(hits=4)
    v = view(s, "allies")
    assert position(v).surfaces == s.surfaces
    assert v["surface_status"][0]["level"] == HEAVY_DAMAGE and v["surface_status"][0]["suppressed"]
    assert points(s)["allies"] == 6 and points(s)["axis"] == 0
    form = order_form(v, "allies")
    assert "# surface unit T1 (CV, axis) at M0: defensive modifier 2, damage rating 4, flak H1^2 L1^1, 6 VP; 4 hits, " \
           "heavy, flak suppressed (14.1.2), no takeoff (13.7) [14.0, 14.1.1]" in form


def test_basic_views_have_no_surface_keys():
    v = view(state(sq("A", "allies", "f6f", "sweep", "C10")), "allies")
    assert "surfaces" not in v and "surface_status" not in v
