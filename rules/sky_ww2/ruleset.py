"""The Sky of WWII ruleset object: the contract's methods over the modules of this package."""
from __future__ import annotations

import json
from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked, Option, Outcome, Phase, Resolution, RulesetInfo, Scenario, Seat, Window

from . import bot, forms, orders, picture, tables, views
from .exchange import answer
from .setup import new_game, resolve_deploy, resolve_setup
from .script_verbs import Stay
from .standing import apply_standing
from .state import Game, State
from .step_verbs import Activate, Deploy, Pass, Play, PreDiscard, Pursue, last
from .turn import activate, advance, take_script

OPTIONS = (
    Option("players", 2, "number of players, split equally between the sides (2, 4, 6 [L307]; with 3 or 5, a house "
           "variant, the coalition has the extra player); seats coalition-1, axis-1, ...", (2, 3, 4, 5, 6)),
    Option("aircraft", 3, "aircraft per side (each player controls 1-3; at most 3 a side) [L263-265, L275]",
           (1, 2, 3)),
    Option("selection", "random", "aircraft selection: random number cards, free choice, or limited choice "
           "(draw 2N keep N) [L267-275]", ("random", "free", "limited")),
    Option("events", False, "shuffle the event cards (critical hits, malfunctions, rescues) into the deck after "
           "the initial hands [L192, L323]", (False, True)),
    Option("step_mode", False, "the engine stops after every beat and asks the active player again (10.2)",
           (False, True)),
    Option("max_rounds", 12, "end the game after this many rounds (0: only when a side has no aircraft left); "
           "the rulebook gives no end trigger (gap 8.12)", (0, 4, 6, 8, 10, 12, 15, 20, 30)),
    Option("expose_top_back", True, "everyone sees whether the top card of the deck shows the malfunction back "
           "[L196]", (True, False)),
    Option("distinct_reactions", True, "one party may not play the same card twice against one card [L158]",
           (True, False)),
    Option("carry_excess", True, "damage beyond the intact structure carries over to the damaged side even when "
           "it came from several attacks (gap 8.21) [L107]", (True, False)),
)

INTERRUPTS = ("react", "pursue")


class SkyRuleset:
    """Небо второй мировой: card-driven air combat with hidden hands."""

    info = RulesetInfo(
        name="sky_ww2",
        title="Sky of WWII (Небо второй мировой)",
        sides=tables.SIDES,
        scenarios=tuple(Scenario(k, v["title"], v["doc"]) for k, v in sorted(tables.scenarios().items())),
        options=OPTIONS,
        rulebook="seeds/001_1984a6cf403d662f.txt (Russian rulebook); digest rules/sky_ww2.md",
    )

    # ---- life cycle -------------------------------------------------------------------------
    def setup(self, scenario: str, options: Mapping[str, Any], dice) -> State:
        self.info.scenario(scenario)
        opts = self.info.resolve_options(dict(options))
        g = new_game(scenario, opts, dice)
        return g.freeze()

    def seats(self, state: State) -> tuple[Seat, ...]:
        return tuple(Seat(s["name"], s["side"], s["title"]) for s in state.read()["seats"])

    def phase(self, state: State) -> Phase | None:
        d = state.read()
        p = d["pending"]
        if d["over"] or p is None:
            return None
        kind = p["kind"]
        ac = p.get("ac")
        label = {"setup": "set-up", "deploy": "deployment", "activate": "activation", "script": "turn",
                 "react": "reaction", "pursue": "pursuit"}[kind]
        name = f"{ac}-{label}-{p['n']}" if ac else f"{label}-{p['n']}"
        title = f"round {d['round']}: {ac + ' ' if ac else ''}{label}" if d["round"] else f"set-up: {label}"
        prompts = {
            "setup": "place two ground objects face down and choose your aircraft",
            "deploy": f"deploy {ac} (or another of your aircraft waiting)",
            "activate": "choose the aircraft to activate and what to discard first",
            "script": f"give {ac}'s turn: movement, beats with ON_CANCELLED answers, end discards",
            "react": f"an exchange needs your answer for {ac}: PLAY a card or PASS",
            "pursue": f"an enemy changed altitude: does {ac} pursue?",
        }
        seats = frozenset(p["seats"])
        everyone = frozenset(s["name"] for s in d["seats"])
        return Phase(turn=d["round"], name=name, awaiting=seats, title=title,
                     window=Window.INTERRUPT if kind in INTERRUPTS else Window.ORDERS,
                     optional=everyone - seats, hours=24.0 if kind in INTERRUPTS else None,
                     prompt=prompts[kind])

    def view(self, state: State, seat: str) -> dict:
        return views.view(state, seat)

    def order_form(self, view: Mapping[str, Any], seat: str) -> str:
        return forms.order_form(view, seat)

    def check_orders(self, view: Mapping[str, Any], seat: str, lines: Sequence[OrderLine]) -> Checked:
        parsed, problems = orders.check(dict(view), seat, lines)
        notes = tuple(f"standing order {i.OP} stored" for i in parsed.standing)
        return Checked(parsed, tuple(problems), notes)

    def default_orders(self, state: State, seat: str) -> orders.Orders:
        """Silence means: keep standing orders, take the defaults (stay and end the turn, pass, no pursuit)."""
        p = state.read()["pending"]
        return orders.Orders(p["kind"] if p and seat in p["seats"] else None)

    def resolve(self, state: State, orders_in: Mapping[str, Any], dice) -> Resolution:
        g = state.thaw()
        for seat in sorted(orders_in):
            store_standing(g, seat, orders_in[seat] or orders.Orders(None))
        p = g.doc["pending"]
        if p is not None:
            def cmds(seat: str) -> tuple:
                o = orders_in.get(seat)
                return o.cmds if o and o.kind == p["kind"] else ()
            STEPS[p["kind"]](g, p, cmds, dice)
        advance(g, dice)
        return Resolution(g.freeze(), tuple(g.events))

    def outcome(self, state: State) -> Outcome | None:
        d = state.read()
        if not d["over"]:
            return None
        return Outcome(d["over"]["winner"], d["over"]["text"], dict(d["vp"]))

    def dump(self, state: State) -> dict[str, Any]:
        return {"doc": json.loads(state.doc)}

    def load(self, data: Mapping[str, Any]) -> State:
        return State.of(dict(data["doc"]))

    def picture(self, view: Mapping[str, Any]):
        return picture.draw(view)

    def bot_orders(self, view: Mapping[str, Any], seat: str, dice) -> str:
        return bot.orders(view, seat, dice)


def store_standing(g: Game, seat: str, o: orders.Orders) -> None:
    notes = apply_standing(g.doc, seat, o.standing)
    if o.standing:
        extra = f": {', '.join(notes)}" if notes else ""
        g.say(f"standing orders updated ({len(o.standing)} line(s)){extra}", [seat], kind="standing")


# ---- the answers of each step, applied before the game runs on ---------------------------------------


def setup_step(g: Game, p: dict, cmds, dice) -> None:
    g.doc["pending"] = None
    resolve_setup(g, {s: cmds(s) for s in p["seats"]}, dice)


def deploy_step(g: Game, p: dict, cmds, dice) -> None:
    resolve_deploy(g, last(cmds(p["seats"][0]), Deploy), dice)


def activate_step(g: Game, p: dict, cmds, dice) -> None:
    """The aircraft chosen, or the one the sequence gave when the choice no longer fits [L287, L291]."""
    c = cmds(p["seats"][0])
    chosen, pre = last(c, Activate), last(c, PreDiscard)
    g.doc["pending"] = None
    a = g.ac(chosen.ac if chosen else p["ac"])
    if a["done"] or a["destroyed"] or a["seat"] != p["seats"][0] or a["side"] != p["side"]:
        a = g.ac(p["ac"])
    activate(g, a, dice, pre.cards if pre else [])


def script_step(g: Game, p: dict, cmds, dice) -> None:
    g.doc["pending"] = None
    items = list(cmds(p["seats"][0]))
    t = g.doc["turn"]
    if not items and not t["moved"] and t["step"] == 0:
        items = [Stay()]
    take_script(g, items)


def react_step(g: Game, p: dict, cmds, dice) -> None:
    play = last(cmds(p["seats"][0]), Play, Pass)
    g.doc["pending"] = None
    ex = g.doc["turn"]["exchange"]
    if isinstance(play, Play):
        answer(g, ex, p["party"], {"card": play.card, "source": play.source, "on": play.on})
    else:
        ex["closed"] = True
        g.say(f"{p['ac']} passes", kind="reaction")


def pursue_step(g: Game, p: dict, cmds, dice) -> None:
    o = last(cmds(p["seats"][0]), Pursue) or Pursue(False)
    g.doc["pending"] = None
    g.doc["turn"]["pursuit"]["answer"] = {"go": o.go, "cell": list(o.cell) if o.cell else None, "face": o.face}


STEPS = {"setup": setup_step, "deploy": deploy_step, "activate": activate_step, "script": script_step,
         "react": react_step, "pursue": pursue_step}
