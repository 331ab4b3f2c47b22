"""The working copy of one resolution and its one event call.

A resolve step receives a :class:`Work`: the kit's bookkeeping (events, dice,
seats, turn, standing orders, interrupts) plus ``w.data``, the ruleset's own
working data -- its own mutation helpers (a World over a frozen dataclass
state, a Game over a dict document) are composed in, not inherited.  A ruleset
never builds :class:`~pbem.core.ruleset.Event` itself: it calls :meth:`Work.say`.

Audiences (``to`` of :meth:`Work.say`, ``seen_by`` of :meth:`Work.roll`) are
written the same way everywhere: ``EVERYONE`` ("*"), a seat name, a side name
(all its seats), or an iterable of those; an empty iterable is the journal
(umpire) only.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Generic, TypeAlias, TypeVar

from .dice import Dice
from .errors import RulesetDefinitionError
from .flow import Flow
from .interrupts import Ask, Pending, answers
from .ruleset import Event, Seat
from .standing import Standing, StandingChange, StandingOrder
from .standing_rules import PLAIN, StandingRules

D = TypeVar("D")
T = TypeVar("T")

#: Every seat of the game.
EVERYONE = "*"

#: Who may see an event or a roll: EVERYONE, a seat, a side, or several of those.
Audience: TypeAlias = str | Iterable[str]


class Box(Generic[T]):
    """The simplest working data: one mutable reference to a frozen state (``w.data.value``)."""

    def __init__(self, value: T) -> None:
        self.value = value


class Work(Generic[D]):
    """One resolution in progress.  Created by the kit; resolve steps read and change it.

    :ivar data: the ruleset's own working data (built by the table's ``open``).
    :ivar events: what was said so far, in order.
    :ivar flow: the kit's state as it was when the resolution began.
    :ivar standing: the standing-order store as this resolution's orders changed it.
    :ivar rules: the game's standing-order declarations (:class:`StandingRules`; plain by default).
    """

    def __init__(self, flow: Flow, seats: Sequence[Seat], dice: Dice, *, rules: StandingRules = PLAIN) -> None:
        self.flow = flow
        self.seats = tuple(seats)
        self.dice = dice
        self.events: list[Event] = []
        self.turn = flow.turn
        self.standing = flow.standing
        self.rules = rules
        self.data: D = None  # type: ignore[assignment]  # set by the table right after construction
        self._pending: Pending | None = None
        self._goto: str | None = None
        self._answers: dict[str, str] = {}

    # ---------------------------------------------------------------- audiences
    def seats_of(self, who: Audience) -> frozenset[str]:
        """The seat names an audience stands for (see the module docstring)."""
        if isinstance(who, str):
            who = (who,)
        names = {s.name for s in self.seats}
        out: set[str] = set()
        for name in who:
            if name == EVERYONE:
                out |= names
            elif name in names:
                out.add(name)
            elif any(s.side == name for s in self.seats):
                out |= {s.name for s in self.seats if s.side == name}
            else:
                raise RulesetDefinitionError(f"{name!r} is neither a seat nor a side of this game")
        return frozenset(out)

    def side_of(self, seat: str) -> str:
        for s in self.seats:
            if s.name == seat:
                return s.side
        raise RulesetDefinitionError(f"no seat {seat!r} in this game")

    # ---------------------------------------------------------------- events and dice
    def say(self, text: str, to: Audience | None = None, kind: str = "note", **data: Any) -> None:
        """Record an event for ``to`` (None: every seat).  ``data`` must be JSON."""
        seen = self.seats_of(EVERYONE if to is None else to)
        self.events.append(Event(text, seen, kind, MappingProxyType(dict(data))))

    def roll(self, sides: int, why: str, *, seen_by: Audience) -> int:
        """Roll a die of ``sides``; ``seen_by`` is required (``()``: the umpire only)."""
        return self.dice.roll(sides, why=why, seen_by=self.seats_of(seen_by))

    def shuffle(self, items: Sequence[T], why: str, *, seen_by: Audience = ()) -> tuple[T, ...]:
        return self.dice.shuffle(items, why=why, seen_by=self.seats_of(seen_by))

    # ---------------------------------------------------------------- flow
    def new_turn(self) -> None:
        """Advance the turn shown in phase keys."""
        self.turn += 1

    def goto(self, step: str) -> None:
        """Continue at ``step`` instead of the current step's declared ``next``."""
        self._goto = step

    def interrupt(self, step: str, asks: Sequence[Ask], **data: Any) -> None:
        """Suspend: the next phase is ``step`` (a resume step, ``who=ASKED``) for the asked seats;
        resolving it resumes there with ``data`` and the answers.

        ``data`` must be JSON; it is all the resumed step gets of where resolution stopped.
        The interrupt counter goes up by one, so the phase names of resume steps never repeat.

        :raises RulesetDefinitionError: an ask of a seat the game does not have (a side's name, a
            misspelt seat): the window would await someone who can never answer; or a second
            interrupt in one resolution (the first one's questions would be lost: ask them together).
        """
        if self._pending is not None:
            raise RulesetDefinitionError(f"an interrupt to {step!r} after one to {self._pending.resume!r} in the same "
                                         "resolution: one interrupt per resolution, with every ask in it")
        names = {s.name for s in self.seats}
        strangers = sorted({a.seat for a in asks} - names)
        if strangers:
            raise RulesetDefinitionError(f"an interrupt to {step!r} asks {', '.join(map(repr, strangers))}, "
                                         f"not a seat of this game (seats: {', '.join(sorted(names))})")
        self._pending = Pending(step, tuple(asks), data)

    @property
    def resumed(self) -> Pending:
        """The continuation being resumed (only inside a resume step's resolve)."""
        if self.flow.pending is None:
            raise RulesetDefinitionError(f"step {self.flow.step!r} resumes nothing: no interrupt is pending")
        return self.flow.pending

    @property
    def answers(self) -> Mapping[str, str]:
        """Every ask's answer by key (defaults filled in), inside a resume step's resolve."""
        return MappingProxyType(self._answers)

    # ---------------------------------------------------------------- standing orders
    def standing_order(self, seat: str, key: str) -> StandingOrder | None:
        """The order in force under ``key`` for ``seat`` (its side's for a side kind; the game's
        default when nobody set it; a group's first line)."""
        return self.rules.get(self.standing, seat, self._side(seat), key)

    def standing_group(self, seat: str, key: str) -> tuple[str, ...]:
        """Every line in force under ``key`` for ``seat``, in order (an ordered group's rules)."""
        return self.rules.group(self.standing, seat, self._side(seat), key)

    def apply_standing(self, orders: Mapping[str, Sequence[Any]]) -> None:
        """Apply every standing-order change in ``orders`` (seat by seat, each file in line order)
        and tell each seat, in the game's wording (``rules.notice``), what its file did."""
        for seat in sorted(orders):
            mine = [o for o in orders[seat] if isinstance(o, StandingChange)]
            if not mine:
                continue
            self.standing, changes = self.rules.apply(self.standing, seat, self._side(seat), mine)
            notice = self.rules.notice(seat, changes)
            if notice is not None:
                self.say(notice, to=(seat,), kind="standing")

    def _side(self, seat: str) -> str:
        return next((s.side for s in self.seats if s.name == seat), "")

    # ---------------------------------------------------------------- for the table
    def _begin_resume(self, orders: Mapping[str, Sequence[Any]]) -> None:
        if self.flow.pending is not None:
            self._answers = answers(self.flow.pending, orders)

    def _end(self, next_step: str) -> Flow:
        """The Flow after this resolution, given the step the table would go to."""
        if self._pending is not None:
            return replace(self.flow, step=self._pending.resume, turn=self.turn, counter=self.flow.counter + 1,
                           pending=self._pending, standing=self.standing)
        step = self._goto if self._goto is not None else next_step
        return replace(self.flow, step=step, turn=self.turn, pending=None, standing=self.standing)

    @property
    def suspended(self) -> bool:
        """True once :meth:`interrupt` was called in this resolution."""
        return self._pending is not None

    @property
    def going_to(self) -> str | None:
        return self._goto


__all__ = ["Audience", "Box", "EVERYONE", "Standing", "Work"]
