"""The Chase of the Bismarck as a pbem ruleset: phases, resolution and the contract methods."""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked, Option, Outcome, Phase, Resolution, RulesetInfo, Scenario, Seat, Window

from . import bot, orders, picture, views
from . import tables as T
from .model import State, from_json, to_json
from .setup import setup
from .steps import STEPS
from .verbs import Ignore, Policy
from .victory import victory
from .work import SIDES, Work

OPTIONS = (
    Option("crew_exhaustion", False, "optional rule 13.2: crew exhaustion (+1 to German gunfire)", (False, True)),
    Option("battle_doctrine", "standing",
           "standing: a side without a DOCTRINE order fights CLOSE; ask: open a short interrupt for the side "
           "that has declared no doctrine when a naval combat is coming [10]", ("standing", "ask")),
    Option("self_report", "sighted", "marker a self-report places (the rulebook leaves it open) [8]",
           ("sighted", "shadowed")),
    *(Option(name.replace("-", "_"), False, f"hypothetical unit {name} (13.1)", (False, True))
      for name in ("tirpitz", "scharnhorst", "gneisenau", "koeln", "us-dd1", "us-dd2", "new-york", "augusta")),
)

TITLES = {"weather": "visibility and shadow phases", "shadowed-german": "German Shadowed units move",
          "shadowed-allied": "Allied Shadowed units move", "orders": "orders for the turn",
          "convoy": "convoy found: attack?", "doctrine": "declare battle doctrine",
          "admin": "administration"}


class BismarckRuleset:
    """The whole game [4]: eight phases grouped into PBEM windows (digest 12)."""

    info = RulesetInfo(
        name="bismarck", title="The Chase of the Bismarck", sides=SIDES,
        scenarios=tuple(Scenario(k, v["title"], v["doc"]) for k, v in sorted(T.scenarios().items())
                        if isinstance(v, dict)),
        options=OPTIONS, rulebook="The Chase of the Bismarck, VUCA Simulations 2022, rulebook v5c")

    def setup(self, scenario: str, options: Mapping[str, Any], dice) -> State:
        return setup(scenario, dict(options), dice)

    def seats(self, state: State) -> tuple[Seat, ...]:
        return (Seat("german", "german", "Kriegsmarine"), Seat("allied", "allied", "Royal Navy"))

    def phase(self, state: State) -> Phase | None:
        if state.ended:
            return None
        turn = state.turn - state.start + 1
        step = state.step
        title = f"{T.turn_name(state.turn)}: {TITLES[step]}"
        if step in ("weather", "admin"):
            return Phase(turn, step, frozenset(), title)
        if step == "orders":
            return Phase(turn, step, frozenset(SIDES), title,
                         prompt="movement, air, search, combat calls and standing orders for this turn")
        if step == "convoy":
            return Phase(turn, step, frozenset({"german"}), title, window=Window.INTERRUPT, hours=12,
                         prompt="a convoy was found and your ON_CONVOY ASK order leaves it to you: ATTACK or IGNORE")
        if step == "doctrine":
            return Phase(turn, step, frozenset(state.pending[1].split(",")), title, window=Window.INTERRUPT, hours=12,
                         prompt="a naval combat is coming and you have declared no DOCTRINE: declare one "
                                "(silence means DOCTRINE ALL CLOSE)")
        side = step.split("-")[1]
        return Phase(turn, step, frozenset({side}), title,
                     prompt="your Shadowed units move first and announce their new hexes")

    def view(self, state: State, seat: str) -> dict:
        return views.view(state, seat)

    def order_form(self, view: Mapping[str, Any], seat: str) -> str:
        return views.form(dict(view), seat)

    def check_orders(self, view: Mapping[str, Any], seat: str, lines: Sequence[OrderLine]) -> Checked:
        return orders.check(dict(view), seat, lines)

    def default_orders(self, state: State, seat: str) -> Any:
        if state.step == "convoy":
            return (Ignore(),)
        if state.step == "doctrine":
            return (Policy("DOCTRINE ALL CLOSE"),)
        return ()

    def resolve(self, state: State, orders_: Mapping[str, Any], dice) -> Resolution:
        w = Work(state)
        nxt = STEPS[state.step](w, dict(orders_), dice)
        if w.s.ended:
            nxt = "over"
            v = victory(w.freeze())
            w.public(f"the game ends ({w.s.ended}): {v['level']}, German VP {v['vp']:g}", "end")
        new = w.freeze(step=nxt)
        return Resolution(new, tuple(w.events))

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        v = victory(state)
        return Outcome(v["winner"], f"{v['level']}: German VP {v['vp']:g} (game ended: {state.ended})",
                       {"german": float(v["vp"]), "allied": float(-v["vp"])})

    def dump(self, state: State) -> dict:
        return to_json(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return from_json(State, dict(data))

    def picture(self, view: Mapping[str, Any]):
        return picture.picture(dict(view))

    def bot_orders(self, view: Mapping[str, Any], seat: str, dice) -> str:
        return bot.orders(dict(view), seat, dice)
