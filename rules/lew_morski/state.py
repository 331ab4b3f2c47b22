"""Game state as frozen values, and its JSON form [digest 2.3 data model]."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any
from collections.abc import Mapping

Hex = tuple[int, int]
ALTS = ("HIGH", "LOW", "VLOW")


@dataclass(frozen=True)
class Aircraft:
    """One aircraft counter.  ``status``: due (reinforcement not yet entered), board, off (parked on the
    stage track), withdrawn (left south for good [R 8.1]) or destroyed."""

    id: str
    type: str
    side: str
    seat: str
    commander: bool = False
    status: str = "board"
    damaged: bool = False
    hex: Hex | None = None
    facing: str = "N"
    alt: str = "HIGH"
    jammed: bool = False
    unjam_stage: int = 0  # stage of a successful unjam roll; the jam clears from the next stage [R 5.3.4]
    bombs: int = 0
    fired_stage: int = 0
    fired_target: str = ""
    path: tuple[Hex, ...] = ()  # hexes entered this stage, end hex included [R 7.0.2]
    bombed: tuple[Hex, ...] = ()  # hexes bombed this stage [R 7.0.4]
    exit_hex: Hex | None = None
    exit_edge: str = ""
    left_alt: str = "HIGH"
    return_stage: int = 0
    due_stage: int = 0
    due_hex: Hex | None = None


@dataclass(frozen=True)
class Gun:
    """A land AA gun [R 6]; ``revealed`` only matters in fog games."""

    id: str
    seat: str
    hex: Hex | None = None
    destroyed: bool = False
    fired_stage: int = 0
    revealed: bool = False


@dataclass(frozen=True)
class State:
    scenario: str
    options: tuple[tuple[str, Any], ...]
    seat_names: tuple[str, ...]
    stage: int = 0
    step: str = "setup"  # setup, de-move, gb-react, gb-move, de-react, over
    aircraft: tuple[Aircraft, ...] = ()
    guns: tuple[Gun, ...] = ()
    vp_de: int = 0
    vp_gb: int = 0
    bombed: tuple[str, ...] = ()  # strategic objects with a "bombed" marker [R 7.0.7]
    bonus_done: bool = False
    sun: str = "east"
    policies: tuple[tuple[str, str, str], ...] = ()  # (unit id, kind, value), sorted
    pending: str = ""  # JSON of a combat phase paused for an interrupt window
    end_reason: str = ""

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    def ac(self, ac_id: str) -> Aircraft:
        for a in self.aircraft:
            if a.id == ac_id:
                return a
        raise KeyError(ac_id)

    def policy(self, unit: str, kind: str, default: str) -> str:
        for u, k, v in self.policies:
            if u == unit and k == kind:
                return v
        return default

    def pending_data(self) -> dict[str, Any]:
        return json.loads(self.pending) if self.pending else {}


def _plain(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _tup(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tup(v) for v in x)
    return x


def _row(obj: Any) -> dict[str, Any]:
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}


def dump(state: State) -> dict[str, Any]:
    d = {f.name: _plain(getattr(state, f.name)) for f in fields(State) if f.name not in ("aircraft", "guns")}
    d["aircraft"] = [_row(a) for a in state.aircraft]
    d["guns"] = [_row(g) for g in state.guns]
    return d


def load(data: Mapping[str, Any]) -> State:
    d = dict(data)
    d["aircraft"] = tuple(Aircraft(**{k: _tup(v) for k, v in a.items()}) for a in d["aircraft"])
    d["guns"] = tuple(Gun(**{k: _tup(v) for k, v in g.items()}) for g in d["guns"])
    for f in fields(State):
        if f.name not in ("aircraft", "guns") and isinstance(d.get(f.name), list):
            d[f.name] = _tup(d[f.name])
    return State(**d)
