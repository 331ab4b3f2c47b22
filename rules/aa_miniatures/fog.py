"""Fog of war (option ``visibility=fog``, issue #17; the fragment itself hides nothing, digest 5).

One rule decides everything a side is told: a side *sees* an enemy unit on the map when one of its
own units on the map has line of sight to it (the game's own :func:`los.clear`, in the game's
reading of L188-L210, vertices included under ``sight=strict``); an aircraft over the map is seen
by everyone (a reading: nothing hides a plane in the sky).  Units aboard a transport neither see nor
are seen.  An event naming units goes to each side that owns or sees one of them, and names each
unit that side does not see "an unseen unit"; its dice go to the sides that see every unit named.
What a side saw last of an enemy it no longer sees is kept per side (:class:`~.model.Glimpse`, with the turn),
taken as a resolution begins, at every hex a unit comes to stand in during it (each step of a move,
so a unit seen only in passing is remembered where it was seen), and as the resolution ends.
"""
from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from types import MappingProxyType

from pbem.core.texts import Text, from_json, msg_of, t_
from pbem.core.work import EVERYONE, Work

from .board import Board
from .los import clear
from .model import SIDES, Glimpse, Unit, name

UNSEEN = t_("an unseen unit")
PLACE = re.compile(r"\{(\d)\}")  # a unit's place in an event's text (in a marked text: an argument "{0}")


def fill(text: str, names: Sequence[str]) -> str:
    """``text`` with ``{0}``, ``{1}``... replaced by ``names``; in a marked text the places are arguments
    whose value is "{0}", so the message keeps its arguments and the names (UNSEEN) translate too."""
    if isinstance(text, Text):
        return from_json(_filled(text.msg, names))
    return PLACE.sub(lambda m: names[int(m[1])], text)


def _filled(msg, names: Sequence[str]):
    if isinstance(msg, str):
        hit = PLACE.fullmatch(msg)
        return msg_of(names[int(hit[1])]) or names[int(hit[1])] if hit else msg
    if isinstance(msg, Mapping) and "join" in msg:
        return dict(msg, parts=[_filled(p, names) for p in msg["parts"]])
    if isinstance(msg, Mapping) and "args" in msg:
        return dict(msg, args={k: _filled(v, names) for k, v in msg["args"].items()})
    return msg


def sees(board: Board, units: Iterable[Unit], side: str, target: Unit, *, strict: bool = False) -> bool:
    """Whether ``side`` sees ``target`` (its own units always): any of its units on the map has a
    clear line of sight to the target's hex."""
    if target.side == side or not target.stats.ground:
        return True
    if target.aboard:  # a passenger is off the map: nobody sees it
        return False
    return any(u.side == side and clear(board, u.hex, target.hex, strict=strict) for u in units)


def seen_enemies(board: Board, units: Sequence[Unit], side: str, *, strict: bool = False) -> list[Unit]:
    """The enemy units on the map ``side`` sees now, in map order."""
    return [u for u in units if u.side != side and sees(board, units, side, u, strict=strict)]


def remember(glimpses: Sequence[Glimpse], board: Board, units: Sequence[Unit], turn: int, *,
             strict: bool = False, lost: Mapping[str, Sequence[Unit]] = MappingProxyType({})) -> tuple[Glimpse, ...]:
    """Each side's memory: what it sees now of the enemy's ground units replaces what it saw before;
    ``lost`` (side -> units) are the enemies each side saw destroyed.  A unit destroyed out of a side's
    sight stays where that side last saw it (it cannot know)."""
    out = {(g.side, g.id): g for g in glimpses}
    for side in SIDES:
        for u in seen_enemies(board, units, side, strict=strict):
            if u.stats.ground:
                out[(side, u.id)] = Glimpse(side, u.id, u.card, u.hex, u.facing, turn)
        for u in lost.get(side, ()):
            out[(side, u.id)] = Glimpse(side, u.id, u.card, u.hex, u.facing, turn, lost=True)
    return tuple(sorted(out.values(), key=lambda g: (g.side, g.id)))


def sightings(board: Board, units: Sequence[Unit], unit: Unit, turn: int, *,
              strict: bool = False) -> list[Glimpse]:
    """What ``unit``, having just come to stand where it is (a step of a move, a unit unloaded),
    lets each side see at that moment: the unit itself, by each enemy side that sees it now, and
    the enemy ground units the unit itself has line of sight to.  Units never block sight (L70), so
    no other pair of units can have come into sight of each other."""
    if unit.aboard or not unit.stats.ground:
        return []
    out = [Glimpse(side, unit.id, unit.card, unit.hex, unit.facing, turn) for side in SIDES
           if side != unit.side and sees(board, units, side, unit, strict=strict)]
    out += [Glimpse(unit.side, u.id, u.card, u.hex, u.facing, turn) for u in units
            if u.side != unit.side and u.stats.ground and not u.aboard
            and clear(board, unit.hex, u.hex, strict=strict)]
    return out


def witnesses(w: Work, unit: Unit) -> list[str]:
    """The sides that see ``unit`` now, its owner's included (told of its destruction)."""
    return [side for side, ids in knowers(w, [unit]).items() if ids]


# ---------------------------------------------------------------------------------------- events
def knowers(w: Work, units: Sequence[Unit]) -> dict[str, set[str]]:
    """For each side, the ids among ``units`` it sees (owned or in sight, judged on the working copy)."""
    b = w.data
    here = b.all()
    return {side: {u.id for u in units if sees(b.board, here, side, u, strict=b.state.sight == "strict")}
            for side in SIDES}


def tell(w: Work, units: Sequence[Unit], text: str, kind: str) -> None:
    """Say an event about ``units``: ``{0}``, ``{1}``... in ``text`` stand for their names (or
    "an unseen unit" to a side that does not see that one).  Open game: one event for everyone."""
    def named(ids: Container[str]) -> str:
        return fill(text, [name(u) if u.id in ids else UNSEEN for u in units])

    if not w.data.state.fog:
        w.say(named({u.id for u in units}), kind=kind)
        return
    known = knowers(w, units)
    by_text: dict[str, list[str]] = {}
    for side in SIDES:
        if known[side]:
            by_text.setdefault(named(known[side]), []).append(side)
    for said, sides in by_text.items():
        w.say(said, to=tuple(sides), kind=kind)


def tell_seen(w: Work, units: Sequence[Unit], text: str, kind: str) -> None:
    """Say an event about ``units`` only to the sides that see every one of them (everyone when open)."""
    audience = dice_seen_by(w, units)
    if audience:
        w.say(fill(text, [name(u) for u in units]), to=audience, kind=kind)


def dice_seen_by(w: Work, units: Sequence[Unit]) -> str | tuple[str, ...]:
    """Who is shown the dice of an action of ``units``: everyone in an open game, else the sides that
    see every unit named (the others read the dice, if at all, in the event told to them)."""
    if not w.data.state.fog:
        return EVERYONE
    known = knowers(w, units)
    ids = {u.id for u in units}
    return tuple(side for side in SIDES if known[side] >= ids)
