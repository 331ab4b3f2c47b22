"""Outcome levels [campaign §C2]: a game's Outcome seen from each side, major or minor, victory or defeat."""
from __future__ import annotations

from typing import Any

from pbem.core.ruleset import Outcome, carryover_of

MIRROR = {"major_victory": "major_defeat", "minor_victory": "minor_defeat", "draw": "draw"}


def levels(ruleset: Any, state: Any, outcome: Outcome | None, sides: tuple[str, ...]) -> dict[str, str]:
    """Each side's level: the winner's victory is major or minor by the ruleset's ``margin`` (minor without
    one); every other side takes the mirror defeat; no winner (or no outcome: the GM ended it) is a draw."""
    if outcome is None or outcome.winner is None or outcome.winner not in sides:
        return dict.fromkeys(sides, "draw")
    hooks = carryover_of(ruleset)
    margin = hooks.margin(state, outcome) if hooks is not None and hooks.margin is not None else "minor"
    won = "major_victory" if margin == "major" else "minor_victory"
    return {side: won if side == outcome.winner else MIRROR[won] for side in sides}


def describe(level: str) -> str:
    return level.replace("_", " ")
