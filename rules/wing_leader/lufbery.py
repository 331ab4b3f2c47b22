"""The Lufbery circle [13.4.3]: fighters circling to guard one another's tails.

An alert, unbroken fighter squadron may enter or leave a Lufbery circle as it moves, for 2 MP [8.3].  It turns
to a horizontal facing and, while in the circle, circles [8.3.1] and has no "ahead" or "behind" [8.1.2].  It may
not enter when it shares its square with an enemy squadron (at the start of its move: our reading, as it then
circles in place), when it returns to base [9.2.6], nor as a single aircraft [13.6] (the 13.6 reading: a squadron
one loss short of its maximum too).  An escort entering becomes a Sweep [9.2.2] and is not marked Escort again
while in the circle.  It leaves at once, with no MP, when it attacks in a combat (before the rolls), when it is
broken, or when it takes part in a dogfight.  Defending in the circle it cannot be bounced [13.4.1], nor evade
(13.4.2 names the circle among its exclusions), must decline a dogfight [10.8] and has a modifier to its roll
(the value is on the lost chart: placeholder ``[advanced_combat] lufbery_defence``).

Orders: the standing order ``LUFBERY <sq> YES|NO|ASK`` says whether the squadron is to be in the circle (NO by
default).  It is acted on at the squadron's turn to move: YES enters when it may (or keeps circling), NO leaves
a circle it is in (2 MP, then it flies on with the rest); ASK stops the Movement Phase at its turn to move and
asks its commander, who sees where every squadron that moved before it now is (the decision the rule gives the
owner as it moves).
"""
from __future__ import annotations

from collections.abc import Callable

from .model import Squadron, State, max_losses
from .sky import HEADINGS
from .tables import tables
from .weapons import single_aircraft

#: What entering or leaving the circle costs [13.4.3, 8.3].
COST = 2


def in_circle(sq: Squadron) -> bool:
    """Whether a squadron is in a Lufbery circle now: the marker, and neither broken nor in a dogfight (either
    takes it out at once, 13.4.3)."""
    return sq.lufbery and not sq.broken and not sq.dogfight


def enter_problem(state: State, sq: Squadron, everyone: list[Squadron]) -> str | None:
    """Why ``sq`` may not enter a Lufbery circle now, or None [13.4.3]."""
    if not state.uses("13.4.3"):
        return "this scenario does not use the Lufbery circle"
    if not sq.fighter or sq.mission == "rtb":
        return f"{sq.id} is {'returning to base' if sq.mission == 'rtb' else 'no fighter'}: it cannot enter a Lufbery circle"
    if not sq.alert or sq.broken:
        return f"{sq.id} is {'broken' if sq.broken else 'unalert'}: only an alert, unbroken fighter enters a Lufbery circle"
    if single_aircraft(state, sq, max_losses(state.scenario, sq)):
        return f"{sq.id} is a single aircraft (13.6): it cannot enter a Lufbery circle"
    if any(e.side != sq.side and e.on_map and e.at == sq.at for e in everyone):
        return f"{sq.id} shares its square with an enemy squadron: it cannot enter a Lufbery circle"
    return None


def horizontal(heading: int) -> int:
    """The horizontal facing a squadron entering the circle turns to: east or west, whichever its heading is
    nearer (east for a squadron heading straight up or down)."""
    return HEADINGS.index("W") if HEADINGS[heading] in ("W", "NW", "SW") else HEADINGS.index("E")


def enter(sq: Squadron) -> Squadron:
    """The squadron in the circle: a horizontal facing, the marker, an escort turned Sweep [13.4.3, 9.2.2]."""
    return sq.move(heading=horizontal(sq.heading), lufbery=True).unescort()


def defence_modifier(state: State, dlead: Squadron) -> int:
    """The modifier to the defending lead's Air Combat Table roll when it defends in a circle (placeholder)."""
    if not (state.uses("13.4.3") and in_circle(dlead)):
        return 0
    return int(tables()["advanced_combat"]["lufbery_defence"])


def form_lines(state: State, sq: Squadron, everyone: list[Squadron]) -> list[str]:
    """What the order form says of a fighter's Lufbery circle [13.4.3]."""
    if not state.uses("13.4.3") or not sq.on_map or not sq.fighter:
        return []
    if in_circle(sq):
        return [f"#   in a Lufbery circle: it circles (no bounce, {defence_modifier(state, sq):+d} defending, no "
                f"dogfight); LUFBERY {sq.id} NO leaves it for 2 MP (13.4.3)"]
    why = enter_problem(state, sq, everyone)
    if why:
        return [f"#   Lufbery circle (13.4.3): not now: {why}"]
    return [f"#   LUFBERY {sq.id} YES|ASK: it enters a Lufbery circle at its turn to move for 2 MP (ASK: you are "
            f"asked then) (13.4.3)"]


def bot_lines(state: State, squadrons: list[Squadron], roll: Callable[[int, str], int]) -> list[str]:
    """The bot's Lufbery circles: now and then a fighter is told to circle, to be asked, or to leave."""
    if not state.uses("13.4.3"):
        return []
    lines = []
    for s in squadrons:
        if s.on_map and s.fighter and roll(6, "bot lufbery") == 1:
            choice = ("YES", "ASK", "NO")[roll(3, "bot lufbery") - 1]
            if choice == "NO" or enter_problem(state, s.move(alert=True, broken=False), []) is None:
                lines.append(f"LUFBERY {s.id} {choice}")
    return lines
