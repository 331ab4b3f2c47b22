"""The kit's own part of a game state: where the game stands in its step table.

:class:`Flow` is one small frozen JSON-able value -- current step, turn,
interrupt counter, pending continuation, standing orders -- that a ruleset
keeps *inside its own state* and hands to the kit through a :class:`FlowSlot`.
The default slot, ``FlowSlot("flow")``, reads and replaces a field named
``flow`` of a frozen dataclass state, or a key ``"flow"`` of a dict document
(where the Flow is stored dumped, as JSON).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from .interrupts import Pending
from .standing import Standing

#: The reserved step name of a finished game: ``phase()`` is None there.
OVER = "over"


@dataclass(frozen=True)
class Flow:
    """Where the game stands.

    :param step: the current step of the ruleset's :class:`~pbem.core.phases.Steps` table, or :data:`OVER`.
    :param turn: the turn shown in phase keys; the ruleset advances it (``Work.new_turn``).
    :param counter: how many interrupt windows have opened; keeps interrupt phase names unique.
    :param pending: the suspended resolution while a resume step (``who=ASKED``) is current, else None.
    :param standing: every seat's standing orders.
    """

    step: str
    turn: int = 1
    counter: int = 0
    pending: Pending | None = None
    standing: Standing = Standing()

    @property
    def over(self) -> bool:
        return self.step == OVER

    def dump(self) -> dict[str, Any]:
        return {"step": self.step, "turn": self.turn, "counter": self.counter,
                "pending": None if self.pending is None else self.pending.dump(),
                "standing": self.standing.dump()}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Flow:
        pending = data.get("pending")
        return cls(data["step"], data["turn"], data["counter"],
                   None if pending is None else Pending.load(pending), Standing.load(data["standing"]))


@dataclass(frozen=True)
class FlowSlot:
    """Where a state keeps its :class:`Flow`: a dataclass field, or a key of a dict document.

    For a dataclass the field holds the Flow value itself; for a mapping the key
    holds ``Flow.dump()`` so the document stays plain JSON.  A ruleset whose state
    is neither passes its own ``get``/``put`` pair to the step table instead.
    """

    name: str = "flow"

    def get(self, state: Any) -> Flow:
        if isinstance(state, Mapping):
            return Flow.load(state[self.name])
        value = getattr(state, self.name)
        if not isinstance(value, Flow):
            raise TypeError(f"{type(state).__name__}.{self.name} is not a Flow")
        return value

    def put(self, state: Any, flow: Flow) -> Any:
        """A copy of ``state`` holding ``flow`` (a dict document is copied shallowly)."""
        if isinstance(state, Mapping):
            return {**state, self.name: flow.dump()}
        if is_dataclass(state) and not isinstance(state, type) and self.name in {f.name for f in fields(state)}:
            return replace(state, **{self.name: flow})
        raise TypeError(f"{type(state).__name__} has no field {self.name!r} for the Flow")
