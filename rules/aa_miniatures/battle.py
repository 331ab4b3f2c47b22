"""Resolution: the working copy of the position and what each order does to it.

A :class:`Battle` is the ruleset's working data inside the kit's :class:`~pbem.core.work.Work`; every
event goes through ``w.say`` and every die through ``w.roll`` (all dice are seen by both sides: the
game hides nothing, digest 5)."""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.hexgrid import NAMES, Hex, direction
from pbem.core.work import EVERYONE, Work

from . import combat
from .board import Board, board, hex_name, parse_hex
from .los import clear, cover_needed, enfilade
from .model import SIDES, State, Unit, other
from .movement import overstacked, path_problem, steps_of
from .orders import Attack, Face, Hold, Move, Overwatch
from .reactions import Shot, best_hex, can_react, fire, on_row, placed, provokes
from .tables import VEHICLE


class Battle:
    """The position being changed: units by id in map order, those lost, who acted this phase."""

    def __init__(self, state: State, work: Work[Battle]) -> None:
        self.state = state
        self.board: Board = board(state.map)
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.lost = list(state.lost)
        self.first = state.first
        self.acted: set[str] = set()
        self.fired: set[str] = set()  # units that made defensive or overwatch fire this phase (L356)
        self.over = False

    def unit(self, uid: str) -> Unit | None:
        return self.units.get(uid)

    def put(self, unit: Unit) -> None:
        self.units[unit.id] = unit

    def all(self) -> tuple[Unit, ...]:
        return tuple(self.units.values())

    def freeze(self) -> State:
        s = self.state
        return State(s.scenario, s.map, s.last_turn, s.objectives, self.all(), tuple(self.lost), self.first, s.flow,
                     s.sight)


def _name(u: Unit) -> str:
    return f"{u.side} {u.id}"


# ---------------------------------------------------------------------------------------- orders
def perform(w: Work[Battle], seat: str, order: object) -> str | None:
    """Carry out one order of ``seat``; the reason it cannot be, or None (the kit tells the author)."""
    b = w.data
    uid = getattr(order, "unit", "")
    unit = b.unit(uid)
    if unit is None or unit.side != seat:
        return f"{uid} is no longer on the map"
    if uid in b.acted:
        return f"{uid} has already acted this phase"
    if isinstance(order, Move):
        return _move(w, unit, order)
    if isinstance(order, Face):
        return _face(w, unit, order)
    if isinstance(order, Attack):
        return _attack(w, unit, order)
    if isinstance(order, Overwatch):
        return _overwatch(w, unit, order)
    if isinstance(order, Hold):
        b.acted.add(uid)
        return None
    return f"{type(order).__name__} is not an order for this phase"


def _face(w: Work[Battle], unit: Unit, order: Face) -> str | None:
    if unit.disrupted:
        return f"{unit.id} is Disrupted and cannot turn (L25)"
    w.data.put(unit.but(facing=NAMES.index(order.face), overwatch=None))
    w.data.acted.add(unit.id)
    w.say(f"{_name(unit)} turns to face {order.face}", kind="move")
    return None


def _overwatch(w: Work[Battle], unit: Unit, order: Overwatch) -> str | None:
    """The unit watches a row; a turretless vehicle turns its hull to it (L218)."""
    if unit.disrupted:
        return f"{unit.id} is Disrupted and cannot go on Overwatch (L224)"
    d = NAMES.index(order.face)
    turned = unit.facing if unit.stats.turret or unit.stats.kind != VEHICLE else d
    w.data.put(unit.but(overwatch=d, facing=turned))
    w.data.acted.add(unit.id)
    w.say(f"{_name(unit)} goes on Overwatch towards {order.face}", kind="move")
    return None


def _move(w: Work[Battle], unit: Unit, order: Move) -> str | None:
    """Step by step: a failed entry roll stops the unit facing the hex it tried to enter (L29);
    defensive or overwatch fire that Disrupts it stops it where it was fired at (L346)."""
    b = w.data
    path = [parse_hex(h) for h in order.path]
    problem = path_problem(b.board, b.all(), unit, path)  # type: ignore[arg-type]
    if problem is not None:
        return problem
    b.acted.add(unit.id)
    at = unit
    for step in steps_of(b.board, unit, path):  # type: ignore[arg-type]
        heading = _heading_to(at.hex, step.hex)
        if step.entry and w.roll(6, f"{unit.id} enters {hex_name(step.hex)}", seen_by=EVERYONE) < step.entry:
            b.put(at.but(facing=heading, overwatch=None))
            w.say(f"{_name(unit)} fails to enter {hex_name(step.hex)} and stops in {hex_name(at.hex)}, "
                  f"facing {NAMES[heading]} (L29)", kind="move")
            return None
        stopped = _reactions(w, at.but(overwatch=None), at.hex, step.hex)
        if stopped is not None:
            b.put(stopped)
            return None
        at = at.but(hex=step.hex, facing=heading, overwatch=None)
    b.put(at.but(facing=NAMES.index(order.face)))
    w.say(f"{_name(unit)} moves to {hex_name(at.hex)} facing {order.face}", kind="move")
    return None


def _policy(w: Work[Battle], firer: Unit, verb: str) -> tuple[str, str]:
    """The firer's standing DF or OW order, its own before its side's ALL: (when, hex); ALWAYS, BEST
    when none is given."""
    kept = w.standing_order(firer.side, f"{verb} {firer.id}") or w.standing_order(firer.side, f"{verb} ALL")
    if kept is None:
        return "ALWAYS", "BEST"
    words = kept.words
    return words[2], words[4] if len(words) > 4 else "BEST"


def _wants(when: str, mover: Unit) -> bool:
    vehicle = mover.stats.kind == VEHICLE
    return when == "ALWAYS" or (when == "VEHICLES" and vehicle) or (when == "SOLDIERS" and not vehicle)


def _shot(w: Work[Battle], firer: Unit, mover: Unit, a: Hex, b: Hex) -> Shot | None:
    """The reaction ``firer`` makes at the step A -> B by its standing orders, or None."""
    bt = w.data
    if not can_react(firer, bt.fired):
        return None
    strict = bt.state.sight == "strict"
    if on_row(bt.board, firer, mover, b, strict=strict) and _wants(_policy(w, firer, "OW")[0], mover):
        return Shot(firer, b, "overwatch")
    if not provokes(mover, firer, a, b):
        return None
    when, where = _policy(w, firer, "DF")
    if not _wants(when, mover):
        return None
    friends = [u for u in bt.all() if u.side == firer.side]
    at = {"FROM": a, "TO": b}.get(where) or best_hex(bt.board, firer, mover, a, b, friends)
    return Shot(firer, at, "df")


def _reactions(w: Work[Battle], mover: Unit, a: Hex, b: Hex) -> Unit | None:
    """The other side's defensive and overwatch fire at the step A -> B, one firer after another
    until the mover is Disrupted (overlapping fire, L360); the mover as it stops, or None."""
    bt = w.data
    for firer in [u for u in bt.all() if u.side != mover.side]:
        shot = _shot(w, bt.units[firer.id], mover, a, b)
        if shot is None:
            continue
        bt.fired.add(firer.id)
        bt.put(bt.units[firer.id].but(overwatch=None))  # any fire ends Overwatch (L230, digest G23)
        target = placed(mover, a, b, shot.at)
        friends = [u for u in bt.all() if u.side == firer.side]
        hit, text = fire(bt.board, shot, target, friends,
                         lambda why: w.roll(6, why, seen_by=EVERYONE))
        label = "defensive fire" if shot.why == "df" else "overwatch fire"
        w.say(f"{_name(firer)} {label} at {_name(mover)} in {hex_name(shot.at)}: {text}", kind="reaction")
        if hit:
            return target.but(disrupted=True, overwatch=None)
    return None


def _heading_to(a: Hex, b: Hex) -> int:
    d = direction(a, b)
    return 0 if d is None else d


def _attack(w: Work[Battle], attacker: Unit, order: Attack) -> str | None:
    b = w.data
    target = b.unit(order.target)
    if target is None:
        return f"{order.target} is no longer on the map"
    problem = _attack_problem(b, attacker, target)
    if problem is not None:
        return problem
    b.acted.add(attacker.id)
    b.put(attacker.but(overwatch=None))  # attacking ends Overwatch (digest G23)
    band = combat.band(attacker.hex, target.hex) or "close"
    dice = attacker.stats.dice(target.stats.kind, band)
    friends = [u for u in b.all() if u.side == attacker.side]
    mod = combat.die_modifier(attacker, target, enfilade=enfilade(attacker, target, friends))
    side = combat.facing_defence(target, attacker.hex)
    d = combat.defence(target, side)
    faces = [w.roll(6, f"{attacker.id} attacks {target.id}", seen_by=EVERYONE) for _ in range(dice)]
    s = combat.successes(faces, mod)
    hits = combat.hits_for(s, d)
    pending = combat.add_hits(target.pending, hits, target.stats.kind == VEHICLE)
    w.say(f"{_name(attacker)} attacks {_name(target)} at {band} range: {dice} dice "
          f"{','.join(map(str, sorted(faces, reverse=True)))}{f' ({mod:+d} each)' if mod else ''}, "
          f"{_count(s, 'success', 'successes')} against {side} defence {d}: {_count(hits, 'hit', 'hits')}",
          kind="attack")
    if hits:
        pending = _cover(w, attacker, target, pending)
    b.put(target.but(pending=pending))
    if pending != target.pending:
        w.say(f"{_name(target)} now has face-down {', '.join(pending)}", kind="hit")
    return None


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _attack_problem(b: Battle, attacker: Unit, target: Unit) -> str | None:
    if not clear(b.board, attacker.hex, target.hex, strict=b.state.sight == "strict"):
        return f"{attacker.id} no longer sees {target.id}"
    band = combat.band(attacker.hex, target.hex)
    if band is None or attacker.stats.dice(target.stats.kind, band) == 0:
        return f"{target.id} is out of {attacker.id}'s range"
    return None


def _cover(w: Work[Battle], attacker: Unit, target: Unit, pending: tuple[str, ...]) -> tuple[str, ...]:
    """The defender's cover roll after a successful attack (L58-L60, L186; numbers placeholder)."""
    need = cover_needed(w.data.board, target, attacker.hex)
    if not need:
        return pending
    same = combat.tables()["cover"]["same_hex"] if attacker.hex == target.hex else 0
    roll = w.roll(6, f"{target.id} cover roll", seen_by=EVERYONE)
    if roll + same < need:
        w.say(f"{_name(target)} cover roll {roll}: no cover (needs {need})", kind="cover")
        return pending
    w.say(f"{_name(target)} cover roll {roll}: the attack only disrupts (needs {need})", kind="cover")
    return combat.after_cover(target.pending, pending)


# ------------------------------------------------------------------------------- end of a phase
def overstack_penalty(w: Work[Battle], side: str) -> None:
    """At the end of the phase the opponent puts a face-down yellow on one unit of each of ``side``'s
    overstacked hexes (L5); the choice is the highest cost unit (the standing order is not yet built)."""
    b = w.data
    for h in overstacked(b.all(), side):
        here = [u for u in b.all() if u.hex == h and u.side == side and u.stats.ground]
        victim = max(here, key=lambda u: (u.stats.cost, u.id))
        b.put(victim.but(pending=combat.add_hits(victim.pending, 1, victim.stats.kind == VEHICLE)))
        w.say(f"{hex_name(h)} is over full: {other(side)} puts a face-down yellow on {_name(victim)} (L5)",
              kind="hit")


def casualty_phase(w: Work[Battle]) -> None:
    """Remove face-up Disruptions, turn the face-down markers up, remove the destroyed (L288-L338)."""
    b = w.data
    for unit in b.all():
        after = combat.casualty(unit)
        if after is None:
            del b.units[unit.id]
            b.lost.append(unit)
            w.say(f"{_name(unit)} is destroyed", kind="casualty")
            continue
        b.put(after)
        if unit.pending:
            w.say(f"{_name(unit)}: " + ", ".join(s for s, on in (("Disrupted", after.disrupted),
                                                                    ("Damaged", after.damaged)) if on),
                  kind="casualty")


def interleave(lists: Sequence[Sequence[object]]) -> list[tuple[int, object]]:
    """The entries of the sides' lists taken in turn, the first player's first (the alternation of
    one unit at a time is the usual reading, digest G5); a side that runs out lets the other finish."""
    out = []
    for i in range(max((len(x) for x in lists), default=0)):
        out += [(k, x[i]) for k, x in enumerate(lists) if i < len(x)]
    return out


def sides_in_order(first: str) -> tuple[str, str]:
    return (first, other(first)) if first in SIDES else SIDES
