"""Typed orders and the verb table.

Each verb of a ruleset is a small frozen dataclass, as python-chess's ``Move``
is, with a canonical :meth:`Order.text` such that parsing it again gives the
same value.  A :class:`VerbTable` maps verb words to parsers
``parse(args, view, seat) -> Order`` (``args`` are the words after the verb);
a parser raises :class:`~pbem.core.errors.OrderSyntaxError`,
:class:`~pbem.core.errors.IllegalOrderError` or
:class:`~pbem.core.errors.AmbiguousOrderError` with the rule reference, using
only what the view holds.  :meth:`VerbTable.check_lines` is the generic
``check_orders``: it collects *every* problem with its line number, and
``Checked.orders`` is the tuple of typed orders, in line order.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .errors import OrderError, OrderProblem, OrderSyntaxError, RulesetDefinitionError
from .orders import OrderLine
from .ruleset import Checked

View = Mapping[str, Any]


@runtime_checkable
class Order(Protocol):
    """A typed order: a frozen value with a canonical text (``parse(order.text()) == order``)."""

    def text(self) -> str: ...


#: ``parse(args, view, seat)``: the words after the verb, the submitter's view and seat.
Parser = Callable[[tuple[str, ...], View, str], Order]
#: ``whole(orders, view, seat)``: problems of the orders taken together (e.g. one FIRE per turn);
#: ``orders`` pairs each typed order with its line.
WholeCheck = Callable[[Sequence[tuple[OrderLine, Order]], View, str], Iterable[OrderProblem]]


@dataclass(frozen=True)
class Verb:
    """One verb word, its parser, and the usage line shown when a line does not parse."""

    word: str
    parse: Parser
    usage: str
    rule: str = ""


class VerbTable:
    """Verb words to parsers; the generic order checker.

    :param rule: the rule reference given with an unknown verb (where the orders are described).
    :raises RulesetDefinitionError: a verb word repeated, or not one upper-case word.
    """

    def __init__(self, verbs: Sequence[Verb], *, rule: str = "") -> None:
        self.rule = rule
        self.verbs: dict[str, Verb] = {}
        for verb in verbs:
            if verb.word in self.verbs or not verb.word or verb.word != verb.word.upper() or " " in verb.word:
                raise RulesetDefinitionError(f"verb {verb.word!r} is repeated or not one upper-case word")
            self.verbs[verb.word] = verb

    def __contains__(self, word: str) -> bool:
        return word.upper() in self.verbs

    def usage(self, allowed: Iterable[str] | None = None) -> str:
        """The usage lines of the allowed verbs (all when None), one per line."""
        words = self._allowed(allowed)
        return "\n".join(self.verbs[w].usage for w in self.verbs if w in words)

    def parse(self, text: str, view: View, seat: str, *, allowed: Iterable[str] | None = None) -> Order:
        """Parse one order line into its typed value.

        :raises OrderError: the line does not parse or breaks a rule; the message lists the verbs
            allowed when the verb is unknown.
        """
        words = tuple(text.split())
        if not words:
            raise OrderSyntaxError("an empty order", rule=self.rule)
        word = words[0].upper()
        ok = self._allowed(allowed)
        if word not in ok:
            expected = "; ".join(v.usage for w, v in self.verbs.items() if w in ok) or "no orders"
            where = "here" if word in self.verbs else "known"
            raise OrderSyntaxError(f"{words[0]!r} is not an order {where}; expected {expected}", rule=self.rule)
        return self.verbs[word].parse(words[1:], view, seat)

    def check_lines(self, view: View, seat: str, lines: Sequence[OrderLine], *,
                    allowed: Iterable[str] | None = None, whole: WholeCheck | None = None,
                    note: Callable[[Order], str | None] | None = None) -> Checked:
        """Parse every line; return the typed orders and every problem (not the first).

        ``allowed`` limits the verbs of this phase; ``whole`` checks the parsed orders together;
        ``note(order)`` may give a line for the acknowledgement.  (Standing-order changes are
        reported by the kit when they take effect, at resolution.)
        """
        parsed: list[tuple[OrderLine, Order]] = []
        problems: list[OrderProblem] = []
        for line in lines:
            try:
                parsed.append((line, self.parse(line.text, view, seat, allowed=allowed)))
            except OrderError as e:
                problems.append(e.problem(line.line_no, line.text))
        if whole is not None:
            problems.extend(whole(parsed, view, seat))
        problems.sort(key=lambda p: p.line_no)
        notes = tuple(n for n in (note(o) for _, o in parsed) if n) if note is not None else ()
        return Checked(tuple(order for _, order in parsed), tuple(problems), notes)

    def _allowed(self, allowed: Iterable[str] | None) -> frozenset[str]:
        if allowed is None:
            return frozenset(self.verbs)
        words = frozenset(w.upper() for w in allowed)
        unknown = words - set(self.verbs)
        if unknown:
            raise RulesetDefinitionError(f"allowed verbs not in the table: {sorted(unknown)}")
        return words


def one_of(word: str, choices: Sequence[str], what: str, *, rule: str = "") -> str:
    """``word`` upper-cased if it is one of ``choices``, else an OrderSyntaxError naming them."""
    up = word.upper()
    if up not in choices:
        raise OrderSyntaxError(f"{what} must be one of {', '.join(choices)}, not {word!r}", rule=rule)
    return up


def arity(args: Sequence[str], n: int, usage: str, *, rule: str = "") -> None:
    """Raise an OrderSyntaxError showing ``usage`` unless there are exactly ``n`` words after the verb."""
    if len(args) != n:
        raise OrderSyntaxError(f"expected {usage}", rule=rule)
