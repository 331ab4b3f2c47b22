"""Advanced rules of the squadron's equipment and state [13.2, 13.3, 13.5.5, 13.6]: drop tanks, the fuel
limit, USAAF heavy bomber groups and single aircraft.

Each acts only when the scenario lists it (``State.uses``); the basic scenarios list none.  The scenario's
squadron rows say ``drop_tanks = true``, ``fuel_limit = true``, ``group = "<name>"`` and ``single = true``;
setup (:func:`fitted`) refuses them where the rule is off or the aircraft cannot (13.2: the card's Drop Tanks
ability).  Values of the lost chart are placeholders in ``tables.toml`` ``[advanced_combat]``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import RulesetDefinitionError

from . import rocket_fighter
from .model import Squadron, State
from .tables import card, tables

#: A scenario row's key, the rule it needs.
FLAGS = {"drop_tanks": "13.2", "fuel_limit": "13.3", "group": "13.5.5", "single": "13.6", "rockets": "13.5.3",
         "gyro": "13.5.4", "gun_pod": "13.5.6"}
#: A scenario row's ``gun_pod``, the card ability it needs [13.5.6].
PODS = {"gun": ("gun_pod", "Gun Pod"), "at": ("at_pod", "AT Pod")}
#: A scenario row's equipment, the card ability it needs.
ABILITY = {"drop_tanks": ("Drop Tanks", "13.2"), "rockets": ("Air-to-Air Rockets", "13.5.3"), "gyro": ("Gyro", "13.5.4")}


def fitted(sq: Squadron, row: Mapping[str, Any], scenario: Mapping[str, Any], uses: Any) -> Squadron:
    """A scenario squadron as its row equips it: drop tanks [13.2], Low Ammo at the fuel limit (spared with
    drop tanks when the scenario's ``fuel_limit_spares_tanks`` says so) [13.3], its heavy bomber group
    [13.5.5], a single aircraft [13.6].  ``uses(rule)`` tells whether the scenario lists the rule.

    :raises RulesetDefinitionError: a flag whose rule the scenario does not list, or drop tanks on an
        aircraft without the ability.
    """
    for key, rule in FLAGS.items():
        if row.get(key) and not uses(rule):
            raise RulesetDefinitionError(f"squadron {sq.id}: '{key}' needs advanced rule {rule} in the scenario's list")
    abilities = {"rockets": "air_rockets"}
    for key, (what, rule) in ABILITY.items():
        if row.get(key) and abilities.get(key, key) not in card(sq.model)["abilities"]:
            raise RulesetDefinitionError(f"squadron {sq.id}: a {card(sq.model)['name']} has no {what} ({rule})")
    if row.get("rockets") and sq.bombs:
        raise RulesetDefinitionError(f"squadron {sq.id}: air-to-air rockets and a bomb load exclude each other (13.5.1)")
    pod = _pod(sq, row)
    tanks = bool(row.get("drop_tanks"))
    short = bool(row.get("fuel_limit")) and not (tanks and scenario.get("fuel_limit_spares_tanks", False))
    return sq.move(drop_tanks=tanks, ammo=max(sq.ammo, 1) if short else sq.ammo,
                   group=str(row.get("group", "")), single=bool(row.get("single")),
                   rockets=1 if row.get("rockets") else 0, gyro=bool(row.get("gyro")), gun_pod=pod)


def _pod(sq: Squadron, row: Mapping[str, Any]) -> str:
    """The gun pod a scenario row fits, "gun" or "at" [13.5.6]: the card must have the ability, and a pod
    excludes a bomb load and air-to-air rockets (13.5.1).  The scenario's row stands for the owner's choice
    before the game (as rockets' does)."""
    pod = str(row.get("gun_pod", "") or "")
    if not pod:
        return ""
    if pod not in PODS:
        raise RulesetDefinitionError(f"squadron {sq.id}: gun_pod is 'gun' or 'at', not {pod!r} (13.5.6)")
    ability, what = PODS[pod]
    if ability not in card(sq.model)["abilities"]:
        raise RulesetDefinitionError(f"squadron {sq.id}: a {card(sq.model)['name']} has no {what} (13.5.6)")
    if sq.bombs or row.get("rockets"):
        raise RulesetDefinitionError(f"squadron {sq.id}: a {what} excludes a bomb load and air-to-air rockets (13.5.1)")
    return pod


def pod_firepower(sq: Squadron) -> int:
    """A gun pod's or an AT pod's +1 to air-combat firepower, on the value before the slash [13.5.6]."""
    return 1 if sq.gun_pod and sq.fighter else 0


def pod_strafing(sq: Squadron, target_kind: str) -> int:
    """A pod's increase of firepower in a strafing attack [13.5.6, 15.3.7]: a Gun Pod +1; an AT Pod +2, or +4
    against a tank, truck, train or ship (our reading: the +4 is the AT pod's alone).  Added to the firepower
    before any halving (15.4)."""
    if sq.gun_pod == "gun":
        return 1
    if sq.gun_pod == "at":
        return 4 if target_kind in ("tank", "truck", "train", "ship") else 2
    return 0


def jettison_problem(sq: Squadron) -> str | None:
    """Whether a squadron may drop its tanks while it moves: only alert [13.2]."""
    if not sq.drop_tanks:
        return f"{sq.id} carries no drop tanks"
    return None if sq.alert else f"{sq.id} is unalert: drop tanks are jettisoned in movement only when alert"


def group_bonus(state: State, squadrons: Sequence[Squadron], everyone: Sequence[Squadron]) -> dict[str, int]:
    """Defence bonus of USAAF heavy bomber groups [13.5.5]: a squadron of a group whose two squadrons are in one
    square and both unbroken defends at +1, whether or not the other takes part in the combat."""
    if not state.uses("13.5.5"):
        return {}
    bonus = int(tables()["advanced_combat"]["bomber_group_defence"])
    found = {}
    for sq in squadrons:
        mates = [o for o in everyone if sq.group and o.group == sq.group and o.side == sq.side and o.on_map
                 and o.at == sq.at]
        if len(mates) >= 2 and not any(m.broken for m in mates):
            found[sq.id] = bonus
    return found


def single_aircraft(state: State, sq: Squadron, max_losses: int) -> bool:
    """A single aircraft [13.6]: the scenario says so, or the squadron has taken one loss less than its
    maximum (our reading: it then fights as one, its maximum unchanged)."""
    return state.uses("13.6") and (sq.single or sq.losses == max_losses - 1)


def combat_penalty(state: State, sq: Squadron, max_losses: int) -> int:
    """What a single aircraft loses from its combat speed and turn [13.6] (0 when it is not one)."""
    return int(tables()["advanced_combat"]["single_aircraft"]) if single_aircraft(state, sq, max_losses) else 0


def equipment(sq: Squadron) -> str:
    """The advanced markers on a squadron's Wing Display box, for views and sitreps ("" when none)."""
    return ", ".join(x for x in ("drop tanks (13.2)" if sq.drop_tanks else "",
                                 f"group {sq.group} (13.5.5)" if sq.group else "",
                                 "single aircraft (13.6)" if sq.single else "",
                                 ("", "rockets (13.5.3)", "rockets expended (13.5.3)")[sq.rockets],
                                 "gyro sights (13.5.4)" if sq.gyro else "",
                                 {"gun": "gun pod (13.5.6)", "at": "AT pod (13.5.6)"}.get(sq.gun_pod, ""),
                                 "Lufbery circle (13.4.3)" if sq.lufbery and not (sq.broken or sq.dogfight) else "",
                                 _power(sq)) if x)


def _power(sq: Squadron) -> str:
    """An Me 163's fuel and power on its Wing Display box [13.8.2] ("" for any other aircraft)."""
    if not sq.power:
        return ""
    return f"{sq.power} power, fuel {sq.fuel} (13.8.2)"


def form_lines(state: State, sq: Squadron) -> list[str]:
    """What the order form says in the movement window of a squadron's drop tanks [13.2] and of its long-range
    weapons [13.5.2, 13.5.3]."""
    if not sq.on_map:
        return []
    lines = []
    if sq.rockets == 1 and state.uses("13.5.3"):
        lines.append(f"#   air-to-air rockets: fired at long range (firepower 5) when it attacks bombers with no other "
                     f"fighter in the combat; FIRE {sq.id} CLOSE keeps them (13.5.3)")
    elif "heavy_guns" in card(sq.model)["abilities"] and state.uses("13.5.2"):
        lines.append(f"#   Heavy Guns: FIRE {sq.id} LONG attacks lone bombers at long range (firepower "
                     f"{card(sq.model)['heavy_guns']}, they do not fire back; 13.5.2)")
    return lines + _tank_lines(sq) + rocket_fighter.form_lines(sq)


def _tank_lines(sq: Squadron) -> list[str]:
    if not sq.drop_tanks:
        return []
    if sq.alert:
        return [f"#   carries drop tanks (speed and turn -1): JETTISON {sq.id} drops them and it flies on (13.2); "
                f"they go anyway after its first combat"]
    return ["#   carries drop tanks (speed and turn -1): only once alert may it JETTISON them; they go anyway "
            "after its first combat (13.2)"]


def fire_problem(state: State, sq: Squadron, choice: str) -> tuple[str, str] | None:
    """Why ``FIRE <sq> <choice>`` is refused (the rule, the reason), or None [13.5.2, 13.5.3]."""
    if choice == "ROCKETS":
        if not state.uses("13.5.3"):
            return "13.5.3", "this scenario does not use air-to-air rockets"
        return None if sq.rockets else ("13.5.3", f"{sq.id} is not fitted with air-to-air rockets")
    if choice == "LONG":
        if not state.uses("13.5.2"):
            return "13.5.2", "this scenario does not use long-range attacks"
        return None if "heavy_guns" in card(sq.model)["abilities"] else \
            ("13.5.2", f"a {card(sq.model)['name']} has no Heavy Guns for a long-range attack")
    return None


def long_range(state: State, alead: Squadron, attackers: Sequence[Squadron], defenders: Sequence[Squadron],
               choice: str) -> str:
    """The long-range attack the attacking lead makes [13.5.2, 13.5.3]: "rockets", "guns" or "" (an ordinary
    attack).  Only against bombers with no fighter in the combat but the attacker itself (our reading: it
    is a fighter by its mission, so the rule cannot mean it); rockets while unexpended, the default when fitted;
    Heavy Guns when its standing ``FIRE`` says LONG."""
    if any(d.fighter for d in defenders) or any(a.id != alead.id and a.fighter for a in attackers):
        return ""
    if choice in ("ROCKETS", "") and alead.rockets == 1 and state.uses("13.5.3"):
        return "rockets"
    if choice == "LONG" and state.uses("13.5.2") and "heavy_guns" in card(alead.model)["abilities"]:
        return "guns"
    return ""


def long_firepower(sq: Squadron, kind: str) -> int:
    """A long-range attacker's firepower: its Heavy Guns value, or 5 with rockets [13.5.2]."""
    return int(tables()["special_weapons"]["rocket_firepower"]) if kind == "rockets" else int(card(sq.model)["heavy_guns"])


def gyro(state: State, sq: Squadron) -> bool:
    """Gyro gunsights in use [13.5.4]: the scenario fits them and uses the rule."""
    return sq.gyro and state.uses("13.5.4")
