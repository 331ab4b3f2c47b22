"""One resolution function per PBEM window [digest 12]: each changes the working copy and names the
next step.  The windows: weather (nobody), shadowed-german / shadowed-allied (3A), orders (both),
the doctrine and convoy interrupts, admin (nobody)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import admin, game
from . import tables as T
from .events import attack_convoy
from .verbs import Attack
from .work import Work


def weather(w: Work, orders: dict, dice) -> str:
    w.s = replace(w.s, reports=(), moved=(), shadowers=(), shadowed_now=(), searched=())
    game.visibility_phase(w, dice)
    return game.next_after_weather(w)


def shadowed_german(w: Work, orders: dict, dice) -> str:
    game.shadowed_move(w, "german", orders.get("german", ()))
    return "shadowed-allied" if game.shadowed_units(w, "allied") else "orders"


def shadowed_allied(w: Work, orders: dict, dice) -> str:
    game.shadowed_move(w, "allied", orders.get("allied", ()))
    return "orders"


def main_orders(w: Work, orders: dict, dice) -> str:
    game.main_orders(w, orders, dice)
    _release(w)
    return "doctrine" if w.s.pending[:1] == ("doctrine",) else "convoy" if w.s.pending else "admin"


def doctrine(w: Work, orders: dict, dice) -> str:
    game.resume_after_doctrine(w, orders, dice)
    _release(w)
    return "convoy" if w.s.pending else "admin"


def convoy(w: Work, orders: dict, dice) -> str:
    """The German's answer to a convoy found under ON_CONVOY ASK [11.3]; silence leaves it alone."""
    _, uid, name = w.s.pending
    conv = next(c for c in T.tables()["convoys"] if c["name"] == name)
    choice = orders.get("german", ())
    if choice and isinstance(choice[0], Attack) and w.unit_ships(uid):
        attack_convoy(w, dice, uid, conv)
    else:
        w.tell("german", f"convoy {name} left alone")
    w.s = replace(w.s, pending=())
    return "admin"


def administration(w: Work, orders: dict, dice) -> str:
    admin.administration(w)
    if not w.s.ended:
        w.s = replace(w.s, turn=w.s.turn + 1, moved=(), shadowers=(), shadowed_now=())
    return "weather"


def _release(w: Work) -> None:
    """Rodney's release, ordered this turn, takes effect in Administration [12]."""
    admin.release(w, w.kw.get("release", []))
    w.kw["release"] = []


STEPS: dict[str, Callable[[Work, dict, object], str]] = {
    "weather": weather, "shadowed-german": shadowed_german, "shadowed-allied": shadowed_allied,
    "orders": main_orders, "doctrine": doctrine, "convoy": convoy, "admin": administration,
}
