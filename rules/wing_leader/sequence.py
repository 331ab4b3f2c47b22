"""The order of movement [6.1]: categories, initiative, and tally chains that interleave both sides.

Base order: escorts and bombers (the Raider's first, 6.1.4), then Unalert fighters, then Alert fighters,
each in initiative order [6.1.1].  A squadron that tallies another moves right after its target; all the
target's followers move before anyone else (breadth-first, AMB-35); a closed loop starts at its member
first in initiative [6.1.2].  Dogfights (6.1.3) are not built yet.
"""
from __future__ import annotations

from collections.abc import Callable

from .model import Squadron


def initiative_key(sq: Squadron, tiebreak: Callable[[Squadron], int]) -> tuple[int, int, int]:
    """Lower altitude first, then lower Basic Speed, then (fighters) the lower d6 [6.1.1]."""
    return (sq.at[1], sq.basic()[0], tiebreak(sq) if sq.fighter else 0)


def base_order(squadrons: list[Squadron], raider: str, tiebreak: Callable[[Squadron], int]) -> list[Squadron]:
    movers = [s for s in squadrons if s.on_map]

    def category(s: Squadron) -> int:
        if s.mission in ("bombing", "escort"):
            return 0 if s.side == raider else 1
        return 2 if not s.alert else 3
    return sorted(movers, key=lambda s: (category(s), initiative_key(s, tiebreak)))


def movement_order(squadrons: list[Squadron], raider: str, tiebreak: Callable[[Squadron], int]) -> list[str]:
    """Every squadron on the map once, in the order it moves [6.1]."""
    base = base_order(squadrons, raider, tiebreak)
    ids = {s.id for s in base}
    target = {s.id: s.tally for s in base if s.fighter and s.tally in ids}
    moved: list[str] = []

    def activate(first: str) -> None:
        queue = [first]
        while queue:
            sid = queue.pop(0)
            if sid in moved:
                continue
            moved.append(sid)
            queue += [s.id for s in base if target.get(s.id) == sid and s.id not in moved]

    while len(moved) < len(base):
        waiting = [s.id for s in base if s.id not in moved]
        free = [sid for sid in waiting if target.get(sid) is None or target[sid] in moved]
        activate(free[0] if free else waiting[0])
    return moved
