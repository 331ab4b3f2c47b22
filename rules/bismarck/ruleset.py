"""The Chase of the Bismarck as a pbem ruleset, assembled from the kit and the game's own parts."""
from __future__ import annotations

from pbem.core.texts import t_

from typing import Any

from pbem.core.defaults import Assembled
from pbem.core.ruleset import Option, Outcome, RulesetInfo, Scenario

from . import bot, orders, picture, views
from .campaign import CARRYOVER
from . import tables as T
from .migrate import upgrade
from .model import State, from_json, to_json
from .setup import setup
from .steps import STEPS
from .victory import victory
from .work import SEATS, SIDES

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

INFO = RulesetInfo(
    name="bismarck", title="The Chase of the Bismarck", sides=SIDES,
    scenarios=tuple(Scenario(k, v["title"], v["doc"]) for k, v in sorted(T.scenarios().items())
                    if isinstance(v, dict)),
    options=OPTIONS, rulebook="The Chase of the Bismarck, VUCA Simulations 2022, rulebook v5c")


def outcome(state: State) -> Outcome | None:
    if not state.ended:
        return None
    v = victory(state)
    return Outcome(v["winner"], t_("%(level)s: German VP %(vp)g (game ended: %(ended)s)", level=v["level"], vp=v["vp"], ended=state.ended),
                   {"german": float(v["vp"]), "allied": float(-v["vp"])})


def _plain(fn: Any) -> Any:
    """The game's own functions take a plain dict view."""
    return lambda view, *rest: fn(dict(view), *rest)


RULESET = Assembled(
    info=INFO, steps=STEPS, setup=lambda scenario, options, dice: setup(scenario, dict(options), dice),
    view=views.view, order_form=_plain(views.form), outcome=outcome, bot_orders=_plain(bot.orders),
    check_orders=_plain(orders.check), dump=to_json, load=lambda data: from_json(State, upgrade(data)),
    seats=lambda state: SEATS, picture=_plain(picture.picture), carryover=CARRYOVER)
