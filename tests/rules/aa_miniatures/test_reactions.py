"""Defensive and overwatch fire, pure (L212-L240, L340-L384; digest 4.10, 4.11, R15-R19, T4, T8)."""
from __future__ import annotations

import pytest

from pbem.rules.aa_miniatures import reactions

from .helpers import open_board, unit

GUN = unit("e", "pak40", (0, 0), side="axis")


@pytest.mark.parametrize("a, b, provoked", [
    ((1, 0), (1, -1), True),    # 1 -> 1
    ((1, 0), (0, 0), True),     # 1 -> 0
    ((0, 0), (1, 0), True),     # 0 -> 1
    ((2, 0), (1, 0), False),    # 2 -> 1
    ((1, 0), (2, 0), False),    # 1 -> 2
])
def test_provocation_distances(a, b, provoked):
    """R15 (L350): both hexes of the step adjacent to the firer (or its own)."""
    assert reactions.provokes(unit("m", "sherman", a), GUN, a, b) is provoked


def test_a_soldier_never_provokes_a_vehicle():
    """R16 (L352): infantry may circle a tank and enter its hex; soldiers provoke soldiers."""
    tank = unit("t", "panzer", (0, 0), side="axis")
    rifle = unit("r", "garand", (1, 0))
    assert not reactions.provokes(rifle, tank, (1, 0), (0, 0))
    assert reactions.provokes(rifle, unit("g", "grenadier", (0, 0), side="axis"), (1, 0), (1, -1))


def test_disrupted_or_spent_units_do_not_fire():
    """R17 (L302) and R18 (L356): Disrupted units make no defensive fire; one per unit per phase."""
    assert reactions.can_react(GUN, ())
    assert not reactions.can_react(GUN.but(disrupted=True), ())
    assert not reactions.can_react(GUN, {"e"})
    assert not reactions.can_react(unit("f", "fw190", (0, 0), side="axis"), ())


def test_the_best_hex_is_the_one_showing_the_rear():
    """T8 (derived): sliding A -> B past the gun, the hex entered shows the tank's rear."""
    mover = unit("s", "sherman", (1, 0), "N")
    assert reactions.best_hex(open_board(), GUN, mover, (1, 0), (1, -1), [GUN]) == (1, -1)
    assert reactions.placed(mover, (1, 0), (1, -1), (1, 0)).facing == 0


def test_overwatch_row():
    """T4 (L220, L240): the row is one hex wide, in the chosen direction, within range and sight."""
    gun = unit("g", "six_pounder", (0, 0), "N", overwatch=0)
    tank = unit("t", "panzer", (1, -2), side="axis")
    m = open_board({(0, -2): "hill"})
    assert reactions.on_row(m, gun, tank, (0, -2))          # the hill hex on the row
    assert not reactions.on_row(m, gun, tank, (1, -2))      # the clear hex beside it
    assert not reactions.on_row(m, gun, tank, (0, -9))      # beyond its range against a vehicle
    assert not reactions.on_row(open_board({(0, -1): "forest"}), gun, tank, (0, -3))  # no sight past the wood
    assert not reactions.on_row(m, gun.but(overwatch=None), tank, (0, -2))


def test_defensive_fire_only_disrupts():
    """R19 (L364): three hits' worth of successes still only Disrupt, with no face-down marker."""
    shot = reactions.Shot(GUN, (1, 0), "df")
    target = unit("s", "sherman", (1, 0), "NW")
    hit, text = reactions.fire(open_board(), shot, target, [GUN], False, lambda why: 6)
    assert hit and text.endswith("12 against front defence 5: Disrupted")  # 3 hits worth, one Disruption
    missed, text = reactions.fire(open_board(), shot, target, [GUN], False, lambda why: 1)
    assert not missed and text.endswith("no effect")
