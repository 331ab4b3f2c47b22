"""A dive or steep attack on a ship from the sun [14.1.3]: the release is from the ship's sun sector, or in the
ship's square having come in from the sun's side (4.6.2); the ship's defence then comes one nearer zero (T14).
Scenario ``flak`` uses 14.1 and has the sun left and high (north-west of a unit, placeholder sector)."""
from __future__ import annotations

from dataclasses import replace

from pbem.rules.wing_leader import bombing
from pbem.rules.wing_leader.bomb_runs import from_sun
from pbem.rules.wing_leader.sky import parse
from pbem.rules.wing_leader.surface import Surface

from .helpers import sq, state

SHIP = Surface("C1", "CA", parse("J0")[0], "axis", defence=3, damage=6)


def _bomber(at: str, **kw):
    return sq("D", "allies", "sbd5", "bombing", at, heading="SE", **kw)


def test_a_release_in_the_sun_sector_is_from_the_sun_and_one_overhead_is_not():
    s = state(scenario="flak", step="combat")
    assert from_sun(s, _bomber("F4"), SHIP)            # north-west of the ship, toward the sun
    assert not from_sun(s, _bomber("J4"), SHIP)        # straight above: north, not the sun's sector
    assert not from_sun(s, _bomber("N4"), SHIP)        # north-east: away from the sun


def test_in_the_ships_square_it_counts_when_it_came_in_from_the_sun_side():
    s = state(scenario="flak", step="combat")
    assert from_sun(s, _bomber("J0", entered_from=parse("I1")), SHIP)
    assert not from_sun(s, _bomber("J0", entered_from=parse("K1")), SHIP)


def test_not_a_ship_or_not_rule_14_no_sun():
    assert not from_sun(state(scenario="sweep", step="combat"), _bomber("F4"), SHIP)
    yard = replace(SHIP, type="RY")
    assert not from_sun(state(scenario="flak", step="combat"), _bomber("F4"), yard)


def test_the_sun_brings_the_ships_defence_one_nearer_zero_for_dive_and_steep_only():
    """T14: +3 becomes +2 for a dive from the sun; level bombing from the sun keeps +3."""
    dive = bombing.Strike("dive", bomb=2, from_sun=True)
    level = bombing.Strike("level", bomb=2, from_sun=True)
    assert bombing.target_modifier(dive, SHIP) == 2 and bombing.target_modifier(level, SHIP) == 3
