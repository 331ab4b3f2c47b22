"""The orders, one small frozen value per verb (``text()`` is its canonical line), and the
reverse: an order from its own text, for continuations stored in the state."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core.interrupts import Ask
from pbem.core.scripts import Condition, If
from pbem.core.verbs import Order


@dataclass(frozen=True)
class Move:
    unit: str
    path: tuple[str, ...]
    face: str

    def text(self) -> str:
        return f"MOVE {self.unit} {' '.join(self.path)} FACE {self.face}"


@dataclass(frozen=True)
class Face:
    """A zero move: turning in place counts as the unit's move (L23)."""

    unit: str
    face: str

    def text(self) -> str:
        return f"FACE {self.unit} {self.face}"


@dataclass(frozen=True)
class Attack:
    """An attack; a Double Shot unit may add a second target (``AND``) or Grazing Fire (``GRAZE``),
    declared before the roll (L274-L282; AND, not THEN, since THEN belongs to IF)."""

    unit: str
    target: str
    second: str = ""
    graze: bool = False

    def text(self) -> str:
        tail = f" AND {self.second}" if self.second else " GRAZE" if self.graze else ""
        return f"ATTACK {self.unit} {self.target}{tail}"


@dataclass(frozen=True)
class Hold:
    unit: str

    def text(self) -> str:
        return f"HOLD {self.unit}"


@dataclass(frozen=True)
class Air:
    """An air strike: place an aircraft in a hex, facing the side its line to the target crosses, and
    attack (L39, L244-L246; placement anywhere is the later rules' reading, digest G16)."""

    unit: str
    at: str
    target: str
    face: str

    def text(self) -> str:
        return f"AIR {self.unit} AT {self.at} ATTACK {self.target} FACE {self.face}"


@dataclass(frozen=True)
class Load:
    """A soldier or gun in or next to a friendly transport's hex boards it (L9; how is lost, G18)."""

    unit: str
    transport: str

    def text(self) -> str:
        return f"LOAD {self.unit} INTO {self.transport}"


@dataclass(frozen=True)
class Unload:
    """A passenger leaves its transport into the transport's hex or, only when that hex cannot take
    it (stacking, terrain), into a next hex free of enemies (L9)."""

    unit: str
    at: str

    def text(self) -> str:
        return f"UNLOAD {self.unit} AT {self.at}"


@dataclass(frozen=True)
class Overwatch:
    """Instead of moving (or attacking): watch the row of hexes in one direction (L214-L220)."""

    unit: str
    face: str

    def text(self) -> str:
        return f"OVERWATCH {self.unit} {self.face}"


@dataclass(frozen=True)
class Buy:
    """Sealed army build: one unit of a card, set up in a hex of the side's zone (aircraft: off the map)."""

    card: str
    at: str = ""
    face: str = ""

    def text(self) -> str:
        return f"BUY {self.card} AT {self.at} FACE {self.face}" if self.at else f"BUY {self.card}"


@dataclass(frozen=True)
class Place:
    """Sealed deployment in fog: one of the scenario's own units set up elsewhere in the side's zone."""

    unit: str
    at: str
    face: str

    def text(self) -> str:
        return f"PLACE {self.unit} AT {self.at} FACE {self.face}"


@dataclass(frozen=True)
class Policy:
    """Standing: whether a unit (or ALL) makes defensive fire (``DF``) or overwatch fire (``OW``) at a
    unit that provokes it: ALWAYS, NEVER, only at VEHICLES or SOLDIERS, or ASK (a short window opens
    for that seat; silence holds fire); DF also names the hex to fire
    into: BEST (likelier to hit), FROM (the hex left) or TO (the hex entered), L366-L372."""

    verb: str
    unit: str
    when: str
    hex: str = "BEST"

    def text(self) -> str:
        tail = f" HEX {self.hex}" if self.verb == "DF" and self.hex != "BEST" else ""
        return f"{self.verb} {self.unit} {self.when}{tail}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"{self.verb} {self.unit}", self.text()


@dataclass(frozen=True)
class FireOrder:
    """Standing: the order in which this side's units take their reaction fire at one step, before any
    unit not named (overlapping fire, L360: fire one, see the result, then the next)."""

    units: tuple[str, ...]

    def text(self) -> str:
        return f"DF_ORDER {' '.join(self.units)}"

    def standing_change(self) -> tuple[str, str | None]:
        return "DF_ORDER", self.text()


@dataclass(frozen=True)
class Hand:
    """With two players a side: the writing seat passes command of one of its units to ``to``, the
    other seat of the side, once the window's orders have been carried out."""

    unit: str
    to: str

    def text(self) -> str:
        return f"HAND {self.unit} TO {self.to}"


@dataclass(frozen=True)
class Penalty:
    """Standing: which enemy unit of an over-full hex gets this side's face-down yellow (L5):
    the HIGHEST_COST (the default), the LOWEST_COST, or one ALREADY_HIT this turn (then the highest)."""

    choice: str

    def text(self) -> str:
        return f"OVERSTACK_PENALTY {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "OVERSTACK_PENALTY", self.text()


@dataclass(frozen=True)
class Initiative:
    """Standing: when this side wins the initiative roll, move first or second (the procedure is lost,
    digest G5; the choice is the usual one)."""

    choice: str

    def text(self) -> str:
        return f"INITIATIVE {self.choice}"

    def standing_change(self) -> tuple[str, str | None]:
        return "INITIATIVE", self.text()


@dataclass(frozen=True)
class Answer:
    """The answer to a question a standing order left open: FIRE FROM, FIRE TO, FIRE or HOLD (reaction
    fire), FIRST or SECOND (the initiative)."""

    choice: str

    def text(self) -> str:
        return self.choice

    def answer_to(self, ask: Ask) -> str | None:
        return self.choice if self.choice in ask.choices else None


ACTIONS = (Air, Move, Face, Attack, Hold, Overwatch, Load, Unload)


def unit_of(order: Order) -> str | None:
    """The unit an action order acts with (standing orders and scripts act with none)."""
    return order.unit if isinstance(order, ACTIONS) else None


def revive(text: str) -> Order:
    """An action or IF entry from its own text, as stored in a continuation (checked when it was
    sent; resolution checks it again when it is reached)."""
    words = text.split()
    verb, args = words[0], words[1:]
    if verb == "IF":
        then_at = words.index("THEN")
        else_at = words.index("ELSE") if "ELSE" in words else len(words)
        otherwise = revive(" ".join(words[else_at + 1:])) if else_at < len(words) else None
        return If(Condition(words[1], tuple(words[2:then_at])), revive(" ".join(words[then_at + 1:else_at])),
                  otherwise)
    if verb == "MOVE":
        return Move(args[0], tuple(args[1:-2]), args[-1])
    if verb == "AIR":
        return Air(args[0], args[2], args[4], args[6])
    if verb in ("LOAD", "UNLOAD"):
        return Load(args[0], args[2]) if verb == "LOAD" else Unload(args[0], args[2])
    if verb == "ATTACK":
        return Attack(args[0], args[1], args[3] if len(args) == 4 else "", len(args) == 3)
    simple: dict[str, Any] = {"FACE": Face, "OVERWATCH": Overwatch}
    return simple[verb](*args) if verb in simple else Hold(args[0])

