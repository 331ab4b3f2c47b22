"""The game's frozen values: a unit on the map and the whole position."""
from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.core.flow import Flow
from pbem.core.hexgrid import Hex

from .tables import Card, cards

SIDES = ("allies", "axis")


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def side_of(seat: str) -> str:
    """The side a seat plays for: ``allies`` for ``allies`` and for ``allies-2``."""
    return seat.split("-")[0]


def seat_names(per_side: int) -> tuple[str, ...]:
    """The game's seats: one a side named by the side, or ``<side>-1``, ``<side>-2``."""
    return SIDES if per_side == 1 else tuple(f"{s}-{n}" for s in SIDES for n in range(1, per_side + 1))


def name(u: Unit) -> str:
    """How events name a unit: its side and id."""
    return f"{u.side} {u.id}"


@dataclass(frozen=True)
class Unit:
    """A unit on the map.  ``pending`` holds this turn's face-down markers in the order placed
    (L120-L124); ``disrupted``/``damaged`` are the face-up states (L286-L322); ``overwatch`` is the
    direction of its overwatch row, or None."""

    id: str
    card: str
    side: str
    hex: Hex
    facing: int
    disrupted: bool = False
    damaged: bool = False
    pending: tuple[str, ...] = ()
    overwatch: int | None = None
    aboard: str = ""  # the transport carrying it (then it is in State.cargo, not on the map)

    @property
    def stats(self) -> Card:
        return cards()[self.card]

    @property
    def impaired(self) -> bool:
        """Disrupted or Damaged: one -1, never two (L328)."""
        return self.disrupted or self.damaged

    @property
    def doomed(self) -> bool:
        """Its face-down markers already destroy it at the Casualty Phase (a public fact, L136)."""
        return "black" in self.pending or (self.damaged and "red" in self.pending)

    def but(self, **changes: object) -> Unit:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Glimpse:
    """In fog, what ``side`` last saw of enemy ground unit ``id``: where, facing where, on which turn,
    and whether it saw it destroyed (``lost``)."""

    side: str
    id: str
    card: str
    hex: Hex
    facing: int
    turn: int
    lost: bool = False


@dataclass(frozen=True)
class State:
    """The position: the scenario's map and turn limit, the units on the map, those lost, which
    side moves first this turn, the kit's flow (step, turn, standing orders) and the options."""

    scenario: str
    map: str
    last_turn: int
    objectives: tuple[Hex, ...]
    units: tuple[Unit, ...]
    lost: tuple[Unit, ...]
    first: str
    flow: Flow
    sight: str = "edge"  # the line-of-sight reading: "edge" (the nudged lines) or "strict" (vertices block)
    cadence: str = "standard"  # "standard": one side moves, then the other; "fast": both at once, unit by unit
    movement: str = "side"  # within the standard cadence: "side" (a whole side, then the other) or "alternate"
    reserve: tuple[Unit, ...] = ()  # aircraft off the map, waiting for an air strike (their hex means nothing)
    cargo: tuple[Unit, ...] = ()  # units aboard a transport (their hex means nothing; ``aboard`` names it)
    ow_soldiers: bool = True  # option: a vehicle's overwatch may fire at soldiers entering its row (G22)
    move_in_attack: bool = True  # option: a unit may move instead of attacking in the attack phase (G6)
    advanced: bool = False  # option rules=advanced: facing matters for every unit, not only vehicles (L17, G30)
    fog: bool = False  # option visibility=fog: a side sees only the enemies in its line of sight (fog.py)
    last_known: tuple[Glimpse, ...] = ()  # in fog, what each side last saw of each enemy it has seen
    obstacles: tuple[tuple[Hex, str], ...] = ()  # obstacle pieces on the map (hex, kind), one a hex at most (L1)
    players_per_side: int = 1  # option: with 2, seats <side>-1 and <side>-2 share a side's units
    command: tuple[tuple[str, str], ...] = ()  # with several seats a side: (unit id, the seat commanding it)

    @property
    def turn(self) -> int:
        return self.flow.turn

    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)

    @property
    def seats(self) -> tuple[str, ...]:
        return seat_names(self.players_per_side)

    def seats_of(self, side: str) -> tuple[str, ...]:
        return tuple(s for s in self.seats if side_of(s) == side)

    def commander(self, uid: str, side: str) -> str:
        """The seat commanding unit ``uid`` of ``side`` (the side's own seat when it has one)."""
        return dict(self.command).get(uid, side) if self.players_per_side > 1 else side
