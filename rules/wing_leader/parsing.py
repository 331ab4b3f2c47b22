"""Order parsing: each verb's parser checks its order against the view at ingest and names the rule and what
would be legal; the conditions of scripts; the verb tables (``VERBS`` for orders, ``ANSWERS`` in interrupt
windows) and the whole-file checks."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.defaults import from_json
from pbem.core.errors import IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.flow import Flow
from pbem.core.orders import OrderLine
from pbem.core.ruleset import View
from pbem.core.scripts import ConditionKind, Conditions, If, scripted
from pbem.core.standing import parse_cancel
from pbem.core.verbs import Order, Verb, VerbTable, arity, one_of

from . import (altitude_error, balloons, bomb_runs, dogfight, flak, lufbery, missions, movement, placing, radio,
               rocket_fighter, sky, split, takeoff, tally, weapons, wings)
from .model import Squadron, State, max_losses, owner, side_of
from .surface import Balloon, Barrage, Surface
from .tables import scenario
from .orders import (Answer, Arrive, Attack, AttackBalloon, Break, Command, Consent, Dive, Drop, End, Escape, Evade, Fire,
                     FlakFire, Join, Keep, Lead, Lufbery, Markers, Misvector, Move, Power, Takeoff,
                     Place, PlaceBarrage, Plain, Priority, Pursue, React, Rejoin, Return, Seek, Split, Stack, Tactic, Tally, Vector,
                     Wings)


TALLY_STEPS = ("raider_tally", "defender_tally", "tallies")
#: The set-up windows of option ``setup = players`` [5.3]: the side that sets up first, then the other.
SETUP_STEPS = ("setup_first", "setup_second")
#: The Setup Phase windows of a later turn under ``setup = players`` [5.3.1]: arriving Intercepts' vectors.
ARRIVAL_STEPS = ("arrivals_first", "arrivals_second")


def position(view: View) -> State:
    """The position a view shows (everything is public [5.2]), for checks at ingest."""
    squadrons = tuple(from_json(Squadron, d) for d in view["squadrons"])
    surfaces = tuple(from_json(Surface, d) for d in view.get("surfaces", ()))   # advanced rule 14
    barrages = tuple(from_json(Barrage, d) for d in view.get("barrages", ()))
    balloons_ = tuple(from_json(Balloon, d) for d in view.get("balloons", ()))   # advanced rule 14.3
    options = tuple(sorted(view.get("options", {}).items()))   # those checked at ingest (readings.AT_INGEST)
    leaders = tuple(sorted(view.get("wing_leaders", {}).items()))   # chosen in the set-up [5.2.1]
    return State(view["scenario"], squadrons, Flow(view["step"], view["turn"]), surfaces=surfaces, barrages=barrages,
                 balloons=balloons_, options=options, fought_last=tuple(view.get("fought_last", ())), leaders=leaders)


def _own(view: View, seat: str, sid: str, rule: str) -> Squadron:
    state = position(view)
    try:
        sq = state.squadron(sid.upper())
    except KeyError:
        mine = ", ".join(s.id for s in state.of_seat(seat)) or "none"
        raise IllegalOrderError(f"no squadron {sid}; yours are {mine}", rule=rule) from None
    if sq.side != side_of(seat):
        raise IllegalOrderError(f"{sq.id} is not yours", rule=rule)
    if owner(sq) != seat:
        mine = ", ".join(s.id for s in state.of_seat(seat)) or "none"
        raise IllegalOrderError(f"{sq.id} flies in a wing that {owner(sq)} commands; each player orders only "
                                f"his own wings' squadrons (yours: {mine})", rule="9.1")
    if not sq.on_map:
        raise IllegalOrderError(f"{sq.id} is no longer on the map", rule=rule)
    return sq


def _window(view: View, tally_window: bool) -> None:
    if view["step"] in SETUP_STEPS:
        raise IllegalOrderError("the sides are setting up: only VECTOR (an Intercept's vector), PLACE (an "
                                "escort's or a wing squadron's square) and VETERAN, GREEN, EXPERTE (markers) now; "
                                "the first Tally Phase comes next", rule="5.3")
    if view["step"] in ARRIVAL_STEPS:
        raise IllegalOrderError("the Setup Phase: only VECTOR for an Intercept arriving this turn now; the Tally "
                                "Phase comes next", rule="5.3.1")
    if view["step"] == "wings":
        raise IllegalOrderError("the players are choosing their wings (WINGS); the first Tally Phase comes next",
                                rule="6.0")
    if view["step"] == "turn":   # cadence single: one window for both phases
        return
    if (view["step"] in TALLY_STEPS) != tally_window:
        raise IllegalOrderError("this order belongs to the " + ("Tally" if tally_window else "Movement")
                                + " Phase; now is the " + view["step_title"], rule="6.0")


def parse_wings(args: Sequence[str], view: View, seat: str) -> Wings:
    """The formations a wing player asks for, each named by one of its squadrons, before the first turn [9.5]."""
    if view["step"] != "wings":
        raise IllegalOrderError("wings are chosen before the first turn, not now", rule="9.5")
    if not args:
        raise OrderSyntaxError("expected WINGS <squadron> ... (a squadron of each wing you want)", rule="9.5")
    state = position(view)
    ids = [a.upper() for a in args]
    ours = {s.id for s in state.of_side(side_of(seat))}
    strangers = [i for i in ids if i not in ours]
    if strangers:
        raise IllegalOrderError(f"{', '.join(strangers)}: not a squadron of your side ({', '.join(sorted(ours))})",
                                rule="9.5")
    return Wings(tuple(dict.fromkeys(ids)))


def parse_tally(args: Sequence[str], view: View, seat: str) -> Tally:
    arity(args, 2, "TALLY <squadron> <enemy>", rule="7.2")
    _window(view, True)
    sq = _own(view, seat, args[0], "7.2")
    state = position(view)
    why = tally.may_tally(sq.move(tally=""), state)
    if why:
        raise IllegalOrderError(why, rule="15.2.4" if "bomber by mission" in why and state.uses("15.2") else "7.2")
    legal = view["tally_targets"].get(sq.id, {})
    try:
        target = state.squadron(args[1].upper())
    except KeyError:
        raise IllegalOrderError(f"no squadron {args[1]}; {sq.id} may tally {_targets(legal)}", rule="7.2") from None
    problem = tally.target_problem(state, sq, target)
    if problem:
        raise IllegalOrderError(f"{problem}; {sq.id} may tally {_targets(legal)}", rule="7.2")
    return Tally(sq.id, target.id)


def _targets(legal: dict[str, int]) -> str:
    return ", ".join(f"{t} (needs {n}+)" for t, n in legal.items()) or "nobody"


def parse_command(args: Sequence[str], view: View, seat: str) -> Command:
    """``ORDER <squadron> <enemy>``, or ``ORDER WING <squadron> <enemy>``: every Available squadron of that
    squadron's wing formation onto one enemy [9.5.4, 9.5.4.1]."""
    whole_wing = bool(args) and args[0].upper() == "WING"
    args = args[1:] if whole_wing else args
    arity(args, 2, "ORDER [WING] <squadron> <enemy>", rule="9.5.4")
    _window(view, True)
    sq = _own(view, seat, args[0], "9.5.4")
    state = position(view)
    leader = wings.leader_of(state, sq)
    try:
        target = state.squadron(args[1].upper())
    except KeyError:
        raise IllegalOrderError(f"no squadron {args[1]}", rule="9.5.4") from None
    if leader is None:
        raise IllegalOrderError(f"{sq.id} cannot be ordered onto {target.id}: it is in no wing formation", rule="9.5.4")
    if whole_wing:
        wing = wings.wing_of(state, sq)
        formation = wings.wing_formation(state, wing) if wing is not None else set()
        problems = {m: wings.order_problem(state, leader, state.squadron(m), target) for m in sorted(formation)}
        if all(problems.values()):
            raise IllegalOrderError(f"no squadron of {leader.id}'s wing formation can be ordered onto {target.id}: "
                                    + "; ".join(p for p in problems.values() if p), rule="9.5.4.1")
        return Command(sq.id, target.id, wing=True)
    why = wings.order_problem(state, leader, sq, target)
    if why:
        raise IllegalOrderError(f"{sq.id} cannot be ordered onto {target.id}: {why}", rule="9.5.4")
    return Command(sq.id, target.id)


SPLIT_USAGE = ("SPLIT <squadron> [LOSSES <n>] [STRAGGLER 1|2] [EXPERTE 1|2] [LEADER 1|2] [TALLY 1|2] "
               "(after its TALLY or ORDER)")


def parse_split(args: Sequence[str], view: View, seat: str) -> Split:
    if not args or len(args) % 2 == 0:
        raise OrderSyntaxError(f"expected {SPLIT_USAGE}", rule="9.3")
    _window(view, True)
    sq = _own(view, seat, args[0], "9.3")
    if sq.flight or sq.disruption or sq.broken:
        raise IllegalOrderError(f"{sq.id} may not split: only undisrupted, unbroken squadrons do", rule="9.3")
    chosen: dict[str, int] = {}
    for word, value in zip(args[1::2], args[2::2], strict=True):
        key = word.upper()
        if key not in ("LOSSES", "STRAGGLER", "EXPERTE", "TALLY", "LEADER") or key in chosen or not value.isdigit():
            raise OrderSyntaxError(f"expected {SPLIT_USAGE}", rule="9.3.1")
        chosen[key] = int(value)
        if key != "LOSSES" and chosen[key] not in (1, 2):
            raise OrderSyntaxError(f"{key} names the flight, 1 or 2", rule="9.3.1")
    for key, has, what in (("STRAGGLER", sq.straggler, "straggler"), ("EXPERTE", sq.experte, "Experte")):
        if key in chosen and not has:
            raise IllegalOrderError(f"{sq.id} has no {what} to give a flight", rule="9.3.1")
    state = position(view)
    choice = _split_choice(state, sq, chosen)
    problem = split.fit_problem(sq, choice, max_losses(state.scenario, sq.move(flight=True)),
                                state.option("split_count", "together"))
    if problem:
        raise IllegalOrderError(problem, rule="9.3.1")
    problem = split.counters_problem(state, sq)
    if problem:
        raise IllegalOrderError(problem, rule="9.3")
    return Split(sq.id, choice.losses, choice.straggler, choice.experte, choice.tally, choice.leader)


def _split_choice(state: State, sq: Squadron, chosen: dict[str, int]) -> split.Choice:
    """The owner's choices of a SPLIT; the Experte and the Wing Leader marker checked together [9.3.1, 5.2.1]."""
    try:
        experte, leader = split.leader_choice(wings.leads_wing(state, sq), sq.experte, chosen)
    except ValueError as e:
        text, _, rule = str(e).rpartition(" (")
        raise IllegalOrderError(f"{sq.id}: {text}", rule=rule.rstrip(")")) from None
    return split.Choice(chosen.get("LOSSES"), chosen.get("STRAGGLER", 1), experte, chosen.get("TALLY", 1), leader)


def parse_drop(args: Sequence[str], view: View, seat: str) -> Drop:
    arity(args, 1, "DROP <squadron>", rule="7.2.2")
    _window(view, True)
    sq = _own(view, seat, args[0], "7.2.2")
    if sq.dogfight:
        raise IllegalOrderError(f"{sq.id} is in a dogfight and cannot drop its tally", rule="10.8.1")
    if not sq.tally:
        raise IllegalOrderError(f"{sq.id} tallies nobody", rule="7.2.2")
    return Drop(sq.id)


def free_mover(state: State, sq: Squadron) -> str | None:
    """Why ``sq`` may not choose its own path, or None [9.2.7]: it tallies an enemy, or it is Alert and
    shares a square with an enemy while tallying nobody."""
    if sq.broken:
        return f"{sq.id} is broken and returns to base (10.7.1)"
    if sq.dogfight:
        return f"{sq.id} is in a dogfight: the stack moves together (10.8.2); use STACK"
    if sq.tally:
        return None
    if sq.fighter and sq.alert and any(e.side != sq.side and e.on_map and e.at == sq.at for e in state.squadrons):
        return None
    return f"{sq.id} has no tally: its {sq.mission} mission sets its move (9.2); it may " + allowed_moves(sq)


def allowed_moves(sq: Squadron) -> str:
    """What a squadron's mission lets it be ordered in the Movement Phase [9.2], for messages and forms."""
    if sq.mission in ("bombing", "escort") or (sq.mission == "sweep" and not sq.alert):
        return "only fly straight on (no order needed)"
    if sq.mission == "rtb":
        return f"only return to base (no order needed; RTB {sq.id} DIVE dives for one more MP, 8.2)"
    if sq.mission == "intercept":
        dive = f" (DIVE {sq.id} toward a lower vector: one more MP, 8.2)" if sq.vector and sq.vector[1] < sq.at[1] else ""
        return f"follow its vector{dive}, CIRCLE or RTB"
    if sq.mission == "cap":
        return "CIRCLE until it tallies or ground control gives it a vector (9.2.4.1), or RTB"
    return "SWEEP (straight on), JOIN a tallying squadron of its net, or RTB"


def _target_turn(state: State, sq: Squadron, steps: Sequence[str]) -> None:
    """Under option ``target_turn = stay`` (AMB-29) a squadron starting in its target's square may not even turn
    in place [7.2.3]."""
    if sq.tally and state.squadron(sq.tally).at == sq.at and state.option("target_turn", "turn") == "stay":
        raise IllegalOrderError(f"{sq.id} starts in its target's square and must stay there without turning "
                                f"(this game reads 7.2.3 so); leave it without a MOVE", rule="7.2.3")


def parse_move(args: Sequence[str], view: View, seat: str) -> Move:
    if len(args) < 2:
        raise OrderSyntaxError("expected MOVE <squadron> [DIVE] <square or heading> ...", rule="8.1")
    _window(view, False)
    sq = _own(view, seat, args[0], "8.1")
    state = position(view)
    why = free_mover(state, sq)
    if why:
        raise IllegalOrderError(why, rule="9.2.7")
    dive = args[1].upper() == "DIVE"
    steps = tuple(a.upper() for a in args[1 + dive:])
    if sq.tally and state.squadron(sq.tally).at == sq.at and any(t not in movement.sky.HEADINGS for t in steps):
        raise IllegalOrderError(f"{sq.id} starts in its target's square and must stay there; it may only turn",
                                rule="7.2.3")
    _target_turn(state, sq, steps)
    target = state.squadron(sq.tally).at if sq.tally else None
    front = movement.sky.front_squares(target, state.squadron(sq.tally).heading) if target is not None else ()
    w = movement.walk(sq, steps, movement.allowance(sq, dive), stop_at=target, head_on_from=front)
    movement.finish(sq, w, dive_declared=dive)
    sinking = rocket_fighter.descent_problem(sq, w.at[1])
    if sinking:
        raise IllegalOrderError(sinking, rule="13.8.2")
    return Move(sq.id, steps, dive)


def parse_pursue(args: Sequence[str], view: View, seat: str) -> Pursue:
    if len(args) not in (1, 2) or (len(args) == 2 and args[1].upper() != "DIVE"):
        raise OrderSyntaxError("expected PURSUE <squadron> [DIVE]", rule="7.2.3")
    _window(view, False)
    sq = _own(view, seat, args[0], "7.2.3")
    if view["step"] == "turn":   # written before this turn's tallies: checked when its turn comes
        return Pursue(sq.id, len(args) == 2)
    if sq.dogfight:
        raise IllegalOrderError(f"{sq.id} is in a dogfight: the stack moves together; use STACK", rule="10.8.2")
    if not sq.tally or sq.broken:
        raise IllegalOrderError(f"{sq.id} tallies nobody; it may {allowed_moves(sq)}", rule="7.2.3")
    return Pursue(sq.id, len(args) == 2)


def parse_plain(verb: str, rule: str) -> Any:
    def parse(args: Sequence[str], view: View, seat: str) -> Plain:
        dive = verb == "RTB" and len(args) == 2 and args[1].upper() == "DIVE"
        arity(args[:1] if dive else args, 1, f"{verb} <squadron>" + (" [DIVE]" if verb == "RTB" else ""), rule=rule)
        _window(view, False)
        sq = _own(view, seat, args[0], rule)
        problem = plain_problem(position(view), sq, verb) or (dive_problem(sq) if dive else None)
        if problem:   # drop tanks (a squadron without a bomb load) are 13.2's
            cited = rule
            if dive and problem == dive_problem(sq):
                cited = "8.2"
            elif verb == "JETTISON" and sq.drop_tanks and not sq.bombs:
                cited = "13.2"
            raise IllegalOrderError(problem, rule=cited)
        return Plain(verb, sq.id, dive)
    return parse


def dive_problem(sq: Squadron) -> str | None:
    """Why a squadron returning to base may not declare a dive [8.2, 9.2.6]: it must dive at least one
    altitude, so not from the lowest."""
    if sq.at[1] <= 0:
        return f"{sq.id} is at the lowest altitude: a declared dive must dive at least one altitude"
    return None


def plain_problem(state: State, sq: Squadron, verb: str) -> str | None:
    """Whether RTB, SWEEP, CIRCLE or JETTISON is open to the squadron [9.2.1.1, 9.2.3, 9.2.4, 9.2.6, 8.3.1]."""
    if verb == "JETTISON":   # the bomb load [9.2.1.1], or drop tanks while alert [13.2]
        return None if sq.bombs else weapons.jettison_problem(sq) if sq.drop_tanks else f"{sq.id} carries no bomb load"
    if not sq.fighter:
        return f"{sq.id} is a bomber by mission: it flies straight on (9.2.1)"
    if verb == "RTB" and (sq.alert or sq.mission != "sweep") and sq.mission != "escort":
        return None
    if verb == "SWEEP" and sq.mission == "sweep" and sq.alert:
        return None
    if verb == "CIRCLE" and (sq.mission in ("intercept", "cap") or free_mover(state, sq) is None):
        return None
    return f"{sq.id} ({'alert' if sq.alert else 'unalert'} {sq.mission}) may {allowed_moves(sq)}"


def _dive_word(args: Sequence[str], n: int) -> tuple[Sequence[str], bool]:
    """The arguments without a trailing DIVE after the ``n`` words, and whether it was there [8.2]."""
    if len(args) == n + 1 and args[-1].upper() == "DIVE":
        return args[:-1], True
    return args, False


def parse_attack(args: Sequence[str], view: View, seat: str) -> Attack:
    """``ATTACK <sq> <attack>``: how a bomber flying to its target attacks it [15.3, 15.5]; each attack is
    checked as the scenario sets up one (``bomb_runs.attack_problem``)."""
    kinds = "|".join(k.upper() for k in bomb_runs.ATTACKS)
    arity(args, 2, f"ATTACK <squadron> {kinds}", rule="15.3")
    _window(view, False)
    sq = _own(view, seat, args[0], "15.3")
    state = position(view)
    if not state.uses("15.2.1"):
        raise IllegalOrderError("this scenario does not use the bombing rules (15)", rule="15.3")
    if not bomb_runs.flying_to_target(state, sq):
        raise IllegalOrderError(f"{sq.id} is not a bomber flying to a target with its load", rule="15.3")
    kind = args[1].lower()
    if kind not in bomb_runs.ATTACKS:
        raise IllegalOrderError(f"{args[1]!r} is not an attack: {kinds}", rule="15.3")
    problem = bomb_runs.problem_in(state, bomb_runs.choose_attack(sq, kind), kamikaze=sq.attack == "kamikaze")
    if problem:
        rule, _, text = problem.partition(": ")
        legal = [k.upper() for k in bomb_runs.ATTACKS if not bomb_runs.problem_in(
            state, bomb_runs.choose_attack(sq, k), kamikaze=sq.attack == "kamikaze")]
        raise IllegalOrderError(f"{text}; {sq.id} may attack {', '.join(legal) or 'no other way'}", rule=rule)
    return Attack(sq.id, kind)


def parse_balloon(args: Sequence[str], view: View, seat: str) -> AttackBalloon:
    """``BALLOON <sq> <balloon>``: a sweep pursues a barrage balloon within three squares [14.3]."""
    arity(args, 2, "BALLOON <squadron> <balloon>", rule="14.3")
    _window(view, False)
    sq = _own(view, seat, args[0], "14.3")
    balloons.check_order(position(view), sq, args[1])
    return AttackBalloon(sq.id, args[1].upper())


def parse_join(args: Sequence[str], view: View, seat: str) -> Join:
    args, dive = _dive_word(args, 2)
    arity(args, 2, "JOIN <squadron> <friendly squadron> [DIVE]", rule="9.2.3")
    _window(view, False)
    sq = _own(view, seat, args[0], "9.2.3")
    state = position(view)
    if sq.mission != "sweep" or not sq.alert or sq.tally:
        raise IllegalOrderError(f"only an Alert Sweep that tallies nobody may join; {sq.id} may {allowed_moves(sq)}",
                                rule="9.2.3")
    friend = _own(view, seat, args[1], "9.2.3")
    if not friend.tally or radio.net_of(state, friend) is None or radio.net_of(state, friend) != radio.net_of(state, sq):
        raise IllegalOrderError(f"{friend.id} must tally an enemy and share {sq.id}'s radio net", rule="9.2.3")
    return Join(sq.id, friend.id, dive)


def parse_return(args: Sequence[str], view: View, seat: str) -> Return:
    args, dive = _dive_word(args, 2)
    arity(args, 2, "RETURN <squadron> <square> [DIVE]", rule="9.2.2")
    _window(view, False)
    sq = _own(view, seat, args[0], "9.2.2")
    if not (sq.former_escort and sq.mission == "sweep") or sq.tally:
        raise IllegalOrderError(f"only a former escort on Sweep that tallies nobody returns to escort; {sq.id} may "
                                f"{allowed_moves(sq)}", rule="9.2.2")
    try:
        return Return(sq.id, movement.sky.name(movement.sky.parse(args[1])), dive)
    except ValueError as exc:
        raise OrderSyntaxError(str(exc), rule="9.2.2") from None


def parse_dive(args: Sequence[str], view: View, seat: str) -> Dive:
    """``DIVE <sq>``: an Intercept flying to its vector declares a dive for one more MP [8.2]; only toward a
    vector below it, since level with its goal it may not dive and below it must climb [9.2.5]."""
    arity(args, 1, "DIVE <squadron> (an Intercept flying to a lower vector)", rule="8.2")
    _window(view, False)
    sq = _own(view, seat, args[0], "8.2")
    rule, why = vector_dive_problem(sq, still_to_tally=view["step"] == "turn")
    if why:
        raise IllegalOrderError(why, rule=rule)
    return Dive(sq.id)


def vector_dive_problem(sq: Squadron, still_to_tally: bool = False) -> tuple[str, str | None]:
    """The rule and why ``sq`` may not declare a dive on its way to its vector, or ``("", None)`` [8.2, 9.2.5].
    Under cadence single (``still_to_tally``) a tally it holds may yet be dropped, so it is not held against it."""
    others = "MOVE, PURSUE, RTB, JOIN and RETURN take DIVE"
    if sq.broken or sq.dogfight:
        return "8.2", f"{sq.id} is {'broken' if sq.broken else 'in a dogfight'}: it does not fly to a vector"
    if sq.mission != "intercept" or sq.vector is None:
        return "8.2", f"{sq.id} is no Intercept flying to its vector; {others}"
    if sq.tally and not still_to_tally:
        return "8.2", f"{sq.id} tallies {sq.tally} and pursues it: PURSUE {sq.id} DIVE"
    if sq.vector[1] >= sq.at[1]:
        level = "level with" if sq.vector[1] == sq.at[1] else "below"
        return "9.2.5", (f"{sq.id} is {level} its vector {sky.name(sq.vector)}: on the shortest path it may not "
                         f"dive ({'it keeps its altitude' if level == 'level with' else 'it must climb'})")
    return "", None


def parse_vector(args: Sequence[str], view: View, seat: str) -> Vector:
    arity(args, 2, "VECTOR <squadron> <square>", rule="9.2.4")
    if view["step"] in SETUP_STEPS:
        return _setup_vector(args, view, seat)
    if view["step"] in ARRIVAL_STEPS:
        return _arrival_vector(args, view, seat)
    _window(view, False)
    sq = _own(view, seat, args[0], "9.2.4")
    state = position(view)
    if sq.mission not in ("intercept", "cap") or sq.tally:
        raise IllegalOrderError(f"only an Intercept squadron that tallies nobody gets a new vector; {sq.id} is "
                                f"{'tallying' if sq.tally else 'on ' + sq.mission}", rule="9.2.4")
    if not radio.under_gci(state, sq):
        raise IllegalOrderError(f"{sq.id} is not under ground control (no GCI on its radio net)", rule="9.2.4")
    try:
        square = movement.sky.parse(args[1])
    except ValueError as exc:
        raise OrderSyntaxError(str(exc), rule="9.2.4") from None
    return Vector(sq.id, movement.sky.name(square))


def _square(word: str, rule: str) -> tuple[int, int]:
    try:
        return movement.sky.parse(word)
    except ValueError as exc:
        raise OrderSyntaxError(str(exc), rule=rule) from None


def _setup_vector(args: Sequence[str], view: View, seat: str) -> Vector:
    """In the set-up, each Intercept squadron places its vector anywhere on the map; a CAP places none
    [5.3 step 4, 9.2.4, 9.2.4.1]."""
    sq = _own(view, seat, args[0], "5.3")
    if sq.mission != "intercept":
        raise IllegalOrderError(f"only an Intercept squadron places a vector in the set-up; {sq.id} is on "
                                f"{sq.mission}" + (" (a CAP places none, 9.2.4.1)" if sq.mission == "cap" else ""),
                                rule="5.3")
    return Vector(sq.id, movement.sky.name(_square(args[1], "5.3")))   # a wing's others: _setup_file (9.5.3)


def parse_place(args: Sequence[str], view: View, seat: str) -> Place:
    """``PLACE <squadron> <square>`` in the set-up: an escort within 3 squares of a bomber of its side with the
    same heading, not ahead of the lead bomber nor more than one altitude below the lowest [5.3 step 5, 9.2.2];
    a wing squadron other than the Wing Leader's in formation with it (checked on the whole file, step 6)."""
    arity(args, 2, "PLACE <squadron> <square>", rule="5.3")
    if view["step"] not in SETUP_STEPS:
        raise IllegalOrderError("an escort's or a wing squadron's square is chosen only in the set-up "
                                "(option setup = players)", rule="5.3")
    sq = _own(view, seat, args[0], "5.3")
    square = _square(args[1], "5.3")
    state = position(view)
    if sq.mission != "escort":   # the Wing Leader's own square stays (step 2): _setup_file, after LEADER lines
        if placing.wing_in(state, sq) is None:
            raise IllegalOrderError(f"{sq.id} is not an escort (step 5) nor a wing squadron other than its Wing "
                                    "Leader's (step 6): its square is the order of battle's (step 2)", rule="5.3")
        return Place(sq.id, movement.sky.name(square))
    bombers = [b for b in state.squadrons if b.side == sq.side and b.on_map and not b.fighter]
    why = missions.escort_setup_problem(sq.move(at=square), bombers)
    if why:
        raise IllegalOrderError(why, rule="9.2.2")
    return Place(sq.id, movement.sky.name(square))


def _arrival_vector(args: Sequence[str], view: View, seat: str) -> Vector:
    """In a later turn's Setup Phase, an Intercept arriving that turn places its vector anywhere on the map
    [5.3.1]; others keep theirs until the Administrative Phase (9.2.4)."""
    state = position(view)
    named = state.find(args[0].upper())
    wing = placing.wing_of_member(state, named) if named is not None else None
    if wing is not None and owner(named) == seat:
        raise IllegalOrderError(f"{named.id} flies in {wing['name']}: only its Wing Leader's squadron places a "
                                "vector; the others keep formation on it", rule="9.5.3")
    mine = [s for s in placing.arriving_intercepts(state, view["turn"], side_of(seat)) if owner(s) == seat]
    sq = next((s for s in mine if s.id == args[0].upper()), None)
    if sq is None:
        raise IllegalOrderError(f"only an Intercept of yours arriving this turn places its vector in the Setup "
                                f"Phase ({', '.join(s.id for s in mine) or 'none'})", rule="5.3.1")
    return Vector(sq.id, movement.sky.name(_square(args[1], "5.3.1")))


def parse_markers(kind: str) -> Any:
    """``VETERAN|GREEN|EXPERTE <squadron>...``: where the player places his markers of that kind [5.2.1]."""
    def parse(args: Sequence[str], view: View, seat: str) -> Markers:
        if view["step"] not in SETUP_STEPS:
            raise IllegalOrderError(f"{kind} markers are placed only in the set-up (option setup = players)",
                                    rule="5.2.1")
        ids = tuple(a.upper() for a in args)
        why = placing.marker_problem(position(view), seat, kind, ids)
        if why:
            raise IllegalOrderError(why, rule="5.2.1")
        return Markers(kind, ids)
    return parse


def parse_leader(args: Sequence[str], view: View, seat: str) -> Lead:
    """``LEADER <squadron>``: which squadron of its wing carries the Wing Leader marker [5.2.1]."""
    arity(args, 1, "LEADER <squadron>", rule="5.2.1")
    if view["step"] not in SETUP_STEPS:
        raise IllegalOrderError("the Wing Leader marker is placed only in the set-up (option setup = players)",
                                rule="5.2.1")
    sq = _own(view, seat, args[0], "5.2.1")
    state = position(view)
    wing = placing.wing_in(state, sq)
    if wing is None:
        mine = ", ".join(m for w in placing.wings(state) for m in placing.members(state, w)
                         if state.squadron(m).side == sq.side and owner(state.squadron(m)) == seat) or "none"
        raise IllegalOrderError(f"{sq.id} flies in no wing: the Wing Leader marker goes on a squadron of the wing "
                                f"(yours: {mine})", rule="5.2.1")
    return Lead(wing["name"], sq.id)


def _leader_lines(parsed: Sequence[tuple[OrderLine, Order]], state: State) -> tuple[State, list[OrderProblem]]:
    """The file's Wing Leader markers, one a wing [5.2.1]; with the position they make, in which the
    file's squares and vectors are checked: the leader's squadron keeps the order of battle's square (5.3
    step 2) and alone places a vector (9.5.3)."""
    problems, chosen = [], {}
    for line, o in parsed:
        if isinstance(o, Lead) and o.wing in chosen:
            problems.append(IllegalOrderError(f"{o.wing} has one Wing Leader marker, already on {chosen[o.wing]}",
                                              rule="5.2.1").problem(line.line_no, line.text))
        elif isinstance(o, Lead):
            chosen[o.wing] = o.sq
    led = placing.led_by(state, chosen)
    for line, o in parsed:
        sq = led.find(getattr(o, "sq", ""))
        if sq is None or placing.wing_in(led, sq) is None:
            continue
        wing = placing.wing_of_member(led, sq)
        if isinstance(o, Place) and sq.mission != "escort" and wing is None:
            problems.append(IllegalOrderError(
                f"{sq.id} is not an escort (step 5) nor a wing squadron other than its Wing Leader's (step 6): its "
                "square is the order of battle's (step 2)", rule="5.3").problem(line.line_no, line.text))
        if isinstance(o, Vector) and wing is not None:
            problems.append(IllegalOrderError(
                f"{sq.id} flies in {wing['name']}: only its Wing Leader's squadron places a vector; the others keep "
                "formation on it", rule="9.5.3").problem(line.line_no, line.text))
    return led, problems


def _setup_file(parsed: Sequence[tuple[OrderLine, Order]], state: State, seat: str) -> list[OrderProblem]:
    """A set-up file as a whole: no squadron with both a Veteran and a Green marker [5.2.1]; one Wing Leader
    marker a wing, whose squadron keeps its square and alone places a vector (_leader_lines); every wing
    still in formation with its Wing Leader's squadron after the file's placements [5.3 step 6]."""
    state, problems = _leader_lines(parsed, state)
    refused = {p.line_no for p in problems}
    placed = {o.kind: o.squadrons for _, o in parsed if isinstance(o, Markers)}
    clash = placing.quality_clash(state, seat, placed)
    marker_lines = [line for line, o in parsed if isinstance(o, Markers) and o.kind in ("VETERAN", "GREEN")]
    if clash and marker_lines:
        problems.append(IllegalOrderError(clash, rule="5.2.1").problem(marker_lines[-1].line_no, marker_lines[-1].text))
    places = [(line, o) for line, o in parsed if isinstance(o, Place) and line.line_no not in refused]
    broken = placing.formation_problems(state, [(o.sq, movement.sky.parse(o.square)) for _, o in places])
    for sid, why in broken.items():
        line = next(line for line, o in reversed(places) if o.sq == sid) if any(o.sq == sid for _, o in places) \
            else places[-1][0]
        problems.append(IllegalOrderError(why, rule="5.3").problem(line.line_no, line.text))
    return problems


def parse_escape(args: Sequence[str], view: View, seat: str) -> Escape:
    arity(args, 1, "ESCAPE <squadron>", rule="11.0")
    _window(view, False)
    sq = _own(view, seat, args[0], "11.0")
    if not sq.on_map:
        raise IllegalOrderError(f"{sq.id} is not on the map", rule="11.0")
    return Escape(sq.id)   # an unbroken one needs the opponent's consent, checked when the phase comes


def parse_end(args: Sequence[str], view: View, seat: str) -> End:
    arity(args, 0, "END", rule="12.0")
    _window(view, False)
    return End(side_of(seat))


def parse_rejoin(args: Sequence[str], view: View, seat: str) -> Rejoin:
    arity(args, 1, "ESCORT <squadron>", rule="9.2.2")
    _window(view, False)
    sq = _own(view, seat, args[0], "9.2.2")
    if sq.lufbery:
        raise IllegalOrderError(f"{sq.id} is in a Lufbery circle: it escorts again only once out of it (LUFBERY "
                                f"{sq.id} NO)", rule="13.4.3")
    if not missions.may_escort_again(position(view), sq):
        raise IllegalOrderError(f"{sq.id} is not a former escort on Sweep", rule="9.2.2")
    return Rejoin(sq.id)


def parse_break(args: Sequence[str], view: View, seat: str) -> Break:
    arity(args, 1, "BREAK <squadron>", rule="10.7.1")
    _window(view, False)
    sq = _own(view, seat, args[0], "10.7.1")
    if sq.broken:
        raise IllegalOrderError(f"{sq.id} is already broken", rule="10.7.1")
    return Break(sq.id)


def parse_barrage(args: Sequence[str], view: View, seat: str) -> PlaceBarrage:
    """``BARRAGE <flak unit> <square>|OFF``: checked against the unit's legal points now [14.2.2, 14.2.8]."""
    arity(args, 2, "BARRAGE <flak unit> <square>|OFF", rule="14.2.2")
    _window(view, False)
    state = position(view)
    if not state.uses("14.2.2"):
        raise IllegalOrderError("this scenario does not use flak zones", rule="14.2.2")
    unit = args[0].upper()
    g = flak.gun(state, unit)
    if g is None:
        known = ", ".join(flak.all_labels(state)) or "none"
        raise IllegalOrderError(f"no flak unit {unit} that may still fire (flak units: {known}; a unit with heavy "
                                "damage is suppressed, 14.1.2)", rule="14.2.2")
    if g.side != side_of(seat):
        raise IllegalOrderError(f"flak unit {unit} is not yours", rule="14.2.2")
    if args[1].upper() == "OFF":
        return PlaceBarrage(unit, "OFF")
    try:
        point = sky.parse(args[1])
    except ValueError as e:
        raise IllegalOrderError(str(e), rule="14.2.2") from None
    problem = flak.barrage_problem(state, g, point)
    if problem:
        raise IllegalOrderError(problem[0], rule=problem[1])
    return PlaceBarrage(unit, sky.name(point))


def parse_flak(args: Sequence[str], view: View, seat: str) -> FlakFire:
    """``FLAK <flak unit> AUTO|HOLD|AT <enemy>...``: a standing order for direct fire [14.2.4]."""
    if len(args) < 2:
        raise OrderSyntaxError("expected FLAK <flak unit> AUTO|HOLD|ASK|AT <enemy squadron> ...", rule="14.2.4")
    state = position(view)
    if not state.uses("14.2.4"):
        raise IllegalOrderError("this scenario has no direct fire by flak", rule="14.2.4")
    unit = args[0].upper()
    g = next((x for x in flak.guns(state) if x.label == unit), None)
    if g is None or g.side != side_of(seat):
        mine = ", ".join(x.label for x in flak.guns(state) if x.side == side_of(seat) and x.flak.direct) or "none"
        raise IllegalOrderError(f"{unit} is not one of your flak units that may fire (yours: {mine})", rule="14.2.4")
    if not g.flak.direct:
        raise IllegalOrderError(f"{unit} is small arms: barrage fire only", rule="14.2")
    choice = one_of(args[1].upper(), ("AUTO", "HOLD", "AT", "ASK"), "FLAK", rule="14.2.4")
    targets = tuple(dict.fromkeys(a.upper() for a in args[2:]))
    if (choice == "AT") != bool(targets):
        raise OrderSyntaxError("FLAK <unit> AT names the squadrons to fire at; AUTO, HOLD and ASK name none",
                               rule="14.2.4")
    wrong = [t for t in targets if state.find(t) is None or state.squadron(t).side == side_of(seat)]
    if wrong:
        raise IllegalOrderError(f"{', '.join(wrong)}: not enemy squadrons", rule="14.2.4")
    return FlakFire(unit, choice, targets)


def parse_tactic(args: Sequence[str], view: View, seat: str) -> Tactic:
    arity(args, 2, "TACTIC <squadron> SPEED|TURN|BEST|ASK", rule="10.5")
    sq = _own(view, seat, args[0], "10.5")
    return Tactic(sq.id, one_of(args[1].upper(), ("SPEED", "TURN", "BEST", "ASK"), "TACTIC", rule="10.5"))


def parse_fire(args: Sequence[str], view: View, seat: str) -> Fire:
    """``FIRE <sq> ROCKETS|LONG|CLOSE``: the attack it makes on bombers when a long-range attack is open to
    it [13.5.2, 13.5.3]; refused where the scenario has not the rule or the squadron has not the weapon."""
    arity(args, 2, "FIRE <squadron> ROCKETS|LONG|CLOSE", rule="13.5.2")
    sq = _own(view, seat, args[0], "13.5.2")
    choice = one_of(args[1].upper(), ("ROCKETS", "LONG", "CLOSE"), "FIRE", rule="13.5.2")
    problem = weapons.fire_problem(position(view), sq, choice)
    if problem:
        raise IllegalOrderError(problem[1], rule=problem[0])
    return Fire(sq.id, choice)


def parse_evade(args: Sequence[str], view: View, seat: str) -> Evade:
    """``EVADE <sq> YES|NO``: whether it evades when it leads a defence and may [13.4.2]."""
    arity(args, 2, "EVADE <squadron> YES|NO|ASK", rule="13.4.2")
    sq = _own(view, seat, args[0], "13.4.2")
    if not position(view).uses("13.4.2"):
        raise IllegalOrderError("this scenario does not use evasion", rule="13.4.2")
    return Evade(sq.id, one_of(args[1].upper(), ("YES", "NO", "ASK"), "EVADE", rule="13.4.2"))


def parse_error(args: Sequence[str], view: View, seat: str) -> Misvector:
    """``ERROR AWAY|DOWN|UP|NO``: where this side moves an enemy vector after an altitude error [13.1]."""
    arity(args, 1, "ERROR AWAY|DOWN|UP|NO", rule="13.1")
    if not position(view).uses("13.1"):
        raise IllegalOrderError("this scenario does not use altitude errors", rule="13.1")
    return Misvector(one_of(args[0].upper(), altitude_error.POLICIES, "ERROR", rule="13.1"))


def parse_lufbery(args: Sequence[str], view: View, seat: str) -> Lufbery:
    """``LUFBERY <sq> YES|NO|ASK``: whether the fighter is to be in a Lufbery circle, acted on at its turn to
    move [13.4.3]; YES is refused where it could never enter (not a fighter, a single aircraft, the rule off)."""
    arity(args, 2, "LUFBERY <squadron> YES|NO|ASK", rule="13.4.3")
    sq = _own(view, seat, args[0], "13.4.3")
    choice = one_of(args[1].upper(), ("YES", "NO", "ASK"), "LUFBERY", rule="13.4.3")
    state = position(view)
    if not state.uses("13.4.3"):
        raise IllegalOrderError("this scenario does not use the Lufbery circle", rule="13.4.3")
    if choice != "NO":
        never = lufbery.enter_problem(state, sq.move(alert=True, broken=False), [])
        if never:
            raise IllegalOrderError(never, rule="13.4.3")
    return Lufbery(sq.id, choice)


def parse_takeoff(args: Sequence[str], view: View, seat: str) -> Takeoff:
    """``TAKEOFF <sq> E|W``: a squadron waiting on an airfield or carrier takes off this turn [13.7]."""
    arity(args, 2, "TAKEOFF <squadron> E|W", rule="13.7")
    _window(view, False)
    sq = position(view).find(args[0].upper())
    if sq is None or owner(sq) != seat:
        raise IllegalOrderError(f"{args[0].upper()} is not one of your squadrons", rule="13.7")
    facing = one_of(args[1].upper(), ("E", "W"), "TAKEOFF", rule="13.7")
    why = takeoff.takeoff_problem(position(view), sq)
    if why:
        raise IllegalOrderError(why, rule="13.7")
    return Takeoff(sq.id, facing)


def parse_power(args: Sequence[str], view: View, seat: str) -> Power:
    """``POWER <sq> FULL|HALF|MINIMUM``: an Me 163 flight's power setting from this turn on, refused when its
    fuel cannot pay or it has chosen minimum power before [13.8.2]."""
    arity(args, 2, "POWER <squadron> FULL|HALF|MINIMUM", rule="13.8.2")
    sq = _own(view, seat, args[0], "13.8.2")
    word = "MINIMUM" if args[1].upper() == "MIN" else args[1].upper()
    choice = one_of(word, ("FULL", "HALF", "MINIMUM"), "POWER", rule="13.8.2")
    why = rocket_fighter.mode_problem(sq, choice.lower())
    if why:
        raise IllegalOrderError(why, rule="13.8.2")
    return Power(sq.id, choice)


def parse_priority(verb: str, rule: str) -> Any:
    """``LEADS`` (own squadrons), ``HITS`` and ``RETALLY`` (enemy squadrons) priority lists, or ``ASK``: an
    interrupt for that decision when it comes [10.2, 10.2.2, 10.8.1]."""
    def parse(args: Sequence[str], view: View, seat: str) -> Priority:
        state = position(view)
        ids = [a.upper() for a in args]
        if ids == ["ASK"]:
            return Priority(verb, ("ASK",))
        own = verb == "LEADS"
        unknown = [i for i in ids if i not in {s.id for s in state.squadrons if (s.side == side_of(seat)) == own}]
        if unknown:
            whose = "yours" if own else "the enemy's"
            raise IllegalOrderError(f"{', '.join(unknown)}: not {whose}", rule=rule)
        return Priority(verb, tuple(ids))
    return parse


def parse_arrive(args: Sequence[str], view: View, seat: str) -> Arrive:
    arity(args, 2, "ARRIVE <squadron> <altitude>", rule="5.3.1")
    state = position(view)
    try:
        sq = state.squadron(args[0].upper())
    except KeyError:
        raise IllegalOrderError(f"no squadron {args[0]}", rule="5.3.1") from None
    if owner(sq) != seat or sq.status != "waiting" or not sq.edge:
        raise IllegalOrderError(f"{sq.id} is not one of your squadrons still to arrive by an edge", rule="5.3.1")
    if not args[1].isdigit() or int(args[1]) not in sq.altitudes:
        raise IllegalOrderError(f"{sq.id} may arrive at altitude {', '.join(map(str, sq.altitudes))}", rule="5.3.1")
    return Arrive(sq.id, int(args[1]))


def parse_consent(args: Sequence[str], view: View, seat: str) -> Consent:
    arity(args, 1, "CONSENT YES|NO", rule="11.0")
    return Consent(one_of(args[0].upper(), ("YES", "NO"), "CONSENT", rule="11.0"))


def parse_keep(args: Sequence[str], view: View, seat: str) -> Keep:
    arity(args, 1, "KEEP FIRST|SECOND", rule="9.3.1")
    return Keep(one_of(args[0].upper(), ("FIRST", "SECOND"), "KEEP", rule="9.3.1"))


def parse_seek(args: Sequence[str], view: View, seat: str) -> Seek:
    arity(args, 1, "DOGFIGHT SEEK|DECLINE|ASK", rule="10.8")
    return Seek(one_of(args[0].upper(), ("SEEK", "DECLINE", "ASK"), "DOGFIGHT", rule="10.8"))


def parse_stack(args: Sequence[str], view: View, seat: str) -> Stack:
    arity(args, 2, "STACK <squadron> STAY|<square>", rule="10.8.2")
    _window(view, False)
    sq = _own(view, seat, args[0], "10.8.2")
    if not sq.dogfight:
        raise IllegalOrderError(f"{sq.id} is not in a dogfight", rule="10.8.2")
    if args[1].upper() == "STAY":
        return Stack(sq.id, "STAY")
    legal = dogfight.stack_moves(sq.at)
    try:
        to = movement.sky.parse(args[1])
    except ValueError:
        to = (-1, -1)
    if to not in legal:
        raise IllegalOrderError(f"a dogfight stays or moves one square level or lower: "
                                f"{', '.join(movement.sky.name(c) for c in legal)}", rule="10.8.2")
    return Stack(sq.id, movement.sky.name(to))


def parse_react(args: Sequence[str], view: View, seat: str) -> React:
    arity(args, 2, "REACT <escort> YES|NO|SPLIT|ASK", rule="10.4")
    sq = _own(view, seat, args[0], "10.4")
    if sq.mission != "escort":
        raise IllegalOrderError(f"{sq.id} is not an escort; only escorts react", rule="10.4")
    choice = one_of(args[1].upper(), ("YES", "NO", "SPLIT", "ASK"), "REACT", rule="10.4")
    if choice == "SPLIT":
        if sq.side not in scenario(view["scenario"]).get("flexibility", ()):
            raise IllegalOrderError(f"{sq.id} may split on reacting only with tactical flexibility, "
                                    f"which this scenario does not give its side", rule="10.4.2")
        if sq.flight:
            raise IllegalOrderError(f"{sq.id} is a flight; flights never split", rule="9.3")
    return React(sq.id, choice)


def _parse_sq(args: Sequence[str], view: View, seat: str) -> tuple[str, ...]:
    arity(args, 1, "<squadron>", rule="9.2")
    return (_own(view, seat, args[0], "9.2").id,)


def _parse_tallied(args: Sequence[str], view: View, seat: str) -> tuple[str, ...]:
    arity(args, 1, "TALLIED <squadron>", rule="7.2")
    try:
        return (position(view).squadron(args[0].upper()).id,)
    except KeyError:
        raise IllegalOrderError(f"no squadron {args[0]}", rule="7.2") from None


CONDITIONS = Conditions([
    ConditionKind("TALLYING", _parse_sq, lambda w, r, a: bool(w.data.squadron(a[0]).tally),
                  "TALLYING <squadron> (it tallies an enemy when its turn comes)"),
    ConditionKind("ALERT", _parse_sq, lambda w, r, a: w.data.squadron(a[0]).alert, "ALERT <squadron>"),
    ConditionKind("TALLIED", _parse_tallied,
                  lambda w, r, a: any(s.tally == a[0] for s in w.data.squadrons.values()),
                  "TALLIED <squadron> (some enemy squadron tallies it, or some friendly one tallies this enemy)"),
], rule="9.2")


#: The rule each standing order's key answers, for a CANCEL refused (its first word; 6.0, the orders, else).
CANCEL_RULES = {"TACTIC": "10.5", "REACT": "10.4", "DOGFIGHT": "10.8", "LEADS": "10.2", "HITS": "10.2.2",
                "RETALLY": "10.8.1", "CONSENT": "11.0", "KEEP": "9.3.1",
                "POWER": "13.8.2", "ERROR": "13.1", "LUFBERY": "13.4.3"}


def parse_cancel_key(args: Sequence[str], view: View, seat: str) -> Order:
    """CANCEL <key>: the kit's check (the key must be in force), refused under the rule of the order it cancels."""
    if not args:
        raise OrderSyntaxError("CANCEL needs the key of a standing order in force, e.g. CANCEL TACTIC A", rule="6.0")
    try:
        return parse_cancel(args, view, seat)
    except OrderError as e:
        if e.rule:
            raise
        raise type(e)(e.message, rule=CANCEL_RULES.get(args[0].upper(), "6.0")) from None


VERBS = scripted(VerbTable([
    Verb("TALLY", parse_tally, "TALLY <squadron> <enemy>", "7.2"),
    Verb("DROP", parse_drop, "DROP <squadron>", "7.2.2"),
    Verb("SPLIT", parse_split, SPLIT_USAGE, "9.3"),
    Verb("ORDER", parse_command, "ORDER [WING] <squadron> <enemy> (Wing Leader; WING: the whole wing formation)",
         "9.5.4"),
    Verb("MOVE", parse_move, "MOVE <squadron> [DIVE] <square|heading|SLOW|<|>> ...", "8.1"),
    Verb("PURSUE", parse_pursue, "PURSUE <squadron> [DIVE]", "7.2.3"),
    Verb("RTB", parse_plain("RTB", "9.2.6"), "RTB <squadron> [DIVE]", "9.2.6"),
    Verb("SWEEP", parse_plain("SWEEP", "9.2.3"), "SWEEP <squadron>", "9.2.3"),
    Verb("CIRCLE", parse_plain("CIRCLE", "8.3.1"), "CIRCLE <squadron>", "8.3.1"),
    Verb("JOIN", parse_join, "JOIN <squadron> <friendly squadron> [DIVE]", "9.2.3"),
    Verb("RETURN", parse_return, "RETURN <squadron> <square> [DIVE]", "9.2.2"),
    Verb("JETTISON", parse_plain("JETTISON", "9.2.1.1"), "JETTISON <squadron>", "9.2.1.1"),
    Verb("DIVE", parse_dive, "DIVE <squadron> (an Intercept diving toward a lower vector: one more MP)", "8.2"),
    Verb("VECTOR", parse_vector, "VECTOR <squadron> <square>", "9.2.4"),
    Verb("LEADER", parse_leader, "LEADER <squadron> (set-up, option setup = players: the squadron of its wing "
         "carrying the Wing Leader marker)", "5.2.1"),
    Verb("PLACE", parse_place, "PLACE <escort or wing squadron> <square> (set-up, option setup = players)", "5.3"),
    *(Verb(k, parse_markers(k), f"{k} <squadron> ... (set-up, option setup = players: where your {k.capitalize()} "
           "markers go)", "5.2.1") for k in placing.MARKERS),
    Verb("ESCAPE", parse_escape, "ESCAPE <squadron>", "11.0"),
    Verb("BREAK", parse_break, "BREAK <squadron>", "10.7.1"),
    Verb("ESCORT", parse_rejoin, "ESCORT <squadron>", "9.2.2"),
    Verb("END", parse_end, "END (both sides: the game ends after this turn)", "12.0"),
    Verb("TACTIC", parse_tactic, "TACTIC <squadron> SPEED|TURN|BEST|ASK", "10.5"),
    Verb("REACT", parse_react, "REACT <escort> YES|NO|SPLIT|ASK", "10.4"),
    Verb("DOGFIGHT", parse_seek, "DOGFIGHT SEEK|DECLINE|ASK", "10.8"),
    Verb("CONSENT", parse_consent, "CONSENT YES|NO", "11.0"),
    Verb("KEEP", parse_keep, "KEEP FIRST|SECOND (an enemy squadron you tally splits: your tallies stay on its first "
         "or second flight)", "9.3.1"),
    Verb("ARRIVE", parse_arrive, "ARRIVE <squadron> <altitude>", "5.3.1"),
    Verb("LEADS", parse_priority("LEADS", "10.2"), "LEADS <squadron> ...|ASK (none: the default)", "10.2"),
    Verb("HITS", parse_priority("HITS", "10.2.2"), "HITS <enemy> ...|ASK (none: the default)", "10.2.2"),
    Verb("RETALLY", parse_priority("RETALLY", "10.8.1"),
         "RETALLY <enemy> ...|ASK (a new tally in a dogfight; none: the first by ID)", "10.8.1"),
    Verb("WINGS", parse_wings, "WINGS <squadron> ... (before the first turn: the wings you command)", "9.5"),
    Verb("STACK", parse_stack, "STACK <squadron> STAY|<square>", "10.8.2"),
    Verb("CANCEL", parse_cancel_key, "CANCEL TACTIC|REACT <squadron>", "10.5"),
    Verb("FLAK", parse_flak, "FLAK <flak unit> AUTO|HOLD|ASK|AT <enemy>... (standing: direct fire)", "14.2.4"),
    Verb("ATTACK", parse_attack, "ATTACK <squadron> LEVEL|DIVE|STEEP|GLIDE|TORPEDO|ROCKET|STRAFING|PARAFRAG|KAMIKAZE|SKIP "
         "(bombers: how they attack their target)", "15.3"),
    Verb("BALLOON", parse_balloon, "BALLOON <squadron> <balloon> (a sweep attacks a barrage balloon)", "14.3"),
    Verb("BARRAGE", parse_barrage, "BARRAGE <flak unit> <square>|OFF (Administrative Phase)", "14.2.2"),
    Verb("EVADE", parse_evade, "EVADE <squadron> YES|NO|ASK (advanced: it evades when it leads a defence and may)",
         "13.4.2"),
    Verb("FIRE", parse_fire, "FIRE <squadron> ROCKETS|LONG|CLOSE (advanced: its attack on bombers)", "13.5.2"),
    Verb("ERROR", parse_error, "ERROR AWAY|DOWN|UP|NO (advanced: where an altitude error moves an enemy vector)",
         "13.1"),
    Verb("LUFBERY", parse_lufbery, "LUFBERY <squadron> YES|NO|ASK (advanced: a fighter's Lufbery circle)",
         "13.4.3"),
    Verb("TAKEOFF", parse_takeoff, "TAKEOFF <squadron> E|W (advanced: from an airfield or carrier)", "13.7"),
    Verb("POWER", parse_power, "POWER <squadron> FULL|HALF|MINIMUM (advanced: an Me 163's power setting)", "13.8.2"),
], rule="6.0"), CONDITIONS)


def _order_limits(parsed: Sequence[tuple[OrderLine, Order]], state: State) -> list[OrderProblem]:
    given: dict[str, int] = {}
    problems = []
    for line, order in parsed:
        if not isinstance(order, Command):
            continue
        leader = wings.leader_of(state, state.squadron(order.sq))
        if leader is None:
            continue
        given[leader.id] = given.get(leader.id, 0) + 1
        limit = wings.orders_allowed(state, leader)
        if limit is not None and given[leader.id] > limit:
            problems.append(IllegalOrderError(f"{leader.id}'s wing has no radio or its net is jammed: one order only "
                                              "(or one ORDER WING: the whole wing formation onto one enemy)",
                                              rule="9.5.4.1").problem(line.line_no, line.text))
    return problems


def _wing_rolls(parsed: Sequence[tuple[OrderLine, Order]], state: State) -> list[OrderProblem]:
    """Without radio or under jamming only one squadron of a wing may roll to tally each turn [9.5.4.1]
    (conditional TALLY lines count: any of them might roll)."""
    first: dict[str, str] = {}
    problems = []
    for line, order in parsed:
        tally_order = order.then if isinstance(order, If) else order
        if not isinstance(tally_order, Tally):
            continue
        sq = state.squadron(tally_order.sq)
        wing, leader = wings.wing_of(state, sq), wings.leader_of(state, sq)
        if wing is None or leader is None or wings.orders_allowed(state, leader) is None:
            continue
        if first.setdefault(wing["name"], sq.id) != sq.id:
            problems.append(IllegalOrderError(
                f"{first[wing['name']]} already rolls for {wing['name']}: a wing without radio or under jamming "
                f"rolls for one squadron a turn; the Wing Leader may ORDER the others", rule="9.5.4.1")
                .problem(line.line_no, line.text))
    return problems


def _takeoffs(parsed: Sequence[tuple[OrderLine, Order]], state: State) -> list[OrderProblem]:
    """One squadron a base takes off each turn [13.7]: a second TAKEOFF from the same base is refused."""
    seen: dict[str, str] = {}
    problems = []
    for line, order in parsed:
        if not isinstance(order, Takeoff):
            continue
        base = state.squadron(order.sq).base
        if base in seen:
            problems.append(IllegalOrderError(f"{seen[base]} already takes off from {base} this turn: one squadron "
                                              f"or flight a base a turn", rule="13.7").problem(line.line_no, line.text))
        else:
            seen[base] = order.sq
    return problems


def whole(parsed: Sequence[tuple[OrderLine, Order]], view: View, seat: str) -> list[OrderProblem]:
    """One tally roll per squadron per phase, and a tallying squadron drops before it rolls [7.2, 7.2.2];
    one Wing Leader order (or one order to the whole wing) and one tally roll per wing only without radio
    or under jamming [9.5.4.1]."""
    problems, rolled, dropped = [], set(), set()
    state = position(view)
    if view["step"] in SETUP_STEPS:
        return _setup_file(parsed, state, seat)
    problems += _order_limits(parsed, state) + _wing_rolls(parsed, state) + _takeoffs(parsed, state)
    for line, order in parsed:
        if isinstance(order, Drop):
            dropped.add(order.sq)
        if not isinstance(order, Tally):
            continue
        if order.sq in rolled:
            problems.append(IllegalOrderError(f"{order.sq} may roll only once per Tally Phase", rule="7.2.1")
                            .problem(line.line_no, line.text))
        elif state.squadron(order.sq).tally and order.sq not in dropped:
            problems.append(IllegalOrderError(f"{order.sq} already tallies {state.squadron(order.sq).tally}; "
                                              f"write DROP {order.sq} first", rule="7.2.2")
                            .problem(line.line_no, line.text))
        rolled.add(order.sq)
    return problems


def _seat_asks(view: View) -> list[dict[str, Any]]:
    return list(view.get("asks") or [])


def _refuse(view: View, rule: str) -> IllegalOrderError:
    wanted = "; ".join(f"{a['question']} -> {answer_usage(a)}" for a in _seat_asks(view)) or view["asking"]
    return IllegalOrderError(f"the question is: {wanted}", rule=rule)


def _parse_answer(choice: str) -> Any:
    def parse(args: Sequence[str], view: View, seat: str) -> Answer:
        arity(args, 0, choice, rule=next(r for k, r in ASK_RULES.items() if choice in k))
        if not any(choice in a["choices"] and a["key"].split("-")[0] not in ("lead", "hits", "tally")
                   for a in _seat_asks(view)):
            raise IllegalOrderError(f"the question is: {view['asking']}; answer "
                                    f"{' or '.join(view['asking_choices'])}", rule="10.5, 10.8")
        return Answer(choice)
    return parse


def _ask_of(view: View, kind: str, rule: str) -> dict[str, Any]:
    found = next((a for a in _seat_asks(view) if a["key"] == kind or a["key"].split("-")[0] == kind), None)
    if found is None:
        raise _refuse(view, rule)
    return found


def parse_lead_answer(args: Sequence[str], view: View, seat: str) -> Answer:
    arity(args, 1, "LEAD <squadron>", rule="10.2")
    ask = _ask_of(view, "lead", "10.2")
    sid = args[0].upper()
    if sid not in ask["choices"]:
        raise IllegalOrderError(f"{sid} may not lead this combat; choose one of {', '.join(ask['choices'])}",
                                rule="10.2")
    return Answer(sid, "lead", "LEAD")


def parse_hits_answer(args: Sequence[str], view: View, seat: str) -> Answer:
    if not args:
        raise OrderSyntaxError("expected HITS <enemy> ... (the order they take your hits)", rule="10.2.2")
    ask = _ask_of(view, "hits", "10.2.2")
    ids = list(dict.fromkeys(a.upper() for a in args))
    wrong = [i for i in ids if i not in ask["choices"]]
    if wrong:
        raise IllegalOrderError(f"{', '.join(wrong)}: not in this combat; the enemy squadrons are "
                                f"{', '.join(ask['choices'])}", rule="10.2.2")
    return Answer(" ".join(ids), "hits", "HITS")


def parse_tally_answer(args: Sequence[str], view: View, seat: str) -> Answer:
    arity(args, 2, "TALLY <squadron> <enemy>", rule="10.8.1")
    ask = _ask_of(view, f"tally-{args[0].upper()}", "10.8.1")
    enemy = args[1].upper()
    if enemy not in ask["choices"]:
        raise IllegalOrderError(f"{args[0].upper()} must tally an enemy of the dogfight: "
                                f"{', '.join(ask['choices'])}", rule="10.8.1")
    return Answer(enemy, ask["key"], "TALLY")


def parse_flak_answer(args: Sequence[str], view: View, seat: str) -> Answer:
    """``FLAK <unit> AUTO|HOLD|<enemy>...``: the answer to a direct-fire question [14.2.4]."""
    if len(args) < 2:
        raise OrderSyntaxError("expected FLAK <flak unit> AUTO|HOLD|<enemy squadron> ...", rule="14.2.4")
    ask = _ask_of(view, f"flak-{args[0].upper()}", "14.2.4")
    words = list(dict.fromkeys(a.upper() for a in args[1:]))
    wrong = [x for x in words if x not in ask["choices"]]
    if wrong or (len(words) > 1 and ("AUTO" in words or "HOLD" in words)):
        raise IllegalOrderError(f"answer AUTO, HOLD or squadrons in reach: {', '.join(ask['choices'][2:]) or 'none'}",
                                rule="14.2.4")
    return Answer(" ".join(words), ask["key"], "FLAK")


#: The rule each yes/no-style question of an interrupt answers (a combat rating, a dogfight, an escort's reaction).
ASK_RULES = {("SPEED", "TURN", "BEST"): "10.5", ("SEEK", "DECLINE"): "10.8", ("YES", "NO"): "10.4",
             ("YES", "NO", "SPLIT"): "10.4.2"}


def _about(ask: dict[str, Any]) -> str:
    """What a question is about, after its kind: ``K`` of ``tally-K``, ``T1/1`` of ``flak-T1/1``."""
    return str(ask["key"]).split("-", 1)[1]


@dataclass(frozen=True)
class AnswerForm:
    """How one kind of question is answered: the usage shown with it, and the line giving a choice."""

    usage: Callable[[dict[str, Any]], str]
    line: Callable[[dict[str, Any], str], str]


#: The questions answered by a verb (the others by the choice alone), one entry per kind of ask key
#: [10.2, 10.2.2, 10.8.1, 14.2.4, 13.4.2, 13.4.3].
ANSWER_FORMS = {
    "lead": AnswerForm(lambda a: f"LEAD <{' or '.join(a['choices'])}> (10.2)", lambda a, c: f"LEAD {c}"),
    "hits": AnswerForm(lambda a: f"HITS <{' '.join(a['choices'])} in the order they take the hits> (10.2.2)",
                       lambda a, c: f"HITS {c}"),
    "tally": AnswerForm(lambda a: f"TALLY {_about(a)} <{' or '.join(a['choices'])}> (10.8.1)",
                        lambda a, c: f"TALLY {_about(a)} {c}"),
    "flak": AnswerForm(lambda a: f"FLAK {_about(a)} AUTO|HOLD|<{' '.join(a['choices'][2:])}...> (14.2.4)",
                       lambda a, c: f"FLAK {_about(a)} {c}"),
    "evade": AnswerForm(lambda a: "YES or NO (13.4.2)", lambda a, c: c),
    "lufbery": AnswerForm(lambda a: "YES or NO (13.4.3)", lambda a, c: c),
}


def answer_usage(ask: dict[str, Any]) -> str:
    """How an ask is answered: its verb and choices."""
    form = ANSWER_FORMS.get(ask["key"].split("-")[0])
    if form is not None:
        return form.usage(ask)
    rule = ASK_RULES.get(tuple(ask["choices"]), "")
    return " or ".join(ask["choices"]) + (f" ({rule})" if rule else "")


def answer_line(ask: dict[str, Any], choice: str) -> str:
    """The line answering ``ask`` with ``choice``."""
    form = ANSWER_FORMS.get(ask["key"].split("-")[0])
    return form.line(ask, choice) if form is not None else choice


ANSWERS = VerbTable([Verb(c, _parse_answer(c), c, "10.5, 10.8") for c in ("SPEED", "TURN", "BEST", "SEEK", "DECLINE",
                                                                              "YES", "NO", "SPLIT")]
                    + [Verb("LEAD", parse_lead_answer, "LEAD <squadron>", "10.2"),
                       Verb("HITS", parse_hits_answer, "HITS <enemy> ...", "10.2.2"),
                       Verb("TALLY", parse_tally_answer, "TALLY <squadron> <enemy>", "10.8.1"),
                       Verb("FLAK", parse_flak_answer, "FLAK <flak unit> AUTO|HOLD|<enemy>...", "14.2.4")],
                    rule="10.5, 10.8")
