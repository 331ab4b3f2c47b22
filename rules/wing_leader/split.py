"""Splitting a squadron into two flights [9.3, 9.3.1, 9.3.2].

The flights are named after the squadron with 1 and 2.  The owner's choices come with the SPLIT order (LOSSES,
STRAGGLER, EXPERTE, LEADER, TALLY); unsaid, losses are shared as evenly as possible (the first flight the larger
share), and the straggler, the Experte, the Wing Leader marker and the tally go with the first flight.  An
enemy's tally on the squadron stays on the flight the tallying side's standing order KEEP names.

The counter mix is lost (GAP-9): option ``flight_counters`` (``unlimited`` by default) may limit the flight
counters of each aircraft model a side has, so that a split needs two free ones [9.3].
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import ENTERING, ON, WAITING, Squadron, State


def may_split(sq: Squadron, tallied_now: bool, ordered: bool, flexible: bool, flight_max: int,
              choice: Choice | None = None, count: str = "together", reacted: bool = False) -> str | None:
    """Why ``sq`` may not split now, or None [9.3]: only an undisrupted, unbroken squadron (not a flight)
    ordered by its Wing Leader, or of a side with tactical flexibility that tallied this phase or reacted
    [9.3.2, 10.4.2 option 2]; the flights' losses and stragglers may not exceed a flight's Max Losses (AMB-21)."""
    if sq.flight:
        return f"{sq.id} is a flight; flights never split"
    if sq.disruption or sq.broken:
        return f"{sq.id} is disrupted or broken"
    if not (ordered or (flexible and (tallied_now or reacted))):
        return (f"{sq.id} splits only when its Wing Leader ordered it or, with tactical flexibility, "
                f"in a Tally Phase in which it tallied")
    return fit_problem(sq, choice or Choice(), flight_max, count)


@dataclass(frozen=True)
class Choice:
    """The owner's choices in a split [9.3.1]: the first flight's losses (None: the larger even share) and the
    flight (1 or 2) taking the straggler, the Experte, the tally and the Wing Leader marker."""

    losses: int | None = None
    straggler: int = 1
    experte: int = 1
    tally: int = 1
    leader: int = 1


def fit_problem(sq: Squadron, choice: Choice, flight_max: int, count: str = "together") -> str | None:
    """Why the chosen shares do not fit, or None [9.3.1]: losses and a straggler together (option
    ``split_count = losses``: the losses alone) may not exceed a flight's Max Losses in either flight."""
    first, second = _shares(sq, choice)
    if first < 0 or second < 0:
        return f"{sq.id} has {sq.losses} losses to share, not {choice.losses} for its first flight"
    together = count == "together"
    first += together and sq.straggler and choice.straggler == 1
    second += together and sq.straggler and choice.straggler == 2
    if first > flight_max or second > flight_max:
        counting = ", a straggler counting" if together else ""
        return f"{sq.id}'s losses do not fit in two flights (at most {flight_max} a flight{counting})"
    return None


def _shares(sq: Squadron, choice: Choice) -> tuple[int, int]:
    first = (sq.losses + 1) // 2 if choice.losses is None else choice.losses
    return first, sq.losses - first


def split(sq: Squadron, choice: Choice | None = None) -> tuple[Squadron, Squadron]:
    """The two flights [9.3.1]: same quality, ammunition, loads and net; losses, the straggler, the Experte
    and the tally as the owner chose (by default all with the first flight); an escort's flight with the tally
    becomes a Sweep, the other stays Escort; an Intercept's other flight flies on toward the vector."""
    choice = choice or Choice()
    losses = _shares(sq, choice)
    flights = []
    for n in (1, 2):
        flight = sq.move(id=f"{sq.id}{n}", flight=True, losses=losses[n - 1],
                         straggler=sq.straggler and choice.straggler == n, experte=sq.experte and choice.experte == n,
                         tally=sq.tally if choice.tally == n else "", wing_leader=n == 2 and choice.leader == 2)
        flights.append(flight.unescort() if flight.tally and sq.mission == "escort" else flight)
    return flights[0], flights[1]


#: Option ``flight_counters``: how many flight counters of each aircraft model a side has (GAP-9).
FLIGHT_COUNTERS = ("unlimited", "2", "4")


def counters_problem(state: State, sq: Squadron) -> str | None:
    """Why the counter mix leaves no two flight counters for ``sq``'s split, or None [9.3, GAP-9]: under option
    ``flight_counters = <n>`` a side has n flight counters of each model, and the flights of that model it has
    in play (on the map or still to fly in) hold theirs."""
    limit = state.option("flight_counters", "unlimited")
    if limit == "unlimited":
        return None
    held = sum(1 for s in state.of_side(sq.side)
               if s.flight and s.model == sq.model and s.status in (ON, WAITING, ENTERING))
    if held + 2 > int(limit):
        return (f"{sq.id} cannot split: its side has {limit} flight counters of its aircraft and {held} are in play "
                f"(the counter mix, option flight_counters)")
    return None


def leader_choice(leads: bool, experte: bool, chosen: dict[str, int]) -> tuple[int, int]:
    """The flights taking the Experte and the Wing Leader marker [9.3.1, 5.2.1]: a leader's squadron holding an
    Experte carries one flipped marker, so both go to the same flight (the one named; by default the first).

    :raises ValueError: LEADER without the marker, or the one marker sent to two flights."""
    if "LEADER" in chosen and not leads:
        raise ValueError("it carries no Wing Leader marker to give a flight (9.3.1)")
    if leads and experte:
        named = {chosen[k] for k in ("EXPERTE", "LEADER") if k in chosen}
        if len(named) > 1:
            raise ValueError("its Experte and Wing Leader are one flipped marker and go to one flight (5.2.1)")
        one = named.pop() if named else 1
        return one, one
    return chosen.get("EXPERTE", 1), chosen.get("LEADER", 1)
