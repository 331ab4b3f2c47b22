"""The blank order form for a seat's next step, built from its view [10.3]."""
from __future__ import annotations

from .rulebook import cite_tags
from .standing import standing_lines
from .step_verbs import Play


HELP = """# Standing orders (any order file; REACT lines replace your earlier REACT list):
#   REACT <aircraft|ALL> <card|ANY> [AGAINST ATTACK|MANOEUVRE|ANY|<card>] [MIN_DAMAGE n] [MAX n] [LETHAL]
#     (first fitting rule plays; MAX: at most n of your cards in one exchange; LETHAL: only if the hit would kill)
#   REACT NONE | REACT_DEFAULT ASK|PASS       (ASK: an interrupt asks you when no rule fits)
#   ON_PURSUIT <aircraft|ALL> YES|NO|FREE|ASK  (FREE: only when no extra card is due)
#   DISCARD_PRIORITY <cards...> | RESCUE YES|NO | ACTIVATION AUTO|ASK | DP_USE FIRST|LAST|NEVER
#   AA_FIRE YES|NO | SEQUENCE <your side's aircraft in activation order>"""


def order_form(v: dict, seat: str) -> str:
    """The form; its rule references name the rulebook's headings, as rejections and events do."""
    return cite_tags(raw_form(v, seat))


def raw_form(v: dict, seat: str) -> str:
    lines: list[str] = []
    d = v.get("decide")
    if d is None:
        lines.append("# No decision is awaited from you now; you may update standing orders.")
    else:
        lines += decision_form(v, d)
    lines.append("")
    lines.append(HELP)
    lines.append("# Standing orders in force (kept unless you change them):")
    lines += ["# " + s for s in standing_lines(v)]
    return "\n".join(lines) + "\n"


def decision_form(v: dict, d: dict) -> list[str]:
    return FORMS[d["kind"]](v, d)


def setup_form(v: dict, d: dict) -> list[str]:
    sel = v["selection"]
    slots = " and ".join(f"{o['slot'][0]},{o['slot'][1]}" for o in v["ground"][v["side"]])
    out = [f"# Set-up: GROUND <obj> <obj> lays two of CP, DP, AA face down in your slots {slots}, "
           "in that order [L279].", "GROUND cp aa"]
    if sel["mode"] != "random":
        verb = "PICK" if sel["mode"] == "free" else "KEEP"
        out.append(f"# {verb} exactly {sel['keep']} of these personal numbers:")
        for r in sel["roster"]:
            icons = (" swap" if r["swap"] else "") + (" turret" if r["turret"] else "")
            out.append(f"#   {r['number']:>2} {r['model']} ({r['category']}, {r['value']} VP){icons}")
        out.append(f"{verb} " + " ".join(str(n) for n in sel["candidates"][:sel["keep"]]))
    return out


def deploy_form(v: dict, d: dict) -> list[str]:
    out = ["# Deployment: DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE N|E|S|W]"]
    if d["sealed"]:
        out += ["# Sealed deployment: one DEPLOY line for each of your aircraft, all in this mail. The enemy",
                "# deploys at the same time without seeing yours; the lines are carried out in the rulebook's",
                "# order (the side without the initiative first, alternating). An aircraft without a line, or",
                "# whose cell an earlier one took, enters at the first open cell of its altitude."]
    out.append("# Open cells (start cell first, else within two cells of your edge):")
    for alt, cells in d["cells"].items():
        out.append(f"#   {alt}: " + (" ".join(f"{x},{y}" for x, y in cells) or "full"))
    face = "E" if v["side"] == "coalition" else "W"
    out += [f"DEPLOY {ac} MEDIUM FACE {face}" for ac in (d["aircraft"] if d["sealed"] else d["aircraft"][:1])]
    return out


def plan_help(enemy: str) -> list[str]:
    """How a round plan is written and flown; the examples name one of the seat's enemies."""
    return f"""# Round plan: one block per aircraft, flown in the rulebook's order [L289] -- sides alternating, the
# initiative side first, each side's aircraft in its SEQUENCE; your enemy sends its plan at the same
# time. Under AIRCRAFT <id>, that aircraft's turn: one movement (STAY if none), then beats, abilities,
# discards, END. The table may change before an aircraft flies (enemy turns, reactions, its own
# activation draw), so a line is judged when it is reached: one that no longer fits is skipped and you
# are told why; a failed THEN falls back to its ELSE.
# Conditions (IF <condition> THEN <line> [ELSE <line>], on a movement or a beat):
#   DOGFIGHT <enemy> | POS <enemy> FRONT,FLANK,REAR | ALT <aircraft> LOW,MEDIUM,HIGH | PREV_OK | PREV_FAILED
# CLOSE <enemy> moves next to that enemy in your field, nose-on to it, where it shows the most of its tail:
# the cell is found when the line is reached, wherever the enemy has gone by then.
#   e.g. IF ALT {enemy} MEDIUM THEN CLOSE {enemy} ELSE STAY
#        IF DOGFIGHT {enemy} THEN ATTACK short-burst TARGET {enemy} ELSE MANOEUVRE dive
# AIRCRAFT <id> ASK instead of a block: you are asked for that turn by mail when the aircraft is activated.
# Reactions and pursuits follow your standing orders below (ASK there opens a window when one is due).""".splitlines()


def round_form(v: dict, d: dict) -> list[str]:
    enemy = next((a["id"] for a in v["aircraft"] if a["side"] == v["enemy"] and not a["destroyed"]), "<enemy>")
    out = [f"# Round {d['round']}: your round plan."] + plan_help(enemy)
    for i, ac in enumerate(d["aircraft"]):
        situation, verbs = aircraft_brief(v, dict(d["facts"][ac], ac=ac))
        if i == 0:
            out += verbs
        out.append("")
        out += situation
        out.append(f"AIRCRAFT {ac}")
        out += ["STAY", "END"]
    return out


def activate_form(v: dict, d: dict) -> list[str]:
    return ["# Activation [L291-293]: ACTIVATE <aircraft> and optionally PRE_DISCARD <cards>",
            f"ACTIVATE {d['aircraft'][0]}"]


def react_form(v: dict, d: dict) -> list[str]:
    ex = v["exchange"]
    out = [f"# Reaction exchange, beat {ex['beat']} [L154]: {ex['attacker']} plays {ex['what']} "
           f"against {ex['target']}. Cards on the table:"]
    for n in ex["nodes"]:
        on = f" on card {n['on']}" if n["on"] else ""
        state = "removed" if n["removed"] else ("live" if n["live"] else "cancelled")
        out.append(f"#   {n['n']}. {n['name']} by {n['ac']}{on} ({state})")
    out.append(f"# Your hand ({d['ac']}): " + ", ".join(v["hands"].get(d["ac"], [])))
    if d["options"]:
        out.append("# Legal answers (write one line: a PLAY line replaces the PASS below):")
        for o in d["options"]:
            out.append("#   " + Play(o["card"], o["on"], o["source"] == "dp").text())
    else:
        out.append("# No card you hold can answer now: PASS is your only answer. (This window opens "
                   "whatever you hold, so it tells the enemy nothing.)")
    out.append("PASS")
    return out


def pursue_form(v: dict, d: dict) -> list[str]:
    due = (1 if d["climb"] else 0) + (1 if d["extra"] else 0)
    return [f"# {d['target']} changed altitude; {d['ac']} may pursue [L140]. Cost: "
            + ("discard 1" if d["climb"] else "draw 1") + (" + discard 1 extra" if d["extra"] else ""),
            "# Cells: " + " ".join(f"{x},{y}" for x, y in d["cells"]),
            f"# Your hand ({d['ac']}): " + (", ".join(v["hands"].get(d["ac"], [])) or "empty"),
            "# PURSUE YES [CELL x,y] [FACE d]" + (f" [DISCARD <up to {due} card(s)>]  (unnamed cards go by "
                                                  "DISCARD_PRIORITY)" if due else "") + " | PURSUE NO",
            "PURSUE NO"]


def aircraft_brief(v: dict, d: dict) -> tuple[list[str], list[str]]:
    """An aircraft's turn form split in two: its situation (position, hand, dogfights, what each card
    could do now, where it could move) and the verbs of a turn."""
    lines = [line for line in script_form(v, d) if line.startswith("#")]
    cut = next(i for i, line in enumerate(lines) if line.startswith("# Beats:"))
    return lines[:cut], lines[cut:]


def script_form(v: dict, d: dict) -> list[str]:
    ac = d["ac"]
    me = next(a for a in v["aircraft"] if a["id"] == ac)
    out = [f"# Turn of {ac} ({me['model']}, {me['alt']} {me['cell'][0]},{me['cell'][1]} facing {me['facing']}); "
           f"firing {me['firing']}, hand limit {me['ttx']}",
           "# Hand: " + ", ".join(v["hands"].get(ac, [])) or "empty"]
    for r in d["relations"]:
        pos = r["position"] or f"you are {r['my_aspect']}-on"
        out.append(f"# Dogfight with {r['id']}: {pos}; firing available {r['firing']} ({r['pool']})")
    out.append("# What each card could do now:")
    for cu in d["card_uses"]:
        out.append(f"#   {cu['card']} x{cu['count']} ({cu['brief']})")
        for u in cu["uses"]:
            out.append(f"#       {u}")
    if d["first_step"]:
        out.append("# Movement (one): STAY | MOVE x,y FACE d | CLOSE <enemy> | ROTATE d | CLIMB [DISCARD card] [CELL x,y] [FACE d] | "
                   "DESCEND [CELL x,y] [FACE d]")
        for alt, cells in d["entry"].items():
            out.append(f"#   entering {alt}: " + (" ".join(f"{x},{y}" for x, y in cells) or "full"))
    out.append("# Beats: [IF PREV_OK|PREV_FAILED|POS <enemy> FRONT,FLANK,REAR THEN] "
               "MANOEUVRE <card> TARGET <enemy> [APPLY SELF|TARGET] [ROTATE CW|CCW] | "
               "ATTACK <card> TARGET <enemy> [CRIT <card>] [EXTRA <card>] | GROUND_ATTACK")
    out.append("#   each followed by ON_CANCELLED <cards...> [ASK] to answer enemy reactions;")
    out.append("#   write MANOEUVRE|ATTACK <card> FROM DP ... to play the card on your dispatch post [L148]")
    out.append("# Also: SWAP <card> | CP_USE [DISCARD card] | DP_DEPOSIT <card> | END_DISCARD <cards> | END")
    out.append("#   NEXT_DISCARD <cards>: discard these before your next activation draw [L291]")
    if d["first_step"]:
        out.append("STAY")
    out.append("END")
    return out


FORMS = {"round": round_form, "setup": setup_form, "deploy": deploy_form, "activate": activate_form, "script": script_form,
         "react": react_form, "pursue": pursue_form}
