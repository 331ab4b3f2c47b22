"""Checking the active player's turn script against its view [4.2, 10.2].

What can be known when the orders are written is checked here: cards in hand (each copy
used once), targets, movement legality and, while no earlier line can have changed the
position, firing points.  What depends on how earlier beats end is re-checked when the
beat is reached; a beat that has become illegal then is skipped and its author told why.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from pbem.core.texts import join, t_
from pbem.core.errors import OrderError, OrderProblem
from pbem.core.orders import OrderLine

from . import tables
from .geometry import NOSE, cell_text
from .plan import PlanFor
from .script_verbs import (Attack, Climb, Close, CpUse, Descend, DpDeposit, End, EndDiscard, GroundAttack, If,
                           Manoeuvre, MoveTo, NextDiscard, OnCancelled, Rotate, ScriptOrder, Stay, Swap)
from .terms import word
from .words import illegal, syntax, tidy

BEAT_VERBS = ("MANOEUVRE", "ATTACK", "IF")


def check_script(v: dict, decide: dict, lines: Sequence[OrderLine],
                 parsed: Sequence[tuple[OrderLine, ScriptOrder]]) -> list[OrderProblem]:
    """The problems of the script's orders taken in line order (``lines``: every script line,
    ``parsed``: those that were read)."""
    check = ScriptCheck(v, decide)
    read = {line.line_no: o for line, o in parsed}
    problems = []
    for line in lines:
        try:
            check.line(line, read.get(line.line_no))
        except OrderError as e:
            problems.append(e.problem(line.line_no, line.text))
    return problems


def check_plan(v: dict, decide: dict, lines: Sequence[OrderLine],
               parsed: Sequence[tuple[OrderLine, object]]) -> list[OrderProblem]:
    """A round plan: each AIRCRAFT block checked as that aircraft's turn script, against the table as it
    stands now; what the turns flown before it change is judged when each line is reached."""
    read = {line.line_no: o for line, o in parsed}
    problems: list[OrderProblem] = []
    own = decide["aircraft"]
    check: ScriptCheck | None = None
    started: dict[str, int] = {}
    asked = False
    for line in lines:
        o = read.get(line.line_no)
        try:
            if isinstance(o, PlanFor):
                if o.ac in started:
                    check = None  # the lines of a second block are not checked against the first
                    raise illegal(t_("%(ac)s has a block from line %(line)s already: one block per aircraft", ac=o.ac,
                                     line=started[o.ac]), "L289")
                started[o.ac] = line.line_no
                check, asked = ScriptCheck(v, dict(decide["facts"][o.ac], ac=o.ac)), o.ask
                continue
            if line.verb == "AIRCRAFT":
                check = None  # an AIRCRAFT line that was refused: the lines of its block are not checked
                started.setdefault("", line.line_no)
                continue
            if check is None and not started and len(own) == 1:
                check, asked = ScriptCheck(v, dict(decide["facts"][own[0]], ac=own[0])), False
                started[own[0]] = line.line_no
            if check is None:
                if not started:
                    raise illegal(t_("write AIRCRAFT <aircraft> above the lines of each aircraft's turn (%(own)s)",
                                     own=", ".join(own)), "L289")
                continue
            if asked:
                raise illegal(t_("%(ac)s's turn is asked for by mail (AIRCRAFT %(ac)s ASK): its block takes no lines",
                                 ac=check.ac), "L289")
            check.line(line, o)
        except OrderError as e:
            problems.append(e.problem(line.line_no, line.text))
    return problems


class ScriptCheck:
    """What the script may still use as its lines are read in order."""

    def __init__(self, v: dict, decide: dict) -> None:
        self.v, self.decide = v, decide
        self.ac = decide["ac"]
        self.me = next(a for a in v["aircraft"] if a["id"] == self.ac)
        self.hand = Counter(v["hands"].get(self.ac, []))
        self.used: Counter = Counter()
        self.rel = {r["id"]: r for r in decide["relations"]}
        self.enemies = {a["id"] for a in v["aircraft"] if a["side"] != v["side"] and not a["destroyed"]
                        and a["placed"]}
        self.all_ac = {a["id"] for a in v["aircraft"] if not a["destroyed"] and a["placed"]}
        self.items: list[ScriptOrder] = []
        self.known = True  # no earlier line can have changed positions or firing
        self.spent = {"guns": 0, "turret": 0}
        self.beats = 0
        self.seen_move = False
        self.once: Counter = Counter()  # once-per-turn things already ordered
        self.failed_beat = False  # an ON_CANCELLED after a rejected beat is not reported twice
        # a round plan is flown later: where the aircraft and its enemies will be is judged then
        self.plan = bool(decide.get("plan"))
        if self.plan:
            self.known = False

    def line(self, line: OrderLine, order: ScriptOrder | None) -> None:
        """Check the next line; ``order`` is None when it could not be read (its problem is known)."""
        verb = line.verb
        if verb == "ON_CANCELLED" and self.failed_beat:
            return
        if verb != "ON_CANCELLED":
            self.failed_beat = verb in BEAT_VERBS
        if self.once["end"]:
            raise illegal(t_("END closes the script: nothing after it is carried out (move the line above END)"),
                          "L289")
        if order is not None:
            CHECKS[type(order)](self, order)
            self.items.append(order)

    def take(self, cid: str, what: str) -> None:
        """Use one copy of ``cid`` from the hand."""
        if self.used[cid] >= self.hand[cid]:
            raise illegal(t_("%(ac)s holds %(n)s %(card)s card(s) and this script already uses %(used)s (%(what)s); "
                             "hand: %(hand)s", ac=self.ac, n=self.hand[cid], card=tables.card(cid).name,
                             used=self.used[cid], what=what, hand=", ".join(sorted(self.hand.elements())) or t_("empty")),
                          "L42")
        self.used[cid] += 1

    # ---- movement [L133-138, L295] ------------------------------------------------------------
    def movement(self, o):
        if self.seen_move or not self.decide["first_step"]:
            raise illegal(t_("one movement order per turn, at its start %(ref)s", ref="[L134, L295]"), "L295")
        if self.beats or self.items:
            raise illegal(t_("movement comes before combat and the other orders %(ref)s", ref="[L295-297]"), "L295")
        self.seen_move = True
        if isinstance(o, Stay):
            return o
        self.known = False
        if isinstance(o, (Climb, Descend)):
            return self.altitude_change(o)
        if self.me["in_dogfight"] and not self.plan:
            raise illegal(t_("%(ac)s is in a dogfight: it may not move or turn in its field, only change "
                             "altitude or stay", ac=self.ac), "L119, L135, L295")
        if isinstance(o, Rotate):
            return o
        if isinstance(o, Close):
            return self.close(o)
        if not self.plan and list(o.cell) not in self.decide["free_cells"]:
            raise illegal(t_("cell %(cell)s at %(alt)s altitude is not free", cell=cell_text(o.cell),
                             alt=word(self.me['alt'])), "L135")
        return o

    def close(self, o: Close) -> Close:
        """CLOSE names an enemy in play; in a turn script (the table known) one in this field [L121, L135]."""
        if o.target not in self.enemies:
            raise illegal(t_("%(target)s is not an enemy aircraft in play (%(them)s)", target=repr(o.target),
                             them=", ".join(sorted(self.enemies))), "L121")
        foe = next(a for a in self.v["aircraft"] if a["id"] == o.target)
        if not self.plan and foe["alt"] != self.me["alt"]:
            raise illegal(t_("%(target)s flies at %(alt)s altitude, not in %(ac)s's field", target=o.target,
                             alt=word(foe['alt']), ac=self.ac), "L135")
        return o

    def altitude_change(self, o: Climb | Descend) -> Climb | Descend:
        i = tables.ALTITUDES.index(self.me["alt"]) + o.STEP
        if not 0 <= i < len(tables.ALTITUDES):
            raise illegal(t_("%(ac)s is at %(alt)s altitude: it cannot %(verb)s further", ac=self.ac,
                             alt=word(self.me['alt']), verb=o.VERB.lower()), "L136")
        if self.decide["engine_trouble"]:
            raise illegal(t_("%(ac)s has engine trouble: no altitude change while the malfunction is in hand",
                             ac=self.ac), "L196")
        if isinstance(o, Climb):
            if not any(tables.card(c).kind != "malfunction" for c in self.hand.elements()):
                raise illegal(t_("climbing costs one card from the hand and there is none to give"), "L136")
            if o.discard:
                self.take(o.discard, "CLIMB DISCARD")
        alt = tables.ALTITUDES[i]
        cells = self.decide["entry"][alt]
        if o.cell and list(o.cell) not in cells and not self.plan:
            raise illegal(t_("entering %(alt)s altitude the aircraft goes to %(cells)s (start cell first)", alt=word(alt),
                             cells=join(t_(" or "), [f"{x},{y}" for x, y in cells]) if cells else t_("no free cell")),
                          "L133, L138")
        return o

    # ---- beats [4.2 T3, 4.3] -------------------------------------------------------------------
    def beat(self, o):
        if self.v["options"]["step_mode"] and self.beats:
            raise illegal(t_("step mode: one beat per order file; the engine asks again after it"), "L297")
        if self.once["ground"]:
            raise illegal(t_("a shturmovik that attacks a ground object plays no other attack or manoeuvre %(ref)s",
                             ref="[L301]"), "L301")
        if o.from_dp:
            if self.once["from_dp"] or self.decide.get("dp_card") != o.card:
                raise illegal(t_("the card on your dispatch post is %(card)s; it is played once and then discarded",
                                 card=self.decide.get('dp_card') or t_("none")), "L148")
            self.once["from_dp"] += 1
        if isinstance(o, Attack):
            self.attack(o)
        else:
            self.manoeuvre(o)
        self.failed_beat = False
        self.beats += 1
        return o

    def conditional(self, o: If) -> If:
        moves = (Stay, MoveTo, Close, Rotate, Climb, Descend)
        if self.plan and isinstance(o.then, moves):
            return self.conditional_move(o, moves)
        if not isinstance(o.then, (Attack, Manoeuvre)):
            raise syntax("IF ... THEN is followed by a MANOEUVRE or ATTACK" + (" or, in a round plan, a movement"
                                                                             if self.plan else ""))
        if o.otherwise is not None and not self.plan:
            raise illegal(t_("a turn script has no ELSE: write the other beat on its own line under the opposite "
                             "condition"), "L297")
        if o.otherwise is not None and not isinstance(o.otherwise, (Attack, Manoeuvre)):
            raise syntax(t_("ELSE after a beat is another MANOEUVRE or ATTACK"))
        self.condition(o)
        self.known = False
        if o.otherwise is None:
            self.beat(o.then)
            return o
        # one of the two is played: each may use the cards, the script uses the more of either
        before = Counter(self.used)
        self.beat(o.then)
        after_then, self.used = self.used, before
        self.beats -= 1
        self.beat(o.otherwise)
        self.used = self.used | after_then
        return o

    def conditional_move(self, o: If, moves: tuple[type, ...]) -> If:
        """``IF <condition> THEN <movement> [ELSE <movement>]``, a round plan's movement: the turn's one
        movement order either way."""
        if o.otherwise is not None and not isinstance(o.otherwise, moves):
            raise syntax(t_("ELSE after a movement is another movement"))
        self.condition(o)
        before = Counter(self.used)
        self.movement(o.then)
        if o.otherwise is not None:  # one of the two is carried out: a card either would pay is used once
            after_then, self.used = self.used, before
            self.seen_move = False
            self.movement(o.otherwise)
            self.used = self.used | after_then
        self.failed_beat = False  # not a beat: an ON_CANCELLED below it answers for nothing
        return o

    def condition(self, o: If) -> None:
        who = o.when.args[0] if o.when.name in ("POS", "DOGFIGHT") else None
        if who is not None and who not in self.enemies:
            raise illegal(t_("%(target)s is not an enemy aircraft in play", target=repr(who)), "L121")
        if o.when.name == "ALT" and o.when.args[0] not in self.all_ac:
            raise illegal(t_("%(target)s is not an aircraft in play", target=repr(o.when.args[0])), "L29")

    def attack(self, o: Attack) -> None:
        if o.target not in self.enemies:
            raise illegal(t_("%(target)s is not an enemy aircraft in play (%(them)s)", target=repr(o.target),
                             them=", ".join(sorted(self.enemies))), "L297")
        if not o.from_dp:
            self.take(o.card, "ATTACK")
        if o.crit:
            self.take(o.crit, "CRIT")
        if o.extra:
            self.take(o.extra, "EXTRA")
        if not self.plan:  # a round plan is flown after the activation draw, which may bring the card
            self.extra_card(o)
        if self.known:
            self.firing(o)

    def extra_card(self, o: Attack) -> None:
        """The extra card an attack demands comes from cards the script leaves in hand, never a
        malfunction: checked as it is paid [L178, L196]."""
        c = tables.card(o.card)
        need = c.extra_discard - (1 if o.extra else 0)
        if need <= 0:
            return
        spare = sum(n - self.used[x] for x, n in self.hand.items() if tables.card(x).kind != "malfunction")
        if spare < need:
            raise illegal(t_("%(card)s demands %(n)s extra card(s) from the hand and %(ac)s has %(spare)s left "
                             "besides the cards this script uses (a malfunction cannot pay)", card=tidy(c.name),
                             n=c.extra_discard, ac=self.ac, spare=spare), "L178, L196")

    def firing(self, o: Attack) -> None:
        """Firing points and the extra card, while the position is the view's [L41, L126-129, L178, L231]."""
        c = tables.card(o.card)
        r = self.rel.get(o.target)
        if r is None:
            raise illegal(t_("%(target)s is not in a dogfight with %(ac)s (orthogonally adjacent at the same altitude)",
                             target=o.target, ac=self.ac), "L119, L297")
        if r["pool"] == "none":
            raise illegal(t_("%(ac)s is %(aspect)s-on to %(target)s and has no turret: it may not attack %(ref)s",
                             ac=self.ac, aspect=r['my_aspect'], target=o.target, ref="[L126, L129]"), "L121")
        left = r["firing"] - self.spent[r["pool"]]
        if c.cost > left:
            where = t_("turret") if r["pool"] == "turret" else t_("%(position)s position", position=r["position"] or "")
            raise illegal(t_("%(card)s costs %(cost)s firing points; %(ac)s has %(left)s against %(target)s (%(where)s)",
                             card=tidy(c.name), cost=c.cost, ac=self.ac, left=left, target=o.target, where=where),
                          "L41, L231")
        self.spent[r["pool"]] += c.cost

    def manoeuvre(self, o: Manoeuvre) -> None:
        if o.target is not None and o.target not in self.enemies:
            raise illegal(t_("%(target)s is not an enemy aircraft in play", target=repr(o.target)), "L168")
        if not o.from_dp:
            self.take(o.card, "MANOEUVRE")
        if self.known:
            self.manoeuvre_position(o)
        self.known = False

    def manoeuvre_position(self, o: Manoeuvre) -> None:
        """The dogfight conditions of a manoeuvre, while the position is the view's [L166, L168, L219]."""
        c, rel, tgt = tables.card(o.card), self.rel, o.target
        if rel and tgt is None:
            raise illegal(t_("%(ac)s is in a dogfight: name the TARGET (%(them)s)", ac=self.ac, them=", ".join(sorted(rel))),
                          "L168")
        if tgt is not None and tgt not in rel:
            raise illegal(t_("%(target)s is not in a dogfight with %(ac)s", target=tgt, ac=self.ac), "L168")
        if tgt and c.effect == "change_position" and o.apply == "target" and rel[tgt]["my_aspect"] != NOSE:
            raise illegal(t_("%(ac)s must be nose-on to %(target)s to turn it; it is %(aspect)s-on "
                             "(APPLY SELF turns your own aircraft)", ac=self.ac, target=tgt,
                             aspect=rel[tgt]['my_aspect']), "L166")
        if c.effect == "flank_swap" and (tgt is None or rel[tgt]["my_aspect"] != "side"):
            raise illegal(t_("%(card)s needs %(ac)s side-on to its target", card=tidy(c.name), ac=self.ac), "L219")

    def on_cancelled(self, o: OnCancelled) -> OnCancelled:
        above = next((i for i in reversed(self.items) if not isinstance(i, OnCancelled)), None)
        if isinstance(above, If):
            above = above.then
        if not isinstance(above, (Attack, Manoeuvre)):
            raise illegal(t_("an ON_CANCELLED line follows the MANOEUVRE or ATTACK it answers for"), "L158")
        for cid in o.cards:
            if self.hand[cid] == 0:
                raise illegal(t_("%(ac)s holds no %(card)s", ac=self.ac, card=tables.card(cid).name), "L42")
        return o

    def ground_attack(self, o: GroundAttack) -> GroundAttack:
        if self.beats or self.once["ground"]:
            raise illegal(t_("a ground attack excludes every other attack and manoeuvre in the turn"), "L301")
        if not self.me["category"].startswith("SH"):
            raise illegal(t_("%(ac)s is category %(cat)s: only shturmoviks (SH) attack ground objects", ac=self.ac,
                             cat=self.me['category']), "L73, L301")
        if self.known and self.decide["ground_below"] is None:
            raise illegal(t_("%(ac)s is not in the low-altitude cell directly above a live enemy ground object",
                             ac=self.ac), "L301")
        self.once["ground"] += 1
        self.beats += 1
        return o

    # ---- abilities [L48, L146, L148] -------------------------------------------------------------
    def swap(self, o: Swap) -> Swap:
        if not self.me["swap"]:
            raise illegal(t_("%(ac)s (%(model)s) has no swap ability", ac=self.ac, model=self.me['model']), "L48")
        if self.once["swap"]:
            raise illegal(t_("the swap ability works once per turn"), "L48")
        if tables.card(o.card).kind == "malfunction":
            raise illegal(t_("a malfunction card cannot be swapped"), "L48")
        self.take(o.card, "SWAP")
        self.once["swap"] += 1
        return o

    def cp_use(self, o: CpUse) -> CpUse:
        if not self.decide["cp_ready"] or self.once["cp"]:
            raise illegal(t_("your side has no working command post unused this round"), "L146")
        if o.discard is not None:
            if tables.card(o.discard).kind == "malfunction":
                raise illegal(t_("a malfunction card cannot pay for the command post"), "L146")
            self.take(o.discard, "CP_USE DISCARD")
        self.once["cp"] += 1
        return o

    def dp_deposit(self, o: DpDeposit) -> DpDeposit:
        if not self.decide["dp_ready"] or self.once["dp"]:
            raise illegal("your side has no working dispatch post, or a card already lies on it", "L148")
        if tables.card(o.card).kind == "malfunction":
            raise illegal("a malfunction card cannot go on the dispatch post", "L148")
        self.take(o.card, "DP_DEPOSIT")
        self.once["dp"] += 1
        return o

    def planned_discard(self, o: EndDiscard) -> EndDiscard:
        """END_DISCARD / NEXT_DISCARD once a script, naming cards the hand holds now [L42, L291]
        (cards drawn later go by DISCARD_PRIORITY: they cannot be named before they are seen)."""
        key = o.VERB
        if self.once[key]:
            raise illegal(f"{key} is given once a turn; name every card on one line", "L42" if key == "END_DISCARD"
                          else "L291")
        self.once[key] += 1
        want = Counter(o.cards)
        short = [c for c in want if want[c] > self.hand[c]]
        if short:
            raise illegal(f"{key} names {', '.join(short)}, more than {self.ac} holds; hand: "
                          f"{', '.join(sorted(self.hand.elements())) or 'empty'}",
                          "L42" if key == "END_DISCARD" else "L291")
        return o

    def end(self, o: End) -> End:
        self.once["end"] += 1
        return o


CHECKS: dict[type, Callable] = {
    Stay: ScriptCheck.movement, MoveTo: ScriptCheck.movement, Close: ScriptCheck.movement, Rotate: ScriptCheck.movement,
    Climb: ScriptCheck.movement, Descend: ScriptCheck.movement,
    Attack: ScriptCheck.beat, Manoeuvre: ScriptCheck.beat, If: ScriptCheck.conditional,
    OnCancelled: ScriptCheck.on_cancelled, GroundAttack: ScriptCheck.ground_attack,
    Swap: ScriptCheck.swap, CpUse: ScriptCheck.cp_use, DpDeposit: ScriptCheck.dp_deposit,
    EndDiscard: ScriptCheck.planned_discard, NextDiscard: ScriptCheck.planned_discard, End: ScriptCheck.end,
}
