"""The turn on the kit [6.0]: the Raider's tally, the Defender's tally (having seen the Raider's), then both
sides' movement plans; movement in the interleaved order, air combat and the Administrative Phase follow
without a window (cadence ``standard``).  Set-up of later arrivals is not built (no scenario has any).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core.errors import IllegalOrderError
from pbem.core.flow import OVER
from pbem.core.phases import ALL, Step, Steps
from pbem.core.ruleset import Seat, Window
from pbem.core.scripts import If, run
from pbem.core.verbs import Order
from pbem.core.work import EVERYONE, Work

from . import air_combat, combat, dogfight, escape, missions, movement, radio, reaction, sequence, tally
from .model import CLIMB, DIVE, ENTERING, NONE, SIDES, WAITING, Squadron, State
from .orders import (CONDITIONS, MOVEMENT, Break, Drop, End, Escape, Join, Move, Plain, Pursue, Rejoin, Return, Stack,
                     Tally, Vector, subject)
from .sky import HEADINGS, front_squares, name, parse
from .tables import scenario
from .victory import ended


class Air:
    """The working copy of a resolution: the squadrons being changed, and what this turn has done."""

    def __init__(self, state: State, work: Work[Air]) -> None:
        self.state = state
        self.squadrons = {s.id: s for s in state.squadrons}
        self.moved: list[str] = []
        self.fought: set[str] = set()
        self.moved_last = state.moved_last
        self.over = False

    def squadron(self, sid: str) -> Squadron:
        return self.squadrons[sid]

    def put(self, sq: Squadron) -> None:
        self.squadrons[sq.id] = sq

    def now(self) -> State:
        return replace(self.state, squadrons=tuple(self.squadrons[s.id] for s in self.state.squadrons))

    def freeze(self) -> State:
        return replace(self.now(), moved_last=self.moved_last)


# ------------------------------------------------------------------------------------------ tally
def raider_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    _tallies(w, w.data.state.raider, orders)


def defender_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    _tallies(w, w.data.state.defender, orders)


def _tallies(w: Work[Air], side: str, orders: Mapping[str, Sequence[Order]]) -> None:
    """One side's drops and tally rolls, in the order written [7.2, 7.2.2]; conditional ones are decided
    when reached (``IF TALLIED A THEN TALLY A K``), so a side writing blind can answer the other's rolls."""
    entries = [o for o in orders.get(side, ()) if isinstance(_inner(o), (Drop, Tally))]
    run(w, side, entries, lambda o: _tally_order(w, o), CONDITIONS)


def _tally_order(w: Work[Air], order: Order) -> str | None:
    """Carry out a DROP or a TALLY now, or say why it cannot be (the position may have changed since it
    was written, in the faster cadences)."""
    air = w.data
    if isinstance(order, Drop):
        sq = air.squadron(order.sq)
        if not sq.tally or sq.dogfight:
            return f"{sq.id} has no tally it may drop"
        air.put(sq.move(tally=""))
        w.say(f"{sq.id} drops its tally", kind="tally")
        return None
    assert isinstance(order, Tally)
    sq, target = air.squadron(order.sq), air.squadron(order.target)
    why = tally.may_tally(sq) or tally.target_problem(air.now(), sq, target)
    if why:
        return why
    if roll_tally(w, sq, target):
        radio_alerts(w)
    return None


def both_tallies(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Cadence ``fast``: both tally lists in one window, the Raider's rolled first [6.0]."""
    _tallies(w, w.data.state.raider, orders)
    _tallies(w, w.data.state.defender, orders)


def whole_turn(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Cadence ``single``: tallies (the Raider's first) and movement plans in one window."""
    both_tallies(w, orders)
    movement_phase(w, orders)


def jammed_now(state: State) -> set[str]:
    """In the Tally Phase a net is jammed by its squadrons in dogfights (AMB-14, the literal reading)."""
    return radio.jammed_nets(state, {s.id for s in state.squadrons if s.dogfight and s.on_map})


def radio_alerts(w: Work[Air]) -> None:
    """Unalert fighters on a net with an Alert squadron become Alert at once [9.4 a, AMB-15]."""
    for sid in radio.alerted_by_radio(w.data.now()):
        w.data.put(w.data.squadron(sid).move(alert=True))
        w.say(f"{sid} is alerted by radio (9.4)", kind="tally")


def roll_tally(w: Work[Air], sq: Squadron, target: Squadron) -> bool:
    """One tally roll [7.2.1]: 1d6 + modifiers > distance; success places the tally and alerts [7.1]."""
    state = w.data.now()
    mods = tally.modifiers(state.sky, sq, target) + radio.modifiers(state, sq, target, jammed_now(state))
    dist = tally.distance(sq.at, target.at)
    roll = w.roll(6, f"{sq.id} tries to tally {target.id}", seen_by=EVERYONE)
    ok = tally.succeeds(roll, mods, dist)
    shown = ", ".join(f"{m.why} {m.value:+d}" for m in mods) or "no modifiers"
    w.say(f"{sq.id} tally on {target.id}: distance {dist}, rolled {roll} ({shown}): "
          f"{'tallied' if ok else 'no tally'} (7.2.1)", kind="tally", roll=roll, distance=dist)
    if ok:
        w.data.put(sq.move(tally=target.id, alert=True, vector=None).unescort())
    return ok


# --------------------------------------------------------------------------------------- movement
def movement_phase(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Movement in the interleaved order [6.1], then air combat [10], then the Administrative Phase."""
    air = w.data
    order = sequence.movement_order(list(air.squadrons.values()), air.state.raider,
                                    lambda s: w.roll(6, f"initiative of {s.id}", seen_by=EVERYONE))
    w.say("movement order: " + " ".join(order), kind="order")
    for sid in order:
        if sid in air.moved:       # moved with its dogfight stack, or while reacting
            continue
        if air.squadron(sid).dogfight:
            _move_stack(w, air.squadron(sid), orders)
        else:
            _activate(w, air.squadron(sid), orders.get(air.squadron(sid).side, ()))
    air.moved_last = tuple(air.moved)
    admin = [o.text() for side in (air.state.raider, air.state.defender) for o in orders.get(side, ())
             if isinstance(o, (Break, Escape, Vector, Rejoin))]
    admin += [f"END {side}" for side in SIDES if any(isinstance(o, End) for o in orders.get(side, ()))]
    _combats(w, combat.fights(list(air.squadrons.values()), air.moved, lambda: _roll_off(w)), 0, admin)


def _roll_off(w: Work[Air]) -> str:
    """Equal Basic Turn in a dogfight: each side rolls a d6, the higher attacks, again on a tie [10.8.1]."""
    while True:
        a, b = (w.roll(6, f"{side} rolls for the dogfight's attacker", seen_by=EVERYONE) for side in SIDES)
        if a != b:
            return SIDES[0] if a > b else SIDES[1]


def _move_stack(w: Work[Air], sq: Squadron, orders: Mapping[str, Sequence[Order]]) -> None:
    """A dogfight moves as one [6.1.3, 10.8.2]: a d6 gives the move to the Raider (1-3) or the Defender
    (4-6), who keeps it in place unless its STACK order names a square level or lower; lower means Dive."""
    air = w.data
    stack = [s for s in air.squadrons.values() if s.dogfight and s.at == sq.at and s.on_map]
    ids = {s.id for s in stack}
    side = dogfight.mover(w.roll(6, f"who moves the dogfight in {name(sq.at)}", seen_by=EVERYONE),
                          air.state.raider, air.state.defender)
    wanted = next((parse(o.square) for o in orders.get(side, ()) if isinstance(o, Stack) and o.sq in ids
                   and o.square != "STAY"), sq.at)
    to = wanted if wanted in dogfight.stack_moves(sq.at) else sq.at
    for s in stack:
        marker = DIVE if to[1] < s.at[1] else NONE   # staying counts as moving: old markers go [8.3.1, 8.5]
        air.put(s.move(at=to, marker=marker))
        air.moved.append(s.id)
    w.say(f"the dogfight in {name(sq.at)} ({' '.join(sorted(ids))}) is moved by {side}: "
          + (f"to {name(to)}" if to != sq.at else "stays") + " (10.8.2)", kind="move")


def _combats(w: Work[Air], fights: Sequence[combat.Fight], start: int, admin: list[str],
             chosen: str | None = None) -> None:
    """The Combat Phase from fight ``start`` on, then the Administrative Phase.  A fight whose attacking
    lead's standing order is ``TACTIC <sq> ASK`` stops before it and asks its owner (``chosen`` is the
    answer when resuming); a side whose standing order is ``DOGFIGHT ASK`` is asked after it."""
    air = w.data
    for i in range(start, len(fights)):
        kind = chosen if i == start else None
        ask = None if kind else air_combat.ask_rating(w, fights[i])
        if ask is not None:
            w.interrupt("combat_choice", [ask], fights=[f.dump() for f in fights], index=i, admin=admin,
                        fought=sorted(air.fought))
            return
        air.fought.update(fights[i].attackers + fights[i].defenders)
        air_combat.resolve(w, fights[i], kind)
        asks = air_combat.dogfight_asks(w, fights[i])
        if asks:
            w.interrupt("dogfight_choice", asks, fights=[f.dump() for f in fights], index=i + 1, offer=i,
                        admin=admin, fought=sorted(air.fought))
            return
        air_combat.offer_dogfight(w, fights[i], {})
    _administrative(w, [_admin_order(t) for t in admin])


def _admin_order(text: str) -> Order:
    """An Administrative Phase order kept as text across an interrupt (checked when it was written)."""
    words = text.split()
    if words[0] == "BREAK":
        return Break(words[1])
    if words[0] == "ESCORT":
        return Rejoin(words[1])
    if words[0] == "END":
        return End(words[1])
    return Escape(words[1]) if words[0] == "ESCAPE" else Vector(words[1], words[2])


def dogfight_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume after a combat whose sides were asked whether to dogfight (DECLINE on silence) [10.8]."""
    data = w.resumed.data
    w.data.fought.update(data["fought"])
    fights = [combat.Fight.load(f) for f in data["fights"]]
    answers = {key.removeprefix("dogfight-"): answer for key, answer in w.answers.items()}
    air_combat.offer_dogfight(w, fights[data["offer"]], answers)
    _combats(w, fights, data["index"], data["admin"])


def combat_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume the Combat Phase with the asked rating (the better column on silence) [10.5]."""
    data = w.resumed.data
    w.data.fought.update(data["fought"])
    answer = w.answers["rating"]
    chosen = None if answer == "BEST" else combat.SPEED if answer == "SPEED" else combat.TURN
    fights = [combat.Fight.load(f) for f in data["fights"]]
    if chosen is None:
        chosen = air_combat.best_rating(w, fights[data["index"]])
    _combats(w, fights, data["index"], data["admin"], chosen)


def _activate(w: Work[Air], sq: Squadron, side_orders: Sequence[Order]) -> None:
    """A squadron's move at its turn: its owner's orders for it, in order, the first that can be carried out;
    else what its mission does by itself [9.2]."""
    entries = [o for o in side_orders if subject(o) == sq.id and isinstance(_inner(o), MOVEMENT)]
    done = run(w, sq.side, entries, lambda o: _perform(w, sq.id, o), CONDITIONS, about=sq.id)
    if not any(done):
        why = _perform(w, sq.id, None)
        if why:
            w.data.moved.append(sq.id)
            w.say(f"{sq.id} cannot move: {why}", kind="move")


def _inner(order: Order) -> Order:
    return order.then if isinstance(order, If) else order


def _perform(w: Work[Air], sid: str, order: Order | None) -> str | None:
    """Carry one movement order out now, or the mission's own move (``None``); the reason it cannot be."""
    air = w.data
    sq = air.squadron(sid)
    if sid in air.moved:
        return f"{sid} has already moved this turn"
    if isinstance(order, Plain) and order.verb == "JETTISON":
        if not sq.bombs:
            return f"{sid} carries no bomb load"
        sq = sq.move(bombs=False, mission="rtb")   # a bomber that jettisons returns to base [9.2.1.1]
        w.say(f"{sid} jettisons its bomb load (9.2.1.1)", kind="move")
    tokens, dive, why = _plan(air, sq, order)
    why = why or _must_stay(air, sq, tokens)
    if why:
        return why
    mp = movement.allowance(sq, dive) - _trail_penalty(air, sq)
    if sq.status == ENTERING and mp < 1:
        air.moved.append(sid)
        w.say(f"{sid} cannot enter behind the squadrons ahead of it in trail; it enters first next turn (8.4.1)",
              kind="move")
        return None
    tokens = _fitting(sq, tokens, mp)
    target = air.squadron(sq.tally).at if sq.tally else None
    front = front_squares(target, air.squadron(sq.tally).heading) if target is not None else ()
    try:
        walk = movement.walk(sq, tokens, mp, stop_at=target, head_on_from=front)
        if target is not None and walk.path and walk.at == target and walk.entered_from is not None \
                and _reaction(w, sq, air.squadron(sq.tally), walk.entered_from) == reaction.SUCCESS:
            walk = movement.walk(sq, tokens[:walk.used - 1], mp)
            dive = dive and walk.dived
        moved = movement.finish(sq, walk, dive_declared=dive)
    except IllegalOrderError as exc:  # the plan no longer fits the position
        return str(exc)
    if order is not None and isinstance(order, Plain) and order.verb == "RTB":
        moved = moved.move(mission="rtb", vector=None)
    if moved.vector is not None and moved.at == moved.vector:
        moved = moved.move(vector=None)   # an Intercept on its vector square circles there [9.2.4]
    if moved.tally and air.squadron(moved.tally).dogfight and air.squadron(moved.tally).at == moved.at:
        moved = moved.move(dogfight=True)   # pursuing into a dogfight joins it [10.8.1]
        w.say(f"{sid} joins the dogfight in {name(moved.at)} (10.8.1)", kind="move")
    air.put(moved)
    air.moved.append(sid)
    trail = " ".join(name(s) for s in walk.path) or "circles"
    w.say(f"{sid} ({_what(order)}) {name(sq.at)} -> {trail}, heading {HEADINGS[moved.heading]}, "
          f"{walk.spent:g} of {walk.mp} MP" + (f", off the {walk.exited} edge" if walk.exited else ""), kind="move")
    return None


def _must_stay(air: Air, sq: Squadron, tokens: Sequence[str]) -> str | None:
    """A squadron starting its move in its target's square stays there, turning at most [7.2.3, AMB-29],
    unless the target entered the square this phase from one of its front squares and its first step leaves
    (the second head-on exception)."""
    if not sq.tally or all(t in HEADINGS for t in tokens):
        return None
    target = air.squadron(sq.tally)
    if target.at != sq.at:
        return None
    entered_now = target.id in air.moved and air.state.squadron(target.id).at != target.at
    if entered_now and target.entered_from in front_squares(sq.at, sq.heading) and tokens[0] not in HEADINGS:
        return None
    return f"{sq.id} starts its move in its target's square and must stay there (7.2.3)"


def _trail_penalty(air: Air, sq: Squadron) -> int:
    """In trail, the second squadron to fly in this turn has 1 MP less, the third 2 less, and so on
    [8.4.1, GAP-21]; among the group, the movement order [6.1] says who goes first."""
    if sq.status != ENTERING or not sq.trail:
        return 0
    return sum(1 for sid in air.moved
               if air.squadron(sid).trail == sq.trail and air.state.squadron(sid).status == ENTERING)


def _fitting(sq: Squadron, tokens: list[str], mp: int) -> list[str]:
    """A mission's fixed move cut to what an arrival in trail can pay for [8.4.1]."""
    if sq.status != ENTERING:
        return tokens
    for n in range(len(tokens), 0, -1):
        try:
            movement.walk(sq, tokens[:n], mp)
            return tokens[:n]
        except IllegalOrderError:
            continue
    return []


def _reaction(w: Work[Air], mover: Squadron, bomber: Squadron, came_from: tuple[int, int]) -> str:
    """Escorts react to ``mover`` entering ``bomber``'s square [10.4]: each willing eligible escort rolls
    2d6; the best result counts for all [10.4.5].  A success stops the mover short and the escorts attack
    it there; a late reaction lets it in and the escorts join the bomber's defence [10.4.2, 10.4.3]."""
    air = w.data
    if not reaction.triggered(mover, bomber, came_from):
        return reaction.NONE
    state = air.now()
    escorts = [e for e in reaction.eligible(state, bomber) if _willing(w, e)]
    results = []
    for e in escorts:
        roll = w.roll(6, f"{e.id} reacts", seen_by=EVERYONE) + w.roll(6, f"{e.id} reacts", seen_by=EVERYONE)
        mod = reaction.modifier(state, e, bomber)
        results.append(reaction.result(roll + mod))
        w.say(f"{e.id} reacts to {mover.id} entering {bomber.id}'s square: rolled {roll}{mod:+d} = {roll + mod}: "
              f"{results[-1]} (10.4)", kind="reaction")
    final = reaction.best(results)
    if final != reaction.NONE:
        square = came_from if final == reaction.SUCCESS else bomber.at
        for e in escorts:
            _rush(air, e, square, mover.id)
        w.say(f"{'+'.join(e.id for e in escorts)} {'stop' if final == reaction.SUCCESS else 'join the bombers against'}"
              f" {mover.id} in {name(square)} (10.4.{'2' if final == reaction.SUCCESS else '3'})", kind="reaction")
    return final


def _willing(w: Work[Air], escort: Squadron) -> bool:
    """An escort reacts unless its owner's standing order says REACT <escort> NO."""
    kept = w.standing_order(escort.side, f"REACT {escort.id}")
    return kept is None or kept.words[-1] != "NO"


def _rush(air: Air, escort: Squadron, square: tuple[int, int], enemy: str) -> None:
    """A reacting escort tallies the enemy and flies to ``square`` with unlimited MP, marked Dive or Climb
    by its altitude change [10.4.2, 8.5]; having tallied, it is a Sweep now [9.2.2 a]."""
    marker = DIVE if square[1] < escort.at[1] else CLIMB if square[1] > escort.at[1] else escort.marker
    air.put(escort.move(at=square, tally=enemy, alert=True, marker=marker, vector=None,
                        entered_from=escort.at).unescort())
    if escort.id not in air.moved:
        air.moved.append(escort.id)


def _what(order: Order | None) -> str:
    return order.text().split()[0].lower() if order is not None else "mission"


def _plan(air: Air, sq: Squadron, order: Order | None) -> tuple[list[str], bool, str | None]:
    """The tokens a movement order or a mission comes to at this moment [9.2, 7.2.3]."""
    if isinstance(order, Move):
        return list(order.steps), order.dive, None
    if isinstance(order, Pursue) or (order is None and sq.tally):
        if not sq.tally:
            return [], False, f"{sq.id} tallies nobody"
        target = air.squadron(sq.tally).at
        dive = bool(getattr(order, "dive", False)) and target[1] < sq.at[1]
        return ([] if target == sq.at else movement.approach(sq, target, movement.allowance(sq, dive))), dive, None
    verb = order.verb if isinstance(order, Plain) else _mission_verb(sq)
    edge = scenario(air.state.scenario)["edges"][sq.side]
    if verb in ("RTB", "JETTISON"):
        return movement.toward_edge(sq, edge, movement.allowance(sq)), False, None
    if verb == "CIRCLE":
        return [], False, None
    if isinstance(order, Return):
        return movement.approach(sq, parse(order.square), movement.allowance(sq)), False, None
    if isinstance(order, Join):
        friend = air.squadron(order.friend)
        if not friend.on_map or not friend.tally:
            return [], False, f"{order.friend} no longer tallies anyone"
        return movement.approach(sq, friend.at, movement.allowance(sq)), False, None
    if verb == "VECTOR" and sq.vector is not None:
        return movement.approach(sq, sq.vector, movement.allowance(sq)), False, None
    if verb == "VECTOR":
        return [], False, None
    return movement.straight(sq, _straight_squares(sq)), False, None


def _mission_verb(sq: Squadron) -> str:
    if sq.mission == "rtb" or sq.broken and sq.fighter:
        return "RTB"
    if sq.mission in ("intercept", "cap"):
        return "VECTOR"
    return "SWEEP"


def _straight_squares(sq: Squadron) -> int:
    """Fixed moves: 2 squares, jet bombers and escorts 3, jet sweeps 4 (AMB-36) [9.2.1-9.2.3, 8.2]."""
    if sq.jet:
        return 3 if sq.mission in ("bombing", "escort") else 4
    return 2


# --------------------------------------------------------------------------------- administrative
def _administrative(w: Work[Air], orders: Sequence[Order]) -> None:
    """The Administrative Phase [6.0]: voluntary breaks, escapes (the Raider's first, 11.0), GCI vectors
    (9.2.4), escorts re-marked (9.2.2); the game ends when both sides sent END this turn or by 12.0; else the
    next turn's Setup Phase places arrivals and its Tally Phase opens with the tallies checked (range and
    sight, AMB-13) and radio alerts passed (9.4).  ``orders`` are the Raider's then the Defender's."""
    air = w.data
    agreed = {o.side for o in orders if isinstance(o, End)} == set(SIDES)
    if agreed:
        w.say("both sides agree to end the game (12.0)", kind="end")
    orders = [o for o in orders if not isinstance(o, End)]
    for order in orders:
        if isinstance(order, Break):
            _break(w, air.squadron(order.sq))
    for order in orders:
        if isinstance(order, Escape):
            _escape(w, air.squadron(order.sq))
    for order in orders:
        if isinstance(order, Vector):
            _vector(w, air.squadron(order.sq), parse(order.square))
        if isinstance(order, Rejoin):
            _rejoin(w, air.squadron(order.sq))
    if agreed or ended(air.now(), w.turn):
        air.over = True
        return
    w.new_turn()
    _arrivals(w)
    state = air.now()
    for sq in state.squadrons:
        if sq.tally and sq.on_map and not sq.dogfight:
            lost = tally.kept(state, sq)
            if lost:
                air.put(air.squadron(sq.id).move(tally=""))
                w.say(f"{sq.id} loses its tally: {lost} (7.2.2)", kind="tally")
    radio_alerts(w)


def _arrivals(w: Work[Air]) -> None:
    """The Setup Phase [6.0, 5.3.1]: this turn's arrivals are placed on their squares, or beyond their edge
    at the altitude their owner's standing ``ARRIVE`` order names (else the first allowed), to fly in."""
    air = w.data
    for sq in air.now().squadrons:
        if sq.status != WAITING or sq.arrives != w.turn:
            continue
        if not sq.edge:
            air.put(sq.move(status="on"))
            w.say(f"{sq.id} arrives in {name(sq.at)} (5.3.1)", kind="setup")
            continue
        kept = w.standing_order(sq.side, f"ARRIVE {sq.id}")
        alt = int(kept.words[-1]) if kept is not None else sq.altitudes[0]
        air.put(sq.move(status=ENTERING, at=(movement.EDGE_COLUMNS[sq.edge], alt),
                        heading=HEADINGS.index("E" if sq.edge == "W" else "W")))
        w.say(f"{sq.id} arrives at the {sq.edge} edge at altitude {alt} and flies in this turn (5.3.1)", kind="setup")


def _break(w: Work[Air], sq: Squadron) -> None:
    """A player breaks his own squadron after combat [10.7.1]."""
    if sq.on_map and not sq.broken:
        w.data.put(combat.broken_effects(sq.move(broken=True)))
        w.say(f"{sq.id} is broken by its owner (10.7.1)", kind="cohesion")


def _escape(w: Work[Air], sq: Squadron) -> None:
    """An escape attempt [11.0]: automatic with no Available enemy fighter in sight (our reading when none
    sees it), else the opponent's best chaser rolls."""
    air = w.data
    if escape.may_escape(air.now(), sq):
        w.say(f"{sq.id} cannot try to escape: {escape.may_escape(air.now(), sq)}", to=sq.side, kind="skipped")
        return
    chase = escape.chaser(air.now(), sq)
    if chase is None:
        ok = True
        w.say(f"{sq.id} escapes: no Available enemy fighter can stop it (11.0)", kind="escape")
    else:
        natural = w.roll(6, f"{chase.hunter} tries to stop {sq.id} escaping", seen_by=EVERYONE)
        reading = air.state.option("escape_reading", "rule")
        ok = escape.escapes(natural, chase, reading)
        rolled = f"{natural} (the natural roll: the example's reading)" if reading == "example" \
            else f"{natural}-{chase.weather} = {natural - chase.weather}"
        w.say(f"{sq.id} tries to escape; {chase.hunter} at range {chase.range} rolls {rolled}: "
              f"{'escaped' if ok else 'stopped'} (11.0)", kind="escape")
    if ok:
        air.put(sq.move(status="escaped", exit_edge=scenario(air.state.scenario)["edges"][sq.side]))
        if not sq.fighter and not any(b.on_map and not b.fighter for b in air.now().of_side(sq.side)):
            for e in air.now().of_side(sq.side):   # no bombers left to escort: the escorts go home [9.2.2]
                if e.on_map and e.mission == "escort":
                    air.put(e.move(mission="rtb"))
                    w.say(f"{e.id} has no bombers left to escort and returns to base (9.2.2)", kind="escape")


def _rejoin(w: Work[Air], sq: Squadron) -> None:
    """A former escort meeting the escort requirements is marked Escort again [9.2.2, AMB-20]."""
    state = w.data.now()
    why = missions.rejoin_problem(state, sq)
    if why:
        w.say(f"ESCORT {sq.id} was skipped: {why}", to=sq.side, kind="skipped")
        return
    w.data.put(sq.move(mission="escort", former_escort=False))
    w.say(f"{sq.id} escorts the bombers again (9.2.2)", kind="escort")


def _vector(w: Work[Air], sq: Squadron, square: tuple[int, int]) -> None:
    """Ground control moves a non-tallying Intercept's vector on a roll of its rating or more, a 6 when the
    net is jammed [9.2.4, 9.4.2]."""
    air = w.data
    if sq.tally or not sq.on_map or sq.broken:
        w.say(f"VECTOR {sq.id} was skipped: it tallies, is broken or has left", to=sq.side, kind="skipped")
        return
    need = radio.vector_needs(air.now(), sq, radio.jammed_nets(air.now(), air.fought))
    roll = w.roll(6, f"GCI vector for {sq.id}", seen_by=EVERYONE)
    placed = roll >= need
    if placed:   # a CAP squadron given a vector flies as an Intercept [9.2.4.1]
        air.put(sq.move(vector=square, mission="intercept"))
    w.say(f"GCI for {sq.id}: rolled {roll}, needs {need}+: "
          + (f"vector placed on {name(square)}" if placed else "no change") + " (9.2.4)", kind="gci")


#: The first window of a turn under each cadence.
FIRST_STEP = {"standard": "raider_tally", "fast": "tallies", "single": "turn"}


def _next_after_movement(w: Work[Air]) -> str:
    return OVER if w.data.over else FIRST_STEP[w.data.state.option("cadence", "standard")]


def seats(state: Any) -> tuple[Seat, ...]:
    return tuple(Seat(side, side, side.title()) for side in SIDES)


STEPS: Steps[State, Air] = Steps([
    Step("raider_tally", raider_tally, next="defender_tally", who=lambda s: (s.raider,),
         title="the Raider's tally rolls", prompt="Tally Phase [6.0, 7.2]: the Raider drops and rolls first"),
    Step("defender_tally", defender_tally, next="movement", who=lambda s: (s.defender,),
         title="the Defender's tally rolls", prompt="Tally Phase [6.0, 7.2]: the Defender, having seen the Raider's"),
    Step("movement", movement_phase, next=_next_after_movement, who=ALL,
         title="movement plans", prompt="Movement Phase [6.0, 8]: both sides' plans; combat follows [10]"),
    Step("tallies", both_tallies, next="movement", who=ALL,
         title="both sides' tally rolls", prompt="Tally Phase [6.0, 7.2]: both lists; the Raider's are rolled first"),
    Step("turn", whole_turn, next=_next_after_movement, who=ALL,
         title="tallies and movement plans", prompt="Tally and Movement Phases [6.0] in one message"),
    Step("dogfight_choice", dogfight_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="seek or decline a dogfight", prompt="Dogfight [10.8]: SEEK or DECLINE"),
    Step("combat_choice", combat_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="choose the combat rating", prompt="Air combat [10.5]: SPEED (hit-and-run) or TURN (turning fight)"),
], seats=seats, open=Air, close=Air.freeze, sides=SIDES)
