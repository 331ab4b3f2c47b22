"""The working copy of the position during a resolution (the kit's ``Work.data``)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.core.standing import StandingOrder
from pbem.core.verbs import Order
from pbem.core.work import Work

from .board import Board, board_with
from .fog import remember, sightings
from .model import Glimpse, State, Unit, name


class Battle:
    """Units by id in map order, those lost, who acted and who made reaction fire this phase, the
    queue of orders still to carry out, and whether resolution stopped to ask a seat (``suspended``)."""

    def __init__(self, state: State, work: Work[Any]) -> None:
        self.state = state
        self.work = work
        self.board: Board = board_with(state.map, state.obstacles)
        self.units: dict[str, Unit] = {u.id: u for u in state.units}
        self.lost = list(state.lost)
        self.reserve: dict[str, Unit] = {u.id: u for u in state.reserve}
        self.cargo: dict[str, Unit] = {u.id: u for u in state.cargo}
        self.first = state.first
        self.phase = state.flow.step
        self.acted: set[str] = set()
        self.witnessed: dict[str, list[Unit]] = {}  # in fog: side -> the enemies it saw destroyed
        self.passing: dict[tuple[str, str], Glimpse] = {}  # in fog: (side, enemy id) -> its glimpse during the resolution
        self.fired: set[str] = set()  # units that made defensive or overwatch fire this phase (L356)
        self.command: dict[str, str] = dict(state.command)  # with several seats a side: unit id -> seat
        self.queue: list[tuple[str, Order]] = []
        self.suspended = False
        self.over = False

    def unit(self, uid: str) -> Unit | None:
        return self.units.get(uid)

    def put(self, unit: Unit) -> None:
        """Place ``unit`` (new or changed); in fog, a unit that comes to stand in another hex (a step
        of its move, an unloading) is looked at and looks around there (:func:`fog.sightings`)."""
        before = self.units.get(unit.id)
        self.units[unit.id] = unit
        if self.state.fog and self.state.flow.step != "deploy" and (before is None or before.hex != unit.hex):
            for g in sightings(self.board, self.all(), unit, self.work.turn, strict=self.state.sight == "strict"):
                self.passing[(g.side, g.id)] = g

    def commander(self, unit: Unit) -> str:
        """The seat commanding ``unit`` (asked about its reaction fire)."""
        return self.command.get(unit.id, unit.side) if self.state.players_per_side > 1 else unit.side

    def standing(self, side: str, key: str) -> StandingOrder | None:
        """The side's standing order under ``key`` (side-wide: any seat of the side may set it)."""
        return self.work.standing_order(self.state.seats_of(side)[0], key)

    def all(self) -> tuple[Unit, ...]:
        return tuple(self.units.values())

    def freeze(self) -> State:
        """The new position; in fog, each side's memory: what it saw as the resolution began, then
        where it last saw each enemy that came to stand in its sight during it, then what it sees at
        the end (and the enemies it saw destroyed)."""
        memory, strict = self.state.last_known, self.state.sight == "strict"
        if self.state.fog:  # not before a sealed set-up, where nothing is seen
            if self.state.flow.step != "deploy":
                memory = remember(memory, self.board, self.state.units, self.state.turn, strict=strict)
                memory = tuple(sorted({**{(g.side, g.id): g for g in memory}, **self.passing}.values(),
                                      key=lambda g: (g.side, g.id)))
            memory = remember(memory, self.board, self.all(), self.work.turn, strict=strict, lost=self.witnessed)
        return replace(self.state, units=self.all(), lost=tuple(self.lost), first=self.first,
                       reserve=tuple(self.reserve.values()), cargo=tuple(self.cargo.values()), last_known=memory,
                       command=tuple(sorted(self.command.items())))


__all__ = ["Battle", "name"]
