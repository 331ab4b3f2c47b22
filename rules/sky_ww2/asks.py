"""The pause points of a turn: asking seats for a decision.

Every decision of Sky of WWII -- the set-up, a deployment, an activation, a turn script,
a reaction, a pursuit -- is the kit's interrupt (:meth:`pbem.core.work.Work.interrupt`):
resolution stops, the step of that name in the table (:mod:`.ruleset`) awaits the asked
seats, and resolving it resumes the game.  What the decision is about (the aircraft, its
side, the exchange party, the pursuit cells) travels in the interrupt's data.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.core.flow import Flow
from pbem.core.texts import t_
from pbem.core.interrupts import Ask, Pending

from .state import Game

#: One line per kind of decision, for the phase and each ask.
PROMPTS = {
    "setup": lambda p: t_("place two ground objects face down and choose your aircraft"),
    "deploy": lambda p: (t_("deploy all your aircraft at once, unseen by the enemy") if p.get("sealed") else
                         t_("deploy %(ac)s (or another of your aircraft waiting)", ac=p['ac'])),
    "round": lambda p: t_("give round %(n)s's plan: a block per aircraft, flown in the rulebook's order", n=p['round']),
    "activate": lambda p: t_("choose the aircraft to activate and what to discard first"),
    "script": lambda p: t_("give %(ac)s's turn: movement, beats with ON_CANCELLED answers, end discards", ac=p['ac']),
    "react": lambda p: t_("an exchange needs your answer for %(ac)s: PLAY a card or PASS", ac=p['ac']),
    "pursue": lambda p: t_("an enemy changed altitude: does %(ac)s pursue?", ac=p['ac']),
}


def asks_for(kind: str, seats: Iterable[str], data: dict) -> tuple[Ask, ...]:
    """One ask per seat, keyed by the seat (the answers are the seats' orders, read by the step)."""
    return tuple(Ask(seat, seat, PROMPTS[kind](data), "") for seat in sorted(seats))


def ask(g: Game, kind: str, seats: Iterable[str], **data: Any) -> None:
    """Stop the resolution until ``seats`` decide; the step ``kind`` resumes it with ``data``."""
    asks = asks_for(kind, seats, data)
    g.work.interrupt(kind, asks, **data)
    g.asked = Pending(kind, asks, data)


def pending_of(flow: Flow) -> dict | None:
    """The decision awaited, as plain data: kind, seats, its number ``n`` and what it is about."""
    p = flow.pending
    if p is None or flow.over:
        return None
    return {"kind": p.resume, "seats": sorted(p.seats), "n": flow.counter, **p.data}


def first_flow(g: Game) -> Flow:
    """The kit's part of a position that set-up (outside the step table) ran to its first decision."""
    return Flow(g.asked.resume, g.doc["round"], 1, g.asked, g.work.standing)
