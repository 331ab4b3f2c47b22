"""Beats: declaring an action, the reaction exchange and the effect of what survives [4.2 T3, 4.3, 6.3-6.5]."""
from __future__ import annotations

from . import combat, tables
from .damage import damage, give_up, policy
from .abilities import own_object
from .flight import aa_check, enter
from .asks import ask
from .movement import shifted_alt
from .script_verbs import Attack, Manoeuvre, OnCancelled, parse_script_line
from .state import Game
from pbem.core.texts import join, t_, tn_


def beat_of(ex: dict) -> Attack | Manoeuvre:
    """The action card's order, kept as its canonical line on the table."""
    return parse_script_line(ex["beat"])


def declare_problem(g: Game, a: dict, beat: Attack | Manoeuvre) -> str:
    """Why the beat cannot be played when it is reached ("" when it can)."""
    cid, name = beat.card, tables.card(beat.card).name
    if beat.from_dp and not (own_object(g, a["side"], "dp") and g.doc["dp"][a["side"]] == cid):
        return t_("%(card)s is not on your dispatch post %(ref)s", card=name, ref="[L148]")
    if not beat.from_dp and cid not in a["hand"]:
        return t_("%(card)s is not in the hand", card=name)
    target = g.ac(beat.target) if beat.target else None
    if target is not None and target["destroyed"]:
        return t_("%(target)s is destroyed", target=target['id'])
    t = g.doc["turn"]
    if isinstance(beat, Manoeuvre):
        return combat.manoeuvre_problem(g, a, target, cid, beat.apply, t)
    why = combat.attack_problem(g, a, target, cid, t, beat.crit)
    if not why and beat.crit and (beat.crit not in a["hand"] or tables.card(beat.crit).kind != "crit"):
        why = "the critical-hit card is not in the hand [L194]"
    return why


def declare(g: Game, a: dict, beat: Attack | Manoeuvre, counters: OnCancelled) -> str | None:
    """Lay an action card, pay for it at once, and open the reaction exchange [L178, L231, L253];
    why the beat cannot be played, or None."""
    why = declare_problem(g, a, beat)
    if why:
        return why
    t = g.doc["turn"]
    cid, c = beat.card, tables.card(beat.card)
    target = g.ac(beat.target) if beat.target else None
    if beat.from_dp:
        g.doc["dp"][a["side"]] = None  # played from the post, then discarded with the beat [L148]
    else:
        a["hand"].remove(cid)
    crit = beat.crit if isinstance(beat, Attack) else None
    if crit:
        a["hand"].remove(crit)
    what = t_("%(card)s as a manoeuvre", card=c.name)
    if isinstance(beat, Attack):
        what = t_("%(card)s as an attack (%(pay)s)", card=c.name, pay=pay_for_attack(g, a, target, beat))
    t["actions"] += 1
    t["beats"] += 1
    root = {"n": 1, "card": cid, "party": "att", "ac": a["id"], "target": None, "removed": False,
            "source": "dp" if beat.from_dp else "hand", "crit": crit}
    t["exchange"] = {"attacker": a["id"], "target": target["id"] if target else None, "beat": beat.text(),
                     "nodes": [root], "counters": list(counters.cards), "counter_ask": bool(counters.ask),
                     "closed": target is None, "no": t["beats"]}
    crit_text = join("", [t_(" with %(card)s", card=tables.card(crit).name) if crit else "",
                          t_(" from the dispatch post") if beat.from_dp else ""])
    g.say(t_("beat %(no)s: %(id)s plays %(what)s%(crit)s against %(target)s%(params)s", no=t["beats"], id=a["id"],
             what=what, crit=crit_text, target=target["id"] if target else t_("itself"), params=describe_params(beat)),
          kind="beat")
    return None


def pay_for_attack(g: Game, a: dict, target: dict, beat: Attack) -> str:
    """Spend the firing points and give up the extra card the attack demands [L178, L231]; says what it cost."""
    t = g.doc["turn"]
    c = tables.card(beat.card)
    _, pool = combat.firing_available(g, a, target, t["spent"], t["turret_spent"])
    t["turret_spent" if pool == "turret" else "spent"] += c.cost
    if c.extra_discard:
        give_up(g, a, c.extra_discard, t_("the extra card %(card)s demands %(ref)s", card=c.name, ref="[L178]"),
                [beat.extra] if beat.extra else (), allow_malfunction=False)
    return t_("cost %(cost)s%(turret)s", cost=c.cost, turret=t_(", turret") if pool == "turret" else "")


def describe_params(beat: Attack | Manoeuvre) -> str:
    if isinstance(beat, Manoeuvre) and beat.turns:
        return t_(" (turning %(apply)s %(rotate)s)", apply=beat.apply, rotate=beat.rotate)
    return ""


def step_exchange(g: Game) -> None:
    """One answer in the exchange: the losing party plays or passes [4.3]."""
    t = g.doc["turn"]
    ex = t["exchange"]
    if ex["closed"]:
        close_exchange(g)
        return
    party = combat.responder(ex)
    opts = combat.options(g, ex, party)
    a = g.ac(ex["attacker"] if party == "att" else ex["target"])
    if not any(tables.card(c).kind != "malfunction" for c in a["hand"]) and not any(o["source"] == "dp" for o in opts):
        # an empty hand, or one of malfunction backs only, is public knowledge: no window opens
        # that nobody could answer, and skipping it tells the enemy nothing it did not see
        ex["closed"] = True
        return
    if party == "def":
        target = g.ac(ex["target"])
        seat = target["seat"]
        pick = policy_pick(g, ex, target, opts)
        asking = policy(g, seat)["react_default"] == "ask"
    else:
        seat = t["seat"]
        pick = None
        for cid in list(ex["counters"]):
            found = [o for o in opts if o["card"] == cid]
            if found:
                ex["counters"].remove(cid)
                pick = found[0]
                break
        asking = ex["counter_ask"]
    if pick:
        answer(g, ex, party, pick)
        return
    if asking:
        # Asked whenever no standing order settles the answer, whether or not the hand holds a
        # legal card: an interrupt opened only when one exists would tell the enemy so [5].
        ask(g, "react", [seat], party=party, ac=ex["attacker"] if party == "att" else ex["target"])
        return
    ex["closed"] = True


def policy_pick(g: Game, ex: dict, target: dict, opts: list[dict]) -> dict | None:
    """The defender's REACT rules, first match wins [4.3, 10.2 I1]."""
    pol = policy(g, target["seat"])
    dp_use = pol["dp_use"]
    ordered = sorted(opts, key=lambda o: {"first": 0, "last": 1}.get(dp_use, 1) if o["source"] == "dp"
                     else {"first": 1, "last": 0}.get(dp_use, 0))
    if dp_use == "never":
        ordered = [o for o in ordered if o["source"] != "dp"]
    for rule in pol["react"]:
        if not rule_applies(g, ex, target, rule):
            continue
        for o in ordered:
            if rule["card"] in ("*", o["card"]):
                return o
    return None


def rule_applies(g: Game, ex: dict, target: dict, rule: dict) -> bool:
    """Whether a REACT rule covers this exchange: aircraft, kind or card of the action, its damage,
    whether it would kill, and how many cards the defender has already played [4.3]."""
    root = tables.card(ex["nodes"][0]["card"])
    kind = "attack" if isinstance(beat_of(ex), Attack) else "manoeuvre"
    played = sum(1 for n in ex["nodes"] if n["party"] == "def")
    return (rule["ac"] in ("*", target["id"]) and rule["against"] in ("any", kind, root.id)
            and not (rule["min_damage"] and (kind != "attack" or root.damage < rule["min_damage"]))
            and not (rule.get("lethal") and not (kind == "attack" and would_destroy(g, target, root.damage)))
            and not (rule.get("max") and played >= rule["max"]))


def would_destroy(g: Game, a: dict, n: int) -> bool:
    """Whether ``n`` more damage would shoot ``a`` down (its markers and structure are public) [6.5]."""
    t = g.type_of(a)
    if a["damaged"]:
        return a["markers"] + n >= t.damaged.structure
    left = a["markers"] + n - t.intact.structure
    return left >= 0 and (left if g.opt("carry_excess") else 0) >= t.damaged.structure


def answer(g: Game, ex: dict, party: str, o: dict) -> None:
    aid = ex["attacker"] if party == "att" else ex["target"]
    a = g.ac(aid)
    if o["source"] == "dp":
        g.doc["dp"][a["side"]] = None
    else:
        a["hand"].remove(o["card"])
    new = combat.play(ex, o["card"], party, aid, o["on"], o["source"])
    ex["nodes"] = new["nodes"]
    on = ex["nodes"][o["on"] - 1]
    src = t_(" from the dispatch post") if o["source"] == "dp" else ""
    removed = t_(" -- both cards leave the table %(ref)s", ref="[L239]") if tables.card(o["card"]).remove else ""
    g.say(t_("%(id)s answers with %(card)s%(src)s against card %(on)s (%(their)s of %(ac)s)%(removed)s", id=aid,
             card=tables.card(o['card']).name, src=src, on=o['on'], their=tables.card(on['card']).name, ac=on['ac'],
             removed=removed), kind="reaction")


def close_exchange(g: Game) -> None:
    """Resolve the beat: apply the surviving action, discard the table [L241, L251, L194, L209]."""
    t = g.doc["turn"]
    ex = t["exchange"]
    t["exchange"] = None
    ok = combat.live(ex)
    t["last_ok"] = ok
    a = g.ac(ex["attacker"])
    target = g.ac(ex["target"]) if ex["target"] else None
    root = ex["nodes"][0]
    c = tables.card(root["card"])
    to_discard = []
    for node in ex["nodes"]:
        if node is root and ok and c.burn and target is not None:
            target["attached"].append({"card": c.id, "burn": c.burn, "turns": c.turns})
        else:
            to_discard.append(node["card"])
    if root["crit"]:
        cc = tables.card(root["crit"])
        if ok and target is not None:
            target["attached"].append({"card": cc.id, "burn": cc.burn, "turns": cc.turns,
                                       "firing_malus": cc.firing_malus})
        else:
            to_discard.append(cc.id)
    g.discard(to_discard)
    verdict = t_("succeeds") if ok else t_("is cancelled")
    g.say(tn_("beat %(no)s: %(card)s %(verdict)s; %(n)s card(s) go to the discard",
              "beat %(no)s: %(card)s %(verdict)s; %(n)s card(s) go to the discard", len(to_discard), no=ex['no'],
              card=c.name, verdict=verdict), kind="beat")
    if not ok:
        return
    beat = beat_of(ex)
    if isinstance(beat, Attack):
        if root["crit"] and target is not None:
            g.say(t_("%(card)s is laid by %(id)s's hangar %(ref)s", card=tables.card(root['crit']).name, id=target['id'],
                     ref="[L194]"), kind="crit")
        if c.burn and target is not None:
            g.say(tn_("%(card)s stays by %(id)s's hangar for %(n)s turn(s) %(ref)s",
                     "%(card)s stays by %(id)s's hangar for %(n)s turn(s) %(ref)s", c.turns, card=c.name,
                     id=target['id'], ref="[L209]"), kind="persistent")
        damage(g, target, c.damage, a["side"], t_("%(id)s's %(card)s", id=a['id'], card=c.name))
        return
    apply_manoeuvre(g, a, target, beat)


def apply_manoeuvre(g: Game, a: dict, target: dict | None, beat: Manoeuvre) -> None:
    eff = tables.card(beat.card).effect
    if eff == "change_position":
        who = a if beat.apply == "self" or target is None else target
        combat.turn_aircraft(who, beat.rotate)
        g.say(t_("%(id)s turns %(rotate)s to face %(facing)s", id=who['id'], rotate=beat.rotate, facing=who['facing']),
              kind="manoeuvre")
    elif eff == "neutral":
        combat.face_each_other(a, target)
        g.say(t_("%(id)s and %(other)s turn nose to nose", id=a['id'], other=target['id']), kind="manoeuvre")
    elif eff == "flank_swap":
        combat.flank_swap(a, target)
        g.say(t_("%(id)s turns nose-on to %(other)s, which now shows its side", id=a['id'], other=target['id']),
              kind="manoeuvre")
    elif eff in ("self_climb", "self_descend"):
        alt = shifted_alt(a["alt"], 1 if eff == "self_climb" else -1)
        if alt:
            enter(g, a, alt, beat.cell, beat.face or a["facing"])
            aa_check(g, a)
    elif eff in ("enemy_climb", "enemy_descend") and target is not None:
        alt = shifted_alt(target["alt"], 1 if eff == "enemy_climb" else -1)
        if alt:
            enter(g, target, alt, None, target["facing"])
