"""Mission rules checked outside movement: where escorts may start [5.3, 9.2.2]."""
from __future__ import annotations

from collections.abc import Sequence

from .model import Squadron
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
