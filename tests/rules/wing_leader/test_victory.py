"""End of the game and victory points [12]."""
from __future__ import annotations

from pbem.rules.wing_leader.victory import exit_points, points

from .helpers import sq, state


def _out(**kw):
    return sq("T", "allies", "b24h", "bombing", "Z14", bombs=True, status="exited", exit_edge="E", **kw)


def test_exit_points_of_a_bomber_leaving_through_the_enemy_edge():
    """12.1: intact 6, disrupted or a flight 3, broken 1, without its load or by its own edge 0."""
    assert exit_points(_out(), "E") == 6
    assert exit_points(_out(disruption=1), "E") == 3 and exit_points(_out(flight=True), "E") == 3
    assert exit_points(_out(broken=True, disruption=2), "E") == 1
    assert exit_points(_out().move(bombs=False), "E") == 0 and exit_points(_out(), "W") == 0


def test_every_loss_scores_the_card_victory_points():
    """12.1: losses inflicted times the aircraft card's VP."""
    s = state(sq("A", "allies", "spitfire9", "sweep", "E10", losses=2),
              sq("K", "axis", "me262", "sweep", "F10", losses=1))
    assert points(s) == {"allies": 2, "axis": 2}
