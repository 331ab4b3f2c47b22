"""The tactical naval battle [10], fought from declared doctrine.

The Battle Map is a line of 9 Sea Zones of 2 Movement Zones each; positions are kept as absolute
movement zones with a sliding 18-zone window (the edge rule). Each side's ships act by the
standing DOCTRINE of their unit (CLOSE, STANDOFF or EVADE, torpedoes on/off, break off at a hull
value); nothing in a battle waits for a player.  A round: torpedo launches, simultaneous gunfire,
torpedo hits, movement, aborts, the helpless-side shortcut, reinforcements.
"""
from __future__ import annotations



from pbem.core.texts import join, t_

from dataclasses import dataclass, field

from . import tables as T
from .words import word
from .combat import BOTH, doctrine, hit_attack
from .work import Work

BUSY = ("port", "refuel", "repair")


@dataclass
class Pos:
    side: str
    mz: int
    facing: str  # closing | opening | breaking
    target: str | None = None
    acquired: str | None = None
    moved: bool = False
    reduce: int = 0  # movement lost to the edge shift before this ship moved [10]


@dataclass
class Battle:
    attacker: str
    hex: str
    pos: dict[str, Pos] = field(default_factory=dict)
    lo: int = 0
    left: set = field(default_factory=set)
    log: list = field(default_factory=list)
    no_abort: str = ""  # a side that may not abort (convoy escorts [11.3])

    def forward(self, side: str) -> int:
        return 1 if side == self.attacker else -1

    def between(self, a: str, b: str) -> int:
        sa, sb = self.pos[a].mz // 2, self.pos[b].mz // 2
        return max(0, abs(sa - sb) - 1)

    def side_ships(self, side: str) -> list[str]:
        return sorted(k for k, p in self.pos.items() if p.side == side)


def _enter(w: Work, bt: Battle, sid: str, side: str, mz_from_edge: int, facing: str) -> None:
    x = w.ships[sid]
    if x.torps < 0:
        w.set(sid, torps=_printed(x.id)["torps"])
    w.set(sid, in_play=True, engaged=x.engaged + (w.s.turn,))
    mz = bt.lo + mz_from_edge if side == bt.attacker else bt.lo + 17 - mz_from_edge
    bt.pos[sid] = Pos(side, mz, facing)


def _printed(sid: str) -> dict:
    return T.units()["ships"][sid]


def _radar(w: Work, sid: str) -> bool:
    x = w.ships[sid]
    return x.radar > 0 and not x.radar_lost


def fight(w: Work, dice, attacker: str, att: list[str], dfn: list[str], h: str, no_abort: str = "") -> list[str]:
    """Fight one naval combat in hex ``h`` and return its public narrative [10]."""
    bt = Battle(attacker, h, no_abort=no_abort)
    vis = w.s.vis
    defender = "allied" if attacker == "german" else "german"
    for sid in att:
        _enter(w, bt, sid, attacker, T.start_mz(vis), "closing")
    for sid in dfn:
        _enter(w, bt, sid, defender, T.start_mz(vis), "breaking")
    bt.log.append(t_('naval combat in %(h)s: %(attacker)s %(v)s attack %(defender)s %(v2)s (visibility %(v3)s)', h=h, attacker=word(attacker), v=', '.join(att), defender=word(defender), v2=', '.join(dfn), v3=T.vis_text(vis)))
    rounds = T.tables()["tactical"]["max_rounds"]
    for rnd in range(1, rounds + 1):
        if not bt.side_ships(attacker) or not bt.side_ships(defender):
            break
        _round(w, dice, bt, rnd)
    else:
        bt.log.append(t_('after %(rounds)s rounds the ships lose contact (round limit, placeholder)', rounds=rounds))
    for sid in sorted(bt.pos):
        x = w.ships[sid]
        if x.radar == 3 and not x.radar_lost:
            w.set(sid, radar_lost=True)
    stay = {side: [s for s in bt.side_ships(side) if w.ships[s].afloat] for side in (attacker, defender)}
    w.kw["last_battle"] = result(bool(stay[attacker]), bool(stay[defender]))
    return bt.log


def result(attacker_stays: bool, defender_stays: bool) -> str:
    """A battle from the attacker's side: WON if only his ships are left in it, LOST if only the
    enemy's, DRAWN otherwise (both left, or the round limit) — what ENGAGE ... IF PREVIOUS tests [10]."""
    if attacker_stays and not defender_stays:
        return "WON"
    if defender_stays and not attacker_stays:
        return "LOST"
    return "DRAWN"


def _alive(w: Work, bt: Battle) -> None:
    for sid in list(bt.pos):
        if not w.ships[sid].afloat:
            del bt.pos[sid]


def _pick_target(w: Work, bt: Battle, sid: str) -> str | None:
    p = bt.pos[sid]
    foes = bt.side_ships("german" if p.side == "allied" else "allied")
    if not foes:
        return None
    if p.target in foes:
        return p.target
    return sorted(foes, key=lambda f: (bt.between(sid, f), -w.ships[f].hull, f))[0]


def _usable(w: Work, bt: Battle, sid: str, band: str) -> int:
    x, p = w.ships[sid], bt.pos[sid]
    if band == "extreme" and (x.cls not in ("CA", "BC", "BB") or _printed(sid).get("no_extreme")):
        return 0
    prim = {"closing": x.bow, "breaking": x.stern, "opening": x.bow + x.stern}[p.facing]
    sec = x.sec if p.facing == "opening" and band in ("medium", "short") else 0
    return prim + sec


def _round(w: Work, dice, bt: Battle, rnd: int) -> None:
    order = sorted(bt.pos, key=lambda s: (0 if bt.pos[s].side == bt.attacker else 1, s))
    torps = _launch_torpedoes(w, bt, rnd, order)
    hits = [hit for sid in order for hit in _fire(w, dice, bt, rnd, sid)]
    _take_gunfire(w, dice, bt, rnd, hits)
    _torpedo_hits(w, dice, bt, rnd, torps)
    _alive(w, bt)
    if rnd == 1:
        for sid in bt.pos:
            if w.ships[sid].radar == 3:
                w.set(sid, radar_lost=True)
    # movement, slowest first, attacker first on ties
    for p in bt.pos.values():
        p.moved = False
    for sid in sorted(bt.pos, key=lambda s: (w.ships[s].er_now, 0 if bt.pos[s].side == bt.attacker else 1, s)):
        if sid in bt.pos:
            _move(w, bt, sid, rnd)
    _aborts(w, dice, bt, rnd)
    _helpless(w, bt, rnd)
    if rnd >= T.tables()["reinforcement"]["from_round"] and len({p.side for p in bt.pos.values()}) == 2:
        _reinforcements(w, dice, bt, rnd)


def _launch_torpedoes(w: Work, bt: Battle, rnd: int, order: list[str]) -> list[tuple[str, str, int, bool]]:
    """Step 1: ships with torpedoes left launch up to 3 at medium or short range (unless TORPEDOES OFF)."""
    torps: list[tuple[str, str, int, bool]] = []
    for sid in order:
        x = w.ships[sid]
        tgt = _pick_target(w, bt, sid)
        if tgt is None or x.torps <= 0 or not doctrine(w, bt.pos[sid].side, sid)["torpedoes"]:
            continue
        band = T.range_band(bt.between(sid, tgt))
        if band in ("medium", "short"):
            n = min(3, x.torps)
            w.set(sid, torps=x.torps - n)
            torps.append((sid, tgt, n, band == "medium"))
            bt.log.append(t_('round %(rnd)s: %(sid)s launches %(nv)s torpedoes at %(tgt)s', rnd=rnd, sid=sid, nv=n, tgt=tgt))
    return torps


def _fire(w: Work, dice, bt: Battle, rnd: int, sid: str) -> list[tuple[str, str, str]]:
    """Step 2: one ship's gunfire at its target; the (target, result, firer) of each die that hits."""
    tgt = _pick_target(w, bt, sid)
    if tgt is None:
        return []
    p = bt.pos[sid]
    if p.target != tgt:
        p.target, p.acquired = tgt, None
    band = T.range_band(bt.between(sid, tgt))
    n = T.dice_count(_usable(w, bt, sid, band), band)
    if not n:
        return []
    x, t = w.ships[sid], w.ships[tgt]
    drm = T.naval_drm(firer_cls=x.cls, target_cls=t.cls, radar=_radar(w, sid), acquired=p.acquired == tgt,
                      firer_pos=p.facing, target_pos=bt.pos[tgt].facing, fire_control=x.fire_control, vis=w.s.vis,
                      exhausted=_exhausted(w, sid))
    rolls = [T.d10(dice, t_('gunfire %(sid)s at %(tgt)s', sid=sid, tgt=tgt), BOTH) for _ in range(n)]
    results = [T.combat_result(band, r + drm) for r in rolls]
    if any(r != "-" for r in results):
        p.acquired = tgt
    bt.log.append(t_('round %(rnd)s: %(sid)s (%(facing)s) fires %(nv)s dice at %(tgt)s at %(band)s range, DRM %(drm)+d: rolls %(rolls)s -> %(v)s', rnd=rnd, sid=sid, facing=word(p.facing), nv=n, tgt=tgt, band=word(band), drm=drm, rolls=rolls, v=' '.join(results)))
    return [(tgt, res, sid) for res in results if res != "-"]


def _take_gunfire(w: Work, dice, bt: Battle, rnd: int, hits: list[tuple[str, str, str]]) -> None:
    """Gunfire is simultaneous: results apply after every ship has fired, then the sunk go down."""
    for tgt, res, _sid in hits:
        if w.ships[tgt].afloat:
            bt.log.append(t_('round %(rnd)s: %(tgt)s takes %(v)s', rnd=rnd, tgt=tgt, v=_apply_result(w, dice, tgt, res)))
    for sid in sorted(bt.pos):
        if w.check_sunk(sid, t_("naval combat")):
            bt.log.append(t_('round %(rnd)s: %(sid)s sinks', rnd=rnd, sid=sid))


def _torpedo_hits(w: Work, dice, bt: Battle, rnd: int, torps: list[tuple[str, str, int, bool]]) -> None:
    """Step 3: each torpedo rolls on the hit table, the attacker's first."""
    for sid, tgt, n, medium in torps:
        for _ in range(n):
            if not w.ships[tgt].afloat:
                break
            t = w.ships[tgt]
            pos = bt.pos[tgt].facing if tgt in bt.pos else "opening"
            drm = T.hit_drm(vis=w.s.vis, target_er=t.er_now, kind="torpedo", position=pos, medium=medium)
            bt.log += [t_("round %(rnd)s: %(line)s", rnd=rnd, line=s)
                       for s in hit_attack(w, dice, tgt, drm, t_("torpedo %(sid)s at %(tgt)s", sid=sid, tgt=tgt))]
            if w.check_sunk(tgt, t_("torpedoes")):
                bt.log.append(t_('round %(rnd)s: %(tgt)s sinks', rnd=rnd, tgt=tgt))


def _aborts(w: Work, dice, bt: Battle, rnd: int) -> None:
    """Step 5: a Breaking ship far enough from every enemy may leave the battle (escorts may not)."""
    for sid in sorted(bt.pos):
        p = bt.pos.get(sid)
        if p is None or p.facing != "breaking" or p.side == bt.no_abort:
            continue
        foes = bt.side_ships(_foe(p.side))
        if any(bt.between(sid, f) < T.tables()["abort"]["min_between"] for f in foes):
            continue
        diff = max(w.ships[f].er_now for f in foes) - w.ships[sid].er_now if foes else 0
        r = T.d10(dice, t_('abort %(sid)s', sid=sid), BOTH)
        drm = T.abort_drm(diff)
        if r + drm <= T.tables()["abort"]["success_max"]:
            _leave(bt, sid)
            bt.log.append(t_('round %(rnd)s: %(sid)s breaks off and leaves the battle (roll %(r)s%(drm)+d)', rnd=rnd, sid=sid, r=r, drm=drm))


def _helpless(w: Work, bt: Battle, rnd: int) -> None:
    """Shortcut [10]: a side with no armament left that cannot abort (rudder, or escorts) and has no
    reinforcements is treated as sunk."""
    for side in sorted({p.side for p in bt.pos.values()}):
        mine = bt.side_ships(side)
        stuck = all(w.ships[s].bow + w.ships[s].stern + w.ships[s].sec == 0
                    and (w.ships[s].rudder or side == bt.no_abort) for s in mine)
        reserves = [x for x in w.afloat(side) if x.hex == bt.hex and x.id not in bt.pos and x.id not in bt.left
                    and x.cls != "TK"]
        if mine and stuck and not reserves:
            for s_ in mine:
                w.set(s_, hull=0)
                w.check_sunk(s_, t_("helpless in battle"))
                bt.log.append(t_('round %(rnd)s: %(s)s has no guns left and cannot escape: treated as sunk', rnd=rnd, s=s_))
            _alive(w, bt)


def _reinforcements(w: Work, dice, bt: Battle, rnd: int) -> None:
    """Step 6, from round 3: each free ship of either side in the hex may join on a roll."""
    for side in (bt.attacker, _foe(bt.attacker)):
        for x in w.afloat(side):
            if x.hex != bt.hex or x.id in bt.pos or x.id in bt.left or x.cls == "TK" \
                    or any(m in x.markers for m in BUSY) or x.status != "sea":
                continue
            r = T.d10(dice, t_('reinforcement %(id)s', id=x.id), BOTH)
            if r <= T.tables()["reinforcement"]["success_max"]:
                _enter(w, bt, x.id, side, T.start_mz(max(1, w.s.vis - 1)), "closing")
                bt.log.append(t_('round %(rnd)s: %(id)s joins the battle (roll %(r)s)', rnd=rnd, id=x.id, r=r))


def _foe(side: str) -> str:
    return "allied" if side == "german" else "german"


def _leave(bt: Battle, sid: str) -> None:
    del bt.pos[sid]
    bt.left.add(sid)


def _exhausted(w: Work, sid: str) -> bool:
    """Crew exhaustion [13.2] (option): engaged twice one day and again the next."""
    if not w.option("crew_exhaustion", False):
        return False
    x = w.ships[sid]
    if x.side != "german" or x.cls not in ("BB", "CA", "CV"):
        return False
    days: dict[int, int] = {}
    for t in x.engaged:
        days[t // 5] = days.get(t // 5, 0) + 1
    today = w.s.turn // 5
    return any(n >= 2 and d == today - 1 for d, n in days.items()) and days.get(today, 0) >= 1


def _apply_result(w: Work, dice, sid: str, res: str) -> str:
    out = []
    for ch in res:
        if ch == "H":
            w.hull_hit(sid)
            out.append(t_("1 hull"))
        elif ch == "E":
            v = w.draw_ee(dice, BOTH)
            w.set(sid, ee=w.ships[sid].ee + (v,))
            out.append(t_('evasion %(v)s', v=v))
        elif ch == "B":
            w.lose_armament(sid, "bow")
            out.append(t_("1 primary bow"))
        elif ch == "S":
            w.lose_armament(sid, "stern")
            out.append(t_("1 primary stern"))
        elif ch == "C":
            w.lose_armament(sid, "sec")
            out.append(t_("1 secondary"))
        elif ch == "X":
            out.append(_special(w, dice, sid))
    x = w.ships[sid]
    w.set(sid, hits=x.hits + 1, in_play=True)
    return join(", ", out)


def _special(w: Work, dice, sid: str) -> str:
    r = T.d10(dice, t_('special damage %(sid)s', sid=sid), BOTH)
    kind = T.special_damage(r)
    if kind == "subtable":
        r2 = T.d10(dice, t_('special damage sub-table %(sid)s', sid=sid), BOTH)
        if r2 <= T.tables()["special_damage"]["sub_sunk_max"]:
            w.set(sid, hull=0)
            return t_('special damage (%(r)s, sub-table %(r2)s): the ship is sunk', r=r, r2=r2)
        w.hull_hit(sid, 3)
        v = w.draw_ee(dice, BOTH)
        w.set(sid, ee=w.ships[sid].ee + (v,))
        return t_('special damage (%(r)s, sub-table %(r2)s): 3 hull and evasion %(v)s', r=r, r2=r2, v=v)
    if kind == "fuel":
        r2 = T.d10(dice, t_('fuel loss %(sid)s', sid=sid), (w.ships[sid].side,))
        lost = (r2 + 1) // 2
        w.set(sid, fuel=max(0, w.ships[sid].fuel - lost))
        return t_("special damage: fuel loss")
    if kind == "fire_control":
        w.set(sid, fire_control=True)
        return t_("special damage: fire control damaged")
    w.set(sid, radar_lost=True)
    return t_("special damage: radar damaged")


def _move(w: Work, bt: Battle, sid: str, rnd: int) -> None:
    """Step 4: one ship moves by its doctrine; the edge rule keeps the battle in an 18-zone window."""
    p = bt.pos[sid]
    x = w.ships[sid]
    p.moved = True
    foes = bt.side_ships(_foe(p.side))
    if x.rudder or not foes:
        return
    d = doctrine(w, p.side, sid)
    limit = T.tactical_limit(x.er_now) - p.reduce
    breaking = d["mode"] == "EVADE" or x.hull <= d["break"] or x.bow + x.stern + x.sec == 0
    if p.reduce:
        # pushed back by the edge shift before moving: leave, or close with a reduced limit [10]
        p.reduce = 0
        if limit < 0 or breaking:
            _leave(bt, sid)
            bt.log.append(t_('round %(rnd)s: %(sid)s, pushed to the edge, leaves the battle', rnd=rnd, sid=sid))
            return
        p.facing = "closing"
        step = bt.forward(p.side) * max(0, min(limit, _gap(bt, sid, foes) - 2))
    elif breaking:
        p.facing, step = "breaking", -bt.forward(p.side) * limit
    elif (d["mode"] == "CLOSE" and _near(bt, sid, foes) > 1) or (d["mode"] == "STANDOFF" and _near(bt, sid, foes) > 3):
        p.facing = "closing"
        goal = 1 if d["mode"] == "CLOSE" else 3
        step = bt.forward(p.side) * max(0, min(limit, _gap(bt, sid, foes) - 2 * goal))
    else:
        p.facing = "opening"
        return
    p.mz += step
    _edge_rule(bt, p.mz, rnd)
    if sid in bt.pos and step:
        bt.log.append(t_('round %(rnd)s: %(sid)s moves %(v)s MZ (%(facing)s)', rnd=rnd, sid=sid, v=abs(step), facing=word(p.facing)))


def _near(bt: Battle, sid: str, foes: list[str]) -> int:
    return min(bt.between(sid, f) for f in foes)


def _gap(bt: Battle, sid: str, foes: list[str]) -> int:
    """Movement zones to the nearest enemy."""
    nearest = min(foes, key=lambda f: bt.between(sid, f))
    return abs(bt.pos[nearest].mz - bt.pos[sid].mz)


def _edge_rule(bt: Battle, mz: int, rnd: int) -> None:
    """The window slides to keep ``mz`` inside; a ship pushed off that already moved leaves the battle,
    one that has not stays at the edge with that much less movement [10]."""
    if mz > bt.lo + 17:
        bt.lo = mz - 17
    elif mz < bt.lo:
        bt.lo = mz
    for other in sorted(bt.pos):
        q = bt.pos[other]
        if bt.lo <= q.mz <= bt.lo + 17:
            continue
        if q.moved:
            _leave(bt, other)
            bt.log.append(t_('round %(rnd)s: %(other)s is pushed off the battle map and leaves the battle', rnd=rnd, other=other))
        else:
            over = bt.lo - q.mz if q.mz < bt.lo else q.mz - (bt.lo + 17)
            q.mz = min(max(q.mz, bt.lo), bt.lo + 17)
            q.reduce += over
