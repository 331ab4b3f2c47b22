"""The turn's resolution steps [4]: visibility and shadow, Shadowed moves, the main orders
(3B-3H, search, air attack, naval combat, random events) and the doctrine interrupt's resumption."""
from __future__ import annotations

from pbem.core.texts import t_

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.interrupts import Ask
from pbem.core.standing import StandingChange

from . import combat, moves, preorders
from . import tables as T
from .board import board
from .events import random_events
from .naval import calls_from_json, calls_json, naval_phase, planned_combats
from .search import search_phase
from .shadow import prune, shadow_phase
from .verbs import Move, Order, Release, Stay
from .work import SIDES, Work, enemy


DOCTRINE_QUESTION = t_("a naval combat is coming and you have declared no DOCTRINE: declare one "
                       "(silence means DOCTRINE ALL CLOSE)")


# --- phase 1 and 2: visibility and shadow [5, 6] -----------------------------------------
def visibility_phase(w: Work, dice) -> None:
    s = w.s
    if s.turn != s.start:  # turn 1 skips the visibility and shadow phases [3]
        _weather(w, dice)
        shadow_phase(w, dice)
    else:
        w.say(t_('%(v)s: weather %(weather)s, visibility %(v2)s', v=T.turn_name(s.turn), weather=s.weather, v2=T.vis_text(s.vis)), kind="weather")
    # 2B: remove all remaining Sighted markers
    w.contacts = [c for c in w.contacts if c.status == "shadowed"]
    prune(w)


def _weather(w: Work, dice) -> None:
    """The weather roll, visibility and fog; contacts lost to them; heavy weather's fuel roll [5]."""
    s = w.s
    wt = T.tables()["weather"]
    r = T.d10(dice, t_("weather change"), SIDES)
    drm = T.weather_drm(s.weather)
    weather = max(wt["min"], min(wt["max"], s.weather + T.weather_shift(r + drm)))
    fog = weather >= wt["fog_from"]
    vis = T.visibility(weather, s.turn)
    w.s = replace(s, weather=weather, fog=fog, vis=vis)
    w.say(t_('%(v)s: weather roll %(r)s%(drm)+d -> weather %(weather)s%(v2)s, visibility %(v3)s', v=T.turn_name(s.turn), r=r, drm=drm, weather=weather, v2=t_(', fog in fog hexes') if fog else '', v3=T.vis_text(vis)), kind="weather")
    for c in list(w.contacts):
        if vis >= T.X or (fog and c.hex in board().fog):
            w.drop_contact(c)
    if weather >= wt["fuel_roll_at"]:
        r2 = T.d10(dice, t_("heavy weather fuel roll"), SIDES)
        if r2 <= wt["fuel_roll_max"]:
            w.say(t_("heavy weather: every ship spends 1 FP"), kind="weather")
            for x in w.afloat():
                if x.speed in ("F", "M"):
                    w.set(x.id, fuel=max(0, x.fuel - 1))


def shadowed_units(w: Work, side: str) -> list[str]:
    """The side's units that carry an enemy Shadowed marker [7.1]."""
    return sorted({c.unit for c in w.contacts if c.holder == enemy(side) and c.status == "shadowed"
                   and w.unit_ships(c.unit)})


def waiting(w: Work, side: str) -> list[str]:
    """The side's Shadowed units that have not yet moved or stayed in this turn's Shadowed movement [7.1]."""
    return [u for u in shadowed_units(w, side) if not any(x.id in w.s.moved for x in w.unit_ships(u))]


def next_after_weather(w: Work) -> str:
    if waiting(w, "german"):
        return "shadowed-german"
    if waiting(w, "allied"):
        return "shadowed-allied"
    return "orders"


# --- phase 3A: Shadowed units move and announce [7.1] ----------------------------------------------
def ordered_ahead(w: Work, sides: Sequence[str]) -> None:
    """Each side in turn (the German first [7.1]) whose every Shadowed unit has an IF SHADOWED order that
    can be carried out moves now, with no window; the first side that must be asked stops the others."""
    for side in sides:
        units = shadowed_units(w, side)
        ok, bad = preorders.usable(w, side, units)
        missing = [u for u in units if u not in ok]
        if missing:
            for u in missing:
                why = f"your IF SHADOWED order for it cannot be carried out now ({bad[u]})" if u in bad else \
                    "no IF SHADOWED order covers it"
                w.tell(side, t_('%(u)s is Shadowed: %(why)s; your Shadowed-movement window opens', u=u, why=why))
            if ok:
                w.tell(side, t_('in that window your IF SHADOWED orders stand for %(v)s unless a MOVE or STAY line replaces them', v=', '.join(sorted(ok))))
            return
        shadowed_move(w, side, ())


def shadowed_move(w: Work, side: str, orders: Sequence[Order]) -> None:
    """The side's Shadowed units move and announce, by the window's lines or else their IF SHADOWED
    orders; a unit with neither stays [7.1]."""
    units = shadowed_units(w, side)
    named = {o.unit for o in orders if isinstance(o, (Move, Stay))}
    ok, _ = preorders.usable(w, side, units)
    ahead = [o for u, o in sorted(ok.items()) if u not in named]
    for o in [*orders, *ahead]:
        if isinstance(o, Move):
            moves.move_unit(w, side, o.unit, list(o.path), announce=True)
    for uid in shadowed_units(w, side):
        if not any(w.ships[x.id].id in w.s.moved for x in w.unit_ships(uid)):
            for x in w.unit_ships(uid):  # it stayed: no hexes moved this turn (fuel, and it may repair) [7.1]
                w.set(x.id, moved_last=0)
            c = w.contact_on(uid)
            if c:
                w.say(t_('Shadowed unit %(cid)s stays in %(hex)s', cid=c.cid, hex=c.hex), to=(enemy(side),), kind="announce")
    w.s = replace(w.s, moved=tuple(sorted(set(w.s.moved) | {x.id for u in shadowed_units(w, side)
                                                             for x in w.unit_ships(u)})))
    preorders.lapse(w, side, units)


# --- phases 3B-7 [7-11] --------------------------------------------------------------------------
def main_orders(w: Work, orders: Mapping[str, Sequence[Order]], dice) -> None:
    """3B-3H, then Search, Air Attack, Naval Combat and Random Events [7-11]; the standing orders
    among ``orders`` the kit has already put in force."""
    by = {side: [o for o in orders.get(side, ()) if not isinstance(o, StandingChange)] for side in SIDES}
    for side in SIDES:
        moves.task_forces(w, by[side])
    for side in SIDES:
        moves.stay_orders(w, dice, by[side])
    moves.movement(w, by)
    if w.s.ended:
        return
    # 3H Shadowed -> Sighted
    w.retarget_contacts()
    w.contacts = [replace(c, status="sighted") if c.status == "shadowed" else c for c in w.contacts]
    search_phase(w, by)
    combat.air_attacks(w, dice)
    if w.bismarck_gone():
        return
    w.kw["release"] = [o.ship for o in by["allied"] if isinstance(o, Release)]
    if not _ask_doctrine(w, by):
        finish_turn(w, by, dice)


def _ask_doctrine(w: Work, by: dict[str, list[Order]]) -> bool:
    """A battle is coming and a side has declared no doctrine (option ``battle_doctrine=ask``): the one
    decision nothing covers.  Suspend before naval combat, keeping the calls and releases [10]."""
    undeclared = [side for side in SIDES if not w.std_lines(side, "DOCTRINE")]
    if w.option("battle_doctrine", "standing") != "ask" or not undeclared or not planned_combats(w, by):
        return False
    calls = {side: calls_json(by[side]) for side in SIDES}
    w.kit.interrupt("doctrine", [Ask(side, f"doctrine {side}", DOCTRINE_QUESTION, "CLOSE") for side in undeclared],
                    calls=calls, release=w.kw["release"])
    w.kw["release"] = []
    return True


def finish_turn(w: Work, by: dict[str, list[Order]], dice) -> None:
    """Phases 6 and 7: naval combat and random events [10, 11]."""
    naval_phase(w, by, dice)
    if w.bismarck_gone():
        return
    random_events(w, by, dice)


def resume_after_doctrine(w: Work, dice) -> None:
    """The doctrine interrupt answered (or defaulted: DOCTRINE ALL CLOSE): fight the calls kept [10]."""
    for side in SIDES:
        if not w.std_lines(side, "DOCTRINE"):
            w.keep_standing(side, "DOCTRINE ALL CLOSE")
    data = w.kit.resumed.data
    by = {side: calls_from_json(data["calls"][side]) for side in SIDES}
    w.kw["release"] = list(data["release"])
    finish_turn(w, by, dice)
