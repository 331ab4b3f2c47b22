"""What of an Axis & Allies Miniatures game carries over into the next battle of a campaign (pbem.campaign).

The named units are the scenario's unit ids (sherman_1, grenadier_2, p47 ...), the same id in every scenario
of the campaign.  The fragment of the rulebook has no campaign rules and no experience rules; the following is
ours (placeholder):

- a vehicle or an aircraft destroyed is lost; a soldier or gun crew destroyed [L286-L338] is wounded when its side won or
  drew the battle (its comrades brought it back; the campaign may RECOVER it), captured when its side lost;
- a vehicle that ends the battle Damaged stays Damaged [L320: the red marker is permanent] and starts the next
  battle so; Disrupted markers are gone at the Casualty Phase and never carry over [L288];
- every unit that lives earns one battle of experience.  A promoted unit is a veteran by name only: the rules
  give veterans nothing, so the rank changes no number of the game (a club may add an effect later).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.ruleset import CampaignUnit, Carryover, Outcome

from .game import outcome as game_outcome
from .model import SIDES, State, Unit, other
from .tables import AIRCRAFT, VEHICLE


def _live(state: State) -> tuple[Unit, ...]:
    return (*state.units, *state.reserve, *state.cargo)


def roster(state: State, side: str) -> tuple[CampaignUnit, ...]:
    """The side's units as the battle ends: alive (fit or damaged) or out (lost, wounded, captured)."""
    result = game_outcome(state)
    beaten = result is not None and result.winner not in (None, side)
    out = [CampaignUnit(u.id, u.card, "damaged" if u.damaged else "fit", 1, "", {"damaged": u.damaged})
           for u in _live(state) if u.side == side]
    for u in state.lost:
        if u.side == side:
            status = "lost" if u.stats.kind in (VEHICLE, AIRCRAFT) else "captured" if beaten else "wounded"
            out.append(CampaignUnit(u.id, u.card, status, 0, "", {}))
    return tuple(out)


def apply(state: State, carried: Mapping[str, Sequence[CampaignUnit]]) -> State:
    """The set-up with the campaign's units: those out of action left out, damaged vehicles Damaged."""
    units = {(side, u.name): u for side, us in carried.items() for u in us}

    def keep(us: tuple[Unit, ...]) -> tuple[Unit, ...]:
        kept = []
        for u in us:
            c = units.get((u.side, u.id))
            if c is None:
                kept.append(u)
            elif c.status in ("fit", "damaged"):
                damaged = c.status == "damaged" and u.stats.kind == VEHICLE
                kept.append(u.but(damaged=u.damaged or damaged))
        return tuple(kept)

    ids = {u.id for u in keep(_live(state))}
    cargo = tuple(u for u in keep(state.cargo) if u.aboard in ids)
    return replace(state, units=keep(state.units), reserve=keep(state.reserve), cargo=cargo,
                   command=tuple((uid, seat) for uid, seat in state.command if uid in ids))


def margin(state: State, outcome: Outcome) -> str:
    """Major when the loser has no unit left on the field; any other win is minor (placeholder)."""
    if outcome.winner not in SIDES:
        return "minor"
    return "minor" if any(u.side == other(outcome.winner) for u in state.units) else "major"


CARRYOVER = Carryover(roster=roster, apply=apply, margin=margin)
