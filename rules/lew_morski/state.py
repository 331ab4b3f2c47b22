"""Game state as frozen values [digest 2.3 data model]; its JSON form is the kit's dataclass codec."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.flow import Flow

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
    """The game; ``flow`` is the kit's part: step, stage (its turn), pending interrupt, standing orders."""

    scenario: str
    options: tuple[tuple[str, Any], ...]
    seat_names: tuple[str, ...]
    flow: Flow
    aircraft: tuple[Aircraft, ...] = ()
    guns: tuple[Gun, ...] = ()
    vp_de: int = 0
    vp_gb: int = 0
    bombed: tuple[str, ...] = ()  # strategic objects with a "bombed" marker [R 7.0.7]
    bonus_done: bool = False
    sun: str = "east"
    end_reason: str = ""

    @property
    def opts(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def step(self) -> str:
        """setup, de-move, gb-react, gb-move, de-react or over."""
        return self.flow.step

    @property
    def stage(self) -> int:
        """The stage marker [R 3]; 0 during the setup."""
        return self.flow.turn

    @property
    def asks(self) -> list[dict[str, Any]]:
        """The reactive-fire decisions an open interrupt window waits for."""
        return list(self.flow.pending.data["reactions"]) if self.flow.pending is not None else []

    def ac(self, ac_id: str) -> Aircraft:
        for a in self.aircraft:
            if a.id == ac_id:
                return a
        raise KeyError(ac_id)
