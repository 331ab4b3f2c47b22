"""Naval movement and fuel [7.7.2], shared by order checking (from a view) and resolution.

Functions take ships as plain dicts with the :class:`~.model.Ship` field names, so a view's
ship list and the state's ships go through the same rules.
"""
from __future__ import annotations

from pbem.core.texts import join, t_, tn_


from pbem.core.data import data_cache

from .board import board, hex_key
from .tables import HEAVY

BUSY = ("patrol", "repair", "port", "refuel")


def er_now(x: dict) -> int:
    return 0 if x["rudder"] else max(0, x["er"] + sum(x["ee"]))


def damaged(x: dict) -> bool:
    """A Fast ship at ER 25 or less uses its damaged side: at most 1 hex a turn [2.3.1]."""
    return x["speed"] == "F" and er_now(x) <= 25


def fuel_cost(speed: str, last: int, now: int) -> int:
    """FP a ship pays for moving ``now`` hexes after ``last`` hexes last turn [7.7.2]."""
    if speed == "F":
        if now < 2:
            return 0
        return 2 if last >= 2 else 1
    if speed == "M":
        return 1 if now == 1 and last >= 1 else 0
    return 0


def ship_limit(x: dict) -> tuple[int, str]:
    """How many hexes one ship may move this turn and, at 0, why."""
    if x["rudder"] or er_now(x) == 0:
        return 0, t_("rudder damage or evasion rating 0 [9]")
    if x["no_mvt"] > 0:
        return 0, t_('NO MVT %(no_mvt)s marker [7.7.2]', no_mvt=x['no_mvt'])
    busy = [m for m in x["markers"] if m in BUSY]
    if busy:
        return 0, t_('%(v)s marker: the ship stays this turn [7.3-7.6]', v=busy[0])
    if x["speed"] in ("S", "VS"):
        n = 1
    elif x["speed"] == "M":
        n = 1
    else:
        n = 1 if damaged(x) else 2
    if "evasion" in x["markers"]:
        n = min(n, 1)
    return n, ""


def unit_limit(ships: list[dict]) -> tuple[int, str]:
    """A task force moves at the speed of its slowest ship [7.7.2]."""
    best, why = 9, ""
    for x in ships:
        n, w = ship_limit(x)
        if n < best:
            best, why = n, (t_("%(id)s: %(why)s", id=x["id"], why=w) if w else "")
    return best, why


def dd_exception(own: list[dict]) -> bool:
    """German DDs may cross the restriction line while a reduced-ER heavy ship is returning to base."""
    return any(x["cls"] in HEAVY and "rtb" in x["markers"] and (x["rudder"] or sum(x["ee"]) < 0) for x in own)


@data_cache  # one result per game data correction (pbem.core.data)
def dd_distances() -> dict[str, int]:
    """Shortest German ship distance from every sea hex to the destroyer restriction area [7.7.2]."""
    b = board()
    dist = {h: 0 for h in b.dd_area}
    frontier = sorted(b.dd_area, key=hex_key)
    while frontier:
        nxt = []
        for h in frontier:
            for n in b.sea_neighbours(h, "german"):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def must_return(x: dict, own: list[dict]) -> bool:
    """A German DD outside the restriction line once the RTB exception has ended [7.7.2]."""
    return (x["cls"] == "DD" and x["side"] == "german" and x["hex"] not in board().dd_area
            and not dd_exception(own))


def return_length(x: dict, limit: int) -> int:
    """How many hexes a returning DD must move this turn: its full allowance, as far as its fuel pays."""
    n = min(limit, dd_distances().get(x["hex"], 0))
    while n > 1 and x["speed"] in ("F", "M") and (
            fuel_cost(x["speed"], x["moved_last"], n) > (0 if x["emergency"] >= 0 else x["fuel"])):
        n -= 1
    return n


def homeward(x: dict, path: list[str], limit: int) -> str:
    """'' if ``path`` takes the DD ``x`` back toward the restriction area as fast as it can [7.7.2]."""
    dist = dd_distances()
    d = dist.get(x["hex"], 0)
    inside = False
    for h in path:
        if inside:
            if h not in board().dd_area:
                return t_('%(id)s is back behind the destroyer restriction line and may not cross it again [7.7.2]', id=x['id'])
            continue
        if dist.get(h, 99) != d - 1:
            return (t_('%(id)s must return behind the destroyer restriction line as soon as possible: each hex must bring it closer (from %(hex)s go to %(v)s) [7.7.2]', id=x['id'], hex=x['hex'], v=join(t_(" or "), return_steps(x['hex']))))
        d -= 1
        inside = d == 0
    need = return_length(x, limit)
    if not inside and len(path) < need:
        return (tn_("%(id)s must return behind the destroyer restriction line as soon as possible: move %(n)s hex "
                    "toward it this turn [7.7.2]",
                    "%(id)s must return behind the destroyer restriction line as soon as possible: move %(n)s hexes "
                    "toward it this turn [7.7.2]", need, id=x["id"]))
    return ""


def return_steps(h: str) -> list[str]:
    """The neighbours of ``h`` one hex closer to the restriction area, in map order."""
    dist = dd_distances()
    d = dist.get(h, 0)
    return sorted((n for n in board().sea_neighbours(h, "german") if dist.get(n, 99) == d - 1), key=hex_key)


def return_path(x: dict, limit: int) -> list[str]:
    """The path a returning DD is moved along when no order moves it [7.7.2]."""
    path, here = [], x["hex"]
    for _ in range(return_length(x, limit)):
        steps = return_steps(here)
        if not steps:
            break
        here = steps[0]
        path.append(here)
    return path


def check_path(side: str, ships: list[dict], path: list[str], own: list[dict]) -> str:
    """'' if the unit of ``ships`` may move along ``path`` (hexes entered), else why not."""
    limit, why = unit_limit(ships)
    if len(path) > limit:
        return why or tn_("the unit may move at most %(n)s hex this turn [7.7.2]",
                          "the unit may move at most %(n)s hexes this turn [7.7.2]", limit)
    dd_ok = dd_exception(own)
    return _steps(side, ships[0]["hex"], path) or next(
        (why for x in ships if (why := _ship_may(side, x, path, limit, dd_ok))), "")


def _steps(side: str, here: str, path: list[str]) -> str:
    """Each hex entered is a sea hex next to the previous one by sea [2.1]."""
    b = board()
    for h in path:
        if not b.exists(h):
            return t_('%(h)s is not a hex of the map', h=h)
        if h not in b.sea:
            return t_('%(h)s is land: ships enter only hexes with a grid id [2.1]', h=h)
        if not b.ship_step(here, h, side):
            return t_('%(h)s is not adjacent to %(here)s by sea [2.1]', h=h, here=here)
        here = h
    return ""


def _ship_may(side: str, x: dict, path: list[str], limit: int, dd_ok: bool) -> str:
    """One ship's own limits: the German DD line, tankers off convoy lines, fuel [7.7.2]."""
    b = board()
    if x["cls"] == "DD" and side == "german" and not dd_ok:
        if x["hex"] in b.dd_area and any(h not in b.dd_area for h in path):
            return t_('%(id)s may not cross the German destroyer restriction line [7.7.2]', id=x['id'])
        if x["hex"] not in b.dd_area:
            why = homeward(x, path, limit)
            if why:
                return why
    if x["cls"] == "TK" and any(h in b.convoy for h in path):
        return t_('tanker %(id)s may never enter a convoy hex [7.7.2]', id=x['id'])
    cost = fuel_cost(x["speed"], x["moved_last"], len(path))
    if x["speed"] in ("F", "M"):
        if x["emergency"] >= 0 and cost:
            return t_('%(id)s is on emergency fuel and may only move without paying FP [7.7.2]', id=x['id'])
        if cost > x["fuel"]:
            return t_('%(id)s has %(fuel)s FP and this move costs %(cost)s [7.7.2]', id=x['id'], fuel=x['fuel'], cost=cost)
    return ""


def reachable(side: str, ships: list[dict], own: list[dict]) -> list[list[str]]:
    """Every legal path for a unit (for bots and order forms)."""
    b = board()
    limit, _ = unit_limit(ships)
    out: list[list[str]] = []
    frontier = [[]]
    for _ in range(limit):
        nxt = []
        for p in frontier:
            here = p[-1] if p else ships[0]["hex"]
            for n in b.sea_neighbours(here, side):
                q = p + [n]
                if not check_path(side, ships, q, own):
                    out.append(q)
                    nxt.append(q)
        frontier = nxt
    return out
