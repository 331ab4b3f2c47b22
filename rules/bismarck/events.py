"""The Random Events Phase [11]: submarine contact, random sighting, convoy hunting."""
from __future__ import annotations


from pbem.core.texts import join, t_

from dataclasses import replace

from pbem.core.interrupts import Ask

from . import battle, combat
from . import tables as T
from .board import board
from .work import SIDES, Work


CONVOY_QUESTION = t_("a convoy was found and your ON_CONVOY ASK order leaves it to you: ATTACK or IGNORE")


def random_events(w: Work, by: dict, dice) -> None:
    if T.submarine_turn(w.s.turn):
        submarine(w, by, dice)
    random_sighting(w, dice)
    convoy_hunt(w, by, dice)


def _pick_by_class(w: Work, dice, ships, owner: str, why: str):
    """Class roll when classes differ (0-2 capital, 3-5 cruiser, 6-9 DD; absent -> DD; no DD -> re-roll) [11.1]."""
    if not ships:
        return None
    for _ in range(10):
        if len({x.cls for x in ships}) == 1:
            pool = ships
        else:
            r = T.d10(dice, why, SIDES)
            pool = [x for x in ships if x.cls in T.sub_class(r)] or [x for x in ships if x.cls == "DD"]
        if pool:
            return w.ships[combat.choose_ship(w, owner, pool)]
    return None


def submarine(w: Work, by: dict, dice) -> None:
    r = T.d10(dice, t_("submarine contact"), SIDES)
    sm = T.tables()["submarine"]
    if r > sm["contact_max"]:
        w.say(t_('submarine contact roll %(r)s: no contact', r=r), kind="submarine")
        return
    r2 = T.d10(dice, t_("submarine attack table"), SIDES)
    if r2 <= sm["allied_sub_max"]:
        cands = [x for x in w.afloat("german") if x.cls != "TK" and x.hex in board().eastern]
        x = _pick_by_class(w, dice, cands, "german", t_("submarine class roll"))
        if x is None:
            w.say(t_("submarine: an Allied submarine finds no German ship in the Eastern Air Cover zone"),
                      kind="submarine")
            return
        tf = x.tf is not None
        w.tell("allied", t_('Allied submarine: a German %(cls)s in %(hex)s%(v)s', cls=x.cls, hex=x.hex, v=t_(', in a task force') if tf else ''))
        w.tell("german", t_('an Allied submarine finds your %(id)s in %(hex)s', id=x.id, hex=x.hex))
        drm = T.hit_drm(vis=w.s.vis, target_er=x.er_now, kind="sub")
        lines = combat.hit_attack(w, dice, x.id, drm, t_("Allied submarine attack on a %(cls)s", cls=x.cls))
        w.check_sunk(x.id, t_("submarine"))
        w.say(join("; ", lines), kind="submarine")
        return
    named = (w.std_lines("german", "SUB_HEX") or [[]])[-1]
    h = named[1] if len(named) > 1 else None
    if h is None:
        w.say(t_("German submarine: the German names no hex"), kind="submarine")
        return
    cands = [x for x in w.afloat("allied") if board().distance(x.hex, h) <= sm["range"]]
    x = _pick_by_class(w, dice, cands, "allied", t_("submarine class roll"))
    if x is None:
        w.say(t_('German submarine near %(h)s: no Allied ship within %(range)s hexes', h=h, range=sm['range']), kind="submarine")
        return
    w.tell("german", t_('German submarine near %(h)s: an Allied %(cls)s in %(hex)s%(v)s', h=h, cls=x.cls, hex=x.hex, v=t_(', in a task force') if x.tf else ''))
    w.tell("allied", t_('a German submarine reports your %(id)s in %(hex)s', id=x.id, hex=x.hex))
    if r2 > sm["german_sub_max"]:
        drm = T.hit_drm(vis=w.s.vis, target_er=x.er_now, kind="sub")
        lines = combat.hit_attack(w, dice, x.id, drm, t_("German submarine attack on a %(cls)s", cls=x.cls))
        w.check_sunk(x.id, t_("submarine"))
        w.say(join("; ", lines), kind="submarine")


def random_sighting(w: Work, dice) -> None:
    """One roll per German ship not in a TF and per TF; the Allied side learns only the results [11.2]."""
    for uid in w.units("german"):
        ships = w.unit_ships(uid)
        h = ships[0].hex
        col = board().random_sighting_column(h)
        value = T.sighting_value(col, w.s.vis)
        r = T.d10(dice, t_("random sighting"), ("german",))
        if r == 0:
            w.tell("allied", t_('random sighting: a bearing on a German unit in %(h)s', h=h))
            w.tell("german", t_('random sighting: %(uid)s gave a bearing in %(h)s', uid=uid, h=h))
        elif r <= value:
            c = w.mark("allied", uid, "shadowed", "random sighting")
            if c:
                w.tell("allied", t_('random sighting: %(cid)s in %(h)s: %(v)s, shadowed', cid=c.cid, h=h, v=w.describe(c.classes, c.tf)))
                w.tell("german", t_('random sighting: %(uid)s located in %(h)s', uid=uid, h=h))


def hunters(w: Work) -> list[str]:
    """Units that may hunt convoys: BB/BC/CA on a convoy line outside the air sector, not shadowed this turn [11.3]."""
    b = board()
    out = []
    for uid in w.units("german"):
        ships = w.unit_ships(uid)
        h = ships[0].hex
        if h not in b.convoy or h in b.sector or uid in w.s.shadowed_now:
            continue
        if not any(x.cls in T.HEAVY and "rtb" not in x.markers for x in ships):
            continue
        if any(m in x.markers for x in ships for m in ("port", "refuel", "repair")):
            continue
        out.append(uid)
    return out


def convoy_hunt(w: Work, by: dict, dice) -> None:
    pol = (w.std_lines("german", "HUNT") or [["", "AUTO"]])[-1][1]
    ok = hunters(w)
    uid = ok[0] if pol.upper() == "AUTO" and ok else next((u for u in ok if u.upper() == pol.upper()), None)
    if uid is None:
        return
    ships = w.unit_ships(uid)
    h = ships[0].hex
    line = board().convoy[h]
    drm = T.hunt_drm(tf=len(ships) > 1, central=line == "c", night=T.is_night(w.s.turn))
    r = T.d10(dice, t_("convoy hunting"), ("german",))
    m = r + drm
    t = T.tables()["convoy_hunt"]
    if m <= t["contact_max"]:
        r2 = T.d10(dice, t_("convoy identification"), ("german",))
        lines = {"e": ["ew"], "c": ["ew"], "n": ["ns"], "x": ["ew", "ns"]}[line]
        conv = next((c for c in (T.convoy_for(r2, ln) for ln in lines) if c and c["name"] not in w.s.located), None)
        if conv is None:
            w.tell("german", t_('convoy hunting with %(uid)s: roll %(r)s%(drm)+d, identification %(r2)s: no convoy', uid=uid, r=r, drm=drm, r2=r2))
            return
        w.tell("german", t_('convoy hunting with %(uid)s: convoy %(name)s found (escort: %(v)s)', uid=uid, name=conv['name'], v=', '.join(escort(w, conv)) or t_('none')))
        pol2 = (w.std_lines("german", "ON_CONVOY") or [["", "ATTACK"]])[-1][1].upper()
        if pol2 == "ASK":
            w.kit.interrupt("convoy", [Ask("german", "convoy", CONVOY_QUESTION, "IGNORE", ("ATTACK", "IGNORE"))],
                            unit=uid, convoy=conv["name"])
            return
        if pol2 == "ATTACK":
            attack_convoy(w, dice, uid, conv)
    elif m <= t["merchant"]:
        pol3 = (w.std_lines("german", "ON_MERCHANT") or [["", "ATTACK"]])[-1][1].upper()
        if pol3 == "ATTACK":
            w.s = replace(w.s, merchants=w.s.merchants + 1)
            w.tell("german", t_('%(uid)s sinks a single merchant ship in %(h)s (+0.5 VP, secret)', uid=uid, h=h))
            _after_attack(w, uid, h, "a merchant ship reports a German raider")
    else:
        w.tell("german", t_('convoy hunting with %(uid)s: roll %(r)s%(drm)+d: only open sea', uid=uid, r=r, drm=drm))


def escort(w: Work, conv: dict) -> list[str]:
    return [s for s in conv["escort"] if s in w.ships and w.ships[s].status in ("escort", "restricted")]


def attack_convoy(w: Work, dice, uid: str, conv: dict) -> None:
    ships = w.unit_ships(uid)
    h = ships[0].hex
    w.s = replace(w.s, located=w.s.located + (conv["name"],))
    esc = escort(w, conv)
    if esc:
        for s in esc:
            w.set(s, status="sea", hex=h, tf=None, markers=())
        att = [x.id for x in ships if x.cls != "TK"]
        log = battle.fight(w, dice, "german", att, esc, h, no_abort="allied")
        combat.record_battle(w, h, log, att + esc)
        if any(w.ships[s].afloat for s in esc):
            w.tell("german", t_('the escort of %(name)s survives: no VP markers', name=conv['name']))
            _after_attack(w, uid, h, f"convoy {conv['name']} is attacked")
            return
    n = conv["markers"]
    drawn = [w.draw_vp(dice) for _ in range(n)]
    half = bool(conv.get("half"))
    w.s = replace(w.s, convoy_vp=w.s.convoy_vp + tuple((v, half) for v in drawn))
    w.tell("german", t_('convoy %(name)s destroyed: VP markers %(drawn)s%(v)s (secret)', name=conv['name'], drawn=drawn, v=t_(' (halved at the end)') if half else ''))
    _after_attack(w, uid, h, f"convoy {conv['name']} is attacked")


def _after_attack(w: Work, uid: str, h: str, what: str) -> None:
    """Reveal the location, Sighted, NO MVT-2 [11.3]."""
    if not w.unit_ships(uid):
        return
    c = w.mark("allied", uid, "sighted", "convoy attack")
    for x in w.unit_ships(uid):
        w.set(x.id, no_mvt=2)
    if c:
        w.tell("allied", t_('%(what)s in %(h)s: %(cid)s, %(v)s, sighted', what=what, h=h, cid=c.cid, v=w.describe(c.classes, c.tf)))
