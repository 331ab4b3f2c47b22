"""The advanced rules (13–15) a scenario switches on [13.0].

The basic game (rules 1–12) is what every scenario plays.  A scenario that uses an advanced rule lists it in
``advanced`` in ``scenarios.toml`` — a whole rule (``"14"``), a section (``"14.2"``) or a subsection
(``"14.2.3"``) — and the code of that rule asks :func:`uses` before it acts, so the basic scenarios play as
they always did.  Listing a section switches on everything under it.
"""
from __future__ import annotations

from collections.abc import Iterable

#: The sections of rules 13–15 a scenario may list, with the rulebook's headings (in English).
SECTIONS: dict[str, str] = {
    "13": "Advanced Wing Leader", "13.1": "Altitude errors", "13.2": "Drop tanks", "13.3": "Fuel limit",
    "13.4": "Special tactics", "13.4.1": "Bounce", "13.4.2": "Evasion", "13.4.3": "Lufbery circle",
    "13.5": "Special weapons", "13.5.1": "Equipment restriction", "13.5.2": "Long-range attack",
    "13.5.3": "Air-to-air rockets", "13.5.4": "Gyro gunsights", "13.5.5": "USAAF heavy bomber groups",
    "13.5.6": "Gun pods", "13.6": "Single aircraft", "13.7": "Takeoff", "13.7.1": "Carriers",
    "13.8": "Jets and rocket aircraft", "13.8.1": "High speed", "13.8.2": "Me 163", "13.8.3": "Me 262",
    "14": "Surface units", "14.1": "Surface units in combat", "14.1.1": "Damage to surface units",
    "14.1.2": "Flak suppression", "14.1.3": "Ship defence", "14.2": "Flak units", "14.2.1": "Flak fire modes",
    "14.2.2": "Flak zones", "14.2.3": "Barrage attack", "14.2.4": "Direct fire", "14.2.5": "Resolving a flak attack",
    "14.2.6": "Flak and air combat", "14.2.7": "Improved flak", "14.2.8": "Low-angle naval guns",
    "14.3": "Barrage balloons",
    "15": "Bombing", "15.1": "Bomb loads", "15.2": "Bombing mission", "15.2.1": "Bombing mission (the bombers)",
    "15.2.2": "Escort mission", "15.2.3": "Sweep mission", "15.2.4": "Fighter-bombers",
    "15.2.5": "Positioning for the attack", "15.3": "Approach",
    "15.3.1": "Level bombing", "15.3.2": "Dive bombing", "15.3.3": "Steep-angle bombing",
    "15.3.4": "Glide bombing", "15.3.5": "Torpedo attack", "15.3.6": "Rocket attack", "15.3.7": "Strafing attack",
    "15.4": "Executing the bombing attack", "15.5": "Special bombing attacks", "15.5.1": "Anvil",
    "15.5.2": "Parafrag attack", "15.5.3": "Kamikaze attacks", "15.5.4": "Skip bombing",
}


def uses(listed: Iterable[str], rule: str) -> bool:
    """Whether ``rule`` is switched on by a scenario listing ``listed``: it, or a section above it, is listed."""
    parts = rule.split(".")
    heads = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return any(item in heads for item in listed)


def problems(listed: Iterable[str]) -> list[str]:
    """What is wrong with a scenario's ``advanced`` list: each entry must be a section of rules 13–15."""
    return [f"advanced rule {item!r} is not a section of rules 13-15 (e.g. '13.2', '14.2', '15')"
            for item in listed if item not in SECTIONS]
