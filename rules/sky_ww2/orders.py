"""Order lines: reading and checking them against the seat's view only [10.3].

Every seat may send standing orders (:mod:`.standing`) in any order file; the awaited
seat also sends the orders of the current step: set-up choices, a deployment, an
activation, the turn script (:mod:`.script`), a reaction, or a pursuit answer.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.core.errors import IllegalOrderError, OrderError, OrderProblem
from pbem.core.orders import OrderLine

from . import tables
from .script import check_script
from .standing import STANDING, PolicyOrder, parse_standing
from .step_verbs import Activate, Deploy, Ground, Keep, Pass, Pick, Play, PreDiscard, Pursue, last
from .words import card_id, cell_arg, face_arg, illegal, keyword_args, syntax


def check(v: dict, seat: str, lines: Sequence[OrderLine]) -> tuple[list, list, list[OrderProblem]]:
    """Read and check all lines; return the standing orders, the orders of the step awaited from the
    seat, and every problem."""
    problems: list[OrderProblem] = []
    standing: list[PolicyOrder] = []
    cmds: list[OrderLine] = []
    for line in lines:
        if not line.words:
            continue
        if line.verb not in STANDING:
            cmds.append(line)
            continue
        try:
            standing.append(parse_standing(v, line.words))
        except OrderError as e:
            problems.append(e.problem(line.line_no, line.text))
    decide = v.get("decide")
    kind = decide["kind"] if decide else None
    parsed: list = []
    if kind is None:
        for line in cmds:
            problems.append(IllegalOrderError("no decision is awaited from you now: only standing orders "
                                              f"({', '.join(STANDING)}) are accepted", rule="10.2")
                            .problem(line.line_no, line.text))
    elif kind == "script":
        parsed = check_script(v, decide, cmds, problems)
    else:
        parsed = check_step(v, decide, cmds, problems)
    problems.sort(key=lambda p: p.line_no)
    return standing, parsed, problems


def check_step(v: dict, decide: dict, cmds: Sequence[OrderLine], problems: list[OrderProblem]) -> list:
    read = []
    for line in cmds:
        try:
            read.append((line, STEP_CHECKS[decide["kind"]](v, decide, line.words)))
        except OrderError as e:
            problems.append(e.problem(line.line_no, line.text))
    if decide["kind"] == "activate":
        check_pre_discard(v, decide, read, problems)
    return [o for _, o in read]


# ---- set-up [3] ---------------------------------------------------------------------------------


def setup_line(v: dict, decide: dict, words: Sequence[str]) -> Ground | Pick:
    sel = v["selection"]
    verb = words[0].upper()
    if verb == "GROUND":
        objs = tuple(w.lower() for w in words[1:])
        if len(objs) != 2 or len(set(objs)) != 2 or any(o not in ("cp", "dp", "aa") for o in objs):
            raise illegal("GROUND names two different objects of CP, DP, AA for your two slots, "
                          "in the order of your slots (left to right on the board)", "L279")
        return Ground(objs)
    if verb not in ("PICK", "KEEP"):
        raise syntax(f"set-up orders are GROUND and {'PICK' if sel['mode'] == 'free' else 'KEEP'}, not {verb}")
    want = {"free": "PICK", "limited": "KEEP"}.get(sel["mode"])
    if want is None:
        raise illegal("random selection: the number cards already chose your aircraft", "L271")
    if verb != want:
        raise illegal(f"{sel['mode']} selection uses {want}", "L273, L275")
    if not all(w.isdigit() for w in words[1:]):
        raise syntax(f"{verb} takes personal numbers")
    nums = tuple(int(w) for w in words[1:])
    bad = [n for n in nums if n not in sel["candidates"]]
    if bad:
        raise illegal(f"number(s) {', '.join(map(str, bad))} not available; choose from "
                      f"{', '.join(map(str, sel['candidates']))}", "L271-275")
    if len(nums) != sel["keep"] or len(set(nums)) != len(nums):
        raise illegal(f"choose exactly {sel['keep']} different aircraft", "L269, L275")
    return (Pick if verb == "PICK" else Keep)(nums)


# ---- deployment [L317] ------------------------------------------------------------------------------


def deploy_line(v: dict, decide: dict, words: Sequence[str]) -> Deploy:
    if words[0].upper() != "DEPLOY" or len(words) < 3:
        raise syntax("DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE N|E|S|W]", "L317")
    ac = words[1].lower()
    if ac not in decide["aircraft"]:
        raise illegal(f"{ac} is not one of your aircraft waiting to deploy ({', '.join(decide['aircraft'])})", "L317")
    alt = words[2].lower()
    if alt not in tables.ALTITUDES:
        raise syntax("altitude is LOW, MEDIUM or HIGH", "2.1")
    kw = keyword_args(words[3:], ("CELL", "FACE"))
    face = face_arg(kw["FACE"]) if "FACE" in kw else None
    cells = decide["cells"][alt]
    if not cells:
        raise illegal(f"no free cell at {alt} within two cells of your edge", "L317")
    if "CELL" not in kw:
        return Deploy(ac, alt, None, face)
    c = cell_arg(kw["CELL"])
    if c not in cells:
        raise illegal(f"cell {kw['CELL']} is not open: at {alt} you enter at "
                      f"{' '.join(f'{x},{y}' for x, y in cells)} (start cell first, else within two "
                      f"cells of your edge)", "L133, L317")
    return Deploy(ac, alt, (c[0], c[1]), face)


# ---- activation [L287, L291] ------------------------------------------------------------------------


def activate_line(v: dict, decide: dict, words: Sequence[str]) -> Activate | PreDiscard:
    verb = words[0].upper()
    if verb == "ACTIVATE":
        if len(words) != 2 or words[1].lower() not in decide["aircraft"]:
            raise illegal(f"ACTIVATE one of your aircraft still to act: {', '.join(decide['aircraft'])}", "L287")
        return Activate(words[1].lower())
    if verb == "PRE_DISCARD":
        return PreDiscard(tuple(card_id(w) for w in words[1:]))
    raise syntax("before activation: ACTIVATE <aircraft> and PRE_DISCARD <cards>", "L291")


def check_pre_discard(v: dict, decide: dict, read: list[tuple[OrderLine, object]], problems: list) -> None:
    """The cards to discard first must be in the hand of the aircraft activated [L291]."""
    chosen = last([o for _, o in read], Activate)
    pres = [(line, o) for line, o in read if isinstance(o, PreDiscard)]
    if not pres:
        return
    line, pre = pres[-1]
    ac = chosen.ac if chosen else (decide["aircraft"][0] if decide["aircraft"] else None)
    hand = list(v["hands"].get(ac, []))
    for c in pre.cards:
        if c in hand and tables.card(c).kind != "malfunction":
            hand.remove(c)
        else:
            problems.append(illegal(f"{c} is not a card {ac} holds (malfunctions cannot be discarded before "
                                    f"activation); hand: {', '.join(sorted(v['hands'].get(ac, [])))}", "L291")
                            .problem(line.line_no, line.text))


# ---- interrupt answers: a reaction [4.3], a pursuit [L140] ---------------------------------------------


def react_line(v: dict, decide: dict, words: Sequence[str]) -> Play | Pass:
    verb = words[0].upper()
    if verb == "PASS" and len(words) == 1:
        return Pass()
    if verb != "PLAY":
        raise syntax("answer with PLAY <card> ON <n> or PASS", "4.3")
    if len(words) < 4:
        raise syntax("PLAY <card> [FROM DP] ON <table card number>, or PASS", "4.3")
    cid = card_id(words[1])
    kw = keyword_args(words[2:], ("FROM", "ON"))
    src = "dp" if kw.get("FROM", "").upper() == "DP" else "hand"
    if not kw.get("ON", "").isdigit():
        raise syntax("ON takes the number of a card on the table")
    play = Play(cid, int(kw["ON"]), src == "dp")
    opts = decide["options"]
    if {"card": cid, "source": src, "on": play.on} not in opts:
        legal = "; ".join(Play(o["card"], o["on"], o["source"] == "dp").text() for o in opts) or "none: PASS"
        raise illegal(f"{decide['ac']} cannot play {cid} from {src} on card {play.on} now; legal: {legal}",
                      "L158, 4.3")
    return play


def pursue_line(v: dict, decide: dict, words: Sequence[str]) -> Pursue:
    if words[0].upper() != "PURSUE" or len(words) < 2 or words[1].upper() not in ("YES", "NO"):
        raise syntax("PURSUE YES [CELL x,y] [FACE d] or PURSUE NO", "L140")
    kw = keyword_args(words[2:], ("CELL", "FACE"))
    cell = None
    if "CELL" in kw:
        c = cell_arg(kw["CELL"])
        if c not in decide["cells"]:
            raise illegal(f"the pursuer may go to {' '.join(f'{x},{y}' for x, y in decide['cells'])} only", "L140")
        cell = (c[0], c[1])
    return Pursue(words[1].upper() == "YES", cell, face_arg(kw["FACE"]) if "FACE" in kw else None)


STEP_CHECKS: dict[str, Callable] = {"setup": setup_line, "deploy": deploy_line, "activate": activate_line,
                                    "react": react_line, "pursue": pursue_line}
