"""Phase 6, naval combat calls [10]: ENGAGE orders fought one at a time, conditions evaluated after
each battle, then AUTO_ENGAGE's extra calls; the tactical battle itself is :func:`.combat.fight`."""
from __future__ import annotations

from . import battle, combat
from . import tables as T
from .verbs import Engage, Order
from .work import SIDES, Work

BUSY = ("port", "refuel", "repair")


def auto_engage(w: Work, side: str) -> bool:
    return (w.std_lines(side, "AUTO_ENGAGE") or [["", "OFF"]])[-1][1].upper() == "ON"


def planned_combats(w: Work, by: dict[str, list[Order]]) -> bool:
    """Will a naval combat be called this turn (an ENGAGE order, or AUTO_ENGAGE with a contact in a shared hex)?"""
    for side in SIDES:
        if any(isinstance(o, Engage) for o in by[side]):
            return True
        if auto_engage(w, side):
            for c in w.contacts:
                if c.holder == side and any(x.hex == c.hex for x in w.afloat(side)):
                    return True
    return False


def naval_phase(w: Work, by: dict[str, list[Order]], dice) -> None:
    fought: set[str] = set()
    _sink_caught_tankers(w)
    for side in ("allied", "german"):  # the Allied player calls first [10]
        if _side_calls(w, dice, side, by[side], fought):
            return


def _sink_caught_tankers(w: Work) -> None:
    """Tankers caught by Allied ships are sunk at once [2.3.1]."""
    for c in sorted(w.contacts, key=lambda c: c.cid):
        if c.holder != "allied":
            continue
        for x in w.unit_ships(c.unit):
            if x.cls == "TK" and any(a.hex == x.hex for a in w.afloat("allied")):
                w.sink(x.id, "a Sighted tanker in a hex with an Allied ship")


def _side_calls(w: Work, dice, side: str, orders: list[Order], fought: set[str]) -> bool:
    """One side's calls in file order, then AUTO_ENGAGE's; True once the game has ended."""
    calls = [(o, False) for o in orders if isinstance(o, Engage)]
    if auto_engage(w, side):
        named = {o.contact for o, _ in calls}
        calls += [(Engage(c.cid), True) for c in sorted(w.contacts, key=lambda c: c.cid)
                  if c.holder == side and c.cid not in named]
    previous = "NONE"
    for o, auto in calls:
        # calls are taken one at a time, each after the previous battle's result is known [10]
        if o.cond and not condition_met(w, o.cond, previous):
            w.tell(side, f"ENGAGE {o.contact}: condition IF {' '.join(o.cond)} not met "
                         f"(previous call: {previous.lower()}); not called")
            previous = "NONE"
            continue
        previous = _call(w, dice, side, o, auto, fought)
        if o.cond or not auto:
            w.tell(side, f"ENGAGE {o.contact}: {previous.lower() if previous != 'NONE' else 'no battle'}")
        if w.bismarck_gone():
            return True
    return False


def condition_met(w: Work, cond: tuple[str, str], previous: str) -> bool:
    """``IF PREVIOUS WON|LOST|DRAWN|NONE`` or ``IF <ship> AFLOAT|SUNK`` [10]."""
    if cond[0] == "PREVIOUS":
        return previous == cond[1]
    x = w.ships.get(cond[0])
    afloat = bool(x and x.afloat)
    return afloat if cond[1] == "AFLOAT" else not afloat


def _call(w: Work, dice, side: str, o: Engage, auto: bool, fought: set[str]) -> str:
    """Fight one called combat; WON/LOST/DRAWN from the caller's side, NONE if it cannot take place."""
    c = next((c for c in w.contacts if c.cid == o.contact and c.holder == side), None)
    # an automatic call never opens a second battle in a hex; a named call may, with ships that have not fought
    if c is None or (auto and c.hex in fought) or w.s.vis >= T.X or w.fog_blocks(c.hex):
        return "NONE"
    targets = [x.id for x in w.unit_ships(c.unit) if x.cls != "TK"]
    uid = _calling_unit(w, side, o, c.hex)
    if not targets or uid is None:
        return "NONE"
    att = [x.id for x in w.unit_ships(uid) if x.cls != "TK"]
    if any(s in fought for s in att):
        w.tell(side, f"ENGAGE {o.contact}: {uid} has already fought this turn")
        return "NONE"
    fought.update([c.hex] + att)
    log = battle.fight(w, dice, side, att, targets, c.hex)
    combat.record_battle(w, c.hex, log, att + targets)
    return w.kw.get("last_battle", "DRAWN")


def _calling_unit(w: Work, side: str, o: Engage, h: str) -> str | None:
    """The unit named WITH, if it is in the hex; else the first of this side's free units there."""
    if o.unit:
        own = [x for x in w.unit_ships(o.unit) if x.hex == h and x.cls != "TK"]
    else:
        own = [x for x in w.afloat(side) if x.hex == h and x.cls != "TK" and not any(m in x.markers for m in BUSY)]
    if not own:
        return None
    return o.unit or w.unit_of(own[0].id)
