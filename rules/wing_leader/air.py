"""The working copy of one resolution: the squadrons being changed and what this turn has done."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.work import Work

from .model import Squadron, State


class Air:
    """The working copy of a resolution: the squadrons being changed, and what this turn has done."""

    def __init__(self, state: State, work: Work[Air]) -> None:
        self.state = state
        self.squadrons = {s.id: s for s in state.squadrons}
        self.moved: list[str] = []
        self.fought: set[str] = set()
        self.moved_last = state.moved_last
        self.over = False

    def squadron(self, sid: str) -> Squadron:
        return self.squadrons[sid]

    def put(self, sq: Squadron) -> None:
        self.squadrons[sq.id] = sq

    def now(self) -> State:
        return replace(self.state, squadrons=tuple(self.squadrons[s.id] for s in self.state.squadrons))

    def freeze(self) -> State:
        return replace(self.now(), moved_last=self.moved_last)

