"""Situational awareness [7]: who may tally whom, the tally roll and its modifiers, keeping a tally.

A tally roll succeeds when 1d6 plus its modifiers is greater than the distance [7.2.1].
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Squadron, State
from .sky import Sky, behind, distance
from .tables import card, tables


@dataclass(frozen=True)
class Modifier:
    why: str
    value: int


def may_tally(sq: Squadron, state: State | None = None) -> str | None:
    """Why ``sq`` may not roll to tally this phase, or None [7.2]: fighters only, on the map, not broken,
    not already tallying.  Where the scenario uses 15.2.4 (``state`` given) a loaded fighter-bomber may roll too;
    tallying, it must jettison its load (9.2.1.1)."""
    if not sq.on_map:
        return f"{sq.id} is not on the map"
    if not sq.fighter and not (state is not None and fighter_bomber_rolls(state, sq)):
        return f"{sq.id} is a bomber by mission and may not tally (3.2.1, 7.2)"
    if sq.broken:
        return f"{sq.id} is broken and may not tally (10.7.1)"
    if sq.dogfight:
        return f"{sq.id} is in a dogfight (7.2, 10.8.1)"
    if sq.tally:
        return f"{sq.id} already tallies {sq.tally}; DROP it first (7.2.2)"
    return None


def fighter_bomber_rolls(state: State, sq: Squadron) -> bool:
    """A fighter carrying its bomb load on the Bombing mission may roll to tally under 15.2.4 (a recon fighter,
    15.2.1.2, carries none and may not)."""
    return (state.uses("15.2.4") and sq.mission == "bombing" and bool(sq.bombs)
            and card(sq.model)["class"] == "fighter")


def target_problem(state: State, sq: Squadron, target: Squadron) -> str | None:
    """Why ``target`` is not a legal tally target for ``sq``, or None [7.2]: an enemy on the map, within
    9 squares, in sight; in a square with an unbroken enemy only enemies in that square."""
    if target.side == sq.side:
        return f"{target.id} is on your side"
    if not target.on_map:
        return f"{target.id} is not on the map"
    limit = tables()["map"]["tally_range"]
    if distance(sq.at, target.at) > limit:
        return f"{target.id} is {distance(sq.at, target.at)} squares away; a tally reaches {limit}"
    if state.sky.sight(sq.at, target.at).blocked:
        return f"clouds block the line of sight from {sq.id} to {target.id} (4.6.1)"
    engaged = [e for e in state.squadrons if e.side != sq.side and e.on_map and not e.broken and e.at == sq.at]
    if engaged and target.at != sq.at:
        return f"{sq.id} shares its square with an enemy and may tally only enemies in that square"
    return None


def modifiers(sky: Sky, sq: Squadron, target: Squadron) -> list[Modifier]:
    """The tally modifiers [7.2.1]: target behind -2 unless Rear View (example 7.2.2), weather on the line
    of sight (worst only, 4.7), target up-sun (placeholder value, GAP-1)."""
    t = tables()["tally_modifiers"]
    found = []
    circling = sq.lufbery and not sq.broken and not sq.dogfight   # no ahead or behind in a Lufbery circle [13.4.3]
    if not circling and behind(sq.heading, sq.at, target.at) and "rear_view" not in card(sq.model)["abilities"]:
        found.append(Modifier("target behind", t["behind"]["value"]))
    weather = sky.sight(sq.at, target.at).weather
    if weather:
        found.append(Modifier("weather on the line of sight", -weather))
    if sky.up_sun(sq.at, target.at):
        found.append(Modifier("target up-sun", t["up_sun"]))
    return found


def needed(sky: Sky, sq: Squadron, target: Squadron, extra: Sequence[Modifier] = ()) -> int:
    """The lowest die roll that tallies: the smallest d6 with d6 + modifiers > distance (7 = impossible);
    ``extra`` are the radio bonuses (radio.py)."""
    total = sum(m.value for m in [*modifiers(sky, sq, target), *extra])
    return max(1, distance(sq.at, target.at) + 1 - total)


def succeeds(roll: int, mods: Sequence[Modifier], dist: int) -> bool:
    """The tally roll [7.2.1]: tallied when the modified roll is greater than the distance."""
    return roll + sum(m.value for m in mods) > dist


def kept(state: State, sq: Squadron) -> str | None:
    """Why a tally is lost as the Tally Phase opens, or None [7.2.2]: the target left the map, is out of
    sight or beyond 9 squares, or the tallying squadron is broken (AMB-13: checked at the phase's start)."""
    target = state.squadron(sq.tally)
    if not target.on_map:
        return f"{target.id} has left the map"
    if sq.broken:
        return f"{sq.id} is broken"
    if distance(sq.at, target.at) > tables()["map"]["tally_range"]:
        return f"{target.id} is more than {tables()['map']['tally_range']} squares away"
    if state.sky.sight(sq.at, target.at).blocked:
        return f"clouds hide {target.id}"
    return None
