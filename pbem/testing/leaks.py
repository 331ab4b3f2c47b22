"""The generic leak probe (style P14.3): what a seat gets must not depend on what it may not see.

Given two states that differ only in something hidden from one seat, every
output the seat receives must be byte-identical between them: its view, its
order form, the answer of ``check_orders`` to a set of order lines (problems,
notes and the parsed orders), the picture of its view, the orders the bot
would write for it, and (the case a view check alone misses, issue #15:
reactive fire at a target the shooter's side could not see) the events and
rolls it is shown when both states are resolved with the same orders and dice.

The pairs are the callers' (each game knows what it hides); this module only
compares, and names each output that differs with the first difference.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.core.dice import SeededDice
from pbem.core.play import canonical_json
from pbem.core.ruleset import Ruleset, visible_events, visible_rolls
from pbem.testing.known import check_body

#: The seed of every probe's dice: the same draws for both states of a pair.
SEED = b"pbem leak probe, one seed for both states"


@dataclass(frozen=True)
class Pair:
    """Two states of one game that differ only in what ``seat`` may not see.

    :param probe: order lines ``seat`` might send, checked against both views.
    :param orders: order bodies per seat to resolve both states with; awaited
        seats left out get ``default_orders``.  ``None``: no resolution (the
        phase has nothing to resolve that could tell).
    """

    name: str
    seat: str
    a: Any
    b: Any
    probe: str = ""
    orders: Mapping[str, str] | None = field(default_factory=dict)


def outputs(ruleset: Ruleset, state: Any, pair: Pair) -> dict[str, str]:
    """Everything ``pair.seat`` receives from ``state``, each as text, by name."""
    seat = pair.seat
    view = ruleset.view(state, seat)
    out = {"view": canonical_json(view)}
    live = ruleset.phase(state) is not None
    if live:
        out["order form"] = ruleset.order_form(view, seat)
        out["check_orders"] = _checked(ruleset, state, seat, pair.probe)
        out["bot orders"] = ruleset.bot_orders(view, seat, SeededDice(SEED, "bot"))
    picture = ruleset.picture(view)
    out["picture"] = repr(picture)
    if live and pair.orders is not None:
        out["events and rolls"] = _resolved(ruleset, state, pair)
    return out


def _checked(ruleset: Ruleset, state: Any, seat: str, body: str) -> str:
    checked, problems = check_body(ruleset, state, seat, body)
    if checked is None:
        return "\n".join(problems)
    return "\n".join([*(f"problem: {p}" for p in problems), *(f"note: {n}" for n in checked.notes),
                      f"orders: {checked.orders!r}"])


def _resolved(ruleset: Ruleset, state: Any, pair: Pair) -> str:
    """The seat's events and rolls after resolving ``state`` with the pair's orders and the probe's dice."""
    phase = ruleset.phase(state)
    assert phase is not None and pair.orders is not None
    orders = {}
    for seat in sorted(set(phase.awaiting) | set(pair.orders)):
        if seat not in pair.orders:
            orders[seat] = ruleset.default_orders(state, seat)
            continue
        checked, problems = check_body(ruleset, state, seat, pair.orders[seat])
        if checked is None or problems:  # a defect of the pair, not a leak: say so plainly
            raise AssertionError(f"pair {pair.name}: {seat}'s orders are refused: " + "; ".join(problems))
        orders[seat] = checked.orders
    dice = SeededDice(SEED, f"resolve/{phase.key}")
    result = ruleset.resolve(state, orders, dice)
    lines = [f"event [{e.kind}] {e.text}" for e in visible_events(result.events, pair.seat)]
    lines += [f"roll d{r.sides}={r.value} {r.why}" for r in visible_rolls(dice.rolls, pair.seat)]
    return "\n".join(lines)


def leaks(ruleset: Ruleset, pair: Pair) -> list[str]:
    """Each output that differs between the pair's states, with its first differing line; empty if none.

    :raises AssertionError: the pair is not a pair (identical states, or orders the game refuses).
    """
    if canonical_json(ruleset.dump(pair.a)) == canonical_json(ruleset.dump(pair.b)):
        raise AssertionError(f"pair {pair.name}: the two states are the same; the probe would prove nothing")
    one, two = outputs(ruleset, pair.a, pair), outputs(ruleset, pair.b, pair)
    found = []
    for name in one:
        if one[name] != two.get(name):
            found.append(f"{pair.seat}'s {name} differs: {_first_difference(one[name], two.get(name, ''))}")
    return found


def _first_difference(x: str, y: str) -> str:
    xs, ys = x.splitlines() or [""], y.splitlines() or [""]
    for i, (p, q) in enumerate(zip(xs, ys, strict=False)):
        if p != q:
            at = next((j for j, (c, d) in enumerate(zip(p, q, strict=False)) if c != d), min(len(p), len(q)))
            start = max(0, at - 60)
            return f"line {i + 1}: {p[start:at + 80]!r} vs {q[start:at + 80]!r}"
    return f"{len(xs)} lines vs {len(ys)} lines"
