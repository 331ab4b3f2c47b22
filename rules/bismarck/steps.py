"""The turn as the kit's step table [4, digest 12]: one resolve function per PBEM window.

weather (nobody: Visibility and Shadow Phases) -> shadowed-german / shadowed-allied (3A, only a side
with Shadowed units that its IF SHADOWED orders of last turn do not all cover) -> orders (both: 3B-3H,
search, air attack, naval combat, random events) -> admin (nobody) -> weather.  Two INTERRUPT windows suspend the orders step: ``doctrine`` (option
``battle_doctrine=ask``, a combat coming and a side without DOCTRINE) and ``convoy`` (a convoy found
under ON_CONVOY ASK).
"""
from __future__ import annotations

from pbem.core.texts import t_

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from pbem.core.flow import OVER
from pbem.core.phases import NOBODY, Step, Steps
from pbem.core.ruleset import Window
from pbem.core.work import Work as KitWork

from . import admin, game
from . import tables as T
from .events import CONVOY_QUESTION, attack_convoy
from .model import State
from .verbs import Order
from .victory import victory
from .work import SEATS, SIDES, Work

Orders = Mapping[str, Sequence[Order]]

TITLES = {"weather": t_("visibility and shadow phases"), "shadowed-german": t_("German Shadowed units move"),
          "shadowed-allied": t_("Allied Shadowed units move"), "orders": t_("orders for the turn"),
          "convoy": t_("convoy found: attack?"), "doctrine": t_("declare battle doctrine"),
          "admin": t_("administration")}
SHADOWED_PROMPT = t_("your Shadowed units move first and announce their new hexes")


def weather(k: KitWork[Work], orders: Orders) -> None:
    w = k.data
    w.s = replace(w.s, reports=(), moved=(), shadowers=(), shadowed_now=(), searched=())
    game.visibility_phase(w, k.dice)
    if not w.s.ended:
        game.ordered_ahead(w, SIDES)  # units moved by IF SHADOWED orders need no window [7.1]


def shadowed_german(k: KitWork[Work], orders: Orders) -> None:
    game.shadowed_move(k.data, "german", orders.get("german", ()))
    if not k.data.s.ended:
        game.ordered_ahead(k.data, ("allied",))


def shadowed_allied(k: KitWork[Work], orders: Orders) -> None:
    game.shadowed_move(k.data, "allied", orders.get("allied", ()))


def main_orders(k: KitWork[Work], orders: Orders) -> None:
    game.main_orders(k.data, orders, k.dice)
    _release(k.data)


def doctrine(k: KitWork[Work], orders: Orders) -> None:
    """The DOCTRINE lines sent are in force already (the kit applies standing orders first)."""
    game.resume_after_doctrine(k.data, k.dice)
    _release(k.data)


def convoy(k: KitWork[Work], orders: Orders) -> None:
    """The German's answer to a convoy found under ON_CONVOY ASK [11.3]; silence leaves it alone."""
    w = k.data
    uid, name = k.resumed.data["unit"], k.resumed.data["convoy"]
    conv = next(c for c in T.tables()["convoys"] if c["name"] == name)
    if k.answers["convoy"] == "ATTACK" and w.unit_ships(uid):
        attack_convoy(w, k.dice, uid, conv)
    else:
        w.tell("german", t_('convoy %(name)s left alone', name=name))


def administration(k: KitWork[Work], orders: Orders) -> None:
    w = k.data
    admin.administration(w)
    if not w.s.ended:
        w.s = replace(w.s, turn=w.s.turn + 1, moved=(), shadowers=(), shadowed_now=())
        k.new_turn()


def _release(w: Work) -> None:
    """Rodney's release, ordered this turn, takes effect in Administration [12]."""
    admin.release(w, w.kw.get("release", []))
    w.kw["release"] = []


def _unless_ended(nxt: str | Callable[[Work], str]) -> Callable[[KitWork[Work]], str]:
    """The next step, or OVER once the game has ended."""
    return lambda k: OVER if k.data.s.ended else nxt if isinstance(nxt, str) else nxt(k.data)


def _after_german(w: Work) -> str:
    return "shadowed-allied" if game.waiting(w, "allied") else "orders"


def _title(step: str) -> Callable[[State], str]:
    return lambda state: t_("%(turn)s: %(what)s", turn=T.turn_name(state.turn), what=TITLES[step])


def _once_a_turn(name: str) -> Callable[[State, object], str]:
    """Each interrupt opens at most once a turn, so its plain name keeps phase keys unique (and the
    dice of its resolution what they were before the kit)."""
    return lambda state, flow: name


def close(w: Work) -> State:
    """Freeze the working data; announce the end of the game with its result [4]."""
    if w.s.ended:
        v = victory(w.freeze())
        w.say(t_('the game ends (%(ended)s): %(level)s, German VP %(vp)g', ended=w.s.ended, level=v['level'], vp=v['vp']), kind="end")
    return w.freeze()


STEPS: Steps[State, Work] = Steps([
    Step("weather", weather, _unless_ended(game.next_after_weather), who=NOBODY, title=_title("weather"), rule="4, 5, 6"),
    Step("shadowed-german", shadowed_german, _unless_ended(_after_german), who="german",
         title=_title("shadowed-german"), prompt=SHADOWED_PROMPT, rule="4, 7.1"),
    Step("shadowed-allied", shadowed_allied, _unless_ended("orders"), who="allied",
         title=_title("shadowed-allied"), prompt=SHADOWED_PROMPT, rule="4, 7.1"),
    Step("orders", main_orders, _unless_ended("admin"), title=_title("orders"),
         prompt=t_("movement, air, search, combat calls and standing orders for this turn"), rule="4, 7-11"),
    Step("doctrine", doctrine, _unless_ended("admin"), window=Window.INTERRUPT, hours=12,
         title=_title("doctrine"), prompt=game.DOCTRINE_QUESTION, phase_name=_once_a_turn("doctrine"), rule="10"),
    Step("convoy", convoy, _unless_ended("admin"), window=Window.INTERRUPT, hours=12, title=_title("convoy"),
         prompt=CONVOY_QUESTION, phase_name=_once_a_turn("convoy"), rule="11.3"),
    Step("admin", administration, _unless_ended("weather"), who=NOBODY, title=_title("admin"), rule="12"),
], seats=lambda state: SEATS, open=Work, close=close, sides=SIDES)
