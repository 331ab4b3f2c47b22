"""Radio nets and ground control [9.4, 9.2.4]: alerts passed over a net, the net and GCI tally bonuses,
jamming, and GCI vector changes.

A scenario may list its nets (``nets = [{name, members}]``) and name the net of its GCI (``gci_net``).
When it lists none, we read that each side's squadrons share one net named after the side, and the GCI
is on the Defender's (GAP-17).
"""
from __future__ import annotations

from collections.abc import Collection

from .model import Squadron, State
from .tables import scenario, tables
from .tally import Modifier


def net_of(state: State, sq: Squadron) -> str | None:
    """The squadron's radio net: its side's one net when the scenario lists none; the net listing it, or,
    for a flight split off a squadron (``A1``, ``A2``), the net listing that squadron: both flights stay in
    its net [9.3.1]."""
    nets = scenario(state.scenario).get("nets")
    if nets is None:
        return sq.side
    ids = (sq.id, sq.id[:-1]) if sq.flight and sq.id[-1:] in ("1", "2") else (sq.id,)
    return next((n["name"] for n in nets if any(i in n["members"] for i in ids)), None)


def gci_rating(state: State) -> int:
    return int(scenario(state.scenario).get("gci_rating", 0))


def under_gci(state: State, sq: Squadron) -> bool:
    """A squadron is under GCI when the scenario has GCI and the squadron shares its net [9.2.4]."""
    s = scenario(state.scenario)
    return bool(gci_rating(state)) and net_of(state, sq) == s.get("gci_net", s["defender"])


def alerted_by_radio(state: State) -> list[str]:
    """Unalert fighters on a net where some squadron is Alert [9.4 a]."""
    alert_nets = {net_of(state, s) for s in state.squadrons if s.on_map and s.fighter and s.alert}
    alert_nets.discard(None)
    return [s.id for s in state.squadrons if s.on_map and s.fighter and not s.alert and not s.broken
            and net_of(state, s) in alert_nets]


def alerted_by_bombers(state: State, attacked: Collection[str]) -> list[str]:
    """Unalert fighters sharing a net with an attacked bomber become Alert at once [9.4.1, AMB-16]."""
    nets = {net_of(state, s) for s in state.squadrons if s.id in attacked and not s.fighter}
    nets.discard(None)
    return [s.id for s in state.squadrons if s.on_map and s.fighter and not s.alert and not s.broken
            and net_of(state, s) in nets]


def jammed_nets(state: State, busy: Collection[str]) -> set[str]:
    """Nets with a squadron that fought this turn (``busy``) are jammed [9.4.2]."""
    return {n for s in state.squadrons if s.id in busy for n in (net_of(state, s),) if n is not None}


def tally_busy(state: State) -> set[str]:
    """The squadrons that jam their nets in the Tally Phase [9.4.2]: "fought an air combat this turn" can
    mean nobody yet (no combat comes before the Tally Phase), so only those in dogfights (AMB-14, the literal
    reading); under option ``jam_reading = combats`` also those that fought in the previous Combat Phase."""
    busy = {s.id for s in state.squadrons if s.dogfight and s.on_map}
    if state.option("jam_reading", "dogfights") == "combats":
        busy |= set(state.fought_last)
    return busy


def modifiers(state: State, sq: Squadron, target: Squadron, jammed: Collection[str] = ()) -> list[Modifier]:
    """Radio tally bonuses (placeholder values, GAP-1): the target is tallied by a squadron of the same
    net [9.4 b]; the squadron is on the GCI net [9.4 c]; neither on a jammed net [9.4.2]."""
    net = net_of(state, sq)
    if net is None or net in jammed:
        return []
    t = tables()["tally_modifiers"]
    found = []
    if any(s.tally == target.id and s.id != sq.id and net_of(state, s) == net for s in state.squadrons):
        found.append(Modifier("target tallied on the same radio net", t["radio_net"]))
    if under_gci(state, sq):
        found.append(Modifier("ground control", t["gci"]))
    return found


def vector_needs(state: State, sq: Squadron, jammed: Collection[str]) -> int:
    """The roll that moves a vector [9.2.4]: the GCI rating, or a 6 on a jammed net [9.4.2]."""
    return 6 if net_of(state, sq) in jammed else gci_rating(state)
