"""Reading a position written before the game sat on the kit (stored games, kept examples).

Such a document keeps its decision in ``pending`` with a ``counter``, the turn script
(and the beat on the table) as dicts, and the standing orders in its own ``policies`` and
``side_policies``.  :func:`upgrade` turns it into today's form: the kit's Flow under "flow"
(its standing-order store included), the script as canonical lines with its cursor moved
to match.  A game stored before the option ``cadence`` existed keeps the cadence it was started
with, a window per aircraft turn and per decision (``cadence=turn``).
"""
from __future__ import annotations

from dataclasses import replace

from pbem.core.flow import OVER, Flow
from pbem.core.interrupts import Pending
from pbem.core.scripts import Condition, If

from .asks import asks_for
from .standing import RULES, read_back, standing_lines
from .script_verbs import (Attack, Climb, CpUse, Descend, DpDeposit, End, EndDiscard, GroundAttack, Manoeuvre,
                           MoveTo, NextDiscard, OnCancelled, Rotate, Stay, Swap, parse_script_line)


def upgrade(doc: dict) -> dict:
    """``doc`` in today's form (unchanged when it already is)."""
    if "flow" not in doc:
        doc = upgrade_flow(doc)
    if "policies" in doc:
        doc = upgrade_policies(doc)
    if "cadence" not in doc["options"]:
        # started before the round cadence: it keeps the window per turn and per decision it began with
        doc = dict(doc, options={**doc["options"], "cadence": "turn"})
    return doc


def upgrade_flow(doc: dict) -> dict:
    doc = dict(doc)
    p, counter = doc.pop("pending", None), doc.pop("counter", 0)
    if doc["over"] or p is None:
        flow = Flow(OVER, doc["round"], counter)
    else:
        data = {k: v for k, v in p.items() if k not in ("kind", "seats", "n")}
        flow = Flow(p["kind"], doc["round"], p["n"], Pending(p["kind"], asks_for(p["kind"], p["seats"], data), data))
    doc["flow"] = flow.dump()
    if doc.get("turn") and doc["turn"]["script"] and isinstance(doc["turn"]["script"][0], dict):
        doc["turn"] = upgrade_turn(doc["turn"])
    return doc


def upgrade_policies(doc: dict) -> dict:
    """The game's own policy dicts become the kit's store: every line they listed, as if sent."""
    doc = dict(doc)
    mine, shared = doc.pop("policies"), doc.pop("side_policies")
    flow = Flow.load(doc["flow"])
    store = flow.standing
    for seat in doc["seats"]:
        name, side = seat["name"], seat["side"]
        lines = standing_lines({"policies": mine[name], "side_policies": shared[side]})
        store = RULES.apply(store, name, side, [read_back(t) for t in lines])[0]
    doc["flow"] = replace(flow, standing=store).dump()
    return doc


def upgrade_turn(t: dict) -> dict:
    lines, pc = [], 0
    for i, item in enumerate(t["script"]):
        if i == t["pc"]:
            pc = len(lines)
        lines += item_lines(item)
    t = dict(t, script=lines, pc=pc if t["pc"] < len(t["script"]) else len(lines))
    if t["exchange"] and isinstance(t["exchange"]["beat"], dict):
        t["exchange"] = dict(t["exchange"], beat=beat_of(t["exchange"]["beat"]).text())
    return t


def item_lines(item: dict) -> list[str]:
    """An old script item as today's lines: the order, under its IF, then its ON_CANCELLED."""
    op = item["op"]
    if op not in ("attack", "manoeuvre"):
        return [OTHERS[op](item).text()]
    beat = beat_of(item)
    cond = item.get("cond")
    if cond:
        beat = If(Condition("PREV_OK" if cond.get("value") == "ok" else "PREV_FAILED")
                  if cond["kind"] == "prev" else
                  Condition("POS", (cond["target"], ",".join(v.upper() for v in cond["value"]))), beat)
    out = [beat.text()]
    if item.get("counter") or item.get("counter_ask"):
        out.append(OnCancelled(tuple(item.get("counter", ())), True if item.get("counter_ask") else None).text())
    return out


def beat_of(item: dict) -> Attack | Manoeuvre:
    dp = item.get("source") == "dp"
    cell = tuple(item["cell"]) if item.get("cell") else None
    if item["op"] == "attack":
        return Attack(item["card"], item["target"], item.get("crit"), item.get("extra"), dp)
    made = Manoeuvre(item["card"], item.get("target"), item.get("apply", "self"), item.get("rotate", "cw"), cell,
                     item.get("face"), dp)
    return parse_script_line(made.text())  # normalised as today's reading does


def _cell(item: dict):
    return tuple(item["cell"]) if item.get("cell") else None


MOVES = {"stay": lambda i: Stay(), "move": lambda i: MoveTo(_cell(i), i["face"]), "rotate": lambda i: Rotate(i["face"]),
         "climb": lambda i: Climb(_cell(i), i.get("face"), i.get("discard")),
         "descend": lambda i: Descend(_cell(i), i.get("face"))}
OTHERS = {"move": lambda i: MOVES[i["kind"]](i), "ground": lambda i: GroundAttack(), "swap": lambda i: Swap(i["card"]),
          "cp": lambda i: CpUse(i.get("discard")), "dp": lambda i: DpDeposit(i["card"]),
          "end_discard": lambda i: EndDiscard(tuple(i["cards"])),
          "next_discard": lambda i: NextDiscard(tuple(i["cards"])), "end": lambda i: End()}
