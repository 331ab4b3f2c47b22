"""A unit's move, hex by hex, with the other side's reaction fire at every step (L29, L340-L384,
L212-L240); a reaction whose standing order says ASK suspends the resolution for that seat."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.texts import t_
from pbem.core.hexgrid import NAMES, Hex, direction
from pbem.core.interrupts import Ask
from pbem.core.work import Work

from .board import hex_name, parse_hex
from .fog import dice_seen_by, knowers, tell
from .model import SIDES, Glimpse, Unit
from .movement import path_problem, steps_of
from .orders import Move
from .reactions import Shot, best_hex, can_react, fire, on_row, placed, provokes
from .tables import VEHICLE, tables
from .working import Battle, name

#: What ``reactions`` returns when it asked a seat and resolution must stop.
SUSPENDED = "suspended"


def move(w: Work[Battle], unit: Unit, order: Move) -> str | None:
    """Carry out a MOVE; the reason it cannot be, or None."""
    path = [parse_hex(h) for h in order.path]
    problem = path_problem(w.data.board, w.data.all(), unit, path)  # type: ignore[arg-type]
    if problem is not None:
        return problem
    w.data.acted.add(unit.id)
    walk(w, unit.but(overwatch=None), path, order.face)  # type: ignore[arg-type]
    return None


def walk(w: Work[Battle], at: Unit, path: Sequence[Hex], face: str, *, entered: bool = False,
         done: Sequence[str] = ()) -> None:
    """Step along ``path`` from ``at``: a failed entry roll stops the unit facing the hex it tried
    (L29); reaction fire that Disrupts it stops it where it was fired at (L346).  ``entered``: the
    first step's entry roll was already made (a resumed walk); ``done``: who already reacted to it."""
    b = w.data
    start = at
    marks = {side: b.passing.get((side, at.id)) for side in SIDES}  # in fog: to tell who saw it on the way
    seen_at_start = knowers(w, [start]) if b.state.fog else {}
    looked = _looking(w, at)
    for i, step in enumerate(steps_of(b.board, at, path)):
        heading = _heading(at.hex, step.hex)
        first = i == 0
        if step.entry and not (first and entered) and \
                w.roll(6, t_("%(unit)s enters %(hex)s", unit=at.id, hex=hex_name(step.hex)), seen_by=dice_seen_by(w, [at])) < step.entry:
            b.put(at.but(facing=heading))
            said = t_("%(u0)s fails to enter %(hex)s and stops in %(at)s, facing %(face)s (L29)", u0="{0}",
                      hex=hex_name(step.hex), at=hex_name(at.hex), face=NAMES[heading])
            tell(w, [at], said, "move")
            _out_of_sight(w, b.units[at.id], _last_seen(b, start, marks, seen_at_start))
            _glimpsed(w, b.units[at.id], looked)
            return
        b.put(at)
        stopped = reactions(w, at, at.hex, step.hex, path[i:], face, done if first else ())
        if stopped == SUSPENDED:
            return
        if isinstance(stopped, Unit):
            b.put(stopped)
            _out_of_sight(w, stopped, _last_seen(b, start, marks, seen_at_start))
            _glimpsed(w, stopped, looked)
            return
        at = at.but(hex=step.hex, facing=heading)
    b.put(at.but(facing=NAMES.index(face)))
    _moved(w, at, face, _last_seen(b, start, marks, seen_at_start))
    _glimpsed(w, at, looked)


def _looking(w: Work[Battle], mover: Unit) -> tuple[set[str], dict[str, Glimpse]]:
    """In fog, before a move: the enemies the mover's side sees as it starts, and its glimpses so far."""
    b = w.data
    if not b.state.fog:
        return set(), {}
    enemies = [u for u in b.all() if u.side != mover.side]
    seen = knowers(w, enemies)[mover.side]
    return seen, {eid: g for (side, eid), g in b.passing.items() if side == mover.side}


def _glimpsed(w: Work[Battle], mover: Unit, looked: tuple[set[str], dict[str, Glimpse]]) -> None:
    """In fog, after a move: each enemy the mover caught sight of on its way, that its side did not see
    as the move began and does not see where it ended, is told to the mover's side where it was seen
    (the glimpse its view keeps as last seen); nobody else is told anything."""
    b = w.data
    if not b.state.fog:
        return
    seen, before = looked
    now = knowers(w, [u for u in b.all() if u.side != mover.side])[mover.side]
    for (side, eid), g in sorted(b.passing.items(), key=lambda kv: kv[0]):
        if side != mover.side or eid in seen or eid in now or before.get(eid) is g or g.lost:
            continue
        enemy = b.units.get(eid)
        if enemy is None:
            continue
        w.say(t_("%(unit)s on its way catches sight of %(enemy)s in %(hex)s facing %(face)s, then loses it",
                 unit=name(mover), enemy=name(enemy), hex=hex_name(g.hex), face=NAMES[g.facing]), to=mover.side, kind="sighting")


def _last_seen(b: Battle, start: Unit, marks: Mapping[str, Glimpse | None],
               seen_at_start: Mapping[str, set[str]]) -> dict[str, Hex]:
    """In fog, for each enemy side that saw the moving unit at some point of this move (as it
    started, or in a hex it came to stand in), the last hex it saw it in."""
    out = {side: start.hex for side, ids in seen_at_start.items() if side != start.side and ids}
    for side in SIDES:
        g = b.passing.get((side, start.id))
        if side != start.side and g is not None and g is not marks[side]:
            out[side] = g.hex
    return out


def _moved(w: Work[Battle], at: Unit, face: str, last_seen: Mapping[str, Hex]) -> None:
    """The move's event: in fog, told with its end to each side that sees the unit there; a side
    that saw it only on the way (as it started, or crossing ground in its sight) is told where it
    lost sight of it, and nothing about the rest of the way."""
    if not w.data.state.fog:
        w.say(t_("%(unit)s moves to %(hex)s facing %(face)s", unit=name(at), hex=hex_name(at.hex), face=face), kind="move")
        return
    tell(w, [at], t_("%(unit)s moves to %(hex)s facing %(face)s", unit="{0}", hex=hex_name(at.hex), face=face), "move")
    _out_of_sight(w, at, last_seen)


def _out_of_sight(w: Work[Battle], at: Unit, last_seen: Mapping[str, Hex]) -> None:
    """Tell each side that saw the unit during its move but does not see it where it stopped the
    last hex it saw it in (in fog; one event per hex, so sides that lost it at the same place share it)."""
    if not w.data.state.fog:
        return
    after = knowers(w, [at])
    by_hex: dict[Hex, list[str]] = {}
    for side, h in last_seen.items():
        if not after[side]:
            by_hex.setdefault(h, []).append(side)
    for h, sides in by_hex.items():
        w.say(t_("%(unit)s moves out of sight from %(hex)s", unit=name(at), hex=hex_name(h)), to=tuple(sides), kind="move")


def _heading(a: Hex, b: Hex) -> int:
    d = direction(a, b)
    return 0 if d is None else d


# ------------------------------------------------------------------------------------ reactions
def _policy(w: Work[Battle], firer: Unit, verb: str) -> tuple[str, str]:
    """The firer's standing DF or OW order, its own before its side's ALL: (when, hex); ALWAYS, BEST
    when none is given (a unit fires unless told otherwise)."""
    kept = w.data.standing(firer.side, f"{verb} {firer.id}") or w.data.standing(firer.side, f"{verb} ALL")
    if kept is None:
        return "ALWAYS", "BEST"
    words = kept.words
    return words[2], words[4] if len(words) > 4 else "BEST"


def _wants(when: str, mover: Unit) -> bool:
    vehicle = mover.stats.kind == VEHICLE
    return when in ("ALWAYS", "ASK") or (when == "VEHICLES" and vehicle) or (when == "SOLDIERS" and not vehicle)


def _shot(w: Work[Battle], firer: Unit, mover: Unit, a: Hex, b: Hex) -> tuple[Shot, bool] | None:
    """The reaction ``firer`` may make at the step A -> B by its standing orders, and whether its
    owner must be asked; None if none."""
    bt = w.data
    if not can_react(firer, bt.fired):
        return None
    strict = bt.state.sight == "strict"
    soldier_past_tank = firer.stats.kind == VEHICLE and mover.stats.kind != VEHICLE
    if on_row(bt.board, firer, mover, b, strict=strict) and (bt.state.ow_soldiers or not soldier_past_tank):
        when = _policy(w, firer, "OW")[0]
        if _wants(when, mover):
            return Shot(firer, b, "overwatch"), when == "ASK"
    if not provokes(mover, firer, a, b):
        return None
    when, where = _policy(w, firer, "DF")
    if not _wants(when, mover):
        return None
    friends = [u for u in bt.all() if u.side == firer.side]
    at = {"FROM": a, "TO": b}.get(where) or best_hex(bt.board, firer, mover, a, b, friends, bt.state.advanced)
    return Shot(firer, at, "df"), when == "ASK"


def reactions(w: Work[Battle], mover: Unit, a: Hex, b: Hex, path: Sequence[Hex], face: str,
              done: Sequence[str]) -> Unit | str | None:
    """The other side's defensive and overwatch fire at the step A -> B (``path`` starts with B), one
    firer after another until the mover is Disrupted (overlapping fire, L360): the mover as it stops,
    None if it goes on, or SUSPENDED after asking a seat."""
    bt = w.data
    for firer in _firers(w, mover, done):
        found = _shot(w, bt.units[firer.id], mover, a, b)
        if found is None:
            continue
        shot, ask = found
        if ask:
            _ask(w, shot, mover, a, path, face, [*done, firer.id])
            return SUSPENDED
        hit = shoot(w, shot, mover, a, b)
        if hit is not None:
            return hit
    return None


def _firers(w: Work[Battle], mover: Unit, done: Sequence[str]) -> list[Unit]:
    """The other side's units in the order they react: its standing DF_ORDER first, then map order."""
    units = [u for u in w.data.all() if u.side != mover.side and u.id not in done]
    kept = w.data.standing(units[0].side, "DF_ORDER") if units else None
    first = kept.words[1:] if kept is not None else ()
    return sorted(units, key=lambda u: first.index(u.id) if u.id in first else len(first))


def shoot(w: Work[Battle], shot: Shot, mover: Unit, a: Hex, b: Hex) -> Unit | None:
    """One reaction fire; the mover Disrupted where it was fired at, or None."""
    bt = w.data
    firer = bt.units[shot.firer.id]
    if shot.why == "df" or tables()["readings"]["ow_fire_uses_reaction"]:
        bt.fired.add(firer.id)  # the unit's one reaction of the phase (L356; overwatch fire too, digest G23)
    bt.put(firer.but(overwatch=None))  # any fire ends Overwatch (L230, digest G23)
    target = placed(mover, a, b, shot.at)
    friends = [u for u in bt.all() if u.side == firer.side]
    hit, text = fire(bt.board, Shot(firer, shot.at, shot.why), target, friends, bt.state.advanced,
                     lambda why: w.roll(6, why, seen_by=dice_seen_by(w, [firer, target])))
    said = t_("%(u0)s defensive fire at %(u1)s in %(hex)s: %(result)s", u0="{0}", u1="{1}", hex=hex_name(shot.at),
              result=text) if shot.why == "df" else \
        t_("%(u0)s overwatch fire at %(u1)s in %(hex)s: %(result)s", u0="{0}", u1="{1}", hex=hex_name(shot.at), result=text)
    tell(w, [firer, target], said, "reaction")
    if not hit:
        return None
    if shot.why != "df":
        return target.but(disrupted=True, overwatch=None)
    stopped = _stopped(target, a, b)
    if stopped.hex != shot.at:  # another reading of where it stops (df_stop): say where it ends
        bt.put(stopped)
        tell(w, [stopped], t_("%(u0)s stops in %(hex)s, Disrupted (L346)", u0="{0}", hex=hex_name(stopped.hex)), "move")
    return stopped


def _stopped(target: Unit, a: Hex, b: Hex) -> Unit:
    """Where a defensive fire that Disrupts stops the mover (L346 says only that it stops): in the hex
    fired at, or as ``tables.toml [readings] df_stop`` says, in the hex it ``entered`` or ``left``
    whichever hex it was fired at in (digest G25); it keeps the facing of the step A -> B."""
    where = {"entered": b, "left": a}.get(tables()["readings"]["df_stop"], target.hex)
    return target.but(hex=where, disrupted=True, overwatch=None)


# ------------------------------------------------------------------------------ ask and resume
def _ask(w: Work[Battle], shot: Shot, mover: Unit, a: Hex, path: Sequence[Hex], face: str,
         done: Sequence[str]) -> None:
    bt = w.data
    firer, b = shot.firer, path[0]
    if shot.why == "df":
        question = t_("%(unit)s moves from %(a)s to %(b)s, next to your %(firer)s: defensive fire into the hex it "
                      "leaves (FIRE FROM), the hex it enters (FIRE TO), or HOLD", unit=name(mover), a=hex_name(a),
                      b=hex_name(b), firer=firer.id)
        choices: tuple[str, ...] = ("FIRE FROM", "FIRE TO", "HOLD")
    else:
        question = t_("%(unit)s enters %(b)s on your %(firer)s's overwatch row: FIRE or HOLD", unit=name(mover),
                      b=hex_name(b), firer=firer.id)
        choices = ("FIRE", "HOLD")
    bt.suspended = True
    w.interrupt("react", [Ask(bt.commander(firer), "react", question, "HOLD", choices)],
                phase=bt.phase, queue=[[side, o.text()] for side, o in bt.queue],
                acted=sorted(bt.acted), fired=sorted(bt.fired),
                walk={"unit": mover.id, "from": hex_name(a), "path": [hex_name(h) for h in path], "face": face,
                      "done": list(done)},
                shot={"firer": firer.id, "why": shot.why})


def resume(w: Work[Battle], data: dict[str, Any], answer: str) -> None:
    """Carry out the asked seat's answer, then the rest of the interrupted move."""
    bt = w.data
    walk_data, shot_data = data["walk"], data["shot"]
    mover = bt.units[walk_data["unit"]]
    a = parse_hex(walk_data["from"])
    path = [parse_hex(h) for h in walk_data["path"]]
    firer = bt.units.get(shot_data["firer"])
    assert a is not None and firer is not None and all(h is not None for h in path)
    if answer.startswith("FIRE"):
        at = a if answer == "FIRE FROM" else path[0]
        stopped = shoot(w, Shot(firer, at, shot_data["why"]), mover, a, path[0])  # type: ignore[arg-type]
        if stopped is not None:
            bt.put(stopped)
            return
    else:
        w.say(t_("%(unit)s holds its fire at %(mover)s", unit=name(firer), mover=name(mover)), to=firer.side if bt.state.fog else None,
              kind="reaction")
    walk(w, mover, path, walk_data["face"], entered=True, done=walk_data["done"])  # type: ignore[arg-type]
