"""The Search Phase [8]: search factors, called hexes, answers, passed-through reports, self-reporting."""
from __future__ import annotations

from pbem.core.texts import join, t_, tn_

from .words import word

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
                w.tell(side, t_('search %(h)s: not enough search factors (needs %(v)s)', h=h, v=T.vis_text(w.s.vis)))
        foe = enemy(side)
        found = [h for h in calls if _answer(w, side, foe, h, source="search")]
        empty = [h for h in calls if h not in found]
        if calls:
            w.tell(side, f"searched {len(calls)} hex{'es' if len(calls) != 1 else ''}; nothing in "
                         f"{', '.join(empty) if empty else 'none of them'}" if empty else
                   f"searched {len(calls)} hexes")
            w.say(t_('the %(side)s player searched %(v)s; nothing to answer in %(v2)s', side=side, v=', '.join(calls), v2=', '.join(empty) or t_('none')), to=(foe,), kind="search-called")
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
            said.append(t_("%(cid)s: %(what)s, %(status)s", cid=c.cid, what=w.describe(c.classes, c.tf),
                           status=word(c.status)))
    passed = []
    for uid in w.units(foe):
        ships = w.unit_ships(uid)
        path = w.paths.get(ships[0].id, [])
        if h in path[1:-1] and uid not in present:
            passed.append((uid, ships[0].hex, len(ships)))
    for uid, now, n in passed:
        said.append(tn_("%(n)s ship passed through, now in %(now)s", "%(n)s ships passed through, now in %(now)s",
                        n, now=now))
        if now in eligible(w, side):
            w.mark(side, uid, "sighted", source)
    if not said:
        return False
    w.tell(side, t_("self-report %(h)s: %(said)s", h=h, said=join("; ", said)) if self_report else
           t_("search %(h)s: %(said)s", h=h, said=join("; ", said)))
    said_text = join("; ", said)
    w.say(t_("you self-reported %(h)s: %(said)s", h=h, said=said_text) if self_report else
          t_("you answered the %(side)s search of %(h)s: %(said)s", side=side, h=h, said=said_text),
          to=(foe,), kind="search-answer")
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
                    w.tell(searcher, tn_("self-report: %(n)s ship passed through %(h)s, now in %(hex)s",
                                             "self-report: %(n)s ships passed through %(h)s, now in %(hex)s",
                                             n, h=h, hex=x.hex))
                    w.tell(owner, t_('you self-reported %(v)s passing through %(h)s', v=w.unit_of(x.id), h=h))
