"""The blank order form for a seat's next step, built from its view [10.3]."""
from __future__ import annotations

from pbem.core.texts import join, t_

from .rulebook import cite_tags, map_text
from .standing import standing_lines
from .step_verbs import Play
from .terms import word


HELP = t_("""# Standing orders (any order file; REACT lines replace your earlier REACT list):
#   REACT <aircraft|ALL> <card|ANY> [AGAINST ATTACK|MANOEUVRE|ANY|<card>] [MIN_DAMAGE n] [MAX n] [LETHAL]
#     (first fitting rule plays; MAX: at most n of your cards in one exchange; LETHAL: only if the hit would kill)
#   REACT NONE | REACT_DEFAULT ASK|PASS       (ASK: an interrupt asks you when no rule fits)
#   ON_PURSUIT <aircraft|ALL> YES|NO|FREE|ASK  (FREE: only when no extra card is due)
#   DISCARD_PRIORITY <cards...> | RESCUE YES|NO | ACTIVATION AUTO|ASK | DP_USE FIRST|LAST|NEVER
#   AA_FIRE YES|NO | SEQUENCE <your side's aircraft in activation order>""")


def order_form(v: dict, seat: str) -> str:
    """The form; its rule references name the rulebook's headings, as rejections and events do."""
    return map_text(raw_form(v, seat), cite_tags)


def raw_form(v: dict, seat: str) -> str:
    lines: list[str] = []
    d = v.get("decide")
    if d is None:
        lines.append(t_("# No decision is awaited from you now; you may update standing orders."))
    else:
        lines += decision_form(v, d)
    lines.append("")
    lines.append(HELP)
    lines.append(t_("# Standing orders in force (kept unless you change them):"))
    lines += ["# " + s for s in standing_lines(v)]
    return join("\n", [*lines, ""])


def decision_form(v: dict, d: dict) -> list[str]:
    return FORMS[d["kind"]](v, d)


def setup_form(v: dict, d: dict) -> list[str]:
    sel = v["selection"]
    slots = join(t_(" and "), [f"{o['slot'][0]},{o['slot'][1]}" for o in v["ground"][v["side"]]])
    out = [t_("# Set-up: GROUND <obj> <obj> lays two of CP, DP, AA face down in your slots %(slots)s, "
              "in that order %(ref)s.", slots=slots, ref="[L279]"), "GROUND cp aa"]
    if sel["mode"] != "random":
        verb = "PICK" if sel["mode"] == "free" else "KEEP"
        out.append(t_("# %(verb)s exactly %(n)s of these personal numbers:", verb=verb, n=sel['keep']))
        for r in sel["roster"]:
            icons = join("", [t_(" swap") if r["swap"] else "", t_(" turret") if r["turret"] else ""])
            out.append(t_("#   %(number)s %(model)s (%(cat)s, %(vp)s VP)%(icons)s", number=f"{r['number']:>2}",
                          model=r['model'], cat=r['category'], vp=r['value'], icons=icons))
        out.append(f"{verb} " + " ".join(str(n) for n in sel["candidates"][:sel["keep"]]))
    return out


def deploy_form(v: dict, d: dict) -> list[str]:
    out = [t_("# Deployment: %(usage)s", usage="DEPLOY <aircraft> LOW|MEDIUM|HIGH [CELL x,y] [FACE N|E|S|W]")]
    if d["sealed"]:
        out.append(t_("# Sealed deployment: one DEPLOY line for each of your aircraft, all in this mail. The enemy\n"
                      "# deploys at the same time without seeing yours; the lines are carried out in the rulebook's\n"
                      "# order (the side without the initiative first, alternating). An aircraft without a line, or\n"
                      "# whose cell an earlier one took, enters at the first open cell of its altitude."))
    out.append(t_("# Open cells (start cell first, else within two cells of your edge):"))
    for alt, cells in d["cells"].items():
        out.append(t_("#   %(alt)s: %(cells)s", alt=word(alt), cells=" ".join(f"{x},{y}" for x, y in cells) or t_("full")))
    face = "E" if v["side"] == "coalition" else "W"
    out += [f"DEPLOY {ac} MEDIUM FACE {face}" for ac in (d["aircraft"] if d["sealed"] else d["aircraft"][:1])]
    return out


def plan_help(enemy: str) -> list[str]:
    """How a round plan is written and flown; the examples name one of the seat's enemies."""
    return [t_("""# Round plan: one block per aircraft, flown in the rulebook's order %(ref)s -- sides alternating, the
# initiative side first, each side's aircraft in its SEQUENCE; your enemy sends its plan at the same
# time. Under AIRCRAFT <id>, that aircraft's turn: one movement (STAY if none), then beats, abilities,
# discards, END. The table may change before an aircraft flies (enemy turns, reactions, its own
# activation draw), so a line is judged when it is reached: one that no longer fits is skipped and you
# are told why; a failed THEN falls back to its ELSE.
# Conditions (IF <condition> THEN <line> [ELSE <line>], on a movement or a beat):
#   DOGFIGHT <enemy> | POS <enemy> FRONT,FLANK,REAR | ALT <aircraft> LOW,MEDIUM,HIGH | PREV_OK | PREV_FAILED
# CLOSE <enemy> moves next to that enemy in your field, nose-on to it, where it shows the most of its tail:
# the cell is found when the line is reached, wherever the enemy has gone by then.
#   e.g. IF ALT %(enemy)s MEDIUM THEN CLOSE %(enemy)s ELSE STAY
#        IF DOGFIGHT %(enemy)s THEN ATTACK short-burst TARGET %(enemy)s ELSE MANOEUVRE dive
# AIRCRAFT <id> ASK instead of a block: you are asked for that turn by mail when the aircraft is activated.
# Reactions and pursuits follow your standing orders below (ASK there opens a window when one is due).""",
               enemy=enemy, ref="[L289]")]


def round_form(v: dict, d: dict) -> list[str]:
    enemy = next((a["id"] for a in v["aircraft"] if a["side"] == v["enemy"] and not a["destroyed"]), "<enemy>")
    out = [t_("# Round %(n)s: your round plan.", n=d['round']), *plan_help(enemy)]
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
    return [t_("# Activation %(ref)s: ACTIVATE <aircraft> and optionally PRE_DISCARD <cards>", ref="[L291-293]"),
            f"ACTIVATE {d['aircraft'][0]}"]


def react_form(v: dict, d: dict) -> list[str]:
    ex = v["exchange"]
    out = [t_("# Reaction exchange, beat %(beat)s %(ref)s: %(ac)s plays %(what)s against %(target)s. Cards on the "
              "table:", beat=ex['beat'], ref="[L154]", ac=ex['attacker'], what=ex['what'], target=ex['target'])]
    for n in ex["nodes"]:
        on = t_(" on card %(n)s", n=n['on']) if n["on"] else ""
        state = t_("removed") if n["removed"] else (t_("live") if n["live"] else t_("cancelled"))
        out.append(t_("#   %(n)s. %(card)s by %(ac)s%(on)s (%(state)s)", n=n['n'], card=n['name'], ac=n['ac'], on=on,
                      state=state))
    out.append(t_("# Your hand (%(ac)s): %(hand)s", ac=d['ac'], hand=", ".join(v["hands"].get(d["ac"], []))))
    if d["options"]:
        out.append(t_("# Legal answers (write one line: a PLAY line replaces the PASS below):"))
        for o in d["options"]:
            out.append("#   " + Play(o["card"], o["on"], o["source"] == "dp").text())
    else:
        out.append(t_("# No card you hold can answer now: PASS is your only answer. (This window opens "
                      "whatever you hold, so it tells the enemy nothing.)"))
    out.append("PASS")
    return out


def pursue_form(v: dict, d: dict) -> list[str]:
    due = (1 if d["climb"] else 0) + (1 if d["extra"] else 0)
    cost = join("", [t_("discard 1") if d["climb"] else t_("draw 1"), t_(" + discard 1 extra") if d["extra"] else ""])
    discard = t_(" [DISCARD <up to %(n)s card(s)>]  (unnamed cards go by DISCARD_PRIORITY)", n=due) if due else ""
    return [t_("# %(target)s changed altitude; %(ac)s may pursue %(ref)s. Cost: %(cost)s", target=d['target'],
               ac=d['ac'], ref="[L140]", cost=cost),
            t_("# Cells: %(cells)s", cells=" ".join(f"{x},{y}" for x, y in d["cells"])),
            t_("# Your hand (%(ac)s): %(hand)s", ac=d['ac'], hand=", ".join(v["hands"].get(d["ac"], [])) or t_("empty")),
            t_("# PURSUE YES [CELL x,y] [FACE d]%(discard)s | PURSUE NO", discard=discard),
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
    out = [t_("# Turn of %(ac)s (%(model)s, %(alt)s %(x)s,%(y)s facing %(facing)s); firing %(firing)s, hand limit "
              "%(ttx)s", ac=ac, model=me['model'], alt=word(me['alt']), x=me['cell'][0], y=me['cell'][1],
              facing=me['facing'], firing=me['firing'], ttx=me['ttx']),
           t_("# Hand: %(hand)s", hand=", ".join(v["hands"].get(ac, [])))]
    for r in d["relations"]:
        pos = r["position"] or t_("you are %(aspect)s-on", aspect=r['my_aspect'])
        out.append(t_("# Dogfight with %(id)s: %(position)s; firing available %(n)s (%(pool)s)", id=r['id'],
                      position=pos, n=r['firing'], pool=r['pool']))
    out.append(t_("# What each card could do now:"))
    for cu in d["card_uses"]:
        out.append(t_("#   %(card)s x%(n)s (%(brief)s)", card=cu['card'], n=cu['count'], brief=cu['brief']))
        for u in cu["uses"]:
            out.append(t_("#       %(use)s", use=u))
    if d["first_step"]:
        out.append(t_("# Movement (one): %(usage)s", usage="STAY | MOVE x,y FACE d | CLOSE <enemy> | ROTATE d | "
                      "CLIMB [DISCARD card] [CELL x,y] [FACE d] | DESCEND [CELL x,y] [FACE d]"))
        for alt, cells in d["entry"].items():
            out.append(t_("#   entering %(alt)s: %(cells)s", alt=word(alt),
                          cells=" ".join(f"{x},{y}" for x, y in cells) or t_("full")))
    out.append(t_("# Beats: %(usage)s", usage="[IF PREV_OK|PREV_FAILED|POS <enemy> FRONT,FLANK,REAR THEN] "
                  "MANOEUVRE <card> TARGET <enemy> [APPLY SELF|TARGET] [ROTATE CW|CCW] | "
                  "ATTACK <card> TARGET <enemy> [CRIT <card>] [EXTRA <card>] | GROUND_ATTACK"))
    out.append(t_("#   each followed by ON_CANCELLED <cards...> [ASK] to answer enemy reactions;"))
    out.append(t_("#   write MANOEUVRE|ATTACK <card> FROM DP ... to play the card on your dispatch post %(ref)s",
                  ref="[L148]"))
    out.append(t_("# Also: %(usage)s", usage="SWAP <card> | CP_USE [DISCARD card] | DP_DEPOSIT <card> | END_DISCARD <cards> | END"))
    out.append(t_("#   NEXT_DISCARD <cards>: discard these before your next activation draw %(ref)s", ref="[L291]"))
    if d["first_step"]:
        out.append("STAY")
    out.append("END")
    return out


FORMS = {"round": round_form, "setup": setup_form, "deploy": deploy_form, "activate": activate_form, "script": script_form,
         "react": react_form, "pursue": pursue_form}
