"""Jets and rocket aircraft [13.8]: high speed [13.8.1] of the Me 262 [13.8.3] and the Me 163 [13.8.2].

High speed affects air combat and reaction [13.8.1, 10.4, 10.5.1]; the chart values are lost, so both effects
are placeholders (``[high_speed]`` in tables.toml).  The Me 262 (card ability ``high_speed``) flies at high
speed at all times except while climbing or marked Climb [13.8.3]; its jet movement allowance is the basic
game's (8.2).  The Me 163's power settings and fuel [13.8.2] are ``rocket_fighter.py``; it is at high speed at
full power.
"""
from __future__ import annotations

from .model import CLIMB, SLOW_CLIMB, Squadron, State
from .tables import card, tables


def high_speed(state: State, sq: Squadron) -> bool:
    """Whether a squadron is at high speed now [13.8.1, 13.8.3]: an Me 163 at full power [13.8.2]."""
    if sq.power:
        return state.uses("13.8.2") and sq.power == "full"
    return (state.uses("13.8.3") and "high_speed" in card(sq.model)["abilities"]
            and sq.marker not in (CLIMB, SLOW_CLIMB))


def combat_modifier(state: State, lead: Squadron) -> int:
    """A high-speed lead's modifier to its Air Combat Table roll (placeholder)."""
    return int(tables()["high_speed"]["air_combat"]) if high_speed(state, lead) else 0


def reaction_modifier(state: State, mover: Squadron) -> int:
    """The modifier to escorts' reaction rolls against a high-speed attacker (placeholder)."""
    return int(tables()["high_speed"]["reaction"]) if high_speed(state, mover) else 0
