"""Order lines: checking one seat's file against its view (never the state).

One order file per side covers most of a turn [digest 12]: this turn's orders become typed values
(:mod:`.verbs`, parsed in :mod:`.turn_orders`), standing orders (reaction policies, parsed in
:mod:`.standing_orders`) their canonical lines, kept in the state until replaced and consulted
during resolution.  Every problem of the file is reported, each with its line and rule.
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.errors import IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked

from . import standing_orders, turn_orders
from .checking import Ctx
from .verbs import Attack, Ignore, Order, Policy, standing_key

STANDING = set(standing_orders.PARSERS)
TURN_VERBS = set(turn_orders.PARSERS)
GERMAN_ONLY = {"ON_SHADOW", "REFUEL", "RTB", "HUNT", "ON_MERCHANT", "ON_CONVOY", "SUB_HEX"}
ALLIED_ONLY = {"SHADOW", "ON_DIVERSION", "RELEASE"}

__all__ = ["check", "standing_key"]


def check(view: dict, seat: str, lines: Sequence[OrderLine]) -> Checked:
    """``Checked.orders`` is the tuple of typed orders (TF changes first), standing ones as :class:`Policy`."""
    ctx = Ctx(view)
    problems: list[OrderProblem] = []
    orders: list[Order] = []
    # TF changes first, so MOVE lines may name a task force formed in the same file [7.2]
    for ln in sorted(lines, key=lambda ln: 0 if ln.verb in turn_orders.TF_VERBS else 1):
        try:
            item = _line(ctx, ln)
        except OrderError as exc:
            problems.append(exc.problem(ln.line_no, ln.text))
            continue
        orders.append(item)
    standing = [o.text() for o in orders if isinstance(o, Policy)]
    notes = [] if ctx.step == "convoy" else _replacements(standing, view.get("standing", []))
    return Checked(tuple(orders), tuple(problems), tuple(notes))


def _line(ctx: Ctx, ln: OrderLine) -> Order:
    """One line: a typed order of this turn, or a standing order."""
    verb, w = ln.verb, ln.words
    if ctx.step == "convoy":
        if verb not in ("ATTACK", "IGNORE") or len(w) != 1:
            raise OrderSyntaxError("a convoy has been found: answer ATTACK or IGNORE", rule="11.3")
        return Attack() if verb == "ATTACK" else Ignore()
    if ctx.step == "doctrine" and verb != "DOCTRINE":
        raise OrderSyntaxError("a naval combat is coming: only DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE "
                               "[TORPEDOES ON|OFF] [BREAK <hull>] lines are taken now", rule="10")
    if verb not in STANDING | TURN_VERBS:
        raise OrderSyntaxError(f"unknown order {w[0]}; orders are " + ", ".join(sorted(STANDING | TURN_VERBS)))
    if verb in GERMAN_ONLY and ctx.side != "german":
        raise IllegalOrderError(f"{verb} is a German order", rule="4")
    if verb in ALLIED_ONLY and ctx.side != "allied":
        raise IllegalOrderError(f"{verb} is an Allied order", rule="4")
    if verb in STANDING:
        return Policy(standing_orders.PARSERS[verb](ctx, w))
    if ctx.step.startswith("shadowed") and verb != "MOVE":
        raise IllegalOrderError("only your Shadowed units move now (MOVE, or leave them out to stay); "
                                "the other orders come in the main order phase", rule="7.1")
    return turn_orders.PARSERS[verb](ctx, w)


def _replacements(standing: list[str], in_force: Sequence[str]) -> list[str]:
    """Acknowledgement notes: which standing order replaces which (in this file, then in force)."""
    notes = []
    keys: dict[str, str] = {}
    for s in standing:
        k = standing_key(s.split())
        if k in keys:
            notes.append(f"standing order {s} replaces {keys[k]}")
        keys[k] = s
    for s in in_force:
        if standing_key(s.split()) in keys:
            notes.append(f"standing order {keys[standing_key(s.split())]} replaces the earlier {s}")
    return notes
