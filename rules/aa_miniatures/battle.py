"""Resolution: what each order does to the working copy, and the ends of phases.

A :class:`Battle` is the ruleset's working data inside the kit's :class:`~pbem.core.work.Work`; every
event goes through ``w.say`` and every die through ``w.roll`` (all dice are seen by both sides: the
game hides nothing, digest 5)."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from pbem.core.hexgrid import NAMES
from pbem.core.texts import join, t_, tn_
from pbem.core.work import Work

from . import combat
from pbem.core.hexgrid import distance

from .board import hex_name, parse_hex
from .reactions import Shot, can_react, fire
from .los import aircraft_front, clear, cover_needed, enfilade, grazed_hexes
from .model import SIDES, Glimpse, Unit, other
from .moving import move
from .movement import overstacked
from .movement import placement_problem
from .orders import Air, Attack, Face, Hold, Load, Move, Overwatch, Unload
from .tables import VEHICLE
from .fog import dice_seen_by, tell, tell_seen, witnesses
from .working import Battle
from .working import name as _name


# ---------------------------------------------------------------------------------------- orders
def perform(w: Work[Battle], seat: str, order: object) -> str | None:
    """Carry out one order of ``seat``; the reason it cannot be, or None (the kit tells the author)."""
    off_map = {Air: strike, Unload: _unload}.get(type(order))
    if off_map is not None:  # the unit is off the map (an aircraft in reserve, a passenger)
        return off_map(w, seat, order)  # type: ignore[operator]
    b = w.data
    uid = getattr(order, "unit", "")
    unit = b.unit(uid)
    if unit is None or unit.side != seat:
        return t_("%(unit)s is no longer on the map", unit=uid)
    if uid in b.acted:
        return t_("%(unit)s has already acted this phase", unit=uid)
    act = _ACTS.get(type(order))
    return t_("%(order)s is not an order for this phase", order=type(order).__name__) if act is None else act(w, unit, order)


def _hold(w: Work[Battle], unit: Unit, order: Hold) -> str | None:
    w.data.acted.add(unit.id)
    return None


def _face(w: Work[Battle], unit: Unit, order: Face) -> str | None:
    if unit.disrupted:
        return t_("%(unit)s is Disrupted and cannot turn (L25)", unit=unit.id)
    w.data.put(unit.but(facing=NAMES.index(order.face), overwatch=None))
    w.data.acted.add(unit.id)
    tell(w, [unit], t_("%(u0)s turns to face %(face)s", u0="{0}", face=order.face), "move")
    return None


def _load(w: Work[Battle], unit: Unit, order: Load) -> str | None:
    """The unit boards: it leaves the map and rides in the transport, ignoring stacking (L9)."""
    b = w.data
    carrier = b.unit(order.transport)
    if carrier is None or unit.disrupted or distance(unit.hex, carrier.hex) > _reach() or \
            sum(c.aboard == carrier.id for c in b.cargo.values()) >= _capacity():
        return t_("%(unit)s cannot board %(carrier)s now", unit=unit.id, carrier=order.transport)
    del b.units[unit.id]
    b.cargo[unit.id] = unit.but(aboard=carrier.id, overwatch=None)
    b.acted.add(unit.id)
    tell(w, [unit, carrier], t_("%(u0)s boards %(u1)s in %(hex)s", u0="{0}", u1="{1}", hex=hex_name(carrier.hex)), "move")
    return None


def _capacity() -> int:
    """How many units a transport carries: L9 gives no number (``tables.toml [readings]
    transport_capacity``, a placeholder 1; digest G18)."""
    return int(combat.tables()["readings"]["transport_capacity"])


def _reach() -> int:
    """How far from the transport a unit boards it: 1 (in or next to its hex, a reading) or 0 (the digest's
    proposal: it moves into the transport's hex first), ``tables.toml [readings] load_reach`` (digest G18)."""
    return int(combat.tables()["readings"]["load_reach"])


def _unload(w: Work[Battle], seat: str, order: Unload) -> str | None:
    """The passenger gets off where the order says, if it still can (L9); it acts no more this phase."""
    b = w.data
    passenger = b.cargo.get(order.unit)
    carrier = b.unit(passenger.aboard) if passenger is not None else None
    at = parse_hex(order.at)
    if passenger is None or passenger.side != seat or carrier is None or at is None:
        return t_("%(unit)s is not aboard a transport", unit=order.unit)
    problem = placement_problem(b.board, b.all(), passenger, at)
    if problem is not None or distance(at, carrier.hex) > 1:
        return problem or t_("%(hex)s is not next to %(carrier)s", hex=order.at, carrier=carrier.id)
    there = [u for u in b.all() if u.hex == at and u.side != passenger.side] if at != carrier.hex else []
    if there:  # it came there after the order was written (fast cadence, alternating lists)
        _reveal(b, passenger.side, there)  # on the table the passenger's side would see it there
        return t_("%(unit)s cannot get off at %(hex)s: %(enemy)s is there, and a passenger gets off next door only "
                   "into a hex free of enemies (L9)", unit=passenger.id, hex=order.at, enemy=_name(there[0]))
    del b.cargo[passenger.id]
    b.put(passenger.but(hex=at, facing=carrier.facing, aboard=""))
    b.acted.add(passenger.id)
    tell(w, [b.units[passenger.id], carrier], t_("%(u0)s gets off %(u1)s at %(hex)s", u0="{0}", u1="{1}", hex=order.at), "move")
    return None


def _reveal(b: Battle, side: str, units: Sequence[Unit]) -> None:
    """In fog, ``side`` remembers ``units`` where they stand now (an enemy met on the table shows itself)."""
    if b.state.fog:
        for u in units:
            b.passing[(side, u.id)] = Glimpse(side, u.id, u.card, u.hex, u.facing, b.work.turn)


def _overwatch(w: Work[Battle], unit: Unit, order: Overwatch) -> str | None:
    """The unit watches a row; a turretless vehicle turns its hull to it (L218)."""
    if unit.disrupted:
        return t_("%(unit)s is Disrupted and cannot go on Overwatch (L224)", unit=unit.id)
    b = w.data
    points = sum(u.stats.cost for u in (*b.all(), *b.lost) if u.side == unit.side)
    limit = combat.overwatch_limit(points)
    if sum(1 for u in b.all() if u.side == unit.side and u.overwatch is not None and u.id != unit.id) >= limit:
        return t_("the side already has %(n)s units on Overwatch (L236)", n=limit)  # two seats' orders together
    d = NAMES.index(order.face)
    turned = unit.facing if unit.stats.turret or unit.stats.kind != VEHICLE else d
    w.data.put(unit.but(overwatch=d, facing=turned))
    w.data.acted.add(unit.id)
    tell(w, [unit], t_("%(u0)s goes on Overwatch towards %(face)s", u0="{0}", face=order.face), "move")
    return None


def _attack(w: Work[Battle], attacker: Unit, order: Attack) -> str | None:
    """The attack, then a Double Shot's second attack or its grazing attacks, each a separate roll."""
    b = w.data
    target = b.unit(order.target)
    if target is None:
        return t_("%(unit)s is no longer on the map", unit=order.target)
    problem = _attack_problem(b, attacker, target)
    if problem is not None:
        return problem
    b.acted.add(attacker.id)
    attacker = attacker.but(overwatch=None)  # attacking ends Overwatch (digest G23)
    b.put(attacker)
    _roll_attack(w, attacker, target)
    extra = [b.unit(order.second)] if order.second else _grazed(b, attacker, target) if order.graze else []
    for other_target in extra:
        why = t_("no longer on the map") if other_target is None else _attack_problem(b, attacker, other_target)
        if why is not None and order.graze and other_target is not None:
            # grazing fire reaches only a unit the attacker sees in range (a reading of L278); told to the
            # sides that see both, so an unseen grazed unit is never named or hinted at (fog)
            tell_seen(w, [attacker, other_target], t_("%(u0)s's grazing fire does not reach %(u1)s: %(why)s", u0="{0}", u1="{1}", why=why), "skipped")
            continue
        if why is not None:
            w.say(t_("%(unit)s cannot make its second attack", unit=_name(attacker)), to=attacker.side, kind="skipped")
            continue
        _roll_attack(w, attacker, other_target)
    return None


def strike(w: Work[Battle], seat: str, order: Air) -> str | None:
    """An air strike: the aircraft is placed facing its target (L246), draws the fire of enemy AA
    units next to it (L354), then attacks; its hits go face-down like any other (L332)."""
    b = w.data
    plane = b.reserve.get(order.unit)
    target = b.unit(order.target)
    at = parse_hex(order.at)
    if plane is None or plane.side != seat or plane.disrupted:
        return t_("%(unit)s is not ready off the map", unit=order.unit)
    if target is None or at is None or any(u.hex == at and not u.stats.ground for u in b.all()):
        return t_("%(unit)s cannot strike %(target)s from %(hex)s", unit=order.unit, target=order.target, hex=order.at)
    del b.reserve[plane.id]
    plane = plane.but(hex=at, facing=NAMES.index(order.face), pending=(), overwatch=None)
    b.put(plane)
    b.acted.add(plane.id)
    tell(w, [plane], t_("%(u0)s strikes from %(hex)s facing %(face)s", u0="{0}", hex=order.at, face=order.face), "air")
    plane = _anti_aircraft(w, plane)
    problem = _attack_problem(b, plane, target)
    if problem is not None:
        return problem
    _roll_attack(w, plane, target)
    return None


def _anti_aircraft(w: Work[Battle], plane: Unit) -> Unit:
    """Enemy AA units in or next to the aircraft's hex fire at it, Disrupt-only (L354, L364), unless
    their standing AA order says NEVER; each such fire is the unit's one reaction of the phase."""
    b = w.data
    for gun in [u for u in b.all() if u.side != plane.side and u.stats.has("antiair")]:
        kept = b.standing(gun.side, f"AA {gun.id}") or b.standing(gun.side, "AA ALL")
        if plane.disrupted or not can_react(gun, b.fired) or distance(gun.hex, plane.hex) > 1 or \
                (kept is not None and kept.words[2] == "NEVER"):
            continue
        b.fired.add(gun.id)
        friends = [u for u in b.all() if u.side == gun.side]
        hit, text = fire(b.board, Shot(gun, plane.hex, "aa"), plane, friends, b.state.advanced,
                         partial(w.roll, 6, seen_by=dice_seen_by(w, [gun, plane])))
        tell(w, [gun, plane], t_("%(u0)s AA fire at %(u1)s in %(hex)s: %(result)s", u0="{0}", u1="{1}", hex=hex_name(plane.hex), result=text), "reaction")
        if hit:
            plane = plane.but(disrupted=True)
            b.put(plane)
    return plane


def _grazed(b: Battle, attacker: Unit, target: Unit) -> list[Unit | None]:
    """Enemies in the hexes next to the target that the line of fire touches (L278-L280); also the
    others in the target's own hex when ``tables.toml [readings] graze_target_hex`` (digest G20)."""
    hexes = grazed_hexes(attacker.hex, target.hex)
    if combat.tables()["readings"]["graze_target_hex"]:
        hexes = (target.hex, *hexes)
    return [u for u in b.all() if u.side == target.side and u.hex in hexes and u.id != target.id]


def _roll_attack(w: Work[Battle], attacker: Unit, target: Unit) -> None:
    b = w.data
    band = combat.band(attacker.hex, target.hex) or "close"
    dice = attacker.stats.dice(target.stats.kind, band)
    friends = [u for u in b.all() if u.side == attacker.side]
    flank = enfilade(attacker, target, friends, advanced=b.state.advanced)
    mod = combat.die_modifier(attacker, target, enfilade=flank,
                              aircraft_front=aircraft_front(target, attacker.hex))
    side = combat.facing_defence(target, attacker.hex, advanced=b.state.advanced)
    d = combat.defence(target, side)
    faces = [w.roll(6, t_("%(unit)s attacks %(target)s", unit=attacker.id, target=target.id), seen_by=dice_seen_by(w, [attacker, target]))
             for _ in range(dice)]
    s = combat.successes(faces, mod)
    hits = combat.hits_for(s, d)
    pending = combat.add_hits(target.pending, hits, target.stats.kind == VEHICLE)
    tell(w, [attacker, target], _attack_said(band, dice, faces, mod, s, side, d, hits),
         "attack")
    if hits:
        pending = _cover(w, attacker, target, pending)
    b.put(target.but(pending=pending))
    if pending != target.pending:
        tell(w, [target], t_("%(u0)s now has face-down %(markers)s", u0="{0}", markers=join(", ", [combat.marker(p) for p in pending])), "hit")


_ACTS: dict[type, Any] = {Move: move, Face: _face, Attack: _attack, Overwatch: _overwatch, Load: _load, Hold: _hold}


def _attack_said(band: str, dice: int, faces: Sequence[int], mod: int, s: int, side: str, d: int, hits: int) -> str:
    """The event of an attack, with ``{0}`` the attacker and ``{1}`` the target (fog.tell)."""
    rolled = ",".join(map(str, sorted(faces, reverse=True)))
    each = t_(" (%(mod)s each)", mod=f"{mod:+d}") if mod else ""
    return t_("%(u0)s attacks %(u1)s at %(band)s range: %(dice)s dice %(rolled)s%(each)s, %(successes)s against "
              "%(side)s defence %(d)s: %(hits)s", u0="{0}", u1="{1}", band=combat.band_word(band), dice=dice,
              rolled=rolled, each=each, successes=tn_("%(n)d success", "%(n)d successes", s),
              side=combat.side_word(side), d=d, hits=tn_("%(n)d hit", "%(n)d hits", hits))


def _attack_problem(b: Battle, attacker: Unit, target: Unit) -> str | None:
    if not clear(b.board, attacker.hex, target.hex, strict=b.state.sight == "strict"):
        return t_("%(unit)s no longer sees %(target)s", unit=attacker.id, target=target.id)
    band = combat.band(attacker.hex, target.hex)
    if band is None or attacker.stats.dice(target.stats.kind, band) == 0:
        return t_("%(target)s is out of %(unit)s's range", target=target.id, unit=attacker.id)
    return None


def _cover(w: Work[Battle], attacker: Unit, target: Unit, pending: tuple[str, ...]) -> tuple[str, ...]:
    """The defender's cover roll after a successful attack (L58-L60, L186; numbers placeholder)."""
    need = cover_needed(w.data.board, target, attacker.hex)
    if not need:
        return pending
    same = combat.tables()["cover"]["same_hex"] if attacker.hex == target.hex else 0
    roll = w.roll(6, t_("%(unit)s cover roll", unit=target.id), seen_by=dice_seen_by(w, [target]))
    if roll + same < need:
        tell(w, [target], t_("%(u0)s cover roll %(roll)s: no cover (needs %(need)s)", u0="{0}", roll=roll, need=need), "cover")
        return pending
    tell(w, [target], t_("%(u0)s cover roll %(roll)s: the attack only disrupts (needs %(need)s)", u0="{0}", roll=roll, need=need), "cover")
    return combat.after_cover(target.pending, pending)


# ------------------------------------------------------------------------------- end of a phase
def overstack_penalty(w: Work[Battle], side: str) -> None:
    """At the end of the phase the opponent puts a face-down yellow on one unit of each of ``side``'s
    overstacked hexes (L5), chosen by its standing OVERSTACK_PENALTY order (highest cost if none)."""
    b = w.data
    kept = w.data.standing(other(side), "OVERSTACK_PENALTY")
    choice = kept.words[1] if kept is not None else "HIGHEST_COST"
    for h in overstacked(b.all(), side):
        here = [u for u in b.all() if u.hex == h and u.side == side and u.stats.ground]
        victim = _penalised(here, choice)
        b.put(victim.but(pending=combat.add_hits(victim.pending, 1, victim.stats.kind == VEHICLE)))
        tell(w, [victim], t_("%(hex)s is over full: %(side)s puts a face-down yellow on %(u0)s (L5)", hex=hex_name(h), side=other(side), u0="{0}"), "hit")


def _penalised(units: Sequence[Unit], choice: str) -> Unit:
    if choice == "LOWEST_COST":
        return min(units, key=lambda u: (u.stats.cost, u.id))
    hit = [u for u in units if u.pending] if choice == "ALREADY_HIT" else []
    return max(hit or units, key=lambda u: (u.stats.cost, u.id))


def casualty_phase(w: Work[Battle]) -> None:
    """Remove face-up Disruptions, turn the face-down markers up, remove the destroyed (L288-L338);
    the aircraft that struck this turn leave the map (the later rules' reading, digest G16)."""
    b = w.data
    for plane in list(b.reserve.values()):
        b.reserve[plane.id] = plane.but(disrupted=False)
    for unit in b.all():
        after = combat.casualty(unit)
        if after is None:
            del b.units[unit.id]
            b.lost.append(unit)
            tell(w, [unit], t_("%(u0)s is destroyed", u0="{0}"), "casualty")
            for side in witnesses(w, unit):
                b.witnessed.setdefault(side, []).append(unit)
            for rider in [c for c in b.cargo.values() if c.aboard == unit.id]:  # placeholder (G18)
                del b.cargo[rider.id]
                b.lost.append(rider.but(aboard=""))
                tell(w, [rider, unit], t_("%(u0)s is lost with %(carrier)s", u0="{0}", carrier=unit.id), "casualty")
            continue
        b.put(after)
        if unit.pending:
            states = join(", ", [s for s, on in ((t_("Disrupted"), after.disrupted), (t_("Damaged"), after.damaged)) if on])
            tell(w, [after], t_("%(u0)s: %(states)s", u0="{0}", states=states), "casualty")
    for plane in [u for u in b.all() if not u.stats.ground]:
        del b.units[plane.id]
        b.reserve[plane.id] = plane


def interleave(lists: Sequence[Sequence[object]]) -> list[tuple[int, object]]:
    """The entries of the sides' lists taken in turn, the first player's first (the alternation of
    one unit at a time is the usual reading, digest G5); a side that runs out lets the other finish."""
    out = []
    for i in range(max((len(x) for x in lists), default=0)):
        out += [(k, x[i]) for k, x in enumerate(lists) if i < len(x)]
    return out


def sides_in_order(first: str) -> tuple[str, str]:
    return (first, other(first)) if first in SIDES else SIDES
