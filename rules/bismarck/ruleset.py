"""The Chase of the Bismarck as a pbem ruleset: phases, resolution and the contract methods."""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked, Option, Outcome, Phase, Resolution, RulesetInfo, Scenario, Seat, Window

from . import bot, game, orders, picture, views
from . import tables as T
from .events import attack_convoy
from .model import State, from_json, to_json
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
        return game.setup(scenario, dict(options), dice)

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
            return {"orders": [{"verb": "IGNORE"}], "standing": []}
        if state.step == "doctrine":
            return {"orders": [], "standing": ["DOCTRINE ALL CLOSE"]}
        return {"orders": [], "standing": []}

    def resolve(self, state: State, orders_: Mapping[str, Any], dice) -> Resolution:
        w = Work(state)
        step = state.step
        if step == "weather":
            w.s = replace(w.s, reports=(), moved=(), shadowers=(), shadowed_now=(), searched=())
            game.visibility_phase(w, dice)
            nxt = game.next_after_weather(w)
        elif step.startswith("shadowed"):
            side = step.split("-")[1]
            game.shadowed_move(w, side, orders_.get(side, {}))
            nxt = "shadowed-allied" if side == "german" and game.shadowed_units(w, "allied") else "orders"
        elif step == "orders":
            game.main_orders(w, dict(orders_), dice)
            self._release(w)
            nxt = ("doctrine" if w.s.pending[:1] == ("doctrine",) else
                   "convoy" if w.s.pending else "admin")
        elif step == "doctrine":
            game.resume_after_doctrine(w, dict(orders_), dice)
            self._release(w)
            nxt = "convoy" if w.s.pending else "admin"
        elif step == "convoy":
            _, uid, name = w.s.pending
            conv = next(c for c in T.tables()["convoys"] if c["name"] == name)
            choice = orders_.get("german", {}).get("orders", [{"verb": "IGNORE"}])
            if choice and choice[0]["verb"] == "ATTACK" and w.unit_ships(uid):
                attack_convoy(w, dice, uid, conv)
            else:
                w.tell("german", f"convoy {name} left alone")
            w.s = replace(w.s, pending=())
            nxt = "admin"
        else:
            game.administration(w, [])
            if not w.s.ended:
                w.s = replace(w.s, turn=w.s.turn + 1, moved=(), shadowers=(), shadowed_now=())
            nxt = "weather"
        if w.s.ended:
            nxt = "over"
            v = game.victory(w.freeze())
            w.public(f"the game ends ({w.s.ended}): {v['level']}, German VP {v['vp']:g}", "end")
        new = w.freeze(step=nxt)
        return Resolution(new, tuple(w.events))

    @staticmethod
    def _release(w: Work) -> None:
        """Rodney's release, ordered this turn, takes effect in Administration [12]."""
        for sid in w.kw.get("release", []):
            rel = next((r for r in w.s.releases if r[0] == sid), None)
            if rel and w.ships[sid].status in game.RESTRICTED:
                w.set(sid, status="sea", hex=rel[2], markers=(), fuel=w.ships[sid].fuel_max)
                w.tell("allied", f"{sid} is released from escort duty and placed in {rel[2]}")
        w.kw["release"] = []

    def outcome(self, state: State) -> Outcome | None:
        if not state.ended:
            return None
        v = game.victory(state)
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
