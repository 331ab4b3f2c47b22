"""The round and one aircraft's turn as a resumable machine [4.1-4.3].

:func:`advance` runs the game forward until somebody owes a decision no standing
order covers: the active player's turn script, a reaction the policies do not settle,
a pursuit asked for, or the next set-up step.  Everything it needs to resume is in
``doc["turn"]`` (the script, its cursor, the table of the current beat, the pursuit
queue), so an interrupt phase is just a pause between two calls.
"""
from __future__ import annotations

from . import combat, tables
from .damage import card_names, damage, draw_into, finish, give_up, policy, trim_hand
from .geometry import NOSE, POSITION, SIDE, direction
from .movement import aa_sector, entry_cells, place, pursuit_cells, shifted_alt
from .state import Game, other_side

BEATS = ("manoeuvre", "attack", "ground")


def open_pending(g: Game, kind: str, seats, **data) -> None:
    g.doc["counter"] += 1
    g.doc["pending"] = {"kind": kind, "seats": sorted(seats), "n": g.doc["counter"], **data}


def advance(g: Game, dice) -> None:
    """Run until a decision is owed or the game is over."""
    while not g.doc["over"] and g.doc["pending"] is None:
        if g.doc["turn"] is None:
            next_activation(g, dice)
        else:
            run_turn(g, dice)


# ---- rounds and activation [4.1] --------------------------------------------------------------


def side_to_move(g: Game) -> str | None:
    """Sides alternate, the initiative side first each round; a side with nobody left is skipped [L287]."""
    todo = {s: [a for a in g.on_board(s) if not a["done"]] for s in tables.SIDES}
    last = g.doc["last_side"]
    first = g.doc["initiative"] if last is None else other_side(last)
    for side in (first, other_side(first)):
        if todo[side]:
            return side
    return None


def sequence(g: Game, side: str) -> list[dict]:
    """The side's aircraft still to act, in its SEQUENCE standing order [L325]."""
    order = g.doc["side_policies"][side]["sequence"]
    todo = [a for a in g.on_board(side) if not a["done"]]
    return sorted(todo, key=lambda a: (order.index(a["id"]) if a["id"] in order else 99, a["id"]))


def next_activation(g: Game, dice) -> None:
    side = side_to_move(g)
    if side is None:
        end_round(g)
        return
    a = sequence(g, side)[0]
    if policy(g, a["seat"])["activation"] == "ask":
        open_pending(g, "activate", [a["seat"]], side=side, ac=a["id"])
        return
    activate(g, a, dice, ())


def end_round(g: Game) -> None:
    """Number cards and used ground objects turn back; a new round starts [L327]."""
    g.say(f"round {g.doc['round']} ends", kind="round")
    limit = g.opt("max_rounds")
    if limit and g.doc["round"] >= limit:
        finish(g, f"the agreed limit of {limit} rounds is reached")
        return
    g.doc["round"] += 1
    g.doc["last_side"] = None
    for a in g.aircraft():
        a["done"] = False
    for side in tables.SIDES:
        g.doc["cp_used"][side] = False
    g.say(f"round {g.doc['round']} begins; {g.doc['initiative']} has the initiative", kind="round")


def activate(g: Game, a: dict, dice, pre_discard) -> None:
    """T0 discard, persistent effects, the activation draw, AA fire; then the script is owed [L291-293]."""
    g.doc["last_side"] = a["side"]
    g.say(f"{a['id']} ({g.type_of(a).model}, {a['seat']}) is activated", kind="activate")
    gone = []
    planned, a["next_discard"] = list(a.get("next_discard", [])), []
    for c in list(pre_discard) + planned:
        if c in a["hand"] and tables.card(c).kind != "malfunction":
            a["hand"].remove(c)
            gone.append(c)
    if gone:
        g.discard(gone)
        g.say(f"{a['id']} discards {card_names(gone)} before activating [L291]", kind="discard")
    for att in list(a["attached"]):
        if att.get("burn"):
            damage(g, a, att["burn"], other_side(a["side"]), tables.card(att["card"]).name)
            if a["destroyed"]:
                break
            att["turns"] -= 1
            if att["turns"] <= 0:
                a["attached"].remove(att)
                g.discard([att["card"]])
                g.say(f"{tables.card(att['card']).name} on {a['id']} runs out", kind="persistent")
    if a["destroyed"]:
        return
    st = g.stats(a)
    if len(a["hand"]) < st.ttx:
        draw_into(g, a, min(st.power, st.ttx - len(a["hand"])), dice, "activation draw [L293]")
    g.doc["turn"] = {"ac": a["id"], "seat": a["seat"], "script": [], "pc": 0, "spent": 0, "turret_spent": 0,
                     "swapped": False, "moved": False, "actions": 0, "beats": 0, "ground_attacked": False,
                     "aa_fired": False, "last_ok": None, "exchange": None, "pursuit": None,
                     "end_discard": [], "more": False, "step": 0}
    aa_check(g, a, dice)
    if a["destroyed"] or g.doc["over"]:
        g.doc["turn"] = None
        return
    open_pending(g, "script", [a["seat"]], ac=a["id"])


def take_script(g: Game, items: list[dict]) -> None:
    """Store the active player's script; in step mode a script with a beat asks again afterwards."""
    t = g.doc["turn"]
    t["script"], t["pc"], t["step"] = items, 0, t["step"] + 1
    t["more"] = bool(g.opt("step_mode")) and any(i["op"] in BEATS for i in items) \
        and not any(i["op"] == "end" for i in items)


def run_turn(g: Game, dice) -> None:
    t = g.doc["turn"]
    a = g.ac(t["ac"])
    if a["destroyed"]:
        a["done"] = True
        g.doc["turn"] = None
        return
    if t["exchange"]:
        step_exchange(g, dice)
        return
    if t["pursuit"]:
        step_pursuit(g, dice)
        return
    if t["pc"] >= len(t["script"]):
        if t["more"] and not t["ground_attacked"]:
            t["more"] = False
            open_pending(g, "script", [a["seat"]], ac=a["id"])
            return
        finish_turn(g, a)
        return
    item = t["script"][t["pc"]]
    t["pc"] += 1
    run_item(g, a, item, dice)


def finish_turn(g: Game, a: dict) -> None:
    """T4: malfunctions are repaired, the hand is cut to TTX, the number card turns [L42, L255, L321]."""
    t = g.doc["turn"]
    broken = [c for c in a["hand"] if tables.card(c).kind == "malfunction"]
    for c in broken:
        a["hand"].remove(c)
    if broken:
        g.discard(broken)
        g.say(f"{a['id']} repairs {card_names(broken)} at the end of its turn", kind="malfunction")
    trim_hand(g, a, "hand limit at the end of the turn [L42]", t["end_discard"])
    a["done"] = True
    g.doc["turn"] = None
    g.say(f"{a['id']} ends its turn", kind="turn")


def skip(g: Game, a: dict, item: dict, why: str) -> None:
    g.say(f"{a['id']}: order '{item['text']}' is skipped: {why}", [a["seat"]], kind="skipped")


def run_item(g: Game, a: dict, item: dict, dice) -> None:
    t = g.doc["turn"]
    op = item["op"]
    if op == "move":
        if t["moved"] or t["actions"]:
            skip(g, a, item, "movement comes once, before combat [L295]")
        else:
            move(g, a, item, dice)
    elif op in ("manoeuvre", "attack"):
        declare(g, a, item, dice)
    elif op == "ground":
        ground_attack(g, a, item, dice)
    elif op == "swap":
        swap(g, a, item, dice)
    elif op == "cp":
        use_cp(g, a, item, dice)
    elif op == "dp":
        deposit(g, a, item)
    elif op == "end_discard":
        t["end_discard"] = list(item["cards"])
    elif op == "next_discard":
        a["next_discard"] = list(item["cards"])
    elif op == "end":
        t["pc"] = len(t["script"])
        t["more"] = False


# ---- movement [6.2] ---------------------------------------------------------------------------


def move(g: Game, a: dict, item: dict, dice) -> None:
    t = g.doc["turn"]
    kind = item["kind"]
    t["moved"] = True
    if kind == "stay":
        return
    if kind in ("move", "rotate"):
        if g.in_dogfight(a):
            skip(g, a, item, "an aircraft in a dogfight may not move or turn in its field [L119, L135]")
            return
        if kind == "move":
            cell = tuple(item["cell"])
            if not g.free(a["alt"], cell):
                skip(g, a, item, f"cell {cell[0]},{cell[1]} is not free [L135]")
                return
            a["cell"] = list(cell)
        a["facing"] = item["face"]
        g.say(f"{a['id']} moves to {a['alt']} {a['cell'][0]},{a['cell'][1]} facing {a['facing']}", kind="move")
        aa_check(g, a, dice)
        return
    step = 1 if kind == "climb" else -1
    new_alt = shifted_alt(a["alt"], step)
    if new_alt is None:
        skip(g, a, item, "there is no field beyond that altitude [L136]")
        return
    if g.malfunctions(a, "engine"):
        skip(g, a, item, "engine trouble: no altitude change while the malfunction is in hand")
        return
    if kind == "climb" and not any(tables.card(c).kind != "malfunction" for c in a["hand"]):
        skip(g, a, item, "climbing costs a card from the hand and the hand is empty [L136]")
        return
    chasers = [p for p in g.enemies_in_dogfight(a) if g.aspect(p, a) == NOSE]
    extra = {p["id"]: g.aspect(a, p) in (SIDE, NOSE) for p in chasers}
    x_old, f0 = tuple(a["cell"]), a["facing"]
    if kind == "climb":
        give_up(g, a, 1, "the cost of climbing [L136]", [item.get("discard")] if item.get("discard") else (),
                allow_malfunction=False)
    else:
        draw_into(g, a, 1, dice, "descending [L136]")
        if a["destroyed"]:
            return
    enter(g, a, new_alt, item.get("cell"), item.get("face") or a["facing"])
    if chasers:
        t["pursuit"] = {"queue": [p["id"] for p in chasers], "x_old": list(x_old), "f0": f0,
                        "x_new": list(a["cell"]), "f1": a["facing"], "alt": new_alt, "step": step,
                        "extra": extra, "answer": None}
    aa_check(g, a, dice)


def enter(g: Game, a: dict, alt: str, wanted, facing: str) -> bool:
    """Enter a field by the start-cell rule [L133]; ``wanted`` is used only if the start cell is taken."""
    cells = entry_cells(g, a["side"], alt)
    if not cells:
        g.say(f"{a['id']} finds no free cell at {alt} altitude and stays where it is", kind="move")
        return False
    cell = tuple(wanted) if wanted and tuple(wanted) in cells else cells[0]
    place(a, alt, cell, facing)
    g.say(f"{a['id']} enters {alt} altitude at {cell[0]},{cell[1]} facing {facing}", kind="move")
    return True


def step_pursuit(g: Game, dice) -> None:
    """Each eligible enemy may follow the aircraft that changed altitude [L140]."""
    t = g.doc["turn"]
    pq = t["pursuit"]
    if not pq["queue"]:
        t["pursuit"] = None
        return
    p = g.ac(pq["queue"][0])
    extra = pq["extra"][p["id"]]
    need = (1 if pq["step"] > 0 else 0) + (1 if extra else 0)
    usable = sum(1 for c in p["hand"] if tables.card(c).kind != "malfunction") + (1 if pq["step"] < 0 else 0)
    able = not p["destroyed"] and not g.malfunctions(p, "engine") and usable >= need
    x = g.ac(t["ac"])
    cells, facing, _ = pursuit_cells(g, p, tuple(pq["x_old"]), pq["f0"], tuple(x["cell"]), x["facing"], pq["alt"])
    if not able or not cells:
        pq["queue"].pop(0)
        return
    answer = pq["answer"]
    if answer is None:
        rule = pursuit_rule(g, p)
        if rule == "ask":
            open_pending(g, "pursue", [p["seat"]], ac=p["id"], target=x["id"], extra=extra,
                         cells=[list(c) for c in cells], climb=pq["step"] > 0)
            return
        answer = {"go": rule == "yes" or (rule == "free" and not extra), "cell": None, "face": None}
    pq["queue"].pop(0)
    pq["answer"] = None
    if not answer["go"]:
        g.say(f"{p['id']} does not pursue {x['id']}", kind="pursuit")
        return
    if pq["step"] > 0:
        give_up(g, p, 1, "the cost of climbing in pursuit [L140]", allow_malfunction=False)
    else:
        draw_into(g, p, 1, dice, "descending in pursuit [L140]")
    if extra:
        give_up(g, p, 1, "pursuing a target that showed its side or nose [L140]", allow_malfunction=False)
    if p["destroyed"]:
        return
    cells, facing, preserved = pursuit_cells(g, p, tuple(pq["x_old"]), pq["f0"], tuple(x["cell"]),
                                             x["facing"], pq["alt"])
    if not cells:
        return
    cell = tuple(answer["cell"]) if answer.get("cell") and tuple(answer["cell"]) in cells else cells[0]
    if preserved is None:
        facing = answer.get("face") or direction(cell, tuple(x["cell"])) or facing
    place(p, pq["alt"], cell, facing)
    g.say(f"{p['id']} pursues {x['id']} to {pq['alt']} altitude, {cell[0]},{cell[1]} facing {facing}", kind="pursuit")


def pursuit_rule(g: Game, p: dict) -> str:
    rules = policy(g, p["seat"])["pursue"]
    return rules.get(p["id"], rules.get("*", "ask"))


# ---- AA battery [6.8] ------------------------------------------------------------------------


def aa_check(g: Game, a: dict, dice) -> None:
    """An enemy AA battery fires once at an activated aircraft in (or entering) its sector [L150-152]."""
    t = g.doc["turn"]
    if t is None or t["aa_fired"] or a["destroyed"] or a["alt"] != "low" or not g.doc["revealed"]:
        return
    enemy = other_side(a["side"])
    for obj in g.doc["ground"][enemy]:
        if obj["obj"] != "aa" or obj["destroyed"] or tuple(a["cell"]) not in aa_sector(obj["slot"]):
            continue
        t["aa_fired"] = True
        if g.doc["side_policies"][enemy]["aa"] == "hold":
            g.say(f"{enemy}'s AA battery holds its fire at {a['id']}", kind="aa")
            return
        drawn = [c for c in (g.draw(dice, "AA battery"), g.draw(dice, "AA battery")) if c]
        g.say(f"{enemy}'s AA battery fires at {a['id']}: draws {card_names(drawn)}", kind="aa")
        attacks = sorted((c for c in drawn if tables.card(c).kind == "attack"),
                         key=lambda c: (-tables.card(c).damage, c))
        g.discard(drawn)
        if attacks:
            damage(g, a, tables.card(attacks[0]).damage, enemy, f"the AA battery ({tables.card(attacks[0]).name})")
        else:
            g.say("the AA battery draws no attack card and misses", kind="aa")
        return


# ---- beats: declaring, the exchange, effects [4.2 T3, 4.3] -----------------------------------


def condition_holds(g: Game, a: dict, cond: dict | None) -> bool:
    if not cond:
        return True
    t = g.doc["turn"]
    if cond["kind"] == "prev":
        return t["last_ok"] is (cond["value"] == "ok")
    if cond["kind"] == "pos":
        e = g.ac(cond["target"])
        if e["destroyed"] or e not in g.enemies_in_dogfight(a) or g.aspect(a, e) != NOSE:
            return False
        return POSITION[g.aspect(e, a)] in cond["value"]
    return True


def declare(g: Game, a: dict, item: dict, dice) -> None:
    """Lay an action card, pay for it at once, and open the reaction exchange [L178, L231, L253]."""
    t = g.doc["turn"]
    if not condition_holds(g, a, item.get("cond")):
        skip(g, a, item, "its condition does not hold")
        return
    cid = item["card"]
    from_dp = item.get("source") == "dp"
    if from_dp and not (own_object(g, a["side"], "dp") and g.doc["dp"][a["side"]] == cid):
        skip(g, a, item, f"{tables.card(cid).name} is not on your dispatch post [L148]")
        return
    if not from_dp and cid not in a["hand"]:
        skip(g, a, item, f"{tables.card(cid).name} is not in the hand")
        return
    target = g.ac(item["target"]) if item.get("target") else None
    if target is not None and target["destroyed"]:
        skip(g, a, item, f"{target['id']} is destroyed")
        return
    if item["op"] == "attack":
        why = combat.attack_problem(g, a, target, cid, t)
    else:
        why = combat.manoeuvre_problem(g, a, target, cid, item.get("apply", "target"), t)
    crit = item.get("crit")
    if not why and crit and (crit not in a["hand"] or tables.card(crit).kind != "crit"):
        why = "the critical-hit card is not in the hand [L194]"
    if why:
        skip(g, a, item, why)
        return
    if from_dp:
        g.doc["dp"][a["side"]] = None  # played from the post, then discarded with the beat [L148]
    else:
        a["hand"].remove(cid)
    if crit:
        a["hand"].remove(crit)
    c = tables.card(cid)
    if item["op"] == "attack":
        avail, pool = combat.firing_available(g, a, target, t["spent"], t["turret_spent"])
        t["turret_spent" if pool == "turret" else "spent"] += c.cost
        if c.extra_discard:
            give_up(g, a, c.extra_discard, f"the extra card {c.name} demands [L178]",
                    [item["extra"]] if item.get("extra") else (), allow_malfunction=False)
    t["actions"] += 1
    t["beats"] += 1
    root = {"n": 1, "card": cid, "party": "att", "ac": a["id"], "target": None, "removed": False,
            "source": "dp" if from_dp else "hand", "crit": crit}
    ex = {"attacker": a["id"], "target": target["id"] if target else None, "beat": item, "nodes": [root],
          "counters": list(item.get("counter", [])), "counter_ask": bool(item.get("counter_ask")),
          "closed": False, "no": t["beats"]}
    what = f"{c.name} as " + ("a manoeuvre" if item["op"] == "manoeuvre" else "an attack")
    if item["op"] == "attack":
        what += f" (cost {c.cost}{', turret' if pool == 'turret' else ''})"
    crit_text = f" with {tables.card(crit).name}" if crit else ""
    crit_text += " from the dispatch post" if from_dp else ""
    g.say(f"beat {t['beats']}: {a['id']} plays {what}{crit_text} against {target['id'] if target else 'itself'}"
          + describe_params(item), kind="beat")
    t["exchange"] = ex
    if target is None:
        ex["closed"] = True


def describe_params(item: dict) -> str:
    bits = []
    if item["op"] == "manoeuvre":
        eff = tables.card(item["card"]).effect
        if eff == "change_position":
            bits.append(f"turning {item.get('apply', 'target')} {item.get('rotate', 'cw')}")
    return f" ({', '.join(bits)})" if bits else ""


def step_exchange(g: Game, dice) -> None:
    """One answer in the exchange: the losing party plays or passes [4.3]."""
    t = g.doc["turn"]
    ex = t["exchange"]
    if ex["closed"]:
        close_exchange(g, dice)
        return
    party = combat.responder(ex)
    opts = combat.options(g, ex, party)
    a = g.ac(ex["attacker"] if party == "att" else ex["target"])
    if not a["hand"] and not any(o["source"] == "dp" for o in opts):
        ex["closed"] = True  # an empty hand (public knowledge) has nothing to answer with
        return
    if party == "def":
        target = g.ac(ex["target"])
        seat = target["seat"]
        pick = policy_pick(g, ex, target, opts)
        ask = policy(g, seat)["react_default"] == "ask"
    else:
        seat = t["seat"]
        pick = None
        for cid in list(ex["counters"]):
            found = [o for o in opts if o["card"] == cid]
            if found:
                ex["counters"].remove(cid)
                pick = found[0]
                break
        ask = ex["counter_ask"]
    if pick:
        answer(g, ex, party, pick)
        return
    if ask:
        # Asked whenever no standing order settles the answer, whether or not the hand holds a
        # legal card: an interrupt opened only when one exists would tell the enemy so [5].
        open_pending(g, "react", [seat], party=party, ac=ex["attacker"] if party == "att" else ex["target"])
        return
    ex["closed"] = True


def policy_pick(g: Game, ex: dict, target: dict, opts: list[dict]) -> dict | None:
    """The defender's REACT rules, first match wins [4.3, 10.2 I1]."""
    pol = policy(g, target["seat"])
    root = tables.card(ex["nodes"][0]["card"])
    dp_use = pol["dp_use"]
    ordered = sorted(opts, key=lambda o: {"first": 0, "last": 1}.get(dp_use, 1) if o["source"] == "dp"
                     else {"first": 1, "last": 0}.get(dp_use, 0))
    if dp_use == "never":
        ordered = [o for o in ordered if o["source"] != "dp"]
    kind = "attack" if ex["beat"]["op"] == "attack" else "manoeuvre"
    for rule in pol["react"]:
        if rule["ac"] not in ("*", target["id"]):
            continue
        if rule["against"] not in ("any", kind, root.id):
            continue
        if rule["min_damage"] and (kind != "attack" or root.damage < rule["min_damage"]):
            continue
        if rule.get("lethal") and not (kind == "attack" and would_destroy(g, target, root.damage)):
            continue
        played = sum(1 for n in ex["nodes"] if n["party"] == "def")
        if rule.get("max") and played >= rule["max"]:
            continue
        for o in ordered:
            if rule["card"] in ("*", o["card"]):
                return o
    return None


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
    src = " from the dispatch post" if o["source"] == "dp" else ""
    removed = " -- both cards leave the table [L239]" if tables.card(o["card"]).remove else ""
    g.say(f"{aid} answers with {tables.card(o['card']).name}{src} against card {o['on']} "
          f"({tables.card(on['card']).name} of {on['ac']}){removed}", kind="reaction")


def close_exchange(g: Game, dice) -> None:
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
    verdict = "succeeds" if ok else "is cancelled"
    g.say(f"beat {ex['no']}: {c.name} {verdict}; {len(to_discard)} card(s) go to the discard", kind="beat")
    if not ok:
        return
    item = ex["beat"]
    if item["op"] == "attack":
        if root["crit"] and target is not None:
            g.say(f"{tables.card(root['crit']).name} is laid by {target['id']}'s hangar [L194]", kind="crit")
        if c.burn and target is not None:
            g.say(f"{c.name} stays by {target['id']}'s hangar for {c.turns} turn(s) [L209]", kind="persistent")
        damage(g, target, c.damage, a["side"], f"{a['id']}'s {c.name}")
        return
    apply_manoeuvre(g, a, target, item, dice)


def apply_manoeuvre(g: Game, a: dict, target: dict | None, item: dict, dice) -> None:
    eff = tables.card(item["card"]).effect
    if eff == "change_position":
        who = a if item.get("apply") == "self" or target is None else target
        combat.turn_aircraft(who, item.get("rotate", "cw"))
        g.say(f"{who['id']} turns {item.get('rotate', 'cw')} to face {who['facing']}", kind="manoeuvre")
    elif eff == "neutral":
        combat.face_each_other(a, target)
        g.say(f"{a['id']} and {target['id']} turn nose to nose", kind="manoeuvre")
    elif eff == "flank_swap":
        combat.flank_swap(a, target)
        g.say(f"{a['id']} turns nose-on to {target['id']}, which now shows its side", kind="manoeuvre")
    elif eff in ("self_climb", "self_descend"):
        alt = shifted_alt(a["alt"], 1 if eff == "self_climb" else -1)
        if alt:
            enter(g, a, alt, item.get("cell"), item.get("face") or a["facing"])
            aa_check(g, a, dice)
    elif eff in ("enemy_climb", "enemy_descend") and target is not None:
        alt = shifted_alt(target["alt"], 1 if eff == "enemy_climb" else -1)
        if alt:
            enter(g, target, alt, None, target["facing"])


def ground_attack(g: Game, a: dict, item: dict, dice) -> None:
    """A shturmovik hits the ground object below it for a number card 1..10 [L301-303]."""
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
        skip(g, a, item, why)
        return
    t["actions"] += 1
    t["ground_attacked"] = True
    n = dice.roll(tables.number_cards(), why=f"{a['id']} attacks the {obj['obj']} (number card)",
                  seen_by=g.all_seats)
    obj["damage"] += n
    gt = tables.ground()[obj["obj"]]
    g.say(f"{a['id']} attacks the enemy {gt.name}: number card {n}, {n} structural damage [L303]", kind="ground")
    if obj["damage"] >= gt.structure:
        obj["destroyed"] = True
        g.doc["vp"][a["side"]] += gt.value
        g.say(f"the {other_side(a['side'])} {gt.name} is destroyed: {a['side']} scores {gt.value} VP", kind="ground")
        if obj["obj"] == "dp" and g.doc["dp"][other_side(a["side"])]:
            g.discard([g.doc["dp"][other_side(a["side"])]])
            g.doc["dp"][other_side(a["side"])] = None


def ground_below(g: Game, a: dict) -> dict | None:
    if a["alt"] != "low":
        return None
    below = (a["cell"][0], a["cell"][1] + 1)
    for obj in g.doc["ground"][other_side(a["side"])]:
        if tuple(obj["slot"]) == below and not obj["destroyed"] and obj["obj"]:
            return obj
    return None


# ---- once-per-turn helpers [L48, L146, L148] ----------------------------------------------


def swap(g: Game, a: dict, item: dict, dice) -> None:
    t = g.doc["turn"]
    cid = item["card"]
    if not g.type_of(a).swap:
        skip(g, a, item, f"{a['id']} has no swap ability [L48]")
    elif t["swapped"]:
        skip(g, a, item, "the swap ability works once per turn [L48]")
    elif cid not in a["hand"] or tables.card(cid).kind == "malfunction":
        skip(g, a, item, "the card is not in the hand or is a malfunction [L48]")
    else:
        t["swapped"] = True
        a["hand"].remove(cid)
        g.discard([cid])
        g.say(f"{a['id']} swaps {tables.card(cid).name} [L48]", kind="swap")
        draw_into(g, a, 1, dice, "swap ability [L48]")


def own_object(g: Game, side: str, obj: str) -> bool:
    return g.doc["revealed"] and any(o["obj"] == obj and not o["destroyed"] for o in g.doc["ground"][side])


def use_cp(g: Game, a: dict, item: dict, dice) -> None:
    side = a["side"]
    if not own_object(g, side, "cp"):
        skip(g, a, item, "your side has no working command post [L146]")
        return
    if g.doc["cp_used"][side]:
        skip(g, a, item, "the command post was already used this round [L146]")
        return
    g.doc["cp_used"][side] = True
    g.say(f"{a['id']} uses the command post [L146]", kind="cp")
    got = draw_into(g, a, 1, dice, "command post [L146]")
    if a["destroyed"]:
        return
    first = [item["discard"]] if item.get("discard") else []
    if not first and got and tables.card(got[0]).kind != "malfunction":
        first = [got[0]] if tables.card(got[0]).keep <= min(tables.card(c).keep for c in a["hand"]) else []
    give_up(g, a, 1, "command post [L146]", first, allow_malfunction=False)


def deposit(g: Game, a: dict, item: dict) -> None:
    side, cid = a["side"], item["card"]
    if not own_object(g, side, "dp"):
        skip(g, a, item, "your side has no working dispatch post [L148]")
    elif g.doc["dp"][side]:
        skip(g, a, item, "only one card may lie on the dispatch post [L148]")
    elif cid not in a["hand"] or tables.card(cid).kind == "malfunction":
        skip(g, a, item, "the card is not in the hand or is a malfunction [L148]")
    else:
        a["hand"].remove(cid)
        g.doc["dp"][side] = cid
        allies = g.seats_of(side)
        g.say(f"{a['id']} lays {tables.card(cid).name} face down on the dispatch post [L148]", allies, kind="dp")
        g.say(f"{a['id']} lays a card face down on the {side} dispatch post", g.all_seats - set(allies), kind="dp")
