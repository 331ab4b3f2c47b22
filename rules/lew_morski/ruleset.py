"""The Lew Morski ruleset object: the contract methods, wired to the modules that hold the rules."""
from __future__ import annotations

import json
from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.dice import Dice
from pbem.core.orders import OrderLine
from pbem.core.picture import Picture
from pbem.core.ruleset import Checked, Outcome, Phase, Resolution, RulesetInfo, Scenario, Seat

from . import bot, checker, phases, picture as picture_mod, state as state_mod, views
from .forms import order_form
from .options import OPTIONS
from .orders import Action, ReactAnswer, Standing, action_data, action_from_data, merge, of_type
from .setup import SCENARIOS, scenario_data, setup_state
from .state import State
from .world import World, dumps

SCENARIO_DOCS = {
    "w1": "Beginners: 3 Spitfires (1 commander) defend 2 targets against 2 Me-110 and 4 He-111; no AA.",
    "w2": "2 Hurricanes and 3 Spitfires against 3 Me-109, 3 Me-110, 4 He-111 and 4 Ju-88; 4 targets, +3 bonus.",
    "w3": "7 Spitfires and 12 AA guns against 5 Me-110 (fighter-bombers); 2 targets, +20 bonus.",
    "w4": "Reconstructed (digest 3.3, G-19): 3 Hurricanes, 24 AA guns, Spitfire/Hurricane reinforcements against "
          "7 Me-109 and 12 He-111; 5 targets.",
    "w5": "Reconstructed (digest 3.3, G-19): 7 Spitfires, 26 AA guns and 3 Hurricanes arriving in stage 10 against "
          "two German groups (25 aircraft); all 12 strategic points.",
}


class LewMorski:
    """Kryptonim: Lew Morski -- Battle of Britain hex air combat, two sides, 1-4 players per side."""

    info = RulesetInfo(
        name="lew_morski",
        title="Kryptonim: Lew Morski",
        sides=("de", "gb"),
        scenarios=tuple(Scenario(s, scenario_data(s)["title"], SCENARIO_DOCS[s]) for s in SCENARIOS),
        options=OPTIONS,
        rulebook="seeds/004_b72b382f43c0cb76.txt (Polish, 1993); digest rules/lew_morski.md",
    )

    def setup(self, scenario: str, options: Mapping[str, Any], dice: Dice) -> State:
        self.info.scenario(scenario)
        return setup_state(scenario, options, dice)

    def seats(self, state: State) -> tuple[Seat, ...]:
        titles = {"de": "German", "gb": "British"}
        return tuple(Seat(s, views.side_of(s), titles[views.side_of(s)] + ("" if "-" not in s else f" player {s[3:]}"))
                     for s in state.seat_names)

    def phase(self, state: State) -> Phase | None:
        return phases.phase(state)

    def view(self, state: State, seat: str) -> dict[str, Any]:
        return views.view(state, seat)

    def order_form(self, view: Mapping[str, Any], seat: str) -> str:
        return order_form(view, seat)

    def check_orders(self, view: Mapping[str, Any], seat: str, lines: Sequence[OrderLine]) -> Checked:
        return checker.check(view, seat, lines)

    def default_orders(self, state: State, seat: str) -> tuple[()]:
        """A silent seat: no order changes, aircraft fly straight ahead at minimum speed, no fire, bombs kept;
        in an interrupt window every asked aircraft holds fire."""
        return ()

    def resolve(self, state: State, orders: Mapping[str, Any], dice: Dice) -> Resolution:
        merged = merge(orders)
        w = World(state, dice)
        w.apply_policies(of_type(merged, Standing))
        step = state.step
        if step == "setup":
            w.apply_setup(merged)
            w.stage = 1
            w.say("the aircraft are in their start areas; stage 1 begins", "stage")
            return Resolution(w.freeze(step="de-move"), tuple(w.events))
        if step in ("de-move", "gb-move"):
            side = step[:2]
            w.movement(side, merged)
            actions: list[Action] = of_type(merged, Action)  # type: ignore[arg-type]
            asks = w.ask_list(side)
            if asks:
                pend = dumps({"phasing": side, "orders": {"actions": [action_data(a) for a in actions]}, "asks": asks})
                other = "gb" if side == "de" else "de"
                for x in asks:
                    w.say(f"{x['ac']} has {x['target']} on its line of fire: fire or hold?", "ask",
                          frozenset({x["seat"]}))
                return Resolution(w.freeze(step=f"{other}-react", pending=pend), tuple(w.events))
            w.combat_phase(side, actions, {})
            return self._finish(w, side)
        if step in ("gb-react", "de-react"):
            pend = state.pending_data()
            answers = {o.ac: o.decision for o in of_type(merged, ReactAnswer)}
            w.combat_phase(pend["phasing"], [action_from_data(d) for d in pend["orders"]["actions"]], answers)
            return self._finish(w, pend["phasing"], clear=True)
        raise ValueError(f"no phase to resolve in step {step!r}")

    def _finish(self, w: World, side: str, clear: bool = False) -> Resolution:
        reason = w.end_reason(after_gb_phase=side == "gb")
        extra: dict[str, Any] = {"pending": ""} if clear else {}
        if reason:
            w.say(f"the game ends: {reason}; VP DE {w.vp['de']}, GB {w.vp['gb']}", "end")
            return Resolution(w.freeze(step="over", end_reason=reason, **extra), tuple(w.events))
        if side == "de":
            return Resolution(w.freeze(step="gb-move", **extra), tuple(w.events))
        w.new_stage()
        w.say(f"stage {w.stage} begins", "stage")
        return Resolution(w.freeze(step="de-move", **extra), tuple(w.events))

    def outcome(self, state: State) -> Outcome | None:
        if state.step != "over":
            return None
        sc = scenario_data(state.scenario)
        return decide(state.vp_de, sc["de"]["min_vp"], state.vp_gb, sc["gb"]["min_vp"],
                      state.opts["both_win"], state.end_reason)

    def dump(self, state: State) -> dict[str, Any]:
        return state_mod.dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return state_mod.load(json.loads(json.dumps(data)))

    def picture(self, view: Mapping[str, Any]) -> Picture | None:
        return picture_mod.draw(view)

    def bot_orders(self, view: Mapping[str, Any], seat: str, dice: Dice) -> str:
        return bot.orders(view, seat, dice)


def decide(vp_de: int, min_de: int, vp_gb: int, min_gb: int, both_win: str = "percentage",
           reason: str = "") -> Outcome:
    """Victory [R 8.2, G-27]: reaching the minimum wins; else the smaller shortfall; else the larger share."""
    scores = {"de": float(vp_de), "gb": float(vp_gb)}
    pct = {"de": vp_de / min_de, "gb": vp_gb / min_gb}
    short = {"de": min_de - vp_de, "gb": min_gb - vp_gb}
    names = {"de": "Germany", "gb": "Great Britain"}
    tail = f" (DE {vp_de}/{min_de} VP, GB {vp_gb}/{min_gb} VP{'; ' + reason if reason else ''})"
    reached = [s for s in ("de", "gb") if short[s] <= 0]
    if len(reached) == 1:
        return Outcome(reached[0], f"{names[reached[0]]} wins a full victory [R 8.2]{tail}", scores)
    if len(reached) == 2 and both_win == "draw":
        return Outcome(None, f"both sides reached their minimum: a draw (option both_win) [G-27]{tail}", scores)
    if not reached and short["de"] != short["gb"]:
        w = min(("de", "gb"), key=lambda s: short[s])
        return Outcome(w, f"{names[w]} wins a minimal victory: {short[w]} VP short against "
                          f"{short['gb' if w == 'de' else 'de']} [R 8.2]{tail}", scores)
    if pct["de"] == pct["gb"]:
        return Outcome(None, f"a draw: equal shares of the required VP [G-27]{tail}", scores)
    w = max(("de", "gb"), key=lambda s: pct[s])
    kind = "full" if reached else "minimal"
    return Outcome(w, f"{names[w]} wins a {kind} victory on the larger share of its required VP "
                      f"({pct[w]:.1%}) [R 8.2, G-27]{tail}", scores)


RULESET = LewMorski()
