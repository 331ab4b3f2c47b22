"""The answers to the short steps as typed values, one frozen class per verb: set-up,
deployment, activation, a reaction and a pursuit [3, 4.3, L140, L291, L317].

Each ``text`` is the canonical line; the checks in :mod:`.orders` read these lines back
into equal values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .geometry import cell_text

Cell = tuple[int, int]


def _opt(key: str, value: str | None) -> str:
    return f" {key} {value}" if value else ""


@dataclass(frozen=True)
class Ground:
    """The two ground objects laid face down, left to right in the side's slots [L279]."""

    VERB: ClassVar[str] = "GROUND"
    objects: tuple[str, ...]

    def text(self) -> str:
        return " ".join(("GROUND",) + self.objects)


@dataclass(frozen=True)
class Pick:
    """Free selection: the personal numbers chosen [L273]."""

    VERB: ClassVar[str] = "PICK"
    numbers: tuple[int, ...]

    def text(self) -> str:
        return " ".join([self.VERB] + [str(n) for n in self.numbers])


@dataclass(frozen=True)
class Keep(Pick):
    """Limited selection: the numbers kept of those drawn [L275]."""

    VERB: ClassVar[str] = "KEEP"


@dataclass(frozen=True)
class Deploy:
    VERB: ClassVar[str] = "DEPLOY"
    ac: str
    alt: str
    cell: Cell | None = None
    face: str | None = None

    def text(self) -> str:
        return (f"DEPLOY {self.ac} {self.alt.upper()}" + _opt("CELL", self.cell and cell_text(self.cell))
                + _opt("FACE", self.face))


@dataclass(frozen=True)
class Activate:
    VERB: ClassVar[str] = "ACTIVATE"
    ac: str

    def text(self) -> str:
        return f"ACTIVATE {self.ac}"


@dataclass(frozen=True)
class PreDiscard:
    """Cards discarded before the activation draw [L291]."""

    VERB: ClassVar[str] = "PRE_DISCARD"
    cards: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join(("PRE_DISCARD",) + self.cards)


@dataclass(frozen=True)
class Play:
    """A reaction card against card ``on`` of the exchange table, from the hand or the dispatch post."""

    VERB: ClassVar[str] = "PLAY"
    card: str
    on: int
    from_dp: bool = False

    @property
    def source(self) -> str:
        return "dp" if self.from_dp else "hand"

    def text(self) -> str:
        return f"PLAY {self.card}{' FROM DP' if self.from_dp else ''} ON {self.on}"


@dataclass(frozen=True)
class Pass:
    VERB: ClassVar[str] = "PASS"

    def text(self) -> str:
        return "PASS"


@dataclass(frozen=True)
class Pursue:
    VERB: ClassVar[str] = "PURSUE"
    go: bool
    cell: Cell | None = None
    face: str | None = None
    discard: tuple[str, ...] = ()  # the cards the pursuit costs, named by the pursuer [L140]

    def text(self) -> str:
        return (f"PURSUE {'YES' if self.go else 'NO'}" + _opt("CELL", self.cell and cell_text(self.cell))
                + _opt("FACE", self.face) + _opt("DISCARD", " ".join(self.discard)))


StepOrder = Ground | Pick | Keep | Deploy | Activate | PreDiscard | Play | Pass | Pursue


def last(orders, *kinds: type):
    """The last order of one of ``kinds`` (a later line replaces an earlier one), or None."""
    found = [o for o in orders if isinstance(o, kinds)]
    return found[-1] if found else None
