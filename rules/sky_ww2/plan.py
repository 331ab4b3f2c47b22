"""The round cadence: one mail per player per round [4.1-4.3, 10.2].

With the option ``cadence=round`` (the default) a game asks every player once per round, all
at the same time, for a *round plan*: under an ``AIRCRAFT <id>`` line, the turn script of each of
its aircraft (movement, beats with ``IF ... THEN ... ELSE`` conditions on what the table shows
when the line is reached, ON_CANCELLED answers, discards).  The engine then flies the round in the
rulebook's order -- sides alternating, each side's aircraft in its SEQUENCE -- taking each
aircraft's block as its turn script when it is activated; reactions and pursuits go by standing
orders.  A window opens during the round only where the player asked for one: ``AIRCRAFT <id>
ASK`` (that aircraft's turn is asked for when it is activated), ``ACTIVATION ASK``,
``REACT_DEFAULT ASK``, ``ON_PURSUIT ... ASK`` or ``ON_CANCELLED ... ASK``.  Whether such a window
opens depends only on the asker's own orders, never on a hand, so it tells the enemy nothing.

Deployment is sealed the same way: every player deploys all its aircraft in one mail, unseen by
the enemy (:func:`.setup.resolve_sealed`).  ``cadence=turn`` keeps the cadence of the games started
before: a window per aircraft turn, per deployment and per decision no standing order settles.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pbem.core.scripts import If

from .asks import ask
from .script_verbs import MOVES, End, ScriptOrder, Stay, parse_script_line
from .state import Game
from .words import illegal, syntax
from pbem.core.texts import t_


def per_round(g: Game | dict) -> bool:
    """Whether the game runs one mail per round (``step_mode`` asks every turn, whatever the cadence)."""
    opts = g.doc["options"] if isinstance(g, Game) else g
    return opts.get("cadence", "turn") == "round" and not opts["step_mode"]


@dataclass(frozen=True)
class PlanFor:
    """``AIRCRAFT <id> [ASK]``: the lines below, up to the next AIRCRAFT line, are this aircraft's turn;
    ASK: no block, its turn is asked for by mail when it is activated."""

    VERB: ClassVar[str] = "AIRCRAFT"
    ac: str
    ask: bool = False

    def text(self) -> str:
        return f"AIRCRAFT {self.ac}" + (" ASK" if self.ask else "")


def plan_line(v: dict, words: Sequence[str]) -> PlanFor:
    decide = v["decide"]
    if len(words) not in (2, 3) or (len(words) == 3 and words[2].upper() != "ASK"):
        raise syntax("AIRCRAFT <aircraft> [ASK]", "L289")
    ac = words[1].lower()
    if ac not in decide["aircraft"]:
        raise illegal(t_("%(ac)s is not one of your aircraft in the battle (%(them)s)", ac=ac,
                         them=", ".join(decide['aircraft'])), "L289")
    return PlanFor(ac, len(words) == 3)


def blocks(items: Sequence[object], own: Sequence[str]) -> dict[str, dict]:
    """The answers of a seat grouped by aircraft: ``{ac: {"ask": bool, "lines": [...]}}``.  Script
    lines above the first AIRCRAFT line belong to the seat's only aircraft (the check refuses them
    when it has several)."""
    out: dict[str, dict] = {}
    current = own[0] if len(own) == 1 else None
    for o in items:
        if isinstance(o, PlanFor):
            current = o.ac
            out[o.ac] = {"ask": o.ask, "lines": []}
        elif current is not None:
            out.setdefault(current, {"ask": False, "lines": []})["lines"].append(o.text())
    return out


def ask_round(g: Game) -> bool:
    """Open the round's plan window (once a round) for every seat with an aircraft still to fly;
    False when the round's plans are in."""
    if (g.doc.get("plans") or {}).get("round") == g.doc["round"]:
        return False
    seats = sorted({a["seat"] for a in g.on_board() if not a["done"]})
    if not seats:
        return False
    ask(g, "round", seats, round=g.doc["round"])
    return True


def take_plans(g: Game, answers: dict[str, list]) -> None:
    """Keep every seat's blocks (secret until flown); an aircraft with none stays and does nothing."""
    kept: dict[str, dict] = {}
    for seat, items in answers.items():
        own = [a["id"] for a in g.on_board() if a["seat"] == seat and not a["done"]]
        for ac, block in blocks(items, own).items():
            if ac in own:
                kept[ac] = block
    g.doc["plans"] = {"round": g.doc["round"], "blocks": kept}
    g.say(t_("every round plan is in: round %(n)s is flown", n=g.doc['round']), kind="round")


def planned_script(g: Game, a: dict) -> list[ScriptOrder] | None:
    """The activated aircraft's turn script from its round plan, or None when its turn is asked for
    by mail (the turn cadence, step mode, or ``AIRCRAFT <id> ASK``)."""
    if not per_round(g):
        return None
    block = (g.doc.get("plans") or {}).get("blocks", {}).get(a["id"])
    if block is None:
        g.say(t_("%(id)s has no block in your round plan: it stays and does nothing this turn", id=a['id']), [a["seat"]],
                   kind="round")
        return [Stay(), End()]
    if block["ask"]:
        return None
    items = [parse_script_line(x) for x in block["lines"]]
    if not any(isinstance(o.then if isinstance(o, If) else o, MOVES) for o in items):
        items.insert(0, Stay())  # a turn opens with its movement [L295]
    return items
