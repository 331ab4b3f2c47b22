"""Movement, altitude change, pursuit and AA fire during an aircraft's turn [6.2, 6.8]."""
from __future__ import annotations

from . import tables
from .damage import card_names, damage, draw_into, give_up, policy
from .asks import ask
from .geometry import BONUS, NOSE, SIDE, STEP, aspect, direction
from .movement import aa_sector, entry_cells, place, pursuit_cells, shifted_alt
from .script_verbs import Climb, Close, Descend, MoveTo, Rotate, Stay
from .state import Game, other_side
from pbem.core.texts import t_
from .terms import word


def move(g: Game, a: dict, o: Stay | MoveTo | Close | Rotate | Climb | Descend) -> str | None:
    """The turn's one movement order [L134-136, L295]; why it cannot be carried out, or None."""
    g.doc["turn"]["moved"] = True
    if isinstance(o, Close):
        spot = close_in(g, a, o.target)
        if isinstance(spot, str):
            return spot
        o = MoveTo(*spot)
    if isinstance(o, (MoveTo, Rotate)):
        return move_in_field(g, a, o)
    if isinstance(o, (Climb, Descend)):
        return change_altitude(g, a, o)
    return None


def close_in(g: Game, a: dict, tid: str) -> tuple[tuple[int, int], str] | str:
    """The cell and facing of ``CLOSE <enemy>``: next to it in the same field, nose-on to it, where it shows
    the most of its tail, then the nearest, then the first in reading order; or why there is none [L121, L135]."""
    e = g.doc["aircraft"].get(tid)
    if e is None or e["destroyed"] or not e["placed"] or e["side"] == a["side"]:
        return t_("%(target)s is not an enemy aircraft in play %(ref)s", target=tid, ref="[L121]")
    if e["alt"] != a["alt"]:
        return t_("%(target)s flies at %(alt)s altitude, not in %(ac)s's field %(ref)s", target=tid, alt=word(e['alt']), ac=a['id'], ref="[L135]")
    best = None
    for dx, dy in STEP.values():
        c = (e["cell"][0] + dx, e["cell"][1] + dy)
        if not g.free(a["alt"], c):
            continue
        score = (-BONUS[aspect(e["facing"], tuple(e["cell"]), c)],
                 abs(c[0] - a["cell"][0]) + abs(c[1] - a["cell"][1]), c[1], c[0])
        if best is None or score < best[0]:
            best = (score, c)
    if best is None:
        return t_("no free cell next to %(target)s %(ref)s", target=tid, ref="[L135]")
    cell = best[1]
    return cell, direction(cell, tuple(e["cell"])) or a["facing"]


def move_in_field(g: Game, a: dict, o: MoveTo | Rotate) -> str | None:
    if g.in_dogfight(a):
        return t_("an aircraft in a dogfight may not move or turn in its field %(ref)s", ref="[L119, L135]")
    if isinstance(o, MoveTo):
        if not g.free(a["alt"], o.cell):
            return t_("cell %(x)s,%(y)s is not free %(ref)s", x=o.cell[0], y=o.cell[1], ref="[L135]")
        a["cell"] = list(o.cell)
    a["facing"] = o.face
    g.say(t_("%(id)s moves to %(alt)s %(x)s,%(y)s facing %(facing)s", id=a['id'], alt=word(a['alt']), x=a['cell'][0],
             y=a['cell'][1], facing=a['facing']), kind="move")
    aa_check(g, a)
    return None


def altitude_problem(g: Game, a: dict, o: Climb | Descend) -> str:
    """Why ``a`` cannot change altitude now ("" when it can) [L136, L196]."""
    if shifted_alt(a["alt"], o.STEP) is None:
        return t_("there is no field beyond that altitude %(ref)s", ref="[L136]")
    if g.malfunctions(a, "engine"):
        return t_("engine trouble: no altitude change while the malfunction is in hand")
    if isinstance(o, Climb) and not any(tables.card(c).kind != "malfunction" for c in a["hand"]):
        return t_("climbing costs a card from the hand and the hand is empty %(ref)s", ref="[L136]")
    return ""


def change_altitude(g: Game, a: dict, o: Climb | Descend) -> str | None:
    """Climb paying a card or dive drawing one; enemies nose-on to ``a`` may pursue [L136, L140]."""
    why = altitude_problem(g, a, o)
    if why:
        return why
    # several pursuers follow in their side's SEQUENCE order (gap 6.2: the pursuing side chooses)
    order = g.side_policy(other_side(a["side"]))["sequence"]
    chasers = sorted((p for p in g.enemies_in_dogfight(a) if g.aspect(p, a) == NOSE),
                     key=lambda p: (order.index(p["id"]) if p["id"] in order else 99, p["id"]))
    extra = {p["id"]: g.aspect(a, p) in (SIDE, NOSE) for p in chasers}
    x_old, f0 = tuple(a["cell"]), a["facing"]
    if isinstance(o, Climb):
        give_up(g, a, 1, t_("the cost of climbing %(ref)s", ref="[L136]"), [o.discard] if o.discard else (), allow_malfunction=False)
    else:
        draw_into(g, a, 1, t_("descending %(ref)s", ref="[L136]"))
        if a["destroyed"]:
            return None
    new_alt = shifted_alt(a["alt"], o.STEP)
    enter(g, a, new_alt, o.cell, o.face or a["facing"])
    if chasers:
        g.doc["turn"]["pursuit"] = {"queue": [p["id"] for p in chasers], "x_old": list(x_old), "f0": f0,
                                    "x_new": list(a["cell"]), "f1": a["facing"], "alt": new_alt, "step": o.STEP,
                                    "extra": extra, "answer": None}
    aa_check(g, a)
    return None


def enter(g: Game, a: dict, alt: str, wanted, facing: str) -> bool:
    """Enter a field by the start-cell rule [L133]; ``wanted`` is used only if the start cell is taken."""
    cells = entry_cells(g, a["side"], alt)
    if not cells:
        g.say(t_("%(id)s finds no free cell at %(alt)s altitude and stays where it is", id=a['id'], alt=word(alt)),
              kind="move")
        return False
    cell = tuple(wanted) if wanted and tuple(wanted) in cells else cells[0]
    place(a, alt, cell, facing)
    g.say(t_("%(id)s enters %(alt)s altitude at %(x)s,%(y)s facing %(facing)s", id=a['id'], alt=word(alt), x=cell[0],
             y=cell[1], facing=facing), kind="move")
    return True


def step_pursuit(g: Game) -> None:
    """The next enemy in the queue may follow the aircraft that changed altitude [L140]."""
    t = g.doc["turn"]
    pq = t["pursuit"]
    if not pq["queue"]:
        t["pursuit"] = None
        return
    p, x = g.ac(pq["queue"][0]), g.ac(t["ac"])
    extra = pq["extra"][p["id"]]
    cells, _, _ = pursuit_cells(g, p, tuple(pq["x_old"]), pq["f0"], tuple(x["cell"]), x["facing"], pq["alt"])
    if not can_pursue(g, p, pq) or not cells:
        pq["queue"].pop(0)
        return
    answer = pq["answer"]
    if answer is None:
        rule = pursuit_rule(g, p)
        if rule == "ask":
            ask(g, "pursue", [p["seat"]], ac=p["id"], target=x["id"], extra=extra,
                         cells=[list(c) for c in cells], climb=pq["step"] > 0)
            return
        answer = {"go": rule == "yes" or (rule == "free" and not extra), "cell": None, "face": None}
    pq["queue"].pop(0)
    pq["answer"] = None
    if not answer["go"]:
        g.say(t_("%(id)s does not pursue %(other)s", id=p['id'], other=x['id']), kind="pursuit")
        return
    pursue(g, p, x, pq, answer)


def can_pursue(g: Game, p: dict, pq: dict) -> bool:
    """Alive, no engine trouble, and the cards to pay: one to climb, one more when the target
    showed its side or nose; a dive draws its card first [L140]."""
    need = (1 if pq["step"] > 0 else 0) + (1 if pq["extra"][p["id"]] else 0)
    usable = sum(1 for c in p["hand"] if tables.card(c).kind != "malfunction") + (1 if pq["step"] < 0 else 0)
    return not p["destroyed"] and not g.malfunctions(p, "engine") and usable >= need


def pursue(g: Game, p: dict, x: dict, pq: dict, answer: dict) -> None:
    """Pay for the pursuit, then take the cell that keeps the mutual position, or the one chosen [L140]."""
    named = list(answer.get("discard") or ())  # the pursuer's own choice first, then its priorities
    if pq["step"] > 0:
        for c in give_up(g, p, 1, t_("the cost of climbing in pursuit %(ref)s", ref="[L140]"), named, allow_malfunction=False):
            if c in named:
                named.remove(c)
    else:
        draw_into(g, p, 1, t_("descending in pursuit %(ref)s", ref="[L140]"))
    if pq["extra"][p["id"]]:
        give_up(g, p, 1, t_("pursuing a target that showed its side or nose %(ref)s", ref="[L140]"), named, allow_malfunction=False)
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
    g.say(t_("%(id)s pursues %(other)s to %(alt)s altitude, %(x)s,%(y)s facing %(facing)s", id=p['id'], other=x['id'],
             alt=word(pq['alt']), x=cell[0], y=cell[1], facing=facing), kind="pursuit")


def pursuit_rule(g: Game, p: dict) -> str:
    rules = policy(g, p["seat"])["pursue"]
    return rules.get(p["id"], rules.get("*", "ask"))


def aa_check(g: Game, a: dict) -> None:
    """An enemy AA battery fires once at an activated aircraft in (or entering) its sector [L150-152]."""
    t = g.doc["turn"]
    if t is None or t["aa_fired"] or a["destroyed"] or a["alt"] != "low" or not g.doc["revealed"]:
        return
    enemy = other_side(a["side"])
    for obj in g.doc["ground"][enemy]:
        if obj["obj"] != "aa" or obj["destroyed"] or tuple(a["cell"]) not in aa_sector(obj["slot"]):
            continue
        t["aa_fired"] = True
        if g.side_policy(enemy)["aa"] == "hold":
            g.say(t_("%(side)s's AA battery holds its fire at %(id)s", side=word(enemy), id=a['id']), kind="aa")
            return
        drawn = [c for c in (g.draw("AA battery"), g.draw("AA battery")) if c]
        g.say(t_("%(side)s's AA battery fires at %(id)s: draws %(cards)s", side=word(enemy), id=a['id'],
                 cards=card_names(drawn)), kind="aa")
        attacks = sorted((c for c in drawn if tables.card(c).kind == "attack"),
                         key=lambda c: (-tables.card(c).damage, c))
        g.discard(drawn)
        if attacks:
            damage(g, a, tables.card(attacks[0]).damage, enemy, t_("the AA battery (%(card)s)", card=tables.card(attacks[0]).name))
        else:
            g.say(t_("the AA battery draws no attack card and misses"), kind="aa")
        return
