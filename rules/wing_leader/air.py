"""The working copy of one resolution: the squadrons being changed and what this turn has done."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.work import Work

from .fog import remember
from .model import Squadron, State


class Air:
    """The working copy of a resolution: the squadrons being changed, and what this turn has done."""

    def __init__(self, state: State, work: Work[Air]) -> None:
        self.state = state
        self.squadrons = {s.id: s for s in state.squadrons}   # dicts keep order: new flights go last
        self.moved: list[str] = []
        self.ordered: set[str] = set()    # tallies placed by a Wing Leader's order this phase (9.3 a)
        self.no_roll: set[str] = set()    # flights split off this phase, which may not roll (9.3.1)
        self.rolled: list[str] = []       # squadrons that rolled to tally this phase (9.5.4.1)
        self.reacting: dict[str, str] = {}  # escorts' answers to a reaction question this phase (10.4)
        self.fought: set[str] = set()
        self.flak_bomb: dict[str, int] = {}   # the worst flak Bomb-column result on each squadron [14.2.5]
        self.moved_last = state.moved_last
        self.fought_last = state.fought_last   # set as each Combat Phase ends (radio.tally_busy)
        self.over = False

    def squadron(self, sid: str) -> Squadron:
        return self.squadrons[sid]

    def put(self, sq: Squadron) -> None:
        self.squadrons[sq.id] = sq

    def replace_by(self, old: str, *new: Squadron) -> None:
        """A squadron split into flights: they take its place in the order of squadrons [9.3]."""
        items = list(self.squadrons.items())
        at = [k for k, _ in items].index(old)
        self.squadrons = dict(items[:at] + [(s.id, s) for s in new] + items[at + 1:])

    def now(self) -> State:
        return replace(self.state, squadrons=tuple(self.squadrons.values()))

    def freeze(self) -> State:
        """The state after the resolution; under fog each side remembers what it saw last (fog.py)."""
        now = replace(self.now(), moved_last=self.moved_last, fought_last=self.fought_last)
        return replace(now, last_known=remember(now))

