"""The Me 163 rocket fighter [13.8.2]: its power settings and its fuel.

An Me 163 (card ability ``rocket``) flies only in flights.  Each flight has 10 fuel points and chooses a power
setting every turn: full (2 fuel: 4 MP, the speed and turn before the slash, high speed, every level climbed
1 MP — the "r" by its Climb), half (1 fuel: 3 MP, the values after the slash, climbs as usual) or minimum (no
fuel: 2 MP, Slow — speed and turn 0 —, never climbing, and down at least one level every Movement Phase; a
flight that comes down to altitude 0 is removed, every aircraft lost).  Once a flight chooses minimum power it
keeps it for the rest of the game; a flight short of fuel for the setting it wants takes the best it can
afford.  The descent bonus (8.2) comes on top.

The choice is the standing order ``POWER <sq> FULL|HALF|MINIMUM`` (full by default), applied as each Movement
Phase opens; it is the flight's choice for every turn until changed.  Fuel is public here: it follows from the
settings every player sees flown.
"""
from __future__ import annotations

from collections.abc import Callable

from pbem.core.errors import RulesetDefinitionError

from .model import DESTROYED, DIVE, Squadron, State, max_losses
from .tables import card, tables

FULL, HALF, MINIMUM = "full", "half", "minimum"
MODES = (FULL, HALF, MINIMUM)


def rocket(sq: Squadron) -> bool:
    """Whether the squadron's aircraft is a rocket fighter (card ability ``rocket``) [13.8]."""
    return "rocket" in card(sq.model)["abilities"]


def fitted(sq: Squadron, uses: Callable[[str], bool]) -> Squadron:
    """An Me 163 at setup: a flight with 10 fuel points at full power [13.8.2].

    :raises RulesetDefinitionError: the scenario does not list 13.8.2, or the Me 163 is not a flight.
    """
    if not rocket(sq):
        return sq
    if not uses("13.8.2"):
        raise RulesetDefinitionError(f"squadron {sq.id}: a {card(sq.model)['name']} needs advanced rule 13.8.2 "
                                     "in the scenario's list")
    if not sq.flight:
        raise RulesetDefinitionError(f"squadron {sq.id}: the {card(sq.model)['name']} flies only in flights (13.8.2)")
    return sq.move(fuel=int(tables()["rocket_fighter"]["fuel"]), power=FULL)


def cost(mode: str) -> int:
    return int(tables()["rocket_fighter"]["cost"][mode])


def movement_points(mode: str) -> int:
    """The Movement Points of a power setting, before the descent bonus [13.8.2]."""
    return int(tables()["rocket_fighter"]["mp"][mode])


def mode_problem(sq: Squadron, mode: str) -> str | None:
    """Why ``sq`` may not choose ``mode`` now, or None [13.8.2]."""
    if not sq.power:
        return f"{sq.id} is no Me 163 flight: only rocket fighters choose a power setting"
    if mode == MINIMUM:
        return None
    if sq.power == MINIMUM:
        return f"{sq.id} chose minimum power: half and full power are closed for the rest of the game"
    if sq.fuel < cost(mode):
        left = [m.upper() for m in MODES if m != mode and (m == MINIMUM or sq.fuel >= cost(m))]
        return (f"{mode} power needs {cost(mode)} fuel and {sq.id} has {sq.fuel}: it may choose "
                f"{' or '.join(left)}")
    return None


def chosen(sq: Squadron, wanted: str) -> str:
    """The setting a flight flies this turn: the one wanted when it may, else the best it can [13.8.2]."""
    for mode in MODES[MODES.index(wanted):]:
        if mode_problem(sq, mode) is None:
            return mode
    return MINIMUM


def set_power(sq: Squadron, wanted: str, took_off: bool = False) -> tuple[Squadron, str]:
    """The flight with this turn's setting and its fuel paid (none in the turn it takes off), and the line
    that tells it [13.8.2]."""
    mode = chosen(sq, wanted)
    fuel = sq.fuel if took_off else sq.fuel - cost(mode)
    why = "" if mode == wanted else f" ({wanted} is not open to it)"
    effects = {FULL: "4 MP, high speed", HALF: "3 MP", MINIMUM: "2 MP, Slow, it must come down a level"}[mode]
    text = f"{sq.id} flies at {mode} power{why}: {effects}; fuel {fuel} left (13.8.2)"
    return sq.move(power=mode, fuel=fuel), text


def climb_cost(sq: Squadron, usual: float) -> float:
    """What a level climbed costs an Me 163: 1 MP at full power with the "r" Climb, else the usual [13.8.2].

    :raises ValueError: at minimum power it cannot climb.
    """
    if sq.power == MINIMUM:
        raise ValueError("at minimum power an Me 163 cannot climb")
    return 1.0 if sq.power == FULL and card(sq.model).get("rocket_climb") else usual


def descent_problem(start: Squadron, path_end_altitude: int) -> str | None:
    """A move at minimum power must come down at least one level [13.8.2]."""
    if start.power == MINIMUM and path_end_altitude >= start.at[1]:
        return f"{start.id} is at minimum power and must come down at least one altitude this turn"
    return None


def after_move(state: State, start: Squadron, moved: Squadron) -> tuple[Squadron, str]:
    """An Me 163 at minimum power that did not come down sinks one level straight down at the end of its move
    (our reading: the rule's "must" is carried out by the game, not refused, when a mission's move stays
    level); one that reaches altitude 0 is removed, all its aircraft lost [13.8.2].  The flight as it is then,
    and what to tell ("" when nothing happened)."""
    if moved.power != MINIMUM or not moved.on_map:
        return moved, ""
    text = ""
    if moved.at[1] >= start.at[1] and moved.at[1] > 0:
        moved = moved.move(at=(moved.at[0], moved.at[1] - 1), marker=DIVE)
        text = f"{moved.id} at minimum power sinks one altitude (13.8.2)"
    if moved.at[1] == 0:
        lost = max_losses(state.scenario, moved)
        moved = moved.move(status=DESTROYED, losses=lost, tally="", dogfight=False)
        text = (text + "; " if text else "") + f"{moved.id} comes down to altitude 0 without fuel: removed, " \
                                                f"every aircraft lost (13.8.2)"
    return moved, text


def form_lines(sq: Squadron) -> list[str]:
    """The order form's lines for an Me 163 flight [13.8.2]."""
    if not sq.power or not sq.on_map:
        return []
    if sq.power == MINIMUM:
        return ["#   Me 163 at minimum power for good (2 MP, Slow, no climbing, down a level every turn; at "
                "altitude 0 it is lost) (13.8.2)"]
    open_ = [m.upper() for m in MODES if mode_problem(sq, m) is None]
    return [f"#   Me 163: fuel {sq.fuel}, {sq.power} power last; POWER {sq.id} {'|'.join(open_)} is its setting as "
            f"each Movement Phase opens, this one too (FULL 2 fuel 4 MP high speed, the default; HALF 1 fuel 3 MP; "
            f"MINIMUM no fuel 2 MP, and for good; 13.8.2)"]


def bot_lines(seat_squadrons: list[Squadron], roll: Callable[[int, str], int]) -> list[str]:
    """The bot's power settings: now and then half power to save fuel, full otherwise [13.8.2]."""
    lines = []
    for s in seat_squadrons:
        if s.on_map and s.power and s.power != MINIMUM:
            want = HALF if roll(3, "bot power") == 1 else FULL
            lines.append(f"POWER {s.id} {chosen(s, want).upper()}")
    return lines
