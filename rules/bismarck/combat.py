"""Air attacks [9], torpedo and strike hits, the doctrine a ship fights by, and the record of a
naval battle [10]; the tactical battle itself is in :mod:`.battle`."""
from __future__ import annotations

from pbem.core.texts import join, t_, tn_

from dataclasses import replace

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
    out = [tn_("%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hit", "%(why)s: roll %(nat)s%(drm)+d = %(total)s, %(n)s hits",
               n, why=why, nat=nat, drm=drm, total=nat + drm)]
    for m in w.draw_damage(dice, n, seen):
        if not w.ships[sid].afloat:
            break
        out.append(t_("%(sid)s: %(effect)s", sid=sid, effect=w.apply_marker(sid, m, dice, seen)))
    return out


# --- air attack [9] -------------------------------------------------------------------
def air_attacks(w: Work, dice) -> None:
    """Allied Attack markers first, then German; the attacker names a class, the defender a ship."""
    order = sorted(w.attack_markers, key=lambda m: (0 if m[0] == "allied" else 1, m[1]))
    for side, air, h in order:
        foe = "german" if side == "allied" else "allied"
        targets = [x for x in w.afloat(foe) if x.hex == h]
        if not targets:
            w.tell(side, t_('air attack by %(air)s on %(h)s: no enemy ship there any more', air=air, h=h))
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
        # the attacker named a class, the defender chose the ship: only a hit shows the attacker which [9]
        lines = hit_attack(w, dice, target, drm, t_("air attack by %(air)s on a %(cls)s in %(h)s", air=air, cls=cls, h=h))
        w.check_sunk(target, t_("air attack"))
        w.say(join("; ", lines), to=side, kind="air-attack")
        w.say(join("; ", [t_("%(line)s (the target: %(target)s)", line=lines[0], target=target), *lines[1:]]), to=foe,
              kind="air-attack")


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
    w.say(join("\n", log), kind="battle")
    if "bismarck" in ships:
        kills = [s for s in ships if w.ships[s].side == "allied" and w.ships[s].status == "sunk"
                 and w.ships[s].cls in T.CAPITAL and s not in w.s.capital_kills]
        w.s = replace(w.s, capital_kills=w.s.capital_kills + tuple(kills))
    w.dissolve_small_tfs()
    w.retarget_contacts()
