"""Hands, damage, destruction, victory points and the end of the game [L42, L107, 6.5, 6.9]."""
from __future__ import annotations

import re

from . import tables
from .state import Game, other_side
from pbem.core.texts import t_, tn_
from .terms import word


def card_names(cards) -> str:
    return ", ".join(tables.card(c).name for c in cards) or "nothing"


def policy(g: Game, seat: str) -> dict:
    return g.policy(seat)


def discard_order(g: Game, a: dict, first=()) -> list[str]:
    """The order in which ``a``'s hand is given up when its controller did not name cards.

    Cards named in ``first`` go first, then the seat's DISCARD_PRIORITY list, then the
    cards the deck data values least (``keep``); malfunctions only when nothing else is left.
    """
    prio = list(first) + policy(g, a["seat"])["discard_priority"]
    hand = list(a["hand"])
    out = []
    for c in prio:
        if c in hand and tables.card(c).kind != "malfunction":
            hand.remove(c)
            out.append(c)
    rest = sorted(hand, key=lambda c: (tables.card(c).kind == "malfunction", tables.card(c).keep, c))
    return out + rest


def give_up(g: Game, a: dict, n: int, why: str, first=(), allow_malfunction: bool = True) -> list[str]:
    """Discard ``n`` cards of ``a``'s choosing (by policy); returns them."""
    order = discard_order(g, a, first)
    if not allow_malfunction:
        order = [c for c in order if tables.card(c).kind != "malfunction"]
    gone = order[:n]
    for c in gone:
        a["hand"].remove(c)
    g.discard(gone)
    if gone:
        g.say(t_("%(id)s discards %(cards)s (%(why)s)", id=a['id'], cards=card_names(gone), why=why), kind="discard")
    return gone


def trim_hand(g: Game, a: dict, why: str, first=()) -> None:
    """Discard down to TTX, the controller choosing [L42]."""
    excess = len(a["hand"]) - g.stats(a).ttx
    if excess > 0:
        give_up(g, a, excess, why, first)


def draw_into(g: Game, a: dict, n: int, why: str) -> list[str]:
    """Draw ``n`` cards into ``a``'s hand; malfunctions act at once [L196].

    Everyone learns the count and how many show the malfunction back; only the
    controller learns the faces.
    """
    got = []
    for _ in range(n):
        c = g.draw(why)
        if c is None:
            break
        got.append(c)
        a["hand"].append(c)
    if not got:
        return got
    bad = sum(1 for c in got if tables.card(c).kind == "malfunction")
    back = t_(", %(n)s with the malfunction back", n=bad) if bad else ""
    g.say_private(a["seat"], t_("%(id)s draws %(cards)s (%(why)s)", id=a['id'], cards=card_names(got), why=why),
                  tn_("%(id)s draws %(n)s card(s)%(back)s (%(why)s)", "%(id)s draws %(n)s card(s)%(back)s (%(why)s)",
                      len(got), id=a['id'], back=back, why=why), kind="draw")
    for c in got:
        cd = tables.card(c)
        if cd.kind == "malfunction":
            # only the back is public; the face is known to the controller until it shows [L196]
            g.say(t_("malfunction on %(id)s: %(card)s", id=a['id'], card=cd.name), [a["seat"]], kind="malfunction")
            if cd.malfunction == "leak":
                damage(g, a, 1, other_side(a["side"]), cd.name)
    return got


def damage(g: Game, a: dict, n: int, by_side: str, why: str) -> None:
    """Place ``n`` damage markers; flip to damaged, then destroy [L43, L107, 6.5]."""
    if n <= 0 or a["destroyed"]:
        return
    t = g.type_of(a)
    before = a["markers"]
    a["markers"] += n
    g.say(t_("%(id)s takes %(n)s damage from %(why)s", id=a['id'], n=n, why=why), kind="damage")
    if not a["damaged"] and a["markers"] >= t.intact.structure:
        if g.opt("carry_excess"):
            left = a["markers"] - t.intact.structure
        else:
            left = before + n - t.intact.structure if n > t.intact.structure else 0
        a["damaged"], a["markers"] = True, left
        g.say(tn_("%(id)s is flipped to its damaged side with %(n)s marker(s) on it",
                 "%(id)s is flipped to its damaged side with %(n)s marker(s) on it", left, id=a['id']), kind="damage")
        trim_hand(g, a, t_("hand limit fell on damage %(ref)s", ref="[L107]"))
    if a["damaged"] and a["markers"] >= t.damaged.structure:
        destroy(g, a, by_side)


def destroy(g: Game, a: dict, by_side: str) -> None:
    """Remove a shot-down aircraft, score it, maybe play a Rescue [L43, L198, 6.9]."""
    t = g.type_of(a)
    factor = 1.0
    if policy(g, a["seat"])["rescue"] == "yes":
        for c in sorted(a["hand"]):
            if tables.card(c).kind == "rescue":
                a["hand"].remove(c)
                a["rescue"] = c
                factor = tables.card(c).vp_factor
                g.say(t_("%(id)s's crew is saved: %(card)s is laid by its hangar %(ref)s", id=a['id'],
                           card=tables.card(c).name, ref="[L198]"), kind="rescue")
                break
    points = int(t.value * factor)
    g.doc["vp"][by_side] += points
    g.discard(a["hand"])
    g.discard(x["card"] for x in a["attached"])
    a["hand"], a["attached"], a["destroyed"], a["placed"] = [], [], True, False
    g.say(tn_("%(id)s (%(model)s) is destroyed: %(side)s scores %(n)s VP",
              "%(id)s (%(model)s) is destroyed: %(side)s scores %(n)s VP", points, id=a['id'], model=t.model,
              side=word(by_side)), kind="destroyed")
    check_end(g)


def check_end(g: Game) -> None:
    """The game ends when a side has no aircraft left [L19, gap 8.12 (a)]."""
    if g.doc["over"] or g.doc["round"] < 1:
        return
    for side in tables.SIDES:
        if not g.aircraft(side):
            finish(g, t_("%(side)s has no aircraft left", side=word(side)))
            return


def finish(g: Game, why: str) -> None:
    """Decide the winner on victory points [L23, L329-331]; a tie is a draw (gap 8.12)."""
    vp = g.doc["vp"]
    c, x = vp["coalition"], vp["axis"]
    winner = "coalition" if c > x else "axis" if x > c else None
    result = t_("%(side)s wins", side=word(winner)) if winner else t_("a draw")
    text = t_("%(why)s; victory points coalition %(c)s, axis %(x)s: %(result)s", why=why, c=c, x=x, result=result)
    g.doc["over"] = {"winner": winner, "text": str(text)}  # the position keeps plain English: over_text reads it
    g.say(t_("game over: %(text)s", text=text), kind="over")


_OVER = re.compile(r"(?P<why>.*); victory points coalition (?P<c>-?\d+), axis (?P<x>-?\d+): (?P<result>.*)")
_WHY = (re.compile(r"(?P<side>coalition|axis) has no aircraft left"),
        re.compile(r"the agreed limit of (?P<n>\d+) rounds is reached"))


def over_text(text: str) -> str:
    """The end of the game as the position keeps it (English), marked again for the reader's language; a text
    this cannot read back word for word stays as it is."""
    m = _OVER.fullmatch(text)
    if not m:
        return text
    why: str = m["why"]
    if (w := _WHY[0].fullmatch(why)):
        why = t_("%(side)s has no aircraft left", side=word(w["side"]))
    elif (w := _WHY[1].fullmatch(why)):
        why = t_("the agreed limit of %(n)s rounds is reached", n=int(w["n"]))
    result = m["result"]
    won = re.fullmatch(r"(coalition|axis) wins", result)
    marked = t_("%(why)s; victory points coalition %(c)s, axis %(x)s: %(result)s", why=why, c=int(m["c"]),
                x=int(m["x"]), result=t_("%(side)s wins", side=word(won[1])) if won else
                t_("a draw") if result == "a draw" else result)
    return marked if marked == text else text
