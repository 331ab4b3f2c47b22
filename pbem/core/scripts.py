"""Ordered, conditional scripts: ``IF <condition> THEN <order> [ELSE <order>]``.

A script is a seat's orders taken in line order and carried out one by one
during resolution, so a player can send a whole turn in one mail.  A line may
be a plain order or an :class:`If` entry.  Conditions are the ruleset's own:
a :class:`ConditionKind` gives a name, a parser of its words (checked against
the view when the orders arrive) and a test evaluated only when the entry is
*reached* (:func:`run`), against the position at that moment.

When an entry is reached: a plain order is performed; an ``If`` performs
THEN when its condition holds, else ELSE.  ELSE is also the fallback when THEN
could not be carried out (the author is told why, ``kind="fallback"``).  Every
entry that ends up not carried out is reported to its author, with the reason
(``kind="skipped"``).

:func:`run` carries a whole script out at once.  :func:`resume` is the same
runner for a script that may stop mid-way -- an entry opened a reaction window
(``work.interrupt``) or something the game settles before the next entry -- and
go on in a later resolution from a :class:`Cursor` kept in the state.  It also
lets the game define what PREV_OK / PREV_FAILED mean (``previous=``), word the
skip reports (``skipped=``, given a :class:`Skip`) and end a script early
(``perform`` returns :data:`STOP`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import OrderSyntaxError, RulesetDefinitionError
from .texts import t_
from .verbs import Order, Verb, VerbTable, View
from .work import Work


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its name and canonical argument words."""

    name: str
    args: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join((self.name,) + self.args)


@dataclass(frozen=True)
class Reached:
    """What a condition test knows besides the position: who wrote the script, which entry this is,
    whether the previous entry was carried out (None for the first), and the ruleset's ``about``."""

    author: str
    index: int
    previous: bool | None
    about: Any = None


@dataclass(frozen=True)
class ConditionKind:
    """A condition a ruleset offers: ``parse(args, view, seat)`` gives canonical args (or raises an
    OrderError); ``test(work, reached, args)`` says whether it holds when the entry is reached."""

    name: str
    parse: Callable[[tuple[str, ...], View, str], tuple[str, ...]]
    test: Callable[[Work[Any], Reached, tuple[str, ...]], bool]
    usage: str


@dataclass(frozen=True)
class If:
    """A script entry: THEN when the condition holds, else ELSE (also ELSE when THEN fails)."""

    when: Condition
    then: Order
    otherwise: Order | None = None

    def text(self) -> str:
        tail = f" ELSE {self.otherwise.text()}" if self.otherwise is not None else ""
        return f"IF {self.when.text()} THEN {self.then.text()}{tail}"


class Conditions:
    """The ruleset's condition table; ``rule`` is the reference given when a condition does not parse.

    :raises RulesetDefinitionError: a name repeated or not upper case.
    """

    def __init__(self, kinds: Sequence[ConditionKind], *, rule: str = "") -> None:
        self.rule = rule
        self.kinds: dict[str, ConditionKind] = {}
        for kind in kinds:
            if kind.name in self.kinds or kind.name != kind.name.upper():
                raise RulesetDefinitionError(f"condition {kind.name!r} is repeated or not upper case")
            self.kinds[kind.name] = kind

    def parse(self, words: Sequence[str], view: View, seat: str) -> Condition:
        if not words:
            raise OrderSyntaxError("IF needs a condition: " + self.usage(), rule=self.rule)
        kind = self.kinds.get(words[0].upper())
        if kind is None:
            raise OrderSyntaxError(f"unknown condition {words[0]!r}; conditions: {self.usage()}", rule=self.rule)
        return Condition(kind.name, kind.parse(tuple(words[1:]), view, seat))

    def holds(self, work: Work[Any], reached: Reached, condition: Condition) -> bool:
        return self.kinds[condition.name].test(work, reached, condition.args)

    def usage(self) -> str:
        return ", ".join(k.usage for k in self.kinds.values())


def scripted(table: VerbTable, conditions: Conditions) -> VerbTable:
    """``table`` plus the IF verb, whose THEN and ELSE orders are parsed by ``table`` itself."""
    usage = "IF <condition> THEN <order> [ELSE <order>]"

    def parse_if(args: tuple[str, ...], view: View, seat: str) -> If:
        up = [w.upper() for w in args]
        if "THEN" not in up:
            raise OrderSyntaxError(f"expected {usage}", rule=conditions.rule)
        then_at = up.index("THEN")
        else_at = up.index("ELSE") if "ELSE" in up[then_at:] else len(args)
        when = conditions.parse(args[:then_at], view, seat)
        then_words = " ".join(args[then_at + 1:else_at])
        else_words = " ".join(args[else_at + 1:])
        if not then_words or (else_at < len(args) and not else_words):
            raise OrderSyntaxError(f"expected {usage}", rule=conditions.rule)
        then = table.parse(then_words, view, seat)
        otherwise = table.parse(else_words, view, seat) if else_words else None
        return If(when, then, otherwise)

    return VerbTable(tuple(table.verbs.values()) + (Verb("IF", parse_if, usage),), rule=table.rule)


class Stop:
    """The type of :data:`STOP`."""

    def __repr__(self) -> str:
        return "STOP"


#: What ``perform`` returns for an entry carried out that ends the script there (an END line):
#: :func:`resume` moves its cursor past the last entry.
STOP = Stop()

#: ``perform(order)``: carry one order out; None when done (or :data:`STOP`), else the reason it could not be.
Perform = Callable[[Order], "str | Stop | None"]


@dataclass(frozen=True)
class Skip:
    """An entry not carried out, as the game's wording (``skipped=`` of :func:`resume`) sees it.

    ``order`` is the order that was not carried out: the entry itself, or the THEN (or the ELSE
    tried after it) of an :class:`If`; ``unmet`` is the condition that did not hold, None when
    the order was refused (``reason`` is then ``perform``'s reason).
    """

    author: str
    index: int
    entry: Order
    order: Order
    reason: str
    unmet: Condition | None = None

    def text(self) -> str:
        """The kit's wording: ``<entry> was skipped: <reason>``."""
        return t_("%(entry)s was skipped: %(reason)s", entry=self.entry.text(), reason=self.reason)


@dataclass(frozen=True)
class Cursor:
    """Where a paused script resumes: the next entry's index, and whether the entry before it was
    carried out (None before the first).  JSON through :meth:`dump` / :meth:`load`."""

    at: int = 0
    previous: bool | None = None

    def dump(self) -> list[int | bool | None]:
        return [self.at, self.previous]

    @classmethod
    def load(cls, data: Sequence[int | bool | None]) -> Cursor:
        at, previous = data
        return cls(int(at or 0), None if previous is None else bool(previous))


def run(work: Work[Any], author: str, entries: Sequence[Order], perform: Perform,
        conditions: Conditions | None = None, *, about: Any = None) -> list[bool]:
    """Carry a script out entry by entry; report every entry not carried out to ``author``.

    Returns, per entry, whether an order of it was carried out.  (A script that may pause
    for an interrupt runs with :func:`resume`.)
    """
    done: list[bool] = []
    for index, entry in enumerate(entries):
        reached = Reached(author, index, done[-1] if done else None, about)
        skip = _step(work, entry, perform, conditions, reached)
        if skip is not None:
            work.say(skip.text(), to=(author,), kind="skipped", entry=index + 1)
        done.append(skip is None)
    return done


def resume(work: Work[Any], author: str, entries: Sequence[Order], cursor: Cursor, perform: Perform,
           conditions: Conditions | None = None, *, about: Any = None,
           previous: Callable[[], bool | None] | None = None, pause: Callable[[], bool] | None = None,
           skipped: Callable[[Skip], str] = Skip.text,
           on_reach: Callable[[Reached], None] | None = None) -> Cursor:
    """Carry a script out from ``cursor`` until it ends or must pause; return where to resume.

    After each entry the script pauses when the resolution was suspended (``work.interrupt``)
    or ``pause()`` is true (the game has something to settle first, e.g. an exchange the entry
    opened); keep the returned cursor in the state and call again to go on.  ``previous()``
    is the game's own meaning of PREV_OK / PREV_FAILED (``Reached.previous``), evaluated when
    an entry is reached; by default, whether the entry before was carried out.  Entries not
    carried out are said to ``author`` in the game's wording ``skipped(skip)``
    (``kind="skipped"``).  An entry whose order returns :data:`STOP` ends the script.
    ``on_reach(reached)`` is told of each entry before it is carried out (where the game is,
    e.g. to read the lines below a beat).
    """
    at, prev = cursor.at, cursor.previous
    while at < len(entries):
        stopped = False

        def doing(order: Order) -> str | Stop | None:
            nonlocal stopped
            result = perform(order)
            stopped = stopped or result is STOP
            return None if result is STOP else result

        reached = Reached(author, at, previous() if previous is not None else prev, about)
        if on_reach is not None:
            on_reach(reached)
        skip = _step(work, entries[at], doing, conditions, reached)
        if skip is not None:
            work.say(skipped(skip), to=(author,), kind="skipped", entry=at + 1)
        prev, at = skip is None, len(entries) if stopped else at + 1
        if work.suspended or (pause is not None and pause()):
            break
    return Cursor(at, prev)


def _step(work: Work[Any], entry: Order, perform: Perform, conditions: Conditions | None,
          reached: Reached) -> Skip | None:
    """Carry out one entry; what was not carried out and why, or None."""
    if not isinstance(entry, If):
        failed = perform(entry)
        return None if failed is None or failed is STOP else Skip(reached.author, reached.index, entry, entry,
                                                                   _reason(failed))
    if conditions is None:
        raise RulesetDefinitionError("a script with IF entries needs the ruleset's conditions")
    if conditions.holds(work, reached, entry.when):
        return _then(work, entry, perform, reached)
    unmet = f"{entry.when.text()} does not hold"
    if entry.otherwise is None:
        return Skip(reached.author, reached.index, entry, entry.then, unmet, entry.when)
    fallback = perform(entry.otherwise)
    if fallback is None or fallback is STOP:
        return None
    return Skip(reached.author, reached.index, entry, entry.otherwise, _else(unmet, fallback), entry.when)


def _then(work: Work[Any], entry: If, perform: Perform, reached: Reached) -> Skip | None:
    """The condition holds: THEN, and ELSE as its fallback."""
    failed = perform(entry.then)
    if failed is None or failed is STOP:
        return None
    if entry.otherwise is None:
        return Skip(reached.author, reached.index, entry, entry.then, _reason(failed))
    fallback = perform(entry.otherwise)
    if fallback is None or fallback is STOP:  # carried out, but the author should learn why THEN was not
        work.say(t_("%(entry)s: %(then)s could not be carried out (%(failed)s); %(otherwise)s was",
                    entry=entry.text(), then=entry.then.text(), failed=failed, otherwise=entry.otherwise.text()),
                 to=(reached.author,), kind="fallback", entry=reached.index + 1)
        return None
    return Skip(reached.author, reached.index, entry, entry.otherwise, _else(failed, fallback))


def _else(failed: object, fallback: object) -> str:
    """Why THEN (or the condition) and then ELSE failed; marked, so each reason is read in its reader's language."""
    return t_("%(failed)s; ELSE: %(fallback)s", failed=_reason(failed), fallback=_reason(fallback))


def _reason(failed: object) -> str:
    """``perform``'s reason as text; a marked one (pbem.core.texts) kept marked."""
    return failed if isinstance(failed, str) else str(failed)


__all__ = ["STOP", "Condition", "ConditionKind", "Conditions", "Cursor", "If", "Perform", "Reached", "Skip", "Stop",
           "resume", "run", "scripted"]
