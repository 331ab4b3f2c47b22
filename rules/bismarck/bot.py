"""A scripted player for each side: simple, legal, and aimed at the game's goals.

German: run the Bismarck group west, hunt on the convoy lines, refuel from a tanker, then make
for Brest; evade shadowers while fuel lasts; fly recon and strike Shadowed contacts.
Allied: shadow, close on the latest contact, patrol, fly searches over likely waters, strike.
"""
from __future__ import annotations

from pbem.core import hexgrid

from . import movement as M
from . import preorders
from .board import board

GERMAN_LEGS = ((12, "H13"), (26, "R9"), (99, "U26"))
ALLIED_STATIONS = {"TF1": "H16", "TF2": "N19", "TF3": "W20", "norfolk": "F16", "suffolk": "G14",
                   "dorsetshire": "Y16", "rodney": "S17"}


def orders(view: dict, seat: str, dice) -> str:
    step = view["step"]
    if step == "convoy":
        return "ATTACK\n"
    if step == "doctrine":
        return "DOCTRINE ALL CLOSE TORPEDOES ON BREAK 2\n"
    own = [x for x in view["ships"] if x["status"] == "sea"]
    if step.startswith("shadowed"):
        return "\n".join(_shadowed_moves(view, seat, own)) + "\n"
    lines = _standing(view, seat)
    for u in view["units"]:
        if not u["moved"]:
            lines += _unit_orders(view, seat, u, own)
    lines += _air(view, seat, dice, _destinations(view, lines))
    lines += _ahead(view, seat, lines, own)
    lines += _engagements(view, seat)
    lines += [f"RELEASE {s}" for s in view.get("releasable", [])]
    lines.append("SEARCH ALL")
    return "\n".join(lines) + "\n"


def _shadowed_moves(view: dict, seat: str, own: list[dict]) -> list[str]:
    lines = []
    for u in view["units"]:
        if u["id"] in view["must_move"]:
            p = _step_toward(view, seat, u, _goal(view, seat, u), own)
            if p:
                lines.append(f"MOVE {u['id']} {' '.join(p)}")
    return lines


def _ahead(view: dict, seat: str, lines: list[str], own: list[dict]) -> list[str]:
    """Next turn's Shadowed movement, ordered now for every unit so that no window need open for it [7.1]:
    on toward its goal from where this turn's MOVE leaves it (tankers and German destroyers stay)."""
    moves = {w[1]: w[2:] for w in (ln.split() for ln in lines) if w[0] == "MOVE"}
    out = []
    for u in view["units"]:
        uid = u["id"]
        path_now = moves.get(uid)
        start = path_now[-1] if path_now else u["hex"]
        later = {x["id"]: preorders.next_turn(x, start, len(path_now) if path_now else None, x["id"] in view["moved"])
                 for x in own if x["id"] in u["ships"]}
        lead = later[u["ships"][0]]
        p: list[str] = []
        if not (lead["cls"] == "TK" or (seat == "german" and lead["cls"] == "DD")):
            there = dict(u, hex=start)
            p = _step_toward(view, seat, there, _goal(view, seat, there), [later.get(x["id"], x) for x in own])
        out.append(f"IF SHADOWED {uid} THEN MOVE {uid} {' '.join(p)}" if p else f"IF SHADOWED {uid} THEN STAY {uid}")
    return out


def _unit_orders(view: dict, seat: str, u: dict, own: list[dict]) -> list[str]:
    """Repair a stopped ship, fill up in port or from a tanker, else move toward the goal (or patrol there)."""
    ships = {x["id"]: x for x in own}
    us = [ships[s] for s in u["ships"]]
    lead = us[0]
    fix = _repair(seat, u, us)
    if fix:
        return fix
    fuel = _supply(seat, us, own)
    if fuel:
        return fuel
    if lead["cls"] == "TK" or (seat == "german" and lead["cls"] == "DD"):
        return []
    goal = _goal(view, seat, u)
    if goal == lead["hex"]:
        patrol = seat == "allied" and view["visibility_n"] < 10 and not (view["fog"] and lead["hex"] in board().fog)
        return [f"PATROL {u['id']}"] if patrol else []
    p = _step_toward(view, seat, u, goal, own)
    return [f"MOVE {u['id']} {' '.join(p)}"] if p else []


def _supply(seat: str, us: list[dict], own: list[dict]) -> list[str]:
    """Ships short of fuel fill up in an own port, or (German) from a free tanker in their hex."""
    needs = [x for x in us if x["speed"] in ("F", "M") and x["fuel"] < x["fuel_max"] - 3]
    if not needs:
        return []
    port = board().ports.get(us[0]["hex"])
    if port and port.side == seat:
        return [f"PORT {x['id']}" for x in needs]
    tk = next((t for t in own if t["cls"] == "TK" and t["hex"] == us[0]["hex"] and not t["markers"]), None)
    if seat == "german" and tk is not None:
        return [f"REFUEL {needs[0]['id']} FROM {tk['id']}"]
    return []


def _repair(seat: str, u: dict, us: list[dict]) -> list[str]:
    """A unit that cannot move repairs its damaged ship (the Allied also repairs lost ER)."""
    hurt = any(x["rudder"] or (sum(x["ee"]) < 0 and seat == "allied") for x in us)
    if not hurt or u["limit"] or any("repair" in x["markers"] for x in us):
        return []
    x = next(x for x in us if x["rudder"] or sum(x["ee"]) < 0)
    return [f"REPAIR {x['id']}"]


def _destinations(view: dict, lines: list[str]) -> dict[str, str]:
    """Ship id -> the hex its unit's MOVE line ends in (carriers' aircraft fly from there)."""
    dest = {}
    for ln in lines:
        w = ln.split()
        if w[0] == "MOVE":
            for u in view["units"]:
                if u["id"] == w[1]:
                    for sid in u["ships"]:
                        dest[sid] = w[-1]
    return dest


def _engagements(view: dict, seat: str) -> list[str]:
    """The German calls combat on contacts in his units' hexes that are not battleships or battlecruisers."""
    lines = []
    for c in view["contacts"]:
        here = [u for u in view["units"] if u["hex"] == c["hex"]]
        if seat == "german" and here and "BB" not in c["classes"] and "BC" not in c["classes"]:
            lines.append(f"ENGAGE {c['id']}")
    return lines


def _standing(view: dict, seat: str) -> list[str]:
    return _german_standing(view) if seat == "german" else _allied_standing(view)


def _german_standing(view: dict) -> list[str]:
    out = []
    for u in view["units"]:
        fuel = min((x["fuel"] for x in view["ships"] if x["id"] in u["ships"] and x["speed"] == "F"), default=0)
        want = f"ON_SHADOW {u['id']} {'EVADE' if fuel >= 8 else 'NONE'}"
        if u["id"] in ("bismarck", "KG1") and want not in view["standing"]:
            out.append(want)
    if "AUTO_ENGAGE OFF" not in view["standing"]:
        out += ["AUTO_ENGAGE OFF", "DOCTRINE ALL STANDOFF TORPEDOES ON BREAK 3", "STRIKE_CLASSES CV BB BC CA CL DD"]
    near = sorted(view["contacts"], key=lambda c: c["turn"], reverse=True)
    out.append(f"SUB_HEX {near[0]['hex'] if near else 'N20'}")
    return out


def _allied_standing(view: dict) -> list[str]:
    out = []
    if "DOCTRINE ALL CLOSE TORPEDOES ON BREAK 1" not in view["standing"]:
        out += ["DOCTRINE ALL CLOSE TORPEDOES ON BREAK 1", "STRIKE_CLASSES BB CA BC CL DD TK", "ON_DIVERSION BOTH"]
    # shadow each contact with the fastest ship in its hex, split from a TF that is not itself Shadowed [6]
    for c in sorted(view["contacts"], key=lambda c: c["id"]):
        here = [x for x in view["ships"] if x["status"] == "sea" and x["hex"] == c["hex"] and x["cls"] != "CV"]
        if not here:
            continue
        best = sorted(here, key=lambda x: (-x["er_now"], x["id"]))[0]
        if best["tf"] and best["shadowed"]:
            line = f"SHADOW {c['id']} WITH {best['tf']}"
        else:
            line = f"SHADOW {c['id']} WITH {best['id']}{' SPLIT' if best['tf'] else ''}"
        if line not in view["standing"]:
            out.append(line)
    return out


def _goal(view: dict, seat: str, u: dict) -> str:
    ships = [x for x in view["ships"] if x["id"] in u["ships"]]
    low = any(x["speed"] in ("F", "M") and (x["fuel"] <= 6 or x["emergency"] >= 0) for x in ships)
    return _german_goal(view, u, ships, low) if seat == "german" else _allied_goal(view, u, low)


def _german_goal(view: dict, u: dict, ships: list[dict], low: bool) -> str:
    """Low on fuel: the nearest tanker (Brest if nearer); hurt or short of time: Brest; else the next leg."""
    b = board()
    if low:
        tk = [t["hex"] for t in view["ships"] if t["cls"] == "TK" and t["status"] == "sea"]
        cands = [(b.distance(u["hex"], h), h) for h in tk] + [(b.distance(u["hex"], "U26") + 3, "U26")]
        return min(cands)[1]
    hurt = any(x["rudder"] or x["er_now"] <= 25 or x["hull"] * 2 <= x["hull_max"] for x in ships
               if x["cls"] != "TK")
    home = b.sea_distances("U26", "german").get(u["hex"], 99)
    if hurt or view["turns_left"] * 1.5 <= home + 4:
        return "U26"
    for until, h in GERMAN_LEGS:
        if view["game_turn"] <= until:
            return h
    return "U26"


def _allied_goal(view: dict, u: dict, low: bool) -> str:
    """Low on fuel: the nearest own port; else the heaviest, latest contact; else the unit's station."""
    b = board()
    if low:
        ports = [h for h, p in b.ports.items() if p.side == "allied"]
        return min(ports, key=lambda h: (b.distance(u["hex"], h), h))
    if view["contacts"]:
        c = sorted(view["contacts"], key=lambda c: ("BB" not in c["classes"] and "CA" not in c["classes"],
                                                    -c["turn"], b.distance(u["hex"], c["hex"]), c["id"]))[0]
        return c["hex"]
    return ALLIED_STATIONS.get(u["id"], u["hex"])


def _step_toward(view: dict, seat: str, u: dict, goal: str, own: list[dict]) -> list[str]:
    b = board()
    ships = [x for x in own if x["id"] in u["ships"]]
    paths = M.reachable(seat, ships, own)
    if not paths:
        return []
    table = b.sea_distances(goal, seat) if goal in b.sea else {}
    dist = (lambda h: table.get(h, 999)) if u["hex"] in table else (lambda h: b.distance(h, goal))
    # save fuel: after a 2-hex move, move 1 (free) unless chasing a contact
    cheap = [p for p in paths if all(M.fuel_cost(x["speed"], x["moved_last"], len(p)) == 0 for x in ships)]
    pool = cheap if cheap and not (seat == "allied" and view["contacts"]) else paths
    # the German keeps clear of known heavy Allied units; the Allied closes in
    threats = [c["hex"] for c in view["contacts"] if seat == "german" and
               any(k in c["classes"] for k in ("BB", "BC", "CV"))]
    danger = (lambda h: sum(1 for t in threats if b.distance(h, t) <= 1))
    best = min(pool, key=lambda p: (danger(p[-1]), dist(p[-1]), -len(p), p))
    if danger(best[-1]) < danger(u["hex"]):
        return best
    if dist(best[-1]) >= dist(u["hex"]):
        return []
    return best


def _line(a: str, c: str) -> list[str]:
    b = board()
    return [b.from_axial(x) for x in hexgrid.line(b.axial(a), b.axial(c))][1:]


def _air(view: dict, seat: str, dice, dest: dict) -> list[str]:
    """Aircraft aloft fly home; bombers strike the nearest Shadowed contact; recon searches ahead."""
    out = []
    for a in view["air"]:
        if a["status"] not in ("ready", "aloft") or a["base_hex"] is None:
            continue
        base = dest.get(a["base"], a["base_hex"])
        if a["status"] == "aloft":
            path = _line(a["hex"], base)
            line = f"FLY {a['id']} {' '.join(path)}" if path and len(path) <= a["speed"] else ""
        elif a["type"] == "B":
            line = _strike(view, a, base)
        else:
            line = _recon(view, seat, a, base)
        if line:
            out.append(line)
    return out


def _strike(view: dict, a: dict, base: str) -> str:
    """There and back to the nearest Shadowed contact, the Attack marker on it, if in reach."""
    b = board()
    shadowed = [c for c in view["contacts"] if c["status"] == "shadowed"]
    if not shadowed or view["visibility_n"] >= 10:
        return ""
    tgt = min(shadowed, key=lambda c: b.distance(base, c["hex"]))
    d = b.distance(base, tgt["hex"])
    if not 0 < 2 * d <= a["speed"] or (view["fog"] and tgt["hex"] in b.fog):
        return ""
    there = _line(base, tgt["hex"])
    toks = there[:-1] + [there[-1] + "+A"] + _line(tgt["hex"], base)
    return f"FLY {a['id']} {' '.join(toks)}"


def _recon(view: dict, seat: str, a: dict, base: str) -> str:
    """Toward the latest contact (or a likely area), Search markers on the last two hexes out."""
    b = board()
    if view["visibility_n"] >= 10 or a["type"] != "R":
        return ""
    if view["contacts"]:
        target = sorted(view["contacts"], key=lambda c: -c["turn"])[0]["hex"]
    else:
        target = {"allied": "J17", "german": "Q20"}[seat]
    reach = a["speed"] if a["range"] == 2 else a["speed"] // 2
    there = _line(base, target)[:reach]
    if not there:
        return ""
    path = there + _line(there[-1], base) if a["range"] == 1 else there
    marks = [h for h in there[-2:] if not (view["fog"] and h in b.fog)]
    toks = [h + ("+S" if h in marks and i >= len(there) - 2 and i < len(there) else "") for i, h in enumerate(path)]
    return f"FLY {a['id']} {' '.join(toks)}"
