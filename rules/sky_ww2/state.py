"""The game position and the working copy resolution mutates [2.3, 5].

The whole position is one JSON document; the kit's :class:`~pbem.core.flow.Flow` is kept
in it under "flow".  :class:`State` is its frozen, canonical form (what the engine stores;
``dump``/``load`` are exact).  The kit's step table opens it into a :class:`Game` over the
resolution's :class:`~pbem.core.work.Work` (events and dice go through the Work), the
game mutates that copy, and the table freezes the result: every ruleset method stays
pure while the many small updates of a card game stay readable.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from collections.abc import Iterable

from pbem.core.flow import Flow
from pbem.core.interrupts import Pending
from pbem.core.standing import Standing
from pbem.core.work import Work

from . import tables
from .geometry import adjacent, aspect
from .rulebook import cite_text
from .standing import policies
from pbem.core.texts import t_, tn_


@dataclass(frozen=True)
class State:
    """The frozen position: canonical JSON text."""

    doc: str

    @staticmethod
    def of(doc: dict) -> State:
        return State(json.dumps(doc, sort_keys=True, separators=(",", ":")))

    def read(self) -> dict:
        """A read-only parse (shared: never mutate it)."""
        return _parse(self.doc)

    def thaw(self, work: Work | None = None) -> Game:
        return Game(json.loads(self.doc), work)


@lru_cache(maxsize=256)
def _parse(text: str) -> dict:
    return json.loads(text)


def other_side(side: str) -> str:
    return "axis" if side == "coalition" else "coalition"


class Game:
    """A mutable working copy of the position, over the kit's Work of one resolution.

    ``work`` is None when the copy only serves a view.  ``asked`` is the decision the
    resolution stopped for (see :func:`.asks.ask`), None while it runs on.
    """

    def __init__(self, doc: dict, work: Work | None = None) -> None:
        self.doc = doc
        self.work = work
        self.asked: Pending | None = None

    # ---- freezing and seats --------------------------------------------------------------
    def freeze(self) -> State:
        return State.of(self.doc)

    @property
    def all_seats(self) -> frozenset[str]:
        return frozenset(s["name"] for s in self.doc["seats"])

    def seats_of(self, side: str) -> list[str]:
        return [s["name"] for s in self.doc["seats"] if s["side"] == side]

    def say(self, text: str, to: Iterable[str] | None = None, kind: str = "note") -> None:
        """An event for ``to`` (None: every seat); its rule references name the rulebook's headings, as a
        rejection does (the code's seed-line tags never reach a player)."""
        assert self.work is not None, "a view's copy says nothing"
        self.work.say(cite_text(text), None if to is None else list(to), kind)

    def say_private(self, seat: str, private: str, public: str, kind: str = "note") -> None:
        """Tell ``seat`` the details and everyone else the public part."""
        self.say(private, [seat], kind)
        others = self.all_seats - {seat}
        if public and others:
            self.say(public, others, kind)

    # ---- standing orders (the kit's store) ---------------------------------------------------
    @property
    def standing(self) -> Standing:
        """The store as this resolution changed it (the position's, for a view)."""
        return self.work.standing if self.work is not None else Flow.load(self.doc["flow"]).standing

    def policy(self, seat: str) -> dict:
        """The seat's standing orders in force, defaults included [4.3, 10.2]."""
        side = next(s["side"] for s in self.doc["seats"] if s["name"] == seat)
        return policies(self.standing, seat, side)[0]

    def side_policy(self, side: str) -> dict:
        """The side's shared standing orders in force: AA_FIRE and SEQUENCE [L150, L325]."""
        return policies(self.standing, "", side)[1]

    # ---- options ----------------------------------------------------------------------------
    def opt(self, name: str) -> Any:
        return self.doc["options"][name]

    # ---- aircraft -----------------------------------------------------------------------------
    def ac(self, aid: str) -> dict:
        return self.doc["aircraft"][aid]

    def aircraft(self, side: str | None = None, *, live: bool = True, placed: bool | None = None) -> list[dict]:
        out = []
        for aid in sorted(self.doc["aircraft"]):
            a = self.doc["aircraft"][aid]
            if side and a["side"] != side:
                continue
            if live and a["destroyed"]:
                continue
            if placed is not None and a["placed"] != placed:
                continue
            out.append(a)
        return out

    def on_board(self, side: str | None = None) -> list[dict]:
        return self.aircraft(side, placed=True)

    def at(self, alt: str, cell) -> dict | None:
        for a in self.on_board():
            if a["alt"] == alt and tuple(a["cell"]) == tuple(cell):
                return a
        return None

    def free(self, alt: str, cell) -> bool:
        b = tables.board()
        x, y = cell
        return 1 <= x <= b.width and 1 <= y <= b.height and self.at(alt, cell) is None

    def free_cells(self, alt: str) -> list[tuple[int, int]]:
        b = tables.board()
        return [(x, y) for y in range(1, b.height + 1) for x in range(1, b.width + 1) if self.free(alt, (x, y))]

    def enemies_in_dogfight(self, a: dict) -> list[dict]:
        """Enemy aircraft orthogonally adjacent in the same field [L119]."""
        if not a["placed"] or a["destroyed"]:
            return []
        return [e for e in self.on_board() if e["side"] != a["side"] and e["alt"] == a["alt"]
                and adjacent(tuple(a["cell"]), tuple(e["cell"]))]

    def in_dogfight(self, a: dict) -> bool:
        return bool(self.enemies_in_dogfight(a))

    def aspect(self, a: dict, b: dict) -> str:
        """How ``a`` shows itself to ``b`` (they must be adjacent)."""
        return aspect(a["facing"], tuple(a["cell"]), tuple(b["cell"]))

    # ---- aircraft stats -------------------------------------------------------------------
    @staticmethod
    def type_of(a: dict) -> tables.AircraftType:
        return tables.roster()[a["side"]][a["number"]]

    def stats(self, a: dict) -> tables.Stats:
        t = self.type_of(a)
        return t.damaged if a["damaged"] else t.intact

    def malfunctions(self, a: dict, which: str | None = None) -> int:
        return sum(1 for c in a["hand"] if tables.card(c).kind == "malfunction"
                   and (which is None or tables.card(c).malfunction == which))

    def base_firing(self, a: dict) -> int:
        """Printed firing of the current card side, less gun jams in hand and a wounded pilot."""
        malus = self.malfunctions(a, "jam") + sum(att.get("firing_malus", 0) for att in a["attached"])
        return max(0, self.stats(a).firing - malus)

    # ---- deck -----------------------------------------------------------------------------------
    def draw(self, why: str) -> str | None:
        """Take the top card, reshuffling the discard when the deck is empty [L299]."""
        if not self.doc["deck"]:
            if not self.doc["discard"]:
                self.say(t_("the deck and the discard pile are both empty: no card is drawn"), kind="deck")
                return None
            pile = sorted(self.doc["discard"])
            self.doc["deck"] = list(self.work.shuffle(pile, why=t_("reshuffle the discard pile"), seen_by=()))
            self.doc["discard"] = []
            self.say(tn_("the deck ran out: the discard pile (%(n)s cards) is shuffled into a new deck",
                         "the deck ran out: the discard pile (%(n)s cards) is shuffled into a new deck", len(pile)),
                     kind="deck")
        return self.doc["deck"].pop(0)

    def discard(self, cards: Iterable[str]) -> None:
        self.doc["discard"].extend(cards)
