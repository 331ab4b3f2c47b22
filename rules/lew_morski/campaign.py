"""What of a Lew Morski game carries over into the next game of a campaign (pbem.campaign).

Aircraft are the named units, by their ids (Spit-1, He111-3): an aircraft shot down is lost, one that ends
the game damaged is damaged, every other comes home fit with one sortie of experience (a placeholder
measure; the rulebook has no campaign rules).  A promoted pilot flies as a commander [R 2.1.1: the
commander's counter side].  In the next game an aircraft the campaign holds out of action is left out of the
set-up; a damaged one starts damaged [R 5.2].
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.ruleset import CampaignUnit, Carryover, Outcome

from .setup import scenario_data
from .state import State

PROMOTED = "commander"


def roster(state: State, side: str) -> tuple[CampaignUnit, ...]:
    """The side's aircraft as the game ends."""
    out = []
    for a in state.aircraft:
        if a.side != side:
            continue
        lost = a.status == "destroyed"
        status = "lost" if lost else "damaged" if a.damaged else "fit"
        out.append(CampaignUnit(a.id, a.type, status, 0 if lost else 1, PROMOTED if a.commander else ""))
    return tuple(out)


def apply(state: State, carried: Mapping[str, Sequence[CampaignUnit]]) -> State:
    """The set-up state with the campaign's aircraft: those out of action left out, the damaged damaged."""
    units = {u.name: u for side in carried.values() for u in side}
    kept = []
    for a in state.aircraft:
        u = units.get(a.id)
        if u is None:
            kept.append(a)
        elif u.status in ("fit", "damaged"):
            kept.append(replace(a, damaged=u.status == "damaged", commander=a.commander or u.rank == PROMOTED))
    return replace(state, aircraft=tuple(kept))


def margin(state: State, outcome: Outcome) -> str:
    """A full victory [R 8.2] (the winner reached its minimum VP) is major; a minimal one minor."""
    sc = scenario_data(state.scenario)
    vp = {"de": state.vp_de, "gb": state.vp_gb}
    w = outcome.winner or ""
    return "major" if w in vp and vp[w] >= sc[w]["min_vp"] else "minor"


CARRYOVER = Carryover(roster=roster, apply=apply, margin=margin)
