"""Seats: one to three players a side, each commanding whole wings [9.1, 9.5] (option ``seats_per_side``).

With one seat a side the seat is named by the side (``allies``, ``axis``).  With more, seats are
``<side>-<n>``.  Each wing the scenario lists is one formation, each squadron in no wing a formation of its
own; a side with fewer formations than seats gets fewer seats (a seat with nothing to command would have
nothing to write).  Before the first turn the players of a side choose their wings in one sealed window
(``WINGS <squadron>...``, a squadron naming its formation): claims are granted seat 1 first, a formation
another seat took is refused with a note, and what nobody claimed goes to the seats with the fewest, seat
order breaking ties -- so silence everywhere is the round-robin of scenario order.  A seat left with
nothing takes the last formation of the seat holding most.  A split squadron's flights keep their
parent's seat [9.3].  Allies see each other's squadrons anyway (the game is open, 5.2) and each other's
standing orders (they fight one battle).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import RulesetDefinitionError
from pbem.core.standing import StandingOrder
from pbem.core.standing_rules import StandingKind, StandingRules
from pbem.core.work import Work

from .model import SIDES, Squadron, owner, side_of
from .tables import scenario

#: The option's choices: a player per wing, up to three a side (two to six players).
SEAT_COUNTS = (1, 2, 3)


def formations(side: str, squadrons: Sequence[Squadron], wings: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The side's wings, then each squadron in no wing alone, in scenario order."""
    ids = [s.id for s in squadrons if s.side == side]
    winged = [[m for m in w["members"] if m in ids] for w in wings]
    winged = [w for w in winged if w]
    taken = {m for w in winged for m in w}
    return winged + [[i] for i in ids if i not in taken]


def assign(squadrons: tuple[Squadron, ...], wings: Sequence[Mapping[str, Any]],
           per_side: int) -> tuple[tuple[Squadron, ...], tuple[str, ...]]:
    """Each squadron's seat and the game's seat names (``()`` for one seat a side): the choice of wings
    when nobody has claimed any (the round-robin of scenario order)."""
    if per_side not in SEAT_COUNTS:
        raise RulesetDefinitionError(f"seats_per_side must be one of {SEAT_COUNTS}, not {per_side!r}")
    if per_side == 1:
        return squadrons, ()
    seat_of: dict[str, str] = {}
    names: list[str] = []
    for side in SIDES:
        groups = formations(side, squadrons, wings)
        count = min(per_side, len(groups))
        seats = [f"{side}-{n}" for n in range(1, count + 1)]
        names += seats
        for seat, held in deal(groups, seats, {}).items():
            seat_of.update({m: seat for i in held for m in groups[i]})
    return tuple(s.move(seat=seat_of[s.id]) for s in squadrons), tuple(names)


def deal(groups: Sequence[Sequence[str]], seats: Sequence[str], claims: Mapping[str, Sequence[int]],
         refused: list[tuple[str, int, str]] | None = None) -> dict[str, list[int]]:
    """Which formations (indices of ``groups``) each seat commands: ``claims`` granted in seat order (a
    formation already granted is refused: ``(seat, index, taker)`` goes to ``refused``); the rest dealt
    one by one to the seat holding fewest (seat order breaking ties); then a seat still with none takes
    the last formation of the seat holding most."""
    held: dict[str, list[int]] = {seat: [] for seat in seats}
    taken: dict[int, str] = {}
    for seat in seats:
        for i in claims.get(seat, ()):
            if i in taken:
                if taken[i] != seat and refused is not None:
                    refused.append((seat, i, taken[i]))
                continue
            taken[i] = seat
            held[seat].append(i)
    for i in range(len(groups)):
        if i not in taken:
            seat = min(seats, key=lambda x: (len(held[x]), seats.index(x)))
            taken[i] = seat
            held[seat].append(i)
    for seat in seats:
        if not held[seat]:
            richest = max(seats, key=lambda x: (len(held[x]), -seats.index(x)))
            held[seat].append(held[richest].pop())
    return held


def formation_name(group: Sequence[str], wings: Sequence[Mapping[str, Any]]) -> str:
    """A formation as the players read it: ``JG 1 (K, L)``, or a lone squadron's ID."""
    wing = next((w for w in wings if set(group) <= set(w["members"])), None)
    return f"{wing['name']} ({', '.join(group)})" if wing is not None else group[0]


def title(seat: str) -> str:
    side = side_of(seat)
    return side.title() + ("" if seat == side else f" wing player {seat.removeprefix(side + '-')}")


#: The side fights as one [10.2, 10.8, 11.0]: these standing orders are the side's, kept under its name,
#: and any of its seats may change them (the last change wins).  TACTIC, REACT and ARRIVE name a
#: squadron and stay with the seat that commands it.
STANDING = StandingRules(tuple(StandingKind(key, side=True) for key in ("DOGFIGHT", "CONSENT", "LEADS", "HITS", "RETALLY",
                                                                       "KEEP", "FLAK", "ERROR")))


def side_standing(w: Work[Any], side: str, key: str) -> StandingOrder | None:
    """The side-wide standing order under ``key`` (see ``STANDING``)."""
    return w.standing_order(min(s.name for s in w.seats if s.side == side), key)


def speaker(w: Work[Any], side: str, squadrons: Sequence[Squadron]) -> str:
    """The seat asked a side-wide question: the commander of the side's first squadron among ``squadrons``."""
    return next((owner(s) for s in squadrons if s.side == side), min(x.name for x in w.seats if x.side == side))


def choose_wings(w: Work[Any], claims: Mapping[str, Sequence[str]]) -> None:
    """The choice of wings before the first turn [9.5]: ``claims`` maps each seat to the squadrons naming
    the formations it asked for, in the order written (see :func:`deal`); each seat is told what it got
    and every seat what its allies command."""
    air = w.data
    wings = list(scenario(air.state.scenario).get("wings", ()))
    squadrons = tuple(air.squadrons.values())
    for side in SIDES:
        seats = list(air.state.seats_of(side))
        if len(seats) < 2:
            continue
        groups = formations(side, squadrons, wings)
        index = {m: i for i, g in enumerate(groups) for m in g}
        asked = {seat: list(dict.fromkeys(index[m] for m in claims.get(seat, ()) if m in index)) for seat in seats}
        refused: list[tuple[str, int, str]] = []
        held = deal(groups, seats, asked, refused)
        for seat, i, taker in refused:
            w.say(f"{formation_name(groups[i], wings)} was claimed by {taker} first: not yours (9.5)",
                  to=(seat,), kind="wings")
        for seat in seats:
            for i in held[seat]:
                for m in groups[i]:
                    air.put(air.squadron(m).move(seat=seat))
            w.say(f"{seat} commands " + "; ".join(formation_name(groups[i], wings) for i in held[seat]) + " (9.5)",
                  to=[x.name for x in w.seats if x.side == side], kind="wings", seat=seat,
                  squadrons=[m for i in held[seat] for m in groups[i]])


def wings_form(state: Any, seat: str, wings: Sequence[Mapping[str, Any]]) -> list[str]:
    """The order form of the choice of wings: the side's formations and who commands each now."""
    side = side_of(seat)
    groups = formations(side, state.squadrons, wings)
    if len({owner(s) for s in state.of_side(side)}) < 2:
        return ["# Your side has one player: its wings are all yours. The other side's players are choosing",
                "# theirs (9.5); the first Tally Phase comes next."]
    lines = ["# Choose your wings (9.5): WINGS <squadron> ... names the formation of each squadron given,",
             "# in order of preference; the seats' claims are granted seat 1 first; on silence you keep",
             "# what is marked below (the round-robin of the scenario's order)."]
    for group in groups:
        now = owner(state.squadron(group[0]))
        lines.append(f"#   {formation_name(group, wings)}: {'yours' if now == seat else now}")
    mine = [g[0] for g in groups if owner(state.squadron(g[0])) == seat]
    return lines + [f"WINGS {' '.join(mine)}"] if mine else lines
