"""The round and one aircraft's turn as a resumable machine [4.1-4.3].

:func:`advance` runs the game forward until somebody owes a decision no standing
order covers: the active player's turn script, a reaction the policies do not settle,
a pursuit asked for, or the next set-up step; it then stops in the kit's interrupt
(:func:`.asks.ask`).  Everything the turn needs to resume is in ``doc["turn"]`` (the
script as canonical lines, its cursor, the table of the current beat, the pursuit queue),
so an interrupt phase is just a pause between two calls.  The script itself is carried out
by the kit's resumable runner (:func:`pbem.core.scripts.resume`, see :func:`run_script`).
"""
from __future__ import annotations

from pbem.core.scripts import STOP, Cursor, Skip, Stop, resume

from . import tables
from .abilities import deposit, ground_attack, swap, use_cp
from .damage import card_names, damage, draw_into, finish, policy, trim_hand
from .conditions import CONDITIONS
from .exchange import declare, step_exchange
from .flight import aa_check, move, step_pursuit
from .rulebook import cite_text
from .asks import ask
from .plan import ask_round, per_round, planned_script
from .script_verbs import (Attack, Climb, Close, CpUse, Descend, DpDeposit, End, EndDiscard, GroundAttack, If, Manoeuvre,
                           MoveTo, NextDiscard, OnCancelled, Rotate, ScriptOrder, Stay, Swap, parse_script_line)
from .state import Game, other_side
from pbem.core.texts import t_
from .terms import word

__all__ = ["advance", "activate", "take_script"]

BEATS = (Attack, Manoeuvre, If, GroundAttack)


def advance(g: Game) -> None:
    """Run until a decision is owed or the game is over."""
    while not g.doc["over"] and g.asked is None:
        if g.doc["turn"] is None:
            next_activation(g)
        else:
            run_turn(g)


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
    order = g.side_policy(side)["sequence"]
    todo = [a for a in g.on_board(side) if not a["done"]]
    return sorted(todo, key=lambda a: (order.index(a["id"]) if a["id"] in order else 99, a["id"]))


def next_activation(g: Game) -> None:
    side = side_to_move(g)
    if side is None:
        end_round(g)
        return
    if per_round(g) and ask_round(g):
        return
    a = sequence(g, side)[0]
    if policy(g, a["seat"])["activation"] == "ask":
        ask(g, "activate", [a["seat"]], side=side, ac=a["id"])
        return
    activate(g, a, ())


def end_round(g: Game) -> None:
    """Number cards and used ground objects turn back; a new round starts [L327]."""
    g.say(t_("round %(n)s ends", n=g.doc['round']), kind="round")
    limit = g.opt("max_rounds")
    if limit and g.doc["round"] >= limit:
        finish(g, t_("the agreed limit of %(n)s rounds is reached", n=limit))
        return
    g.doc["round"] += 1
    g.work.new_turn()
    g.doc["last_side"] = None
    for a in g.aircraft():
        a["done"] = False
    for side in tables.SIDES:
        g.doc["cp_used"][side] = False
    g.say(t_("round %(n)s begins; %(side)s has the initiative", n=g.doc['round'], side=word(g.doc['initiative'])),
          kind="round")


def activate(g: Game, a: dict, pre_discard) -> None:
    """T0 discard, persistent effects, the activation draw, AA fire; then the script is owed [L291-293]."""
    g.doc["last_side"] = a["side"]
    g.say(t_("%(id)s (%(model)s, %(seat)s) is activated", id=a['id'], model=g.type_of(a).model, seat=a['seat']),
          kind="activate")
    gone = []
    planned, a["next_discard"] = list(a.get("next_discard", [])), []
    for c in list(pre_discard) + planned:
        if c in a["hand"] and tables.card(c).kind != "malfunction":
            a["hand"].remove(c)
            gone.append(c)
    if gone:
        g.discard(gone)
        g.say(t_("%(id)s discards %(cards)s before activating %(ref)s", id=a['id'], cards=card_names(gone),
                 ref="[L291]"), kind="discard")
    for att in list(a["attached"]):
        if att.get("burn"):
            damage(g, a, att["burn"], other_side(a["side"]), tables.card(att["card"]).name)
            if a["destroyed"]:
                break
            att["turns"] -= 1
            if att["turns"] <= 0:
                a["attached"].remove(att)
                g.discard([att["card"]])
                g.say(t_("%(card)s on %(id)s runs out", card=tables.card(att['card']).name, id=a['id']), kind="persistent")
    if a["destroyed"]:
        return
    st = g.stats(a)
    if len(a["hand"]) < st.ttx:
        draw_into(g, a, min(st.power, st.ttx - len(a["hand"])), t_("activation draw %(ref)s", ref="[L293]"))
    g.doc["turn"] = {"ac": a["id"], "seat": a["seat"], "script": [], "pc": 0, "spent": 0, "turret_spent": 0,
                     "swapped": False, "moved": False, "actions": 0, "beats": 0, "ground_attacked": False,
                     "aa_fired": False, "last_ok": None, "exchange": None, "pursuit": None,
                     "end_discard": [], "more": False, "step": 0}
    aa_check(g, a)
    if a["destroyed"] or g.doc["over"]:
        g.doc["turn"] = None
        return
    planned = planned_script(g, a)
    if planned is None:
        ask(g, "script", [a["seat"]], ac=a["id"])
    else:
        take_script(g, planned)


def take_script(g: Game, items: list[ScriptOrder]) -> None:
    """Store the active player's script (as its canonical lines); in step mode a script with a beat
    asks again afterwards."""
    t = g.doc["turn"]
    t["script"], t["pc"], t["step"] = [o.text() for o in items], 0, t["step"] + 1
    t["more"] = bool(g.opt("step_mode")) and any(isinstance(o, BEATS) for o in items) \
        and not any(isinstance(o, End) for o in items)


def run_turn(g: Game) -> None:
    t = g.doc["turn"]
    a = g.ac(t["ac"])
    if a["destroyed"]:
        a["done"] = True
        g.doc["turn"] = None
        return
    if t["exchange"]:
        step_exchange(g)
        return
    if t["pursuit"]:
        step_pursuit(g)
        return
    if t["pc"] >= len(t["script"]):
        if t["more"] and not t["ground_attacked"]:
            t["more"] = False
            ask(g, "script", [a["seat"]], ac=a["id"])
            return
        finish_turn(g, a)
        return
    run_script(g, a, t)


def run_script(g: Game, a: dict, t: dict) -> None:
    """Carry the script out with the kit's runner from the turn's cursor, pausing whenever the game
    has something to settle first (an exchange, a pursuit, a decision, a loss) [4.2, 10.2].

    PREV_OK / PREV_FAILED ask whether the previous *beat's action stood* (``last_ok``, set when its
    exchange closes), not whether the line above was carried out.  While a line is carried out,
    ``t["pc"]`` is already past it, so a beat reads its ON_CANCELLED lines below it.
    """
    def busy() -> bool:
        return (g.asked is not None or bool(g.doc["over"]) or g.doc["turn"] is not t or a["destroyed"]
                or bool(t["exchange"]) or bool(t["pursuit"]))

    def reach(reached) -> None:
        t["pc"] = reached.index + 1

    cursor = resume(g.work, a["seat"], [parse_script_line(x) for x in t["script"]], Cursor(t["pc"]),
                    lambda o: cited(RUN[type(o)](g, a, o)), CONDITIONS, about=a, previous=lambda: t["last_ok"],
                    pause=busy, skipped=lambda s: skipped(a, s), on_reach=reach)
    t["pc"] = cursor.at


def cited(result):
    """A line's outcome for the kit's runner: a reason it was not carried out names the rulebook's headings (the
    runner words an ELSE taken after a failed THEN itself)."""
    return cite_text(result) if isinstance(result, str) else result


def skipped(a: dict, s: Skip) -> str:
    """The game's wording of an order of the script not carried out, and why."""
    plain = s.unmet is not None and isinstance(s.entry, If) and s.entry.otherwise is None
    why = t_("its condition does not hold") if plain else s.reason  # an ELSE tried says why it failed too
    # a skip is a refusal at resolution: it names the rulebook's headings, as a rejection does
    return t_("%(id)s: order '%(order)s' is skipped: %(why)s", id=a['id'], order=s.order.text(), why=cite_text(why))


def finish_turn(g: Game, a: dict) -> None:
    """T4: malfunctions are repaired, the hand is cut to TTX, the number card turns [L42, L255, L321]."""
    t = g.doc["turn"]
    broken = [c for c in a["hand"] if tables.card(c).kind == "malfunction"]
    for c in broken:
        a["hand"].remove(c)
    if broken:
        g.discard(broken)
        g.say(t_("%(id)s repairs %(cards)s at the end of its turn", id=a['id'], cards=card_names(broken)),
              kind="malfunction")
    trim_hand(g, a, t_("hand limit at the end of the turn %(ref)s", ref="[L42]"), t["end_discard"])
    a["done"] = True
    g.doc["turn"] = None
    g.say(t_("%(id)s ends its turn", id=a['id']), kind="turn")


def counters_below(g: Game) -> OnCancelled:
    """The ON_CANCELLED lines right below the beat just reached, taken together."""
    t = g.doc["turn"]
    cards: tuple[str, ...] = ()
    ask = False
    for text in t["script"][t["pc"]:]:
        o = parse_script_line(text)
        if not isinstance(o, OnCancelled):
            break
        cards += o.cards
        ask = ask if o.ask is None else o.ask
    return OnCancelled(cards, ask)


def run_move(g: Game, a: dict, o: Stay | MoveTo | Close | Rotate | Climb | Descend) -> str | None:
    t = g.doc["turn"]
    if t["moved"] or t["actions"]:
        return t_("movement comes once, before combat %(ref)s", ref="[L295]")
    if isinstance(o, MoveTo) and o.face is None:  # a round plan's MOVE keeps the facing the turn starts with
        o = MoveTo(o.cell, a["facing"])
    why = move(g, a, o)
    if why:
        t["moved"] = False  # nothing moved: an ELSE may still give the turn's movement
    return why


def run_beat(g: Game, a: dict, beat: Attack | Manoeuvre) -> str | None:
    """The beat (or an IF's THEN, whose condition the kit's runner found holding) is declared."""
    return declare(g, a, beat, counters_below(g))


def run_end_discard(g: Game, a: dict, o: EndDiscard) -> None:
    g.doc["turn"]["end_discard"] = list(o.cards)


def run_next_discard(g: Game, a: dict, o: NextDiscard) -> None:
    a["next_discard"] = list(o.cards)


def run_end(g: Game, a: dict, o: End) -> Stop:
    g.doc["turn"]["more"] = False
    return STOP


def run_nothing(g: Game, a: dict, o: OnCancelled) -> None:
    """ON_CANCELLED lines were read with the beat above them."""


RUN = {Stay: run_move, MoveTo: run_move, Close: run_move, Rotate: run_move, Climb: run_move, Descend: run_move, Attack: run_beat,
       Manoeuvre: run_beat, OnCancelled: run_nothing, GroundAttack: ground_attack, Swap: swap, CpUse: use_cp,
       DpDeposit: deposit, EndDiscard: run_end_discard, NextDiscard: run_next_discard, End: run_end}
