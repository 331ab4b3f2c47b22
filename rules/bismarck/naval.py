"""Phase 6, naval combat calls [10]: each side's ENGAGE script (the kit's ``IF ... THEN ... ELSE``
entries) fought one entry at a time, then AUTO_ENGAGE's extra calls; the battle is :func:`.battle.fight`."""
from __future__ import annotations

from pbem.core.texts import t_

from .words import word

from pbem.core.scripts import Condition, If, run

from . import battle, combat
from . import tables as T
from .conditions import CONDITIONS
from .verbs import Engage, Order
from .work import SIDES, Work

BUSY = ("port", "refuel", "repair")


def auto_engage(w: Work, side: str) -> bool:
    return (w.std_lines(side, "AUTO_ENGAGE") or [["", "OFF"]])[-1][1].upper() == "ON"


def planned_combats(w: Work, by: dict[str, list[Order]]) -> bool:
    """Will a naval combat be called this turn (an ENGAGE order, or AUTO_ENGAGE with a contact in a shared hex)?"""
    for side in SIDES:
        if any(isinstance(o, (Engage, If)) for o in by[side]):
            return True
        if auto_engage(w, side):
            for c in w.contacts:
                if c.holder == side and any(x.hex == c.hex for x in w.afloat(side)):
                    return True
    return False


def calls_json(orders: list[Order]) -> list[dict]:
    """A side's calls as JSON, to be kept in an interrupt's continuation."""
    def call(o: Order | None) -> dict | None:
        return None if not isinstance(o, Engage) else {"contact": o.contact, "unit": o.unit}
    return [{"call": call(o)} if isinstance(o, Engage) else
            {"if": [o.when.name, *o.when.args], "then": call(o.then), "else": call(o.otherwise)}
            for o in orders if isinstance(o, (Engage, If))]


def calls_from_json(data: list[dict]) -> list[Order]:
    def call(d: dict | None) -> Engage | None:
        return None if d is None else Engage(d["contact"], d["unit"])
    return [call(d["call"]) if "call" in d else  # type: ignore[misc]
            If(Condition(d["if"][0], tuple(d["if"][1:])), call(d["then"]), call(d["else"])) for d in data]


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
                w.sink(x.id, t_("a Sighted tanker in a hex with an Allied ship"))


def _side_calls(w: Work, dice, side: str, orders: list[Order], fought: set[str]) -> bool:
    """One side's script of calls, entry by entry (the kit reports each entry not carried out), then
    AUTO_ENGAGE's calls on the contacts no entry named; True once the game has ended."""
    script = [o for o in orders if isinstance(o, (Engage, If))]
    w.kw["previous"] = "NONE"

    def perform(o: Order) -> None:
        """A call is carried out even when it finds no battle (PREVIOUS is then NONE)."""
        assert isinstance(o, Engage)
        result = w.kw["previous"] = _call(w, dice, side, o, False, fought)
        w.tell(side, t_('ENGAGE %(contact)s: %(v)s', contact=o.contact, v=word(result.lower()) if result != 'NONE' else t_('no battle')))

    for entry in script:
        # calls are taken one at a time, each after the previous battle's result is known [10]
        if not run(w.kit, side, [entry], perform, CONDITIONS)[0]:
            w.kw["previous"] = "NONE"
        if w.bismarck_gone():
            return True
    if auto_engage(w, side):
        named = {c.contact for o in script if isinstance(o, If) for c in (o.then, o.otherwise)
                 if isinstance(c, Engage)} | {o.contact for o in script if isinstance(o, Engage)}
        for c in sorted(w.contacts, key=lambda c: c.cid):
            if c.holder == side and c.cid not in named:
                _call(w, dice, side, Engage(c.cid), True, fought)
                if w.bismarck_gone():
                    return True
    return False


def _call(w: Work, dice, side: str, o: Engage, auto: bool, fought: set[str]) -> str:
    """Fight one called combat; WON/LOST/DRAWN from the caller's side, NONE if it cannot take place."""
    c = next((c for c in w.contacts if c.cid == o.contact and c.holder == side), None)
    if c is None or w.s.vis >= T.X or w.fog_blocks(c.hex):
        return "NONE"
    if c.hex in fought:  # there is only ever one naval battle per hex per turn [10]
        if not auto:
            w.tell(side, t_('ENGAGE %(contact)s: a naval battle was already fought in %(hex)s this turn, and a hex sees only one a turn [10]', contact=o.contact, hex=c.hex))
        return "NONE"
    targets = [x.id for x in w.unit_ships(c.unit) if x.cls != "TK"]
    uid = _calling_unit(w, side, o, c.hex)
    if not targets or uid is None:
        return "NONE"
    att = [x.id for x in w.unit_ships(uid) if x.cls != "TK"]
    if any(s in fought for s in att):
        w.tell(side, t_('ENGAGE %(contact)s: %(uid)s has already fought this turn', contact=o.contact, uid=uid))
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
