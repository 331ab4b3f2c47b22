"""The parsed orders of one turn: one small frozen value per verb.

Each value's ``text()`` is its canonical order line; checking that line again against the same
view gives the same value back (the round trip the acknowledgement relies on).  Ship and air ids
are lower case, task forces, hexes and contact ids upper case, as the parsers leave them.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar


def standing_key(words: Sequence[str]) -> str:
    """What a standing order covers: a later order with the same key replaces the earlier one."""
    verb = words[0].upper()
    if verb in ("ON_SHADOW", "DOCTRINE") and len(words) > 1:
        return f"{verb} {words[1].upper()}"
    if verb == "IF" and len(words) > 2 and words[1].upper() == "SHADOWED":
        return f"IF SHADOWED {words[2].upper()}"
    if verb in ("SHADOW", "ON_DIVERSION") and len(words) > 2 and words[1].upper() not in ("FAST", "SLOW", "BOTH"):
        return f"{verb} {words[1].upper()}"
    return verb


@dataclass(frozen=True)
class Policy:
    """A standing order: a reaction policy consulted during resolution until replaced [6, 9-11].

    Its value is its canonical line (as :mod:`.standing_orders` writes it), which is what the
    store keeps, under :func:`standing_key`.
    """

    line: str

    def text(self) -> str:
        return self.line

    def standing_change(self) -> tuple[str, str | None]:
        return standing_key(self.line.split()), self.line


@dataclass(frozen=True)
class ShipOrder:
    """The shape of the orders naming one ship (``verb`` is the subclass's word)."""

    ship: str
    verb: ClassVar[str] = ""

    def text(self) -> str:
        return f"{self.verb} {self.ship}"


@dataclass(frozen=True)
class Form:
    """FORM <TF> <ship> ... : a new task force of ships in one hex [7.2]."""

    tf: str
    ships: tuple[str, ...]

    def text(self) -> str:
        return f"FORM {self.tf} {' '.join(self.ships)}"


@dataclass(frozen=True)
class Join:
    """JOIN <ship> <TF> [7.2]."""

    ship: str
    tf: str

    def text(self) -> str:
        return f"JOIN {self.ship} {self.tf}"


class Detach(ShipOrder):
    """DETACH <ship> [7.2]."""

    verb = "DETACH"


class Repair(ShipOrder):
    """REPAIR <ship>: repair at sea, the ship stays [7.3]."""

    verb = "REPAIR"


class Port(ShipOrder):
    """PORT <ship>: in a friendly port, refuel and rearm [7.4]."""

    verb = "PORT"


class Rtb(ShipOrder):
    """RTB <ship>: a heavy ship with reduced ER returns to base [7.7.2]."""

    verb = "RTB"


@dataclass(frozen=True)
class Patrol:
    """PATROL <unit>: +3 search factors, the unit stays [7.6]."""

    unit: str

    def text(self) -> str:
        return f"PATROL {self.unit}"


@dataclass(frozen=True)
class Refuel:
    """REFUEL <ship> FROM <tanker> [7.5]."""

    ship: str
    tanker: str

    def text(self) -> str:
        return f"REFUEL {self.ship} FROM {self.tanker}"


@dataclass(frozen=True)
class Move:
    """MOVE <unit> <hex> ... : the hexes entered, in order [7.7]."""

    unit: str
    path: tuple[str, ...]

    def text(self) -> str:
        return f"MOVE {self.unit} {' '.join(self.path)}"


@dataclass(frozen=True)
class Stay:
    """STAY <unit>: a Shadowed unit stays in its hex in the Shadowed movement (it may then repair or refuel) [7.1]."""

    unit: str

    def text(self) -> str:
        return f"STAY {self.unit}"


@dataclass(frozen=True)
class Fly:
    """FLY <air> <hex>[+S|+S+S|+A] ... : a flight path with the markers dropped on it [7.7.1].

    ``marks[i]`` holds the marker letters after ``path[i]`` ("", "S", "SS", "A").
    """

    air: str
    path: tuple[str, ...]
    marks: tuple[str, ...]

    @property
    def search(self) -> list[str]:
        """The hexes of its Search markers, one entry per marker, in path order."""
        return [h for h, m in zip(self.path, self.marks, strict=True) for c in m if c == "S"]

    @property
    def attack(self) -> list[str]:
        return [h for h, m in zip(self.path, self.marks, strict=True) for c in m if c == "A"]

    def text(self) -> str:
        legs = (h + "".join("+" + c for c in m) for h, m in zip(self.path, self.marks, strict=True))
        return f"FLY {self.air} {' '.join(legs)}"


@dataclass(frozen=True)
class Search:
    """SEARCH ALL | NONE | <hex> ... : the hexes this side calls [8]."""

    mode: str  # ALL | NONE | LIST
    hexes: tuple[str, ...] = ()

    def text(self) -> str:
        return f"SEARCH {' '.join(self.hexes) if self.mode == 'LIST' else self.mode}"


@dataclass(frozen=True)
class Engage:
    """ENGAGE <contact> [WITH <unit>]: one combat call [10]; ``IF <condition> THEN`` makes it wait."""

    contact: str
    unit: str | None = None

    def text(self) -> str:
        return f"ENGAGE {self.contact}" + (f" WITH {self.unit}" if self.unit else "")


class Release(ShipOrder):
    """RELEASE <ship>: lift a RESTRICTED marker from the turn the schedule allows [12]."""

    verb = "RELEASE"


@dataclass(frozen=True)
class Attack:
    """ATTACK: the answer to a convoy found under ON_CONVOY ASK [11.3]."""

    def text(self) -> str:
        return "ATTACK"

    def answer_to(self, ask) -> str | None:
        return "ATTACK" if ask.key == "convoy" else None


@dataclass(frozen=True)
class Ignore:
    """IGNORE: leave the found convoy alone [11.3]."""

    def text(self) -> str:
        return "IGNORE"

    def answer_to(self, ask) -> str | None:
        return "IGNORE" if ask.key == "convoy" else None


Order = Policy | Form | Join | Detach | Repair | Port | Rtb | Patrol | Refuel | Move | Stay | Fly | Search | Engage | Release \
    | Attack | Ignore
