"""The Lew Morski ruleset object: the contract methods, wired to the modules that hold the rules."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.defaults import Assembled, DataclassCodec
from pbem.core.dice import Dice
from pbem.core.ruleset import Outcome, RulesetInfo, Scenario
from pbem.core.texts import t_

from . import bot, phases, picture, views
from .campaign import CARRYOVER
from .checker import check_orders
from .forms import order_form
from .migrate import upgrade
from .options import OPTIONS
from .setup import SCENARIOS, scenario_data, setup_state
from .state import State
from .world import reason_text

SCENARIO_DOCS = {
    "w1": "Beginners: 3 Spitfires (1 commander) defend 2 targets against 2 Me-110 and 4 He-111; no AA.",
    "w2": "2 Hurricanes and 3 Spitfires against 3 Me-109, 3 Me-110, 4 He-111 and 4 Ju-88; 4 targets, +3 bonus.",
    "w3": "7 Spitfires and 12 AA guns against 5 Me-110 (fighter-bombers); 2 targets, +20 bonus.",
    "w4": "Reconstructed (the scenario table [R 9] is scrambled in the print; this is one reading): 3 Hurricanes, 24 AA guns, Spitfire/Hurricane reinforcements against "
          "7 Me-109 and 12 He-111; 5 targets.",
    "w5": "Reconstructed (the scenario table [R 9] is scrambled in the print; this is one reading): 7 Spitfires, 26 AA guns and 3 Hurricanes arriving in stage 10 against "
          "two German groups (25 aircraft); all 12 strategic points.",
}


def setup(scenario: str, options: Mapping[str, Any], dice: Dice) -> State:
    return setup_state(scenario, options, dice, phases.start(options))


def outcome(state: State) -> Outcome | None:
    if state.step != "over":
        return None
    sc = scenario_data(state.scenario)
    return decide(state.vp_de, sc["de"]["min_vp"], state.vp_gb, sc["gb"]["min_vp"], state.opts["both_win"],
                  state.end_reason)


def decide(vp_de: int, min_de: int, vp_gb: int, min_gb: int, both_win: str = "percentage",
           reason: str = "") -> Outcome:
    """Victory [R 8.2]: reaching the minimum wins; else the smaller shortfall; else the larger share."""
    scores = {"de": float(vp_de), "gb": float(vp_gb)}
    pct = {"de": vp_de / min_de, "gb": vp_gb / min_gb}
    short = {"de": min_de - vp_de, "gb": min_gb - vp_gb}
    names = {"de": t_("Germany"), "gb": t_("Great Britain")}
    why = reason_text(reason)
    tail = (t_(" (DE %(de)s/%(min_de)s VP, GB %(gb)s/%(min_gb)s VP; %(reason)s)", de=vp_de, min_de=min_de, gb=vp_gb,
               min_gb=min_gb, reason=why) if reason else
            t_(" (DE %(de)s/%(min_de)s VP, GB %(gb)s/%(min_gb)s VP)", de=vp_de, min_de=min_de, gb=vp_gb, min_gb=min_gb))
    reached = [s for s in ("de", "gb") if short[s] <= 0]
    if len(reached) == 1:
        return Outcome(reached[0], t_("%(side)s wins a full victory [R 8.2]%(tail)s", side=names[reached[0]], tail=tail),
                       scores)
    if len(reached) == 2 and both_win == "draw":
        return Outcome(None, t_("both sides reached their minimum: a draw (option both_win) [R 8.2]%(tail)s", tail=tail),
                       scores)
    if not reached and short["de"] != short["gb"]:
        w = min(("de", "gb"), key=lambda s: short[s])
        return Outcome(w, t_("%(side)s wins a minimal victory: %(short)s VP short against %(other)s [R 8.2]%(tail)s",
                             side=names[w], short=short[w], other=short["gb" if w == "de" else "de"], tail=tail), scores)
    if pct["de"] == pct["gb"]:
        return Outcome(None, t_("a draw: equal shares of the required VP [R 8.2]%(tail)s", tail=tail), scores)
    w = max(("de", "gb"), key=lambda s: pct[s])
    share = f"{pct[w]:.1%}"
    if reached:
        return Outcome(w, t_("%(side)s wins a full victory on the larger share of its required VP (%(pct)s) [R 8.2]"
                             "%(tail)s", side=names[w], pct=share, tail=tail), scores)
    return Outcome(w, t_("%(side)s wins a minimal victory on the larger share of its required VP (%(pct)s) [R 8.2]"
                         "%(tail)s", side=names[w], pct=share, tail=tail), scores)


#: The kit's codec of the state; a load first reads a position stored before the kit port (:mod:`.migrate`).
CODEC = DataclassCodec(State)

#: Kryptonim: Lew Morski -- Battle of Britain hex air combat, two sides, 1-4 players per side.  A silent
#: seat's orders are none: its aircraft fly straight ahead at minimum speed and hold fire, bombs are kept;
#: in an interrupt window every asked aircraft holds fire.
RULESET = Assembled(
    info=RulesetInfo(
        name="lew_morski",
        title="Kryptonim: Lew Morski",
        sides=("de", "gb"),
        scenarios=tuple(Scenario(s, scenario_data(s)["title"], SCENARIO_DOCS[s]) for s in SCENARIOS),
        options=OPTIONS,
        rulebook="seeds/004_b72b382f43c0cb76.txt (Polish, 1993); digest rules/lew_morski.md",
    ),
    steps=phases.STEPS, setup=setup, view=views.view, order_form=order_form, check_orders=check_orders,
    outcome=outcome, bot_orders=bot.orders, state_type=State, load=lambda data: CODEC.load(upgrade(data)),
    seats=phases.seats, picture=picture.draw, carryover=CARRYOVER)
