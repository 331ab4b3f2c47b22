"""Order lines: parsing and checking against the seat's view only [10.3].

Every seat may send standing orders (policies) in any order file; the awaited seat
also sends the commands of the current step: set-up choices, a deployment, an
activation, the turn script, a reaction, or a pursuit answer.
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.errors import Code, OrderError, OrderProblem
from pbem.core.orders import OrderLine

from . import tables
from .script import check_script
from .words import card_id, cell_arg, face_arg, illegal, keyword_args, syntax

STANDING = ("REACT", "REACT_DEFAULT", "ON_PURSUIT", "DISCARD_PRIORITY", "RESCUE", "ACTIVATION", "DP_USE",
            "AA_FIRE", "SEQUENCE")
BEAT_VERBS = ("MANOEUVRE", "ATTACK", "GROUND_ATTACK")
MOVE_VERBS = ("STAY", "MOVE", "ROTATE", "CLIMB", "DESCEND")
SCRIPT_VERBS = MOVE_VERBS + BEAT_VERBS + ("ON_CANCELLED", "SWAP", "CP_USE", "DP_DEPOSIT", "END_DISCARD", "END", "IF")


# ---- standing orders ------------------------------------------------------------------------


def parse_standing(v: dict, words: Sequence[str]) -> dict:
    verb = words[0].upper()
    args = list(words[1:])
    own = set(v["my_aircraft"])
    side_ac = {a["id"] for a in v["aircraft"] if a["side"] == v["side"]}

    def ac_or_all(w: str) -> str:
        if w.upper() == "ALL":
            return "*"
        if w.lower() not in own:
            raise illegal(f"{w!r} is not one of your aircraft ({', '.join(sorted(own)) or 'none'}) or ALL", "2.3")
        return w.lower()

    def one_of(w: str, choices: Sequence[str]) -> str:
        if w.upper() not in choices:
            raise syntax(f"{verb} takes one of {', '.join(choices)}, not {w!r}")
        return w.lower()

    if verb == "REACT":
        if len(args) == 1 and args[0].upper() == "NONE":
            return {"op": "react_clear"}
        if len(args) < 2:
            raise syntax("REACT <aircraft|ALL> <card|ANY> [AGAINST ATTACK|MANOEUVRE|ANY|<card>] [MIN_DAMAGE n] "
                         "[MAX n] [LETHAL]",
                         "4.3")
        ac = ac_or_all(args[0])
        card = "*" if args[1].upper() == "ANY" else card_id(args[1])
        if card != "*" and not tables.card(card).reacts:
            raise illegal(f"{tables.card(card).name} is not a reaction or counter-move", "L158")
        rest = [w for w in args[2:] if w.upper() != "LETHAL"]
        lethal = len(rest) != len(args[2:])
        kw = keyword_args(rest, ("AGAINST", "MIN_DAMAGE", "MAX"))
        against = kw.get("AGAINST", "ANY")
        against = against.lower() if against.upper() in ("ATTACK", "MANOEUVRE", "ANY") else card_id(against)
        md = kw.get("MIN_DAMAGE", "0")
        mx = kw.get("MAX", "0")
        if not md.isdigit() or not mx.isdigit():
            raise syntax("MIN_DAMAGE and MAX take whole numbers")
        return {"op": "react", "rule": {"ac": ac, "card": card, "against": against, "min_damage": int(md),
                                        "max": int(mx), "lethal": lethal}}
    if len(args) < 1:
        raise syntax(f"{verb} needs a value")
    if verb == "REACT_DEFAULT":
        return {"op": "react_default", "value": one_of(args[0], ("ASK", "PASS"))}
    if verb == "ON_PURSUIT":
        if len(args) != 2:
            raise syntax("ON_PURSUIT <aircraft|ALL> YES|NO|FREE|ASK", "L140")
        return {"op": "pursue", "ac": ac_or_all(args[0]), "value": one_of(args[1], ("YES", "NO", "FREE", "ASK"))}
    if verb == "DISCARD_PRIORITY":
        cards = [] if args[0].upper() == "NONE" else [card_id(w) for w in args]
        return {"op": "discard_priority", "value": cards}
    if verb == "RESCUE":
        return {"op": "rescue", "value": one_of(args[0], ("YES", "NO"))}
    if verb == "ACTIVATION":
        return {"op": "activation", "value": one_of(args[0], ("AUTO", "ASK"))}
    if verb == "DP_USE":
        return {"op": "dp_use", "value": one_of(args[0], ("FIRST", "LAST", "NEVER"))}
    if verb == "AA_FIRE":
        return {"op": "aa", "value": "fire" if one_of(args[0], ("YES", "NO")) == "yes" else "hold"}
    if verb == "SEQUENCE":
        seq = [w.lower() for w in args]
        bad = [w for w in seq if w not in side_ac]
        if bad or len(set(seq)) != len(seq):
            raise illegal(f"SEQUENCE lists your side's aircraft once each ({', '.join(sorted(side_ac))}); "
                      f"not {', '.join(bad) or 'a repeat'}", "L325")
        return {"op": "sequence", "value": seq}
    raise syntax(f"unknown standing order {verb}")


def apply_standing(doc: dict, seat: str, items: list[dict]) -> list[str]:
    """Store standing orders; REACT lines of one file replace the earlier list."""
    pol = doc["policies"][seat]
    side = next(s["side"] for s in doc["seats"] if s["name"] == seat)
    notes = []
    if any(i["op"] in ("react", "react_clear") for i in items):
        pol["react"] = []
        notes.append("REACT rules replaced")
    for i in items:
        op = i["op"]
        if op == "react":
            pol["react"].append(i["rule"])
        elif op == "react_default":
            pol["react_default"] = i["value"]
        elif op == "pursue":
            pol["pursue"][i["ac"]] = i["value"]
        elif op in ("discard_priority", "rescue", "activation", "dp_use"):
            pol[op] = i["value"]
        elif op == "aa":
            doc["side_policies"][side]["aa"] = i["value"]
        elif op == "sequence":
            doc["side_policies"][side]["sequence"] = i["value"]
    return notes


# ---- commands of the current step -------------------------------------------------------------


def check(v: dict, seat: str, lines: Sequence[OrderLine]) -> tuple[dict, list[OrderProblem]]:
    """Parse and check all lines; return the orders and every problem."""
    problems: list[OrderProblem] = []
    standing: list[dict] = []
    cmds: list[tuple[OrderLine, list[str]]] = []
    for line in lines:
        words = list(line.words)
        if not words:
            continue
        if words[0].upper() in STANDING:
            try:
                standing.append(parse_standing(v, words))
            except OrderError as b:
                report(problems, line, b)
        else:
            cmds.append((line, words))
    decide = v.get("decide")
    kind = decide["kind"] if decide else None
    parsed: list = []
    if cmds and kind is None:
        for line, _ in cmds:
            problems.append(OrderProblem(line.line_no, line.text, Code.ORDER_ILLEGAL,
                                         "no decision is awaited from you now: only standing orders "
                                         f"({', '.join(STANDING)}) are accepted", "10.2"))
    elif kind:
        checker = {"setup": check_setup, "deploy": check_deploy, "activate": check_activate,
                   "script": check_script, "react": check_react, "pursue": check_pursue}[kind]
        parsed = checker(v, decide, cmds, problems)
    problems.sort(key=lambda p: p.line_no)
    return {"standing": standing, "cmds": parsed, "kind": kind}, problems


def report(problems: list, line: OrderLine, b: OrderError) -> None:
    problems.append(b.problem(line.line_no, line.text))


def check_setup(v, decide, cmds, problems) -> dict:
    out: dict = {}
    sel = v["selection"]
    for line, words in cmds:
        verb = words[0].upper()
        try:
            if verb == "GROUND":
                objs = [w.lower() for w in words[1:]]
                if len(objs) != 2 or len(set(objs)) != 2 or any(o not in ("cp", "dp", "aa") for o in objs):
                    raise illegal("GROUND names two different objects of CP, DP, AA for your two slots, "
                              "in the order of your slots (left to right on the board)", "L279")
                out["ground"] = objs
            elif verb in ("PICK", "KEEP"):
                want = "PICK" if sel["mode"] == "free" else "KEEP" if sel["mode"] == "limited" else None
                if want is None:
                    raise illegal("random selection: the number cards already chose your aircraft", "L271")
                if verb != want:
                    raise illegal(f"{sel['mode']} selection uses {want}", "L273, L275")
                if not all(w.isdigit() for w in words[1:]):
                    raise syntax(f"{verb} takes personal numbers")
                nums = [int(w) for w in words[1:]]
                bad = [n for n in nums if n not in sel["candidates"]]
                if bad:
                    raise illegal(f"number(s) {', '.join(map(str, bad))} not available; choose from "
                              f"{', '.join(map(str, sel['candidates']))}", "L271-275")
                if len(nums) != sel["keep"] or len(set(nums)) != len(nums):
                    raise illegal(f"choose exactly {sel['keep']} different aircraft", "L269, L275")
                out["pick"] = nums
            else:
                raise syntax(f"set-up orders are GROUND and {'PICK' if sel['mode'] == 'free' else 'KEEP'}, "
                             f"not {verb}")
        except OrderError as b:
            report(problems, line, b)
    return out


def check_deploy(v, decide, cmds, problems) -> dict:
    out: dict = {}
    for line, words in cmds:
        try:
            if words[0].upper() != "DEPLOY" or len(words) < 3:
                raise syntax("DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE N|E|S|W]", "L317")
            ac = words[1].lower()
            if ac not in decide["aircraft"]:
                raise illegal(f"{ac} is not one of your aircraft waiting to deploy ({', '.join(decide['aircraft'])})",
                          "L317")
            alt = words[2].lower()
            if alt not in tables.ALTITUDES:
                raise syntax("altitude is LOW, MEDIUM or HIGH", "2.1")
            kw = keyword_args(words[3:], ("CELL", "FACE"))
            cells = decide["cells"][alt]
            order = {"ac": ac, "alt": alt, "face": face_arg(kw["FACE"]) if "FACE" in kw else None, "cell": None}
            if not cells:
                raise illegal(f"no free cell at {alt} within two cells of your edge", "L317")
            if "CELL" in kw:
                c = cell_arg(kw["CELL"])
                if c not in cells:
                    raise illegal(f"cell {kw['CELL']} is not open: at {alt} you enter at "
                              f"{' '.join(f'{x},{y}' for x, y in cells)} (start cell first, else within two "
                              f"cells of your edge)", "L133, L317")
                order["cell"] = c
            out = order
        except OrderError as b:
            report(problems, line, b)
    return out


def check_activate(v, decide, cmds, problems) -> dict:
    out: dict = {"ac": None, "discard": []}
    for line, words in cmds:
        try:
            verb = words[0].upper()
            if verb == "ACTIVATE":
                if len(words) != 2 or words[1].lower() not in decide["aircraft"]:
                    raise illegal(f"ACTIVATE one of your aircraft still to act: {', '.join(decide['aircraft'])}", "L287")
                out["ac"] = words[1].lower()
            elif verb == "PRE_DISCARD":
                out["discard"] = [card_id(w) for w in words[1:]]
                out["line"] = line
            else:
                raise syntax("before activation: ACTIVATE <aircraft> and PRE_DISCARD <cards>", "L291")
        except OrderError as b:
            report(problems, line, b)
    ac = out["ac"] or (decide["aircraft"][0] if decide["aircraft"] else None)
    hand = list(v["hands"].get(ac, []))
    line = out.pop("line", None)
    for c in out["discard"]:
        if c in hand and tables.card(c).kind != "malfunction":
            hand.remove(c)
        else:
            report(problems, line, illegal(f"{c} is not a card {ac} holds (malfunctions cannot be discarded "
                                         f"before activation); hand: {', '.join(sorted(v['hands'].get(ac, [])))}",
                                         "L291"))
    return out


def check_react(v, decide, cmds, problems) -> dict:
    out: dict = {"play": None}
    opts = decide["options"]
    for line, words in cmds:
        try:
            verb = words[0].upper()
            if verb == "PASS" and len(words) == 1:
                out = {"play": None}
            elif verb == "PLAY":
                if len(words) < 4:
                    raise syntax("PLAY <card> [FROM DP] ON <table card number>, or PASS", "4.3")
                cid = card_id(words[1])
                kw = keyword_args(words[2:], ("FROM", "ON"))
                src = "dp" if kw.get("FROM", "").upper() == "DP" else "hand"
                if not kw.get("ON", "").isdigit():
                    raise syntax("ON takes the number of a card on the table")
                on = int(kw["ON"])
                match = [o for o in opts if o == {"card": cid, "source": src, "on": on}]
                if not match:
                    legal = "; ".join(f"PLAY {o['card']}{' FROM DP' if o['source'] == 'dp' else ''} ON {o['on']}"
                                      for o in opts) or "none: PASS"
                    raise illegal(f"{decide['ac']} cannot play {cid} from {src} on card {on} now; legal: {legal}",
                              "L158, 4.3")
                out = {"play": match[0]}
            else:
                raise syntax("answer with PLAY <card> ON <n> or PASS", "4.3")
        except OrderError as b:
            report(problems, line, b)
    return out


def check_pursue(v, decide, cmds, problems) -> dict:
    out: dict = {"go": False, "cell": None, "face": None}
    for line, words in cmds:
        try:
            if words[0].upper() != "PURSUE" or len(words) < 2 or words[1].upper() not in ("YES", "NO"):
                raise syntax("PURSUE YES [CELL x,y] [FACE d] or PURSUE NO", "L140")
            kw = keyword_args(words[2:], ("CELL", "FACE"))
            out = {"go": words[1].upper() == "YES", "cell": None, "face": None}
            if "CELL" in kw:
                c = cell_arg(kw["CELL"])
                if c not in decide["cells"]:
                    raise illegal(f"the pursuer may go to {' '.join(f'{x},{y}' for x, y in decide['cells'])} only", "L140")
                out["cell"] = c
            if "FACE" in kw:
                out["face"] = face_arg(kw["FACE"])
        except OrderError as b:
            report(problems, line, b)
    return out
