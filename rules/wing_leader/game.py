"""The turn on the kit [6.0]: the phase table (``STEPS``) and the steps that tie the phases together.

Cadence ``standard``: the Raider's tally, the Defender's tally (having seen the Raider's), then both sides'
movement plans; movement in the interleaved order, air combat and the Administrative Phase follow without
a window, except the interrupts a side asked for (``TACTIC <sq> ASK``, ``DOGFIGHT ASK``).  Cadence
``fast`` takes both tallies in one window, ``single`` the whole turn.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.flow import OVER
from pbem.core.interrupts import Ask
from pbem.core.phases import ALL, Step, Steps
from pbem.core.ruleset import Seat, Window
from pbem.core.scripts import Cursor
from pbem.core.verbs import Order
from pbem.core.work import EVERYONE, Work

from . import air_combat, balloons, bomb_runs, combat, flak, placing, seating, sequence, wings
from .admin import admin_order, administrative, altitude_error
from .air import Air
from .fog import dice_seen_by, own, tell, tell_order
from .model import SIDES, State, enemy_of, side_of
from .sky import name, parse
from .tables import scenario
from .moves import AskReaction, activate, keeping_formation, move_stack, power_settings, take_off
from .orders import Break, End, Escape, Lead, Markers, Place, PlaceBarrage, Rejoin, Vector, Wings, dump_order, load_order
from .tally_phase import both_tallies, defender_tally, raider_tally


def by_side(orders: Mapping[str, Sequence[Order]]) -> dict[str, tuple[Order, ...]]:
    """A side's orders are its seats' files one after the other (seat 1 first).  Each seat orders only
    its own wings' squadrons (checked at ingest), so the files never disagree about a squadron."""
    return {side: tuple(o for seat in sorted(orders) if side_of(seat) == side for o in orders[seat]) for side in SIDES}


def whole_turn(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Cadence ``single``: tallies (the Raider's first) and movement plans in one window."""
    both_tallies(w, by_side(orders))
    movement_phase(w, orders)


def movement_phase(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Movement in the interleaved order [6.1], then air combat [10], then the Administrative Phase."""
    orders = by_side(orders)
    air = w.data
    launched = take_off(w, orders) if air.state.uses("13.7") else []   # takeoffs [13.7]
    if air.state.uses("13.8.2"):   # the Me 163s' power settings [13.8.2]
        power_settings(w, launched)
    order = sequence.movement_order(list(air.squadrons.values()), air.state.raider,
                                    lambda s: w.roll(6, f"initiative of {s.id}", seen_by=dice_seen_by(w, [s.id])),
                                    keeping_formation(air.now()),
                                    depth_first=air.state.option("tally_chains", "breadth") == "depth")
    tell_order(w, order)
    _moves(w, order, orders)


def _moves(w: Work[Air], order: Sequence[str], orders: Mapping[str, Sequence[Order]],
           stopped: Mapping[str, Any] | None = None) -> None:
    """The squadrons' moves in ``order`` (those not moved yet), then the Combat Phase.  A move that reaches
    an escort whose owner asked to be asked stops here and resumes in ``reaction_choice`` [10.4], its
    squadron's script at the entry that stopped (``stopped``)."""
    air = w.data
    for sid in order:
        if sid in air.moved or sid not in air.squadrons:   # moved with its stack or while reacting; or split
            continue
        again = stopped if stopped is not None and stopped["sq"] == sid else None
        try:
            if air.squadron(sid).dogfight:
                move_stack(w, air.squadron(sid), orders)
            elif again is not None:
                activate(w, air.squadron(sid), orders.get(air.squadron(sid).side, ()),
                         Cursor.load(again["cursor"]), bool(again["carried"]))
            else:
                activate(w, air.squadron(sid), orders.get(air.squadron(sid).side, ()))
        except AskReaction as ask:   # an escort's reaction [10.4] or a Lufbery circle [13.4.3]
            step = "lufbery_choice" if all(a.key.startswith("lufbery-") for a in ask.asks) else "reaction_choice"
            w.interrupt(step, ask.asks, order=list(order), moved=list(air.moved),
                        reacting=dict(air.reacting),
                        stopped={"sq": sid, "cursor": ask.cursor.dump(), "carried": ask.carried},
                        orders={side: [dump_order(o) for o in orders.get(side, ())] for side in SIDES})
            return
    air.moved_last = tuple(air.moved)
    admin = [o.text() for side in (air.state.raider, air.state.defender) for o in orders.get(side, ())
             if isinstance(o, (Break, Escape, Vector, Rejoin, PlaceBarrage))]
    admin += [f"END {side}" for side in SIDES if any(isinstance(o, End) for o in orders.get(side, ()))]
    if air.state.uses("14.2.4"):   # flak fires before air combat [14.2.4, 14.2.6]
        asks = _flak_asks(w)
        if asks:   # a side whose standing order is FLAK <unit> ASK chooses now
            w.interrupt("flak_choice", asks, admin=admin, moved=list(air.moved), flak_bomb=dict(air.flak_bomb))
            return
        flak.direct_fire(w, _flak_plans(w))
    _bombs_then_combats(w, admin)


def _flak_asks(w: Work[Air]) -> list[Ask]:
    """The direct-fire questions for the flak units whose standing order is ``FLAK <unit> ASK`` and that have an
    enemy in reach [14.2.4]: AUTO on silence."""
    state = w.data.now()
    asks = []
    for g in flak.guns(state):
        kept = seating.side_standing(w, g.side, f"FLAK {g.label}")
        if kept is None or kept.words[2:] != ("ASK",) or not g.flak.direct or g.label in flak.barraging(state):
            continue
        reach = [s.id for s in state.squadrons if s.on_map and s.side != g.side and flak.in_range(state, g, s) is None]
        if reach:
            asks.append(Ask(seating.speaker(w, g.side, ()), f"flak-{g.label}",
                            f"flak {g.label} ({g.flak.text()}) in {name(g.surface.at)} may fire directly at up to "
                            f"{g.flak.targets} of {' '.join(reach)}: name them, or AUTO or HOLD (14.2.4)",
                            "AUTO", ("AUTO", "HOLD", *reach)))
    return asks


def flak_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume at the start of the Combat Phase with the direct fire the flak's side chose (AUTO on silence)
    [14.2.4], then the air combats."""
    data = w.resumed.data
    air = w.data
    air.moved = list(data["moved"])
    air.flak_bomb = dict(data["flak_bomb"])
    plans = _flak_plans(w)
    for key, answer in w.answers.items():
        words = answer.split()
        plans[key.removeprefix("flak-")] = [] if words == ["AUTO"] else None if words == ["HOLD"] else words
    flak.direct_fire(w, plans)
    _bombs_then_combats(w, data["admin"])


def _bombs_then_combats(w: Work[Air], admin: list[str]) -> None:
    """After flak: the bomb strikes, then the air combats of those still in them [15.3, 15.4, 10]."""
    air = w.data
    if air.state.uses("15.4"):
        bomb_runs.strikes(w)
    if air.state.uses("14.3"):   # sweeps at the balloons they pursue, out of air combat [14.3]
        balloons.attacks(w)
    _combats(w, combat.fights(bomb_runs.in_air_combat(air), air.moved, lambda: _roll_off(w)), 0, admin)


def _flak_plans(w: Work[Air]) -> dict[str, list[str] | None]:
    """Each flak unit's standing order ``FLAK <unit> HOLD|AT <sq>...`` (none, or ASK unanswered: AUTO) [14.2.4]."""
    plans: dict[str, list[str] | None] = {}
    for g in flak.guns(w.data.now()):
        kept = seating.side_standing(w, g.side, f"FLAK {g.label}")
        if kept is not None and len(kept.words) > 2:
            plans[g.label] = None if kept.words[2] == "HOLD" else list(kept.words[3:])
    return plans


def _roll_off(w: Work[Air]) -> str:
    """Equal Basic Turn in a dogfight: each side rolls a d6, the higher attacks, again on a tie [10.8.1]."""
    while True:
        a, b = (w.roll(6, f"{side} rolls for the dogfight's attacker", seen_by=EVERYONE) for side in SIDES)
        if a != b:
            return SIDES[0] if a > b else SIDES[1]


def _combats(w: Work[Air], fights: Sequence[combat.Fight], start: int, admin: list[str],
             picks: Mapping[str, Any] | None = None) -> None:
    """The Combat Phase from fight ``start`` on, then the Administrative Phase.  Before a fight, the leads
    of a side whose standing order is ``LEADS ASK`` (defender first, 10.2) and the rating of an attacking
    lead whose standing order is ``TACTIC <sq> ASK`` (10.5) are asked (``picks``: the answers so far, when
    resuming); after its rolls, a side with ``HITS ASK`` how to spread its hits (10.2.2); after it, a side
    with ``DOGFIGHT ASK`` whether to dogfight (10.8), and with ``RETALLY ASK`` its new tallies (10.8.1)."""
    air = w.data
    for i in range(start, len(fights)):
        chosen = dict(picks or {}) if i == start else {}
        asked = air_combat.question(w, fights[i], chosen)
        if asked is not None:
            w.interrupt(asked[0], [asked[1]], **_where(w, fights, i, admin), picks=chosen)
            return
        air.fought.update(fights[i].attackers + fights[i].defenders)
        volley = air_combat.fire(w, fights[i], chosen)
        asks = air_combat.hits_asks(w, fights[i], volley)
        if asks:
            w.interrupt("hits_choice", asks, **_where(w, fights, i, admin), volley=volley)
            return
        if _after_fire(w, fights, i, admin, volley, {}):
            return
    air.fought_last = tuple(sorted(air.fought))
    administrative(w, [admin_order(t) for t in admin])


def _where(w: Work[Air], fights: Sequence[combat.Fight], i: int, admin: list[str]) -> dict[str, Any]:
    """Where the Combat Phase stopped, as JSON for its interrupt."""
    return {"fights": [f.dump() for f in fights], "index": i, "admin": admin, "fought": sorted(w.data.fought)}


def _after_fire(w: Work[Air], fights: Sequence[combat.Fight], i: int, admin: list[str], volley: dict[str, Any],
                answers: dict[str, str]) -> bool:
    """Fight ``i`` after its rolls: hits, cohesion, then the dogfight offer; whether it stopped for a question."""
    asks = air_combat.land(w, fights[i], volley, answers)
    if asks:   # new tallies in a dogfight that goes on [10.8.1]
        w.interrupt("tally_choice", asks, **_where(w, fights, i, admin))
        return True
    asks = air_combat.dogfight_asks(w, fights[i])
    if asks:
        w.interrupt("dogfight_choice", asks, **_where(w, fights, i, admin))
        return True
    return _after_offer(w, fights, i, admin, {})


def _after_offer(w: Work[Air], fights: Sequence[combat.Fight], i: int, admin: list[str],
                 answers: dict[str, str]) -> bool:
    """The dogfight offer after fight ``i`` [10.8]; whether it stopped for new-tally questions [10.8.1]."""
    asks = air_combat.offer_dogfight(w, fights[i], answers)
    if asks:
        w.interrupt("tally_choice", asks, **_where(w, fights, i, admin))
        return True
    return False


def _resumed(w: Work[Air]) -> tuple[list[combat.Fight], Mapping[str, Any]]:
    data = w.resumed.data
    w.data.fought.update(data["fought"])
    return [combat.Fight.load(f) for f in data["fights"]], data


def reaction_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume the Movement Phase where a move stopped for a reaction question (YES on silence) [10.4] or a
    Lufbery circle's (the circle as it stands on silence) [13.4.3]."""
    data = w.resumed.data
    air = w.data
    air.moved = list(data["moved"])
    air.reacting = {**data["reacting"], **{k.removeprefix("react-"): v for k, v in w.answers.items()}}
    _moves(w, data["order"], {side: tuple(load_order(o) for o in kept) for side, kept in data["orders"].items()},
           data.get("stopped"))


def dogfight_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume after a combat whose sides were asked whether to dogfight (DECLINE on silence) [10.8]."""
    fights, data = _resumed(w)
    answers = {key.removeprefix("dogfight-"): answer for key, answer in w.answers.items()}
    if not _after_offer(w, fights, data["index"], data["admin"], answers):
        _combats(w, fights, data["index"] + 1, data["admin"])


def tally_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume after a dogfight started whose owners chose their squadrons' new tallies (the first enemy by
    their RETALLY list, else by ID, on silence) [10.8.1]."""
    fights, data = _resumed(w)
    air_combat.retally(w, dict(w.answers))
    _combats(w, fights, data["index"] + 1, data["admin"])


def hits_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume a combat after its rolls with the hits spread as the shooting sides answered (their HITS
    lists on silence) [10.2.2]."""
    fights, data = _resumed(w)
    answers = {key.removeprefix("hits-"): answer for key, answer in w.answers.items()}
    if not _after_fire(w, fights, data["index"], data["admin"], dict(data["volley"]), answers):
        _combats(w, fights, data["index"] + 1, data["admin"])


def lead_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume before a combat with the lead a side chose: the defender's, then the attacker's [10.2]."""
    fights, data = _resumed(w)
    picks = dict(data["picks"])
    picks["alead" if "alead" in picks else "dlead"] = w.answers["lead"]
    _combats(w, fights, data["index"], data["admin"], picks)


def evade_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume the Combat Phase with the defence's answer whether it evades (NO on silence) [13.4.2]."""
    fights, data = _resumed(w)
    picks = {**data["picks"], "evade": w.answers["evade"]}
    _combats(w, fights, data["index"], data["admin"], picks)


def combat_choice(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Resume the Combat Phase with the asked rating (the better column on silence) [10.5]."""
    fights, data = _resumed(w)
    picks = dict(data["picks"])
    answer = w.answers["rating"]
    picks["rating"] = (air_combat.best_rating(w, fights[data["index"]], picks) if answer == "BEST"
                       else combat.SPEED if answer == "SPEED" else combat.TURN)
    _combats(w, fights, data["index"], data["admin"], picks)


#: The first window of a turn under each cadence.
FIRST_STEP = {"standard": "raider_tally", "fast": "tallies", "single": "turn"}


def choosers(state: State) -> tuple[str, ...]:
    """The seats that choose wings: those of a side with two or more [9.5]."""
    return tuple(seat for side in SIDES if len(state.seats_of(side)) > 1 for seat in state.seats_of(side))


def first_step(state: State) -> str:
    """The game's first window: the choice of wings when a side has several players, else the set-up's when
    the players set up (option ``setup = players``), else the first turn's."""
    return "wings" if choosers(state) else _after_wings_of(state)


def _after_wings_of(state: State) -> str:
    return "setup_first" if state.option("setup", "scenario") == "players" else \
        FIRST_STEP[state.option("cadence", "standard")]


def setting_up(state: State, first: bool) -> str:
    """The side setting up in this window: the scenario's first, then the other [5.3 step 2]."""
    side = str(scenario(state.scenario).get("setup_first", state.defender))
    return side if first else enemy_of(side)


def _set_up(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """A side's set-up choices [5.3]: its markers (5.2.1), each Intercept's vector (step 4), each escort's
    square (step 5) and each wing squadron's (step 6); what a player leaves unsaid stays as the scenario has it."""
    air = w.data
    for seat, given in orders.items():
        _place_leaders(w, [o for o in given if isinstance(o, Lead)])
        _place_markers(w, seat, [o for o in given if isinstance(o, Markers)])
        for order in given:
            sq = air.squadrons.get(getattr(order, "sq", ""))
            if sq is None:
                continue
            if isinstance(order, Vector):
                air.put(sq.move(vector=parse(order.square)))
                w.say(f"{sq.id} places its vector on {order.square} (5.3)", to=own(w, sq.side), kind="setup")
                altitude_error(w, air.squadron(sq.id))   # the opponent's roll [13.1]
            elif isinstance(order, Place):
                air.put(sq.move(at=parse(order.square)))
                tell(w, f"{sq.id} sets up in {order.square} (5.3)", [sq.id], kind="setup")


def _place_leaders(w: Work[Air], given: Sequence[Lead]) -> None:
    """Each Wing Leader marker on the squadron its player chose (unsaid: the scenario's) [5.2.1]; before the
    squares, which are placed in formation with it (5.3 step 6).  The Wing Displays are public (5.2)."""
    air = w.data
    for o in given:
        before = next(wg for wg in wings.wings(air.now()) if wg["name"] == o.wing)
        old = air.squadron(wings.leader_id(air.now(), before) or o.sq)
        if old.id != o.sq:   # the wing's vector is its leader's (9.5.3): it goes with the marker
            air.put(air.squadron(o.sq).move(vector=old.vector))
            air.put(old.move(vector=None))
        tell(w, f"{o.sq} carries the Wing Leader marker of {o.wing} (5.2.1)", [o.sq], kind="setup")
    air.state = placing.led_by(air.now(), {o.wing: o.sq for o in given})


def _place_markers(w: Work[Air], seat: str, given: Sequence[Markers]) -> None:
    """The seat's Veteran, Green and Experte markers where he placed them (a kind unsaid: the scenario's)
    [5.2.1]; the Wing Displays are public (5.2), so everyone is told."""
    air = w.data
    for order in given:
        for sq in air.now().of_seat(seat):
            air.put(placing.with_markers(sq, order.kind, order.squadrons))
        label = order.kind.capitalize()
        what = f"{label} markers" if len(order.squadrons) > 1 else f"{'an' if label[0] in 'AEIOU' else 'a'} {label} marker"
        tell(w, f"{seat} places {what} on {' '.join(order.squadrons)} (5.2.1)", list(order.squadrons), kind="setup")


def arrivals_step(state: State, turn: int, first: bool) -> bool:
    """Whether the Setup Phase of ``turn`` has a window for the side setting up first (or second): the
    players set up and it has an Intercept arriving then [5.3.1]."""
    return state.option("setup", "scenario") == "players" and \
        bool(placing.arriving_intercepts(state, turn, setting_up(state, first)))


def _arrival_vectors(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """The vectors of this turn's arriving Intercepts, where their owners placed them (unsaid: the
    scenario's) [5.3.1]; told to their own side only (its ground control's business)."""
    air = w.data
    for given in orders.values():
        for order in given:
            if isinstance(order, Vector) and order.sq in air.squadrons:
                sq = air.squadron(order.sq)
                air.put(sq.move(vector=parse(order.square)))
                w.say(f"{sq.id} places its vector on {order.square} (5.3.1)", to=own(w, sq.side), kind="setup")


def _after_first_arrivals(w: Work[Air]) -> str:
    state = w.data.now()
    return "arrivals_second" if arrivals_step(state, w.turn, False) else FIRST_STEP[state.option("cadence", "standard")]


def _wings(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    seating.choose_wings(w, {seat: [m for o in kept if isinstance(o, Wings) for m in o.squadrons]
                             for seat, kept in orders.items()})


def _first_turn(w: Work[Air]) -> str:
    return FIRST_STEP[w.data.state.option("cadence", "standard")]


def _after_wings(w: Work[Air]) -> str:
    return _after_wings_of(w.data.state)


def _next_after_movement(w: Work[Air]) -> str:
    """The next turn's first window: its Setup Phase's when an Intercept arrives for players setting up
    [5.3.1], else its Tally Phase's."""
    if w.data.over:
        return OVER
    if arrivals_step(w.data.now(), w.turn, True):
        return "arrivals_first"
    return _after_first_arrivals(w)


def seats(state: State) -> tuple[Seat, ...]:
    return tuple(Seat(seat, side_of(seat), seating.title(seat)) for seat in state.seats())


def _raider_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    raider_tally(w, by_side(orders))


def _defender_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    defender_tally(w, by_side(orders))


def _both_tallies(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    both_tallies(w, by_side(orders))


STEPS: Steps[State, Air] = Steps([
    Step("wings", _wings, next=_after_wings, who=choosers,
         title="the choice of wings", prompt="Before the first turn: each player of a side chooses the wings he commands (9.5)"),
    Step("setup_first", _set_up, next="setup_second", who=lambda s: s.seats_of(setting_up(s, True)),
         title="the first side's set-up", prompt="Set-up [5.3]: the side setting up first places its vectors "
         "(VECTOR) and escorts (PLACE)"),
    Step("setup_second", _set_up, next=_first_turn, who=lambda s: s.seats_of(setting_up(s, False)),
         title="the second side's set-up", prompt="Set-up [5.3]: the other side, having seen the first, places "
         "its vectors (VECTOR) and escorts (PLACE)"),
    Step("arrivals_first", _arrival_vectors, next=_after_first_arrivals,
         who=lambda s: placing.arrival_seats(s, s.turn, setting_up(s, True)),
         title="the first side's arrivals", prompt="Setup Phase [5.3.1]: the side that set up first places the "
         "vectors of its Intercepts arriving this turn (VECTOR)"),
    Step("arrivals_second", _arrival_vectors, next=lambda w: FIRST_STEP[w.data.state.option("cadence", "standard")],
         who=lambda s: placing.arrival_seats(s, s.turn, setting_up(s, False)),
         title="the second side's arrivals", prompt="Setup Phase [5.3.1]: the other side places the vectors of its "
         "Intercepts arriving this turn (VECTOR)"),
    Step("raider_tally", _raider_tally, next="defender_tally", who=lambda s: s.seats_of(s.raider),
         title="the Raider's tally rolls", prompt="Tally Phase [6.0, 7.2]: the Raider drops and rolls first"),
    Step("defender_tally", _defender_tally, next="movement", who=lambda s: s.seats_of(s.defender),
         title="the Defender's tally rolls", prompt="Tally Phase [6.0, 7.2]: the Defender, having seen the Raider's"),
    Step("movement", movement_phase, next=_next_after_movement, who=ALL,
         title="movement plans", prompt="Movement Phase [6.0, 8]: both sides' plans; combat follows [10]"),
    Step("tallies", _both_tallies, next="movement", who=ALL,
         title="both sides' tally rolls", prompt="Tally Phase [6.0, 7.2]: both lists; the Raider's are rolled first"),
    Step("turn", whole_turn, next=_next_after_movement, who=ALL,
         title="tallies and movement plans", prompt="Tally and Movement Phases [6.0] in one message"),
    Step("reaction_choice", reaction_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="react or not", prompt="Escort reaction [10.4]: YES or NO (SPLIT with tactical flexibility, 10.4.2)"),
    Step("lufbery_choice", reaction_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="Lufbery circle or not", prompt="Lufbery circle [13.4.3]: YES (circle) or NO"),
    Step("dogfight_choice", dogfight_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="seek or decline a dogfight", prompt="Dogfight [10.8]: SEEK or DECLINE"),
    Step("combat_choice", combat_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="choose the combat rating", prompt="Air combat [10.5]: SPEED (hit-and-run) or TURN (turning fight)"),
    Step("evade_choice", evade_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="evade or not", prompt="Evasion [13.4.2]: YES or NO"),
    Step("lead_choice", lead_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="choose the lead squadron", prompt="Air combat [10.2]: LEAD <squadron>"),
    Step("hits_choice", hits_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="spread the hits", prompt="Air combat [10.2.2]: HITS <enemy> ... (who takes them first)"),
    Step("tally_choice", tally_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="choose a tally in the dogfight", prompt="Dogfight [10.8.1]: TALLY <squadron> <enemy>"),
    Step("flak_choice", flak_choice, next=_next_after_movement, window=Window.INTERRUPT,
         title="aim the flak", prompt="Direct fire [14.2.4]: FLAK <unit> AUTO|HOLD|<enemy>..."),
], seats=seats, open=Air, close=Air.freeze, sides=SIDES, standing=seating.STANDING)

