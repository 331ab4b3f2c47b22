"""Dice: the only source of chance a ruleset may use.

A :class:`SeededDice` derives its stream from the game's secret seed and the
key of the phase being resolved, so resolving a phase twice gives the same
rolls and a finished game can be re-run from its journal.  The generator is
SHA-256 in counter mode with rejection sampling rather than :mod:`random`,
whose algorithms may change between Python versions; a replay must still
work after an upgrade.

Every draw is recorded as a :class:`Roll` carrying who may see it, so each
sitrep can show exactly the rolls its reader may know of.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """One draw: ``value`` on a die of ``sides`` (or an index into a shuffle), why, and who saw it.

    ``seen_by`` holds seat names; the empty set means only the umpire (the
    journal) knows the value.
    """

    sides: int
    value: int
    why: str
    seen_by: frozenset[str]


class Dice(Protocol):
    """What rulesets receive.  ``seen_by`` is required: a roll is secret unless said otherwise."""

    def roll(self, sides: int, *, why: str, seen_by: Iterable[str]) -> int:
        """Return a uniform integer in 1..sides and record it."""
        ...

    def shuffle(self, items: Sequence[T], *, why: str, seen_by: Iterable[str] = ()) -> tuple[T, ...]:
        """Return the items in a uniformly random order (a Fisher-Yates shuffle of rolls)."""
        ...

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every draw so far, in order."""
        ...


class _RecordingDice:
    def __init__(self) -> None:
        self._rolls: list[Roll] = []

    def _draw(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(self, sides: int, *, why: str, seen_by: Iterable[str]) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        value = self._draw(sides)
        self._rolls.append(Roll(sides, value, why, frozenset(seen_by)))
        return value

    def shuffle(self, items: Sequence[T], *, why: str, seen_by: Iterable[str] = ()) -> tuple[T, ...]:
        out = list(items)
        seen = frozenset(seen_by)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(i + 1, why=why, seen_by=seen) - 1
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(self._rolls)


class SeededDice(_RecordingDice):
    """Deterministic dice for one resolution, keyed by the game seed and a phase key."""

    def __init__(self, seed: bytes, key: str) -> None:
        super().__init__()
        self._base = hashlib.sha256(seed + b"\x00" + key.encode()).digest()
        self._counter = 0
        self._pool = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            self._counter += 1
            self._pool += hashlib.sha256(self._base + self._counter.to_bytes(8, "big")).digest()
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def _draw(self, sides: int) -> int:
        # Rejection sampling on 32-bit words keeps every face exactly equally likely.
        limit = (1 << 32) - (1 << 32) % sides
        while True:
            word = int.from_bytes(self._bytes(4), "big")
            if word < limit:
                return word % sides + 1


class FixedDice(_RecordingDice):
    """Dice that return given values in order, for tests built from rulebook examples.

    Raises :class:`AssertionError` when it runs out or a value cannot come up
    on the die asked for, so a test cannot silently consume the wrong roll.
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._next = 0

    def _draw(self, sides: int) -> int:
        if self._next >= len(self._values):
            raise AssertionError(f"FixedDice ran out after {self._next} rolls (asked for a d{sides})")
        value = self._values[self._next]
        if not 1 <= value <= sides:
            raise AssertionError(f"FixedDice value {value} cannot come up on a d{sides} (roll #{self._next + 1})")
        self._next += 1
        return value

    @property
    def unused(self) -> int:
        """How many values were never drawn."""
        return len(self._values) - self._next
