"""The Movement Phase [8, 9.2]: each squadron's move at its turn in the interleaved order, from its orders
or its mission; escort reaction inside an enemy's move [10.4]; dogfight stacks [10.8.2]; arrivals flying in
from beyond their edge [8.4.1]."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core.errors import IllegalOrderError
from pbem.core.interrupts import Ask
from pbem.core.scripts import Cursor, Reached, resume
from pbem.core.verbs import Order
from pbem.core.work import Work

from . import (balloons, bomb_runs, dogfight, fighter_bombers, flak, jets, lufbery, movement, reaction, rocket_fighter, split,
               takeoff, weapons, wings)
from .air import Air
from .fog import dice_seen_by, tell, tell_move, told, witnesses
from .model import CLIMB, DIVE, ENTERING, NONE, Squadron, State, owner
from .orders import MOVEMENT, Attack, AttackBalloon, Dive, Join, Move, Plain, Pursue, Return, Stack, Takeoff, subject
from .parsing import CONDITIONS, vector_dive_problem
from .sky import HEADINGS, front_squares, name, parse
from .tables import scenario
from .tally_phase import inner, place_flights


def activate(w: Work[Air], sq: Squadron, side_orders: Sequence[Order], cursor: Cursor | None = None,
             carried: bool = False) -> None:
    """A squadron's move at its turn: its owner's orders for it, in order, the first that can be carried out;
    else what its mission does by itself [9.2].

    A move that stops for a reaction question [10.4] raises :class:`AskReaction` carrying where the script
    stood (``cursor``: the entry that stopped, ``carried``: whether an earlier one was carried out); the
    resumed move starts there, so nothing said to the author before the stop is said again.
    """
    entries = [o for o in side_orders if subject(o) == sq.id and isinstance(inner(o), MOVEMENT)]
    start = cursor or Cursor()
    at: list[Reached] = []
    done = [carried]

    def perform(order: Order) -> str | None:
        why = _perform(w, sq.id, order)
        done[0] = done[0] or why is None
        return why

    try:
        end = resume(w, sq.side, entries, start, perform, CONDITIONS, about=sq.id, on_reach=at.append)
    except AskReaction as ask:   # stopped in an entry: it is carried out again when resuming
        ask.cursor, ask.carried = Cursor(at[-1].index, at[-1].previous), done[0]
        raise
    if done[0]:
        return
    try:
        why = _perform(w, sq.id, None)
    except AskReaction as ask:   # the mission's own move stopped: every entry was already tried
        ask.cursor, ask.carried = end, False
        raise
    if why:
        w.data.moved.append(sq.id)
        tell(w, f"{sq.id} cannot move: {why}", [sq.id], kind="move")


def _perform(w: Work[Air], sid: str, order: Order | None) -> str | None:
    """Carry one movement order out now, or the mission's own move (``None``); the reason it cannot be.
    What it tells the players is said only once the move is made: a move may stop for a reaction question
    and start over when answered [10.4]."""
    air = w.data
    if sid in air.moved:
        return f"{sid} has already moved this turn"
    notes: Notes = []
    sq, why = _jettison(air.squadron(sid), order, notes)
    if why:
        return why
    sq, lost, circling = _lufbery_turn(w, sq, order, notes)   # may stop to ask [13.4.3]
    if isinstance(order, Attack):   # the bomber's attack from now on [15.3]
        sq = bomb_runs.choose_attack(sq, order.kind)
        air.put(sq)
    if sq.balloon or isinstance(order, AttackBalloon):   # a balloon pursued until another order [14.3]
        sq = sq.move(balloon=order.balloon if isinstance(order, AttackBalloon) else sq.balloon if order is None else "")
        air.put(sq)
    tokens, dive, why = ([], False, None) if circling else _plan(air, sq, order)
    why = why or _must_stay(air, sq, tokens)
    if why:
        return why
    mp = bomb_runs.movement_points(air, sq, dive) - _trail_penalty(air, sq) - lost   # a bomber's own [15.2.4, 15.3]
    if sq.status == ENTERING and mp < 1:
        air.moved.append(sid)
        tell(w, f"{sid} cannot enter behind the squadrons ahead of it in trail; it enters first next turn (8.4.1)",
             [sid], kind="move")
        return None
    tokens = _fitting(sq, tokens, mp, cut=bool(lost))
    try:
        walk, moved, balbo = _fly(w, sq, tokens, mp, dive, notes)
    except IllegalOrderError as exc:  # the plan no longer fits the position
        return str(exc)
    _flush(w, notes)
    moved = _settle(w, sq, moved, order, balbo)
    moved, sinking = rocket_fighter.after_move(air.state, sq, moved)   # minimum power comes down [13.8.2]
    before = witnesses(w, sid)
    air.put(moved)
    air.moved.append(sid)
    trail = " ".join(name(s) for s in walk.path) or "circles"
    tell_move(w, sid, before, f"{sid} ({_what(order)}) {name(sq.at)} -> {trail}, heading {HEADINGS[moved.heading]}, "
              f"{walk.spent:g} of {walk.mp} MP" + (f", off the {walk.exited} edge" if walk.exited else ""),
              f"{sid} flies out of sight from {name(sq.at)}",
              f"{sid} comes into sight in {name(moved.at)}, heading {HEADINGS[moved.heading]}")
    if sinking:
        tell(w, sinking, [sid], kind="move")
    if air.state.uses("14.2.3"):   # a barrage attack when the move ends [14.2.3]
        flak.barrage_after_move(w, sid, sq.at, walk.path, walk.turned_in, not walk.path and not walk.exited)
    bomb_runs.after_move(w, sq, walk.path)   # a bomber over its target releases [15.3]
    return None


Notes = list[tuple[str, list[str], str]]   # (text, the squadrons it is about, kind): said by ``_flush``


def _lufbery_turn(w: Work[Air], sq: Squadron, order: Order | None,
                  notes: Notes) -> tuple[Squadron, int, bool]:
    """A fighter's Lufbery circle at its turn to move, by its standing ``LUFBERY`` (NO by default) or its
    commander's answer [13.4.3]: the squadron as it then is, the MP it paid (2 to enter or leave), and whether
    it circles for the rest of its move.

    :raises AskReaction: ``LUFBERY <sq> ASK`` where there is a choice; the move resumes at the answer.
    """
    air = w.data
    state = air.now()
    if not state.uses("13.4.3") or not sq.fighter:
        return sq, 0, False
    inside = lufbery.in_circle(sq)
    kept = w.standing_order(owner(sq), f"LUFBERY {sq.id}")
    choice = air.reacting.get(f"lufbery-{sq.id}") or (kept.words[-1] if kept is not None else "NO")
    why = None if inside else lufbery.enter_problem(state, sq, list(air.squadrons.values()))
    if choice == "ASK" and why is None:
        where = "is in a Lufbery circle" if inside else "may enter a Lufbery circle (2 MP)"
        raise AskReaction([Ask(owner(sq), f"lufbery-{sq.id}", f"{sq.id} in {name(sq.at)} moves now and {where}: "
                               f"is it to circle in it (13.4.3)?", "YES" if inside else "NO", ("YES", "NO"))])
    if inside and choice in ("YES", "ASK"):
        waits = f"; {_what(order)} waits until it leaves" if order is not None else ""
        notes.append((f"{sq.id} circles in its Lufbery circle (13.4.3){waits}", [sq.id], "move"))
        return sq, 0, True
    if inside:
        notes.append((f"{sq.id} leaves its Lufbery circle (2 MP, 13.4.3)", [sq.id], "move"))
        return sq.move(lufbery=False), lufbery.COST, False
    if choice != "YES":
        return sq, 0, False
    if why:
        notes.append((f"LUFBERY {sq.id}: {why} (13.4.3)", [sq.id], "move"))
        return sq, 0, False
    circling = lufbery.enter(sq)
    notes.append((f"{sq.id} enters a Lufbery circle in {name(sq.at)}, facing {HEADINGS[circling.heading]} (2 MP, "
                  f"13.4.3)", [sq.id], "move"))
    return circling, lufbery.COST, True


def take_off(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """As the Movement Phase opens: last turn's Slow markers come off, then one squadron a base takes off,
    the one its owner named with ``TAKEOFF`` or the base's first waiting; it is in the base's square, Slow,
    and does not move this phase; a carrier that launched counts defensive modifier 0 this turn [13.7, 13.7.1].
    The IDs of the squadrons that took off."""
    air = w.data
    for sq in list(air.squadrons.values()):
        if sq.slow:
            air.put(sq.move(slow=False))
    state = air.now()
    chosen = {o.sq: o.facing for given in orders.values() for o in given if isinstance(o, Takeoff)}
    for why in takeoff.blocked(state):
        w.say(why, kind="move")
    launched = []
    for sq, facing in takeoff.launches(state, chosen):
        unit = state.surface(sq.base)
        air.put(takeoff.placed(sq, unit, facing))
        air.moved.append(sq.id)
        air.state = replace(air.state, surfaces=tuple(replace(u, launched_turn=state.turn) if u.id == unit.id else u
                                                      for u in air.state.surfaces))
        launched.append(sq.id)
        tell(w, f"{sq.id} takes off from {unit.id} in {name(unit.at)}, facing {facing}; Slow, no move this turn "
                f"(13.7)" + ("; the carrier's defensive modifier is 0 this turn (13.7.1)" if unit.carrier else ""),
             [sq.id], kind="move")
    return launched


def power_settings(w: Work[Air], launched: Sequence[str] = ()) -> None:
    """As the Movement Phase opens, each Me 163 flight in play takes this turn's power setting from its
    standing ``POWER`` (full by default) and pays its fuel, none in the turn it takes off [13.8.2]."""
    air = w.data
    for sq in list(air.squadrons.values()):
        if not sq.power or sq.status not in ("on", ENTERING):
            continue
        kept = w.standing_order(owner(sq), f"POWER {sq.id}")
        wanted = kept.words[-1].lower() if kept is not None else rocket_fighter.FULL
        flown, text = rocket_fighter.set_power(sq, wanted, took_off=sq.id in launched)
        air.put(flown)
        tell(w, text, [sq.id], kind="move")


def _flush(w: Work[Air], notes: Notes) -> None:
    """Say the notes held back until a move can no longer stop for a question [10.4]."""
    for text, ids, kind in notes:
        tell(w, text, ids, kind=kind)
    notes.clear()


def _jettison(sq: Squadron, order: Order | None, notes: Notes) -> tuple[Squadron, str | None]:
    """A JETTISON order first drops the bomb load, and a bomber that jettisons returns to base [9.2.1.1];
    the squadron as it then is, or why it cannot."""
    if not (isinstance(order, Plain) and order.verb == "JETTISON"):
        return sq, None
    if sq.drop_tanks and not sq.bombs:   # drop tanks, only while alert [13.2]
        why = weapons.jettison_problem(sq)
        if why:
            return sq, why
        notes.append((f"{sq.id} jettisons its drop tanks (13.2)", [sq.id], "move"))
        return sq.move(drop_tanks=False), None
    if not sq.bombs:
        return sq, f"{sq.id} carries no bomb load"
    notes.append((f"{sq.id} jettisons its bomb load (9.2.1.1)", [sq.id], "move"))
    return fighter_bombers.without_load(sq), None


def _fly(w: Work[Air], sq: Squadron, tokens: list[str], mp: int, dive: bool,
         notes: Notes) -> tuple[movement.Walk, Squadron, bool]:
    """Walk the planned tokens, stopping in the tallied target's square [7.2.3] or short of it when its
    escorts react successfully [10.4.2]: the walk, the squadron after it, and whether it flew in a Balbo.

    :raises IllegalOrderError: the plan no longer fits the position.
    """
    air = w.data
    tallied = air.squadron(sq.tally) if sq.tally else None
    target = tallied.at if tallied is not None else None
    front = front_squares(tallied.at, tallied.heading) if tallied is not None else ()
    balbo = wings.in_balbo(air.now(), sq)
    if balbo and dive:   # taking the dive bonus breaks the Balbo: the squadron leaves its wing [9.5.6]
        balbo, sq = False, sq.move(left_wing=True)
        notes.append((f"{sq.id} leaves its Balbo to dive (9.5.6)", [sq.id], "wing"))
    about = 2 if air.state.option("balbo_about_turn", "1") == "2" else 1   # AMB-23
    walk = movement.walk(sq, tokens, mp, stop_at=target, head_on_from=front, balbo=balbo, balbo_about=about)
    if _stopped_by_escorts(w, sq, walk, notes):
        walk = movement.walk(sq, tokens[:walk.used - 1], mp)
        dive = dive and walk.dived
    return walk, movement.finish(sq, walk, dive_declared=dive), balbo


def _stopped_by_escorts(w: Work[Air], sq: Squadron, walk: movement.Walk, notes: Notes) -> bool:
    """Whether the walk entered the tallied target's square and its escorts' reaction stopped it [10.4.2]."""
    if not sq.tally or not walk.path or walk.entered_from is None:
        return False
    bomber = w.data.squadron(sq.tally)
    return walk.at == bomber.at and _reaction(w, sq, bomber, walk.entered_from, notes) == reaction.SUCCESS


def _settle(w: Work[Air], start: Squadron, moved: Squadron, order: Order | None, balbo: bool) -> Squadron:
    """What the end of a move changes: an RTB order sets the mission, a Balbo climbing or diving more than
    one altitude breaks [9.5.6], an Intercept on its vector circles there [9.2.4], pursuing into a
    dogfight joins it [10.8.1]."""
    air = w.data
    if isinstance(order, Plain) and order.verb == "RTB":
        moved = moved.move(mission="rtb", vector=None)
    if balbo and abs(moved.at[1] - start.at[1]) > 1:
        moved = moved.move(left_wing=True)
        tell(w, f"{moved.id} leaves its Balbo (9.5.6)", [moved.id], kind="wing")
    if moved.vector is not None and moved.at == moved.vector:
        moved = moved.move(vector=None)
    if moved.tally and air.squadron(moved.tally).dogfight and air.squadron(moved.tally).at == moved.at:
        moved = moved.move(dogfight=True)
        tell(w, f"{moved.id} joins the dogfight in {name(moved.at)} (10.8.1)", [moved.id], kind="move")
    return moved


def _must_stay(air: Air, sq: Squadron, tokens: Sequence[str]) -> str | None:
    """A squadron starting its move in its target's square stays there, turning at most [7.2.3, AMB-29;
    option ``target_turn = stay``: not even turning],
    unless the target entered the square this phase from one of its front squares and its first step leaves
    (the second head-on exception)."""
    turning = all(t in HEADINGS for t in tokens)
    if not sq.tally or not tokens or (turning and air.state.option("target_turn", "turn") == "turn"):
        return None
    target = air.squadron(sq.tally)
    if target.at != sq.at:
        return None
    was = air.state.find(target.id)
    entered_now = target.id in air.moved and was is not None and was.at != target.at
    if entered_now and target.entered_from in front_squares(sq.at, sq.heading) and tokens[0] not in HEADINGS:
        return None
    return f"{sq.id} starts its move in its target's square and must stay there (7.2.3)"


def _trail_penalty(air: Air, sq: Squadron) -> int:
    """In trail, the second squadron to fly in this turn has 1 MP less, the third 2 less, and so on
    [8.4.1, GAP-21; option ``trail_fourth = wait``: the fourth and later wait for the next turn]; among the
    group, the movement order [6.1] says who goes first."""
    if sq.status != ENTERING or not sq.trail:
        return 0
    ahead = sum(1 for sid in air.moved
                if air.squadron(sid).trail == sq.trail and getattr(air.state.find(sid), "status", "") == ENTERING)
    if ahead >= 3 and air.state.option("trail_fourth", "less") == "wait":   # GAP-21 read as "no fourth"
        return movement.allowance(sq)
    return ahead


def _fitting(sq: Squadron, tokens: list[str], mp: int, cut: bool = False) -> list[str]:
    """A mission's fixed move cut to what an arrival in trail can pay for [8.4.1], or (``cut``) a squadron
    that paid 2 MP to leave a Lufbery circle [13.4.3]."""
    if sq.status != ENTERING and not cut:
        return tokens
    for n in range(len(tokens), 0, -1):
        try:
            movement.walk(sq, tokens[:n], mp)
            return tokens[:n]
        except IllegalOrderError:
            continue
    return []


def _reaction(w: Work[Air], mover: Squadron, bomber: Squadron, came_from: tuple[int, int],
              notes: Notes) -> str:
    """Escorts react to ``mover`` entering ``bomber``'s square [10.4]: each willing eligible escort rolls
    2d6; the best result counts for all [10.4.5].  A success stops the mover short and the escorts attack
    it there; a late reaction lets it in and the escorts join the bomber's defence [10.4.2, 10.4.3]."""
    air = w.data
    if not reaction.triggered(mover, bomber, came_from):
        return reaction.NONE
    state = air.now()
    escorts = _willing(w, reaction.eligible(state, bomber), mover, bomber)
    _flush(w, notes)   # no question can stop this move any more
    results = []
    for e in escorts:
        seen_by = dice_seen_by(w, [e.id, mover.id])
        roll = w.roll(6, f"{e.id} reacts", seen_by=seen_by) + w.roll(6, f"{e.id} reacts", seen_by=seen_by)
        mod = reaction.modifier(state, e, bomber) + jets.reaction_modifier(state, mover)   # high speed [13.8.1]
        results.append(reaction.result(roll + mod))
        tell(w, f"{e.id} reacts to {mover.id} entering {bomber.id}'s square: rolled {roll}{mod:+d} = {roll + mod}: "
             f"{results[-1]} (10.4)", [e.id, mover.id, bomber.id], kind="reaction")
    final = reaction.best(results)
    if final != reaction.NONE:
        square = came_from if final == reaction.SUCCESS else bomber.at
        escorts = [_reacting_flight(w, e) for e in escorts]
        for e in escorts:
            _rush(air, e, square, mover.id)
        tell(w, f"{'+'.join(e.id for e in escorts)} {'stop' if final == reaction.SUCCESS else 'join the bombers against'}"
             f" {mover.id} in {name(square)} (10.4.{'2' if final == reaction.SUCCESS else '3'})",
             [*(e.id for e in escorts), mover.id], kind="reaction")
    return final


class AskReaction(Exception):
    """A move stops before an escort reaction nobody's standing order settles: ask the owners [10.4]."""

    def __init__(self, asks: list[Ask]) -> None:
        super().__init__("reaction question")
        self.asks = asks
        self.cursor = Cursor()     # where the moving squadron's script resumes (set by ``activate``)
        self.carried = False


def _willing(w: Work[Air], escorts: list[Squadron], mover: Squadron, bomber: Squadron) -> list[Squadron]:
    """The escorts that react: YES (or no standing order) reacts, NO does not; ASK suspends the move and
    asks the owner, once per phase for each escort (its answer is kept for the rest of the phase)."""
    flexible = scenario(w.data.state.scenario).get("flexibility", ())
    asks = [Ask(owner(e), f"react-{e.id}", told(w, e.side, f"{mover.id} is about to enter {bomber.id}'s square: "
                                                f"does {e.id} react?", [mover.id]),
                "YES", ("YES", "NO", "SPLIT") if e.side in flexible and not e.flight else ("YES", "NO"))
            for e in escorts if _react_choice(w, e) == "ASK"]
    if asks:
        raise AskReaction(asks)
    return [e for e in escorts if _react_choice(w, e) in ("YES", "SPLIT")]


def _react_choice(w: Work[Air], e: Squadron) -> str:
    """YES, NO, SPLIT or ASK: the answer given this phase, else the standing order ``REACT``, else YES [10.4]."""
    kept = w.standing_order(owner(e), f"REACT {e.id}")
    return w.data.reacting.get(e.id) or (kept.words[-1] if kept is not None else "YES")


def _reacting_flight(w: Work[Air], e: Squadron) -> Squadron:
    """The escort that flies at the enemy: with SPLIT, a squadron of a side with tactical flexibility splits
    and its first flight reacts, the second staying where it is, still Escort and out of this combat
    [10.4.2 option 2, 10.4.3, 9.3.2]; one that may not split now reacts whole, and its owner is told why."""
    air = w.data
    if _react_choice(w, e) != "SPLIT":
        return e
    rules = scenario(air.state.scenario)
    why = split.may_split(e, False, False, e.side in rules.get("flexibility", ()), int(rules["max_losses"]["flight"]),
                          count=air.state.option("split_count", "together"), reacted=True) \
        or split.counters_problem(air.now(), e)
    if why:
        w.say(f"REACT {e.id} SPLIT: {why}; it reacts whole (10.4.2)", to=e.side, kind="skipped")
        return e
    first, second = split.split(e)
    place_flights(w, e, first, second)
    if second.id not in air.moved:   # it stays in place this phase [10.4.2 option 2]
        air.moved.append(second.id)
    tell(w, f"{e.id} splits on reacting: {first.id} flies at the enemy, {second.id} stays with the bombers "
         f"(10.4.2, 9.3.2)", [first.id, second.id], kind="reaction")
    return first


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
    if isinstance(order, Plain) and order.verb == "JETTISON" and sq.mission != "rtb":
        order = None   # drop tanks gone, it flies on as its mission or tally makes it [13.2]
    if sq.balloon and not sq.tally:   # toward the balloon it pursues [14.3]
        return balloons.plan(air, sq), False, None
    if isinstance(order, Move):
        return list(order.steps), order.dive, None
    if isinstance(order, Dive):
        return _vector_dive_plan(sq)
    if isinstance(order, Pursue) or (order is None and sq.tally):
        return _pursuit_plan(air, sq, order)
    verb = order.verb if isinstance(order, Plain) else _mission_verb(sq)
    if verb in ("RTB", "JETTISON"):
        edge = scenario(air.state.scenario)["edges"][sq.side]
        dive = isinstance(order, Plain) and order.dive
        tokens = movement.toward_edge(sq, edge, movement.allowance(sq, dive), dive=dive)
        return tokens, dive and bool(tokens) and tokens[0] not in "<>" and parse(tokens[0])[1] < sq.at[1], None
    if verb == "CIRCLE":
        return [], False, None
    if isinstance(order, (Return, Join)):
        return _goal_plan(air, sq, order)
    if verb == "VECTOR":
        return _vector_plan(air, sq), False, None
    if (order is None or isinstance(order, Attack)) and bomb_runs.flying_to_target(air, sq):   # [15.2.1]
        return bomb_runs.plan(air, sq), False, None
    escorting = bomb_runs.escort_plan(air, sq) if order is None else None
    if escorting is not None:   # with its bombers, climbing or diving as they do, a dive declared [15.2.2, 8.2]
        return escorting, bool(escorting) and parse(escorting[-1])[1] < sq.at[1], None
    return movement.straight(sq, _straight_squares(sq, air.state.option("jet_sweeps", "four"))), False, None


def _pursuit_plan(air: Air, sq: Squadron, order: Order | None) -> tuple[list[str], bool, str | None]:
    """Toward the tallied target, diving only when ordered and the target is lower [9.2.2, 7.2.3]."""
    if not sq.tally:
        return [], False, f"{sq.id} tallies nobody"
    target = air.squadron(sq.tally).at
    dive = bool(getattr(order, "dive", False)) and target[1] < sq.at[1]
    return ([] if target == sq.at else movement.approach(sq, target, movement.allowance(sq, dive))), dive, None


def _goal_plan(air: Air, sq: Squadron, order: Return | Join) -> tuple[list[str], bool, str | None]:
    """Toward the square a RETURN names, or toward a friend that JOIN names while it still tallies; with DIVE
    and the goal lower, the dive bonus [8.2] (dropped when the path would not dive after all)."""
    if isinstance(order, Return):
        goal = parse(order.square)
    else:
        friend = air.squadrons.get(order.friend)
        if friend is None or not friend.on_map or not friend.tally:
            return [], False, f"{order.friend} no longer tallies anyone"
        goal = friend.at
    if order.dive and goal[1] < sq.at[1]:
        tokens = movement.approach(sq, goal, movement.allowance(sq, dive=True))
        if any(t not in "<>" and parse(t)[1] < sq.at[1] for t in tokens):
            return tokens, True, None
    return movement.approach(sq, goal, movement.allowance(sq)), False, None


def _vector_dive_plan(sq: Squadron) -> tuple[list[str], bool, str | None]:
    """``DIVE``: toward the vector with the dive bonus [8.2], while the squadron still flies to a lower vector;
    else why not, and its mission (or a pursuit) moves it instead.  A path that would not dive is no dive."""
    rule, why = vector_dive_problem(sq)
    if why:
        return [], False, f"{why} ({rule})"
    assert sq.vector is not None
    tokens = movement.approach(sq, sq.vector, movement.allowance(sq, dive=True))
    if not any(t not in "<>" and parse(t)[1] < sq.at[1] for t in tokens):
        return [], False, f"{sq.id} cannot dive toward {name(sq.vector)} this move (8.2)"
    return tokens, True, None


def _vector_plan(air: Air, sq: Squadron) -> list[str]:
    """An Intercept's own move: toward its vector square; else keeping formation on its wing leader,
    the same offset as at the start of the phase [9.5.3]; else circling [9.2.4]."""
    if sq.vector is not None:
        return movement.approach(sq, sq.vector, movement.allowance(sq))
    followed = keeping_formation(air.state).get(sq.id)
    if followed is None:
        return []
    leader, start = air.squadron(followed), air.state.squadron(sq.id)
    was = air.state.squadron(followed).at
    goal = (leader.at[0] + start.at[0] - was[0], leader.at[1] + start.at[1] - was[1])
    return movement.approach(sq, goal, movement.allowance(sq))


def keeping_formation(state: State) -> dict[str, str]:
    """Intercept wing squadrons with neither vector nor tally keep formation on their leader [9.5.3]:
    squadron -> its leader."""
    found = {}
    for sq in state.squadrons:
        leader = wings.leader_of(state, sq) if sq.mission == "intercept" and not sq.tally else None
        if leader is not None and leader.id != sq.id and sq.vector is None:
            found[sq.id] = leader.id
    return found


def _mission_verb(sq: Squadron) -> str:
    if sq.mission == "rtb" or sq.broken and sq.fighter:
        return "RTB"
    if sq.mission in ("intercept", "cap"):
        return "VECTOR"
    return "SWEEP"


def _straight_squares(sq: Squadron, jet_sweeps: str = "four") -> int:
    """Fixed moves: 2 squares, jet bombers and escorts 3, jet sweeps 4 ("jets always 4 MP"; option
    ``jet_sweeps = fixed``: 2 as the other sweeps) [9.2.1-9.2.3, 8.2]."""
    if sq.jet:
        return 3 if sq.mission in ("bombing", "escort") else 4 if jet_sweeps == "four" else 2
    return 2


def move_stack(w: Work[Air], sq: Squadron, orders: Mapping[str, Sequence[Order]]) -> None:
    """A dogfight moves as one [6.1.3, 10.8.2]: a d6 gives the move to the Raider (1-3) or the Defender
    (4-6), who keeps it in place unless its STACK order names a square level or lower; lower means Dive."""
    air = w.data
    stack = [s for s in air.squadrons.values() if s.dogfight and s.at == sq.at and s.on_map]
    ids = {s.id for s in stack}
    side = dogfight.mover(w.roll(6, f"who moves the dogfight in {name(sq.at)}", seen_by=dice_seen_by(w, sorted(ids))),
                          air.state.raider, air.state.defender)
    wanted = next((parse(o.square) for o in orders.get(side, ()) if isinstance(o, Stack) and o.sq in ids
                   and o.square != "STAY"), sq.at)
    to = wanted if wanted in dogfight.stack_moves(sq.at) else sq.at
    for s in stack:
        marker = DIVE if to[1] < s.at[1] else NONE   # staying counts as moving: old markers go [8.3.1, 8.5]
        air.put(s.move(at=to, marker=marker))
        air.moved.append(s.id)
    tell(w, f"the dogfight in {name(sq.at)} ({' '.join(sorted(ids))}) is moved by {side}: "
         + (f"to {name(to)}" if to != sq.at else "stays") + " (10.8.2)", sorted(ids), kind="move")
    if air.state.uses("14.2.3"):   # a dogfight moving into or staying in a barrage zone: each squadron [14.2.3]
        for sid in sorted(ids):
            flak.barrage_after_move(w, sid, to, [to], [], False)

