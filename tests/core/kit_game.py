"""A tiny game on the kit for its unit tests: a JSON document state and a step table with every shape.

Steps: ``plan`` (both seats), ``count`` (nobody; adds the seats' numbers), ``ask`` (an INTERRUPT asking
every seat that sent ASK), ``solo`` (side "red" only), OVER after ``total`` reaches 10.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.flow import OVER
from pbem.core.interrupts import Ask
from pbem.core.phases import NOBODY, Step, Steps
from pbem.core.ruleset import Seat, Window
from pbem.core.work import Work

SEATS = (Seat("red-1", "red"), Seat("red-2", "red"), Seat("blue", "blue"))


@dataclass(frozen=True)
class Add:
    n: int

    def text(self) -> str:
        return f"ADD {self.n}"


@dataclass(frozen=True)
class AskMe:
    def text(self) -> str:
        return "ASK"


@dataclass(frozen=True)
class Reply:
    key: str
    choice: str

    def text(self) -> str:
        return f"REPLY {self.key} {self.choice}"

    def answer_to(self, ask: Ask) -> str | None:
        return self.choice if ask.key == self.key else None


class Doc:
    """Working data over a dict document (copied, so the frozen input is never changed)."""

    def __init__(self, doc: Mapping[str, Any], work: Work[Doc]) -> None:
        self.doc = {k: v for k, v in doc.items()}

    def freeze(self) -> dict[str, Any]:
        return self.doc


def plan(w: Work[Doc], orders: Mapping[str, Sequence[Any]]) -> None:
    askers = sorted(s for s, os in orders.items() if any(isinstance(o, AskMe) for o in os))
    for seat, os in sorted(orders.items()):
        for o in os:
            if isinstance(o, Add):
                w.data.doc["total"] += o.n
                w.say(f"{seat} adds {o.n}", to=seat, kind="add", n=o.n)
    if askers:
        asks = [Ask(s, f"q-{s}", "keep or double?", "KEEP", ("KEEP", "DOUBLE")) for s in askers]
        w.interrupt("ask", asks, total_then=w.data.doc["total"])


def answer(w: Work[Doc], orders: Mapping[str, Sequence[Any]]) -> None:
    for ask in w.resumed.asks:
        choice = w.answers[ask.key]
        w.say(f"{ask.seat} chose {choice}", to=ask.seat)
        if choice == "DOUBLE":
            w.data.doc["total"] = 2 * w.resumed.data["total_then"]


def count(w: Work[Doc], orders: Mapping[str, Sequence[Any]]) -> None:
    w.say(f"total {w.data.doc['total']}", kind="total")
    w.roll(6, "the umpire's die", seen_by=())
    w.new_turn()


STEPS: Steps[dict[str, Any], Doc] = Steps([
    Step("plan", plan, next="count", title="Plan", prompt=lambda doc: f"total is {doc['total']}"),
    Step("ask", answer, next="count", window=Window.INTERRUPT, hours=6, title="Answer"),
    Step("count", count, next=lambda w: OVER if w.data.doc["total"] >= 10 else "solo", who=NOBODY),
    Step("solo", lambda w, o: None, next="plan", who="red", optional="blue"),
], seats=lambda doc: SEATS, open=Doc, close=Doc.freeze, sides=("red", "blue"))


def new_doc(total: int = 0) -> dict[str, Any]:
    return {"total": total, "flow": STEPS.start().dump()}

