"""Seats: one to three players a side, each commanding whole wings [9.1, 9.5] (option ``seats_per_side``).

With one seat a side the seat is named by the side (``allies``, ``axis``).  With more, seats are
``<side>-<n>`` and a side's formations go round its seats in scenario order: each wing the scenario lists
is one formation, each squadron in no wing is a formation of its own.  A side with fewer formations than
seats gets fewer seats (a seat with nothing to command would have nothing to write).  A split squadron's
flights keep their parent's seat [9.3].  Allies see each other's squadrons anyway: the game is open [5.2].
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import RulesetDefinitionError
from pbem.core.standing import StandingOrder
from pbem.core.standing_rules import StandingKind, StandingRules
from pbem.core.work import Work

from .model import SIDES, Squadron, owner, side_of

#: The option's choices: a player per wing, up to three a side (two to six players).
SEAT_COUNTS = (1, 2, 3)


def formations(side: str, squadrons: Sequence[Squadron], wings: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The side's wings, then each squadron in no wing alone, in scenario order."""
    ids = [s.id for s in squadrons if s.side == side]
    winged = [[m for m in w["members"] if m in ids] for w in wings]
    winged = [w for w in winged if w]
    taken = {m for w in winged for m in w}
    return winged + [[i] for i in ids if i not in taken]


def assign(squadrons: tuple[Squadron, ...], wings: Sequence[Mapping[str, Any]],
           per_side: int) -> tuple[tuple[Squadron, ...], tuple[str, ...]]:
    """Each squadron's seat and the game's seat names (``()`` for one seat a side)."""
    if per_side not in SEAT_COUNTS:
        raise RulesetDefinitionError(f"seats_per_side must be one of {SEAT_COUNTS}, not {per_side!r}")
    if per_side == 1:
        return squadrons, ()
    seat_of: dict[str, str] = {}
    names: list[str] = []
    for side in SIDES:
        groups = formations(side, squadrons, wings)
        count = min(per_side, len(groups))
        names += [f"{side}-{n}" for n in range(1, count + 1)]
        for i, group in enumerate(groups):
            seat_of.update({m: f"{side}-{i % count + 1}" for m in group})
    return tuple(s.move(seat=seat_of[s.id]) for s in squadrons), tuple(names)


def title(seat: str) -> str:
    side = side_of(seat)
    return side.title() + ("" if seat == side else f" wing player {seat.removeprefix(side + '-')}")


#: The side fights as one [10.2, 10.8, 11.0]: these standing orders are the side's, kept under its name,
#: and any of its seats may change them (the last change wins).  TACTIC, REACT and ARRIVE name a
#: squadron and stay with the seat that commands it.
STANDING = StandingRules(tuple(StandingKind(key, side=True) for key in ("DOGFIGHT", "CONSENT", "LEADS", "HITS")))


def side_standing(w: Work[Any], side: str, key: str) -> StandingOrder | None:
    """The side-wide standing order under ``key`` (see ``STANDING``)."""
    return w.standing_order(min(s.name for s in w.seats if s.side == side), key)


def speaker(w: Work[Any], side: str, squadrons: Sequence[Squadron]) -> str:
    """The seat asked a side-wide question: the commander of the side's first squadron among ``squadrons``."""
    return next((owner(s) for s in squadrons if s.side == side), min(x.name for x in w.seats if x.side == side))
