"""Line of sight, arcs and the defence used, enfilade, grazing and cover (digest 4.5, 4.6, 4.8, 4.9, 4.13)."""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from pbem.core.sight import Contact, sight
from pbem.rules.aa_miniatures import combat, los
from pbem.rules.aa_miniatures.board import board, parse_hex

from .helpers import open_board, unit

# T3 (L210), the digest's layout moved by (+6, +1) onto the packaged LOS map (the town is G5).
T3 = [("C3", "C4", True), ("C3", "I6", False), ("C3", "I7", False), ("H5", "I6", True), ("H5", "C5", False),
      ("H5", "C4", False), ("I5", "I7", True), ("I5", "C4", False)]


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("a, b, seen", T3)
def test_line_of_sight_example(a, b, seen, strict):
    """T3: MG-42 sees Bazooka but not the Captain or the Garand; PaK 38 sees the Captain but not Sherman
    or Bazooka; Panzer sees the Garand, not Bazooka; the same under the strict vertex reading."""
    m = board("los")
    assert los.clear(m, parse_hex(a), parse_hex(b), strict=strict) is seen
    assert los.clear(m, parse_hex(b), parse_hex(a), strict=strict) is seen


SPINE = ((0, 0), (2, -1))  # runs exactly along the side between (1, -1) and (1, 0)
LONG_SPINE = ((0, 0), (6, -3))


@pytest.mark.parametrize("forest, seen", [
    ([(1, -1)], True),              # R29: along the border of one forest hex
    ([(1, -1), (1, 0)], False),     # R30: between two forest hexes
])
def test_lines_along_a_border(forest, seen):
    m = open_board({h: "forest" for h in forest})
    assert los.clear(m, *SPINE) is seen


@pytest.mark.parametrize("forest, seen", [([(1, -1), (3, -1)], False), ([(1, -1), (3, -2)], True)])
def test_zig_zag(forest, seen):
    """R31 (L198): blocking hexes on both sides at different distances block; all on one side do not."""
    assert los.clear(open_board({h: "forest" for h in forest}), *LONG_SPINE) is seen


def test_hedges_block_when_crossed_not_along():
    """R32 (L204)."""
    assert not los.clear(open_board(sides={((0, -1), 0): "hedge"}), (0, 0), (0, -3))
    assert los.clear(open_board(sides={((1, -1), 3): "hedge"}), *SPINE)


def test_cliffs_do_not_block_between_two_cliff_hexes():
    """R33 (L200-L202): both ends on cliff hexes, a third hex's cliff does not block; else it does."""
    crossed = {((0, -1), 0): "cliff"}
    assert not los.clear(open_board(sides=crossed), (0, 0), (0, -3))
    both = {**crossed, ((0, 0), 2): "cliff", ((0, -3), 2): "cliff"}
    assert los.clear(open_board(sides=both), (0, 0), (0, -3))


def test_end_hexes_and_their_sides_never_block():
    """L206: the attacker's and the target's own terrain and sides are ignored."""
    m = open_board({(0, 0): "forest", (0, -3): "town"}, sides={((0, -2), 0): "hedge"})
    assert los.clear(m, (0, 0), (0, -3))


def test_strict_reading_blocks_at_a_vertex():
    """A forest met only at a vertex (the line (0,0)-(5,-1) touches (2,-1) at a corner): clear by the
    nudged lines, blocked under the strict reading of "even the smallest part" (L194)."""
    a, b = (0, 0), (5, -1)
    assert (2, -1) in sight(a, b).hexes(Contact.TOUCHED)
    m = open_board({(2, -1): "forest"})
    assert los.clear(m, a, b) and not los.clear(m, a, b, strict=True)


def test_attack_direction_example():
    """T2 (L168): the Sherman ahead hits the front; the ZiS-2 exactly to the right and the Bazooka in
    the same hex hit the rear; a Bazooka behind too."""
    tank = unit("pz", "panzer", (0, 0), "N", side="axis")
    assert combat.facing_defence(tank, (0, -3)) == "front"
    assert [combat.facing_defence(tank, h) for h in ((2, -1), (0, 0), (0, 2))] == ["rear"] * 3
    assert combat.defence(tank, "front") == 5 and combat.defence(tank, "rear") == 3


def test_vehicle_sliding_past_a_gun():
    """T8 and R37 (L366-L378), derived: a tank moving A -> B past the gun faces N; fired on in A it
    shows its front, in B its rear; entering the gun's hex, fired on in A it shows its front, in
    the gun's hex its rear."""
    gun = (0, 0)
    assert combat.facing_defence(unit("s", "sherman", (1, 0), "N"), gun) == "front"
    assert combat.facing_defence(unit("s", "sherman", (1, -1), "N"), gun) == "rear"
    assert combat.facing_defence(unit("s", "sherman", (1, 0), "NW"), gun) == "front"
    assert combat.facing_defence(unit("s", "sherman", gun, "NW"), gun) == "rear"


def test_soldiers_use_their_first_defence_whatever_the_direction():
    """Standard rules (L17): facing matters for vehicles only."""
    assert combat.facing_defence(unit("g", "garand", (0, 0), "N"), (0, 3)) == "front"


def test_enfilade_examples():
    """T6 (L264-L268), under the Advanced rules."""
    enemy = unit("t", "grenadier", (0, 0), side="axis")
    north = unit("n", "garand", (0, -1))
    assert los.enfilade(unit("x", "garand", (3, 0)), enemy, [north], advanced=True)                    # (a)
    mg = unit("mg", "mg42", (0, 0), side="axis")
    garand, captain, bazooka = unit("g", "garand", (0, -1)), unit("c", "captain", (0, 2)), unit("b", "bazooka",
                                                                                               (2, -1))
    team = [garand, captain, bazooka]
    assert los.enfilade(captain, mg, team, advanced=True)                                              # (b)
    assert not los.enfilade(bazooka, mg, team, advanced=True) and not los.enfilade(garand, mg, team, advanced=True)
    south = unit("s", "garand", (0, 1))
    assert los.enfilade(north, enemy, [north, south], advanced=True)                                   # (c)
    assert los.enfilade(south, enemy, [north, south], advanced=True)
    inside = unit("i", "garand", (0, 0))
    assert not los.enfilade(unit("x", "garand", (0, 3)), enemy, [inside], advanced=True)               # (d)
    assert not los.enfilade(unit("x", "garand", (3, 0)), unit("v", "panzer", (0, 0), side="axis"), [north],
                            advanced=True)


def test_no_enfilade_under_the_standard_rules():
    """Enfilade rests on a soldier's facing, which only the Advanced rules give (L17-L21): the
    Standard rules have none (the digest's reading, G21), even in T6's own layout."""
    mg = unit("mg", "mg42", (0, 0), side="axis")
    team = [unit("g", "garand", (0, -1)), unit("c", "captain", (0, 2))]
    assert los.enfilade(team[1], mg, team, advanced=True)
    assert not los.enfilade(team[1], mg, team, advanced=False)


def test_grazing_fire_hexes():
    """T7 (L282): the line MG 42 -> Bazooka runs between the Garand's and the 6 Pounder's hexes and
    misses the Captain's."""
    hexes = los.grazed_hexes((0, 0), (2, -1))
    assert set(hexes) == {(1, -1), (1, 0)} and (3, -1) not in hexes


def test_cover():
    """L184-L186: in cover terrain, on a cliff hex, behind a hedge crossed at the target's side."""
    target = unit("g", "garand", (0, -3), side="axis")
    assert los.cover_needed(open_board(), target, (0, 0)) == 0
    assert los.cover_needed(open_board({(0, -3): "forest"}), target, (0, 0)) == 4
    assert los.cover_needed(open_board(sides={((0, -2), 0): "hedge"}), target, (0, 0)) == 4
    assert los.cover_needed(open_board(sides={((0, -3), 0): "hedge"}), target, (0, 0)) == 0  # hedge behind it
    assert los.cover_needed(open_board({(0, -3): "forest"}), unit("p", "panzer", (0, -3)), (0, 0)) == 5


def test_aircraft_front_and_strike_facing():
    """T5 (L246-L252): the aircraft faces the side its line to the target crosses (either side at a
    corner, IP14); shooters whose line passes through that side are in its front."""
    plane = unit("fw", "fw190", (0, 0), "S", side="axis")
    assert los.strike_facings((0, 0), (0, 3)) == (3,)
    assert los.strike_facings((0, 0), (-1, 2)) == (3, 4)
    assert los.aircraft_front(plane, (0, 1)) and los.aircraft_front(plane, (1, 2))
    assert not los.aircraft_front(plane, (2, 0))


def test_no_enfilade_against_an_aircraft():
    """Enfilade is for soldiers, who have no real facing (L256); an aircraft faces its target."""
    plane = unit("fw", "fw190", (0, 0), "S", side="axis")
    assert not los.enfilade(unit("x", "garand", (3, 0)), plane, [unit("n", "garand", (0, -1))], advanced=True)


def test_advanced_rules_give_soldiers_a_facing():
    """G30 (L17): under the Advanced rules a soldier, gun or aircraft attacked from behind uses its
    second defence too."""
    gun = unit("g", "pak40", (0, 0), "N")
    assert combat.facing_defence(gun, (0, 3)) == "front"
    assert combat.facing_defence(gun, (0, 3), advanced=True) == "rear"
    assert combat.facing_defence(gun, (0, -3), advanced=True) == "front"


def test_strict_reading_blocks_at_the_end_of_a_hedge():
    """The same line passes the vertex of (2,-1): the hexside there that one nudged line crosses and the
    other does not ends at that vertex.  A hedge on it is passed only at its end: clear by default (G11),
    blocked under the strict reading (L194)."""
    a, b = (0, 0), (5, -1)
    s = sight(a, b)
    ends = set(s.nudged_sides(1)) ^ set(s.nudged_sides(-1))
    assert ends
    for side in ends:
        m = replace(open_board(), sides=MappingProxyType({side: "hedge"}))
        assert los.clear(m, a, b) and not los.clear(m, a, b, strict=True)
        across = open_board(sides={((0, -1), 0): "hedge"})  # a hedge the line never meets stays open
        assert los.clear(across, a, b, strict=True)
