"""What one seat may know [5]: the board is open, hands belong to aircraft and are private.

A seat sees its own aircraft's hands and, when it must decide, the facts it decides on
("what each card could do now"); of every other aircraft it sees the hand size and how
many cards show the malfunction back [L196].  Deck order is hidden from everyone; the
top card's back is shown when the ``expose_top_back`` option is on.  The dispatch-post
card is seen by its own side only; ground objects are hidden from the enemy until the
reveal; selection candidates are the side's secret [L91, L148, L281].
"""
from __future__ import annotations

from pbem.core.flow import Flow

from pbem.core.texts import t_

from .damage import over_text
from . import combat, tables
from .geometry import NOSE, POSITION
from .movement import entry_cells
from .asks import pending_of
from .rulebook import cite_tags, map_text
from .terms import word
from .script_verbs import Manoeuvre, parse_script_line
from .state import Game, State, other_side
from .abilities import ground_below, own_object


def card_brief(cid: str) -> str:
    c = tables.card(cid)
    if c.kind == "attack":
        extra = t_(", extra discard %(n)s", n=c.extra_discard) if c.extra_discard else ""
        burn = t_(", burns %(burn)s/turn for %(n)s turns", burn=c.burn, n=c.turns) if c.burn else ""
        return t_("attack, cost %(cost)s, damage %(damage)s%(extra)s%(burn)s", cost=c.cost, damage=c.damage, extra=extra,
                  burn=burn)
    if c.kind == "reaction":
        if c.remove:
            return t_("reaction: removes an opposing reaction together with itself")
        return t_("reaction: cancels %(cards)s", cards=", ".join(c.cancels))
    if c.kind == "manoeuvre":
        return t_("manoeuvre: %(effect)s", effect=word(c.effect.replace('_', ' ')))
    if c.kind == "countermove":
        return t_("counter-move: as manoeuvre %(effect)s; as reaction cancels %(cards)s",
                  effect=word(c.effect.replace('_', ' ')), cards=", ".join(c.cancels))
    if c.kind == "crit":
        return t_("critical hit: played with an attack")
    if c.kind == "malfunction":
        return t_("malfunction (%(kind)s)", kind=word(c.malfunction))
    return t_("rescue: played when this aircraft is destroyed")


def aircraft_public(g: Game, a: dict) -> dict:
    t = g.type_of(a)
    st = g.stats(a)
    return {
        "id": a["id"], "side": a["side"], "seat": a["seat"], "number": a["number"], "model": t.model,
        "nation": t.nation, "category": t.category, "value": t.value, "swap": t.swap, "turret": t.turret,
        "placed": a["placed"], "alt": a["alt"], "cell": a["cell"], "facing": a["facing"],
        "damaged": a["damaged"], "destroyed": a["destroyed"], "markers": a["markers"],
        "power": st.power, "firing": st.firing, "ttx": st.ttx, "structure": st.structure,
        "hand_size": len(a["hand"]), "malfunctions": g.malfunctions(a), "done": a["done"],
        "attached": [dict(x, name=tables.card(x["card"]).name) for x in a["attached"]],
        "rescue": a["rescue"], "in_dogfight": g.in_dogfight(a),
    }


def relations(g: Game, a: dict, t: dict | None) -> list[dict]:
    """Per enemy in a dogfight with ``a``: aspects, position and firing available now [6.1, 6.4]."""
    spent = t["spent"] if t else 0
    turret = t["turret_spent"] if t else 0
    out = []
    for e in g.enemies_in_dogfight(a):
        avail, pool = combat.firing_available(g, a, e, spent, turret)
        mine, theirs = g.aspect(a, e), g.aspect(e, a)
        out.append({"id": e["id"], "my_aspect": mine, "their_aspect": theirs,
                    "position": POSITION[theirs] if mine == NOSE else None,
                    "firing": avail, "pool": pool})
    return out


def card_uses(g: Game, a: dict, t: dict | None) -> list[dict]:
    """What each card in ``a``'s hand could do right now (the player's crib) [2.6]."""
    turn = t or {"spent": 0, "turret_spent": 0, "ground_attacked": False}
    foes = g.enemies_in_dogfight(a)
    out = []
    for cid in sorted(set(a["hand"])):
        c = tables.card(cid)
        uses = []
        if c.kind == "attack":
            for e in foes:
                why = combat.attack_problem(g, a, e, cid, turn)
                uses.append(f"ATTACK {cid} TARGET {e['id']}" if not why else t_("not against %(id)s: %(why)s", id=e['id'],
                                                                                why=why))
            if not foes:
                uses.append(t_("no enemy in a dogfight: nothing to attack %(ref)s", ref="[L119]"))
        if c.manoeuvres:
            for e in foes or [None]:
                for apply in (("target", "self") if c.effect == "change_position" else ("target",)):
                    why = combat.manoeuvre_problem(g, a, e, cid, apply, turn)
                    tgt = f" TARGET {e['id']}" if e else ""
                    ap = f" APPLY {apply.upper()}" if c.effect == "change_position" else ""
                    if not why:
                        uses.append(f"MANOEUVRE {cid}{tgt}{ap}")
        if c.reacts:
            uses.append(t_("reaction when an enemy acts against this aircraft (%(brief)s)", brief=card_brief(cid)))
        if c.kind == "crit":
            uses.append("ATTACK ... CRIT " + cid)
        out.append({"card": cid, "name": c.name, "name_ru": c.name_ru, "brief": card_brief(cid),
                    "count": a["hand"].count(cid), "uses": [map_text(u, cite_tags) for u in uses]})
    return out


def exchange_public(g: Game, ex: dict | None) -> dict | None:
    if not ex:
        return None
    nodes = [{"n": m["n"], "card": m["card"], "name": tables.card(m["card"]).name, "party": m["party"],
              "ac": m["ac"], "on": m["target"], "removed": m["removed"], "live": combat.live(ex, m["n"]),
              "crit": m["crit"]} for m in ex["nodes"]]
    beat = parse_script_line(ex["beat"])
    what = t_("%(card)s (%(brief)s)", card=tables.card(beat.card).name, brief=card_brief(beat.card))
    if isinstance(beat, Manoeuvre) and beat.turns:
        what = t_("%(card)s (%(brief)s), turning %(apply)s %(rotate)s", card=tables.card(beat.card).name,
                  brief=card_brief(beat.card), apply=beat.apply, rotate=beat.rotate)
    return {"attacker": ex["attacker"], "target": ex["target"], "beat": ex["no"], "nodes": nodes, "what": what,
            "standing": combat.live(ex), "closed": ex["closed"]}


def view(state: State, seat: str) -> dict:
    g = Game(state.read())
    d = g.doc
    side = next(s["side"] for s in d["seats"] if s["name"] == seat)
    pending, t = pending_of(Flow.load(d["flow"])), d["turn"]
    mine = [a for a in g.aircraft(live=False) if a["seat"] == seat]
    v: dict = {
        "game": "sky_ww2", "seat": seat, "side": side, "enemy": other_side(side),
        "scenario": d["scenario"], "round": d["round"], "initiative": d["initiative"],
        "options": {k: d["options"][k] for k in sorted(d["options"])},
        "seats": d["seats"], "vp": d["vp"],
        "over": d["over"] and {**d["over"], "text": over_text(d["over"]["text"])},
        **deck_public(d),
        "aircraft": [aircraft_public(g, a) for a in g.aircraft(live=False)],
        "hands": {a["id"]: sorted(a["hand"]) for a in mine},
        "hand_details": {a["id"]: hand_details(a) for a in mine},
        "ground": {s: ground_seen(d, s, side) for s in tables.SIDES},
        "revealed": d["revealed"], "cp_used": d["cp_used"],
        "dp": {s: (d["dp"][s] if s == side else ("face-down card" if d["dp"][s] else None)) for s in tables.SIDES},
        "policies": g.policy(seat), "side_policies": g.side_policy(side),
        "my_aircraft": [a["id"] for a in mine],
        "next_discard": {a["id"]: a.get("next_discard", []) for a in mine},
        "plans": own_plans(d, mine),
        "active": None, "exchange": None, "pending": None, "decide": None,
    }
    if d["round"] == 0:
        v["selection"] = selection_seen(d, side)
    if t:
        v["active"] = {k: t[k] for k in ("ac", "seat", "spent", "turret_spent", "moved", "actions", "beats",
                                         "ground_attacked", "swapped", "aa_fired", "last_ok")}
        v["exchange"] = exchange_public(g, t["exchange"])
    if pending:
        v["pending"] = {"kind": pending["kind"], "seats": pending["seats"], "n": pending["n"],
                        "ac": pending.get("ac"), "side": pending.get("side")}
        if seat in pending["seats"]:
            v["decide"] = decision(g, seat, pending, t)
    return v


def own_plans(d: dict, mine: list[dict]) -> dict:
    """This round's plan blocks of the seat's own aircraft (the enemy's stay secret until flown)."""
    plans = d.get("plans") or {}
    if plans.get("round") != d["round"]:
        return {}
    return {a["id"]: plans["blocks"][a["id"]] for a in mine if a["id"] in plans["blocks"]}


def hand_details(a: dict) -> list[dict]:
    return [{"card": c, "name": tables.card(c).name, "name_ru": tables.card(c).name_ru, "brief": card_brief(c)}
            for c in sorted(a["hand"])]


def deck_public(d: dict) -> dict:
    """Sizes and the open discard pile; the top card's back only with ``expose_top_back`` [L196]."""
    top = None
    if d["options"]["expose_top_back"] and d["options"]["events"]:
        top = bool(d["deck"]) and tables.card(d["deck"][0]).kind == "malfunction"
    return {"deck_size": len(d["deck"]), "discard": sorted(d["discard"]), "discard_size": len(d["discard"]),
            "top_is_malfunction": top}


def ground_seen(d: dict, s: str, side: str) -> list[dict]:
    """Ground objects of side ``s`` as ``side`` sees them: the enemy's stay face down until the reveal [L281]."""
    known = d["revealed"] or s == side
    return [{"slot": o["slot"], "obj": o["obj"] if known else None, "damage": o["damage"],
             "destroyed": o["destroyed"],
             "structure": tables.ground()[o["obj"]].structure if o["obj"] and known else None}
            for o in d["ground"][s]]


def selection_seen(d: dict, side: str) -> dict:
    """The side's own selection candidates (its secret) [L271-275]."""
    sel = d["selection"][side]
    return {"mode": d["options"]["selection"], "candidates": sel["candidates"], "keep": sel["keep"],
            "roster": [{"number": n, "model": ty.model, "category": ty.category, "value": ty.value,
                        "swap": ty.swap, "turret": ty.turret}
                       for n, ty in sorted(tables.roster()[side].items()) if n in sel["candidates"]]}


def decision(g: Game, seat: str, p: dict, t: dict | None) -> dict:
    """The facts the awaited seat decides on (its own knowledge only)."""
    kind = p["kind"]
    return {"kind": kind, **DECISIONS[kind](g, seat, p, t)}


def deploy_facts(g: Game, seat: str, p: dict, t: dict | None) -> dict:
    side = p.get("side") or next(s["side"] for s in g.doc["seats"] if s["name"] == seat)
    return {"aircraft": [a["id"] for a in g.aircraft(side) if a["seat"] == seat and not a["placed"]],
            "cells": {alt: [list(c) for c in entry_cells(g, side, alt, setup=True)] for alt in tables.ALTITUDES},
            "sealed": bool(p.get("sealed"))}


def activate_facts(g: Game, seat: str, p: dict, t: dict | None) -> dict:
    return {"aircraft": [a["id"] for a in g.on_board(p["side"]) if a["seat"] == seat and not a["done"]]}


#: The turn an aircraft has not begun: what a round plan is written against.
FRESH = {"moved": False, "step": 0, "spent": 0, "turret_spent": 0, "ground_attacked": False}


def round_facts(g: Game, seat: str, p: dict, t: dict | None) -> dict:
    """Per aircraft of the seat still to fly this round, the facts of its turn as the table stands now
    (the plan is flown later: what other turns change is judged when each line is reached)."""
    mine = [a for a in g.on_board() if a["seat"] == seat and not a["done"]]
    return {"round": p["round"], "aircraft": [a["id"] for a in mine],
            "facts": {a["id"]: dict(script_facts(g, seat, {"ac": a["id"]}, FRESH), plan=True) for a in mine}}


def script_facts(g: Game, seat: str, p: dict, t: dict) -> dict:
    a = g.ac(p["ac"])
    side = a["side"]
    below = ground_below(g, a)
    dp_own = own_object(g, side, "dp")
    return {
        "ac": a["id"], "relations": relations(g, a, t), "card_uses": card_uses(g, a, t),
        "first_step": not t["moved"] and t["step"] == 0,
        "entry": {alt: [list(c) for c in entry_cells(g, side, alt)] for alt in tables.ALTITUDES if alt != a["alt"]},
        "free_cells": [list(c) for c in g.free_cells(a["alt"])],
        "ground_below": below["obj"] if below else None,
        "cp_ready": own_object(g, side, "cp") and not g.doc["cp_used"][side],
        "dp_ready": dp_own and not g.doc["dp"][side],
        "dp_card": g.doc["dp"][side] if dp_own else None,
        "engine_trouble": bool(g.malfunctions(a, "engine")),
    }


def react_facts(g: Game, seat: str, p: dict, t: dict) -> dict:
    return {"party": p["party"], "ac": p["ac"], "options": combat.options(g, t["exchange"], p["party"])}


def pursue_facts(g: Game, seat: str, p: dict, t: dict) -> dict:
    return {k: p[k] for k in ("ac", "target", "extra", "cells", "climb")}


def setup_facts(g: Game, seat: str, p: dict, t: dict | None) -> dict:
    return {"selection": g.opt("selection")}


DECISIONS = {"round": round_facts, "deploy": deploy_facts, "activate": activate_facts, "script": script_facts, "react": react_facts,
             "pursue": pursue_facts, "setup": setup_facts}
