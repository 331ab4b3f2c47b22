"""Error types and the order-problem record shared by the engine and rulesets."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class PbemError(Exception):
    """Root of every error pbem raises on purpose."""


class RulesetDefinitionError(PbemError):
    """A ruleset or its data files are inconsistent (found at load time, not in play)."""


class UnknownRulesetError(PbemError, LookupError):
    """No ruleset or scenario by that name."""


class Code(str, Enum):
    """Machine-readable problem codes; templates and tests match on these, not on wording."""

    MAIL_UNREADABLE = "mail/unreadable"
    MAIL_TOO_LARGE = "mail/too_large"
    MAIL_NO_ORDERS = "mail/no_orders"
    SIG_MISSING = "signature/missing"
    SIG_MALFORMED = "signature/malformed"
    SIG_BAD = "signature/bad"
    SIG_WRONG_KEY = "signature/wrong_key"
    SIG_NAMESPACE = "signature/namespace"
    HEADER_MISSING = "header/missing"
    HEADER_BAD = "header/bad"
    GAME_UNKNOWN = "game/unknown"
    GAME_OVER = "game/over"
    SEAT_UNKNOWN = "seat/unknown"
    SEAT_NOT_AWAITED = "seat/not_awaited"
    STALE = "submission/stale"
    REPLAY = "submission/replay"
    COMMAND_UNKNOWN = "command/unknown"
    COMMAND_FORBIDDEN = "command/forbidden"
    ORDER_SYNTAX = "order/syntax"
    ORDER_ILLEGAL = "order/illegal"
    ORDER_AMBIGUOUS = "order/ambiguous"


@dataclass(frozen=True)
class OrderProblem:
    """One thing wrong with a submission, written from the submitter's view only.

    :param line_no: 1-based line in the order body (0 when the problem is not tied to a line).
    :param text: the offending line as received, or "".
    :param code: a :class:`Code`.
    :param message: lower case, no final period: what is wrong and, where obvious, what is legal.
    :param rule: the rulebook reference, e.g. "7.3" or "Table 2", or "".
    """

    line_no: int
    text: str
    code: Code
    message: str
    rule: str = ""

    def __str__(self) -> str:
        where = f"line {self.line_no}: " if self.line_no else ""
        quoted = f"{self.text!r}: " if self.text else ""
        ref = f" [{self.rule}]" if self.rule else ""
        return f"{where}{quoted}{self.message}{ref}"


class OrderError(PbemError, ValueError):
    """An order line could not be accepted; carries the :class:`OrderProblem`."""

    code = Code.ORDER_SYNTAX

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def problem(self, line_no: int, text: str) -> OrderProblem:
        """Attach the error to the order-file line it came from."""
        return OrderProblem(line_no, text, self.code, self.message, self.rule)


class OrderSyntaxError(OrderError):
    """The order text does not parse."""

    code = Code.ORDER_SYNTAX


class IllegalOrderError(OrderError):
    """The order parses but breaks a rule in the submitter's current position."""

    code = Code.ORDER_ILLEGAL


class AmbiguousOrderError(OrderError):
    """The order matches more than one unit or target the submitter can see."""

    code = Code.ORDER_AMBIGUOUS
