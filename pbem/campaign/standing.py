"""The campaign's standing [campaign §C1, C7]: per side a roster of named units, replacement points, the
recoveries it may still make, campaign VP and its force choice; the campaign's flags, GM edits and results.

The standing is plain JSON, changed only by the pure functions of :mod:`.carry`, :mod:`.admin` and
:func:`gm_edit`, so ``pbem campaign replay`` folds the campaign's entries into it again and compares.
"""
from __future__ import annotations

import copy
from typing import Any

from pbem.core.ruleset import UNIT_STATUSES, CampaignUnit

from .definition import Definition

Standing = dict[str, Any]
#: Statuses of a unit that may take part in the next game.
AVAILABLE = ("fit", "damaged")
#: Statuses RECOVER may bring back [§C3] (captured units come back only by REPLACE [§C4]).
RECOVERABLE = ("damaged", "wounded", "lost")


def initial(defn: Definition, sides: tuple[str, ...]) -> Standing:
    return {"slot": defn.start, "index": 0, "games": [], "flags": [], "edits": [], "over": False,
            "result": None, "sides": {side: {"units": [], "replacements": 0, "recovery": 0, "vp": 0,
                                             "chosen": None} for side in sides}}


def side_of(st: Standing, side: str) -> dict[str, Any]:
    return st["sides"][side]


def unit(st: Standing, side: str, name: str) -> dict[str, Any] | None:
    """A unit of the side's roster by name (case-insensitive)."""
    return next((u for u in side_of(st, side)["units"] if u["name"].lower() == name.lower()), None)


def chosen(st: Standing, defn: Definition, side: str) -> list[str]:
    """The units the side takes into the next game [§C6]: its CHOOSE, else every available one up to the cap
    (fit before damaged, in roster order)."""
    own = side_of(st, side)
    if own["chosen"] is not None:
        return list(own["chosen"])
    ready = [u for u in own["units"] if u["status"] == "fit"] + [u for u in own["units"] if u["status"] == "damaged"]
    cap = defn.slot(st["slot"]).cap.get(side) if st["slot"] in defn.slots else None
    return [u["name"] for u in (ready if cap is None else ready[:cap])]


def carried(st: Standing, defn: Definition) -> dict[str, list[dict[str, Any]]]:
    """What each side takes into the next game: every roster unit with its status, "reserve" if not chosen."""
    out = {}
    for side, own in st["sides"].items():
        picked = set(chosen(st, defn, side))
        out[side] = [{**u, "status": u["status"] if u["name"] in picked or u["status"] not in AVAILABLE
                      else "reserve"} for u in own["units"]]
    return out


def units_of(carried_json: dict[str, list[dict[str, Any]]]) -> dict[str, tuple[CampaignUnit, ...]]:
    return {side: tuple(CampaignUnit.from_json(u) for u in units) for side, units in carried_json.items()}


GM_VERBS = {
    "STATUS": "STATUS <unit> <fit|damaged|wounded|lost|captured>",
    "XP": "XP <unit> <experience>",
    "VP": "VP <campaign VP>",
    "POINTS": "POINTS <replacement points>",
    "FLAG": "FLAG <name>",
    "UNFLAG": "UNFLAG <name>",
}


def gm_edit(st: Standing, side: str, words: list[str]) -> Standing:
    """The GM's edit of one side's standing (every side is told of it).  :raises ValueError: a bad edit."""
    verb = words[0].upper() if words else ""
    if verb not in GM_VERBS:
        raise ValueError(f"unknown edit {verb or '(none)'!r}; edits: {'; '.join(GM_VERBS.values())}")
    out = copy.deepcopy(st)
    if side not in out["sides"]:
        raise ValueError(f"no side {side!r} (sides: {', '.join(out['sides'])})")
    # a side's part kept from before its administrative orders (see admin.resubmit) takes the edit too,
    # so that a later file of the side, which starts again from it, keeps the GM's edit
    base = out.get("admin_base") or {}
    parts = [out["sides"][side]]
    if base.get("index") == out["index"] and side in base.get("sides", {}):
        parts.append(base["sides"][side])
    try:
        for own in parts:
            _edit_side(own, side, verb, words)
        if verb == "FLAG":
            out["flags"] = sorted(set(out["flags"]) | {words[1]})
        elif verb == "UNFLAG":
            out["flags"] = [f for f in out["flags"] if f != words[1]]
    except IndexError:
        raise ValueError(f"usage: {GM_VERBS[verb]}") from None
    out["edits"].append({"before_game": out["index"] + 1, "side": side, "text": " ".join(words)})
    return out


def _edit_side(own: dict[str, Any], side: str, verb: str, words: list[str]) -> None:
    if verb in ("STATUS", "XP"):
        u = next((x for x in own["units"] if x["name"].lower() == words[1].lower()), None)
        if u is None:
            raise ValueError(f"{side} has no unit {words[1]!r}")
        if verb == "STATUS":
            if words[2] not in UNIT_STATUSES:
                raise ValueError(f"status must be one of {', '.join(UNIT_STATUSES)}")
            u["status"] = words[2]
        else:
            u["xp"] = int(words[2])
    elif verb == "VP":
        own["vp"] = int(words[1])
    elif verb == "POINTS":
        own["replacements"] = int(words[1])


def view(facts: dict[str, Any], side: str) -> dict[str, Any]:
    """The campaign standing one side's sitrep shows: its own roster only, everyone's campaign VP, the
    results and GM edits every side was told of.  Fog holds across games: no enemy unit is named."""
    own = facts["sides"].get(side, {})
    return {"title": facts["title"], "game": facts["index"], "slot": facts["slot_title"],
            "vp": {s: v["vp"] for s, v in facts["sides"].items()}, "results": facts["games"],
            "edits": facts["edits"], "flags": facts["flags"], "units": own.get("units", []),
            "replacements": own.get("replacements", 0), "carried_hash": facts["carried_hash"]}


def public(st: Standing) -> dict[str, Any]:
    """What anyone may see of a campaign: each side's campaign VP, the games and their results, the GM's
    edits and flags and the final result; no roster, no points, no choice of any side."""
    return {"slot": st["slot"], "index": st["index"], "games": st["games"], "flags": st["flags"],
            "edits": st["edits"], "over": st["over"], "result": st["result"],
            "vp": {side: own["vp"] for side, own in st["sides"].items()}}
