"""End of the game and victory points [12].

The game ends when every squadron has left the map, escaped, been destroyed or broken [12.0], or after the
scenario's last turn (GAP-22: our scenarios give one).  Victory points [12.1]: each loss inflicted scores the
card's VP; a bomber that leaves through the enemy's edge with its load scores 6, 3 if disrupted or a flight,
1 if broken.
"""
from __future__ import annotations

from .model import EXITED, SIDES, Squadron, State, enemy_of
from .tables import card, scenario, tables


def ended(state: State, turn: int) -> bool:
    done = all((not s.on_map or s.broken) and s.status not in ("waiting", "entering") for s in state.squadrons)
    return done or turn >= int(scenario(state.scenario)["last_turn"])


def exit_points(sq: Squadron, enemy_edge: str) -> int:
    """VP of one bomber squadron leaving the map [12.1]; escaped squadrons left by their own edge."""
    if sq.mission != "bombing" or not sq.bombs or sq.status != EXITED or sq.exit_edge != enemy_edge:
        return 0
    vp = tables()["victory_points"]
    if sq.broken:
        return vp["exit_broken"]
    if sq.disruption or sq.flight:
        return vp["exit_disrupted_or_flight"]
    return vp["exit_intact"]


def points(state: State) -> dict[str, int]:
    """Each side's victory points: losses it inflicted and its bombers' exits [12.1]."""
    edges = scenario(state.scenario)["edges"]
    score = {}
    for side in SIDES:
        enemy = enemy_of(side)
        score[side] = sum(s.losses * card(s.model)["vp"] for s in state.of_side(enemy)) \
            + (0 if state.uses("15.2.1") else sum(exit_points(s, edges[enemy]) for s in state.of_side(side))) \
            + sum(u.victory_points for u in state.surfaces if u.side == enemy)   # damage to surface units [14.1.1]
    return score
