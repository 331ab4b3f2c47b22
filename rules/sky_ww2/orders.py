"""Order lines: reading and checking them against the seat's view only [10.3].

One verb table (the kit's :class:`~pbem.core.verbs.VerbTable`) reads every line into its
typed order.  Every seat may send standing orders (:mod:`.standing`) in any order file;
the awaited seat also sends the orders of its step: set-up choices, a deployment, an
activation, the turn script (:mod:`.script`, checked line after line as a whole), a
reaction, or a pursuit answer.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.core.texts import t_, tn_
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked
from pbem.core.verbs import Verb, VerbTable

from . import tables
from .rulebook import FORM, cite
from .plan import plan_line
from .script import check_plan, check_script
from .script_verbs import SCRIPT, MoveTo
from .script_verbs import USAGE as SCRIPT_USAGE
from .standing import STANDING, USAGE, AaFire, DpUse, PolicyOrder, Rescue, parse_standing
from .step_verbs import Activate, Deploy, Ground, Keep, Pass, Pick, Play, PreDiscard, Pursue, last
from .words import card_id, cell_arg, face_arg, illegal, keyword_args, syntax


def check_orders(v: dict, seat: str, lines: Sequence[OrderLine]) -> Checked:
    """Every line read and checked; the standing orders stored are noted for the acknowledgement."""
    decide = v.get("decide")
    kind = decide["kind"] if decide else None

    def whole(parsed, view, seat):
        own = [(line, o) for line, o in parsed if not isinstance(o, PolicyOrder)]
        if kind == "script":
            return check_script(v, decide, [line for line in lines if line.verb not in STANDING], own)
        if kind == "round":
            return check_plan(v, decide, [line for line in lines if line.verb not in STANDING], own)
        if kind == "deploy" and decide["sealed"]:
            return check_sealed(own)
        return check_one_answer(kind, own) + (check_pre_discard(v, decide, own) if kind == "activate" else [])

    checked = TABLE.check_lines(v, seat, lines, allowed=STANDING + ALLOWED.get(kind, ()), whole=whole,
                                note=lambda o: standing_note(v, o) if isinstance(o, PolicyOrder) else None)
    # every rejection names the rulebook's own heading, never a seed line or a digest number
    return replace(checked, problems=tuple(replace(p, rule=cite(p.rule, kind)) for p in checked.problems))


def standing_note(v: dict, o: PolicyOrder) -> str:
    """The acknowledgement of a standing order, warning when nothing in this game can bring it into play."""
    op = o.OP
    own = v["ground"][v["side"]]
    laid = all(g.get("obj") for g in own)  # before set-up the side has not chosen its objects yet
    objs = {g["obj"] for g in own if g.get("obj") and not g.get("destroyed")}
    idle = {AaFire: laid and "aa" not in objs and t_("your side has no AA battery"),
            DpUse: laid and "dp" not in objs and t_("your side has no dispatch post"),
            Rescue: not v["options"]["events"] and t_("this game has no event cards, so no rescue card")}
    why = next((w for cls, w in idle.items() if isinstance(o, cls)), "")
    if why:
        return t_("standing order %(op)s stored (it has no effect now: %(why)s)", op=op, why=why)
    return t_("standing order %(op)s stored", op=op)


#: The answers a decision takes once each: a second line of one group would contradict the first, and
#: acting on either would drop a line that was acknowledged.
SINGLE: dict[str | None, tuple[tuple[type, ...], ...]] = {
    "setup": ((Ground,), (Pick, Keep)), "deploy": ((Deploy,),), "activate": ((Activate,), (PreDiscard,)),
    "react": ((Play, Pass),), "pursue": ((Pursue,),)}
SAY = {Ground: t_("one GROUND line"), Pick: t_("one PICK or KEEP line"), Deploy: t_("one DEPLOY line (the next "
       "window asks for the next aircraft)"), Activate: t_("one ACTIVATE line"), PreDiscard: t_("one PRE_DISCARD line"),
       Play: t_("one PLAY line or PASS (delete the form's PASS line when you play a card)"),
       Pursue: t_("one PURSUE line")}
RULE = {Ground: "L279", Pick: "L267", Deploy: "L317", Activate: "L287", PreDiscard: "L291", Play: "L158",
        Pursue: "L140"}


def check_one_answer(kind: str | None, parsed: list[tuple[OrderLine, object]]) -> list:
    """Each group of answers of the decision at most once: a PLAY written above the form's PASS is
    refused, not silently replaced by it."""
    problems = []
    for group in SINGLE.get(kind, ()):
        answers = [(line, o) for line, o in parsed if isinstance(o, group)]
        if len(answers) < 2:
            continue
        numbers = ", ".join(str(line.line_no) for line, _ in answers)
        error = illegal(t_("this window takes one answer and lines %(lines)s give %(n)s: send %(say)s", lines=numbers,
                           n=len(answers), say=SAY[group[0]]), RULE[group[0]])
        problems += [error.problem(line.line_no, line.text) for line, _ in answers[1:]]
    return problems


def check_sealed(parsed: list[tuple[OrderLine, object]]) -> list:
    """A sealed deployment takes one DEPLOY line per aircraft, each to its own cell [L317]."""
    problems, seen, cells = [], {}, {}
    for line, o in parsed:
        if not isinstance(o, Deploy):
            continue
        if o.ac in seen:
            error = illegal(t_("%(ac)s is deployed on line %(line)s already: one DEPLOY line per aircraft", ac=o.ac,
                               line=seen[o.ac]), "L317")
            problems.append(error.problem(line.line_no, line.text))
            continue
        seen[o.ac] = line.line_no
        if o.cell is not None and (o.alt, o.cell) in cells:
            error = illegal(t_("line %(line)s puts another aircraft in that cell: one aircraft a cell",
                               line=cells[(o.alt, o.cell)]), "L133, L317")
            problems.append(error.problem(line.line_no, line.text))
            continue
        if o.cell is not None:
            cells[(o.alt, o.cell)] = line.line_no
    return problems


# ---- set-up [3] ---------------------------------------------------------------------------------


def ground_line(v: dict, words: Sequence[str]) -> Ground:
    objs = tuple(w.lower() for w in words[1:])
    if len(objs) != 2 or len(set(objs)) != 2 or any(o not in ("cp", "dp", "aa") for o in objs):
        raise illegal(t_("GROUND names two different objects of CP, DP, AA for your two slots, "
                         "in the order of your slots (left to right on the board)"), "L279")
    return Ground(objs)


def pick_line(v: dict, words: Sequence[str]) -> Pick:
    sel = v["selection"]
    verb = words[0].upper()
    want = {"free": "PICK", "limited": "KEEP"}.get(sel["mode"])
    if want is None:
        raise illegal(t_("random selection: the number cards already chose your aircraft"), "L271")
    if verb != want:
        raise illegal(t_("%(mode)s selection uses %(verb)s", mode=sel['mode'], verb=want), "L273, L275")
    if not all(w.isdigit() for w in words[1:]):
        raise syntax(t_("%(verb)s takes personal numbers", verb=verb))
    nums = tuple(int(w) for w in words[1:])
    bad = [n for n in nums if n not in sel["candidates"]]
    if bad:
        raise illegal(t_("number(s) %(bad)s not available; choose from %(ok)s", bad=", ".join(map(str, bad)),
                         ok=", ".join(map(str, sel['candidates']))), "L271-275")
    if len(nums) != sel["keep"] or len(set(nums)) != len(nums):
        raise illegal(t_("choose exactly %(n)s different aircraft", n=sel['keep']), "L269, L275")
    return (Pick if verb == "PICK" else Keep)(nums)


# ---- deployment [L317] ------------------------------------------------------------------------------


def deploy_line(v: dict, words: Sequence[str]) -> Deploy:
    decide = v["decide"]
    if len(words) < 3:
        raise syntax("DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE N|E|S|W]", "L317")
    ac = words[1].lower()
    if ac not in decide["aircraft"]:
        raise illegal(t_("%(ac)s is not one of your aircraft waiting to deploy (%(them)s)", ac=ac,
                         them=", ".join(decide['aircraft'])), "L317")
    alt = words[2].lower()
    if alt not in tables.ALTITUDES:
        raise syntax(t_("altitude is LOW, MEDIUM or HIGH"), "L29")
    kw = keyword_args(words[3:], ("CELL", "FACE"))
    face = face_arg(kw["FACE"]) if "FACE" in kw else None
    cells = decide["cells"][alt]
    if not cells:
        raise illegal(t_("no free cell at %(alt)s within two cells of your edge", alt=alt), "L317")
    if "CELL" not in kw:
        return Deploy(ac, alt, None, face)
    c = cell_arg(kw["CELL"])
    if c not in cells:
        raise illegal(t_("cell %(cell)s is not open: at %(alt)s you enter at %(cells)s (start cell first, else within two "
                         "cells of your edge)", cell=kw['CELL'], alt=alt, cells=" ".join(f"{x},{y}" for x, y in cells)),
                      "L133, L317")
    return Deploy(ac, alt, (c[0], c[1]), face)


# ---- activation [L287, L291] ------------------------------------------------------------------------


def activate_line(v: dict, words: Sequence[str]) -> Activate:
    aircraft = v["decide"]["aircraft"]
    if len(words) != 2 or words[1].lower() not in aircraft:
        raise illegal(t_("ACTIVATE one of your aircraft still to act: %(them)s", them=", ".join(aircraft)), "L287")
    return Activate(words[1].lower())


def pre_discard_line(v: dict, words: Sequence[str]) -> PreDiscard:
    return PreDiscard(tuple(card_id(w) for w in words[1:]))


def check_pre_discard(v: dict, decide: dict, parsed: list[tuple[OrderLine, object]]) -> list:
    """The cards to discard first must be in the hand of the aircraft activated [L291]."""
    chosen = last([o for _, o in parsed], Activate)
    pres = [(line, o) for line, o in parsed if isinstance(o, PreDiscard)]
    if not pres:
        return []
    line, pre = pres[-1]
    ac = chosen.ac if chosen else (decide["aircraft"][0] if decide["aircraft"] else None)
    hand = list(v["hands"].get(ac, []))
    problems = []
    for c in pre.cards:
        if c in hand and tables.card(c).kind != "malfunction":
            hand.remove(c)
        else:
            problems.append(illegal(t_("%(card)s is not a card %(ac)s holds (malfunctions cannot be discarded before "
                                       "activation); hand: %(hand)s", card=c, ac=ac,
                                       hand=", ".join(sorted(v['hands'].get(ac, [])))), "L291")
                            .problem(line.line_no, line.text))
    return problems


# ---- interrupt answers: a reaction [4.3], a pursuit [L140] ---------------------------------------------


def pass_line(v: dict, words: Sequence[str]) -> Pass:
    if len(words) != 1:
        raise syntax(t_("answer with PLAY <card> ON <n> or PASS"), "L158")
    return Pass()


def play_line(v: dict, words: Sequence[str]) -> Play:
    decide = v["decide"]
    if len(words) < 4:
        raise syntax(t_("PLAY <card> [FROM DP] ON <table card number>, or PASS"), "L158")
    cid = card_id(words[1])
    kw = keyword_args(words[2:], ("FROM", "ON"))
    src = "dp" if kw.get("FROM", "").upper() == "DP" else "hand"
    if not kw.get("ON", "").isdigit():
        raise syntax(t_("ON takes the number of a card on the table"))
    play = Play(cid, int(kw["ON"]), src == "dp")
    opts = decide["options"]
    if {"card": cid, "source": src, "on": play.on} not in opts:
        legal = "; ".join(Play(o["card"], o["on"], o["source"] == "dp").text() for o in opts) or t_("none: PASS")
        raise illegal(t_("%(ac)s cannot play %(card)s from %(src)s on card %(on)s now; legal: %(legal)s",
                         ac=decide['ac'], card=cid, src=src, on=play.on, legal=legal), "L158, 4.3")
    return play


def pursue_line(v: dict, words: Sequence[str]) -> Pursue:
    """``PURSUE YES [CELL x,y] [FACE d] [DISCARD cards]``: the pursuer pays the climb's card and the
    extra card itself, by name, from its own hand [L136, L140]; cards it does not name go by its
    DISCARD_PRIORITY."""
    decide = v["decide"]
    if len(words) < 2 or words[1].upper() not in ("YES", "NO"):
        raise syntax(t_("PURSUE YES [CELL x,y] [FACE d] [DISCARD cards] or PURSUE NO"), "L140")
    rest = [w.upper() for w in words[2:]]
    cut = rest.index("DISCARD") if "DISCARD" in rest else len(rest)
    kw = keyword_args(words[2:2 + cut], ("CELL", "FACE"))
    discard = tuple(card_id(w) for w in words[3 + cut:]) if cut < len(rest) else ()
    if cut < len(rest) and not discard:
        raise syntax(t_("DISCARD names the cards the pursuit costs"), "L140")
    go = words[1].upper() == "YES"
    if not go and (kw or cut < len(rest)):
        raise illegal(t_("PURSUE NO takes no cell, facing or discard"), "L140")
    cell = None
    if "CELL" in kw:
        c = cell_arg(kw["CELL"])
        if c not in decide["cells"]:
            raise illegal(t_("the pursuer may go to %(cells)s only", cells=" ".join(f"{x},{y}" for x, y in decide['cells'])),
                          "L140")
        cell = (c[0], c[1])
    check_pursuit_discard(v, decide, discard)
    return Pursue(go, cell, face_arg(kw["FACE"]) if "FACE" in kw else None, discard)


def check_pursuit_discard(v: dict, decide: dict, discard: tuple[str, ...]) -> None:
    """Named cards must be due (one to climb, one more when the target showed its side or nose) and
    held: malfunctions cannot pay [L136, L140]."""
    if not discard:
        return
    due = (1 if decide["climb"] else 0) + (1 if decide["extra"] else 0)
    if len(discard) > due:
        raise illegal(tn_("this pursuit costs %(n)s card(s) from the hand, you name %(named)s%(why)s",
                          "this pursuit costs %(n)s card(s) from the hand, you name %(named)s%(why)s", due,
                          named=len(discard), why="" if due else t_(": a dive onto a tail-on target costs none")),
                      "L136, L140")
    hand = list(v["hands"].get(decide["ac"], []))
    for c in discard:
        if c not in hand or tables.card(c).kind == "malfunction":
            held = ", ".join(h for h in hand if tables.card(h).kind != "malfunction") or t_("nothing")
            raise illegal(t_("%(card)s is not a card %(ac)s can discard; it holds %(held)s", card=c, ac=decide['ac'],
                             held=held), "L136, L140")
        hand.remove(c)


# ---- the verb table ---------------------------------------------------------------------------------------


def move_line(v: dict, words: Sequence[str]) -> MoveTo:
    """A MOVE without FACE keeps the aircraft's present facing [L135]."""
    o = MoveTo.parse(words)
    if o.face is None and "ac" in v["decide"]:  # in a round plan the facing is the one at the turn's start
        me = next(a for a in v["aircraft"] if a["id"] == v["decide"]["ac"])
        o = replace(o, face=me["facing"])
    return o


def verb(word: str, read, usage: str, rule: str = "") -> Verb:
    """A verb whose reader takes the view and the whole line's words (the verb first)."""
    return Verb(word, lambda args, v, seat: read(v, (word,) + args), usage, rule)


STEP_VERBS = {
    "setup": (verb("GROUND", ground_line, "GROUND <obj> <obj>", "L279"),
              verb("PICK", pick_line, "PICK <numbers>", "L273"), verb("KEEP", pick_line, "KEEP <numbers>", "L275")),
    "deploy": (verb("DEPLOY", deploy_line, "DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE d]", "L317"),),
    "activate": (verb("ACTIVATE", activate_line, "ACTIVATE <aircraft>", "L287"),
                 verb("PRE_DISCARD", pre_discard_line, "PRE_DISCARD <cards>", "L291")),
    "script": tuple(verb(w, move_line, SCRIPT_USAGE[w], "L135") if w == "MOVE" else SCRIPT.verbs[w] for w in SCRIPT.verbs),
    "react": (verb("PLAY", play_line, "PLAY <card> [FROM DP] ON <n>", "L158"), verb("PASS", pass_line, "PASS", "L158")),
    "round": (verb("AIRCRAFT", plan_line, "AIRCRAFT <aircraft> [ASK]", "L289"),),
    "pursue": (verb("PURSUE", pursue_line, "PURSUE YES [CELL x,y] [FACE d] [DISCARD cards] | PURSUE NO", "L140"),),
}
ALLOWED = {kind: tuple(v.word for v in verbs) for kind, verbs in STEP_VERBS.items()}
ALLOWED["round"] += ALLOWED["script"]  # a round plan is a turn script per aircraft
TABLE = VerbTable([verb(w, parse_standing, USAGE[w], FORM) for w in STANDING]
                  + [v for verbs in STEP_VERBS.values() for v in verbs], rule=FORM)
