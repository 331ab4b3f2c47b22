"""The pause points shared by the turn's steps: opening a decision and skipping an order."""
from __future__ import annotations

from .state import Game


def open_pending(g: Game, kind: str, seats, **data) -> None:
    g.doc["counter"] += 1
    g.doc["pending"] = {"kind": kind, "seats": sorted(seats), "n": g.doc["counter"], **data}


def skip(g: Game, a: dict, order, why: str) -> None:
    """Tell the author that an order of its script is not carried out, and why."""
    g.say(f"{a['id']}: order '{order.text()}' is skipped: {why}", [a["seat"]], kind="skipped")
