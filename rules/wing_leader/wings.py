"""Formations and wings [9.1, 9.5]: who is in formation, the wing formation, Wing Leader orders.

A scenario lists its wings (``wings = [{name, members, leader}]``); the leader's squadron carries the Wing
Leader marker.  A formation chain may pass through any friendly squadron (AMB-22, as 9.1 reads).
"""
from __future__ import annotations

from .escape import available
from .model import Squadron, State
from .radio import jammed_nets, net_of
from .sky import distance
from .tables import scenario, tables


def in_formation(a: Squadron, b: Squadron) -> bool:
    """Two friendly squadrons in the same or adjacent squares with the same heading [9.1]."""
    return a.side == b.side and a.heading == b.heading and distance(a.at, b.at) <= 1


def formation_of(state: State, sq: Squadron) -> set[str]:
    """The formation chain holding ``sq`` (itself included) [9.1]."""
    friends = [s for s in state.squadrons if s.side == sq.side and s.on_map]
    found, todo = {sq.id}, [sq]
    while todo:
        cur = todo.pop()
        for f in friends:
            if f.id not in found and in_formation(cur, f):
                found.add(f.id)
                todo.append(f)
    return found


def wings(state: State) -> list[dict]:
    return list(scenario(state.scenario).get("wings", ()))


def leader_of(state: State, sq: Squadron) -> Squadron | None:
    """The Wing Leader's squadron of ``sq``'s wing, while both are in the wing formation."""
    for wing in wings(state):
        if sq.id in wing["members"]:
            formation = wing_formation(state, wing)
            return state.squadron(wing["leader"]) if sq.id in formation and wing["leader"] in formation else None
    return None


def wing_formation(state: State, wing: dict) -> set[str]:
    """The wing's squadrons in formation with the leader's squadron and Available, not yet gone [9.5.2]."""
    leader = state.find(wing["leader"])
    if leader is None or not leader.on_map or leader.left_wing:
        return set()
    chain = formation_of(state, leader)
    return {m for m in wing["members"] if m in chain and not state.squadron(m).left_wing
            and available(state, state.squadron(m))}


def in_balbo(state: State, sq: Squadron) -> bool:
    """A squadron of a wing formation larger than two squadrons (a flight counts half) flies in a Balbo
    [9.5.6]."""
    for wing in wings(state):
        formation = wing_formation(state, wing)
        if sq.id in formation:
            return sum(0.5 if state.squadron(m).flight else 1 for m in formation) > 2
    return False


def leaving(state: State) -> list[str]:
    """Wing squadrons that fail the wing formation at the end of a phase and leave it for good [9.5.2]."""
    gone = []
    for wing in wings(state):
        kept = wing_formation(state, wing)
        gone += [m for m in wing["members"] if m not in kept and (s := state.find(m)) is not None and not s.left_wing]
    return gone


def order_problem(state: State, leader: Squadron, recipient: Squadron, target: Squadron) -> str | None:
    """Why a Wing Leader order cannot be given, or None [9.5.4]: the leader's squadron Available; the
    recipient Available in the wing formation with no tally; the target tallied by a squadron of the wing
    formation or the wing's net, or in formation with one so tallied; in sight and within 9 squares."""
    wing = next((w for w in wings(state) if w["leader"] == leader.id), None)
    if wing is None or leader.left_wing or not available(state, leader):
        return f"{leader.id} does not lead a wing it can command"
    if recipient.id not in wing_formation(state, wing) or recipient.tally:
        return f"{recipient.id} is not in {leader.id}'s wing formation without a tally"
    net = net_of(state, leader)
    spotters = [s for s in state.squadrons if s.tally and s.side == leader.side
                and (s.id in wing_formation(state, wing) or (net is not None and net_of(state, s) == net))]
    tallied = {state.squadron(s.tally).id for s in spotters}
    marked = set().union(*(formation_of(state, state.squadron(t)) for t in tallied)) if tallied else set()
    if target.id not in marked:
        return f"{target.id} is neither tallied by the wing or its net nor in formation with such a squadron"
    if distance(recipient.at, target.at) > tables()["map"]["tally_range"] or \
            state.sky.sight(recipient.at, target.at).blocked:
        return f"{target.id} is out of {recipient.id}'s sight or beyond 9 squares"
    return None


def orders_allowed(state: State, leader: Squadron) -> int | None:
    """How many orders the leader may give this Tally Phase: any number on a radio net, one without radio
    or when the net is jammed [9.5.4, 9.5.4.1]; None = no limit."""
    jammed = jammed_nets(state, {s.id for s in state.squadrons if s.dogfight and s.on_map})
    net = net_of(state, leader)
    return None if net is not None and net not in jammed else 1
