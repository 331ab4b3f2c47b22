"""Ground attacks, the swap ability, the command post and the dispatch post [L48, L146-148, L301-303]."""
from __future__ import annotations

from . import tables
from .damage import draw_into, give_up
from .script_verbs import CpUse, DpDeposit, GroundAttack, Swap
from .state import Game, other_side
from pbem.core.texts import t_
from .terms import word


def ground_attack(g: Game, a: dict, item: GroundAttack) -> str | None:
    """A shturmovik hits the ground object below it for a number card 1..10 [L301-303]; why it
    cannot, or None."""
    t = g.doc["turn"]
    obj = ground_below(g, a)
    why = ""
    if not g.type_of(a).shturmovik:
        why = "only shturmoviks (category SH) attack ground objects [L73, L301]"
    elif t["actions"]:
        why = "a ground attack excludes every other attack and manoeuvre in the turn [L301]"
    elif obj is None:
        why = "no live enemy ground object in the cell directly below [L301]"
    if why:
        return why
    t["actions"] += 1
    t["ground_attacked"] = True
    n = g.work.roll(tables.number_cards(), why=t_("%(id)s attacks the %(obj)s (number card)", id=a['id'], obj=obj['obj']),
                  seen_by=g.all_seats)
    obj["damage"] += n
    gt = tables.ground()[obj["obj"]]
    g.say(t_("%(id)s attacks the enemy %(obj)s: number card %(card)s, %(n)s structural damage %(ref)s",
              id=a['id'], obj=word(gt.name), card=n, n=n, ref="[L303]"), kind="ground")
    if obj["damage"] >= gt.structure:
        obj["destroyed"] = True
        g.doc["vp"][a["side"]] += gt.value
        g.say(t_("the %(side)s %(obj)s is destroyed: %(scorer)s scores %(vp)s VP", side=word(other_side(a['side'])),
                  obj=word(gt.name), scorer=word(a['side']), vp=gt.value), kind="ground")
        if obj["obj"] == "dp" and g.doc["dp"][other_side(a["side"])]:
            g.discard([g.doc["dp"][other_side(a["side"])]])
            g.doc["dp"][other_side(a["side"])] = None
    return None


def ground_below(g: Game, a: dict) -> dict | None:
    if a["alt"] != "low":
        return None
    below = (a["cell"][0], a["cell"][1] + 1)
    for obj in g.doc["ground"][other_side(a["side"])]:
        if tuple(obj["slot"]) == below and not obj["destroyed"] and obj["obj"]:
            return obj
    return None


def swap(g: Game, a: dict, item: Swap) -> str | None:
    t = g.doc["turn"]
    cid = item.card
    if not g.type_of(a).swap:
        return t_("%(ac)s has no swap ability %(ref)s", ac=a['id'], ref="[L48]")
    if t["swapped"]:
        return t_("the swap ability works once per turn %(ref)s", ref="[L48]")
    if cid not in a["hand"] or tables.card(cid).kind == "malfunction":
        return t_("the card is not in the hand or is a malfunction %(ref)s", ref="[L48]")
    t["swapped"] = True
    a["hand"].remove(cid)
    g.discard([cid])
    g.say(t_("%(id)s swaps %(card)s %(ref)s", id=a['id'], card=tables.card(cid).name, ref="[L48]"), kind="swap")
    draw_into(g, a, 1, t_("swap ability %(ref)s", ref="[L48]"))
    return None


def own_object(g: Game, side: str, obj: str) -> bool:
    return g.doc["revealed"] and any(o["obj"] == obj and not o["destroyed"] for o in g.doc["ground"][side])


def use_cp(g: Game, a: dict, item: CpUse) -> str | None:
    side = a["side"]
    if not own_object(g, side, "cp"):
        return t_("your side has no working command post %(ref)s", ref="[L146]")
    if g.doc["cp_used"][side]:
        return t_("the command post was already used this round %(ref)s", ref="[L146]")
    g.doc["cp_used"][side] = True
    g.say(t_("%(id)s uses the command post %(ref)s", id=a['id'], ref="[L146]"), kind="cp")
    got = draw_into(g, a, 1, t_("command post %(ref)s", ref="[L146]"))
    if a["destroyed"]:
        return None
    first = [item.discard] if item.discard else []
    if not first and got and tables.card(got[0]).kind != "malfunction":
        first = [got[0]] if tables.card(got[0]).keep <= min(tables.card(c).keep for c in a["hand"]) else []
    give_up(g, a, 1, t_("command post %(ref)s", ref="[L146]"), first, allow_malfunction=False)
    return None


def deposit(g: Game, a: dict, item: DpDeposit) -> str | None:
    side, cid = a["side"], item.card
    if not own_object(g, side, "dp"):
        return t_("your side has no working dispatch post %(ref)s", ref="[L148]")
    if g.doc["dp"][side]:
        return t_("only one card may lie on the dispatch post %(ref)s", ref="[L148]")
    if cid not in a["hand"] or tables.card(cid).kind == "malfunction":
        return t_("the card is not in the hand or is a malfunction %(ref)s", ref="[L148]")
    a["hand"].remove(cid)
    g.doc["dp"][side] = cid
    allies = g.seats_of(side)
    g.say(t_("%(id)s lays %(card)s face down on the dispatch post %(ref)s", id=a['id'], card=tables.card(cid).name,
             ref="[L148]"), allies, kind="dp")
    g.say(t_("%(id)s lays a card face down on the %(side)s dispatch post", id=a['id'], side=word(side)),
          g.all_seats - set(allies), kind="dp")
    return None
