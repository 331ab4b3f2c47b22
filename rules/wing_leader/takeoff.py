"""Takeoff from airfields and carriers [13.7, 13.7.1].

A scenario row ``base = "<surface unit>"`` (with ``arrive = {turn = N}``, the first turn it may go; turn 1 when
not given) keeps the squadron on that airfield or carrier (a rule-14 surface unit) until it takes off.  In the
Movement Phase at most one squadron or flight takes off from each base a turn; none from a base with heavy damage
or worse [14.1.1] or from an immobile carrier [14.1.3].  It is placed in the base's square (altitude 0) facing
left or right as its owner chooses, spends no MP that phase, and carries a Slow marker (speed and turn 0, 3.3.2)
until the next Movement Phase begins.  A carrier's defensive modifier counts 0 in a turn a squadron took off from
it (13.7.1: ``Surface.launched_turn``).

Orders: ``TAKEOFF <sq> E|W`` in the movement window chooses the squadron and its facing; a base nobody names
launches its first waiting squadron (the scenario's order) facing the enemy's edge, so a scenario's squadrons go
up as soon as they may (reading: holding one back is not offered).  Checked at ingest: its base, its turn, the
base's damage, one a base a message.
"""
from __future__ import annotations

from collections.abc import Mapping

from .model import WAITING, Squadron, State
from .sky import HEADINGS
from .surface import Surface
from .tables import scenario


def waiting(state: State, base: str) -> list[Squadron]:
    """The squadrons still on ``base`` that may take off this turn, in the scenario's order."""
    return [s for s in state.squadrons if s.base == base and s.status == WAITING and s.arrives <= state.turn]


def base_problem(unit: Surface) -> str | None:
    """Why nothing takes off from ``unit`` now, or None [13.7]."""
    if unit.takeoff_prohibited:
        return f"{unit.id} has {unit.level} damage: nothing takes off from it (13.7, 14.1.1)"
    if unit.ship and unit.immobile:
        return f"{unit.id} is immobile: nothing takes off from it (13.7, 14.1.3)"
    return None


def takeoff_problem(state: State, sq: Squadron) -> str | None:
    """Why ``sq`` may not take off now, or None [13.7]."""
    if not state.uses("13.7"):
        return "this scenario does not use takeoffs"
    if not sq.base or sq.status != WAITING:
        return f"{sq.id} is not waiting on an airfield or carrier"
    if sq.arrives > state.turn:
        return f"{sq.id} may take off from turn {sq.arrives} on"
    return base_problem(state.surface(sq.base))


def default_facing(state: State, sq: Squadron) -> str:
    """Toward the enemy's edge: the side's own edge is behind it."""
    own = str(scenario(state.scenario)["edges"][sq.side])
    return "E" if own == "W" else "W"


def launches(state: State, chosen: Mapping[str, str]) -> list[tuple[Squadron, str]]:
    """This turn's takeoffs, one a base at most [13.7]: the squadron its owner named (``chosen``: id ->
    facing), else the base's first waiting squadron facing the enemy's edge; none from a base that may not
    launch."""
    out = []
    for base in dict.fromkeys(s.base for s in state.squadrons if s.base and s.status == WAITING):
        ready = waiting(state, base)
        if not ready or base_problem(state.surface(base)):
            continue
        named = [s for s in ready if s.id in chosen]
        sq = named[0] if named else ready[0]
        out.append((sq, chosen.get(sq.id) or default_facing(state, sq)))
    return out


def placed(sq: Squadron, unit: Surface, facing: str) -> Squadron:
    """The squadron as it takes off: in the base's square, facing left or right, Slow [13.7]."""
    return sq.move(status="on", at=unit.at, heading=HEADINGS.index(facing), slow=True, base="", entered_from=None)


def blocked(state: State) -> list[str]:
    """Why a base with squadrons ready cannot launch this turn (to tell their owners)."""
    bases = dict.fromkeys(s.base for s in state.squadrons if s.base and s.status == WAITING)
    return [why for b in bases if waiting(state, b) for why in [base_problem(state.surface(b))] if why]


def form_line(state: State, sq: Squadron) -> list[str]:
    """The order form's line for a squadron on an airfield or carrier [13.7]."""
    if not sq.base or sq.status != WAITING:
        return []
    why = takeoff_problem(state, sq)
    if why:
        return [f"#   on {sq.base}: {why}"]
    return [f"#   on {sq.base}: TAKEOFF {sq.id} E|W takes it off this turn (one a base a turn; it moves next turn, "
            f"Slow until then; else {sq.base} launches its first waiting squadron facing "
            f"{default_facing(state, sq)}) (13.7)"]
