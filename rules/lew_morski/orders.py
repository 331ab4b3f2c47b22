"""The orders of the game as typed values, one frozen dataclass per verb [digest 11 order vocabulary].

Each order has a canonical ``text()``: reading that line back for the same seat and view gives the
same value (``checker`` reads the lines; its verb table has the usage of every verb).  Unit names
are always the full ids.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pbem.core.interrupts import Ask
from pbem.core.standing import Standing as StandingStore, StandingOrder

from . import board
from .board import Hex
from .own_aircraft import stats_of as stats_of  # re-exported: bot.py (another engineer's) reads it here


@dataclass(frozen=True)
class Move:
    """Fly ``path``; ``change`` (climb/dive) applies after ``at`` hexes (0 unless option alt_change=any_hex)."""

    ac: str
    path: str
    change: str = "none"
    at: int = 0
    forced: str = ""  # climb or dive: the preferred escape from forced stacking [R 4.2.6]

    def text(self) -> str:
        path = self.path
        head = ""
        if self.change != "none" and self.at:  # written inside the path, e.g. FFDFF [G-22]
            i = _index_after_forward(path, self.at)
            path = path[:i] + self.change[0].upper() + path[i:]
        elif self.change != "none":
            head = self.change.upper() + " "
        tail = f" FORCED {self.forced.upper()}" if self.forced else ""
        return f"MOVE {self.ac} {head}{path}{tail}"


def _index_after_forward(path: str, n: int) -> int:
    """The position in ``path`` just after its n-th F."""
    seen = 0
    for i, ch in enumerate(path):
        if ch == "F":
            seen += 1
            if seen == n:
                return i + 1
    return len(path)


@dataclass(frozen=True)
class Enter:
    """Bring a due or returning aircraft onto the board; ``alt`` only when the owner chose it [G-6]."""

    ac: str
    hex: Hex
    facing: str
    alt: str = ""

    def text(self) -> str:
        return f"ENTER {self.ac} {board.fmt(self.hex)} {self.facing}" + (f" {self.alt}" if self.alt else "")


@dataclass(frozen=True)
class Withdraw:
    ac: str

    def text(self) -> str:
        return f"WITHDRAW {self.ac}"


@dataclass(frozen=True)
class Fire:
    """Fire at the nearest aircraft on the line of fire; ``at`` holds fire unless that is the target."""

    ac: str
    at: str = ""
    verb: ClassVar[str] = "FIRE"

    def text(self) -> str:
        return f"FIRE {self.ac}" + (f" AT {self.at}" if self.at else "")


@dataclass(frozen=True)
class Bomb:
    """Bomb series on hexes flown over this stage, in canonical hex names."""

    ac: str
    hexes: tuple[str, ...]
    verb: ClassVar[str] = "BOMB"

    def text(self) -> str:
        return f"BOMB {self.ac} {' '.join(self.hexes)}"


@dataclass(frozen=True)
class Unjam:
    ac: str
    verb: ClassVar[str] = "UNJAM"

    def text(self) -> str:
        return f"UNJAM {self.ac}"


@dataclass(frozen=True)
class AaFire:
    gun: str
    at: str
    verb: ClassVar[str] = "AAFIRE"

    def text(self) -> str:
        return f"AAFIRE {self.gun} {self.at}"


@dataclass(frozen=True)
class Policy:
    """A standing order, kept in the kit's store under "<VERB> <unit>": ``kind`` react (ALWAYS, NEVER,
    ASK, BOMBER, STRENGTH:k), return (YES, NO) or aa (AUTO, BOMBERS, HOLD) [R 5.4, 6, G-31]."""

    unit: str
    kind: str
    value: str

    def text(self) -> str:
        return f"{policy_key(self.kind, self.unit)} {policy_words(self.value)}"

    def standing_change(self) -> tuple[str, str | None]:
        return policy_key(self.kind, self.unit), self.text()


@dataclass(frozen=True)
class AllUnits:
    """``REACT|RETURNFIRE|AA ALL <value>``: the same standing order for every unit of the seat; the
    checker hands on one :class:`Policy` per unit (``policies``)."""

    kind: str
    value: str
    units: tuple[str, ...]

    def text(self) -> str:
        return f"{WORDS[self.kind]} ALL {policy_words(self.value)}"

    @property
    def policies(self) -> tuple[Policy, ...]:
        return tuple(Policy(u, self.kind, self.value) for u in self.units)


WORDS = {"react": "REACT", "return": "RETURNFIRE", "aa": "AA"}
KINDS = {word: kind for kind, word in WORDS.items()}


def policy_key(kind: str, unit: str) -> str:
    """The key a unit's standing order is kept under in the kit's store, e.g. "REACT Spit-1"."""
    return f"{WORDS[kind]} {unit}"


def policy_words(value: str) -> str:
    """How a stored standing-order value is written in an order file."""
    if value == "BOMBER":
        return "IF BOMBER"
    if value.startswith("STRENGTH:"):
        return "IF STRENGTH>=" + value.split(":")[1]
    return value


def policy_value(words: Sequence[str]) -> str:
    """The value of a kept standing order from the words after its key (inverse of :func:`policy_words`)."""
    text = "".join(words)
    if text == "IFBOMBER":
        return "BOMBER"
    if text.startswith("IFSTRENGTH>="):
        return "STRENGTH:" + text.split(">=")[1]
    return text


def policy_of(kept: StandingOrder) -> Policy:
    """A standing order as the kit's store keeps it (its canonical text), read back."""
    return Policy(kept.words[1], KINDS[kept.words[0]], policy_value(kept.words[2:]))


def kept_policy(store: StandingStore, seat: str, unit: str, kind: str, default: str) -> str:
    """The value of the standing order ``seat`` keeps for its ``unit``, or ``default``."""
    kept = store.get(seat, policy_key(kind, unit))
    return policy_of(kept).value if kept is not None else default


@dataclass(frozen=True)
class ReactAnswer:
    """The answer to an interrupt window: FIRE or HOLD for one asked aircraft [R 5.4]."""

    ac: str
    decision: str

    def text(self) -> str:
        return f"REACT {self.ac} {self.decision}"

    def answer_to(self, ask: Ask) -> str | None:
        return self.decision if ask.key == self.ac else None


@dataclass(frozen=True)
class Place:
    ac: str
    hex: Hex
    facing: str

    def text(self) -> str:
        return f"PLACE {self.ac} {board.fmt(self.hex)} {self.facing}"


@dataclass(frozen=True)
class PlaceGun:
    gun: str
    hex: Hex

    def text(self) -> str:
        return f"AA {self.gun} {board.fmt(self.hex)}"


@dataclass(frozen=True)
class Pass:
    def text(self) -> str:
        return "PASS"


Action = Fire | Bomb | Unjam | AaFire  # the combat phase's orders, resolved in the order written
Order = Move | Enter | Withdraw | Action | Policy | AllUnits | ReactAnswer | Place | PlaceGun | Pass
ACTIONS: dict[str, type] = {c.verb: c for c in (Fire, Bomb, Unjam, AaFire)}


def action_data(a: Action) -> dict[str, Any]:
    """An action as JSON, for a combat phase paused in an interrupt window."""
    return {"verb": a.verb, **{k: list(v) if isinstance(v, tuple) else v for k, v in vars(a).items()}}


def action_from_data(d: Mapping[str, Any]) -> Action:
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items() if k != "verb"}
    return ACTIONS[d["verb"]](**fields)


def flatten(orders: Sequence[Order]) -> tuple[Order, ...]:
    """The orders with every ALL standing order replaced by one order per unit."""
    return tuple(p for o in orders for p in (o.policies if isinstance(o, AllUnits) else (o,)))


def merge(orders: Mapping[str, Sequence[Order] | None]) -> tuple[Order, ...]:
    """Several seats of one side: their orders in seat order, each seat's in the order written [G-28]."""
    return tuple(o for seat in sorted(orders) for o in (orders[seat] or ()))


def of_type(orders: Sequence[Order], cls: Any) -> list[Any]:
    """The orders that are instances of ``cls`` (a class or a union), in order."""
    return [o for o in orders if isinstance(o, cls)]
