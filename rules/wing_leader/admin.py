"""The Administrative Phase [6.0] and the next turn's Setup Phase [5.3.1]: voluntary breaks, escapes,
GCI vectors, escorts re-marked, the end of the game by agreement or by 12.0, arrivals, tallies checked."""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.verbs import Order
from pbem.core.work import EVERYONE, Work

from . import altitude_error as altitude_errors, combat, escape, flak, missions, movement, radio, tally
from .air import Air
from .fog import dice_seen_by, own, tell
from .model import ENTERING, SIDES, WAITING, Squadron, enemy_of, owner
from .seating import side_standing
from .orders import Break, End, Escape, PlaceBarrage, Rejoin, Vector
from .sky import HEADINGS, name, parse
from .tables import scenario
from .tally_phase import leave_wings, radio_alerts
from .victory import ended


def admin_order(text: str) -> Order:
    """An Administrative Phase order kept as text across an interrupt (checked when it was written)."""
    words = text.split()
    if words[0] == "BREAK":
        return Break(words[1])
    if words[0] == "ESCORT":
        return Rejoin(words[1])
    if words[0] == "END":
        return End(words[1])
    if words[0] == "BARRAGE":
        return PlaceBarrage(words[1], words[2])
    return Escape(words[1]) if words[0] == "ESCAPE" else Vector(words[1], words[2])


def administrative(w: Work[Air], orders: Sequence[Order]) -> None:
    """The Administrative Phase [6.0]: voluntary breaks, escapes (the Raider's first, 11.0), GCI vectors
    (9.2.4), escorts re-marked (9.2.2); the game ends when both sides sent END this turn or by 12.0; else the
    next turn's Setup Phase places arrivals and its Tally Phase opens with the tallies checked (range and
    sight, AMB-13) and radio alerts passed (9.4).  ``orders`` are the Raider's then the Defender's."""
    air = w.data
    agreed = {o.side for o in orders if isinstance(o, End)} == set(SIDES)
    if agreed:
        w.say("both sides agree to end the game (12.0)", kind="end")
    _carry_out(w, [o for o in orders if not isinstance(o, End) and _present(w, o)])
    leave_wings(w)
    if agreed or ended(air.now(), w.turn):
        air.over = True
        return
    w.new_turn()
    _arrivals(w)
    _check_tallies(w)
    radio_alerts(w)


def _carry_out(w: Work[Air], orders: Sequence[Order]) -> None:
    """All breaks first, then all escapes, then vectors and rejoins in the orders' sequence."""
    air = w.data
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
        if isinstance(order, PlaceBarrage):
            flak.place(w, order.unit, order.where)


def _check_tallies(w: Work[Air]) -> None:
    """A tally lost to range or sight at the start of the turn is dropped [7.2.2, AMB-13]; a dogfight
    keeps its tallies."""
    air = w.data
    state = air.now()
    for sq in state.squadrons:
        if sq.tally and sq.on_map and not sq.dogfight:
            lost = tally.kept(state, sq)
            if lost:
                air.put(air.squadron(sq.id).move(tally=""))
                tell(w, f"{sq.id} loses its tally: {lost} (7.2.2)", [sq.id, sq.tally], kind="tally")


def _present(w: Work[Air], order: Order) -> bool:
    """An order for a squadron that has split since it was written is skipped and its author told [9.3]."""
    sid = getattr(order, "sq", "")
    if not sid or sid in w.data.squadrons:   # not a squadron's order (BARRAGE, 14.2.2), or still there
        return True
    was = w.data.state.find(sid)
    w.say(f"{order.text()} was skipped: {sid} has split into flights (9.3)",
          to=own(w, was.side) if was is not None else EVERYONE, kind="skipped")
    return False


def _arrivals(w: Work[Air]) -> None:
    """The Setup Phase [6.0, 5.3.1]: this turn's arrivals are placed on their squares, or beyond their edge
    at the altitude their owner's standing ``ARRIVE`` order names (else the first allowed), to fly in."""
    air = w.data
    for sq in air.now().squadrons:
        if sq.status != WAITING or sq.arrives != w.turn or sq.base:   # a base's squadrons take off [13.7]
            continue
        if not sq.edge:
            air.put(sq.move(status="on"))
            tell(w, f"{sq.id} arrives in {name(sq.at)} (5.3.1)", [sq.id], kind="setup")
            continue
        kept = w.standing_order(owner(sq), f"ARRIVE {sq.id}")
        alt = int(kept.words[-1]) if kept is not None else sq.altitudes[0]
        air.put(sq.move(status=ENTERING, at=(movement.EDGE_COLUMNS[sq.edge], alt),
                        heading=HEADINGS.index("E" if sq.edge == "W" else "W")))
        tell(w, f"{sq.id} arrives at the {sq.edge} edge at altitude {alt} and flies in this turn (5.3.1)", [sq.id],
             kind="setup")


def _break(w: Work[Air], sq: Squadron) -> None:
    """A player breaks his own squadron after combat [10.7.1]."""
    if sq.on_map and not sq.broken:
        w.data.put(combat.broken_effects(sq.move(broken=True)))
        tell(w, f"{sq.id} is broken by its owner (10.7.1)", [sq.id], kind="cohesion")


def _escape(w: Work[Air], sq: Squadron) -> None:
    """An escape [11.0]: an unbroken squadron leaves with the opponent's consent; a broken one tries alone."""
    why = escape.may_escape(w.data.now(), sq, _consents(w, enemy_of(sq.side)))
    if why:
        w.say(f"ESCAPE {sq.id} was skipped: {why} (11.0)", to=sq.side, kind="skipped")
        return
    if not sq.broken:
        tell(w, f"{sq.id} leaves the battle with the opponent's consent (11.0)", [sq.id], kind="escape")
    elif not _escape_roll(w, sq):
        return
    _escaped(w, sq)


def _escape_roll(w: Work[Air], sq: Squadron) -> bool:
    """Automatic with no Available enemy fighter in sight (our reading when none sees it), else the
    opponent's best chaser rolls [11.0]."""
    air = w.data
    chase = escape.chaser(air.now(), sq)
    if chase is None:
        tell(w, f"{sq.id} escapes: no Available enemy fighter can stop it (11.0)", [sq.id], kind="escape")
        return True
    natural = w.roll(6, f"{chase.hunter} tries to stop {sq.id} escaping", seen_by=dice_seen_by(w, [sq.id, chase.hunter]))
    reading = air.state.option("escape_reading", "rule")
    ok = escape.escapes(natural, chase, reading)
    rolled = f"{natural} (the natural roll: the example's reading)" if reading == "example" \
        else f"{natural}-{chase.weather} = {natural - chase.weather}"
    tell(w, f"{sq.id} tries to escape; {chase.hunter} at range {chase.range} rolls {rolled}: "
         f"{'escaped' if ok else 'stopped'} (11.0)", [sq.id, chase.hunter], kind="escape")
    return ok


def _escaped(w: Work[Air], sq: Squadron) -> None:
    """Out of play as if through its own edge [11.0, 12.1]; the escorts of a bomber formation none of whose
    bombers is left go home [9.2.2]."""
    air = w.data
    home = missions.escorts_going_home(air.now(), sq)
    air.put(sq.move(status="escaped", exit_edge=scenario(air.state.scenario)["edges"][sq.side]))
    for e in home:
        air.put(e.move(mission="rtb"))
        tell(w, f"{e.id} has no bombers left to escort and returns to base (9.2.2)", [e.id], kind="escape")


def _consents(w: Work[Air], side: str) -> bool:
    """A side lets enemy squadrons leave the battle by its standing order CONSENT YES [11.0]."""
    kept = side_standing(w, side, "CONSENT")
    return kept is not None and kept.words[-1] == "YES"


def _rejoin(w: Work[Air], sq: Squadron) -> None:
    """A former escort meeting the escort requirements is marked Escort again [9.2.2, AMB-20]."""
    state = w.data.now()
    why = missions.rejoin_problem(state, sq)
    if why:
        w.say(f"ESCORT {sq.id} was skipped: {why}", to=sq.side, kind="skipped")
        return
    w.data.put(sq.move(mission="escort", former_escort=False))
    tell(w, f"{sq.id} escorts the bombers again (9.2.2)", [sq.id], kind="escort")


def _vector(w: Work[Air], sq: Squadron, square: tuple[int, int]) -> None:
    """Ground control moves a non-tallying Intercept's vector on a roll of its rating or more, a 6 when the
    net is jammed [9.2.4, 9.4.2]."""
    air = w.data
    if sq.tally or not sq.on_map or sq.broken:
        w.say(f"VECTOR {sq.id} was skipped: it tallies, is broken or has left", to=sq.side, kind="skipped")
        return
    need = radio.vector_needs(air.now(), sq, radio.jammed_nets(air.now(), air.fought))
    roll = w.roll(6, f"GCI vector for {sq.id}", seen_by=own(w, sq.side))
    placed = roll >= need
    if placed:   # a CAP squadron given a vector flies as an Intercept [9.2.4.1]
        air.put(sq.move(vector=square, mission="intercept"))
    w.say(f"GCI for {sq.id}: rolled {roll}, needs {need}+: "
          + (f"vector placed on {name(square)}" if placed else "no change") + " (9.2.4)", to=own(w, sq.side), kind="gci")
    if placed:
        altitude_error(w, air.squadron(sq.id))


def altitude_error(w: Work[Air], sq: Squadron) -> None:
    """The opponent's roll for an altitude error after ``sq``'s vector was placed or moved: on a 6 it moves
    the vector as its standing ``ERROR`` says (AWAY by default; NO: no roll) [13.1].  Under fog only the
    owner's side is told (the vector is its ground control's business; the game applies the opponent's
    standing choice)."""
    air = w.data
    if not air.state.uses("13.1") or sq.vector is None:
        return
    enemy = enemy_of(sq.side)
    kept = side_standing(w, enemy, "ERROR")
    policy = kept.words[-1] if kept is not None else "AWAY"
    if policy == "NO":
        return
    roll = w.roll(6, f"altitude error for {sq.id}'s vector", seen_by=own(w, sq.side))
    if roll < 6:
        w.say(f"altitude error for {sq.id}'s vector: rolled {roll}, no error (13.1)", to=own(w, sq.side), kind="setup")
        return
    theirs = [s.at for s in air.squadrons.values() if s.side == enemy and s.on_map]
    to = altitude_errors.displaced(sq.vector, policy, theirs)
    air.put(sq.move(vector=to))
    w.say(f"altitude error for {sq.id}'s vector: rolled 6: the {enemy.title()} move it {policy.lower()} from "
          f"{name(sq.vector)} to {name(to)} (13.1)", to=own(w, sq.side), kind="setup")

