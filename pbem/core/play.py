"""Driving a ruleset without mail or storage: the pure loop the engine wraps.

Used by the conformance check, the benchmarks and tests.  The engine in
``pbem.engine`` does the same steps with signatures, storage and sitreps
around each one.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .dice import Roll, SeededDice
from .errors import OrderProblem
from .orders import order_file_text, parse_order_file
from .ruleset import Event, Phase, Ruleset

#: Phases a game may pass through without anyone sending orders before the
#: engine assumes the ruleset is looping and holds the game.
MAX_AUTOMATIC_PHASES = 200


class RulesetLoopError(RuntimeError):
    """A ruleset kept producing phases nobody acts in."""


def phase_dice(seed: bytes, phase: Phase) -> SeededDice:
    """The dice for resolving ``phase`` of a game with ``seed``."""
    return SeededDice(seed, f"resolve/{phase.key}")


def setup_dice(seed: bytes) -> SeededDice:
    return SeededDice(seed, "setup")


def bot_dice(seed: bytes, phase: Phase, seat: str) -> SeededDice:
    """Dice for a scripted player; distinct from the game's own streams."""
    return SeededDice(seed, f"bot/{phase.key}/{seat}")


def orders_text(game: str, seat: str, phase: Phase, body: str) -> str:
    """A complete order file for ``seat`` in ``phase``."""
    return order_file_text("orders", {"Game": game, "Side": seat, "Turn": str(phase.turn),
                                      "Phase": phase.name}, body)


def check_text(ruleset: Ruleset, state: Any, seat: str, body: str) -> tuple[Any, list[OrderProblem]]:
    """Parse a body of order lines for a seat as the engine would."""
    phase = ruleset.phase(state)
    assert phase is not None
    f, problems = parse_order_file(orders_text("g", seat, phase, body))
    if f is None:
        return None, problems
    checked = ruleset.check_orders(ruleset.view(state, seat), seat, f.lines)
    return checked.orders, list(checked.problems)


@dataclass
class Step:
    """One resolved phase of a pure playthrough."""

    phase: Phase
    bodies: dict[str, str]
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    state: Any


def play(ruleset: Ruleset, scenario: str, seed: bytes, *, options: Mapping[str, Any] | None = None,
         max_phases: int = 50, orders_for: Callable[[Any, Phase, str], str] | None = None) -> list[Step]:
    """Play ``max_phases`` phases (or to the end) with the ruleset's scripted players.

    ``orders_for(state, phase, seat)`` may supply bodies instead of the bot.
    :raises AssertionError: the bot wrote orders its own ruleset rejects.
    """
    opts = ruleset.info.resolve_options(options or {})
    state = ruleset.setup(scenario, opts, setup_dice(seed))
    steps: list[Step] = []
    automatic = 0
    while len(steps) < max_phases:
        phase = ruleset.phase(state)
        if phase is None:
            break
        orders: dict[str, Any] = {}
        bodies: dict[str, str] = {}
        for seat in sorted(phase.awaiting):
            view = ruleset.view(state, seat)
            if orders_for is not None:
                body = orders_for(state, phase, seat)
            else:
                body = ruleset.bot_orders(view, seat, bot_dice(seed, phase, seat))
            parsed, problems = check_text(ruleset, state, seat, body)
            if problems:
                raise AssertionError(f"{ruleset.info.name} {phase.key} {seat}: orders rejected: "
                                     + "; ".join(map(str, problems)) + f"\n--- body ---\n{body}")
            orders[seat] = parsed
            bodies[seat] = body
        automatic = automatic + 1 if not phase.awaiting else 0
        if automatic > MAX_AUTOMATIC_PHASES:
            raise RulesetLoopError(f"{ruleset.info.name}: {automatic} phases in a row await nobody")
        dice = phase_dice(seed, phase)
        res = ruleset.resolve(state, orders, dice)
        state = res.state
        steps.append(Step(phase, bodies, res.events, dice.rolls, state))
    return steps


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: the form that is hashed and compared byte for byte."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
