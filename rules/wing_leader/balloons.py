"""Barrage balloons [14.3]: set up by the scenario at altitude 0-2, never moving.

* **Zone.** A balloon makes a barrage flak zone of strength 0 in its square and every square below it; it works
  as any barrage (friend and foe entering, turning or circling there, 14.2.3) and supports other units'
  barrage attacks (+1 as an additional unit).  No Barrage marker may be put so that its zone overlaps a
  balloon's (14.2.2).  The zone and the attack are ``flak.py``'s (``flak.balloon_gun``).
* **Attacking one.** A sweep squadron within three squares of a balloon may pursue it without a roll
  (``BALLOON <sq> <balloon>`` in the movement window: the pursuit marker is placed at once); it then flies the
  shortest path to the balloon's square [9.2.5] and is not attacked by that balloon's zone.  In the Combat
  Phase, in the balloon's square and in no air combat with enemy squadrons (reading: no enemy squadron shares
  the square), it attacks: only the attacker rolls, its better rating (speed or turn) against the balloon's 0
  gives the column, and every hit is a loss (Protection 0).  Ammunition is spent and the attacker checks
  cohesion as after a combat.  At three losses the balloon and its zone are gone [14.3].
"""
from __future__ import annotations

from dataclasses import replace

from pbem.core.errors import IllegalOrderError
from pbem.core.work import Work

from . import combat, movement
from .air import Air
from .fog import dice_seen_by, tell
from .model import Squadron, State
from .sky import distance, name
from .surface import BALLOON_MAX_LOSSES, Balloon

PURSUIT_RANGE = 3


def balloon(state: State, bid: str) -> Balloon | None:
    return next((b for b in state.balloons if b.id == bid.upper() and b.up), None)


def pursuit_problem(state: State, sq: Squadron, bid: str) -> str:
    """Why ``sq`` may not pursue balloon ``bid`` ("" if it may) [14.3]."""
    b = balloon(state, bid)
    if b is None:
        up = ", ".join(x.id for x in state.balloons if x.up) or "none"
        return f"no barrage balloon {bid.upper()} up (balloons: {up})"
    if b.side == sq.side:
        return f"{b.id} is a balloon of your own side"
    if sq.mission != "sweep" or not sq.on_map:
        return f"only squadrons on a sweep attack balloons; {sq.id} is on {sq.mission}"
    if sq.broken or sq.ammo >= 2 or not sq.armed:
        return f"{sq.id} cannot attack: broken, unarmed or out of ammunition"
    d = distance(sq.at, b.at)
    return "" if d <= PURSUIT_RANGE else f"{b.id} is {d} squares from {sq.id}, more than {PURSUIT_RANGE}"


def check_order(state: State, sq: Squadron, bid: str) -> None:
    """:raises IllegalOrderError: the ``BALLOON`` order may not be given (rule 14.3)."""
    if not state.uses("14.3"):
        raise IllegalOrderError("this scenario has no barrage balloons", rule="14.3")
    problem = pursuit_problem(state, sq, bid)
    if problem:
        raise IllegalOrderError(problem, rule="14.3")


def plan(air: Air, sq: Squadron) -> list[str]:
    """The shortest path to the pursued balloon's square [9.2.5]."""
    b = balloon(air.state, sq.balloon)
    return [] if b is None else movement.approach(sq, b.at, movement.allowance(sq))


def _in_air_combat(air: Air, sq: Squadron) -> bool:
    return any(s.on_map and s.side != sq.side and s.at == sq.at for s in air.squadrons.values())


def attacks(w: Work[Air]) -> None:
    """The Combat Phase: each squadron in its pursued balloon's square and in no air combat attacks it [14.3]."""
    air = w.data
    for sq in [s for s in air.squadrons.values() if s.balloon and s.on_map]:
        b = balloon(air.state, sq.balloon)
        if b is None:
            air.put(sq.move(balloon=""))
            continue
        if sq.at != b.at or _in_air_combat(air, sq):
            continue
        _attack(w, sq, b)


def _attack(w: Work[Air], sq: Squadron, b: Balloon) -> None:
    air = w.data
    own = max(combat.rating(sq, [sq], combat.SPEED), combat.rating(sq, [sq], combat.TURN))
    col = combat.column(own, 0)
    seen = dice_seen_by(w, [sq.id])
    roll = w.roll(6, f"{sq.id} attacks balloon {b.id}", seen_by=seen) + w.roll(6, f"{sq.id} attacks balloon {b.id}",
                                                                            seen_by=seen)
    hits = combat.hits(col, roll)
    down = replace(b, losses=min(b.losses + hits, BALLOON_MAX_LOSSES))
    air.state = replace(air.state, balloons=tuple(down if x.id == b.id else x for x in air.state.balloons))
    gone = "; it is down, its zone gone" if not down.up else ""
    tell(w, f"{sq.id} attacks barrage balloon {b.id} in {name(b.at)}: column {col:+d}, rolled {roll}: "
         f"{hits} hit{'s' if hits != 1 else ''}, each a loss; {b.id} has {down.losses} of {BALLOON_MAX_LOSSES}"
         f"{gone} (14.3)", [sq.id], kind="balloon", balloon=b.id, hits=hits)
    sq = combat.spend_ammo(air.squadron(sq.id)).move(balloon="" if not down.up else sq.balloon)
    air.put(sq)
    _cohesion(w, sq)


def _cohesion(w: Work[Air], sq: Squadron) -> None:
    """The attacker's cohesion check, as after a combat [10.7, 14.3]."""
    air = w.data
    seen = dice_seen_by(w, [sq.id])
    roll = w.roll(6, f"{sq.id} cohesion", seen_by=seen) + w.roll(6, f"{sq.id} cohesion", seen_by=seen)
    mod = combat.cohesion_modifier(sq, 0, air.state.sky.weather_at(sq.at))
    levels = combat.disruption(sq, roll + mod)
    after = combat.broken_effects(combat.disrupt(sq, levels))
    air.put(after)
    state = "broken" if after.broken else f"{levels} disruption level{'s' if levels != 1 else ''}"
    tell(w, f"{sq.id} cohesion: rolled {roll}{mod:+d} = {roll + mod}: {state} (10.7, 14.3)", [sq.id], kind="cohesion")


def bot_lines(state: State, sq: Squadron, roll: int) -> list[str]:
    """A bot's sweep near an enemy balloon goes for it when ``roll`` is 1 (so bot games exercise 14.3)."""
    if not state.uses("14.3") or sq.balloon or sq.tally or roll != 1:
        return []
    near = [b for b in state.balloons if b.up and not pursuit_problem(state, sq, b.id)]
    return [f"BALLOON {sq.id} {near[0].id}"] if near else []


def form_lines(state: State, sq: Squadron) -> list[str]:
    """The form's line for a sweep that may attack a balloon, or pursues one [14.3]."""
    if not state.uses("14.3"):
        return []
    if sq.balloon:
        return [f"#   pursues barrage balloon {sq.balloon} (14.3): it flies to it and attacks in the Combat Phase"]
    near = [b.id for b in state.balloons if b.up and not pursuit_problem(state, sq, b.id)]
    return [f"#   BALLOON {sq.id} {'|'.join(near)} to attack a barrage balloon (14.3)"] if near else []
