"""What of a Chase of the Bismarck game carries over into the next game of a campaign (pbem.campaign).

Ships are the named units, by their ids.  A ship sunk (or lost for want of fuel) is lost; one with hits,
rudder damage or lost radar ends damaged; every ship carries its fuel and damage boxes [9, 7.7] into the
next game, which is how Bismarck's damage and fuel from Rheinübung reach the last dash.  A ship in action
(attacked at least once) gains one experience.  In the next game a ship the campaign holds out of action is
left out of the set-up, with her air units and the contacts on her; a recovered or replaced ship (no
detail) starts as the scenario sets her up.  The rulebook has no campaign rules: these are placeholders.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.ruleset import CampaignUnit, Carryover, Outcome

from .model import State
from .victory import victory

CARRIED = ("fuel", "hits", "hull", "bow", "stern", "sec", "rudder", "radar_lost", "fire_control")


def roster(state: State, side: str) -> tuple[CampaignUnit, ...]:
    out = []
    for x in state.ships:
        if x.side != side:
            continue
        lost = x.status in ("sunk", "removed")
        damaged = x.hits > 0 or x.rudder or x.radar_lost
        status = "lost" if lost else "damaged" if damaged else "fit"
        detail = {} if lost else {k: getattr(x, k) for k in CARRIED}
        out.append(CampaignUnit(x.id, x.cls, status, int(bool(x.engaged) and not lost), "", detail))
    return tuple(out)


def apply(state: State, carried: Mapping[str, Sequence[CampaignUnit]]) -> State:
    """The set-up with the campaign's ships: those out of action left out, the others with their damage and fuel."""
    units = {u.name: u for side in carried.values() for u in side}
    out = {x.id for x in state.ships if x.id in units and units[x.id].status not in ("fit", "damaged")}
    ships = []
    for x in state.ships:
        u = units.get(x.id)
        if x.id in out:
            continue
        if u is not None and u.detail:
            d = dict(u.detail)
            fuel = min(int(d.get("fuel", x.fuel)), x.fuel_max) if x.fuel_max else x.fuel
            x = replace(x, fuel=fuel, **{k: d[k] for k in CARRIED if k in d and k != "fuel"})
        ships.append(x)
    return replace(state, ships=tuple(ships), air=tuple(a for a in state.air if a.base not in out),
                   contacts=tuple(c for c in state.contacts if c.unit not in out),
                   reinforcements=tuple(r for r in state.reinforcements if r[0] not in out),
                   releases=tuple(r for r in state.releases if r[0] not in out),
                   lifts=tuple(r for r in state.lifts if r[0] not in out))


def margin(state: State, outcome: Outcome) -> str:
    """A strategic victory, or Bismarck sunk, is major; an operational victory minor [4]."""
    return "major" if state.ended == "sunk" or "Strategic" in victory(state)["level"] else "minor"


CARRYOVER = Carryover(roster=roster, apply=apply, margin=margin)
