"""Phase 3B-3G [7]: task forces, orders that keep a ship in place, ship movement and flights."""
from __future__ import annotations

from pbem.core.texts import t_

from dataclasses import replace

from . import movement as M
from . import tables as T
from .board import board
from .model import Air, to_json
from .verbs import Detach, Fly, Form, Join, Move, Order, Patrol, Port, Refuel, Repair, Rtb
from .work import SIDES, Work, enemy


# --- 3B task forces [7.2] ------------------------------------------------------------------
def task_forces(w: Work, orders: list[Order]) -> None:
    for o in orders:
        if isinstance(o, Form):
            for sid in o.ships:
                w.set(sid, tf=o.tf)
        elif isinstance(o, Join):
            w.set(o.ship, tf=o.tf)
        elif isinstance(o, Detach):
            w.set(o.ship, tf=None)
    w.dissolve_small_tfs()


# --- 3C-3F repair, port, refuel, patrol, RTB [7.3-7.6, 7.7.2] ----------------------------------
def _torps(sid: str) -> int:
    return T.units()["ships"][sid]["torps"]


def _without(markers: tuple[str, ...], marker: str) -> tuple[str, ...]:
    return tuple(m for m in markers if m != marker)


def repair(w: Work, dice, o: Repair) -> None:
    sid = o.ship
    x = w.ships[sid]
    r = T.d10(dice, t_('repair at sea %(sid)s', sid=sid), (x.side,))
    pts = T.repair_result(r, w.s.weather)
    w.set(sid, markers=x.markers + ("repair",))
    mod = r + (T.tables()["repair"]["weather_7_9"] if w.s.weather >= 7 else
               T.tables()["repair"]["weather_4_6"] if w.s.weather >= 4 else 0)
    if mod == 0 and x.rudder:
        w.set(sid, rudder=False)
        w.tell(x.side, t_('repair at sea: %(sid)s rolls %(r)s (modified %(mod)s): rudder repaired', sid=sid, r=r, mod=mod))
        return
    if pts:
        total = min(0, sum(x.ee) + pts)
        w.return_ee(x.ee)
        w.set(sid, ee=(total,) if total else ())
        if not total and "rtb" in x.markers:
            w.set(sid, markers=_without(w.ships[sid].markers, "rtb"))
    w.tell(x.side, t_('repair at sea: %(sid)s rolls %(r)s (modified %(mod)s): %(v)s', sid=sid, r=r, mod=mod, v=f'+{pts} ER' if pts else t_('failure')))


def port(w: Work, dice, o: Port) -> None:
    x = w.ships[o.ship]
    w.set(x.id, fuel=min(x.fuel_max, x.fuel + 4), torps=_torps(x.id), markers=x.markers + ("port",), emergency=-1)
    if "rtb" in x.markers:
        w.set(x.id, markers=_without(w.ships[x.id].markers, "rtb"))


def refuel(w: Work, dice, o: Refuel) -> None:
    x = w.ships[o.ship]
    add = 2 if x.cls == "DD" else 4
    w.set(x.id, fuel=min(x.fuel_max, x.fuel + add), torps=_torps(x.id), emergency=-1,
          markers=_without(x.markers, "rtb") + ("refuel",))
    t = w.ships[o.tanker]
    w.set(t.id, markers=t.markers + ("refuel",))


def patrol(w: Work, dice, o: Patrol) -> None:
    ships = w.unit_ships(o.unit)
    if ships:
        w.set(ships[0].id, markers=ships[0].markers + ("patrol",))
        for x in ships[1:]:
            w.set(x.id, markers=x.markers + ("patrol-tf",))


def rtb(w: Work, dice, o: Rtb) -> None:
    x = w.ships[o.ship]
    w.set(x.id, markers=x.markers + ("rtb",))


STAYS = {Repair: repair, Port: port, Refuel: refuel, Patrol: patrol, Rtb: rtb}


def stay_orders(w: Work, dice, orders: list[Order]) -> None:
    for o in orders:
        if type(o) in STAYS:
            STAYS[type(o)](w, dice, o)  # type: ignore[operator]


# --- 3G movement [7.7] --------------------------------------------------------------------------
def movement(w: Work, by: dict[str, list[Order]]) -> None:
    """Ships first (carriers before their aircraft), returning DDs, then air; unmoved ships rest."""
    for side in SIDES:
        for o in by[side]:
            if isinstance(o, Move):
                move_unit(w, side, o.unit, list(o.path), announce=False)
    force_dds_home(w)
    for side in SIDES:
        flights(w, side, by[side])
    for x in w.afloat():
        if x.id not in w.paths and x.id not in w.s.moved:
            w.set(x.id, moved_last=0)


def move_unit(w: Work, side: str, uid: str, path: list[str], announce: bool) -> None:
    ships = w.unit_ships(uid)
    if not ships or not path:
        return
    why = M.check_path(side, [to_json(x) for x in ships], path, [to_json(x) for x in w.afloat(side)])
    if why:
        w.tell(side, t_('%(uid)s cannot move: %(why)s', uid=uid, why=why))
        return
    start = ships[0].hex
    for x in ships:
        _move_ship(w, side, x.id, path)
        w.paths[x.id] = [start] + path
    w.s = replace(w.s, moved=tuple(sorted(set(w.s.moved) | {x.id for x in ships})))
    if announce:
        _announce(w, side, uid, path)
    _check_port_end(w, uid)


def _move_ship(w: Work, side: str, sid: str, path: list[str]) -> None:
    """Pay the fuel (emergency fuel when it runs out [7.7.2]) and take the slow ships' NO MVT marker."""
    x = w.ships[sid]
    cost = M.fuel_cost(x.speed, x.moved_last, len(path))
    fuel = x.fuel - cost
    kw: dict = {"hex": path[-1], "moved_last": len(path), "fuel": fuel}
    if x.speed in ("F", "M") and cost and fuel <= 0 and x.emergency < 0:
        kw["emergency"] = w.s.turn + 10
        w.tell(side, t_('%(id)s is out of fuel: emergency fuel until the %(v)s [7.7.2]', id=x.id, v=T.turn_name(w.s.turn + 10)))
    if x.speed == "VS":
        kw["no_mvt"] = 4
    elif x.speed == "S":
        kw["no_mvt"] = 2
    w.set(x.id, **kw)


def _announce(w: Work, side: str, uid: str, path: list[str]) -> None:
    """A Shadowed unit announces its new hex, or that it entered fog and the contact is lost [7.1]."""
    c = w.contact_on(uid)
    fogged = next((h for h in path if w.fog_blocks(h)), None)
    if fogged:
        w.say(t_('Shadowed unit %(v)s enters fog in %(fogged)s; contact lost', v=c.cid if c else uid, fogged=fogged), kind="announce")
        w.tell(side, t_('%(uid)s announced entering fog in %(fogged)s', uid=uid, fogged=fogged))
        if c:
            w.drop_contact(c)
    elif c:
        w.contacts[w.contacts.index(c)] = replace(c, hex=path[-1])
        w.say(t_('Shadowed unit %(cid)s moves to %(v)s', cid=c.cid, v=path[-1]), to=(enemy(side),), kind="announce")
        w.tell(side, t_('%(uid)s announced its move to %(v)s', uid=uid, v=path[-1]))


def _check_port_end(w: Work, uid: str) -> None:
    b = w.ships.get("bismarck")
    if b and b.afloat and w.unit_of("bismarck") == uid:
        p = board().ports.get(b.hex)
        if p and p.side == "german" and p.country in ("france", "norway") and not w.s.ended:
            w.s = replace(w.s, ended=f"port-{p.country}")
            w.say(t_('Bismarck enters %(name)s: the game ends', name=p.name), kind="end")


def force_dds_home(w: Work) -> None:
    """German DDs outside the restriction line when the RTB exception has ended go back as soon as
    possible [7.7.2]: one that no order moved this turn is moved toward the line by its full allowance."""
    own = [to_json(x) for x in w.afloat("german")]
    for x in w.afloat("german"):
        d = to_json(w.ships[x.id])
        if x.id in w.paths or x.id in w.s.moved or not M.must_return(d, own):
            continue
        limit, why = M.ship_limit(d)
        if limit == 0:
            w.tell("german", t_('%(id)s must return behind the destroyer restriction line but cannot move this turn (%(why)s) [7.7.2]', id=x.id, why=why))
            continue
        if x.tf:  # it leaves its task force unless the whole TF is returning destroyers
            mates = w.unit_ships(x.tf)
            if not all(m.cls == "DD" for m in mates) or any(m.id in w.paths for m in mates):
                w.set(x.id, tf=None)
                w.dissolve_small_tfs()
                w.retarget_contacts()
        uid = w.unit_of(x.id)
        path = M.return_path(to_json(w.ships[x.id]), limit)
        if not path:
            continue
        move_unit(w, "german", uid, path, announce=False)
        w.tell("german", t_('%(uid)s must return behind the destroyer restriction line as soon as possible: moved to %(v)s [7.7.2]', uid=uid, v=path[-1]))


# --- air [7.7.1] ----------------------------------------------------------------------------
def flights(w: Work, side: str, orders: list[Order]) -> None:
    """Flight paths drop their markers; aircraft aloft without an order land by the shortest way."""
    flown = set()
    for o in orders:
        if isinstance(o, Fly):
            _fly(w, side, o)
            flown.add(o.air)
    for a in sorted(w.air.values(), key=lambda a: a.id):
        if a.side == side and a.status == "aloft" and a.id not in flown:
            w.air[a.id] = replace(a, status="landing", hex=None)


def _fly(w: Work, side: str, o: Fly) -> None:
    a = w.air[o.air]
    for h in o.search:
        w.search_markers[(side, h)] = w.search_markers.get((side, h), 0) + 1
    for h in o.attack:
        w.attack_markers.append((side, a.id, h))
    if o.path[-1] == _base_hex(w, a):
        w.air[a.id] = replace(a, status="landing", hex=None)
    else:
        w.air[a.id] = replace(a, status="aloft", hex=o.path[-1])


def _base_hex(w: Work, a: Air) -> str | None:
    if a.base in w.ships:
        x = w.ships[a.base]
        return x.hex if x.afloat else None
    return a.base
