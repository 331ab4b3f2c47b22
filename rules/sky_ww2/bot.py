"""A scripted player that sees only its view [contract: bot_orders].

It closes on the nearest enemy at the same altitude, picking the cell where the enemy
shows its tail or side, turns enemies with change-of-position manoeuvres, fires every
attack it can afford, answers reactions with any card that helps, and sends its
shturmoviks down onto enemy ground objects.
"""
from __future__ import annotations

from collections import Counter

from . import tables
from .geometry import BONUS, STEP, aspect, direction

WANT_REACT = [{"ac": "*", "card": "*", "against": "any", "min_damage": 0, "max": 0, "lethal": False}]


def orders(v: dict, seat: str, dice) -> str:
    lines = standing(v)
    d = v.get("decide")
    if d:
        lines += {"setup": setup, "deploy": deploy, "activate": activate, "script": script, "round": round_plan,
                  "react": react, "pursue": pursue}[d["kind"]](v, d, dice)
    return "\n".join(lines) + "\n"


def standing(v: dict) -> list[str]:
    p = v["policies"]
    out = []
    if p["react"] != WANT_REACT:
        out.append("REACT ALL ANY AGAINST ANY")
    if p["react_default"] != "pass":
        out.append("REACT_DEFAULT PASS")
    if p["pursue"] != {"*": "free"}:
        out.append("ON_PURSUIT ALL FREE")
    return out


def setup(v, d, dice) -> list[str]:
    objs = [("cp", "aa"), ("aa", "cp"), ("dp", "aa"), ("cp", "dp")][dice.roll(4, why="bot ground", seen_by=[v["seat"]]) - 1]
    out = [f"GROUND {objs[0]} {objs[1]}"]
    sel = v["selection"]
    if sel["mode"] != "random":
        roster = sorted(sel["roster"], key=lambda r: (-r["value"], r["number"]))
        fighters = [r["number"] for r in roster if not r["category"].startswith("SH")]
        sturm = [r["number"] for r in roster if r["category"].startswith("SH")]
        n = sel["keep"]
        picks = (fighters[:n - 1] + sturm[:1]) if n == 3 and sturm else fighters[:n]
        picks = (picks + [r["number"] for r in roster if r["number"] not in picks])[:n]
        out.append(("PICK " if sel["mode"] == "free" else "KEEP ") + " ".join(map(str, picks)))
    return out


def deploy(v, d, dice) -> list[str]:
    """The aircraft asked for, or in a sealed deployment every one, each to its own cell."""
    face = "E" if v["side"] == "coalition" else "W"
    taken: set[tuple] = set()
    out = []
    for ac in d["aircraft"] if d.get("sealed") else d["aircraft"][:1]:
        me = next(a for a in v["aircraft"] if a["id"] == ac)
        prefer = ["low", "medium", "high"] if me["category"].startswith("SH") else ["medium", "high", "low"]
        line = f"DEPLOY {ac} MEDIUM FACE {face}"
        for alt in prefer:
            cells = [c for c in d["cells"][alt] if (alt, tuple(c)) not in taken]
            if cells:
                taken.add((alt, tuple(cells[0])))
                line = f"DEPLOY {ac} {alt.upper()} CELL {cells[0][0]},{cells[0][1]} FACE {face}"
                break
        out.append(line)
    return out


def round_plan(v: dict, d: dict, dice) -> list[str]:
    """A block per aircraft: its turn as the table stands now; a move that is stale by the time it
    flies is skipped, and the beats after it then need a dogfight, which the engine checks."""
    out: list[str] = []
    for ac in d["aircraft"]:
        out.append(f"AIRCRAFT {ac}")
        out += script(v, dict(d["facts"][ac], ac=ac), dice)
    return out


def activate(v, d, dice) -> list[str]:
    return [f"ACTIVATE {d['aircraft'][0]}"]


def react(v, d, dice) -> list[str]:
    if d["options"]:
        o = d["options"][0]
        return [f"PLAY {o['card']}{' FROM DP' if o['source'] == 'dp' else ''} ON {o['on']}"]
    return ["PASS"]


def pursue(v, d, dice) -> list[str]:
    return ["PURSUE NO" if d["extra"] else "PURSUE YES"]


# ---- the turn script ---------------------------------------------------------------------------


def script(v: dict, d: dict, dice) -> list[str]:
    ac = d["ac"]
    me = next(a for a in v["aircraft"] if a["id"] == ac)
    hand = Counter(v["hands"].get(ac, []))
    enemies = [a for a in v["aircraft"] if a["side"] != v["side"] and a["placed"] and not a["destroyed"]]
    out: list[str] = []
    plan = None  # (target id, my aspect, their aspect) when the position after movement is known
    if d["first_step"]:
        move, plan = movement(v, d, me, enemies, hand)
        out.append(move)
    if move_only_ground(d, me, out):
        return out + ["GROUND_ATTACK", "END"]
    stayed = not d["first_step"] or out[0] == "STAY"
    known = plan is not None or stayed
    # where the view's relations still hold, use them exactly; after a move only the planned one counts
    exact = {r["id"]: r for r in d["relations"]} if stayed else {}
    out += abilities(v, d, me, hand)
    firing = me["firing"] - sum(1 for c in hand.elements() if tables.card(c).malfunction == "jam") \
        - sum(x.get("firing_malus", 0) for x in me["attached"])
    spent = {"guns": 0, "turret": 0}
    for tid, mine, theirs in foes(d, plan, stayed, known):
        out += fight(tid, mine, theirs, hand, me, exact.get(tid), firing, spent, known)
    dump = clear_out(hand, me)
    if dump:
        out.append("NEXT_DISCARD " + " ".join(dump))
    out.append("END")
    if v["options"]["step_mode"]:
        out = one_beat(out)
    return out


def foes(d: dict, plan: tuple | None, stayed: bool, known: bool) -> list[tuple]:
    """(enemy, my aspect, its aspect) to fight, the best firing bonus first."""
    rels = [(r["id"], r["my_aspect"], r["their_aspect"]) for r in d["relations"]] if stayed else \
        [plan] if plan else []
    return sorted(rels, key=lambda r: -BONUS[r[2]]) if known else rels[:1]


def abilities(v: dict, d: dict, me: dict, hand: Counter) -> list[str]:
    """Swap the least valued card, use the command post, park a spare reaction on the dispatch post."""
    out = []
    if me["swap"] and not (v["active"] or {}).get("swapped"):
        worst = sorted((c for c in hand.elements() if tables.card(c).kind != "malfunction"),
                       key=lambda c: (tables.card(c).keep, c))
        if worst and tables.card(worst[0]).keep <= 3:
            out.append(f"SWAP {worst[0]}")
            hand[worst[0]] -= 1
    if d["cp_ready"]:
        out.append("CP_USE")
    reacts = [c for c in sorted(hand) if tables.card(c).kind == "reaction"]
    if d["dp_ready"] and sum(hand[c] for c in reacts) >= 2:
        out.append(f"DP_DEPOSIT {reacts[0]}")
        hand[reacts[0]] -= 1
    return out


def fight(tid: str, mine: str, theirs: str, hand: Counter, me: dict, exact: dict | None, firing: int,
          spent: dict, known: bool) -> list[str]:
    """Manoeuvres to improve the position against ``tid``, then every attack the firing allows."""
    beats, certain = turn_plan(tid, mine, theirs, hand, me)
    if exact is not None and not beats:
        if exact["pool"] == "none":
            return beats
        avail, pool = exact["firing"] - spent.get(exact["pool"], 0), exact["pool"]
    elif mine == "nose" or certain:
        avail, pool = firing + BONUS["side" if certain and theirs == "nose" else theirs] - spent["guns"], "guns"
    elif me["turret"]:
        avail, pool = 1 - spent["turret"], "turret"
    else:
        return beats
    return beats + attacks(tid, hand, avail, pool, spent, known and not beats)


def attacks(tid: str, hand: Counter, avail: int, pool: str, spent: dict, strict: bool) -> list[str]:
    """The hardest hitting attacks first while the points last; when the position is not sure
    (``strict`` False) up to two points over, since a manoeuvre may have improved it."""
    out = []
    counters = " ".join(sorted(c for c in hand if hand[c] and tables.card(c).reacts)) or ""
    for c in sorted((c for c in hand.elements() if tables.card(c).kind == "attack"),
                    key=lambda c: (-tables.card(c).damage, c)):
        cd = tables.card(c)
        if hand[c] <= 0 or (strict and cd.cost > avail):
            continue
        spare = sorted((x for x in hand.elements() if x != c and tables.card(x).kind == "manoeuvre"),
                       key=lambda x: (tables.card(x).keep, x))
        if (cd.extra_discard and not spare) or (not strict and cd.cost > avail + 2):
            continue
        hand[c] -= 1
        extra = ""
        if cd.extra_discard:
            extra = f" EXTRA {spare[0]}"
            hand[spare[0]] -= 1
        avail -= cd.cost
        spent[pool] += cd.cost
        out.append(f"ATTACK {c} TARGET {tid}{extra}")
        if counters:
            out.append(f"ON_CANCELLED {counters}")
    return out


def clear_out(hand: Counter, me: dict) -> list[str]:
    """Cards to drop before the next activation so the draw brings fresh ones [L291]: the least
    valued manoeuvres and surplus reactions, keeping attacks and two reactions."""
    room = me["ttx"] - me["power"]
    cards = sorted((c for c in hand.elements() if tables.card(c).kind not in ("attack", "malfunction")),
                   key=lambda c: (tables.card(c).keep, c))
    total = sum(hand.values())
    out = []
    reacts = sum(1 for c in cards if tables.card(c).reacts)
    for c in cards:
        if total - len(out) <= room:
            break
        if tables.card(c).reacts and reacts <= 2:
            continue
        if tables.card(c).reacts:
            reacts -= 1
        out.append(c)
    return out


def one_beat(lines: list[str]) -> list[str]:
    """Step mode: keep the first beat (and its ON_CANCELLED), leave END off so the engine asks again."""
    out, beats = [], 0
    for line in lines:
        verb = line.split()[0]
        if verb in ("MANOEUVRE", "ATTACK", "IF", "GROUND_ATTACK"):
            beats += 1
            if beats > 1:
                break
        if verb == "ON_CANCELLED" and beats > 1:
            break
        out.append(line)
    if beats and out[-1] == "END":
        out.pop()
    return out


def move_only_ground(d, me, out) -> bool:
    """A shturmovik over an enemy ground object attacks it and nothing else [L301]."""
    return me["category"].startswith("SH") and d["ground_below"] is not None and (not out or out[0] == "STAY")


def turn_plan(tid, mine, theirs, hand: Counter, me) -> tuple[list[str], bool]:
    """Manoeuvres that improve the position against ``tid``; True when they would make ours nose-on with a bonus."""
    turners = [c for c in sorted(hand) if hand[c] and tables.card(c).manoeuvres
               and tables.card(c).effect == "change_position"]
    if mine == "nose" and theirs == "nose" and turners:
        return turn_enemy(tid, turners[0], hand), True
    if mine == "side" and turners and not me["turret"]:
        return turn_self(tid, turners, hand), False
    neutral = [c for c in sorted(hand) if hand[c] and tables.card(c).manoeuvres and tables.card(c).effect == "neutral"]
    if mine != "nose" and neutral and not me["turret"]:
        hand[neutral[0]] -= 1
        return [f"MANOEUVRE {neutral[0]} TARGET {tid}"], False
    return [], False


def turn_enemy(tid: str, card: str, hand: Counter) -> list[str]:
    """Nose to nose: turn the enemy so that it shows its side [L166]."""
    counters = " ".join(sorted(c for c in hand if hand[c] and tables.card(c).reacts))
    hand[card] -= 1
    out = [f"MANOEUVRE {card} TARGET {tid} APPLY TARGET ROTATE CW"]
    if counters:
        out.append(f"ON_CANCELLED {counters}")
    return out


def turn_self(tid: str, turners: list[str], hand: Counter) -> list[str]:
    """Side-on: turn ourselves towards the enemy, the other way round if that fails [L217]."""
    hand[turners[0]] -= 1
    out = [f"MANOEUVRE {turners[0]} TARGET {tid} APPLY SELF ROTATE CW"]
    if len(turners) > 1 and hand[turners[1]]:
        out.append(f"IF PREV_FAILED THEN MANOEUVRE {turners[1]} TARGET {tid} APPLY SELF ROTATE CCW")
        hand[turners[1]] -= 1
    return out


def movement(v, d, me, enemies, hand: Counter) -> tuple[str, tuple | None]:
    if me["in_dogfight"]:
        return "STAY", None
    if me["category"].startswith("SH"):
        move = over_ground(v, d, me)
        if move:
            return move, None
    same = [e for e in enemies if e["alt"] == me["alt"]]
    if same:
        return close_in(d, me, same)
    if not enemies:
        return "STAY", None
    return change_altitude(d, me, enemies, hand), None


def over_ground(v, d, me) -> str | None:
    """A shturmovik goes down to low altitude and over a live enemy ground object [L301]."""
    slots = [o for o in v["ground"][v["enemy"]] if o["obj"] and not o["destroyed"]]
    if not slots:
        return None
    if me["alt"] != "low":
        return descend(d, me["alt"])
    for c in [[o["slot"][0], o["slot"][1] - 1] for o in slots]:
        if c == me["cell"]:
            return "STAY"
        if c in d["free_cells"]:
            return f"MOVE {c[0]},{c[1]} FACE {me['facing']}"
    return None


def close_in(d, me, same) -> tuple[str, tuple | None]:
    """Move next to an enemy at the same altitude, where it shows the most of its tail, nose-on to it."""
    best = None
    for e in same:
        for _f, (dx, dy) in sorted(STEP.items()):
            c = [e["cell"][0] + dx, e["cell"][1] + dy]
            if c not in d["free_cells"]:
                continue
            theirs = aspect(e["facing"], tuple(e["cell"]), tuple(c))
            score = (BONUS[theirs], -abs(c[0] - me["cell"][0]) - abs(c[1] - me["cell"][1]))
            if best is None or score > best[0]:
                best = (score, c, e, theirs)
    if not best:
        return "STAY", None
    _, c, e, theirs = best
    if d.get("plan"):  # a round plan: the enemy may have moved by then, the engine finds the cell [L135]
        return f"IF ALT {e['id']} {e['alt'].upper()} THEN CLOSE {e['id']} ELSE STAY", (e["id"], "nose", theirs)
    face = direction(tuple(c), tuple(e["cell"]))
    return f"MOVE {c[0]},{c[1]} FACE {face}", (e["id"], "nose", theirs)


def change_altitude(d, me, enemies, hand: Counter) -> str:
    """Towards the altitude of the nearest enemy; a climb pays with the least valued card."""
    idx = tables.ALTITUDES.index(me["alt"])
    target = min(enemies, key=lambda e: (abs(tables.ALTITUDES.index(e["alt"]) - idx), e["id"]))
    if d["engine_trouble"]:
        return "STAY"
    if tables.ALTITUDES.index(target["alt"]) > idx:
        usable = sorted((c for c in hand.elements() if tables.card(c).kind != "malfunction"),
                        key=lambda c: (tables.card(c).keep, c))
        if not usable:
            return "STAY"
        hand[usable[0]] -= 1
        return f"CLIMB DISCARD {usable[0]}"
    return descend(d, me["alt"])


def descend(d, alt) -> str:
    if d["engine_trouble"] or alt == "low":
        return "STAY"
    return "DESCEND"
