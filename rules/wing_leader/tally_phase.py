"""The Tally Phase [6.0, 7.2]: drops and tally rolls in the order written, radio alerts at once [9.4]."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.scripts import If, run
from pbem.core.verbs import Order
from pbem.core.work import Work

from . import fighter_bombers, radio, split, tally, wings
from .air import Air
from .fog import dice_seen_by, tell
from .model import Squadron, State, enemy_of
from .orders import Command, Drop, Split, Tally
from .tables import scenario
from .sky import name
from .parsing import CONDITIONS
from .seating import side_standing


def raider_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    _tallies(w, w.data.state.raider, orders)


def defender_tally(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    _tallies(w, w.data.state.defender, orders)


def _tallies(w: Work[Air], side: str, orders: Mapping[str, Sequence[Order]]) -> None:
    """One side's drops and tally rolls, in the order written [7.2, 7.2.2]; conditional ones are decided
    when reached (``IF TALLIED A THEN TALLY A K``), so a side writing blind can answer the other's rolls."""
    entries = [o for o in orders.get(side, ()) if isinstance(inner(o), (Drop, Tally, Command, Split))]
    run(w, side, entries, lambda o: _tally_order(w, o), CONDITIONS)
    fighter_bombers.jettison_on_tally(w, "in the Tally Phase")
    leave_wings(w)


def _tally_order(w: Work[Air], order: Order) -> str | None:
    """Carry out a DROP or a TALLY now, or say why it cannot be (the position may have changed since it
    was written, in the faster cadences)."""
    air = w.data
    gone = [sid for sid in (getattr(order, "sq", ""), getattr(order, "target", "")) if sid and sid not in air.squadrons]
    if gone:
        return f"{gone[0]} has split into flights (9.3)"
    if isinstance(order, Command):
        return _command(w, order)
    if isinstance(order, Split):
        return _split(w, air.squadron(order.sq), split.Choice(order.losses, order.straggler, order.experte, order.tally,
                                                              order.leader))
    if isinstance(order, Drop):
        sq = air.squadron(order.sq)
        if not sq.tally or sq.dogfight:
            return f"{sq.id} has no tally it may drop"
        air.put(sq.move(tally=""))
        tell(w, f"{sq.id} drops its tally", [sq.id], kind="tally")
        return None
    assert isinstance(order, Tally)
    sq, target = air.squadron(order.sq), air.squadron(order.target)
    why = tally.may_tally(sq, air.now()) or tally.target_problem(air.now(), sq, target)
    if sq.id in air.no_roll:
        why = f"{sq.id} was split off this phase and may not roll (9.3.1)"
    why = why or _wing_rolled(air, sq)
    if why:
        return why
    air.rolled.append(sq.id)
    if roll_tally(w, sq, target):
        radio_alerts(w)
    return None


def _wing_rolled(air: Air, sq: Squadron) -> str | None:
    """Without radio, or with its net jammed, only one squadron of a wing may roll to tally each turn
    [9.5.4.1]: why ``sq`` may not, or None."""
    state = air.now()
    wing = wings.wing_of(state, sq)
    lead = wings.leader_of(state, sq)
    if wing is None or lead is None or wings.orders_allowed(state, lead) is None:
        return None
    other = next((r for r in air.rolled if r in wings.members(state, wing)), None)
    return (f"{other} of its wing rolled this turn; a wing without radio or under jamming rolls once (9.5.4.1)"
            if other is not None else None)


def _command(w: Work[Air], order: Command) -> str | None:
    """A Wing Leader's order places the recipient's tally without a roll [9.5.4, 7.2.4]; ``ORDER WING``
    places it on every Available squadron of the wing formation that tallies nobody [9.5.4.1]."""
    air = w.data
    state = air.now()
    sq, target = air.squadron(order.sq), air.squadron(order.target)
    leader = wings.leader_of(state, sq)
    if leader is None:
        return f"{sq.id} is in no wing formation"
    wing = wings.wing_of(state, sq)
    recipients = [sq.id]
    if wing is not None and order.wing:
        formation = wings.wing_formation(state, wing)
        recipients = [m for m in wings.members(state, wing) if m in formation]
    placed, refused = [], []
    for rid in recipients:
        why = wings.order_problem(air.now(), leader, air.squadron(rid), target)
        if why:
            refused.append(why)
            continue
        air.put(air.squadron(rid).move(tally=target.id, alert=True, vector=None).unescort())
        air.ordered.add(rid)
        placed.append(rid)
    if not placed:
        return "; ".join(refused)
    if order.wing:
        tell(w, f"{leader.id} orders its wing onto {target.id}: {', '.join(placed)} tallied (9.5.4.1)"
             + (f"; not: {'; '.join(refused)}" if refused else ""), [leader.id, *placed, target.id], kind="tally")
    else:
        tell(w, f"{leader.id} orders {sq.id} onto {target.id}: tallied (9.5.4)", [leader.id, sq.id, target.id],
             kind="tally")
    radio_alerts(w)
    return None


def _split(w: Work[Air], sq: Squadron, choice: split.Choice) -> str | None:
    """Split into two flights [9.3] as the owner chose [9.3.1]; the first keeps any enemy tally on it."""
    air = w.data
    before = air.state.find(sq.id)
    tallied_now = bool(sq.tally) and before is not None and not before.tally
    flexible = sq.side in scenario(air.state.scenario).get("flexibility", ())
    limit = int(scenario(air.state.scenario)["max_losses"]["flight"])
    why = split.may_split(sq, tallied_now, sq.id in air.ordered, flexible, limit, choice,
                          air.state.option("split_count", "together")) or split.counters_problem(air.now(), sq)
    if why:
        return why
    first, second = split.split(sq, choice)
    place_flights(w, sq, first, second)
    air.no_roll.add(second.id if choice.tally == 1 else first.id)
    tell(w, f"{sq.id} splits into the flights {first.id} and {second.id} (9.3)", [first.id, second.id], kind="tally")
    return None


def place_flights(w: Work[Air], sq: Squadron, first: Squadron, second: Squadron) -> None:
    """The two flights take the squadron's place; an enemy tally on it moves to the flight the tallying side's
    standing order ``KEEP FIRST|SECOND`` names, the first by default [9.3.1]."""
    air = w.data
    air.replace_by(sq.id, first, second)
    keep = side_standing(w, enemy_of(sq.side), "KEEP")   # the tallying side's choice, after the owner's [9.3.1]
    kept = second if keep is not None and keep.words[-1] == "SECOND" else first
    for enemy in list(air.squadrons.values()):
        if enemy.tally == sq.id:
            air.put(enemy.move(tally=kept.id))


def leave_wings(w: Work[Air]) -> None:
    """At the end of a phase: when an Intercept wing's leader has tallied, the squadrons it gave no order
    take their own vectors on its vector square [9.5.3]; then every squadron out of its wing formation leaves
    it for good [9.5.2]."""
    air = w.data
    for wing in wings.wings(air.now()):
        lead = wings.leader_id(air.now(), wing)
        before, now = (air.state.find(lead), air.now().find(lead)) if lead is not None else (None, None)
        if before is not None and now is not None and now.tally and not before.tally and before.mission == "intercept":
            for m in wings.members(air.now(), wing):
                sq = air.squadrons.get(m)
                if sq is not None and m != now.id and not sq.tally and not sq.left_wing:
                    air.put(sq.move(left_wing=True, vector=before.vector))
                    where = f"flies to {name(before.vector)}, its leader's vector" if before.vector else "circles"
                    tell(w, f"{m} leaves the wing and {where} (9.5.3)", [m], kind="wing")
    for sid in wings.leaving(air.now()):
        air.put(air.squadron(sid).move(left_wing=True))
        tell(w, f"{sid} leaves its wing formation (9.5.2)", [sid], kind="wing")


def both_tallies(w: Work[Air], orders: Mapping[str, Sequence[Order]]) -> None:
    """Cadence ``fast``: both tally lists in one window, the Raider's rolled first [6.0]."""
    _tallies(w, w.data.state.raider, orders)
    _tallies(w, w.data.state.defender, orders)


def jammed_now(state: State) -> set[str]:
    """In the Tally Phase a net is jammed by its squadrons in dogfights (AMB-14; option ``jam_reading``)."""
    return radio.jammed_nets(state, radio.tally_busy(state))


def radio_alerts(w: Work[Air]) -> None:
    """Unalert fighters on a net with an Alert squadron become Alert at once [9.4 a, AMB-15]."""
    for sid in radio.alerted_by_radio(w.data.now()):
        w.data.put(w.data.squadron(sid).move(alert=True))
        tell(w, f"{sid} is alerted by radio (9.4)", [sid], kind="tally")


def roll_tally(w: Work[Air], sq: Squadron, target: Squadron) -> bool:
    """One tally roll [7.2.1]: 1d6 + modifiers > distance; success places the tally and alerts [7.1]."""
    state = w.data.now()
    mods = tally.modifiers(state.sky, sq, target) + radio.modifiers(state, sq, target, jammed_now(state))
    dist = tally.distance(sq.at, target.at)
    roll = w.roll(6, f"{sq.id} tries to tally {target.id}", seen_by=dice_seen_by(w, [sq.id, target.id]))
    ok = tally.succeeds(roll, mods, dist)
    shown = ", ".join(f"{m.why} {m.value:+d}" for m in mods) or "no modifiers"
    if ok:
        w.data.put(sq.move(tally=target.id, alert=True, vector=None).unescort())
    tell(w, f"{sq.id} tally on {target.id}: distance {dist}, rolled {roll} ({shown}): "
         f"{'tallied' if ok else 'no tally'} (7.2.1)", [sq.id, target.id], kind="tally", roll=roll, distance=dist)
    return ok



def inner(order: Order) -> Order:
    """The order a conditional entry would carry out."""
    return order.then if isinstance(order, If) else order
