"""Mission rules checked outside movement: where escorts may start [5.3, 9.2.2]."""
from __future__ import annotations

from collections.abc import Sequence

from .escape import available
from .model import Squadron, State
from .sky import HEADINGS, distance


def escort_setup_problem(escort: Squadron, bombers: Sequence[Squadron]) -> str | None:
    """An escort starts within 3 squares of a bomber with the same heading, no more than one altitude below
    the lowest bombers, and not ahead of the lead bomber [5.3 step 5, 9.2.2]; "ahead" is read as further
    along the direction of flight than the lead bomber's column (AMB-27)."""
    if not bombers:
        return f"escort {escort.id} has no bombers to escort"
    if not any(distance(escort.at, b.at) <= 3 and b.heading == escort.heading for b in bombers):
        return f"escort {escort.id} is not within 3 squares of a bomber with its heading"
    if escort.at[1] < min(b.at[1] for b in bombers) - 1:
        return f"escort {escort.id} is more than one altitude below the bombers"
    forward = 1 if HEADINGS[escort.heading] in ("E", "NE", "SE") else -1
    lead = max(b.at[0] * forward for b in bombers)
    if escort.at[0] * forward > lead:
        return f"escort {escort.id} is ahead of the lead bomber"
    return None


def may_escort_again(state: State, sq: Squadron) -> bool:
    """Which Sweep squadrons the Administrative Phase may mark Escort [9.2.2]: former escorts only (option
    ``escort_again = any``: any Sweep squadron of the side)."""
    return sq.mission == "sweep" and (sq.former_escort or state.option("escort_again", "former") == "any")


def rejoin_problem(state: State, sq: Squadron) -> str | None:
    """Why a squadron may not be marked Escort, or None [9.2.2]: a former escort now on Sweep (or any Sweep,
    by option), Available and tallying nobody, within 3 squares of a bomber of its side with the same heading
    and no more than one altitude below the lowest."""
    if not may_escort_again(state, sq):
        return f"{sq.id} is not a former escort on Sweep"
    if sq.tally or not available(state, sq):
        return f"{sq.id} tallies an enemy or is not Available"
    bombers = [b for b in state.of_side(sq.side) if b.on_map and b.mission == "bombing"]
    near = [b for b in bombers if distance(sq.at, b.at) <= 3 and b.heading == sq.heading]
    if not near:
        return f"{sq.id} is not within 3 squares of a bomber with its heading"
    if sq.at[1] < min(b.at[1] for b in bombers) - 1:
        return f"{sq.id} is more than one altitude below the bombers"
    return None
