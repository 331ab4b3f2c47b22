"""What the sitrep adds to a seat's view: for each of the seat's units on the map, the enemies it has
line of sight to within long range (L84-L90), with the range band, the defence the enemy would use against it (front or rear, and
the value after Disrupted/Damaged) and, when it could attack now, the dice, the modifier per die and
P(0/1/2/3 hits).  Computed from the view alone, so in fog it knows only what the view shows."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.hexgrid import distance

from . import combat
from .board import board, hex_name
from .los import aircraft_front, clear, enfilade
from .parsers import attack_problem, units_of
from .tables import AIRCRAFT


def sights(view: Mapping[str, Any], seat: str) -> list[dict[str, Any]]:
    """One row per (own unit on the map, enemy in its line of sight within long range), in the view's order."""
    if view["step"] == "deploy":
        return []  # set-up: nothing is fought yet, and in fog no enemy is in the view
    units = units_of(view)
    side = view.get("side", seat)  # with two players a side the seat is "<side>-<n>"; its allies are friends
    friends = [u for u in units if u.side == side]
    m = board(view["map"])
    rows = []
    for unit in friends:
        if unit.stats.kind == AIRCRAFT:
            continue  # an aircraft attacks only by its air strike, from the hex it is placed in
        for target in units:
            band = combat.band(unit.hex, target.hex)
            if target.side == side or band is None or not clear(m, unit.hex, target.hex, strict=view["strict"]):
                continue
            side = combat.facing_defence(target, unit.hex, advanced=view["advanced"])
            row: dict[str, Any] = {"unit": unit.id, "target": target.id, "name": target.stats.name,
                                   "hex": hex_name(target.hex), "hexes": distance(unit.hex, target.hex),
                                   "band": band,
                                   "defence": side, "value": combat.defence(target, side), "dice": 0,
                                   "modifier": 0, "chances": "", "why_not": ""}
            problem = attack_problem(view, unit, target)
            if problem is not None:
                row["why_not"] = problem
            else:
                mod = combat.die_modifier(unit, target, enfilade=enfilade(unit, target, friends, advanced=view["advanced"]),
                                          aircraft_front=aircraft_front(target, unit.hex))
                dice = unit.stats.dice(target.stats.kind, band)
                row.update(dice=dice, modifier=mod,
                           chances="/".join(f"{p:.2f}" for p in combat.hit_chances(dice, mod, row["value"])))
            rows.append(row)
    return rows


def with_sights(view: Callable[[Any, str], dict[str, Any]]) -> Callable[[Any, str], dict[str, Any]]:
    """The ruleset's view with ``in_sight`` (:func:`sights`) added."""
    def seen(state: Any, seat: str) -> dict[str, Any]:
        v = view(state, seat)
        return dict(v, in_sight=sights(v, seat))
    return seen
