"""Escape [11.0]: a broken squadron's attempt, in the Administrative Phase, to slip away.

The opponent stops it with an Available fighter in sight: 1d6 minus the worst weather on that line; the
squadron escapes when the result is below the range.  The worked example of 11.0 reads "1-2 escapes" at
range 3 through haze, which only the natural roll gives; option ``escape_reading`` chooses between the
rule (default, ``"rule"``: modified roll) and the example (``"example"``: natural roll).
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import Squadron, State
from .sky import distance


def available(state: State, sq: Squadron) -> bool:
    """Available [1.1]: an unbroken fighter not sharing its square with an enemy that tallies it."""
    return sq.on_map and sq.fighter and not sq.broken and not any(
        e.on_map and e.side != sq.side and e.tally == sq.id and e.at == sq.at for e in state.squadrons)


@dataclass(frozen=True)
class Chase:
    """The squadron the opponent sends to stop an escape, at its range and weather."""

    hunter: str
    range: int
    weather: int


def chaser(state: State, escaping: Squadron) -> Chase | None:
    """The opponent's best Available fighter in sight: the smallest range plus weather (it needs the
    modified roll to reach the range), nearest first; None when nobody can try."""
    found = []
    for e in state.squadrons:
        if e.side == escaping.side or not available(state, e):
            continue
        sight = state.sky.sight(e.at, escaping.at)
        if not sight.blocked:
            rng = distance(e.at, escaping.at)
            found.append((rng + sight.weather, rng, e.id, Chase(e.id, rng, sight.weather)))
    return min(found)[3] if found else None


def may_escape(state: State, sq: Squadron, consent: bool = False) -> str | None:
    """Why ``sq`` may not try to escape, or None [11.0]: a broken squadron on the map tries alone; any
    other squadron only with the opponent's consent (``consent``: his standing order CONSENT YES)."""
    if not sq.on_map:
        return f"{sq.id} is not on the map"
    if not sq.broken and not consent:
        return (f"{sq.id} is not broken: only broken squadrons escape without the opponent's consent "
                f"(his standing order CONSENT YES)")
    return None


def escapes(natural: int, chase: Chase, reading: str = "rule") -> bool:
    """The escape roll [11.0]: escapes when d6 - weather (the natural roll under ``"example"``) is below
    the range."""
    rolled = natural if reading == "example" else natural - chase.weather
    return rolled < chase.range
