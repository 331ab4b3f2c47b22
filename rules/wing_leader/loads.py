"""Bomb loads [15.1] and what each lets a squadron do.

A bombing attack needs the right load: ordinary bombs for most approaches, a torpedo for a torpedo attack
[15.3.5], air-to-ground rockets (ATGR) for a rocket attack [15.3.6] and parafrags for a parafrag attack
[15.5.2]; a squadron carrying one of the special loads may make only the attack it is for.  A strafing
attack needs no load at all, only ammunition [15.3.7].  Everything said of bomb loads holds for the others.
"""
from __future__ import annotations

from .tables import card

BOMBS, TORPEDO, ATGR, PARAFRAG, NO_LOAD = "bombs", "torpedo", "atgr", "parafrag", ""
LOADS = (BOMBS, TORPEDO, ATGR, PARAFRAG)
#: The approaches (and special attacks) each load allows [15.1, 15.3, 15.5].
ALLOWS: dict[str, tuple[str, ...]] = {
    BOMBS: ("level", "dive", "steep", "glide", "skip"),
    TORPEDO: ("torpedo",),
    ATGR: ("rocket",),
    PARAFRAG: ("parafrag",),
    NO_LOAD: ("strafing", "recon"),
}
#: The ability on the card a special load needs [3.3, 15.3.5, 15.3.6].
NEEDS_ABILITY = {TORPEDO: "torpedo", ATGR: "atgr"}


def load_problem(model: str, load: str) -> str:
    """Why a squadron of ``model`` may not carry ``load`` ("" when it may) [15.1, 3.3]."""
    if load not in LOADS:
        return f"15.1: {load!r} is not a load ({', '.join(LOADS)})"
    ability = NEEDS_ABILITY.get(load)
    if ability and ability not in card(model)["abilities"]:
        return f"15.1: the {card(model)['name']} card has no {ability.upper()} ability for a {load} load"
    if load in (BOMBS, PARAFRAG) and not card(model).get("bomb"):
        return f"15.1: the {card(model)['name']} card has no bomb load"
    return ""


def approach_problem(load: str, approach: str) -> str:
    """Why a squadron with ``load`` may not make ``approach`` ("" when it may): a special load makes only
    its own attack; strafing needs no load and is never stopped by one [15.1, 15.3.7]."""
    if approach == "strafing":
        return ""
    if approach == "kamikaze":
        return "" if load == BOMBS else "15.5.3: a kamikaze attack is made with the bomb load"
    if approach in ALLOWS.get(load, ()):
        return ""
    if load in (TORPEDO, ATGR, PARAFRAG):
        own = ALLOWS[load][0]
        return f"15.1: a squadron carrying a {load} load must make a {own} attack"
    if load == NO_LOAD:
        return f"15.1: a {approach} attack needs a load, and the squadron carries none"
    needed = next(k for k, v in ALLOWS.items() if approach in v)
    return f"15.1: a {approach} attack needs a {needed} load, not {load}"
