"""Stacking (L1-L7) and movement (L11-L35) with the placeholder chart (digest 4.15, G1, G7)."""
from __future__ import annotations

from pbem.rules.aa_miniatures import movement

from .helpers import open_board, unit


def test_full_and_maximum_hex():
    """Placeholder full hex: 2 ground units, at most 1 vehicle; maximum: one more of each kind (L3)."""
    assert movement.within_full(1, 1) and movement.within_full(0, 2)
    assert not movement.within_full(2, 0) and not movement.within_full(1, 2)
    assert movement.within_maximum(2, 2) and movement.within_maximum(1, 2) and movement.within_maximum(0, 3)
    assert movement.within_maximum(1, 3)  # full (0 vehicles, 2 soldiers) plus one of each
    assert not movement.within_maximum(3, 0) and not movement.within_maximum(2, 3) and not movement.within_maximum(0, 4)


def test_a_full_hex_may_be_entered_but_not_passed():
    """R24, R25 (L7)."""
    friends = [unit("a", "garand", (0, -1)), unit("b", "bazooka", (0, -1))]
    mover = unit("m", "captain", (0, 0))
    m = open_board()
    assert movement.path_problem(m, friends, mover, [(0, -1)]) is None
    assert "not pass through" in movement.path_problem(m, friends, mover, [(0, -1), (0, -2)])
    assert movement.overstacked([*friends, mover.but(hex=(0, -1))], "allies") == ((0, -1),)
    assert movement.overstacked(friends, "allies") == ()
    enemies = [f.but(side="axis") for f in friends]
    assert movement.path_problem(m, enemies, mover, [(0, -1), (0, -2)]) is None  # a side counts its own


def test_speed_terrain_and_damage():
    """Costs from the placeholder chart; a Damaged vehicle has one less speed (L320)."""
    m = open_board({(0, -1): "forest", (0, -2): "marsh"})
    tank = unit("s", "sherman", (0, 0))
    assert movement.path_problem(m, [], tank, [(0, -1), (1, -2), (1, -3)]) is None  # 2 + 1 + 1
    assert "speed" in movement.path_problem(m, [], tank.but(damaged=True), [(0, -1), (1, -2), (1, -3)])
    assert "cannot be entered" in movement.path_problem(m, [], tank, [(0, -1), (0, -2)])
    assert movement.steps_of(m, tank, [(0, -1)])[0].entry == 3


def test_vehicles_never_reverse_soldiers_may():
    """L35: each step of a vehicle goes into one of the three hexes ahead of its heading."""
    m = open_board()
    assert "only forward" in movement.path_problem(m, [], unit("s", "sherman", (0, 0), "N"), [(0, 1)])
    assert movement.path_problem(m, [], unit("s", "sherman", (0, 0), "N"), [(1, -1), (2, -1)]) is None
    assert "only forward" in movement.path_problem(m, [], unit("s", "sherman", (0, 0), "N"),
                                                   [(1, -1), (1, 0)])
    assert movement.path_problem(m, [], unit("g", "garand", (0, 0), "N"), [(0, 1)]) is None


def test_disrupted_units_do_not_move_and_cliffs_are_not_crossed():
    """L300 (Disrupted); a cliff side is impassable (placeholder chart)."""
    m = open_board(sides={((0, 0), 0): "cliff", ((0, 0), 1): "hedge"})
    assert "Disrupted" in movement.path_problem(m, [], unit("g", "garand", (0, 0), disrupted=True), [(0, -1)])
    assert "cannot be entered" in movement.path_problem(m, [], unit("g", "garand", (0, 0)), [(0, -1)])
    assert movement.path_problem(m, [], unit("g", "garand", (0, 0)), [(1, -1)]) is None  # hedge: 1 + 1
    assert "speed" in movement.path_problem(m, [], unit("g", "garand", (0, 0)), [(1, -1), (2, -2)])


# ---------------------------------------------------------------------------------------- obstacles (L1, G28)
def _with_obstacles(**pieces):
    from dataclasses import replace
    from types import MappingProxyType
    at = {"wire": (0, -1), "teeth": (1, -1)}
    return replace(open_board(), obstacles=MappingProxyType({at[k]: k for k in pieces}))


def test_barbed_wire_ends_a_soldiers_move_and_costs_it_one_more():
    """Placeholder chart: a soldier may enter wire (1 + 1 points) but not pass through it; a vehicle
    is not slowed."""
    m = _with_obstacles(wire=True)
    soldier = unit("g", "garand", (0, 0))
    assert movement.path_problem(m, [], soldier, [(0, -1)]) is None
    assert movement.steps_of(m, soldier, [(0, -1)])[0].cost == 2
    refused = movement.path_problem(m, [], soldier, [(0, -1), (0, -2)])
    assert "barbed wire: a soldier's move ends on entering it (Stacking, L1" in refused
    tank = unit("t", "sherman", (0, 0))
    assert movement.path_problem(m, [], tank, [(0, -1), (0, -2)]) is None
    assert movement.steps_of(m, tank, [(0, -1)])[0].cost == 1


def test_dragons_teeth_keep_vehicles_out():
    m = _with_obstacles(teeth=True)
    tank = unit("t", "sherman", (0, 0), "NE")
    assert "holds dragon's teeth, which a vehicle cannot enter (Stacking, L1" in \
        movement.path_problem(m, [], tank, [(1, -1)])
    assert "cannot enter" in movement.placement_problem(m, [], tank, (1, -1))
    soldier = unit("g", "garand", (0, 0))
    assert movement.path_problem(m, [], soldier, [(1, -1)]) is None  # soldiers climb over, for 1 more point
    assert movement.steps_of(m, soldier, [(1, -1)])[0].cost == 2


def test_obstacles_neither_block_sight_nor_give_cover():
    """L194 and L186 list what blocks and what covers; obstacles are not among them."""
    from pbem.rules.aa_miniatures import los
    m = _with_obstacles(wire=True, teeth=True)
    assert los.clear(m, (0, 0), (0, -3)) and los.clear(m, (0, 0), (2, -2))
    assert los.cover_needed(m, unit("g", "grenadier", (0, -1), side="axis"), (0, 2)) == 0


def test_one_obstacle_a_hex():
    """L1: the full hex holds one obstacle."""
    import pytest
    from pbem.rules.aa_miniatures.board import obstacles_of
    assert obstacles_of(["wire G8", "teeth H8"]) == (((6, 4), "wire"), ((7, 4), "teeth"))
    with pytest.raises(ValueError, match="one obstacle at most"):
        obstacles_of(["wire G8", "teeth G8"])
