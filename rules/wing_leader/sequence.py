"""The order of movement [6.1]: categories, initiative, and tally chains that interleave both sides.

Base order: dogfights (6.1.3; each stack moves as one), escorts and bombers (the Raider's first, 6.1.4), then Unalert fighters, then Alert fighters,
each in initiative order [6.1.1].  A squadron that tallies another moves right after its target; all the
target's followers move before anyone else (breadth-first, AMB-35); a closed loop starts at its member
first in initiative [6.1.2].
"""
from __future__ import annotations

from collections.abc import Callable

from .model import Squadron


def base_order(squadrons: list[Squadron], raider: str, roll: Callable[[Squadron], int]) -> list[Squadron]:
    """The squadrons on the map by category, then initiative: lower altitude first, then lower Basic Speed
    [6.1.1]; fighters still level roll a d6 each, lower first, re-rolling among those tied again.  An
    arrival beyond the edge counts as in its edge square's altitude [5.3.1]."""
    def category(s: Squadron) -> int:
        if s.dogfight:
            return -1
        if s.mission in ("bombing", "escort"):
            return 0 if s.side == raider else 1
        return 2 if not s.alert else 3

    def key(s: Squadron) -> tuple[int, int, int]:
        return (category(s), s.at[1], s.basic()[0])
    movers = sorted((s for s in squadrons if s.on_map or s.status == "entering"), key=key)
    ordered: list[Squadron] = []
    for k in dict.fromkeys(key(s) for s in movers):
        group = [s for s in movers if key(s) == k]
        ordered += _roll_off(group, roll) if len(group) > 1 and k[0] >= 2 else group
    return ordered


def _roll_off(group: list[Squadron], roll: Callable[[Squadron], int]) -> list[Squadron]:
    """Order tied fighters by a d6 each, lower first; those equal roll again among themselves [6.1.1]."""
    rolls = {s.id: roll(s) for s in group}
    ordered: list[Squadron] = []
    for value in sorted(set(rolls.values())):
        tied = [s for s in group if rolls[s.id] == value]
        ordered += _roll_off(tied, roll) if len(tied) > 1 else tied
    return ordered


def movement_order(squadrons: list[Squadron], raider: str, roll: Callable[[Squadron], int],
                   follows: dict[str, str] | None = None, depth_first: bool = False) -> list[str]:
    """Every squadron on the map once, in the order it moves [6.1]; ``follows`` are wing squadrons keeping
    formation on their leader (9.5.3), which move right after it as a tallying squadron does.  A branching
    chain goes breadth-first (all of a target's followers, then theirs), or with ``depth_first`` (option
    ``tally_chains = depth``) each follower's own followers right after it [6.1.2]."""
    base = base_order(squadrons, raider, roll)
    ids = {s.id for s in base}
    target = {s.id: s.tally for s in base if s.fighter and s.tally in ids}
    target.update({k: v for k, v in (follows or {}).items() if k in ids and v in ids and k not in target})
    moved: list[str] = []

    def activate(first: str) -> None:
        queue = [first]
        while queue:
            sid = queue.pop(0)
            if sid in moved:
                continue
            moved.append(sid)
            followers = [s.id for s in base if target.get(s.id) == sid and s.id not in moved]
            queue = followers + queue if depth_first else queue + followers

    def in_loop(sid: str) -> bool:
        seen, cur = set(), target.get(sid)
        while cur is not None and cur not in seen:
            if cur == sid:
                return True
            seen.add(cur)
            cur = target.get(cur)
        return False

    for s in base:
        t = target.get(s.id)
        if s.id not in moved and (t is None or t in moved or in_loop(s.id)):
            activate(s.id)
    return moved + [s.id for s in base if s.id not in moved]   # none left: every chain ends at a mover
