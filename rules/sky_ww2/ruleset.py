"""The Sky of WWII ruleset: its step table on the kit, and the contract assembled from this package.

Every phase is a decision the game stopped for (:func:`.asks.ask`); the step of that
name takes the answers, and the game runs on (:func:`.turn.advance`) to the next
decision or to its end.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.defaults import Assembled
from pbem.core.flow import OVER, Flow, FlowSlot
from pbem.core.phases import ASKED, Step, Steps
from pbem.core.ruleset import Option, Outcome, RulesetInfo, Scenario, Seat, Window
from pbem.core.standing import StandingChange
from pbem.core.work import Work

from . import bot, forms, orders, picture, rulebook, tables, views
from .rulebook import cite_tags
from .campaign import CARRYOVER
from .asks import PROMPTS, pending_of
from .exchange import answer
from .migrate import upgrade
from .plan import take_plans
from .setup import new_game, resolve_deploy, resolve_sealed, resolve_setup
from .script_verbs import MOVES, Stay
from .standing import RULES
from .state import Game, State
from .step_verbs import Activate, Deploy, Pass, Play, PreDiscard, Pursue, last
from .turn import activate, advance, take_script
from pbem.core.texts import t_
from .terms import word
from .damage import over_text

_OPTIONS = (
    Option("players", 2, "number of players, split equally between the sides (2, 4, 6 [L307]; with 3 or 5, a house "
           "variant, the coalition has the extra player); seats coalition-1, axis-1, ...", (2, 3, 4, 5, 6)),
    Option("aircraft", 3, "aircraft per side (each player controls 1-3; at most 3 a side) [L263-265, L275]",
           (1, 2, 3)),
    Option("selection", "random", "aircraft selection: random number cards, free choice, or limited choice "
           "(draw 2N keep N) [L267-275]", ("random", "free", "limited")),
    Option("events", False, "shuffle the event cards (critical hits, malfunctions, rescues) into the deck after "
           "the initial hands [L192, L323]", (False, True)),
    Option("cadence", "round", "round: one mail per player per round (a sealed deployment, then a round plan with a "
           "block per aircraft that the engine flies in the rulebook's order; reactions and pursuits by standing "
           "orders, windows only where you asked for them); turn: a window for every aircraft's turn and every "
           "decision no standing order settles (the cadence of games started before)", ("round", "turn")),
    Option("step_mode", False, "the engine stops after every beat and asks the active player again (a window per "
           "aircraft turn, whatever the cadence)", (False, True)),
    Option("max_rounds", 12, "end the game after this many rounds (0: only when a side has no aircraft left); "
           "the rulebook gives no end trigger", (0, 4, 6, 8, 10, 12, 15, 20, 30)),
    Option("expose_top_back", True, "everyone sees whether the top card of the deck shows the malfunction back "
           "[L196]", (True, False)),
    Option("distinct_reactions", True, "one party may not play the same card twice against one card [L158]",
           (True, False)),
    Option("carry_excess", True, "damage beyond the intact structure carries over to the damaged side even when "
           "it came from several attacks (the rulebook does not say) [L107]", (True, False)),
)

#: The options as players read them: references name the rulebook's headings, never a seed line.
OPTIONS = tuple(Option(o.name, o.default, cite_tags(o.doc), o.choices) for o in _OPTIONS)


INFO = RulesetInfo(
    name="sky_ww2",
    title="Sky of WWII (Небо второй мировой)",
    sides=tables.SIDES,
    scenarios=tuple(Scenario(k, v["title"], v["doc"]) for k, v in sorted(tables.scenarios().items())),
    options=OPTIONS,
    rulebook="seeds/001_1984a6cf403d662f.txt (Russian rulebook); digest rules/sky_ww2.md",
)


class SkySlot(FlowSlot):
    """The kit's Flow in the position's JSON document, under the key "flow".

    Adapter: the kit's own slot reads a dataclass field or a mapping, while the position is
    :class:`.state.State`, a frozen JSON text; ``put`` also takes the working document itself,
    so closing a resolution writes the JSON once.
    """

    def get(self, state: Any) -> Flow:
        return Flow.load(state.read()["flow"])

    def put(self, state: Any, flow: Flow) -> State:
        doc = state if isinstance(state, dict) else state.read()
        return State.of({**doc, "flow": flow.dump()})


SLOT = SkySlot()


def pending(state: State) -> dict:
    p = pending_of(SLOT.get(state))
    assert p is not None, "a phase is always a decision"
    return p


# ---- the answers of each step, applied before the game runs on ---------------------------------------


def decision(w: Work[Game]) -> dict:
    """The decision being answered (the kit has already kept every seat's standing orders)."""
    return pending_of(w.flow)


def answers(orders_in: Mapping[str, Sequence[Any]], seat: str) -> list:
    """The seat's orders for the step (its standing orders apart); none from a silent seat."""
    return [o for o in orders_in.get(seat, ()) if not isinstance(o, StandingChange)]


def setup_step(w: Work[Game], orders_in) -> None:
    p = decision(w)
    resolve_setup(w.data, {s: answers(orders_in, s) for s in p["seats"]})
    advance(w.data)


def deploy_step(w: Work[Game], orders_in) -> None:
    p = decision(w)
    if p.get("sealed"):
        resolve_sealed(w.data, {s: answers(orders_in, s) for s in p["seats"]})
    else:
        resolve_deploy(w.data, p, last(answers(orders_in, p["seats"][0]), Deploy))
    advance(w.data)


def round_step(w: Work[Game], orders_in) -> None:
    """Every seat's round plan is kept; the round is flown up to the next window asked for."""
    p = decision(w)
    take_plans(w.data, {s: answers(orders_in, s) for s in p["seats"]})
    advance(w.data)


def activate_step(w: Work[Game], orders_in) -> None:
    """The aircraft chosen, or the one the sequence gave when the choice no longer fits [L287, L291]."""
    p = decision(w)
    g = w.data
    c = answers(orders_in, p["seats"][0])
    chosen, pre = last(c, Activate), last(c, PreDiscard)
    a = g.ac(chosen.ac if chosen else p["ac"])
    if a["done"] or a["destroyed"] or a["seat"] != p["seats"][0] or a["side"] != p["side"]:
        a = g.ac(p["ac"])
    activate(g, a, pre.cards if pre else [])
    advance(g)


def script_step(w: Work[Game], orders_in) -> None:
    p = decision(w)
    g = w.data
    items = answers(orders_in, p["seats"][0])
    t = g.doc["turn"]
    if not t["moved"] and t["step"] == 0 and not any(isinstance(o, MOVES) for o in items):
        items.insert(0, Stay())  # a turn opens with its movement [L295]
    take_script(g, items)
    advance(g)


def react_step(w: Work[Game], orders_in) -> None:
    p = decision(w)
    g = w.data
    play = last(answers(orders_in, p["seats"][0]), Play, Pass)
    ex = g.doc["turn"]["exchange"]
    if isinstance(play, Play):
        answer(g, ex, p["party"], {"card": play.card, "source": play.source, "on": play.on})
    else:
        ex["closed"] = True
        g.say(t_("%(id)s passes", id=p['ac']), kind="reaction")
    advance(g)


def pursue_step(w: Work[Game], orders_in) -> None:
    p = decision(w)
    o = last(answers(orders_in, p["seats"][0]), Pursue) or Pursue(False)
    w.data.doc["turn"]["pursuit"]["answer"] = {"go": o.go, "cell": list(o.cell) if o.cell else None,
                                               "face": o.face, "discard": list(o.discard)}
    advance(w.data)


# ---- the step table ------------------------------------------------------------------------------------

LABELS = {"setup": "set-up", "deploy": "deployment", "activate": "activation", "script": "turn",
          "round": "plan", "react": "reaction", "pursue": "pursuit"}


def phase_name(state: State, flow: Flow) -> str:
    p = pending_of(flow)
    label = LABELS[p["kind"]]
    return f"{p['ac']}-{label}-{p['n']}" if p.get("ac") else f"{label}-{p['n']}"


def title(state: State) -> str:
    p, rnd = pending(state), state.read()["round"]
    ac, label = p.get("ac"), LABELS[p["kind"]]
    if rnd:
        return t_("round %(n)s: %(ac)s%(label)s", n=rnd, ac=ac + " " if ac else "", label=word(label))
    return t_("set-up: %(label)s", label=word(label))


def prompt(state: State) -> str:
    p = pending(state)
    return PROMPTS[p["kind"]](p)


def others(state: State) -> list[str]:
    """Every seat not asked may still send standing orders."""
    asked = set(pending(state)["seats"])
    return [s["name"] for s in state.read()["seats"] if s["name"] not in asked]


def step(name: str, resolve, window: Window = Window.ORDERS) -> Step:
    """A decision step: it awaits the asked seats; the game runs on until the next decision, or ends."""
    return Step(name, resolve, next=OVER, window=window, hours=24.0 if window is Window.INTERRUPT else None,
                title=title, prompt=prompt, who=ASKED, optional=others, phase_name=phase_name,
                rule=rulebook.heading(rulebook.DECISION[name]))


def seats(state: State) -> tuple[Seat, ...]:
    return tuple(Seat(s["name"], s["side"], s["title"]) for s in state.read()["seats"])


def open_game(state: State, work: Work[Game]) -> Game:
    return state.thaw(work)


STEPS: Steps[State, Game] = Steps([
    step("setup", setup_step), step("deploy", deploy_step), step("activate", activate_step),
    step("script", script_step), step("round", round_step), step("react", react_step, Window.INTERRUPT),
    step("pursue", pursue_step, Window.INTERRUPT),
], seats=seats, open=open_game, close=lambda g: g.doc, slot=SLOT, sides=tables.SIDES, standing=RULES)


# ---- the rest of the contract ----------------------------------------------------------------------------


def setup(scenario: str, options: Mapping[str, Any], dice) -> State:
    return new_game(scenario, INFO.resolve_options(dict(options)), dice).freeze()


def outcome(state: State) -> Outcome | None:
    d = state.read()
    if not d["over"]:
        return None
    return Outcome(d["over"]["winner"], over_text(d["over"]["text"]), dict(d["vp"]))


RULESET = Assembled(
    info=INFO, steps=STEPS, setup=setup, view=views.view, order_form=forms.order_form, check_orders=orders.check_orders,
    outcome=outcome, bot_orders=bot.orders, seats=seats, picture=picture.draw, carryover=CARRYOVER,
    dump=lambda state: {"doc": json.loads(state.doc)}, load=lambda data: State.of(upgrade(dict(data["doc"]))))
