"""Naval movement and fuel [7.7.2], shared by order checking (from a view) and resolution.

Functions take ships as plain dicts with the :class:`~.model.Ship` field names, so a view's
ship list and the state's ships go through the same rules.
"""
from __future__ import annotations

from .board import board
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
        return 0, "rudder damage or evasion rating 0 [9]"
    if x["no_mvt"] > 0:
        return 0, f"NO MVT {x['no_mvt']} marker [7.7.2]"
    busy = [m for m in x["markers"] if m in BUSY]
    if busy:
        return 0, f"{busy[0]} marker: the ship stays this turn [7.3-7.6]"
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
            best, why = n, (f"{x['id']}: {w}" if w else "")
    return best, why


def dd_exception(own: list[dict]) -> bool:
    """German DDs may cross the restriction line while a reduced-ER heavy ship is returning to base."""
    return any(x["cls"] in HEAVY and "rtb" in x["markers"] and (x["rudder"] or sum(x["ee"]) < 0) for x in own)


def check_path(side: str, ships: list[dict], path: list[str], own: list[dict]) -> str:
    """'' if the unit of ``ships`` may move along ``path`` (hexes entered), else why not."""
    b = board()
    limit, why = unit_limit(ships)
    if len(path) > limit:
        return why or f"the unit may move at most {limit} hex{'es' if limit != 1 else ''} this turn [7.7.2]"
    here = ships[0]["hex"]
    for h in path:
        if not b.exists(h):
            return f"{h} is not a hex of the map"
        if h not in b.sea:
            return f"{h} is land: ships enter only hexes with a grid id [2.1]"
        if not b.ship_step(here, h, side):
            return f"{h} is not adjacent to {here} by sea [2.1]"
        here = h
    dd_ok = dd_exception(own)
    last = len(path)
    for x in ships:
        if x["cls"] == "DD" and side == "german" and not dd_ok and any(h not in b.dd_area for h in path):
            return f"{x['id']} may not cross the German destroyer restriction line [7.7.2]"
        if x["cls"] == "TK" and any(h in b.convoy for h in path):
            return f"tanker {x['id']} may never enter a convoy hex [7.7.2]"
        cost = fuel_cost(x["speed"], x["moved_last"], last)
        if x["speed"] in ("F", "M"):
            if x["emergency"] >= 0 and cost:
                return f"{x['id']} is on emergency fuel and may only move without paying FP [7.7.2]"
            if cost > x["fuel"]:
                return f"{x['id']} has {x['fuel']} FP and this move costs {cost} [7.7.2]"
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
