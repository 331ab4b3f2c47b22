"""The sequence of play [4]: setup, the eight phases grouped into PBEM windows, and victory [4, 12]."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.errors import RulesetDefinitionError

from . import combat
from . import movement as M
from . import tables as T
from .board import board
from .events import random_events
from .model import Air, Ship, State, put, to_json
from .orders import standing_key
from .search import search_phase
from .shadow import prune, shadow_phase
from .work import SIDES, Work, enemy


# --- setup [3] ---------------------------------------------------------------------
def setup(scenario: str, options: dict, dice) -> State:
    scen = T.scenarios().get(scenario)
    if scen is None:
        raise RulesetDefinitionError(f"unknown scenario {scenario}")
    udata = T.units()
    b = board()
    ships: dict[str, Ship] = {}
    tf_of = {sid: tf for tf, ids in scen.get("tfs", {}).items() if tf not in ("provenance", "ref") for sid in ids}
    fuel = scen.get("fuel", {})
    ee = scen.get("evasion", {})
    placed = {k: v for k, v in scen["ships"].items() if k not in ("provenance", "ref", "note")}
    sched = T.schedule().get(scenario, {})
    reinf = {k: v for k, v in sched.get("reinforcements", {}).items() if isinstance(v, dict)}
    restricted = {k: v for k, v in sched.get("restricted", {}).items() if isinstance(v, dict)}
    escorts = T.escorts()
    for sid, u in sorted(udata["ships"].items()):
        if not isinstance(u, dict):
            continue
        status, h = None, None
        if sid in placed:
            status, h = "sea", placed[sid]
        elif sid in escorts:  # every escort starts RESTRICTED with its convoy [11.3, 12]
            status = "escort"
        elif sid in reinf:
            status = "pending"
        elif sid in restricted:
            status = "restricted"
        elif sid in T.tables()["optional_units"] and options.get(sid.replace("-", "_")):
            status, h = "sea", T.tables()["optional_units"][sid]["hex"]
        if status is None:
            continue
        if h is not None and h not in b.sea:
            raise RulesetDefinitionError(f"scenario {scenario}: {sid} starts on land or off the map ({h})")
        cap = u["fuel"] if u["speed"] in ("F", "M") else 0
        ships[sid] = Ship(id=sid, side=u["side"], cls=u["cls"], er=u["er"], speed=u["speed"], fuel_max=cap,
                          hex=h, status=status, tf=tf_of.get(sid), fuel=fuel.get(sid, cap), ee=tuple(ee.get(sid, ())),
                          hull=u["hull"], bow=u["bow"], stern=u["stern"], sec=u["sec"], radar=u["radar"],
                          markers=("restricted",) if status in ("escort", "restricted") else ())
    air = {}
    for aid, a in sorted(udata["air"].items()):
        if not isinstance(a, dict):
            continue
        if a["base"] in udata["ships"] and (a["base"] not in ships or ships[a["base"]].status != "sea"):
            continue
        air[aid] = Air(aid, a["side"], a["type"], a["speed"], a["range"], a["base"])
    start = T.turn_index(scen["start"])
    opt_vp, revealed = 0, []
    for name, o in sorted(T.tables()["optional_units"].items()):
        if isinstance(o, dict) and options.get(name.replace("-", "_")):
            opt_vp += o["vp"]
            side = ships[name].side
            r = T.d10(dice, f"reveal roll for optional {name}", (side,))
            if r <= o["reveal_max"]:
                revealed.append(name)
    state = State(scenario=scenario, options=tuple(sorted((k, v) for k, v in options.items())), turn=start,
                  start=start, last=T.turn_index(scen["last"]), step="weather", weather=scen["weather"], fog=False,
                  vis=0, ships=tuple(ships[k] for k in sorted(ships)), air=tuple(air[k] for k in sorted(air)),
                  ee_bag=T.bag("evasion"), damage_bag=T.bag("damage"), vp_bag=T.bag("convoy_vp"),
                  reinforcements=tuple(sorted((k, T.turn_index(v["turn"]), v["hex"]) for k, v in reinf.items()
                                              if k in ships)),
                  releases=tuple(sorted((k, T.turn_index(v["release_from"]), v["hex"]) for k, v in restricted.items()
                                        if "release_from" in v and k in ships and ships[k].status != "sea")),
                  lifts=tuple(sorted((k, T.turn_index(v["lift_turn"]) if "lift_turn" in v else -1, v.get("lift_on", ""),
                                      v["hex"]) for k, v in restricted.items()
                                     if ("lift_turn" in v or "lift_on" in v) and k in ships
                                     and ships[k].status != "sea")),
                  optional_vp=opt_vp, revealed_optional=tuple(revealed),
                  standing=(("allied", ("SHADOW ON", "AUTO_ENGAGE ON")),
                            ("german", ("HUNT AUTO", "ON_MERCHANT ATTACK", "ON_CONVOY ATTACK"))))
    w = Work(state)
    for sid in sorted(ships):
        x = ships[sid]
        if x.ee:
            bag = list(w.s.ee_bag)
            for v in x.ee:
                if v in bag:
                    bag.remove(v)
            w.s = replace(w.s, ee_bag=tuple(bag))
    for sid in scen.get("contacts", {}).get("allied", []):
        w.mark("allied", w.unit_of(sid), "shadowed", "setup")
    for name in revealed:
        w.public(f"optional unit in play: {name}", "setup")
    return w.freeze(vis=T.visibility(state.weather, start), fog=state.weather >= T.tables()["weather"]["fog_from"])


# --- phase 1 and 2: visibility and shadow [5, 6] -----------------------------------------
def visibility_phase(w: Work, dice) -> None:
    s = w.s
    wt = T.tables()["weather"]
    if s.turn != s.start:  # turn 1 skips the visibility and shadow phases [3]
        r = T.d10(dice, "weather change", SIDES)
        drm = T.weather_drm(s.weather)
        shift = T.weather_shift(r + drm)
        weather = max(wt["min"], min(wt["max"], s.weather + shift))
        fog = weather >= wt["fog_from"]
        vis = T.visibility(weather, s.turn)
        w.s = replace(s, weather=weather, fog=fog, vis=vis)
        w.public(f"{T.turn_name(s.turn)}: weather roll {r}{drm:+d} -> weather {weather}"
                 f"{', fog in fog hexes' if fog else ''}, visibility {T.vis_text(vis)}", "weather")
        for c in list(w.contacts):
            if vis >= T.X or (fog and c.hex in board().fog):
                w.drop_contact(c)
        if weather >= wt["fuel_roll_at"]:
            r2 = T.d10(dice, "heavy weather fuel roll", SIDES)
            if r2 <= wt["fuel_roll_max"]:
                w.public("heavy weather: every ship spends 1 FP", "weather")
                for x in w.afloat():
                    if x.speed in ("F", "M"):
                        w.set(x.id, fuel=max(0, x.fuel - 1))
        shadow_phase(w, dice)
    else:
        w.public(f"{T.turn_name(s.turn)}: weather {s.weather}, visibility {T.vis_text(s.vis)}", "weather")
    # 2B: remove all remaining Sighted markers
    w.contacts = [c for c in w.contacts if c.status == "shadowed"]
    prune(w)


def shadowed_units(w: Work, side: str) -> list[str]:
    """The side's units that carry an enemy Shadowed marker [7.1]."""
    return sorted({c.unit for c in w.contacts if c.holder == enemy(side) and c.status == "shadowed"
                   and w.unit_ships(c.unit)})


def next_after_weather(w: Work) -> str:
    if shadowed_units(w, "german"):
        return "shadowed-german"
    if shadowed_units(w, "allied"):
        return "shadowed-allied"
    return "orders"


# --- phase 3: movement [7] ------------------------------------------------------------
def move_unit(w: Work, side: str, uid: str, path: list[str], announce: bool) -> None:
    ships = w.unit_ships(uid)
    if not ships or not path:
        return
    dicts = [to_json(x) for x in ships]
    why = M.check_path(side, dicts, path, [to_json(x) for x in w.afloat(side)])
    if why:
        w.tell(side, f"{uid} cannot move: {why}")
        return
    start = ships[0].hex
    for x in ships:
        cost = M.fuel_cost(x.speed, x.moved_last, len(path))
        fuel = x.fuel - cost
        kw = {"hex": path[-1], "moved_last": len(path), "fuel": fuel}
        if x.speed in ("F", "M") and cost and fuel <= 0 and x.emergency < 0:
            kw["emergency"] = w.s.turn + 10
            w.tell(side, f"{x.id} is out of fuel: emergency fuel until the {T.turn_name(w.s.turn + 10)} [7.7.2]")
        if x.speed == "VS":
            kw["no_mvt"] = 4
        elif x.speed == "S":
            kw["no_mvt"] = 2
        w.set(x.id, **kw)
        w.paths[x.id] = [start] + path
    w.s = replace(w.s, moved=tuple(sorted(set(w.s.moved) | {x.id for x in ships})))
    if announce:
        c = w.contact_on(uid)
        fogged = next((h for h in path if w.fog_blocks(h)), None)
        if fogged:
            w.public(f"Shadowed unit {c.cid if c else uid} enters fog in {fogged}; contact lost", "announce")
            w.tell(side, f"{uid} announced entering fog in {fogged}")
            if c:
                w.drop_contact(c)
        elif c:
            w.contacts[w.contacts.index(c)] = replace(c, hex=path[-1])
            w.event(f"Shadowed unit {c.cid} moves to {path[-1]}", (enemy(side),), "announce")
            w.tell(side, f"{uid} announced its move to {path[-1]}")
    _check_port_end(w, uid)


def _check_port_end(w: Work, uid: str) -> None:
    b = w.ships.get("bismarck")
    if b and b.afloat and w.unit_of("bismarck") == uid:
        p = board().ports.get(b.hex)
        if p and p.side == "german" and p.country in ("france", "norway") and not w.s.ended:
            w.s = replace(w.s, ended=f"port-{p.country}")
            w.public(f"Bismarck enters {p.name}: the game ends", "end")


def shadowed_move(w: Work, side: str, orders: dict) -> None:
    """3A: Shadowed units move first and announce [7.1]."""
    _take_standing(w, side, orders)
    for o in orders.get("orders", []):
        if o["verb"] == "MOVE":
            move_unit(w, side, o["unit"], o["path"], announce=True)
    for uid in shadowed_units(w, side):
        if not any(w.ships[x.id].id in w.s.moved for x in w.unit_ships(uid)):
            c = w.contact_on(uid)
            if c:
                w.event(f"Shadowed unit {c.cid} stays in {c.hex}", (enemy(side),), "announce")
    w.s = replace(w.s, moved=tuple(sorted(set(w.s.moved) | {x.id for u in shadowed_units(w, side)
                                                             for x in w.unit_ships(u)})))


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
            w.tell("german", f"{x.id} must return behind the destroyer restriction line but cannot move this turn"
                             f" ({why}) [7.7.2]")
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
        w.tell("german", f"{uid} must return behind the destroyer restriction line as soon as possible: "
                         f"moved to {path[-1]} [7.7.2]")


def _take_standing(w: Work, side: str, orders: dict) -> None:
    lines = list(w.std(side))
    for new in orders.get("standing", []):
        k = standing_key(new.split())
        lines = [ln for ln in lines if standing_key(ln.split()) != k] + [new]
    w.s = replace(w.s, standing=put(w.s.standing, side, tuple(lines)))


def main_orders(w: Work, orders: dict, dice) -> None:
    """3B-3H, then Search, Air Attack, Naval Combat and Random Events [7-11]."""
    for side in SIDES:
        _take_standing(w, side, orders.get(side, {}))
    by = {side: orders.get(side, {}).get("orders", []) for side in SIDES}
    # 3B task forces
    for side in SIDES:
        for o in by[side]:
            if o["verb"] == "FORM":
                for sid in o["ships"]:
                    w.set(sid, tf=o["tf"])
            elif o["verb"] == "JOIN":
                w.set(o["ship"], tf=o["tf"])
            elif o["verb"] == "DETACH":
                w.set(o["ship"], tf=None)
        w.dissolve_small_tfs()
    # 3C-3F repair, port, refuel, patrol, RTB
    for side in SIDES:
        for o in by[side]:
            v = o["verb"]
            if v == "REPAIR":
                _repair(w, dice, o["ship"])
            elif v == "PORT":
                x = w.ships[o["ship"]]
                w.set(x.id, fuel=min(x.fuel_max, x.fuel + 4), torps=_torps(x.id), markers=x.markers + ("port",),
                      emergency=-1)
                if "rtb" in x.markers:
                    w.set(x.id, markers=tuple(m for m in w.ships[x.id].markers if m != "rtb"))
            elif v == "REFUEL":
                x = w.ships[o["ship"]]
                add = 2 if x.cls == "DD" else 4
                w.set(x.id, fuel=min(x.fuel_max, x.fuel + add), torps=_torps(x.id), emergency=-1,
                      markers=tuple(m for m in x.markers if m != "rtb") + ("refuel",))
                t = w.ships[o["tanker"]]
                w.set(t.id, markers=t.markers + ("refuel",))
            elif v == "PATROL":
                ships = w.unit_ships(o["unit"])
                if ships:
                    w.set(ships[0].id, markers=ships[0].markers + ("patrol",))
                    for x in ships[1:]:
                        w.set(x.id, markers=x.markers + ("patrol-tf",))
            elif v == "RTB":
                x = w.ships[o["ship"]]
                w.set(x.id, markers=x.markers + ("rtb",))
    # 3G movement: ships first (carriers before their aircraft), then air
    for side in SIDES:
        for o in by[side]:
            if o["verb"] == "MOVE":
                move_unit(w, side, o["unit"], o["path"], announce=False)
    force_dds_home(w)
    for side in SIDES:
        flown = set()
        for o in by[side]:
            if o["verb"] == "FLY":
                _fly(w, side, o)
                flown.add(o["air"])
        for a in sorted(w.air.values(), key=lambda a: a.id):
            if a.side == side and a.status == "aloft" and a.id not in flown:
                w.air[a.id] = replace(a, status="landing", hex=None)  # lands by the shortest way
    for x in w.afloat():
        if x.id not in w.paths and x.id not in w.s.moved:
            w.set(x.id, moved_last=0)
    if w.s.ended:
        return
    # 3H Shadowed -> Sighted
    w.retarget_contacts()
    w.contacts = [replace(c, status="sighted") if c.status == "shadowed" else c for c in w.contacts]
    search_phase(w, by)
    combat.air_attacks(w, dice)
    if _bismarck_gone(w):
        return
    w.kw["release"] = [o["ship"] for o in by["allied"] if o["verb"] == "RELEASE"]
    undeclared = [side for side in SIDES if not w.std_lines(side, "DOCTRINE")]
    if w.option("battle_doctrine", "standing") == "ask" and undeclared and planned_combats(w, by):
        # a battle is coming and a side has declared no doctrine: the one decision nothing covers
        calls = tuple(" ".join([f"ENGAGE {side} {o['contact']} {o.get('unit') or '-'}"] + (o.get("cond") or []))
                      for side in SIDES for o in by[side] if o["verb"] == "ENGAGE")
        w.s = replace(w.s, pending=("doctrine", ",".join(undeclared)) + calls
                      + tuple(f"RELEASE {x}" for x in w.kw["release"]))
        w.kw["release"] = []
        return
    finish_turn(w, by, dice)


def finish_turn(w: Work, by: dict, dice) -> None:
    """Phases 6 and 7: naval combat and random events [10, 11]."""
    naval_phase(w, by, dice)
    if _bismarck_gone(w):
        return
    random_events(w, by, dice)


def planned_combats(w: Work, by: dict) -> bool:
    """Will a naval combat be called this turn (an ENGAGE order, or AUTO_ENGAGE with a contact in a shared hex)?"""
    for side in SIDES:
        if any(o["verb"] == "ENGAGE" for o in by[side]):
            return True
        if (w.std_lines(side, "AUTO_ENGAGE") or [["", "OFF"]])[-1][1].upper() == "ON":
            for c in w.contacts:
                if c.holder == side and any(x.hex == c.hex for x in w.afloat(side)):
                    return True
    return False


def resume_after_doctrine(w: Work, orders: dict, dice) -> None:
    """The doctrine interrupt answered (or defaulted): take the new standing orders and fight [10]."""
    for side in SIDES:
        _take_standing(w, side, orders.get(side, {}))
        if not w.std_lines(side, "DOCTRINE"):
            _take_standing(w, side, {"standing": ["DOCTRINE ALL CLOSE"]})
    by: dict = {side: [] for side in SIDES}
    release = []
    for item in w.s.pending[2:]:
        words = item.split()
        if words[0] == "ENGAGE":
            by[words[1]].append({"verb": "ENGAGE", "contact": words[2], "unit": None if words[3] == "-" else words[3],
                                 "cond": words[4:] or None})
        elif words[0] == "RELEASE":
            release.append(words[1])
    w.s = replace(w.s, pending=())
    w.kw["release"] = release
    finish_turn(w, by, dice)


def _torps(sid: str) -> int:
    return T.units()["ships"][sid]["torps"]


def _repair(w: Work, dice, sid: str) -> None:
    x = w.ships[sid]
    r = T.d10(dice, f"repair at sea {sid}", (x.side,))
    pts = T.repair_result(r, w.s.weather)
    w.set(sid, markers=x.markers + ("repair",))
    mod = r + (T.tables()["repair"]["weather_7_9"] if w.s.weather >= 7 else
               T.tables()["repair"]["weather_4_6"] if w.s.weather >= 4 else 0)
    if mod == 0 and x.rudder:
        w.set(sid, rudder=False)
        w.tell(x.side, f"repair at sea: {sid} rolls {r} (modified {mod}): rudder repaired")
        return
    if pts:
        total = min(0, sum(x.ee) + pts)
        w.return_ee(x.ee)
        w.set(sid, ee=(total,) if total else ())
        if not total and "rtb" in x.markers:
            w.set(sid, markers=tuple(m for m in w.ships[sid].markers if m != "rtb"))
    w.tell(x.side, f"repair at sea: {sid} rolls {r} (modified {mod}): "
                   f"{'+' + str(pts) + ' ER' if pts else 'failure'}")


def _fly(w: Work, side: str, o: dict) -> None:
    a = w.air[o["air"]]
    for h in o["search"]:
        w.search_markers[(side, h)] = w.search_markers.get((side, h), 0) + 1
    for h in o["attack"]:
        w.attack_markers.append((side, a.id, h))
    end = o["path"][-1]
    base = _base_hex(w, a)
    if end == base:
        w.air[a.id] = replace(a, status="landing", hex=None)
    else:
        w.air[a.id] = replace(a, status="aloft", hex=end)


def _base_hex(w: Work, a: Air) -> str | None:
    if a.base in w.ships:
        x = w.ships[a.base]
        return x.hex if x.afloat else None
    return a.base


def _bismarck_gone(w: Work) -> bool:
    b = w.ships.get("bismarck")
    if b and b.status == "sunk" and not w.s.ended:
        w.s = replace(w.s, ended="sunk")
    return bool(w.s.ended)


# --- phase 6: naval combat [10] ---------------------------------------------------------
def naval_phase(w: Work, by: dict, dice) -> None:
    fought: set[str] = set()
    # tankers caught by Allied ships are sunk at once [2.3.1]
    for c in sorted(w.contacts, key=lambda c: c.cid):
        if c.holder != "allied":
            continue
        for x in w.unit_ships(c.unit):
            if x.cls == "TK" and any(a.hex == x.hex for a in w.afloat("allied")):
                w.sink(x.id, "a Sighted tanker in a hex with an Allied ship")
    for side in ("allied", "german"):  # the Allied player calls first [10]
        calls = [o for o in by[side] if o["verb"] == "ENGAGE"]
        auto = (w.std_lines(side, "AUTO_ENGAGE") or [["", "OFF"]])[-1][1].upper() == "ON"
        if auto:
            named = {o["contact"] for o in calls}
            calls += [{"contact": c.cid, "unit": None, "auto": True} for c in sorted(w.contacts, key=lambda c: c.cid)
                      if c.holder == side and c.cid not in named]
        previous = "NONE"
        for o in calls:
            # calls are taken one at a time, each after the previous battle's result is known [10]
            cond = o.get("cond")
            if cond and not condition_met(w, cond, previous):
                w.tell(side, f"ENGAGE {o['contact']}: condition IF {' '.join(cond)} not met "
                             f"(previous call: {previous.lower()}); not called")
                previous = "NONE"
                continue
            previous = _call(w, dice, side, o, fought)
            if o.get("cond") or not o.get("auto"):
                w.tell(side, f"ENGAGE {o['contact']}: {previous.lower() if previous != 'NONE' else 'no battle'}")
            if _bismarck_gone(w):
                return


def condition_met(w: Work, cond: list[str], previous: str) -> bool:
    """``IF PREVIOUS WON|LOST|DRAWN|NONE`` or ``IF <ship> AFLOAT|SUNK`` [10]."""
    if cond[0] == "PREVIOUS":
        return previous == cond[1]
    x = w.ships.get(cond[0])
    afloat = bool(x and x.afloat)
    return afloat if cond[1] == "AFLOAT" else not afloat


def _call(w: Work, dice, side: str, o: dict, fought: set[str]) -> str:
    """Fight one called combat; WON/LOST/DRAWN from the caller's side, NONE if it cannot take place."""
    c = next((c for c in w.contacts if c.cid == o["contact"] and c.holder == side), None)
    # an automatic call never opens a second battle in a hex; a named call may, with ships that have not fought
    if c is None or (o.get("auto") and c.hex in fought) or w.s.vis >= T.X or w.fog_blocks(c.hex):
        return "NONE"
    targets = [x.id for x in w.unit_ships(c.unit) if x.cls != "TK"]
    if not targets:
        return "NONE"
    h = c.hex
    own = [x for x in w.afloat(side) if x.hex == h and x.cls != "TK"
           and not any(m in x.markers for m in ("port", "refuel", "repair"))]
    if o.get("unit"):
        own = [x for x in w.unit_ships(o["unit"]) if x.hex == h and x.cls != "TK"]
    if not own:
        return "NONE"
    uid = w.unit_of(own[0].id) if not o.get("unit") else o["unit"]
    att = [x.id for x in w.unit_ships(uid) if x.cls != "TK"]
    if any(s in fought for s in att):
        w.tell(side, f"ENGAGE {o['contact']}: {uid} has already fought this turn")
        return "NONE"
    fought.update([h] + att)
    log = combat.fight(w, dice, side, att, targets, h)
    combat.record_battle(w, h, log, att + targets)
    return w.kw.get("last_battle", "DRAWN")


# --- phase 8: administration [12] ---------------------------------------------------------
RESTRICTED = ("escort", "restricted")  # off the map under a RESTRICTED marker


def administration(w: Work, release: list[str]) -> None:
    s = w.s
    nxt = s.turn + 1
    for sid, turn, h in s.reinforcements:
        if turn == nxt and w.ships[sid].status == "pending":
            w.set(sid, status="sea", hex=h, fuel=w.ships[sid].fuel_max)
            w.tell("allied", f"reinforcement: {sid} arrives in {h}")
    for sid in release:
        for rid, frm, h in s.releases:
            if rid == sid and s.turn >= frm and w.ships[sid].status in RESTRICTED:
                w.set(sid, status="sea", hex=h, markers=(), fuel=w.ships[sid].fuel_max)
                w.tell("allied", f"{sid} is released from escort duty and placed in {h}")
    located = any(c.holder == "allied" and "bismarck" in [x.id for x in w.unit_ships(c.unit)] for c in w.contacts)
    for sid, turn, event, h in s.lifts:
        if w.ships[sid].status not in RESTRICTED:
            continue
        why = ("its time has come" if 0 <= turn <= nxt else
               "Bismarck has been located" if event == "bismarck-located" and located else "")
        if why:
            w.set(sid, status="sea", hex=h, markers=(), fuel=w.ships[sid].fuel_max)
            w.tell("allied", f"{sid}: RESTRICTED marker removed ({why}); placed in {h} [12]")
    for a in sorted(w.air.values(), key=lambda a: a.id):
        if a.status == "refit":
            w.air[a.id] = replace(a, status="ready", hex=None)
        elif a.status == "landing":
            w.air[a.id] = replace(a, status="refit", hex=None)
        if a.base in w.ships and not w.ships[a.base].afloat and w.air[a.id].status != "aloft":
            w.air[a.id] = replace(w.air[a.id], status="lost")
    for x in w.afloat():
        markers = tuple(m for m in x.markers if m not in ("patrol", "patrol-tf", "repair", "port", "refuel",
                                                          "evasion"))
        w.set(x.id, markers=markers, no_mvt=max(0, x.no_mvt - 1))
        if x.emergency >= 0 and nxt >= x.emergency:
            w.set(x.id, status="removed", hex=None, tf=None)
            w.public(f"{x.id} ran out of emergency fuel and is lost", "fuel")
            if x.id == "bismarck":
                w.s = replace(w.s, ended="emergency-fuel")
    w.dissolve_small_tfs()
    w.retarget_contacts()
    if not w.s.ended and s.turn >= s.last:
        w.s = replace(w.s, ended="turn-track")


# --- victory [4] ---------------------------------------------------------------------------
def victory(state: State) -> dict:
    """German VP (one net total) and the winner."""
    v = T.tables()["victory"]
    ships = {x.id: x for x in state.ships}
    convoy = sum(((val + 1) // 2) if half else val for val, half in state.convoy_vp)
    merchants = state.merchants * T.tables()["convoy_hunt"]["merchant_vp"]
    ship_vp = 0
    for x in ships.values():
        sign = 1 if x.side == "allied" else -1
        printed = T.units()["ships"][x.id]["hull"]
        if x.status in ("sunk", "removed"):
            ship_vp += sign * (printed if x.cls in T.BIG else v["minor_sunk"])
        elif x.cls in T.BIG:
            ship_vp += sign * (x.hits // v["damage_hits_per_vp"])
    b = ships.get("bismarck")
    reason = state.ended
    if reason == "port-france":
        end = v["port_france"]
    elif reason == "port-norway":
        end = v["port_norway"]
    elif reason == "emergency-fuel":
        end = v["emergency_fuel"]
    elif reason == "sunk":
        end = 0
    elif b and b.afloat and not b.hits and not b.ee and not b.rudder and b.fuel >= v["at_sea_fit_fuel"]:
        end = v["at_sea_fit"]
    else:
        end = v["turn_track"]
    total = convoy + merchants + ship_vp + end + state.optional_vp
    strategic = (reason in ("port-france", "port-norway") and len(state.capital_kills) >= 2
                 and any(k in ("hood", "king-george-v", "prince-of-wales") for k in state.capital_kills))
    if reason == "sunk":
        winner, level = "allied", "Allied Operational Victory (Bismarck sunk)"
    elif strategic:
        winner, level = "german", "German Strategic Victory"
    elif total >= 1:
        winner, level = "german", "German Operational Victory"
    else:
        winner, level = "allied", "Allied Operational Victory"
    return {"vp": total, "convoy": convoy, "merchants": merchants, "ships": ship_vp, "end": end,
            "optional": state.optional_vp, "winner": winner, "level": level}
