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
    ``escort_again = any``: any Sweep squadron of the side); never one in a Lufbery circle [13.4.3]."""
    return sq.mission == "sweep" and not sq.lufbery and \
        (sq.former_escort or state.option("escort_again", "former") == "any")


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


def bomber_formation(state: State, bomber: Squadron) -> set[str]:
    """The bomber formation holding ``bomber`` (itself included): the bombers of its side on the map linked to it
    by a chain of same or adjacent squares with the same heading [9.1, 9.2.2]."""
    bombers = [s for s in state.squadrons if s.side == bomber.side and s.on_map and not s.fighter]
    found, todo = {bomber.id}, [bomber]
    while todo:
        cur = todo.pop()
        for b in bombers:
            if b.id not in found and b.heading == cur.heading and distance(b.at, cur.at) <= 1:
                found.add(b.id)
                todo.append(b)
    return found


def escorts_going_home(state: State, bomber: Squadron) -> list[Squadron]:
    """The escorts that must return to base when ``bomber`` (still on the map in ``state``) escapes [9.2.2]:
    none while another bomber of its formation stays; else the escorts of that formation, read as the escorts
    within 3 squares of one of its bombers (the escort distance: the scenario's pairing of escorts with bombers
    is lost), except those still within 3 squares of another bomber of their side, which they go on escorting.
    Option ``escorts_home = side``: the escorts go home only when no bomber of the side is left on the map."""
    if bomber.fighter:
        return []
    escorts = [e for e in state.squadrons if e.side == bomber.side and e.on_map and e.mission == "escort"]
    others = [b for b in state.squadrons if b.side == bomber.side and b.on_map and not b.fighter and b.id != bomber.id]
    if state.option("escorts_home", "formation") == "side":
        return [] if others else escorts
    formation = bomber_formation(state, bomber)
    if any(b.id in formation for b in others):
        return []
    gone = [b for b in state.squadrons if b.id in formation]
    return [e for e in escorts if any(distance(e.at, b.at) <= 3 for b in gone)
            and not any(distance(e.at, b.at) <= 3 for b in others)]
