"""The game by mail on the kit: the phase table, setup, views and the outcome.

Cadence ``standard`` (the design's three windows a turn): the first player's movement, the second
player's movement (having seen the first), then both sides' sealed attack lists: air strikes first,
then one entry from each side in turn, the first player's first, ``IF`` conditions evaluated when an
entry is reached.  Cadence ``fast``: both sides' moves in one window, one unit of each in turn, then
the attack lists.  The Casualty Phase, the victory check and the next turn's initiative follow at
once.  Reaction fire and the initiative choice may open a short window (``react``, ``initiative``)
for one seat when its standing order says ASK; the interrupted phase then carries on.  The order of
movement and the initiative procedure are lost (digest G5): both are readings named in NOTES.md.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.texts import t_
from pbem.core.dice import Dice
from pbem.core.flow import OVER
from pbem.core.hexgrid import NAMES
from pbem.core.interrupts import Ask
from pbem.core.phases import Step, Steps
from pbem.core.ruleset import Outcome, Seat, Window
from pbem.core.scripts import If, run
from pbem.core.standing_rules import StandingKind, StandingRules
from pbem.core.verbs import Order
from pbem.core.work import EVERYONE, Work

from .battle import casualty_phase, interleave, overstack_penalty, perform, sides_in_order
from .board import board_with, hex_name, obstacle_chart, obstacles_of, parse_hex
from .fog import seen_enemies
from .model import SIDES, State, Unit, other, seat_names, side_of
from .moving import resume
from .movement import overstacked
from .ingest import CONDITIONS
from .orders import ACTIONS, Air, Buy, Hand, Place, revive
from .working import Battle
from .tables import cards, scenarios, tables

SEATS = tuple(Seat(s, s, s.title()) for s in SIDES)

#: The side fights as one: its reaction-fire, AA, initiative and overstack orders are kept under the
#: side's name, and any of its seats may change them (the last change wins).
STANDING = StandingRules(tuple(StandingKind(k, side=True)
                               for k in ("DF", "OW", "AA", "DF_ORDER", "INITIATIVE", "OVERSTACK_PENALTY")))


def seats(state: State) -> tuple[Seat, ...]:
    """One seat a side, or ``<side>-1`` and ``<side>-2`` (option players_per_side)."""
    if state.players_per_side == 1:
        return SEATS
    return tuple(Seat(s, side_of(s), f"{side_of(s).title()} player {s.split('-')[1]}") for s in state.seats)


def _run_queue(w: Work[Battle]) -> None:
    """Carry out the queued orders in turn until none is left or a seat is asked (then the rest is
    kept in the continuation)."""
    b = w.data
    while b.queue and not b.suspended:
        side, entry = b.queue.pop(0)
        run(w, side, [entry], lambda o, side=side: perform(w, side, o), CONDITIONS)


def _finish(w: Work[Battle]) -> None:
    """The end of the phase whose orders ran: the overstack penalty (L5); after the attacks, the
    Casualty Phase, the victory check and the next turn's initiative."""
    b = w.data
    if b.phase in ("move-first", "move-second"):
        overstack_penalty(w, b.first if b.phase == "move-first" else other(b.first))
        return
    if b.phase in ("move-both", "move-alternate"):
        for side in sides_in_order(b.first):
            overstack_penalty(w, side)
        return
    for side in sides_in_order(b.first):
        overstack_penalty(w, side)
    casualty_phase(w)
    b.over = _ended(b, w.turn)
    if not b.over:
        w.new_turn()
        _initiative(w)


def _actions(orders: Mapping[str, Sequence[Order]], side: str) -> list[Order]:
    """The side's action entries: with two seats a side, one entry of each seat in turn, the first
    seat's first (like the alternation of the sides)."""
    lists = [[o for o in orders[seat] if isinstance(o, (*ACTIONS, If))]
             for seat in sorted(orders) if side_of(seat) == side]
    return [o for _, o in interleave(lists)]  # type: ignore[misc]


def _handovers(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """With two players a side: each HAND passes command of a unit to the other seat as the window's
    orders begin to be carried out (the orders sent for it in this window still stand); told to the side."""
    for seat in sorted(orders):
        for order in orders[seat]:
            if isinstance(order, Hand) and w.data.command.get(order.unit) == seat:
                w.data.command[order.unit] = order.to
                w.say(t_("%(seat)s hands %(unit)s over to %(to)s", seat=seat, unit=order.unit, to=order.to), to=side_of(seat), kind="command")


def _movement(w: Work[Battle], orders: Mapping[str, Sequence[Order]], side: str) -> None:
    _handovers(w, orders)
    w.data.queue = [(side, o) for o in _actions(orders, side) if not isinstance(o, If)]
    _run_queue(w)
    if not w.data.suspended:
        _finish(w)


def move_first(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The first player's Movement Phase."""
    _movement(w, orders, w.data.first)


def move_second(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The second player's Movement Phase, after seeing the first."""
    _movement(w, orders, other(w.data.first))


def move_both(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The fast cadence: both sides' movement orders at once, one unit of each side in turn, the
    first player's first (the alternation of digest G5 applied to movement)."""
    _handovers(w, orders)
    order_of = sides_in_order(w.data.first)
    moves = [[o for o in _actions(orders, side) if not isinstance(o, If)] for side in order_of]
    w.data.queue = [(order_of[k], entry) for k, entry in interleave(moves)]
    _run_queue(w)
    if not w.data.suspended:
        _finish(w)


def move_alternate(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """Option ``movement=alternate`` within the standard cadence: both sides' sealed movement lists,
    one entry of each side in turn, the first player's first, a side that runs out letting the other
    finish; ``IF`` conditions on public facts are evaluated when an entry is reached, and an entry
    that cannot be done any more runs its ELSE (like the attack lists)."""
    _handovers(w, orders)
    order_of = sides_in_order(w.data.first)
    lists = [_actions(orders, side) for side in order_of]
    w.data.queue = [(order_of[k], entry) for k, entry in interleave(lists)]
    _run_queue(w)
    if not w.data.suspended:
        _finish(w)


def attack(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """Both attack lists, one entry of each in turn; then the end of the turn."""
    _handovers(w, orders)
    order_of = sides_in_order(w.data.first)
    lists = [_actions(orders, side) for side in order_of]
    strikes = interleave([[o for o in x if isinstance(o, Air)] for x in lists])  # the Air Strike Phase first
    entries = interleave([[o for o in x if not isinstance(o, Air)] for x in lists])
    w.data.queue = [(order_of[k], entry) for k, entry in (*strikes, *entries)]
    _run_queue(w)
    if not w.data.suspended:
        _finish(w)


def react(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The asked seat's answer (HOLD on silence), then the rest of the interrupted phase."""
    b = w.data
    data = dict(w.resumed.data)
    b.phase, b.acted, b.fired = data["phase"], set(data["acted"]), set(data["fired"])
    b.queue = [(side, revive(text)) for side, text in data["queue"]]
    resume(w, data, w.answers["react"])
    _run_queue(w)
    if not b.suspended:
        _finish(w)


def _after(w: Work[Battle]) -> str:
    """The step after the phase that ran (or was resumed)."""
    b = w.data
    if b.suspended:
        return "attack"  # never taken: the interrupt opened decides the next step
    if b.phase == "deploy":
        return _first_step(b.state.cadence, b.state.movement)
    if b.phase in ("attack", "initiative"):
        return OVER if b.over else _first_step(b.state.cadence, b.state.movement)
    return "move-second" if b.phase == "move-first" else "attack"


def _first_step(cadence: str, movement: str) -> str:
    """The turn's first window: by the cadence, and within the standard one by the movement order."""
    if cadence == "fast":
        return "move-both"
    return "move-alternate" if movement == "alternate" else "move-first"


def _ended(b: Battle, turn: int) -> bool:
    return turn >= b.state.last_turn or any(not any(u.side == s for u in b.all()) for s in SIDES)


def _initiative(w: Work[Battle]) -> None:
    """Both roll; the higher chooses by its standing INITIATIVE order (FIRST if none; ASK opens a
    window for it, FIRST on silence); ties re-roll."""
    n = tables()["initiative"]["dice"]
    for _ in range(20):
        rolls = {s: sum(w.roll(6, t_("%(side)s initiative", side=s), seen_by=EVERYONE) for _ in range(n)) for s in SIDES}
        if rolls[SIDES[0]] != rolls[SIDES[1]]:
            break
    winner = max(SIDES, key=lambda s: rolls[s])
    kept = w.data.standing(winner, "INITIATIVE")
    said = dict(allies=rolls["allies"], axis=rolls["axis"])
    if kept is not None and kept.words[1] == "ASK":
        w.say(t_("initiative: allies %(allies)s, axis %(axis)s; %(winner)s chooses who moves first", winner=winner,
                 **said), kind="initiative")
        w.interrupt("initiative", [Ask(w.data.state.seats_of(winner)[0], "initiative",  # the side's first seat
                                       t_("You won the initiative: move FIRST or SECOND?"), "FIRST", ("FIRST", "SECOND"))])
        w.data.suspended = True
        return
    w.data.first = other(winner) if kept is not None and kept.words[1] == "SECOND" else winner
    w.say(t_("initiative: allies %(allies)s, axis %(axis)s; %(first)s moves first", first=w.data.first, **said),
          kind="initiative")


def choose_first(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The initiative winner's answer (FIRST on silence)."""
    winner = side_of(w.resumed.asks[0].seat)
    w.data.first = winner if w.answers["initiative"] == "FIRST" else other(winner)
    w.data.phase = "initiative"
    chose = t_("%(winner)s chose to move first: %(first)s moves first", winner=winner, first=w.data.first) \
        if w.answers["initiative"] == "FIRST" else \
        t_("%(winner)s chose to move second: %(first)s moves first", winner=winner, first=w.data.first)
    w.say(chose, kind="initiative")


def deploy(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """The sealed set-up: both sides' purchases (army build) or placements of the scenario's forces
    (fog) are set up at once; in fog each side is told only its own.  With two seats a side each
    seat buys its share of the points and commands what it bought."""
    b = w.data
    if b.all():
        _place(w, orders)
        return
    for side in SIDES:
        bought = [(seat, o) for seat in sorted(orders) if side_of(seat) == side
                  for o in orders[seat] if isinstance(o, Buy)]
        for n, (seat, order) in enumerate(bought, 1):
            uid = f"{order.card}_{n}"
            if b.state.players_per_side > 1:
                b.command[uid] = seat
            if order.at:
                hex_ = parse_hex(order.at)
                assert hex_ is not None
                b.put(Unit(uid, order.card, side, hex_, NAMES.index(order.face)))
            else:
                b.reserve[uid] = Unit(uid, order.card, side, (0, 0), 0)
        spent = sum(cards()[o.card].cost for _, o in bought)
        w.say(t_("%(side)s sets up %(n)s units (%(spent)s points): %(units)s", n=len(bought), side=side, spent=spent,
                  units=", ".join(o.text()[4:] for _, o in bought) or t_("nothing")), to=side if b.state.fog else None,
              kind="deploy")


def _place(w: Work[Battle], orders: Mapping[str, Sequence[Order]]) -> None:
    """Sealed deployment of the scenario's forces (fog): each PLACE moves one unit within its zone;
    silence keeps the scenario's places."""
    b = w.data
    for side in SIDES:
        placed = [o for seat in sorted(orders) if side_of(seat) == side for o in orders[seat] if isinstance(o, Place)]
        for order in placed:
            hex_ = parse_hex(order.at)
            assert hex_ is not None
            b.put(b.units[order.unit].but(hex=hex_, facing=NAMES.index(order.face)))
        kept = _over_full(b, side, placed, orders)
        placed = [o for o in placed if o not in kept]
        w.say(t_("%(side)s sets up: %(units)s", side=side,
                 units=", ".join(o.text()[6:] for o in placed) or t_("as the scenario places it")),
              to=side, kind="deploy")


def _over_full(b: Battle, side: str, placed: Sequence[Place], orders: Mapping[str, Sequence[Order]]) -> list[Place]:
    """Each seat's mail is checked alone (L1); with two seats a side, the partners' placements together
    may still overfill a hex (a unit of one left by the scenario in the other's zone, then both moved).
    The later placements into such a hex are undone, the unit back where the scenario put it, and the
    seat told why."""
    start = {u.id: u for u in b.state.units}
    undone: list[Place] = []
    for order in reversed(placed):
        if parse_hex(order.at) not in overstacked(b.all(), side):
            continue
        b.put(start[order.unit])
        undone.append(order)
        seat = next((s for s in sorted(orders) if order in orders[s]), side)
        b.work.say(t_("%(unit)s cannot be set up at %(hex)s: with your partner's units the hex would be over full "
                      "(Stacking, L1); it stays at %(at)s", unit=order.unit, hex=order.at,
                      at=hex_name(start[order.unit].hex)), to=seat, kind="deploy")
    return undone


def _deploy_prompt(state: State) -> str:
    if state.units:
        return t_("Set up your forces unseen (PLACE <unit> AT <hex> [FACE <dir>], in your zone); "
                  "a unit not placed stays where the scenario puts it.")
    return t_("Buy your army (BUY <card> AT <hex> [FACE <dir>]; aircraft: BUY <card>) within the points.")


STEPS: Steps[State, Battle] = Steps([
    Step("deploy", deploy, next=_after, title=lambda s: t_("sealed deployment") if s.units else t_("sealed army build"),
         prompt=_deploy_prompt),
    Step("move-first", move_first, next=_after, who=lambda s: s.seats_of(s.first), title=t_("first player's movement"),
         prompt=t_("Move your units (MOVE, FACE, HOLD); the other side moves next, having seen yours.")),
    Step("move-second", move_second, next=_after, who=lambda s: s.seats_of(other(s.first)),
         title=t_("second player's movement"), prompt=t_("Move your units (MOVE, FACE, HOLD).")),
    Step("move-both", move_both, next=_after, title=t_("movement (both sides)"),
         prompt=t_("Move your units (MOVE, FACE, HOLD, OVERWATCH); both sides' moves are taken unit by unit.")),
    Step("move-alternate", move_alternate, next=_after, title=t_("movement lists (alternating unit by unit)"),
         prompt=t_("Your movement list, in order (MOVE, FACE, HOLD, OVERWATCH, LOAD, UNLOAD, IF ... THEN ... ELSE ...): "
                   "the engine takes one entry of each side in turn, the first player's first.")),
    Step("attack", attack, next=_after, title=t_("attack lists"),
         prompt=t_("Your attack list, in order: ATTACK, MOVE, FACE, HOLD, IF LIVE/DOOMED <unit> THEN ... ELSE ...")),
    Step("initiative", choose_first, next=_after, window=Window.INTERRUPT, hours=12, title=t_("initiative"),
         prompt=t_("You won the initiative: FIRST or SECOND.")),
    Step("react", react, next=_after, window=Window.INTERRUPT, hours=12, title=t_("reaction fire"),
         prompt=t_("A unit of yours may fire at a moving enemy: FIRE FROM, FIRE TO (or FIRE) or HOLD.")),
], seats=seats, open=Battle, close=Battle.freeze, sides=SIDES, standing=STANDING)


# ---------------------------------------------------------------------------------------- setup
def _placed(line: str, side: str) -> Unit:
    uid, card, where, facing = line.split()
    h = parse_hex(where)
    if h is None or card not in cards() or facing not in NAMES:
        raise ValueError(f"scenario unit {line!r}")
    return Unit(uid, card, side, h, NAMES.index(facing))


def setup(scenario: str, options: Mapping[str, Any], dice: Dice) -> State:
    sc = scenarios()[scenario]
    build = options["army"] == "build"
    movement = options.get("movement", "table")
    movement = tables()["sequence"]["movement"] if movement == "table" else movement
    fog = options.get("visibility", "open") == "fog"  # a scenario's forces are then set up sealed
    units = () if build else tuple(_placed(line, side) for side in SIDES for line in sc[side])
    reserve = () if build else tuple(Unit(uid, card, side, (0, 0), 0) for side in SIDES
                                     for uid, card in (line.split() for line in sc.get(f"{side}_air", [])))
    objectives = tuple(h for h in (parse_hex(n) for n in sc["objectives"]) if h is not None)
    per_side = int(options.get("players_per_side", 1))
    return State(scenario, sc["map"], sc["turns"], objectives, units, (), sc["first"],
                 STEPS.start("deploy" if build or fog else _first_step(options["cadence"], movement)),
                 options["sight"], options["cadence"], movement, reserve,
                 ow_soldiers=options["ow_soldiers"] == "yes", move_in_attack=options["move_in_attack"] == "yes",
                 advanced=options["rules"] == "advanced", fog=fog,
                 obstacles=obstacles_of(sc.get("obstacles", [])) if options.get("obstacles", "yes") == "yes" else (),
                 players_per_side=per_side, command=command_of(sc, (*units, *reserve), per_side))


def command_of(sc: Mapping[str, Any], units: Sequence[Unit], per_side: int) -> tuple[tuple[str, str], ...]:
    """With several seats a side, who commands each of the scenario's units: the scenario's
    ``<side>_seats`` (a list of unit ids per seat) where it gives them, else the units in scenario
    order dealt round the side's seats (ground units first, then aircraft)."""
    if per_side == 1:
        return ()
    out: dict[str, str] = {}
    for side in SIDES:
        names = [s for s in seat_names(per_side) if side_of(s) == side]
        listed = sc.get(f"{side}_seats", [])
        for seat, ids in zip(names, listed, strict=False):
            out.update({uid: seat for uid in ids.split()})
        rest = [u.id for u in units if u.side == side and u.id not in out]
        out.update({uid: names[i % len(names)] for i, uid in enumerate(rest)})
    return tuple(sorted(out.items()))


# ---------------------------------------------------------------------------------------- views
def unit_view(u: Unit) -> dict[str, Any]:
    return {"id": u.id, "card": u.card, "name": u.stats.name, "side": u.side, "kind": u.stats.kind,
            "hex": hex_name(u.hex), "facing": NAMES[u.facing], "disrupted": u.disrupted, "damaged": u.damaged,
            "pending": list(u.pending), "overwatch": None if u.overwatch is None else NAMES[u.overwatch]}


def view(state: State, seat: str) -> dict[str, Any]:
    """Everything in an open game (the fragment hides nothing, digest 5) except the other side's
    standing orders; in fog, :func:`fogged` keeps only what the seat's side may know."""
    side = side_of(seat)
    full = {"seat": seat, "side": side, "turn": state.turn, "last_turn": state.last_turn, "scenario": state.scenario,
            "map": state.map, "step": state.flow.step, "first": state.first, "strict": state.sight == "strict",
            "move_in_attack": state.move_in_attack, "points": tables()["army"]["points"], "advanced": state.advanced,
            "objectives": [hex_name(h) for h in state.objectives],
            "obstacles": [{"hex": hex_name(h), "kind": kind, "name": obstacle_chart()[kind].title}
                          for h, kind in state.obstacles],
            "units": [unit_view(u) for u in state.units], "lost": [unit_view(u) for u in state.lost],
            "cargo": [{"id": u.id, "card": u.card, "name": u.stats.name, "side": u.side, "aboard": u.aboard}
                      for u in state.cargo],
            "reserve": [{"id": u.id, "card": u.card, "name": u.stats.name, "side": u.side, "disrupted": u.disrupted}
                        for u in state.reserve],
            "standing": STANDING.view_of(state.flow.standing, seat, side), "asking": _asking(state, seat)}
    if state.players_per_side > 1:  # who commands each of the side's units (both seats of a side see the same)
        full["seats"] = list(state.seats_of(side))
        full["command"] = {uid: s for uid, s in state.command if side_of(s) == side}
    return fogged(state, side, full) if state.fog else full


def fogged(state: State, side: str, full: dict[str, Any]) -> dict[str, Any]:
    """The view in fog: own units and the enemies in sight; the last glimpse of each other enemy
    ground unit not seen destroyed (``last_known``, greyed in the picture); enemies lost only if seen
    destroyed; no enemy aircraft off the map and no enemy passengers."""
    seen = set() if state.flow.step == "deploy" else \
        {u.id for u in seen_enemies(board_with(state.map, state.obstacles), state.units, side,
                                    strict=state.sight == "strict")}
    glimpsed = {g.id: g for g in state.last_known if g.side == side}

    def mine(row: dict[str, Any]) -> bool:
        return bool(row["side"] == side)
    return dict(full, fog=True,
                units=[r for r in full["units"] if mine(r) or r["id"] in seen],
                lost=[r for r in full["lost"] if mine(r) or (r["id"] in glimpsed and glimpsed[r["id"]].lost)],
                cargo=[r for r in full["cargo"] if mine(r)], reserve=[r for r in full["reserve"] if mine(r)],
                last_known=[{"id": g.id, "card": g.card, "name": cards()[g.card].name, "side": other(side),
                             "hex": hex_name(g.hex), "facing": NAMES[g.facing], "turn": g.turn}
                            for g in glimpsed.values() if g.id not in seen and not g.lost])


def _asking(state: State, seat: str) -> dict[str, Any] | None:
    """The question this seat must answer now, or None."""
    pending = state.flow.pending
    asks = pending.asks_of(seat) if pending is not None else ()
    return ({"question": asks[0].question, "choices": list(asks[0].choices), "default": asks[0].default}
            if asks else None)


def outcome(state: State) -> Outcome | None:
    """A side with no units left loses; else, at the end, the side alone holding more objectives,
    then more points destroyed (placeholder victory, digest G29)."""
    if not state.flow.over:
        return None
    score = {s: sum(u.stats.cost for u in state.lost if u.side == other(s)) for s in SIDES}
    alive = {s: any(u.side == s for u in state.units) for s in SIDES}
    held = {s: sum(1 for h in state.objectives if {u.side for u in state.units if u.hex == h} == {s})
            for s in SIDES}
    if alive["allies"] != alive["axis"]:
        winner, why = ("allies" if alive["allies"] else "axis"), t_("the other side has no units left")
    elif held["allies"] != held["axis"]:
        winner, why = max(SIDES, key=lambda s: held[s]), t_("holds more objectives")
    elif score["allies"] != score["axis"]:
        winner, why = max(SIDES, key=lambda s: score[s]), t_("destroyed more points")
    else:
        return Outcome(None, t_("a draw (%(allies)s-%(axis)s points destroyed)", **score), score)
    return Outcome(winner, t_("%(winner)s wins: %(why)s (points destroyed %(allies)s-%(axis)s)", winner=winner, why=why,
                              **score), score)
