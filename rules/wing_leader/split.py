"""Splitting a squadron into two flights [9.3, 9.3.1, 9.3.2].

The flights are named after the squadron with 1 and 2 (the counter mix is lost, GAP-9).  The owner's
choices are defaults: losses are shared as evenly as possible, a straggler and an Experte go with the
first flight, the first flight keeps the tally; an enemy's tally on the squadron stays on the first flight.
"""
from __future__ import annotations

from .model import Squadron


def may_split(sq: Squadron, tallied_now: bool, ordered: bool, flexible: bool, flight_max: int) -> str | None:
    """Why ``sq`` may not split now, or None [9.3]: only an undisrupted, unbroken squadron (not a flight)
    ordered by its Wing Leader, or of a side with tactical flexibility that tallied this phase; the flights'
    losses and stragglers may not exceed a flight's Max Losses (AMB-21)."""
    if sq.flight:
        return f"{sq.id} is a flight; flights never split"
    if sq.disruption or sq.broken:
        return f"{sq.id} is disrupted or broken"
    if not (ordered or (flexible and tallied_now)):
        return (f"{sq.id} splits only when its Wing Leader ordered it or, with tactical flexibility, "
                f"in a Tally Phase in which it tallied")
    first, second = _shares(sq)
    if first + sq.straggler > flight_max or second > flight_max:
        return f"{sq.id}'s losses do not fit in two flights"
    return None


def _shares(sq: Squadron) -> tuple[int, int]:
    return (sq.losses + 1) // 2, sq.losses // 2


def split(sq: Squadron) -> tuple[Squadron, Squadron]:
    """The two flights [9.3.1]: same quality, ammunition, loads and net; an escort's flight with the tally
    becomes a Sweep, the other stays Escort; an Intercept's other flight flies on toward the vector."""
    first_losses, second_losses = _shares(sq)
    first = sq.move(id=f"{sq.id}1", flight=True, losses=first_losses)
    second = sq.move(id=f"{sq.id}2", flight=True, losses=second_losses, straggler=False, experte=False, tally="")
    if sq.tally and sq.mission == "escort":
        first = first.unescort()
    return first, second
