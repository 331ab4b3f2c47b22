"""The administrative step between games [campaign §C3-C6]: a side's orders, checked like any order.

    RECOVER <unit>           a damaged, wounded or lost unit back to fit, within the side's recoveries [§C3]
    REPLACE <unit>           a lost or captured unit by a fresh one of its kind, for a replacement point [§C4]
    PROMOTE <unit>           the next rank, for the definition's experience cost [§C5]
    CHOOSE <unit> [<unit>…]  the units that go into the next game, within its cap [§C6]

Each order is checked against the standing as the orders before it in the same file leave it, so a cap
counts every line; every problem is reported, with the rule and what would be legal, and a file with any
problem changes nothing.  A side's later file replaces its earlier one (:func:`resubmit`): it is checked
against the side's standing as it was before its first file of the step, GM edits since included.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from pbem.core.errors import Code, OrderProblem
from pbem.core.orders import OrderLine

from .definition import Definition
from .standing import AVAILABLE, RECOVERABLE, Standing, side_of, unit

FORM = """# Administrative step before the next game of the campaign.  One order a line:
#   RECOVER <unit>            damaged, wounded or lost back to fit (you may recover {recovery} more) [campaign §C3]
#   REPLACE <unit>            a lost or captured unit replaced, 1 replacement point each (you have {points}) [§C4]
#   PROMOTE <unit>            next rank ({ranks}) for {xp} experience [§C5]
#   CHOOSE <unit> [<unit>...] the units for the next game{cap} [§C6]; without CHOOSE every fit or damaged unit goes
"""


class Refused(Exception):
    def __init__(self, message: str, rule: str, code: Code = Code.ORDER_ILLEGAL) -> None:
        super().__init__(message)
        self.rule, self.code = rule, code


def check(st: Standing, defn: Definition, side: str, lines: Sequence[OrderLine]) -> tuple[Standing, list[OrderProblem]]:
    """The standing after the side's orders, and every problem (with any, the standing is unchanged)."""
    out = copy.deepcopy(st)
    problems: list[OrderProblem] = []
    for line in lines:
        verb, args = line.verb, list(line.words[1:])
        handler = VERBS.get(verb)
        try:
            if handler is None:
                raise Refused(f"unknown order {verb!r}; the administrative step takes RECOVER, REPLACE, PROMOTE "
                              "and CHOOSE", "campaign §C3-C6", Code.ORDER_SYNTAX)
            if not args or (verb != "CHOOSE" and len(args) != 1):
                raise Refused(f"{verb} takes {'one or more units' if verb == 'CHOOSE' else 'one unit'}",
                              "campaign §C3-C6", Code.ORDER_SYNTAX)
            handler(out, defn, side, args)
        except Refused as exc:
            problems.append(OrderProblem(line.line_no, line.text, exc.code, str(exc), exc.rule))
    return (st if problems else out), problems


def resubmit(st: Standing, defn: Definition, side: str, lines: Sequence[OrderLine]
             ) -> tuple[Standing, list[OrderProblem]]:
    """Like :func:`check`, but the side's earlier file of this step is replaced, not added to.

    The side's part of the standing before its first file is kept in ``admin_base`` (for this step only);
    a later file starts from it again.
    """
    base = st.get("admin_base") or {}
    start = st
    if base.get("index") == st["index"] and side in base.get("sides", {}):
        start = {**st, "sides": {**st["sides"], side: copy.deepcopy(base["sides"][side])}}
    new, problems = check(start, defn, side, lines)
    if problems:
        return st, problems
    kept = dict(base.get("sides", {})) if base.get("index") == st["index"] else {}
    kept[side] = copy.deepcopy(side_of(start, side))
    return {**new, "admin_base": {"index": st["index"], "sides": kept}}, []


def _unit(st: Standing, side: str, name: str, rule: str) -> dict[str, Any]:
    u = unit(st, side, name)
    if u is None:
        names = ", ".join(x["name"] for x in side_of(st, side)["units"]) or "none"
        raise Refused(f"you have no unit {name!r} (your units: {names})", rule)
    return u


def _recover(st: Standing, defn: Definition, side: str, args: list[str]) -> None:
    u = _unit(st, side, args[0], "campaign §C3")
    own = side_of(st, side)
    if u["status"] == "captured":
        raise Refused(f"{u['name']} is captured: only REPLACE brings a captured unit back", "campaign §C4")
    if u["status"] not in RECOVERABLE:
        raise Refused(f"{u['name']} is {u['status']}: RECOVER is for a damaged, wounded or lost unit", "campaign §C3")
    if own["recovery"] < 1:
        candidates = ", ".join(x["name"] for x in own["units"] if x["status"] in RECOVERABLE)
        raise Refused(f"no recoveries left (after your last game you may recover a share of your units out of "
                      f"action: {candidates or 'none'}); REPLACE a lost unit instead", "campaign §C3")
    own["recovery"] -= 1
    u.update(status="fit", detail={})


def _replace(st: Standing, defn: Definition, side: str, args: list[str]) -> None:
    u = _unit(st, side, args[0], "campaign §C4")
    own = side_of(st, side)
    if u["status"] not in ("lost", "captured"):
        raise Refused(f"{u['name']} is {u['status']}: only a lost or captured unit is replaced "
                      f"(RECOVER a damaged or wounded one)", "campaign §C4")
    if own["replacements"] < 1:
        raise Refused("no replacement points left (you have 0)", "campaign §C4")
    own["replacements"] -= 1
    u.update(status="fit", xp=0, rank="", detail={})


def _promote(st: Standing, defn: Definition, side: str, args: list[str]) -> None:
    u = _unit(st, side, args[0], "campaign §C5")
    if not defn.ranks:
        raise Refused("this campaign has no promotions", "campaign §C5")
    if u["status"] in ("lost", "captured"):
        raise Refused(f"{u['name']} is {u['status']}: promote a unit you have", "campaign §C5")
    at = defn.ranks.index(u["rank"]) + 1 if u["rank"] in defn.ranks else 0
    if at >= len(defn.ranks):
        raise Refused(f"{u['name']} holds the highest rank already ({u['rank']})", "campaign §C5")
    if u["xp"] < defn.promotion_xp:
        raise Refused(f"{u['name']} has {u['xp']} experience; a promotion costs {defn.promotion_xp}", "campaign §C5")
    u.update(rank=defn.ranks[at], xp=u["xp"] - defn.promotion_xp)


def _choose(st: Standing, defn: Definition, side: str, args: list[str]) -> None:
    picked = []
    for name in args:
        u = _unit(st, side, name, "campaign §C6")
        if u["status"] not in AVAILABLE:
            raise Refused(f"{u['name']} is {u['status']}: only a fit or damaged unit can be chosen", "campaign §C6")
        if u["name"] in picked:
            raise Refused(f"{u['name']} is chosen twice", "campaign §C6")
        picked.append(u["name"])
    cap = defn.slot(st["slot"]).cap.get(side)
    if cap is not None and len(picked) > cap:
        raise Refused(f"{len(picked)} units chosen; the next game ({defn.slot(st['slot']).title}) takes at most "
                      f"{cap} of yours", "campaign §C6")
    side_of(st, side)["chosen"] = picked


VERBS: dict[str, Callable[[Standing, Definition, str, list[str]], None]] = {
    "RECOVER": _recover, "REPLACE": _replace, "PROMOTE": _promote, "CHOOSE": _choose}


def form(st: Standing, defn: Definition, side: str) -> str:
    """The blank administrative order form for a side, listing its roster."""
    own = side_of(st, side)
    cap = defn.slot(st["slot"]).cap.get(side)
    lines = [FORM.format(recovery=own["recovery"], points=own["replacements"], xp=defn.promotion_xp,
                         ranks=", ".join(defn.ranks) or "none", cap=f" (at most {cap})" if cap else "")]
    lines += [f"#   {u['name']:<16} {u['kind']:<14} {u['status']:<9} xp {u['xp']}{' ' + u['rank'] if u['rank'] else ''}"
              for u in own["units"]]
    return "\n".join(lines) + "\n"
