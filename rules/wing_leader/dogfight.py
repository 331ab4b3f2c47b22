"""Dogfights [10.8]: starting one after an air combat, who moves the stack, and keeping it together.

Whether a side wants a dogfight is its standing order ``DOGFIGHT SEEK|DECLINE|ASK`` (DECLINE when none is
given).  In a contested start each side rolls for its fastest squadron.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .model import Squadron
from .sky import HEADINGS, Square, distance
from .tables import tables


def candidates(squadrons: Sequence[Squadron], square: Square) -> list[Squadron]:
    """Unbroken fighters in the square: only fighters dogfight, never bombers [10.8]."""
    return [s for s in squadrons if s.on_map and s.at == square and s.fighter and not s.broken]


def contest(seeker_roll: int, seeker: Squadron, decliner_roll: int, decliner: Squadron) -> bool:
    """The contested start [10.8]: 1d6 + Basic Speed, +1 Veteran, -1 Green; the seeker wins ties."""
    def total(roll: int, sq: Squadron) -> int:
        return roll + sq.basic()[0] + tables()["air_combat_modifiers"].get(sq.quality, 0)
    return total(seeker_roll, seeker) >= total(decliner_roll, decliner)


def fastest(side: Sequence[Squadron]) -> Squadron:
    """The squadron a side rolls for by default: its best Basic Speed."""
    return max(side, key=lambda s: (s.basic()[0], s.id))


def lock(squadrons: Sequence[Squadron], edges: dict[str, str],
         prefer: Callable[[Squadron, list[str]], str] = lambda s, enemies: enemies[0]) -> list[Squadron]:
    """Stack everyone in the dogfight facing level toward its own edge [10.8.1]; each must tally an enemy
    in the dogfight: it keeps its tally there, else takes the one ``prefer`` gives among the enemies of
    the stack (by ID), its owner's choice [7.2.4]."""
    locked = []
    for s in squadrons:
        enemies = sorted(e.id for e in squadrons if e.side != s.side)
        tally = s.tally if s.tally in enemies else prefer(s, enemies)
        locked.append(s.move(dogfight=True, heading=HEADINGS.index(edges[s.side]), tally=tally, alert=True))
    return locked


def stack_moves(at: Square) -> list[Square]:
    """Where the stack may go [10.8.2]: stay, or one square level or lower (not off the map)."""
    m = tables()["map"]
    return [(c, a) for c in range(at[0] - 1, at[0] + 2) for a in (at[1] - 1, at[1])
            if 0 <= c < m["columns"] and 0 <= a and distance(at, (c, a)) <= 1]


def mover(roll: int, raider: str, defender: str) -> str:
    """Who moves a dogfight stack [10.8.2]: 1-3 the Raider, 4-6 the Defender."""
    return raider if roll <= 3 else defender
