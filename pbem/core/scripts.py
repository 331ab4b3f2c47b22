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
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import OrderSyntaxError, RulesetDefinitionError
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


#: ``perform(order)``: carry one order out; None when done, else the reason it could not be.
Perform = Callable[[Order], "str | None"]


def run(work: Work[Any], author: str, entries: Sequence[Order], perform: Perform,
        conditions: Conditions | None = None, *, about: Any = None) -> list[bool]:
    """Carry a script out entry by entry; report every entry not carried out to ``author``.

    Returns, per entry, whether an order of it was carried out.
    """
    done: list[bool] = []
    for index, entry in enumerate(entries):
        reached = Reached(author, index, done[-1] if done else None, about)
        reason = _step(work, entry, perform, conditions, reached)
        if reason is not None:
            work.say(f"{entry.text()} was skipped: {reason}", to=(author,), kind="skipped", entry=index + 1)
        done.append(reason is None)
    return done


def _step(work: Work[Any], entry: Order, perform: Perform, conditions: Conditions | None,
          reached: Reached) -> str | None:
    """Carry out one entry; the reason it was not carried out, or None."""
    if not isinstance(entry, If):
        return perform(entry)
    if conditions is None:
        raise RulesetDefinitionError("a script with IF entries needs the ruleset's conditions")
    if conditions.holds(work, reached, entry.when):
        failed = perform(entry.then)
        if failed is None:
            return None
        if entry.otherwise is None:
            return failed
        fallback = perform(entry.otherwise)
        if fallback is None:  # carried out, but the author should learn why THEN was not
            work.say(f"{entry.text()}: {entry.then.text()} could not be carried out ({failed}); "
                     f"{entry.otherwise.text()} was", to=(reached.author,), kind="fallback",
                     entry=reached.index + 1)
            return None
        return f"{failed}; ELSE: {fallback}"
    if entry.otherwise is None:
        return f"{entry.when.text()} does not hold"
    fallback = perform(entry.otherwise)
    return None if fallback is None else f"{entry.when.text()} does not hold; ELSE: {fallback}"


__all__ = ["Condition", "ConditionKind", "Conditions", "If", "Perform", "Reached", "run", "scripted"]
