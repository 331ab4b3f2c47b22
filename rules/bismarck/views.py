"""What each seat may know [5, digest 12]: own units, fuel and markers; contacts exactly as reported;
public weather, battles and Ship Cards; the German's convoy VP only to the German."""
from __future__ import annotations

from pbem.core.texts import join, t_, tn_

from . import movement as M
from . import tables as T
from .game import shadowed_units
from .model import State, get, to_json
from .victory import victory
from .work import Work, enemy
from .words import word


def view(state: State, seat: str) -> dict:
    side = seat
    w = Work(state)
    v = {
        "side": side, "step": state.step, "game_turn": state.turn - state.start + 1, "turn_name": T.turn_name(state.turn),
        "last_turn_name": T.turn_name(state.last),
        "turns_left": state.last - state.turn, "night": T.is_night(state.turn),
        "submarine_turn": T.submarine_turn(state.turn),
        "weather": state.weather, "fog": state.fog, "visibility": T.vis_text(state.vis), "visibility_n": state.vis,
        "ships": _own_ships(state, side), "units": _units(w, side), "air": _own_air(w, side),
        "contacts": _contacts(state, side),
        "known_to_enemy": [{"unit": c.unit, "hex": c.hex, "status": c.status} for c in state.contacts
                           if c.holder == enemy(side)],
        "cards": _cards(state),
        "standing": state.flow.standing.listing(side),
        "must_move": shadowed_units(w, side) if state.step == f"shadowed-{side}" else [],
        "moved": [s for s in state.moved if w.ships[s].side == side],
        "searched": list(get(state.searched, side, ())),
        "reports": list(get(state.reports, side, ())),
        "battles": [{"turn": T.turn_name(b.turn), "hex": b.hex, "log": list(b.lines)} for b in state.battles[-3:]],
        "releasable": sorted(s for s, frm, _ in state.releases if side == "allied" and state.turn >= frm
                             and w.ships[s].status in ("escort", "restricted")),
        "restricted": restricted(state) if side == "allied" else [],
        "revealed_optional": list(state.revealed_optional),
        "ended": state.ended,
    }
    if side == "german":
        v["secret_vp"] = {"convoy_markers": [{"value": val, "halved": half} for val, half in state.convoy_vp],
                          "merchants": state.merchants}
        v["pending"] = [a.question for a in state.flow.pending.asks_of(side)] if state.flow.pending else []
    if state.ended:
        v["victory"] = victory(state)
    return v


def _own_ships(state: State, side: str) -> list[dict]:
    """Own ships with their card values, and whether the enemy holds a marker on their unit."""
    enemy_marks = {c.unit: c.status for c in state.contacts if c.holder == enemy(side)}
    titles = T.units()["ships"]
    ships = []
    for x in state.ships:
        if x.side != side:
            continue
        d = to_json(x)
        d.update(status=word(x.status), title=titles[x.id]["title"], er_now=x.er_now, hull_max=titles[x.id]["hull"],
                 unit=(x.tf or x.id) if x.afloat else None,
                 shadowed=enemy_marks.get(x.tf or x.id) == "shadowed",
                 sighted=enemy_marks.get(x.tf or x.id) == "sighted")
        ships.append(d)
    return ships


def _own_air(w: Work, side: str) -> list[dict]:
    air = []
    for a in w.s.air:
        if a.side == side:
            air.append(dict(to_json(a), status=word(a.status), base_hex=w.ships[a.base].hex if a.base in w.ships else a.base))
    return air


def _contacts(state: State, side: str) -> list[dict]:
    """The side's markers on enemy units, exactly as reported (never the unit behind them)."""
    return [{"id": c.cid, "hex": c.hex, "status": word(c.status), "classes": {k: n for k, n in c.classes},
             "ships": sum(n for _, n in c.classes), "tf": c.tf, "source": word(c.source), "turn": c.turn}
            for c in state.contacts if c.holder == side]


def _cards(state: State) -> list[dict]:
    """Ship Cards in play are public [2.3]."""
    titles = T.units()["ships"]
    return [{"id": x.id, "title": titles[x.id]["title"], "side": word(x.side), "cls": x.cls, "hull": x.hull, "bow": x.bow,
             "stern": x.stern, "sec": x.sec, "torps": max(0, x.torps), "evasion": sum(x.ee), "rudder": x.rudder,
             "fire_control": x.fire_control, "radar_lost": x.radar_lost, "status": word(x.status)}
            for x in state.ships if x.in_play]


def _units(w: Work, side: str) -> list[dict]:
    """Own units with how far each may move this turn and why not further [7.7.2]."""
    units = []
    own = [to_json(x) for x in w.afloat(side)]
    for uid in w.units(side):
        us = w.unit_ships(uid)
        limit, why = M.unit_limit([to_json(x) for x in us])
        units.append({"id": uid, "hex": us[0].hex, "ships": [x.id for x in us], "limit": limit, "why": why,
                      "moved": any(x.id in w.s.moved for x in us),
                      "dd_return": any(M.must_return(to_json(x), own) for x in us)})
    return units


def restricted(state: State) -> list[dict]:
    """The Allied ships under a RESTRICTED marker and how each marker comes off [12] (own side only)."""
    esc = T.escorts()
    rel = {s: (frm, h) for s, frm, h in state.releases}
    lifts = {s: (turn, ev, h) for s, turn, ev, h in state.lifts}
    out = []
    for x in state.ships:
        if x.status not in ("escort", "restricted"):
            continue
        how = []
        if x.id in esc:
            how.append(t_("escorts %(convoy)s; placed on the map if the convoy is attacked and she survives [11.3]",
                          convoy=esc[x.id]))
        if x.id in rel:
            how.append(t_("RELEASE %(id)s from the %(turn)s (placed in %(hex)s)", id=x.id, turn=T.turn_name(rel[x.id][0]),
                          hex=rel[x.id][1]))
        if x.id in lifts:
            turn, ev, h = lifts[x.id]
            how.append(t_("comes off from the %(turn)s (placed in %(hex)s)", turn=T.turn_name(turn), hex=h) if turn >= 0
                       else t_("comes off once Bismarck is located (placed in %(hex)s)", hex=h))
        out.append({"id": x.id, "convoy": esc.get(x.id),
                    "how": join("; ", how) if how else t_("no condition in this scenario")})
    return out


def form(view: dict, seat: str) -> str:
    """A blank order file with the legal choices as comments (order lines and keywords stay English)."""
    out: list[str] = [t_("# %(turn)s (%(step)s); weather %(weather)s, visibility %(vis)s%(fog)s", turn=view["turn_name"],
                         step=view["step"], weather=view["weather"], vis=view["visibility"],
                         fog=t_(", fog on") if view["fog"] else "")]
    step = view["step"]
    if step == "doctrine":
        out += [t_("# a naval combat is coming and you have declared no doctrine [10]"),
                "# DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE [TORPEDOES ON|OFF] [BREAK <hull>]",
                "DOCTRINE ALL CLOSE TORPEDOES ON BREAK 2"]
        return join("\n", [*out, ""])
    if step == "convoy":
        out += [t_("# a convoy has been found (see your reports): ATTACK or IGNORE"), "IGNORE"]
        return join("\n", [*out, ""])
    if step.startswith("shadowed"):
        out.append(t_("# your Shadowed units move first and announce; STAY <unit> (or leave a unit out) keeps it in "
                      "place, or your IF SHADOWED order for it, if any, is carried out [7.1]"))
        for u in view["units"]:
            if u["id"] in view["must_move"]:
                out.append(tn_("# MOVE %(unit)s <hex> [<hex>]   (now %(hex)s, up to %(n)s hex)",
                               "# MOVE %(unit)s <hex> [<hex>]   (now %(hex)s, up to %(n)s hexes)", u["limit"],
                               unit=u["id"], hex=u["hex"]))
    else:
        out.append("# MOVE <unit> <hex> [<hex>] | FORM <TF> <ship>... | JOIN <ship> <TF> | DETACH <ship>")
        out.append("# REPAIR <ship> | PORT <ship> | PATROL <unit> | FLY <air> <hex>[+S|+A] ... | SEARCH ALL|NONE|<hex>...")
        out.append(t_("# ENGAGE <contact> [WITH <unit>]   (calls are fought one at a time, in file order) [10]"))
        out.append("#   IF PREVIOUS WON|LOST|DRAWN|NONE | IF AFLOAT|SUNK <ship> THEN ENGAGE ... [ELSE ENGAGE ...]")
        out.append(t_("# next turn, if Shadowed (saves a window) [7.1]: IF SHADOWED <unit> THEN MOVE <unit> <hex> [<hex>]"
                      " | IF SHADOWED <unit> THEN STAY <unit>   (the path starts where this turn's MOVE ends)"))
        out.append("#" + (" REFUEL <ship> FROM <tanker> | RTB <ship>"
                          if seat == "german" else " RELEASE <ship>"))
        if seat == "allied":
            out.append(t_("# standing, Shadow Phase [6]: SHADOW ON|OFF | SHADOW <contact|hex> WITH <TF|ship[,ship...]> "
                          "[SPLIT] | SHADOW <contact|hex> OFF"))
            out.append(t_("#   ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>]   (fast part +2; BOTH splits"
                          " the shadowing group)"))
        else:
            out.append(t_("# standing, Shadow Phase [6]: ON_SHADOW <unit> EVADE|NONE|DIVERT <fast ship>,<fast ship>"))
        for u in view["units"]:
            out.append(_unit_line(u))
        for a in view["air"]:
            out.append(t_("#   air %(id)s (%(type)s, %(speed)s MP, range %(range)s) %(status)s at %(hex)s", id=a["id"],
                          type=a["type"], speed=a["speed"], range=a["range"], status=word(a["status"]),
                          hex=a["hex"] or a["base_hex"]))
        for c in view["contacts"]:
            out.append(t_("#   contact %(id)s in %(hex)s: %(status)s, %(classes)s", id=c["id"], hex=c["hex"],
                          status=word(c["status"]),
                          classes=", ".join(f"{n} {k}" for k, n in sorted(c["classes"].items()))))
        for r in view.get("restricted", []):
            out.append(t_("#   RESTRICTED %(id)s: %(how)s", id=r["id"], how=r["how"]))
        out.append("SEARCH ALL")
    out.append(t_("# standing orders in force (repeat a line with new values to change it, CANCEL <key> to drop it):"))
    out += [f"#   {s}" for s in view["standing"]]
    return join("\n", [*out, ""])


def _unit_line(u: dict) -> str:
    """One own unit in the form: where it is, its ships, how far it may move [7.7.2]."""
    if u["moved"]:
        state: str = t_("moved")
    elif u["why"]:
        state = tn_("up to %(n)s hex (%(why)s)", "up to %(n)s hexes (%(why)s)", u["limit"], why=u["why"])
    else:
        state = tn_("up to %(n)s hex", "up to %(n)s hexes", u["limit"])
    if u.get("dd_return"):
        return t_("#   unit %(id)s in %(hex)s: %(ships)s; %(state)s; must return behind the destroyer line, each hex "
                  "closer, full allowance [7.7.2]", id=u["id"], hex=u["hex"], ships=", ".join(u["ships"]), state=state)
    return t_("#   unit %(id)s in %(hex)s: %(ships)s; %(state)s", id=u["id"], hex=u["hex"], ships=", ".join(u["ships"]),
              state=state)
