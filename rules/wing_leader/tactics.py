"""Special tactics [13.4]: the bounce [13.4.1].

A bounce is decided from the position (nobody chooses it): a lone defending squadron is bounced when the
attacking lead came into its square from the sun's side, or when it is a fighter that is unalert or pursues a
squadron outside its own square; never a defending fighter that pursues one of its attackers or is in a
dogfight.  The bounce's modifiers are placeholders (``[advanced_combat]`` in tables.toml).
"""
from __future__ import annotations

from collections.abc import Sequence

from .model import Squadron, State
from .tables import tables


def from_sun(state: State, attacker: Squadron, target: Squadron) -> bool:
    """The attacking lead entered its target's square from a square up-sun of the target [4.6.2] (our reading:
    the two Movement Points spent on the sun's side before it are not tracked; the square it came from is)."""
    came = attacker.entered_from
    return came is not None and came != target.at and state.sky.up_sun(target.at, came)


def bounce(state: State, alead: Squadron, defenders: Sequence[Squadron], attackers: Sequence[Squadron],
           everyone: Sequence[Squadron]) -> str:
    """Why the attack is a bounce [13.4.1], or "" when it is not (or the rule is off)."""
    if not state.uses("13.4.1") or len(defenders) != 1:
        return ""
    d = defenders[0]
    if d.fighter and (d.tally in {a.id for a in attackers} or d.dogfight):
        return ""
    if state.uses("13.4.3") and d.lufbery and not d.broken:   # a Lufbery circle is never bounced [13.4.3]
        return ""
    if from_sun(state, alead, d):
        return f"{alead.id} came out of the sun"
    if d.fighter and not d.alert:
        return f"{d.id} is unalert"
    target = next((s for s in everyone if s.id == d.tally), None)
    if d.fighter and target is not None and target.at != d.at:
        return f"{d.id} is pursuing {target.id} outside its square"
    return ""


def modifiers() -> tuple[int, int]:
    """The bounce's modifiers to the attacker's and the defender's Air Combat Table rolls (placeholders)."""
    t = tables()["advanced_combat"]
    return int(t["bounce_attacker"]), int(t["bounce_defender"])


def evades(state: State, alead: Squadron, defenders: Sequence[Squadron], bounced: str, choice: str) -> bool:
    """Whether the defence evades [13.4.2]: its lead's standing ``EVADE`` says YES; nobody is bounced; every
    defender is a bomber or an alert fighter and has a Basic Speed at least the attacking lead's (also in a
    turning fight); never a defence in a Lufbery circle [13.4.3].  Not built: bombing approaches, which would
    forbid it too."""
    if not state.uses("13.4.2") or choice != "YES" or bounced:
        return False
    if any(d.lufbery and not d.broken for d in defenders):   # a Lufbery circle does not evade [13.4.3]
        return False
    speed = alead.basic()[0]
    return all((not d.fighter or d.alert) and d.basic()[0] >= speed for d in defenders)


def evasion_modifier() -> int:
    """Evasion's modifier to both Air Combat Table rolls (placeholder)."""
    return int(tables()["advanced_combat"]["evasion"])
