"""The unit cards, the small tables and the scenarios, read from ``data/`` (cached per override)."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping

from pbem.core.data import data_cache, load_data

from .board import PACKAGE

BANDS = ("close", "medium", "long")
VEHICLE, SOLDIER, ARTILLERY, AIRCRAFT = "vehicle", "soldier", "artillery", "aircraft"


@dataclass(frozen=True)
class Card:
    """A stat card: attack dice by target column and range band (0 = no value), two defences."""

    key: str
    name: str
    side: str
    kind: str
    cost: int
    speed: int
    front: int
    rear: int
    vs_soldier: tuple[int, int, int]
    vs_vehicle: tuple[int, int, int]
    turret: bool
    abilities: frozenset[str]

    @property
    def soldier_like(self) -> bool:
        """Soldier, Artillery and Aircraft: the Soldier column, destroyed at two hits (L50, L132, L324)."""
        return self.kind != VEHICLE

    @property
    def ground(self) -> bool:
        return self.kind != AIRCRAFT

    def dice(self, target_kind: str, band: str) -> int:
        column = self.vs_vehicle if target_kind == VEHICLE else self.vs_soldier
        return column[BANDS.index(band)]

    def has(self, ability: str) -> bool:
        return ability in self.abilities


def _card(key: str, row: Mapping[str, Any]) -> Card:
    return Card(key, row["name"], row["side"], row["kind"], row["cost"], row["speed"], row["defence"][0],
                row["defence"][1], tuple(row["vs_soldier"]), tuple(row["vs_vehicle"]),  # type: ignore[arg-type]
                row["turret"], frozenset(row["abilities"]))


@data_cache
def cards() -> Mapping[str, Card]:
    rows = load_data(PACKAGE, "data/units.toml")["units"]
    return MappingProxyType({key: _card(key, row) for key, row in rows.items()})


@data_cache
def abilities() -> Mapping[str, Any]:
    """The special-abilities glossary (lost with the fragment): per ability, what the fragment says of it
    (``fragment``, ``ref``) and what this game does (``effect``)."""
    return MappingProxyType(load_data(PACKAGE, "data/units.toml")["abilities"])


@data_cache
def tables() -> Mapping[str, Any]:
    return load_data(PACKAGE, "data/tables.toml")


@data_cache
def scenarios() -> Mapping[str, Any]:
    return load_data(PACKAGE, "data/scenarios.toml")["scenarios"]
