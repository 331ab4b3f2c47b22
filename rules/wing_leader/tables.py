"""The game's data files (``data/*.toml``) and lookups named after the rules that use them.

Every loader is cached with :func:`pbem.core.data.data_cache`, so a box owner's per-game corrections
(an override of a file) reach every lookup.
"""
from __future__ import annotations

from typing import Any

from pbem.core.data import data_cache, load_data

PACKAGE = __package__  # "pbem.rules.wing_leader" once installed
BANDS = ("low", "medium", "high")


@data_cache
def tables() -> dict[str, Any]:
    return load_data(PACKAGE, "data/tables.toml")


@data_cache
def aircraft() -> dict[str, Any]:
    return load_data(PACKAGE, "data/aircraft.toml")


@data_cache
def scenarios() -> dict[str, Any]:
    return load_data(PACKAGE, "data/scenarios.toml")


def card(model: str) -> dict[str, Any]:
    """The Aircraft Data Card of a model [3.3]; stats are looked up by model, never by type [3.2]."""
    return aircraft()["models"][model]


def band(altitude: int) -> str:
    """The altitude band an altitude lies in [3.3.1] (boundaries are placeholders, GAP-8)."""
    starts = aircraft()["bands"]
    found = BANDS[0]
    for name in BANDS:
        if altitude >= starts[name]:
            found = name
    return found


def band_value(model: str, altitude: int, what: str) -> Any:
    """Speed, Turn or Climb of a model at an altitude: the value of the band holding it [3.3.1]."""
    return card(model)[band(altitude)][what]


def scenario(name: str) -> dict[str, Any]:
    return scenarios()[name]


def scenario_names() -> tuple[str, ...]:
    return tuple(k for k, v in scenarios().items() if isinstance(v, dict))


def round_half_up(numerator: int, denominator: int) -> int:
    """A division rounded to the nearest whole number, a half always up [1.2]."""
    return (2 * numerator + denominator) // (2 * denominator)


def halve(n: int, times: int = 1) -> int:
    """Halve ``times`` times, rounding after each division [1.2: 5 halved twice is 2]."""
    for _ in range(times):
        n = round_half_up(n, 2)
    return n
