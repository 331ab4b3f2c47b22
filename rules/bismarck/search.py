"""The Search Phase [8]: search factors, called hexes, answers, passed-through reports, self-reporting."""
from __future__ import annotations

from dataclasses import replace

from . import tables as T
from .board import board
from .verbs import Search
from .work import Work, enemy


def search_factors(w: Work, side: str, h: str) -> tuple[int, bool]:
    """(SF of ``side`` in hex ``h``, whether an air Search marker contributed) [8]."""
    sf = board().intrinsic[side].get(h, 0)
    units = set()
    for x in w.afloat(side):
        if x.hex != h or x.id in w.s.shadowers:
            continue
        if any(m in x.markers for m in ("repair", "port", "refuel")):
            continue
        units.add(w.unit_of(x.id))
        if "patrol" in x.markers:
            sf += 3
    sf += len(units)
    air = w.search_markers.get((side, h), 0)
    return sf + 2 * air, air > 0


def eligible(w: Work, side: str) -> list[str]:
    if w.s.vis >= T.X:
        return []
    cands = set(board().intrinsic[side]) | {x.hex for x in w.afloat(side)} | \
        {h for (s, h) in w.search_markers if s == side}
    return [h for h in w.sorted_hexes(cands) if not w.fog_blocks(h) and search_factors(w, side, h)[0] >= w.s.vis]


def search_phase(w: Work, by: dict) -> None:
    """The Allied player calls all his hexes first, then the German [8]."""
    searched = []
    for side in ("allied", "german"):
        mode = "ALL"
        listed: list[str] = []
        for o in by[side]:
            if isinstance(o, Search):
                mode, listed = o.mode, list(o.hexes)
        ok = eligible(w, side)
        calls = ok if mode == "ALL" else [] if mode == "NONE" else [h for h in listed if h in ok]
        for h in listed:
            if mode == "LIST" and h not in ok:
                w.tell(side, f"search {h}: not enough search factors (needs {T.vis_text(w.s.vis)})")
        foe = enemy(side)
        found = [h for h in calls if _answer(w, side, foe, h, source="search")]
        empty = [h for h in calls if h not in found]
        if calls:
            w.tell(side, f"searched {len(calls)} hex{'es' if len(calls) != 1 else ''}; nothing in "
                         f"{', '.join(empty) if empty else 'none of them'}" if empty else
                   f"searched {len(calls)} hexes")
            w.say(f"the {side} player searched {', '.join(calls)}; nothing to answer in "
                    f"{', '.join(empty) or 'none'}", to=(foe,), kind="search-called")
        searched.append((side, tuple(calls)))
        _self_report(w, foe, side)
    w.s = replace(w.s, searched=tuple(searched))
    w.search_markers.clear()


def _answer(w: Work, side: str, foe: str, h: str, source: str, self_report: bool = False) -> bool:
    """Answer one called hex; True if there was something to say."""
    present = w.units_in(foe, h)
    _, air = search_factors(w, side, h)
    status = "shadowed" if air and not self_report else "sighted"
    if self_report and w.option("self_report", "sighted") == "shadowed":
        status = "shadowed"
    said = []
    for uid in present:
        c = w.mark(side, uid, status, source)
        if c:
            said.append(f"{c.cid}: {w.describe(c.classes, c.tf)}, {c.status}")
    passed = []
    for uid in w.units(foe):
        ships = w.unit_ships(uid)
        path = w.paths.get(ships[0].id, [])
        if h in path[1:-1] and uid not in present:
            passed.append((uid, ships[0].hex, len(ships)))
    for uid, now, n in passed:
        said.append(f"{n} ship{'s' if n > 1 else ''} passed through, now in {now}")
        if now in eligible(w, side):
            w.mark(side, uid, "sighted", source)
    if not said:
        return False
    text = f"{'self-report' if self_report else 'search'} {h}: " + ("; ".join(said) if said else "nothing")
    w.tell(side, text)
    w.say(f"{'you self-reported' if self_report else 'you answered the ' + side + ' search of'} {h}: "
            f"{'; '.join(said)}", to=(foe,), kind="search-answer")
    return True


def _self_report(w: Work, owner: str, searcher: str) -> None:
    """Ships that entered a hex whose intrinsic SF for the enemy reaches the visibility report themselves [8]."""
    if w.s.vis >= T.X:
        return
    intrinsic = board().intrinsic[searcher]
    done = set()
    for x in w.afloat(owner):
        path = w.paths.get(x.id, [])
        for h in path[1:]:
            if intrinsic.get(h, 0) >= w.s.vis and not w.fog_blocks(h) and h not in done:
                done.add(h)
                if h == x.hex:
                    _answer(w, searcher, owner, h, source="self-report", self_report=True)
                else:
                    n = len(w.unit_ships(w.unit_of(x.id)))
                    w.tell(searcher, f"self-report: {n} ship{'s' if n > 1 else ''} passed through {h}, now in {x.hex}")
                    w.tell(owner, f"you self-reported {w.unit_of(x.id)} passing through {h}")
