"""Escort reaction [10.4]: which escorts may react when an enemy fighter moves into a bomber's square, and
what their 2d6 roll gives (the reaction table is a placeholder, GAP-11).

Whether an escort reacts is its owner's standing order ``REACT <escort> YES|NO|SPLIT|ASK`` (YES when none is given:
reacting is what an escort is for); SPLIT, for a side with tactical flexibility, reacts and splits the escort,
sending one flight (10.4.2 option 2); ASK stops the enemy's move for a short window (``moves.py``).
"""
from __future__ import annotations

from collections.abc import Sequence

from .escape import available
from .model import Squadron, State
from .sky import distance, front_squares
from .tables import tables

NONE, LATE, SUCCESS = "none", "late", "success"
RANK = {NONE: 0, LATE: 1, SUCCESS: 2}


def triggered(mover: Squadron, target: Squadron, came_from: tuple[int, int]) -> bool:
    """An enemy fighter moves into the square of the bomber it pursues from an adjacent square, not
    head-on (a head-on approach denies reaction, 10.3) [10.4]."""
    return (mover.fighter and not target.fighter and distance(came_from, target.at) == 1
            and came_from not in front_squares(target.at, target.heading))


def eligible(state: State, bomber: Squadron) -> list[Squadron]:
    """Available escorts of the bomber's side within 3 squares, no more than one altitude below it, with
    a line of sight to it [10.4]."""
    return [e for e in state.squadrons
            if e.side == bomber.side and e.mission == "escort" and available(state, e)
            and distance(e.at, bomber.at) <= 3 and e.at[1] >= bomber.at[1] - 1
            and not state.sky.sight(e.at, bomber.at).blocked]


def modifier(state: State, escort: Squadron, bomber: Squadron) -> int:
    """Weather on the escort's line to the bomber [4.7] and quality (placeholder)."""
    return tables()["reaction"].get(escort.quality, 0) - state.sky.sight(escort.at, bomber.at).weather


def result(modified: int) -> str:
    t = tables()["reaction"]
    return SUCCESS if modified >= t["success_from"] else LATE if modified >= t["late_from"] else NONE


def best(results: Sequence[str]) -> str:
    """Several escorts roll separately; the best result counts for all of them [10.4.5]."""
    return max(results, key=RANK.__getitem__, default=NONE)
