"""Continuations: a resolution suspended for decisions no standing order covers.

A resolve step that meets such a decision calls :meth:`pbem.core.work.Work.interrupt`
with one :class:`Ask` per decision (several at once are fine: Lew Morski asks
every aircraft with a target on its line of fire).  The kit stores a
:class:`Pending` in the game's :class:`~pbem.core.flow.Flow` -- the name of the
step where resolution resumes plus JSON data saying where it stopped,
never a closure -- and the next phase awaits exactly the asked seats.  The
resume step is usually an INTERRUPT window; it may be an ORDERS window (Sky of
WWII stops its turn loop for one seat's ordinary orders the same way).  When it
is resolved, every ask gets the seat's answer or, on silence, its declared
default (:func:`answers`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from .errors import RulesetDefinitionError


@dataclass(frozen=True)
class Ask:
    """One decision asked of one seat.

    :param seat: who must decide.
    :param key: what is asked about (an aircraft id, "hit"...); unique within one :class:`Pending`.
    :param question: one line for the seat, from its own point of view.
    :param default: the answer taken when the seat stays silent; one of ``choices`` when they are given.
    :param choices: the answers allowed (empty: any text the ruleset's answer verb accepts).
    """

    seat: str
    key: str
    question: str
    default: str
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.choices and self.default not in self.choices:
            raise RulesetDefinitionError(f"ask {self.key!r}: default {self.default!r} is not one of {self.choices}")

    def dump(self) -> dict[str, Any]:
        return {"seat": self.seat, "key": self.key, "question": self.question, "default": self.default,
                "choices": list(self.choices)}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Ask:
        return cls(data["seat"], data["key"], data["question"], data["default"], tuple(data["choices"]))


@dataclass(frozen=True)
class Pending:
    """Where a suspended resolution stopped: the step that resumes it, the asks, JSON data."""

    resume: str
    asks: tuple[Ask, ...]
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        keys = [a.key for a in self.asks]
        if not keys:
            raise RulesetDefinitionError(f"an interrupt to {self.resume!r} asks nothing")
        if len(set(keys)) != len(keys):
            raise RulesetDefinitionError(f"an interrupt to {self.resume!r} repeats an ask key: {keys}")
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))

    @property
    def seats(self) -> frozenset[str]:
        """The seats that must answer."""
        return frozenset(a.seat for a in self.asks)

    def asks_of(self, seat: str) -> tuple[Ask, ...]:
        return tuple(a for a in self.asks if a.seat == seat)

    def dump(self) -> dict[str, Any]:
        return {"resume": self.resume, "asks": [a.dump() for a in self.asks], "data": _plain(self.data)}

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Pending:
        return cls(data["resume"], tuple(Ask.load(a) for a in data["asks"]), data["data"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pending) and self.dump() == other.dump()

    def __hash__(self) -> int:
        return hash((self.resume, self.asks))


@runtime_checkable
class Answer(Protocol):
    """An order that answers an ask: ``answer_to(ask)`` gives the chosen answer, or None if it is about another."""

    def answer_to(self, ask: Ask) -> str | None: ...


def answers(pending: Pending, orders: Mapping[str, Sequence[Any]]) -> dict[str, str]:
    """Every ask's answer by key: the asked seat's own answer, else the ask's default.

    ``orders`` maps seats to their typed orders; orders that are not :class:`Answer` are ignored.
    When a seat answers one ask twice, the later line wins (a player correcting himself).
    """
    out: dict[str, str] = {}
    for ask in pending.asks:
        chosen = ask.default
        for order in _answers_of(orders.get(ask.seat, ())):
            got = order.answer_to(ask)
            if got is not None:
                chosen = got
        out[ask.key] = chosen
    return out


def _answers_of(orders: Iterable[Any]) -> list[Answer]:
    return [o for o in orders if isinstance(o, Answer)]


def _plain(x: Any) -> Any:
    """A JSON copy of mappings and sequences (tuples become lists), so dumps compare equal after a load."""
    if isinstance(x, Mapping):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x
