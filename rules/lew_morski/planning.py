"""Sequencing one side's moves so that each written MOVE is legal when its turn comes [R 4.1.1, 4.1.6].

Aircraft move one after another and an occupied hex (same altitude) may not be entered, so in a
crowded formation the leaders must move first.  ``plan`` repeatedly moves any aircraft that has a
legal path given the moves already written, and only when none has, lets the first waiting aircraft
fly its forced move (R 4.2.6).  The order checker replays exactly this sequence, so a plan made
from a view is always accepted.  Used by the order form (defaults) and the bot.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable, Mapping, Sequence

from . import board, movement
from .board import Hex
from .own_aircraft import stats_of

Choice = tuple[str, str, movement.Walk]  # (altitude change, path, walk)


def start_of(a: Mapping[str, Any]) -> tuple[Hex, str, str]:
    if a["status"] == "board":
        return board.parse_hex(a["hex"]), a["facing"], a["alt"]  # type: ignore[return-value]
    e = a["entry"]
    return board.parse_hex(e["hex"]), e["facing"], e["alt"]  # type: ignore[return-value]


def movers(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [a for a in view["own"] if a["status"] == "board" or a.get("entry")]


def earlier_allies(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Allies of an earlier seat: the seats' written moves are flown in seat order [G-28], so theirs come
    first and where they end is not known from this view."""
    me = view.get("seat", "")
    return [x for x in view.get("friends", []) if x.get("seat", "") < me]


def occupancy(view: Mapping[str, Any]) -> set[tuple[Hex, str]]:
    """The (hex, altitude) taken when this seat's first move is flown, as far as the view tells: every
    aircraft where it is now except an earlier seat's ally (it will most likely have moved on)."""
    early = {x["id"] for x in earlier_allies(view)}
    return {(board.parse_hex(p["hex"]), p["alt"]) for p in view["planes"] if p["id"] not in early}  # type: ignore[misc]


def plan(view: Mapping[str, Any], order: Sequence[Mapping[str, Any]],
         choose: Callable[[Mapping[str, Any], list[Choice]], Choice]) -> list[tuple[Mapping[str, Any], Choice]]:
    """Each aircraft of ``order`` with its chosen move, in the order the moves must be written."""
    end_only = view["options"]["occupancy"] == "end_hex"
    occ = occupancy(view)
    pending = list(order)
    out: list[tuple[Mapping[str, Any], Choice]] = []

    def commit(a: Mapping[str, Any], c: Choice) -> None:
        h, _, alt = start_of(a)
        occ.discard((h, alt))
        if not c[2].exited:
            occ.add((c[2].end, movement.new_alt(alt, c[0])))  # type: ignore[arg-type]
        out.append((a, c))
        pending.remove(a)

    while pending:
        progressed = False
        for a in list(pending):
            h, f, alt = start_of(a)
            here = (h, alt) in occ
            occ.discard((h, alt))
            opts = movement.options(stats_of(a), h, f, alt, lambda x, y: (x, y) in occ, end_only)
            if here:
                occ.add((h, alt))
            if opts:
                commit(a, choose(a, opts))
                progressed = True
        if not progressed:  # nobody can move freely: the first waiting aircraft makes its forced move
            a = pending[0]
            h, f, _ = start_of(a)
            path = "F" * stats_of(a).min_speed
            commit(a, ("none", path, movement.walk(h, f, path)))
    return out


def default_choice(a: Mapping[str, Any], opts: list[Choice]) -> Choice:
    """Straight ahead at minimum speed if possible, else the nearest thing to it, staying on the board."""
    st = stats_of(a)
    return min(opts, key=lambda o: (o[2].exited, o[0] != "none", abs(o[1].count("F") - st.min_speed),
                                    len(o[1]), o[1], o[0]))


def line(a: Mapping[str, Any], c: Choice) -> str:
    change, path, _ = c
    return f"MOVE {a['id']} {'' if change == 'none' else change.upper() + ' '}{path}"
