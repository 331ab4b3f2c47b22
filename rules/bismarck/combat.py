"""Air attacks [9], torpedo hits, and the tactical naval battle [10], fought from declared doctrine.

The Battle Map is a line of 9 Sea Zones of 2 Movement Zones each; positions are kept as absolute
movement zones with a sliding 18-zone window (the edge rule). Each side's ships act by the
standing DOCTRINE of their unit (CLOSE, STANDOFF or EVADE, torpedoes on/off, break off at a hull
value); nothing in a battle waits for a player.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import tables as T
from .board import board
from .model import Battle as BattleRecord
from .work import SIDES, Work

BOTH = SIDES


def doctrine(w: Work, side: str, sid: str) -> dict:
    d = {"mode": "CLOSE", "torpedoes": True, "break": 1}
    unit = w.unit_of(sid).upper()
    for key in ("ALL", unit, sid.upper()):
        for words in w.std_lines(side, "DOCTRINE"):
            if words[1].upper() == key:
                d["mode"] = words[2].upper()
                rest = [x.upper() for x in words[3:]]
                for i, tok in enumerate(rest):
                    if tok == "TORPEDOES":
                        d["torpedoes"] = rest[i + 1] == "ON"
                    if tok == "BREAK":
                        d["break"] = int(rest[i + 1])
    return d


def hit_attack(w: Work, dice, sid: str, drm: int, why: str, seen=BOTH) -> list[str]:
    """One roll on the Torpedo & Air Strike Hit Table and its damage markers [9]."""
    nat = T.d10(dice, why, seen)
    n = T.hits(nat, drm)
    out = [f"{why}: roll {nat}{drm:+d} = {nat + drm}, {n} hit{'s' if n != 1 else ''}"]
    for m in w.draw_damage(dice, n, seen):
        if not w.ships[sid].afloat:
            break
        out.append(f"{sid}: " + w.apply_marker(sid, m, dice, seen))
    return out


# --- air attack [9] -------------------------------------------------------------------
def air_attacks(w: Work, dice) -> None:
    """Allied Attack markers first, then German; the attacker names a class, the defender a ship."""
    order = sorted(w.attack_markers, key=lambda m: (0 if m[0] == "allied" else 1, m[1]))
    for side, air, h in order:
        foe = "german" if side == "allied" else "allied"
        targets = [x for x in w.afloat(foe) if x.hex == h]
        if not targets:
            w.tell(side, f"air attack by {air} on {h}: no enemy ship there any more")
            continue
        prio = (w.std_lines(side, "STRIKE_CLASSES") or [["", "BB", "BC", "CV", "CA", "CL", "DD", "TK"]])[-1][1:]
        present = {x.cls for x in targets}
        cls = next((c.upper() for c in prio if c.upper() in present), sorted(present)[0])
        target = choose_ship(w, foe, [x for x in targets if x.cls == cls])
        t = w.ships[target]
        drm = T.hit_drm(vis=w.s.vis, target_er=t.er_now, kind="air", night=T.is_night(w.s.turn),
                        channel=h in board().channel, rudder_or_refuel=t.rudder or "refuel" in t.markers,
                        in_port="port" in t.markers)
        w.set(target, engaged=t.engaged + (w.s.turn,))
        lines = hit_attack(w, dice, target, drm, f"air attack by {air} on {target} ({cls}) in {h}")
        w.check_sunk(target, "air attack")
        w.public("; ".join(lines), "air-attack")


def choose_ship(w: Work, owner: str, ships) -> str:
    """The owner picks the ship within the named class: his DEFEND_PRIORITY list, else the sturdiest."""
    ids = [x.id for x in ships]
    for words in w.std_lines(owner, "DEFEND_PRIORITY"):
        for s in words[1:]:
            if s in ids:
                return s
    return sorted(ships, key=lambda x: (-x.hull, x.id))[0].id


def record_battle(w: Work, h: str, log: list[str], ships: list[str]) -> None:
    """Keep a fought battle's public log, Bismarck's capital kills [4], and tidy TFs and contacts."""
    w.s = replace(w.s, battles=w.s.battles + (BattleRecord(w.s.turn, h, tuple(log)),))
    w.public("\n".join(log), "battle")
    if "bismarck" in ships:
        kills = [s for s in ships if w.ships[s].side == "allied" and w.ships[s].status == "sunk"
                 and w.ships[s].cls in T.CAPITAL and s not in w.s.capital_kills]
        w.s = replace(w.s, capital_kills=w.s.capital_kills + tuple(kills))
    w.dissolve_small_tfs()
    w.retarget_contacts()


# --- naval battle [10] ------------------------------------------------------------------
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
    bt.log.append(f"naval combat in {h}: {attacker} {', '.join(att)} attack {defender} {', '.join(dfn)} "
                  f"(visibility {T.vis_text(vis)})")
    rounds = T.tables()["tactical"]["max_rounds"]
    for rnd in range(1, rounds + 1):
        if not bt.side_ships(attacker) or not bt.side_ships(defender):
            break
        _round(w, dice, bt, rnd)
    else:
        bt.log.append(f"after {rounds} rounds the ships lose contact (round limit, placeholder)")
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
    vis = w.s.vis
    order = sorted(bt.pos, key=lambda s: (0 if bt.pos[s].side == bt.attacker else 1, s))
    # 1. torpedoes
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
            bt.log.append(f"round {rnd}: {sid} launches {n} torpedoes at {tgt}")
    # 2. fire, simultaneous
    pending: list[tuple[str, str, str]] = []
    for sid in order:
        tgt = _pick_target(w, bt, sid)
        if tgt is None:
            continue
        p = bt.pos[sid]
        if p.target != tgt:
            p.target, p.acquired = tgt, None
        band = T.range_band(bt.between(sid, tgt))
        n = T.dice_count(_usable(w, bt, sid, band), band)
        if not n:
            continue
        x, t = w.ships[sid], w.ships[tgt]
        drm = T.naval_drm(firer_cls=x.cls, target_cls=t.cls, radar=_radar(w, sid), acquired=p.acquired == tgt,
                          firer_pos=p.facing, target_pos=bt.pos[tgt].facing, fire_control=x.fire_control, vis=vis,
                          exhausted=_exhausted(w, sid))
        rolls, results = [], []
        for _ in range(n):
            r = T.d10(dice, f"gunfire {sid} at {tgt}", BOTH)
            res = T.combat_result(band, r + drm)
            rolls.append(r)
            results.append(res)
            if res != "-":
                pending.append((tgt, res, sid))
        if any(r != "-" for r in results):
            p.acquired = tgt
        bt.log.append(f"round {rnd}: {sid} ({p.facing}) fires {n} dice at {tgt} at {band} range, "
                      f"DRM {drm:+d}: rolls {rolls} -> {' '.join(results)}")
    for tgt, res, _sid in pending:
        if w.ships[tgt].afloat:
            bt.log.append(f"round {rnd}: {tgt} takes {_apply_result(w, dice, tgt, res)}")
    for sid in sorted(bt.pos):
        if w.check_sunk(sid, "naval combat"):
            bt.log.append(f"round {rnd}: {sid} sinks")
    # 3. torpedo hits: the attacker's first
    for sid, tgt, n, medium in torps:
        for _ in range(n):
            if not w.ships[tgt].afloat:
                break
            t = w.ships[tgt]
            pos = bt.pos[tgt].facing if tgt in bt.pos else "opening"
            drm = T.hit_drm(vis=vis, target_er=t.er_now, kind="torpedo", position=pos, medium=medium)
            bt.log += [f"round {rnd}: " + s for s in hit_attack(w, dice, tgt, drm, f"torpedo {sid} at {tgt}")]
            if w.check_sunk(tgt, "torpedoes"):
                bt.log.append(f"round {rnd}: {tgt} sinks")
    _alive(w, bt)
    if rnd == 1:
        for sid in bt.pos:
            if w.ships[sid].radar == 3:
                w.set(sid, radar_lost=True)
    # 4. movement, slowest first, attacker first on ties
    for p in bt.pos.values():
        p.moved = False
    for sid in sorted(bt.pos, key=lambda s: (w.ships[s].er_now, 0 if bt.pos[s].side == bt.attacker else 1, s)):
        if sid in bt.pos:
            _move(w, bt, sid, rnd)
    # 5. aborts
    for sid in sorted(bt.pos):
        p = bt.pos.get(sid)
        if p is None or p.facing != "breaking" or p.side == bt.no_abort:
            continue
        foes = bt.side_ships("german" if p.side == "allied" else "allied")
        if any(bt.between(sid, f) < T.tables()["abort"]["min_between"] for f in foes):
            continue
        diff = max(w.ships[f].er_now for f in foes) - w.ships[sid].er_now if foes else 0
        r = T.d10(dice, f"abort {sid}", BOTH)
        drm = T.abort_drm(diff)
        if r + drm <= T.tables()["abort"]["success_max"]:
            del bt.pos[sid]
            bt.left.add(sid)
            bt.log.append(f"round {rnd}: {sid} breaks off and leaves the battle (roll {r}{drm:+d})")
    # shortcut [10]: a side with no armament left that cannot abort (rudder, or escorts) and has no
    # reinforcements is treated as sunk
    for side in sorted({p.side for p in bt.pos.values()}):
        mine = bt.side_ships(side)
        stuck = all(w.ships[s].bow + w.ships[s].stern + w.ships[s].sec == 0
                    and (w.ships[s].rudder or side == bt.no_abort) for s in mine)
        reserves = [x for x in w.afloat(side) if x.hex == bt.hex and x.id not in bt.pos and x.id not in bt.left
                    and x.cls != "TK"]
        if mine and stuck and not reserves:
            for s_ in mine:
                w.set(s_, hull=0)
                w.check_sunk(s_, "helpless in battle")
                bt.log.append(f"round {rnd}: {s_} has no guns left and cannot escape: treated as sunk")
            _alive(w, bt)
    # 6. reinforcements from round 3
    if rnd >= T.tables()["reinforcement"]["from_round"] and len({p.side for p in bt.pos.values()}) == 2:
        for side in (bt.attacker, "allied" if bt.attacker == "german" else "german"):
            for x in w.afloat(side):
                if x.hex != bt.hex or x.id in bt.pos or x.id in bt.left or x.cls == "TK" \
                        or any(m in x.markers for m in ("port", "refuel", "repair")) or x.status != "sea":
                    continue
                r = T.d10(dice, f"reinforcement {x.id}", BOTH)
                if r <= T.tables()["reinforcement"]["success_max"]:
                    _enter(w, bt, x.id, side, T.start_mz(max(1, w.s.vis - 1)), "closing")
                    bt.log.append(f"round {rnd}: {x.id} joins the battle (roll {r})")


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
            out.append("1 hull")
        elif ch == "E":
            v = w.draw_ee(dice, BOTH)
            w.set(sid, ee=w.ships[sid].ee + (v,))
            out.append(f"evasion {v}")
        elif ch == "B":
            w.lose_armament(sid, "bow")
            out.append("1 primary bow")
        elif ch == "S":
            w.lose_armament(sid, "stern")
            out.append("1 primary stern")
        elif ch == "C":
            w.lose_armament(sid, "sec")
            out.append("1 secondary")
        elif ch == "X":
            out.append(_special(w, dice, sid))
    x = w.ships[sid]
    w.set(sid, hits=x.hits + 1, in_play=True)
    return ", ".join(out)


def _special(w: Work, dice, sid: str) -> str:
    r = T.d10(dice, f"special damage {sid}", BOTH)
    kind = T.special_damage(r)
    if kind == "subtable":
        r2 = T.d10(dice, f"special damage sub-table {sid}", BOTH)
        if r2 <= T.tables()["special_damage"]["sub_sunk_max"]:
            w.set(sid, hull=0)
            return f"special damage ({r}, sub-table {r2}): the ship is sunk"
        w.hull_hit(sid, 3)
        v = w.draw_ee(dice, BOTH)
        w.set(sid, ee=w.ships[sid].ee + (v,))
        return f"special damage ({r}, sub-table {r2}): 3 hull and evasion {v}"
    if kind == "fuel":
        r2 = T.d10(dice, f"fuel loss {sid}", (w.ships[sid].side,))
        lost = (r2 + 1) // 2
        w.set(sid, fuel=max(0, w.ships[sid].fuel - lost))
        return "special damage: fuel loss"
    if kind == "fire_control":
        w.set(sid, fire_control=True)
        return "special damage: fire control damaged"
    w.set(sid, radar_lost=True)
    return "special damage: radar damaged"


def _move(w: Work, bt: Battle, sid: str, rnd: int) -> None:
    p = bt.pos[sid]
    x = w.ships[sid]
    p.moved = True
    if x.rudder:
        return
    d = doctrine(w, p.side, sid)
    foes = bt.side_ships("german" if p.side == "allied" else "allied")
    if not foes:
        return
    near = min(bt.between(sid, f) for f in foes)
    limit = T.tactical_limit(x.er_now) - p.reduce
    armed = x.bow + x.stern + x.sec > 0
    if p.reduce:
        # pushed back by the edge shift before moving: leave, or close with a reduced limit [10]
        p.reduce = 0
        if limit < 0 or d["mode"] == "EVADE" or x.hull <= d["break"] or not armed:
            del bt.pos[sid]
            bt.left.add(sid)
            bt.log.append(f"round {rnd}: {sid}, pushed to the edge, leaves the battle")
            return
        p.facing = "closing"
        nearest = min(foes, key=lambda f: bt.between(sid, f))
        step = bt.forward(p.side) * max(0, min(limit, abs(bt.pos[nearest].mz - p.mz) - 2))
    elif d["mode"] == "EVADE" or x.hull <= d["break"] or not armed:
        p.facing, step = "breaking", -bt.forward(p.side) * limit
    elif (d["mode"] == "CLOSE" and near > 1) or (d["mode"] == "STANDOFF" and near > 3):
        p.facing = "closing"
        goal = 1 if d["mode"] == "CLOSE" else 3
        nearest = min(foes, key=lambda f: bt.between(sid, f))
        gap_mz = abs(bt.pos[nearest].mz - p.mz)
        step = bt.forward(p.side) * max(0, min(limit, gap_mz - 2 * goal))
    else:
        p.facing = "opening"
        return
    p.mz += step
    # edge rule: keep every ship inside an 18-zone window
    if p.mz > bt.lo + 17:
        bt.lo = p.mz - 17
    elif p.mz < bt.lo:
        bt.lo = p.mz
    for other in sorted(bt.pos):
        q = bt.pos[other]
        if bt.lo <= q.mz <= bt.lo + 17:
            continue
        if q.moved:  # already moved: it leaves the battle [10]
            del bt.pos[other]
            bt.left.add(other)
            bt.log.append(f"round {rnd}: {other} is pushed off the battle map and leaves the battle")
        else:  # not yet moved: it stays at the edge and loses that much movement
            over = bt.lo - q.mz if q.mz < bt.lo else q.mz - (bt.lo + 17)
            q.mz = min(max(q.mz, bt.lo), bt.lo + 17)
            q.reduce += over
    if p.mz is not None and sid in bt.pos and step:
        bt.log.append(f"round {rnd}: {sid} moves {abs(step)} MZ ({p.facing})")
