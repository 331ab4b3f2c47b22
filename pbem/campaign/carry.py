"""Carry-over [campaign §C1-C4, C7]: a finished game's rosters and levels folded into the standing.

A unit's status is the game's; its experience adds up; the side may RECOVER a share of its units out of
action (by its level, rounded down) and gets replacement points and campaign VP by its level.  Then the
edge for the reference side's level names the next slot, or the campaign ends (a terminal slot, or a side
at the definition's ``vp_to_win``).
"""
from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.ruleset import CampaignUnit, carryover_of

from .definition import END, Definition
from .standing import RECOVERABLE, Standing, units_of


def after_game(st: Standing, defn: Definition, game_id: str, rosters: Mapping[str, Sequence[dict[str, Any]]],
               levels: Mapping[str, str], outcome_text: str) -> Standing:
    out = copy.deepcopy(st)
    for side, own in out["sides"].items():
        _merge(own["units"], rosters.get(side, ()))
        worth = defn.levels[levels[side]]
        out_of_action = sum(1 for u in own["units"] if u["status"] in RECOVERABLE)
        own["recovery"] = math.floor(worth.recovery * out_of_action + 0.5)  # the share, rounded half up
        own["replacements"] += worth.replacements
        own["vp"] += worth.vp
        own["chosen"] = None
    slot = defn.slot(out["slot"])
    out["games"].append({"game": game_id, "slot": slot.name, "title": slot.title, "levels": dict(levels),
                         "outcome": outcome_text})
    nxt = slot.after(levels[defn.reference_side])
    leader = max(out["sides"].items(), key=lambda kv: kv[1]["vp"])
    if nxt == END or (defn.vp_to_win and leader[1]["vp"] >= defn.vp_to_win):
        out["over"] = True
        out["result"] = final(out)
    else:
        out["slot"] = nxt
    return out


def final(st: Standing) -> dict[str, Any]:
    """The campaign's result: the side with the most campaign VP wins; equal VP is a draw."""
    vp = {side: own["vp"] for side, own in st["sides"].items()}
    best = max(vp.values())
    top = [side for side, v in vp.items() if v == best]
    return {"winner": top[0] if len(top) == 1 else None, "vp": vp}


def _merge(units: list[dict[str, Any]], game_roster: Sequence[dict[str, Any]]) -> None:
    """The game's units into the roster: the game's status, rank and detail; experience added up."""
    by_name = {u["name"]: u for u in units}
    for g in game_roster:
        u = by_name.get(g["name"])
        if u is None:
            units.append(dict(g))
            continue
        u.update(status=g["status"], detail=g["detail"], xp=u["xp"] + g["xp"], rank=u["rank"] or g["rank"])


def rosters(ruleset: Any, state: Any, sides: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Each side's own units as the game ended (the ruleset's ``roster``), as JSON."""
    hooks = carryover_of(ruleset)
    assert hooks is not None
    return {side: [u.as_json() for u in hooks.roster(state, side)] for side in sides}


def apply_carried(ruleset: Any, state: Any, carried_json: Mapping[str, list[dict[str, Any]]]) -> Any:
    """A freshly set-up state with the campaign's units put in (the game's creation and its replay both)."""
    hooks = carryover_of(ruleset)
    if hooks is None:
        raise ValueError(f"ruleset {ruleset.info.name} gives no Carryover: it cannot be in a campaign")
    units: dict[str, tuple[CampaignUnit, ...]] = units_of(dict(carried_json))
    return hooks.apply(state, units)
