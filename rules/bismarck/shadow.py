"""The Shadow Phase [6] by standing orders.

The Allied player's choices are standing orders kept in the state:

* ``SHADOW ON|OFF`` — attempt (by the default choice below) on every Sighted German unit, or on none;
* ``SHADOW <contact|hex> WITH <TF|ship[,ship...]> [SPLIT]`` — which naval unit(s) shadow that contact;
  ``SPLIT`` detaches the named ships from their task force for the attempt [6];
* ``SHADOW <contact|hex> OFF`` — no attempt on that contact;
* ``ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>]`` — after a German Diversion
  Maneuver, which part to shadow (the fast part costs +2); ``BOTH`` splits the shadowing group, the
  ``FAST=`` ships (else the fastest one) following the fast part [6].

Where no order covers a decision a default applies and the Allied report says which:
the unit in the hex (a ship or a whole task force, nothing is split) whose slowest ship is fastest
shadows; after a Diversion a group of two or more ships splits to follow both parts, a
single ship follows the slow part.
"""
from __future__ import annotations

from pbem.core.texts import t_

import re
from dataclasses import replace

from . import tables as T
from .model import Ship
from .work import SIDES, Work

CONTACT_RE = re.compile(r"^C[0-9]+$")


def _target_orders(w: Work, verb: str, cid: str, h: str) -> list[str] | None:
    """The per-contact standing order for contact ``cid`` (by id first, then by hex)."""
    lines = [ws for ws in w.std_lines("allied", verb) if len(ws) >= 3 and ws[1].upper() not in ("FAST", "SLOW", "BOTH")]
    for key in (cid, h):
        for ws in reversed(lines):
            if ws[1].upper() == key:
                return ws
    return None


def _global(w: Work, verb: str) -> list[str] | None:
    lines = [ws for ws in w.std_lines("allied", verb) if len(ws) == 2 or ws[1].upper() in ("FAST", "SLOW", "BOTH")]
    return lines[-1] if lines else None


def _tf_shadowed(w: Work, tf: str | None) -> bool:
    c = w.contact_on(tf) if tf else None
    return bool(c and c.holder == "german" and c.status == "shadowed")


def _free_tf(w: Work, side: str) -> str:
    used = {x.tf for x in w.ships.values() if x.tf}
    prefix = "KG" if side == "german" else "TF"
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def split_off(w: Work, ids: list[str]) -> None:
    """Detach ``ids`` from their task force as one new unit (a TF if two or more) [6, 7.2]."""
    ships = [w.ships[s] for s in ids]
    side = ships[0].side
    new = _free_tf(w, side) if len(ids) > 1 else None
    for x in ships:
        w.set(x.id, tf=new)
    w.dissolve_small_tfs()


def _default_group(w: Work, mine: list[Ship]) -> tuple[list[Ship], str]:
    """No order: the unit in the hex (as it stands, no split) whose slowest ship is fastest."""
    units = sorted({w.unit_of(x.id) for x in mine})
    groups = [[x for x in w.unit_ships(u) if x in mine] for u in units]
    groups = [g for g in groups if g]
    best = sorted(groups, key=lambda g: (-min(x.er_now for x in g), -max(x.radar for x in g), w.unit_of(g[0].id)))[0]
    return best, w.unit_of(best[0].id)


def _ordered_group(w: Work, order: list[str], mine: list[Ship]) -> tuple[list[Ship] | None, str]:
    """The ships a ``SHADOW <c> WITH <who> [SPLIT]`` order names, as they stand now."""
    who = order[3]
    here = {x.id for x in mine}
    tf = w.unit_ships(who.upper())
    if tf and len(tf) > 1 and tf[0].tf == who.upper():
        ships = [x for x in tf if x.id in here]
        if len(ships) != len(tf):
            return None, f"{who.upper()} is not in the contact's hex"
        return ships, who.upper()
    return _named_group(w, [s.lower() for s in who.split(",")], here, len(order) > 4 and order[4].upper() == "SPLIT")


def _named_group(w: Work, ids: list[str], here: set[str], split: bool) -> tuple[list[Ship] | None, str]:
    """Named ships shadow, split from their TF if the order says SPLIT and the TF is not Shadowed [6];
    otherwise their whole TF does."""
    ships = [w.ships[s] for s in ids if s in w.ships and s in here]
    if len(ships) != len(ids):
        return None, f"{','.join(ids)} is not (all) in the contact's hex or already shadowing"
    tfs = sorted({x.tf for x in ships if x.tf})
    for tf_id in tfs:
        whole = w.unit_ships(tf_id)
        if {x.id for x in whole} <= set(ids):
            continue
        if _tf_shadowed(w, tf_id):
            return whole, f"the whole {tf_id}: it is Shadowed and may not split [6]"
        if not split:
            return whole, f"the whole {tf_id} (the order does not say SPLIT)"
    if any(x.tf and {y.id for y in w.unit_ships(x.tf)} - set(ids) for x in ships):
        split_off(w, [x.id for x in ships])
        ships = [w.ships[x.id] for x in ships]
        return ships, f"{', '.join(ids)}, split from {', '.join(tfs)}"
    return ships, ", ".join(ids)


def _diversion_choice(w: Work, cid: str, h: str, group: list[Ship]) -> tuple[str, list[str], str]:
    """(FAST|SLOW|BOTH, fast-team ship ids, how chosen) for the Allied reply to a Diversion [6]."""
    order = _target_orders(w, "ON_DIVERSION", cid, h)
    how = "by your order"
    if order is not None:
        args = order[2:]
    else:
        g = _global(w, "ON_DIVERSION")
        if g is not None:
            args = g[1:]
        else:
            args = ["BOTH" if len(group) > 1 else "SLOW"]
            how = "by default (no ON_DIVERSION order)"
    choice = args[0].upper()
    fast_team: list[str] = []
    if choice == "BOTH":
        ids = [x.id for x in group]
        named = [s.lower() for a in args[1:] if a.upper().startswith("FAST=") for s in a[5:].split(",")]
        fast_team = [s for s in named if s in ids]
        if len(group) < 2:
            return "SLOW", [], f"{how}, but a single ship cannot follow both parts: the slow part"
        if any(_tf_shadowed(w, x.tf) for x in group):
            return "SLOW", [], f"{how}, but a Shadowed task force may not split [6]: the slow part"
        if not fast_team or len(fast_team) >= len(ids):
            fast_team = [sorted(group, key=lambda x: (-x.er_now, x.id))[0].id]
    return choice, fast_team, how


def shadow_phase(w: Work, dice) -> None:
    """Allied naval shadow attempts on Sighted German units [6]; one attempt per Sighted unit."""
    s = w.s
    on = (_global(w, "SHADOW") or ["SHADOW", "ON"])[1].upper() == "ON"
    shadowers: list[str] = []
    shadowed_now: list[str] = []
    for c in sorted(w.contacts, key=lambda c: c.cid):
        if c.holder != "allied" or c.status != "sighted":
            continue
        tgt = w.unit_ships(c.unit)
        if not tgt or w.fog_blocks(c.hex) or s.vis >= T.X:
            continue
        mine = [x for x in w.afloat("allied") if x.hex == c.hex and x.id not in shadowers]
        if not mine:
            continue
        order = _target_orders(w, "SHADOW", c.cid, c.hex)
        if order is not None and order[2].upper() == "OFF" or order is None and not on:
            w.tell("allied", t_('%(cid)s in %(hex)s: no shadow attempt, by your order', cid=c.cid, hex=c.hex))
            continue
        group = None
        if order is not None:
            group, why = _ordered_group(w, order, mine)
            if group is None:
                dgroup, dwhy = _default_group(w, mine)
                w.tell("allied", t_('shadow %(cid)s: %(why)s; default applied: %(dwhy)s shadows', cid=c.cid, why=why, dwhy=dwhy))
                group = dgroup
            else:
                w.tell("allied", t_('shadow %(cid)s: %(why)s shadows, by your order', cid=c.cid, why=why))
        else:
            group, why = _default_group(w, mine)
            w.tell("allied", t_('shadow %(cid)s: default applied (no SHADOW order for it): %(why)s shadows', cid=c.cid, why=why))
        _attempt(w, dice, c, tgt, group, shadowers, shadowed_now)
    w.s = replace(w.s, shadowers=tuple(sorted(shadowers)), shadowed_now=tuple(sorted(shadowed_now)))


Team = tuple[str, list[Ship], bool, list[Ship]]  # (target unit, its ships, fast part?, shadowing ships)


def _attempt(w: Work, dice, c, tgt: list[Ship], group: list[Ship], shadowers: list[str],
             shadowed_now: list[str]) -> None:
    """The German reaction by ON_SHADOW, then one roll per shadowing team [6]."""
    reaction, fast = _reaction(w, c.unit)
    w.tell("german", t_('an Allied naval unit in %(hex)s tries to shadow your %(unit)s', hex=c.hex, unit=c.unit))
    teams: list[Team] = [(c.unit, tgt, False, group)]
    if reaction == "EVADE":
        _evade(w, c, tgt)
    elif reaction == "DIVERT" and len(tgt) > 1 and set(fast) < {x.id for x in tgt}:
        teams = _divert(w, c, tgt, fast, group)
    for uid, ships, fast_part, team in teams:
        shadowers += [x.id for x in team]
        if _roll(w, dice, c.hex, ships, team, reaction == "EVADE", fast_part):
            w.mark("allied", uid, "shadowed", "shadow")
            shadowed_now.append(uid)


def _reaction(w: Work, unit: str) -> tuple[str, list[str]]:
    """The German's ON_SHADOW order for ``unit``: EVADE, NONE or DIVERT with the fast ships."""
    reaction, fast = "NONE", []
    for words in w.std_lines("german", "ON_SHADOW"):
        if words[1].upper() == unit.upper():
            reaction = words[2].upper()
            fast = words[3].split(",") if reaction == "DIVERT" else []
    return reaction, fast


def _evade(w: Work, c, tgt: list[Ship]) -> None:
    """An Evasion Maneuver: its marker and fuel [6]."""
    for x in tgt:
        w.set(x.id, markers=w.ships[x.id].markers + ("evasion",),
              fuel=max(0, x.fuel - T.tables()["shadow"]["evasion_fuel"]) if x.speed in ("F", "M") else x.fuel)
    w.say(t_('%(cid)s: the shadowed unit declares an Evasion Maneuver', cid=c.cid), kind="shadow")


def _divert(w: Work, c, tgt: list[Ship], fast: list[str], group: list[Ship]) -> list[Team]:
    """A Diversion Maneuver: the TF divides, the contact is dropped, the Allied follows one part or both [6]."""
    for x in tgt:
        if x.speed in ("F", "M"):
            w.set(x.id, fuel=max(0, x.fuel - T.tables()["shadow"]["diversion_fuel"]))
    fast_ships = [w.ships[f] for f in sorted(fast)]
    slow_ships = [w.ships[x.id] for x in tgt if x.id not in fast]
    new_tf = _free_tf(w, "german")
    for x in fast_ships:
        w.set(x.id, tf=new_tf)
    w.dissolve_small_tfs()
    fast_uid, slow_uid = w.unit_of(fast_ships[0].id), w.unit_of(slow_ships[0].id)
    w.say(t_('%(cid)s: the shadowed task force divides in a Diversion Maneuver (%(v)s fast, %(v2)s slow ships)', cid=c.cid, v=len(fast_ships), v2=len(slow_ships)), kind="shadow")
    w.drop_contact(c)
    choice, fast_team, how = _diversion_choice(w, c.cid, c.hex, group)
    if choice == "BOTH":
        split_off(w, fast_team)
        fteam = [w.ships[i] for i in fast_team]
        steam = [w.ships[x.id] for x in group if x.id not in fast_team]
        w.tell("allied", t_('diversion at %(hex)s: both parts, %(how)s: %(v)s follow the fast part, %(v2)s the slow part', hex=c.hex, how=how, v=', '.join(fast_team), v2=', '.join(x.id for x in steam)))
        return [(fast_uid, w.unit_ships(fast_uid), True, fteam), (slow_uid, w.unit_ships(slow_uid), False, steam)]
    if choice == "FAST":
        w.tell("allied", t_('diversion at %(hex)s: the fast part, %(how)s', hex=c.hex, how=how))
        return [(fast_uid, w.unit_ships(fast_uid), True, group)]
    w.tell("allied", t_('diversion at %(hex)s: the slow part, %(how)s', hex=c.hex, how=how))
    return [(slow_uid, w.unit_ships(slow_uid), False, group)]


def _roll(w: Work, dice, h: str, ships: list[Ship], team: list[Ship], evade: bool, fast_part: bool) -> bool:
    """One shadow attempt by ``team`` on ``ships``: ER difference, radar, visibility [6]."""
    diff = min(x.er_now for x in team) - min(x.er_now for x in ships)
    radar = max((x.radar if not x.radar_lost else 0) for x in team)
    drm = T.shadow_drm(diff, min(radar, 2), w.s.vis, evade, fast_part)
    if drm is None:
        w.say(t_('shadow attempt on %(h)s: impossible (ER difference %(diff)s)', h=h, diff=diff), kind="shadow")
        return False
    r = T.d10(dice, t_('shadow attempt in %(h)s', h=h), SIDES)
    ok = r + drm <= T.tables()["shadow"]["success_max"]
    w.say(t_('shadow attempt in %(h)s: roll %(r)s%(drm)+d = %(v)s: %(v2)s', h=h, r=r, drm=drm, v=r + drm, v2=t_('success') if ok else t_('failure')), kind="shadow")
    return ok


def prune(w: Work) -> None:
    """Per-contact SHADOW / ON_DIVERSION orders lapse when their contact is gone (hex targets stay)."""
    live = {c.cid for c in w.contacts if c.holder == "allied"}
    gone = []
    for ln in w.std("allied"):
        ws = ln.split()
        if ws[0] in ("SHADOW", "ON_DIVERSION") and len(ws) >= 3 and CONTACT_RE.match(ws[1]) and ws[1] not in live:
            gone.append(ln)
            w.drop_standing("allied", ln)
    if gone:
        w.tell("allied", t_("standing orders lapse, their contact is gone: %(gone)s", gone="; ".join(gone)))
