"""Movement: path notation, legality and enumeration [R 4, 4.0-4.3; digest 7.1].

A path is a string of F (one hex forward), with at most one L or R (a 60 degree turn) [R 4.0].
Altitude may change by one level per movement phase, from the first hex entered (G-22):
descending gives +1 to the speed limit [R 4.2.2], climbing -1 and is impossible if the reduced
limit is below the minimum speed [R 4.2.4].
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass
from collections.abc import Callable, Iterable

from pbem.core.texts import t_, tn_

from . import board
from .board import Hex
from .state import ALTS
from .tables import Stats

_PATH = re.compile(r"^[FLR]+$")


@dataclass(frozen=True)
class Walk:
    """The hexes a path enters (with the facing after each step) and whether it leaves the board."""

    cells: tuple[tuple[Hex, str], ...]
    exited: bool
    off_hex: Hex | None
    facing: str

    @property
    def end(self) -> Hex | None:
        return self.cells[-1][0] if self.cells else None


def new_alt(alt: str, change: str) -> str:
    i = ALTS.index(alt)
    if change == "climb":
        return ALTS[max(0, i - 1)]
    if change == "dive":
        return ALTS[min(2, i + 1)]
    return alt


def limit(st: Stats, change: str) -> int:
    return st.max_speed + (1 if change == "dive" else 0) - (1 if change == "climb" else 0)


def altitude_problem(st: Stats, alt: str, change: str) -> str | None:
    """Why the altitude change is impossible, or None [R 4.2.2-4.2.4]."""
    if change == "climb":
        if alt == "HIGH":
            return t_("it is already high and cannot climb")
        if limit(st, "climb") < st.min_speed:
            return tn_("climbing leaves %(n)s movement points, less than its minimum speed %(min)s, so it cannot climb",
                       "climbing leaves %(n)s movement points, less than its minimum speed %(min)s, so it cannot climb",
                       limit(st, "climb"), min=st.min_speed)
    if change == "dive" and alt == "VLOW":
        return t_("it is already very low and cannot descend")
    return None


@lru_cache(maxsize=200000)
def walk(start: Hex, facing: str, path: str) -> Walk:
    """Follow a path from ``start``; stops at the first step off the board [R 4.3]."""
    cells: list[tuple[Hex, str]] = []
    cur, f = start, facing
    for ch in path:
        if ch in "LR":
            f = board.turn(f, ch)
            continue
        nxt = board.step(cur, f)
        if not board.on_board(nxt):
            return Walk(tuple(cells), True, nxt, f)
        cells.append((nxt, f))
        cur = nxt
    return Walk(tuple(cells), False, None, f)


def shape_problem(path: str, st: Stats, change: str, start: Hex, facing: str) -> str | None:
    """Why the path breaks the movement rules, or None [R 4.0, 4.1.2, 4.2]."""
    if not _PATH.match(path):
        return t_("a path is made of F, L and R only (e.g. FFRFF)")
    turns = [i for i, ch in enumerate(path) if ch in "LR"]
    if len(turns) > 1:
        return t_("only one 60 degree turn per stage is allowed")
    n = path.count("F")
    lim = limit(st, change)
    if turns:
        k1 = turns[0]
        k2 = n - k1
        if k1 < st.manoeuvrability:
            return tn_("manoeuvrability %(n)s: it must fly %(n)s hex(es) straight before turning",
                       "manoeuvrability %(n)s: it must fly %(n)s hex(es) straight before turning", st.manoeuvrability)
        if k2 < 1:
            return t_("after the turn it must move at least 1 more hex")
    if n > lim:
        return tn_("path has %(n)s hexes but its limit this stage is %(lim)s",
                   "path has %(n)s hexes but its limit this stage is %(lim)s", n, lim=lim)
    if n < st.min_speed:
        w = walk(start, facing, path)
        if not w.exited:
            return tn_("path has %(n)s hexes but its minimum speed is %(min)s",
                       "path has %(n)s hexes but its minimum speed is %(min)s", n, min=st.min_speed)
    return None


@lru_cache(maxsize=1024)
def all_paths(st: Stats, change: str) -> tuple[str, ...]:
    """Every path shape legal for these stats (ignoring the board edge), shortest first."""
    lim = limit(st, change)
    out: list[str] = []
    for n in range(st.min_speed, lim + 1):
        out.append("F" * n)
        for k1 in range(st.manoeuvrability, n):
            for t in "LR":
                out.append("F" * k1 + t + "F" * (n - k1))
    return tuple(out)


def changes_for(st: Stats, alt: str) -> tuple[str, ...]:
    return tuple(c for c in ("none", "dive", "climb") if altitude_problem(st, alt, c) is None)


Occupied = Callable[[Hex, str], bool]


def first_block(w: Walk, alt: str, occupied: Occupied, end_only: bool, before: str = "", at: int = 0) -> Hex | None:
    """The first entered hex already holding an aircraft at its altitude [R 4.1.1, G-23].

    ``alt`` is the altitude after the change; with option alt_change=any_hex (G-22) the first ``at``
    hexes are flown at ``before``.
    """
    idx = range(len(w.cells))
    if end_only:
        idx = range(len(w.cells) - 1, len(w.cells)) if not w.exited else range(0)
    for i in idx:
        h = w.cells[i][0]
        if occupied(h, before if (before and i < at) else alt):
            return h
    return None


def split_change(path: str) -> tuple[str, str, int]:
    """Read a change point written in the path (option alt_change=any_hex, G-22): "FFDFF" dives after 2 hexes.

    Returns (path without the letter, change, hexes flown before the change)."""
    for letter, change in (("C", "climb"), ("D", "dive")):
        if letter in path:
            i = path.index(letter)
            head = path[:i]
            return head + path[i + 1:], change, head.count("F")
    return path, "none", 0


def options(st: Stats, start: Hex, facing: str, alt: str, occupied: Occupied, end_only: bool,
            changes: Iterable[str] | None = None) -> list[tuple[str, str, Walk]]:
    """Every (change, path, walk) that is legal and enters no occupied hex."""
    out = []
    for ch in (changes if changes is not None else changes_for(st, alt)):
        a2 = new_alt(alt, ch)
        seen_exit = set()
        for p in all_paths(st, ch):
            w = walk(start, facing, p)
            if w.exited:
                # every path that leaves at the same step is the same move: keep the shortest
                key = (len(w.cells), w.off_hex)
                if key in seen_exit:
                    continue
                seen_exit.add(key)
            if first_block(w, a2, occupied, end_only) is None:
                out.append((ch, p, w))
        # paths shorter than the minimum that leave the board [digest 7.1.6]
        for n in range(1, st.min_speed):
            p = "F" * n
            w = walk(start, facing, p)
            if w.exited and (len(w.cells), w.off_hex) not in seen_exit:
                seen_exit.add((len(w.cells), w.off_hex))
                if first_block(w, a2, occupied, end_only) is None:
                    out.append((ch, p, w))
    return out
