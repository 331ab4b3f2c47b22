"""What an order check reads from a seat's view (never the state), shared by the verb parsers."""
from __future__ import annotations

from pbem.core.texts import t_

import re
from collections.abc import Mapping
from typing import Any

from pbem.core.errors import IllegalOrderError, OrderSyntaxError

from .board import board, parse_hex

TF_RE = re.compile(r"^(TF|KG|TG)[0-9]{1,2}$")


class Ctx(dict):
    """The seat's view (it is the view, so the kit's verb table hands it to each parser), with own
    units as this file's earlier lines leave them (TF changes, markers).

    ``moved`` collects the units, ships and air units an earlier line already moves or keeps in
    place; ``moved_3a`` the ships that moved in 3A; ``base_after`` the hex each carrier's aircraft take off from after her MOVE [7.7].
    """

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__(view)
        self.side = view["side"]
        self.step = view["step"]
        self.ships = {x["id"]: dict(x) for x in view["ships"] if x["status"] == "sea"}
        self.air = {a["id"]: a for a in view["air"]}
        self.contacts = {c["id"]: c for c in view["contacts"]}
        self.vis = view["visibility_n"]
        # ships that moved (not merely stayed) in this turn's Shadowed movement: a stayed ship's
        # hexes-moved count is set to 0 there [7.1]
        self.moved_3a = {s for s in view["moved"] if self.ships.get(s, {}).get("moved_last")}
        self.moved: set[str] = set()
        self.dest: dict[str, str] = {}  # unit -> the hex a MOVE line of this file ends in
        self.paths: dict[str, int] = {}  # unit -> how many hexes that MOVE line enters
        self.once: set[str] = set()  # the verbs allowed once a file that an earlier line already used
        self.base_after: dict[str, str] = {}

    def unit(self, name: str) -> list[dict] | None:
        u = name.lower()
        if u in self.ships and not self.ships[u]["tf"]:
            return [self.ships[u]]
        tf = name.upper()
        found = [x for k, x in sorted(self.ships.items()) if x["tf"] == tf]
        return found or None

    def units(self) -> list[str]:
        return sorted({x["tf"] or x["id"] for x in self.ships.values()})

    def ship(self, name: str) -> dict:
        x = self.ships.get(name.lower())
        if x is None:
            known = ", ".join(sorted(self.ships)) or "none"
            raise IllegalOrderError(t_('no ship of yours at sea is called %(name)s (yours: %(known)s)', name=name, known=known), rule="2.3")
        return x

    def need_unit(self, name: str) -> list[dict]:
        u = self.unit(name)
        if u is None:
            raise IllegalOrderError(t_('no unit of yours is called %(name)s (units: %(v)s)', name=name, v=', '.join(self.units())),
                                    rule="2.3")
        return u

    def fog_blocks(self, h: str) -> bool:
        return self["fog"] and h in board().fog


def unit_id(ships: list[dict]) -> str:
    """The id a unit goes by: its task force, or its single ship."""
    return ships[0]["tf"] or ships[0]["id"]


def hex_word(word: str) -> str:
    h = word.upper()
    if parse_hex(h) is None or not board().exists(h):
        raise OrderSyntaxError(t_('%(word)s is not a hex id (a row letter A..AH and a column 1..33, e.g. U26)', word=word),
                               rule="2.1")
    return h
