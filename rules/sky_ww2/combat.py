"""Firing points, action legality, manoeuvre effects and the reaction tree [4.3, 6.1-6.5].

The functions take the working :class:`~.state.Game` and return reasons as strings (empty
when legal), so the same checks serve resolution, the view's "what each card could do
now" hints, and the bot.
"""
from __future__ import annotations

from pbem.core.texts import t_

from . import tables
from .geometry import BONUS, NOSE, SIDE, direction, rotate
from .state import Game

# ---- firing [L41, L48, 6.4] ------------------------------------------------------------------


def firing_available(g: Game, a: dict, t: dict, spent: int, turret_spent: int) -> tuple[int, str]:
    """Firing points ``a`` may still spend on ``t`` and the pool they come from.

    Nose-on: base firing + position bonus (+1 flank, +2 rear) - points spent this turn,
    the bonus counted anew for every attack [L41, L243, L253].  Side- or tail-on: only a
    turret may fire, always 1 point, kept as a separate pool (gap 8.6) [L48].
    """
    if t not in g.enemies_in_dogfight(a):
        return 0, "none"
    if g.aspect(a, t) == NOSE:
        return max(0, g.base_firing(a) + BONUS[g.aspect(t, a)] - spent), "guns"
    if g.type_of(a).turret:
        return max(0, 1 - turret_spent), "turret"
    return 0, "none"


def attack_problem(g: Game, a: dict, t: dict | None, cid: str, turn: dict, crit: str | None = None) -> str:
    """Why ``a`` may not play attack ``cid`` on ``t`` now ("" when it may) [L176-178, L297]."""
    c = tables.card(cid)
    if c.kind != "attack":
        return t_("%(card)s is not an attack card", card=c.name)
    if turn.get("ground_attacked"):
        return t_("a shturmovik that attacked a ground object may play no other attack or manoeuvre this turn %(ref)s", ref="[L301]")
    if t is None or t["destroyed"] or t not in g.enemies_in_dogfight(a):
        return t_("an attack needs an enemy aircraft in a dogfight with the attacker %(ref)s", ref="[L119, L297]")
    avail, pool = firing_available(g, a, t, turn["spent"], turn["turret_spent"])
    if pool == "none":
        return t_("%(ac)s is %(aspect)s-on to %(target)s and has no turret: it may not attack it %(ref)s", ac=a['id'], aspect=g.aspect(a, t), target=t['id'], ref="[L126, L129]")
    if c.cost > avail:
        return t_("%(card)s costs %(cost)s firing points, %(ac)s has %(n)s against %(target)s %(ref)s", card=c.name, cost=c.cost, ac=a['id'], n=avail, target=t['id'], ref="[L41, L231]")
    return extra_problem(a, c, crit)


def extra_problem(a: dict, c: tables.CardDef, crit: str | None = None) -> str:
    """An attack that demands extra cards is paid from the hand besides the attack (and its critical hit),
    never with a malfunction, which stays in hand until the end of the turn [L178, L196]: the check and the
    payment count the same cards."""
    if not c.extra_discard:
        return ""
    spare = [x for x in a["hand"] if tables.card(x).kind != "malfunction"]
    for used in (c.id, crit):
        if used in spare:
            spare.remove(used)
    if len(spare) >= c.extra_discard:
        return ""
    return t_("%(card)s demands %(n)s extra card(s) from the hand and %(ac)s has %(spare)s besides it that can pay "
              "(a malfunction cannot) %(ref)s", card=c.name, n=c.extra_discard, ac=a['id'], spare=len(spare),
              ref="[L178, L196]")


def manoeuvre_problem(g: Game, a: dict, t: dict | None, cid: str, apply: str, turn: dict) -> str:
    """Why ``a`` may not play ``cid`` as a manoeuvre now ("" when it may) [L166-170, L215-223]."""
    c = tables.card(cid)
    if not c.manoeuvres:
        return t_("%(card)s is not a manoeuvre or counter-move", card=c.name)
    if turn.get("ground_attacked"):
        return t_("a shturmovik that attacked a ground object may play no other attack or manoeuvre this turn %(ref)s", ref="[L301]")
    foes = g.enemies_in_dogfight(a)
    if foes and (t is None or t not in foes):
        return t_("while in a dogfight a manoeuvre is played against an enemy in that dogfight %(ref)s", ref="[L168]")
    if t is not None and t not in foes:
        return t_("%(target)s is not in a dogfight with %(ac)s %(ref)s", target=t['id'], ac=a['id'], ref="[L168]")
    check = EFFECT_PROBLEMS.get(c.effect)  # a manoeuvre without an effect in the data has no condition
    return check(g, a, t, c, apply) if check else ""


def turn_problem(g: Game, a: dict, t: dict | None, c: tables.CardDef, apply: str) -> str:
    """A change of position turns the actor, or a target it is nose-on to [L166, L217]."""
    if apply != "target":
        return ""
    if t is None:
        return t_("turning an enemy needs a target in the dogfight %(ref)s", ref="[L166]")
    if g.aspect(a, t) != NOSE:
        return t_("%(ac)s must be nose-on to %(target)s to turn it %(ref)s", ac=a['id'], target=t['id'], ref="[L166]")
    return ""


def pair_problem(g: Game, a: dict, t: dict | None, c: tables.CardDef, apply: str) -> str:
    """Neutral position and flank swap need an enemy; the swap needs the actor side-on [L219-223]."""
    if t is None:
        return t_("%(card)s needs an enemy in the dogfight %(ref)s", card=c.name, ref="[L219-223]")
    if c.effect == "flank_swap" and g.aspect(a, t) != SIDE:
        return t_("%(ac)s must be side-on to %(target)s to swap flank positions %(ref)s", ac=a['id'], target=t['id'], ref="[L219]")
    return ""


def self_altitude_problem(g: Game, a: dict, t: dict | None, c: tables.CardDef, apply: str) -> str:
    alt = tables.ALTITUDES.index(a["alt"])
    if c.effect == "self_climb" and alt == 2:
        return t_("no field above high altitude %(ref)s", ref="[L136]")
    if c.effect == "self_descend" and alt == 0:
        return t_("no field below low altitude %(ref)s", ref="[L136]")
    return ""


def enemy_altitude_problem(g: Game, a: dict, t: dict | None, c: tables.CardDef, apply: str) -> str:
    if t is None or g.aspect(a, t) != NOSE:
        return t_("moving an enemy needs it in the dogfight with the actor nose-on to it %(ref)s", ref="[L166, L170]")
    talt = tables.ALTITUDES.index(t["alt"])
    if (c.effect == "enemy_climb" and talt == 2) or (c.effect == "enemy_descend" and talt == 0):
        return t_("%(target)s cannot change altitude that way %(ref)s", target=t['id'], ref="[L136]")
    return ""


EFFECT_PROBLEMS = {"change_position": turn_problem, "neutral": pair_problem, "flank_swap": pair_problem,
                   "self_climb": self_altitude_problem, "self_descend": self_altitude_problem,
                   "enemy_climb": enemy_altitude_problem, "enemy_descend": enemy_altitude_problem}


# ---- the reaction tree [4.3] -------------------------------------------------------------------


def children(ex: dict, n: int) -> list[dict]:
    return [m for m in ex["nodes"] if m["target"] == n and not m["removed"]]


def live(ex: dict, n: int = 1) -> bool:
    """A card is live when it is on the table and no live card cancels it [4.3]."""
    node = ex["nodes"][n - 1]
    if node["removed"]:
        return False
    return not any(live(ex, m["n"]) for m in children(ex, n))


def responder(ex: dict) -> str:
    """The party that is losing answers next: the defender while the action stands [4.3]."""
    return "def" if live(ex) else "att"


def answers(cid: str, node: dict) -> bool:
    """Whether card ``cid`` played as a reaction can target ``node`` [L158, L239]."""
    c = tables.card(cid)
    if not c.reacts:
        return False
    if c.remove:
        return node["target"] is not None  # Ace's reaction acts on reactions, never on the action itself
    return node["card"] in c.cancels


def _with_play(ex: dict, cid: str, party: str, ac: str, on: int, source: str) -> dict:
    nodes = [dict(m) for m in ex["nodes"]]
    new = {"n": len(nodes) + 1, "card": cid, "party": party, "ac": ac, "target": on,
           "removed": False, "source": source, "crit": None}
    nodes.append(new)
    out = dict(ex, nodes=nodes)
    if tables.card(cid).remove:
        _remove_subtree(out, on)
        new["removed"] = True
    return out


def _remove_subtree(ex: dict, n: int) -> None:
    ex["nodes"][n - 1]["removed"] = True
    for m in ex["nodes"]:
        if m["target"] == n and not m["removed"]:
            _remove_subtree(ex, m["n"])


def play_problem(ex: dict, cid: str, party: str, on: int, distinct: bool) -> str:
    """Why ``party`` may not play ``cid`` against table card ``on`` now ("" when it may)."""
    if on < 1 or on > len(ex["nodes"]):
        return t_("there is no card %(n)s on the table", n=on)
    node = ex["nodes"][on - 1]
    c = tables.card(cid)
    if node["removed"]:
        return t_("card %(n)s was removed from the table %(ref)s", n=on, ref="[L239]")
    if node["party"] == party:
        return t_("card %(n)s is your own side's card: reactions answer the opponent %(ref)s", n=on, ref="[L158]")
    if not answers(cid, node):
        return t_("%(card)s cannot answer %(other)s %(ref)s", card=c.name, other=tables.card(node['card']).name, ref="[L158]")
    if distinct and any(m["card"] == cid and m["party"] == party and m["target"] == on and not m["removed"]
                        for m in ex["nodes"]):
        return f"{c.name} was already played against card {on}: reactions against one card must differ [L158]"
    if responder(ex) != party:
        return "the exchange is going your way: only the losing party answers [4.3]"
    after = _with_play(ex, cid, party, "", on, "hand")
    if live(after) == (party == "def"):
        return f"{c.name} against card {on} would not change the outcome [4.3]"
    return ""


def play(ex: dict, cid: str, party: str, ac: str, on: int, source: str) -> dict:
    """The table after ``party`` plays ``cid`` on card ``on``; Ace's reaction removes both at once [L239]."""
    return _with_play(ex, cid, party, ac, on, source)


def reaction_sources(g: Game, ex: dict, party: str) -> list[tuple[str, str]]:
    """Cards the party's aircraft may react with: (card, "hand"|"dp") [L148, L158]."""
    aid = ex["attacker"] if party == "att" else ex["target"]
    a = g.ac(aid)
    out = [(c, "hand") for c in sorted(set(a["hand"])) if tables.card(c).reacts]
    dp = g.doc["dp"].get(a["side"])
    if dp and tables.card(dp).reacts and _dp_live(g, a["side"]):
        out.append((dp, "dp"))
    return out


def _dp_live(g: Game, side: str) -> bool:
    return any(o["obj"] == "dp" and not o["destroyed"] for o in g.doc["ground"][side])


def options(g: Game, ex: dict, party: str) -> list[dict]:
    """Every legal (card, source, target) for the answering party, most recent target first."""
    out = []
    distinct = g.opt("distinct_reactions")
    for cid, source in reaction_sources(g, ex, party):
        for node in reversed(ex["nodes"]):
            if not play_problem(ex, cid, party, node["n"], distinct):
                out.append({"card": cid, "source": source, "on": node["n"]})
    return out


# ---- manoeuvre effects [L215-223] ------------------------------------------------------------


def face_each_other(a: dict, b: dict) -> None:
    """Neutral position: nose to nose [L223]."""
    a["facing"] = direction(tuple(a["cell"]), tuple(b["cell"]))
    b["facing"] = direction(tuple(b["cell"]), tuple(a["cell"]))


def flank_swap(a: dict, b: dict) -> None:
    """Mirror a flank position: the actor turns nose-on, the target takes the actor's old side-on facing [L219-221]."""
    old = a["facing"]
    a["facing"] = direction(tuple(a["cell"]), tuple(b["cell"]))
    b["facing"] = old


def turn_aircraft(a: dict, way: str) -> None:
    """Change of position: 90 degrees in its cell [L217]."""
    a["facing"] = rotate(a["facing"], way)
