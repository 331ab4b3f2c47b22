"""The active player's turn script [4.2, 10.2]: movement, beats with ON_CANCELLED branches,
the once-per-turn abilities, and the end-of-turn discard.

What can be known when the orders are written is checked here, from the view: cards in
hand (each copy used once), card kinds, targets, movement legality and, while no earlier
line can have changed the position, firing points.  What depends on how earlier beats
end is re-checked when the beat is reached; a beat that has become illegal is skipped
and its author told why.
"""
from __future__ import annotations

from collections import Counter

from . import tables
from .geometry import NOSE
from pbem.core.errors import OrderError

from .words import card_id, cell_arg, face_arg, illegal, keyword_args, syntax

POSITIONS = ("FRONT", "FLANK", "REAR")


def check_script(v: dict, decide: dict, cmds, problems) -> list[dict]:
    ac = decide["ac"]
    me = next(a for a in v["aircraft"] if a["id"] == ac)
    hand = Counter(v["hands"].get(ac, []))
    used: Counter = Counter()
    items: list[dict] = []
    rel = {r["id"]: r for r in decide["relations"]}
    enemies = {a["id"]: a for a in v["aircraft"] if a["side"] != v["side"] and not a["destroyed"] and a["placed"]}
    known = True  # no earlier line can have changed positions or firing
    spent = {"guns": 0, "turret": 0}
    beats = 0
    seen_move = False
    flags = Counter()

    def take(cid: str, what: str) -> None:
        if used[cid] >= hand[cid]:
            have = hand[cid]
            raise illegal(f"{ac} holds {have} {tables.card(cid).name} card(s) and this script already uses "
                      f"{used[cid]} ({what}); hand: {', '.join(sorted(hand.elements())) or 'empty'}", "2.3")
        used[cid] += 1

    failed_beat = False  # an ON_CANCELLED after a rejected beat is not reported twice
    for line, words in cmds:
        try:
            verb = words[0].upper()
            if verb != "ON_CANCELLED":
                failed_beat = verb in ("MANOEUVRE", "ATTACK", "IF")
            cond = None
            if verb == "IF":
                if "THEN" not in [w.upper() for w in words]:
                    raise syntax("IF PREV_OK|PREV_FAILED|POS <enemy> FRONT|FLANK|REAR[,...] THEN <beat>")
                k = [w.upper() for w in words].index("THEN")
                cond = parse_cond(words[1:k], enemies)
                words = words[k + 1:]
                if not words or words[0].upper() not in ("MANOEUVRE", "ATTACK"):
                    raise syntax("IF ... THEN is followed by a MANOEUVRE or ATTACK")
                verb = words[0].upper()
                known = False
            if verb not in ("MANOEUVRE", "ATTACK", "GROUND_ATTACK", "ON_CANCELLED", "SWAP", "CP_USE",
                            "DP_DEPOSIT", "END_DISCARD", "NEXT_DISCARD", "END", "STAY", "MOVE", "ROTATE", "CLIMB", "DESCEND"):
                raise syntax(f"unknown order {verb}: turn orders are movement (STAY, MOVE, ROTATE, CLIMB, DESCEND), "
                             "beats (MANOEUVRE, ATTACK, GROUND_ATTACK, ON_CANCELLED), SWAP, CP_USE, DP_DEPOSIT, "
                             "END_DISCARD, NEXT_DISCARD, END")
            if verb in ("STAY", "MOVE", "ROTATE", "CLIMB", "DESCEND"):
                if seen_move or not decide["first_step"]:
                    raise illegal("one movement order per turn, at its start [L134, L295]", "4.2 T2")
                if beats or items:
                    raise illegal("movement comes before combat and the other orders [L295-297]", "4.2 T2")
                seen_move = True
                item = parse_move(verb, words, me, decide, hand, take)
                if verb != "STAY":
                    known = False
                items.append(item)
            elif verb in ("MANOEUVRE", "ATTACK"):
                if v["options"]["step_mode"] and beats:
                    raise illegal("step mode: one beat per order file; the engine asks again after it", "10.2")
                if flags["ground"]:
                    raise illegal("a shturmovik that attacks a ground object plays no other attack or manoeuvre [L301]",
                              "L301")
                from_dp = [w.upper() for w in words[2:4]] == ["FROM", "DP"]
                if from_dp:
                    words = words[:2] + words[4:]
                    if flags["from_dp"] or decide.get("dp_card") != card_id(words[1]):
                        raise illegal(f"the card on your dispatch post is {decide.get('dp_card') or 'none'}; it is "
                                  "played once and then discarded", "L148")
                    flags["from_dp"] += 1
                item = parse_beat(verb, words, me, v, rel, enemies, known, spent, take, from_dp)
                item["source"] = "dp" if from_dp else "hand"
                item["cond"] = cond
                failed_beat = False
                if verb == "MANOEUVRE":
                    known = False
                beats += 1
                items.append(item)
            elif verb == "ON_CANCELLED":
                if failed_beat:
                    continue
                if not items or items[-1]["op"] not in ("manoeuvre", "attack"):
                    raise illegal("an ON_CANCELLED line follows the MANOEUVRE or ATTACK it answers for", "4.3")
                beat = items[-1]
                for w in words[1:]:
                    if w.upper() == "ASK":
                        beat["counter_ask"] = True
                    elif w.upper() == "PASS":
                        beat["counter_ask"] = False
                    else:
                        cid = card_id(w)
                        if not tables.card(cid).reacts:
                            raise illegal(f"{tables.card(cid).name} is not a reaction or counter-move", "L158, L184")
                        if hand[cid] == 0:
                            raise illegal(f"{ac} holds no {tables.card(cid).name}", "2.3")
                        beat["counter"].append(cid)
            elif verb == "GROUND_ATTACK":
                if beats or flags["ground"]:
                    raise illegal("a ground attack excludes every other attack and manoeuvre in the turn", "L301")
                if not me["category"].startswith("SH"):
                    raise illegal(f"{ac} is category {me['category']}: only shturmoviks (SH) attack ground objects",
                              "L73, L301")
                if known and decide["ground_below"] is None:
                    raise illegal(f"{ac} is not in the low-altitude cell directly above a live enemy ground object",
                              "L301")
                flags["ground"] += 1
                beats += 1
                items.append({"op": "ground", "text": line.text})
            elif verb == "SWAP":
                if len(words) != 2:
                    raise syntax("SWAP <card>", "L48")
                if not me["swap"]:
                    raise illegal(f"{ac} ({me['model']}) has no swap ability", "L48")
                if flags["swap"]:
                    raise illegal("the swap ability works once per turn", "L48")
                cid = card_id(words[1])
                if tables.card(cid).kind == "malfunction":
                    raise illegal("a malfunction card cannot be swapped", "L48")
                take(cid, "SWAP")
                flags["swap"] += 1
                items.append({"op": "swap", "card": cid, "text": line.text})
            elif verb == "CP_USE":
                if not decide["cp_ready"] or flags["cp"]:
                    raise illegal("your side has no working command post unused this round", "L146")
                kw = keyword_args(words[1:], ("DISCARD",))
                flags["cp"] += 1
                items.append({"op": "cp", "discard": card_id(kw["DISCARD"]) if "DISCARD" in kw else None,
                              "text": line.text})
            elif verb == "DP_DEPOSIT":
                if len(words) != 2:
                    raise syntax("DP_DEPOSIT <card>", "L148")
                if not decide["dp_ready"] or flags["dp"]:
                    raise illegal("your side has no working dispatch post, or a card already lies on it", "L148")
                cid = card_id(words[1])
                if tables.card(cid).kind == "malfunction":
                    raise illegal("a malfunction card cannot go on the dispatch post", "L148")
                take(cid, "DP_DEPOSIT")
                flags["dp"] += 1
                items.append({"op": "dp", "card": cid, "text": line.text})
            elif verb == "END_DISCARD":
                items.append({"op": "end_discard", "cards": [card_id(w) for w in words[1:]], "text": line.text})
            elif verb == "NEXT_DISCARD":
                cards = [card_id(w) for w in words[1:]]
                if any(tables.card(c).kind == "malfunction" for c in cards):
                    raise illegal("malfunction cards cannot be discarded before activation", "L291")
                items.append({"op": "next_discard", "cards": cards, "text": line.text})
            elif verb == "END":
                items.append({"op": "end", "text": line.text})
        except OrderError as b:
            problems.append(b.problem(line.line_no, line.text))
    if not seen_move and decide["first_step"]:
        items.insert(0, {"op": "move", "kind": "stay", "text": "STAY"})
    return items


def parse_cond(words, enemies) -> dict:
    up = [w.upper() for w in words]
    if up in (["PREV_OK"], ["PREV_FAILED"]):
        return {"kind": "prev", "value": "ok" if up[0] == "PREV_OK" else "failed"}
    if len(up) == 3 and up[0] == "POS":
        if words[1].lower() not in enemies:
            raise illegal(f"{words[1]!r} is not an enemy aircraft in play", "6.1")
        vals = [p.strip() for p in up[2].split(",")]
        if not vals or any(p not in POSITIONS for p in vals):
            raise syntax("POS takes FRONT, FLANK, REAR (comma separated)", "6.1")
        return {"kind": "pos", "target": words[1].lower(), "value": [p.lower() for p in vals]}
    raise syntax("conditions: PREV_OK, PREV_FAILED, POS <enemy> FRONT|FLANK|REAR[,...]")


def parse_move(verb, words, me, decide, hand, take) -> dict:
    text = " ".join(words)
    if verb == "STAY":
        if len(words) != 1:
            raise syntax("STAY takes nothing")
        return {"op": "move", "kind": "stay", "text": text}
    if verb in ("MOVE", "ROTATE") and me["in_dogfight"]:
        raise illegal(f"{me['id']} is in a dogfight: it may not move or turn in its field, only change altitude "
                  "or stay", "L119, L135, L295")
    if verb == "MOVE":
        if len(words) < 2:
            raise syntax("MOVE x,y [FACE d]", "L135")
        cell = cell_arg(words[1])
        kw = keyword_args(words[2:], ("FACE",))
        if cell not in decide["free_cells"]:
            raise illegal(f"cell {words[1]} at {me['alt']} altitude is not free", "L135")
        return {"op": "move", "kind": "move", "cell": cell, "face": face_arg(kw.get("FACE", me["facing"])),
                "text": text}
    if verb == "ROTATE":
        if len(words) != 2:
            raise syntax("ROTATE N|E|S|W", "L295")
        return {"op": "move", "kind": "rotate", "face": face_arg(words[1]), "text": text}
    kw = keyword_args(words[1:], ("DISCARD", "CELL", "FACE") if verb == "CLIMB" else ("CELL", "FACE"))
    i = tables.ALTITUDES.index(me["alt"]) + (1 if verb == "CLIMB" else -1)
    if not 0 <= i < len(tables.ALTITUDES):
        raise illegal(f"{me['id']} is at {me['alt']} altitude: it cannot {verb.lower()} further", "L136")
    if decide["engine_trouble"]:
        raise illegal(f"{me['id']} has engine trouble: no altitude change while the malfunction is in hand", "L196")
    alt = tables.ALTITUDES[i]
    item = {"op": "move", "kind": verb.lower(), "cell": None, "face": face_arg(kw["FACE"]) if "FACE" in kw else None,
            "text": text}
    if verb == "CLIMB":
        usable = [c for c in hand.elements() if tables.card(c).kind != "malfunction"]
        if not usable:
            raise illegal("climbing costs one card from the hand and there is none to give", "L136")
        if "DISCARD" in kw:
            cid = card_id(kw["DISCARD"])
            if tables.card(cid).kind == "malfunction":
                raise illegal("a malfunction card cannot pay for climbing", "L136")
            take(cid, "CLIMB DISCARD")
            item["discard"] = cid
    cells = decide["entry"][alt]
    if "CELL" in kw:
        c = cell_arg(kw["CELL"])
        if c not in cells:
            raise illegal(f"entering {alt} altitude the aircraft goes to "
                      f"{' or '.join(f'{x},{y}' for x, y in cells) or 'no free cell'} (start cell first) ",
                      "L133, L138")
        item["cell"] = c
    return item


def parse_beat(verb, words, me, v, rel, enemies, known, spent, take, from_dp=False) -> dict:
    if len(words) < 2:
        raise syntax(f"{verb} <card> TARGET <enemy> ...")
    cid = card_id(words[1])
    c = tables.card(cid)
    text = " ".join(words)
    if verb == "ATTACK":
        kw = keyword_args(words[2:], ("TARGET", "CRIT", "EXTRA"))
        if c.kind != "attack":
            raise illegal(f"{c.name} is not an attack card ({c.kind})", "L176")
        if "TARGET" not in kw:
            raise syntax("ATTACK needs TARGET <enemy>", "L297")
        tgt = kw["TARGET"].lower()
        if tgt not in enemies:
            raise illegal(f"{kw['TARGET']!r} is not an enemy aircraft in play ({', '.join(sorted(enemies))})", "L297")
        if not from_dp:
            take(cid, "ATTACK")
        crit = None
        if "CRIT" in kw:
            crit = card_id(kw["CRIT"])
            if tables.card(crit).kind != "crit":
                raise illegal(f"{tables.card(crit).name} is not a critical-hit card", "L194")
            take(crit, "CRIT")
        extra = None
        if "EXTRA" in kw:
            extra = card_id(kw["EXTRA"])
            take(extra, "EXTRA")
        if known:
            r = rel.get(tgt)
            if r is None:
                raise illegal(f"{tgt} is not in a dogfight with {me['id']} (orthogonally adjacent at the same "
                          "altitude)", "L119, L297")
            if r["pool"] == "none":
                raise illegal(f"{me['id']} is {r['my_aspect']}-on to {tgt} and has no turret: it may not attack "
                          f"[L126, L129]", "6.1")
            left = r["firing"] - spent[r["pool"]]
            if c.cost > left:
                raise illegal(f"{c.name} costs {c.cost} firing points; {me['id']} has {left} against {tgt} "
                          f"({'turret' if r['pool'] == 'turret' else (r['position'] or '') + ' position'})",
                          "L41, L231")
            spent[r["pool"]] += c.cost
            if c.extra_discard and sum(1 for x in v["hands"][me["id"]]) < 2:
                raise illegal(f"{c.name} demands an extra card from the hand and there is none", "L178")
        return {"op": "attack", "card": cid, "target": tgt, "crit": crit, "extra": extra, "counter": [],
                "counter_ask": False, "text": text}
    kw = keyword_args(words[2:], ("TARGET", "APPLY", "ROTATE", "CELL", "FACE"))
    if not c.manoeuvres:
        raise illegal(f"{c.name} is not a manoeuvre or counter-move ({c.kind})", "L166, L184")
    tgt = kw["TARGET"].lower() if "TARGET" in kw else None
    if tgt is not None and tgt not in enemies:
        raise illegal(f"{kw['TARGET']!r} is not an enemy aircraft in play", "L168")
    apply = kw.get("APPLY", "TARGET" if tgt else "SELF").lower()
    if apply not in ("self", "target"):
        raise syntax("APPLY SELF or APPLY TARGET", "L166")
    rot = kw.get("ROTATE", "CW").lower()
    if rot not in ("cw", "ccw"):
        raise syntax("ROTATE CW or ROTATE CCW", "L217")
    if not from_dp:
        take(cid, "MANOEUVRE")
    if known:
        if rel and tgt is None:
            raise illegal(f"{me['id']} is in a dogfight: name the TARGET ({', '.join(sorted(rel))})", "L168")
        if tgt is not None and tgt not in rel:
            raise illegal(f"{tgt} is not in a dogfight with {me['id']}", "L168")
        if tgt and c.effect == "change_position" and apply == "target" and rel[tgt]["my_aspect"] != NOSE:
            raise illegal(f"{me['id']} must be nose-on to {tgt} to turn it; it is {rel[tgt]['my_aspect']}-on "
                      "(APPLY SELF turns your own aircraft)", "L166")
        if c.effect == "flank_swap" and (tgt is None or rel[tgt]["my_aspect"] != "side"):
            raise illegal(f"{c.name} needs {me['id']} side-on to its target", "L219")
    return {"op": "manoeuvre", "card": cid, "target": tgt, "apply": apply, "rotate": rot,
            "cell": cell_arg(kw["CELL"]) if "CELL" in kw else None,
            "face": face_arg(kw["FACE"]) if "FACE" in kw else None, "counter": [], "counter_ask": False,
            "text": text}
