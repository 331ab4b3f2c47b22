"""Formations and wings [9.1, 9.5]: who is in formation, the wing formation, Wing Leader orders.

A scenario lists its wings (``wings = [{name, members, leader}]``); the leader's squadron carries the Wing
Leader marker.  A formation chain may pass through any friendly squadron (AMB-22, as 9.1 reads).
"""
from __future__ import annotations

from .escape import available
from .model import Squadron, State
from .radio import jammed_nets, net_of, tally_busy
from .sky import distance
from .tables import scenario, tables


def in_formation(a: Squadron, b: Squadron) -> bool:
    """Two friendly squadrons in the same or adjacent squares with the same heading [9.1]."""
    return a.side == b.side and a.heading == b.heading and distance(a.at, b.at) <= 1


def formation_of(state: State, sq: Squadron, through: set[str] | None = None) -> set[str]:
    """The formation chain holding ``sq`` (itself included) [9.1]; with ``through``, a chain of those
    squadrons only."""
    friends = [s for s in state.squadrons if s.side == sq.side and s.on_map and (through is None or s.id in through)]
    found, todo = {sq.id}, [sq]
    while todo:
        cur = todo.pop()
        for f in friends:
            if f.id not in found and in_formation(cur, f):
                found.add(f.id)
                todo.append(f)
    return found


def wings(state: State) -> list[dict]:
    """The scenario's wings, each led by the squadron its player gave the Wing Leader marker in the set-up
    (``LEADER``, 5.2.1), else by the scenario's ``leader``."""
    chosen = dict(state.leaders)
    return [dict(w, leader=chosen[w["name"]]) if w["name"] in chosen else w
            for w in scenario(state.scenario).get("wings", ())]


def members(state: State, wing: dict) -> list[str]:
    """The wing's squadrons as they now are: the scenario's, a split squadron's two flights in its place
    (a flight split on order stays in the wing, 9.5.4; our reading: so do flights split otherwise, 9.3)."""
    found = []
    for m in wing["members"]:
        if state.find(m) is not None:
            found.append(m)
        else:
            found += [f"{m}{n}" for n in (1, 2) if state.find(f"{m}{n}") is not None]
    return found


def leader_id(state: State, wing: dict) -> str | None:
    """The squadron carrying the wing's Wing Leader marker [9.5.1]: the scenario's, or its first flight once
    it split (the owner's choice, 9.3.1: ``SPLIT ... LEADER 2`` gives it to the second, else the first).  A marker lost to a crew loss [10.7.3]
    takes its squadron out of the wing, which ends the wing formation (it is formed on that squadron, 9.5.2)."""
    lead = wing["leader"]
    second = state.find(f"{lead}2")
    found = state.find(lead) or (second if second is not None and second.wing_leader else state.find(f"{lead}1"))
    return None if found is None else found.id


def wing_of(state: State, sq: Squadron) -> dict | None:
    return next((w for w in wings(state) if sq.id in members(state, w)), None)


def leader_of(state: State, sq: Squadron) -> Squadron | None:
    """The Wing Leader's squadron of ``sq``'s wing, while both are in the wing formation."""
    wing = wing_of(state, sq)
    if wing is None:
        return None
    formation = wing_formation(state, wing)
    lead = leader_id(state, wing)
    return state.squadron(lead) if lead is not None and sq.id in formation and lead in formation else None


def leads_wing(state: State, sq: Squadron) -> bool:
    """Whether ``sq`` carries the Wing Leader marker of a wing it is still in [9.5.1]."""
    wing = wing_of(state, sq)
    return wing is not None and leader_id(state, wing) == sq.id and not sq.left_wing


def wing_formation(state: State, wing: dict) -> set[str]:
    """The wing's squadrons in formation with the leader's squadron and Available, not yet gone [9.5.2]."""
    lead = leader_id(state, wing)
    leader = state.find(lead) if lead is not None else None
    if leader is None or not leader.on_map or leader.left_wing:
        return set()
    own = set(members(state, wing)) if state.option("formation_chain", "any") == "wing" else None
    chain = formation_of(state, leader, own)   # AMB-22: through any friendly squadron, or (option) the wing's own
    return {m for m in members(state, wing) if m in chain and not state.squadron(m).left_wing
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
        gone += [m for m in members(state, wing) if m not in kept and not state.squadron(m).left_wing]
    return gone


def order_problem(state: State, leader: Squadron, recipient: Squadron, target: Squadron) -> str | None:
    """Why a Wing Leader order cannot be given, or None [9.5.4]: the leader's squadron Available; the
    recipient Available in the wing formation with no tally; the target tallied by a squadron of the wing
    formation or the wing's net, or in formation with one so tallied; in sight and within 9 squares."""
    wing = next((w for w in wings(state) if leader_id(state, w) == leader.id), None)
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
    jammed = jammed_nets(state, tally_busy(state))
    net = net_of(state, leader)
    return None if net is not None and net not in jammed else 1


def experte_fires(state: State, sq: Squadron) -> bool:
    """Whether an Experte in ``sq`` gives its +1 firepower [10.6]: always, unless it is flipped into the Wing
    Leader marker of ``sq``'s wing [5.2.1] and option ``leader_experte = leads`` reads the flipped marker as a
    Wing Leader only (the text does not say it keeps the Experte's bonus; by default it does)."""
    if state.option("leader_experte", "fires") == "fires":
        return True
    return not any(leader_id(state, w) == sq.id for w in wings(state))
