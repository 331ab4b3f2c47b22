"""Fog of war (option ``visibility=fog``): what a side sees, the Defender's radar plots, and the one
audience rule for every event and roll.

The rules hide nothing [5.2]: the map and both Wing Displays are public, so fog is a house rule, read here
from the rules' own sighting: a side *sees* an enemy squadron when one of its squadrons on the map could
look at it for a tally [7.2] — within the sighting range, with a line of sight that clouds do not block
[4.6.1] — or when the two share a square, or one tallies the other (the Tally marker sits on its target,
7.2.1).  The sighting range is the tally range (9) shortened by the same tally modifiers the line carries
for its weather [4.7] (haze, cloud, rain) and for a target up-sun [4.6.2]; the "behind" modifier is a
matter of where the pilots look, not of what can be seen, and does not shorten it.  A squadron destroyed
is seen falling where it was by those who see that square; one escaped, gone off the map or not yet
arrived is seen by nobody but its side.  The seats of a side share what the side sees.

Radar (a placeholder reading; the basic rules have no radar, only GCI Control [9.2.4], which lets the
Defender put a vector anywhere on the map and so knows of raids before they are sighted): a Defender whose
scenario has GCI gets a plot of the Raider's unseen squadrons on the map — the sector of columns, the
altitude band and how many squadrons — never which squadrons.

Events: an event about squadrons goes to each side that owns or sees the squadron acting in it (a side
that does not see a squadron is not told what it does: a tally tried on you by a squadron you do not see
goes unnoticed), with every other squadron that side does not see named "an unseen formation"; its data
(ids for the sitrep's tables) only to the sides that see every one.  A roll goes to the sides that see
every squadron it is about.  An event about no squadron goes to everyone.  A move is told whole only to the
sides that see the squadron before and after it; the others seeing it at one end are told that it came into
or flew out of sight.  Open games (the default) tell everyone everything.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pbem.core.work import EVERYONE, Audience, Work

from .model import DESTROYED, ON, SIDES, Glimpse, Squadron, State
from .radio import gci_rating
from .sky import COLUMNS, Sky, distance, on_map
from .tables import BANDS, aircraft, band, card, tables

UNSEEN = "an unseen formation"


def sector() -> int:
    """The columns of one radar plot's sector (placeholder, ``tables.toml`` [fog])."""
    return int(tables()["fog"]["radar_sector"])


def fogged(state: State) -> bool:
    return state.option("visibility", "open") == "fog"


def sighting_range(sky: Sky, seer: Squadron, target: Squadron) -> int:
    """How far ``seer`` sees toward ``target``: the tally range [7.2] plus the line's weather and up-sun
    tally modifiers (both negative) [4.7, 4.6.2]."""
    t = tables()
    reach = int(t["map"]["tally_range"]) - sky.sight(seer.at, target.at).weather
    if sky.up_sun(seer.at, target.at):
        reach += int(t["tally_modifiers"]["up_sun"])
    return reach


def spots(sky: Sky, seer: Squadron, target: Squadron) -> bool:
    """Whether ``seer`` (on the map) sees ``target``'s square: the same square, or within its sighting range
    with a line of sight the clouds do not block [4.6.1]."""
    if seer.at == target.at:
        return True
    if sky.sight(seer.at, target.at).blocked:
        return False
    return distance(seer.at, target.at) <= sighting_range(sky, seer, target)


def sees(state: State, side: str, target: Squadron, sky: Sky | None = None) -> bool:
    """Whether ``side`` sees ``target`` now (its own squadrons always)."""
    if target.side == side:
        return True
    if target.status not in (ON, DESTROYED) or not on_map(target.at):
        return False
    own = [s for s in state.squadrons if s.side == side and s.on_map]
    if target.on_map and any(s.tally == target.id or target.tally == s.id for s in own):
        return True
    sky = sky or state.sky
    return any(spots(sky, s, target) for s in own)


def seen(state: State, side: str) -> set[str]:
    """The ids of the enemy squadrons ``side`` sees (on the map, or seen destroyed)."""
    sky = state.sky
    return {s.id for s in state.squadrons if s.side != side and sees(state, side, s, sky)}


def visible(state: State, side: str) -> list[Squadron]:
    """The squadrons a side is shown: all of its own, the enemies it sees and those it saw destroyed; all of
    them in an open game."""
    if not fogged(state):
        return list(state.squadrons)
    ids = seen(state, side) | {g.id for g in state.last_known if g.side == side and g.lost}
    return [s for s in state.squadrons if s.side == side or s.id in ids]


def remember(state: State) -> tuple[Glimpse, ...]:
    """Each side's memory after a resolution: what it sees now of each enemy replaces what it saw before
    (a squadron seen destroyed is remembered as lost).  An open game remembers nothing."""
    if not fogged(state):
        return state.last_known
    out = {(g.side, g.id): g for g in state.last_known}
    for side in SIDES:
        for sid in seen(state, side):
            s = state.squadron(sid)
            out[(side, sid)] = Glimpse(side, sid, s.model, s.at, s.heading, state.turn, lost=s.status == DESTROYED)
    return tuple(sorted(out.values(), key=lambda g: (g.side, g.id)))


def last_known(state: State, side: str) -> list[dict[str, Any]]:
    """The enemies ``side`` saw once and does not see now, where it saw them last (greyed in the picture)."""
    if not fogged(state):
        return []
    now = seen(state, side)
    return [{"id": g.id, "side": _foe(side), "aircraft": card(g.model)["name"], "at": list(g.at),
             "heading": g.heading, "turn": g.turn}
            for g in state.last_known if g.side == side and g.id not in now and not g.lost]


def plots(state: State, side: str) -> list[dict[str, Any]]:
    """The Defender's radar plots under GCI (placeholder): the Raider's squadrons on the map it does not
    see, grouped by sector of columns and altitude band, each with how many there are."""
    if not fogged(state) or side != state.defender or not gci_rating(state):
        return []
    now = seen(state, side)
    width = sector()
    counts: dict[tuple[int, str], int] = {}
    for s in state.squadrons:
        if s.side == state.raider and s.on_map and s.id not in now:
            key = (s.at[0] // width, band(s.at[1]))
            counts[key] = counts.get(key, 0) + 1
    bands = _bands()
    last = len(COLUMNS) - 1
    return [{"columns": f"{COLUMNS[k * width]}-{COLUMNS[min(k * width + width - 1, last)]}",
             "first": k * width, "last": min(k * width + width - 1, last), "band": b,
             "altitudes": list(bands[b]), "count": n}
            for (k, b), n in sorted(counts.items(), key=lambda kv: (kv[0][0], bands[kv[0][1]][0]))]


def _bands() -> dict[str, tuple[int, int]]:
    """Each altitude band's first and last altitude [3.3.1, GAP-8]."""
    starts = [int(aircraft()["bands"][b]) for b in BANDS]
    top = int(tables()["map"]["altitudes"]) - 1
    return {b: (starts[i], starts[i + 1] - 1 if i + 1 < len(BANDS) else top) for i, b in enumerate(BANDS)}


def _foe(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


# ---------------------------------------------------------------------------------------- audience
def knowers(w: Work[Any], ids: Iterable[str]) -> dict[str, set[str]]:
    """For each side, which of the squadrons ``ids`` it sees now (judged on the working copy; a squadron
    split into flights is judged as it was)."""
    air = w.data
    state = air.now()
    sky = state.sky
    found = [air.squadrons.get(i) or air.state.find(i) for i in dict.fromkeys(ids)]
    named = [s for s in found if s is not None]
    return {side: {s.id for s in named if sees(state, side, s, sky)} for side in SIDES}


def redact(text: str, hidden: Iterable[str]) -> str:
    """``text`` with each squadron id of ``hidden`` (whole words only) replaced by "an unseen formation"."""
    for sid in sorted(hidden, key=len, reverse=True):
        text = re.sub(rf"(?<![\w]){re.escape(sid)}(?![\w])", UNSEEN, text)
    return text


def tell(w: Work[Any], text: str, ids: Sequence[str], kind: str, **data: Any) -> None:
    """Say an event about the squadrons ``ids`` (named by their ids in ``text``; the first is the one
    acting).  Under fog it goes to each side that owns or sees the one acting, with every other one it does
    not see named "an unseen formation"; ``data`` (ids for the sitrep's tables) only to the sides that see
    them all.  No ids, or an open game: one event for everyone."""
    if not ids or not fogged(w.data.state):
        w.say(text, kind=kind, **data)
        return
    known = knowers(w, ids)
    every = set(ids)
    groups: dict[tuple[str, bool], list[str]] = {}
    for side in SIDES:
        if ids[0] in known[side]:
            groups.setdefault((redact(text, every - known[side]), known[side] >= every), []).append(side)
    for (said, whole), sides in groups.items():
        w.say(said, to=tuple(sides), kind=kind, **(data if whole else {}))


def witnesses(w: Work[Any], sid: str) -> set[str]:
    """The sides that see squadron ``sid`` now (its own always)."""
    return {side for side, ids in knowers(w, [sid]).items() if ids}


def tell_move(w: Work[Any], sid: str, before: set[str], full: str, left: str, came: str) -> None:
    """A move under fog: told in ``full`` to the sides that saw the squadron before and see it after (its own
    always); ``left`` to those that saw it fly out of sight (not where it went); ``came`` to those that see it
    come into sight (not where it came from).  Open game: ``full`` to everyone."""
    if not fogged(w.data.state):
        w.say(full, kind="move")
        return
    after = witnesses(w, sid)
    groups: dict[str, list[str]] = {}
    for side in SIDES:
        text = full if side in before and side in after else left if side in before else came if side in after else ""
        if text:
            groups.setdefault(text, []).append(side)
    for said, sides in groups.items():
        w.say(said, to=tuple(sides), kind="move")


def told(w: Work[Any], side: str, text: str, ids: Sequence[str]) -> str:
    """``text`` as ``side`` may read it (a question put to one of its seats): the squadrons of ``ids`` it
    does not see named "an unseen formation"."""
    if not fogged(w.data.state):
        return text
    return redact(text, set(ids) - knowers(w, ids)[side])


def own(w: Work[Any], side: str) -> Audience:
    """The audience of what only ``side`` may know under fog (its ground control's vectors, its orders
    skipped); everyone in an open game."""
    return side if fogged(w.data.state) else EVERYONE


def dice_seen_by(w: Work[Any], ids: Sequence[str]) -> Audience:
    """Who is shown a roll about the squadrons ``ids``: everyone in an open game, else the sides that see
    every one of them (the others read what it did, if at all, in the event told to them)."""
    if not fogged(w.data.state):
        return EVERYONE
    known = knowers(w, ids)
    every = set(ids)
    return tuple(side for side in SIDES if known[side] >= every)


def tell_order(w: Work[Any], order: Sequence[str]) -> None:
    """The movement order [6.1]: under fog each side hears it with only the squadrons it sees."""
    if not fogged(w.data.state):
        w.say("movement order: " + " ".join(order), kind="order")
        return
    known = knowers(w, order)
    groups: dict[str, list[str]] = {}
    for side in SIDES:
        groups.setdefault(" ".join(s for s in order if s in known[side]), []).append(side)
    for said, sides in groups.items():
        w.say("movement order: " + said, to=tuple(sides), kind="order")
