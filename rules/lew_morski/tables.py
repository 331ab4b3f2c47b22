"""Aircraft characteristics and game tables loaded from data files [Table 2, 4, 5; Tables 1 and 3]."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.data import data_cache, load_data

PKG = __name__.rsplit(".", 1)[0] + ".data"


@dataclass(frozen=True)
class Stats:
    """The values printed on one side of an aircraft counter [R 2.1, 2.1.1]."""

    max_speed: int
    min_speed: int
    attack: int
    manoeuvrability: int


@data_cache  # one result per game data correction (pbem.core.data)
def aircraft_data() -> dict[str, Any]:
    return load_data(PKG, "aircraft.toml")


@data_cache  # one result per game data correction (pbem.core.data)
def tables() -> dict[str, Any]:
    return load_data(PKG, "tables.toml")


@data_cache  # one result per game data correction (pbem.core.data)
def scenarios() -> dict[str, Any]:
    return load_data(PKG, "scenarios.toml")


def type_info(type_id: str) -> dict[str, Any]:
    return aircraft_data()["types"][type_id]


def stats(type_id: str, damaged: bool, commander: bool, bombs_left: int) -> Stats:
    """Current counter values: front or reverse side [R 2.1.1], commander +1 [R 5.0.6], Ju-88 empty speed."""
    t = type_info(type_id)
    side = t["damaged"] if damaged else t
    max_speed = side["max_speed"]
    if t["bomb_load"] and bombs_left == 0 and "max_speed_empty" in side:
        max_speed = side["max_speed_empty"]
    attack = side["attack"] + (aircraft_data()["commander"]["attack_bonus"] if commander else 0)
    return Stats(max_speed, t["min_speed"], attack, side["manoeuvrability"])


def hit_range(strength: int, dist: int) -> tuple[int, int] | None:
    """Table 2: the 2d6 sums that hit, or None when no hit is possible [R 5.2, G-14]."""
    if strength < 1 or not 1 <= dist <= 5:
        return None
    cell = tables()["combat"]["rows"][min(strength, 5) - 1][dist - 1]
    return (cell[0], cell[1]) if cell else None


def jam_sums() -> tuple[int, ...]:
    return tuple(tables()["combat"]["jam_sums"])


def aa_range(alt: str, dist: int) -> tuple[int, int] | None:
    """Table 4: the d6 results that hit for a target at ``alt`` and distance 0/1 [R 6.1]."""
    if dist not in (0, 1):
        return None
    cell = tables()["aa"][alt.lower()][dist]
    return (cell[0], cell[1]) if cell else None


def vp() -> dict[str, int]:
    return tables()["vp"]


def dice_table() -> dict[str, Any]:
    return tables()["dice"]


def modifiers() -> dict[str, Any]:
    return tables()["modifiers"]
