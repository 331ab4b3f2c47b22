"""What of a Wing Leader game carries over into the next raid of a campaign (pbem.campaign).

The named units are the squadrons, by their counter letters (A, K ...), the same letter in every scenario of
the campaign.  The rulebook has no campaign rules; the wear below is ours (placeholder):

- a squadron removed at its Max Losses [10.6] is lost; the flights it split into [9.3] count as the squadron;
- the losses it took and a straggler it brought home stay with it, as ``detail`` {"losses", "straggler"}.  In
  the next game a squadron with two losses or more flies as a flight [3.1] (half a squadron's Max Losses of 4),
  one with a single loss carries a straggler marker [10.6.1], and a straggler stays a straggler.  Losses are
  never put on the Wing Display itself, since each loss there is worth victory points to the enemy [12.1];
- every squadron that survives earns one raid of experience; a promotion raises its quality [5.2.1] (green,
  trained, veteran), the rank being the quality it flies at from then on; a squadron rebuilt with new pilots
  (replaced) flies green.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.ruleset import CampaignUnit, Carryover, Outcome

from .model import DESTROYED, State
from .tables import scenario
from .victory import points

QUALITIES = ("green", "trained", "veteran")
WORN = 2   # carried losses from which a squadron is reformed as a flight


def _parent(sid: str, ids: set[str]) -> str:
    """The squadron a flight split from [9.3] (A1, A2 -> A), or the id itself."""
    base = re.sub(r"\d+$", "", sid)
    return base if base != sid and base in ids else sid


def roster(state: State, side: str) -> tuple[CampaignUnit, ...]:
    """The side's squadrons as the raid ends, cumulative losses in ``detail``."""
    rows = {r["id"]: r for r in scenario(state.scenario)["squadrons"]}
    groups: dict[str, list] = {}
    for q in state.squadrons:
        if q.side == side:
            groups.setdefault(_parent(q.id, set(rows)), []).append(q)
    out = []
    for sid, parts in groups.items():
        row = rows.get(sid, {})
        worn = WORN if parts[0].flight and len(parts) == 1 and not row.get("flight") else 0
        losses = worn + sum(q.losses for q in parts)
        straggler = any(q.straggler and q.status != DESTROYED for q in parts)
        quality = max((q.quality for q in parts), key=QUALITIES.index)
        rank = "" if quality == "green" else quality
        if all(q.status == DESTROYED for q in parts):
            out.append(CampaignUnit(sid, parts[0].model, "lost", 0, rank, {}))
            continue
        status = "damaged" if losses or straggler else "fit"
        out.append(CampaignUnit(sid, parts[0].model, status, 1, rank, {"losses": losses, "straggler": straggler}))
    return tuple(out)


def apply(state: State, carried: Mapping[str, Sequence[CampaignUnit]]) -> State:
    """The set-up with the campaign's squadrons: those out of action left out, the worn reformed as flights or
    carrying a straggler, each at the better of its scenario quality and its rank."""
    units = {u.name: u for side in carried.values() for u in side}
    kept = []
    for q in state.squadrons:
        u = units.get(q.id)
        if u is None:
            kept.append(q)
            continue
        if u.status not in ("fit", "damaged"):
            continue
        losses = int(u.detail.get("losses", 0)) if u.status == "damaged" else 0
        straggler = bool(u.detail.get("straggler")) and u.status == "damaged"
        quality = max(q.quality, u.rank if u.rank in QUALITIES else q.quality, key=QUALITIES.index)
        if _fresh(u):
            quality = "green"
        kept.append(q.move(flight=q.flight or losses >= WORN, straggler=q.straggler or straggler or losses == 1,
                           quality=quality))
    return replace(state, squadrons=tuple(kept))


def _fresh(u: CampaignUnit) -> bool:
    """A squadron the campaign rebuilt (REPLACE, or RECOVER after it was shot down in its first raid): fit,
    with no experience, rank or record of a raid flown (a squadron back from a raid always has one)."""
    return u.status == "fit" and not u.xp and not u.rank and not u.detail


def margin(state: State, outcome: Outcome) -> str:
    """Major when the winner scored at least twice the loser's victory points [12.1] (ours: placeholder)."""
    vp = points(state)
    w = outcome.winner or ""
    if w not in vp:
        return "minor"
    other = sum(v for s, v in vp.items() if s != w)
    return "major" if vp[w] >= 2 * max(other, 1) else "minor"


CARRYOVER = Carryover(roster=roster, apply=apply, margin=margin)
