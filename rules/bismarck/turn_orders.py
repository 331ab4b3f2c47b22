"""The verbs of this turn's orders, one parser each: ``(ctx, words) -> order value`` [7-12].

Each raises one of the core order errors with the rule it enforces, and records in ``ctx`` what
the order changes for the lines after it (TF membership, markers, units already moved).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.scripts import If
from pbem.core.verbs import Verb

from . import movement as M
from .board import board
from .checking import TF_RE, Ctx, hex_word, unit_id
from .conditions import ENGAGE_FORM, suffix_condition
from .tables import X
from .verbs import Detach, Engage, Fly, Form, Join, Move, Order, Patrol, Port, Refuel, Release, Repair, Rtb, Search, Stay

TF_VERBS = ("FORM", "JOIN", "DETACH")


# --- task forces [7.2] -------------------------------------------------------------------
def form(ctx: Ctx, w: Sequence[str]) -> Form:
    if len(w) < 4 or not TF_RE.match(w[1].upper()):
        raise OrderSyntaxError("write FORM <TF1|KG1|TG1...> <ship> <ship> ...", rule="7.2")
    tf = w[1].upper()
    if any(x["tf"] == tf for x in ctx.ships.values()):
        raise IllegalOrderError(f"{tf} already exists; JOIN ships to it instead", rule="7.2")
    ships = [ctx.ship(s) for s in w[2:]]
    if len({x["hex"] for x in ships}) != 1:
        raise IllegalOrderError("all ships of a new task force must be in one hex", rule="7.2")
    for x in ships:
        if x["shadowed"]:
            raise IllegalOrderError(f"{x['id']} is Shadowed: a task force is formed only of unshadowed ships",
                                    rule="7.2")
    left = {x["tf"] for x in ships if x["tf"]}
    for x in ships:
        x["tf"] = tf
    _dissolve_small(ctx, left)
    return Form(tf, tuple(x["id"] for x in ships))


def join(ctx: Ctx, w: Sequence[str]) -> Join:
    if len(w) != 3:
        raise OrderSyntaxError("write JOIN <ship> <TF>", rule="7.2")
    x = ctx.ship(w[1])
    tf = ctx.need_unit(w[2])
    if len(tf) < 2:
        raise IllegalOrderError(f"{w[2]} is not a task force", rule="7.2")
    if tf[0]["hex"] != x["hex"]:
        raise IllegalOrderError(f"{x['id']} must be in the task force's hex {tf[0]['hex']}", rule="7.2")
    if x["shadowed"] or tf[0]["shadowed"]:
        raise IllegalOrderError("Shadowed units may not join or be joined", rule="7.2")
    left = {x["tf"]} - {None}
    x["tf"] = tf[0]["tf"]
    _dissolve_small(ctx, left)
    return Join(x["id"], tf[0]["tf"])


def detach(ctx: Ctx, w: Sequence[str]) -> Detach:
    if len(w) != 2:
        raise OrderSyntaxError("write DETACH <ship>", rule="7.2")
    x = ctx.ship(w[1])
    if not x["tf"]:
        raise IllegalOrderError(f"{x['id']} is not in a task force", rule="7.2")
    if x["shadowed"]:
        raise IllegalOrderError("a Shadowed task force splits only by a Diversion Maneuver", rule="6, 7.2")
    left = {x["tf"]}
    x["tf"] = None
    _dissolve_small(ctx, left)
    return Detach(x["id"])


def _dissolve_small(ctx: Ctx, tfs: set[str]) -> None:
    """A task force left with one ship is no more: she is a unit of her own for the lines after [7.2]."""
    for tf in tfs:
        ships = [x for x in ctx.ships.values() if x["tf"] == tf]
        if len(ships) < 2:
            for x in ships:
                x["tf"] = None


# --- ships that stay: repair, port, patrol, RTB, refuel [7.3-7.7] ------------------------------
def _one_ship(ctx: Ctx, w: Sequence[str], rule: str) -> dict:
    if len(w) != 2:
        raise OrderSyntaxError(f"write {w[0].upper()} <ship>", rule=rule)
    return ctx.ship(w[1])


def _stays(ctx: Ctx, x: dict, verb: str, rule: str) -> None:
    """The ship keeps its place this turn under a marker named after the order."""
    _not_moving(ctx, [x], x["id"], verb, rule)
    ctx.moved.add(x["id"])
    x["markers"] = list(x["markers"]) + [verb.lower()]


def _not_moving(ctx: Ctx, ships: list[dict], uid: str, verb: str, rule: str) -> None:
    """Repair, port, refuel and patrol are for units that stay put all this movement phase: not one
    that moved in the Shadowed movement (3A) [7.1], nor one that a line of this file already moves or
    keeps in place, whether the line names the ship or her task force [7.3-7.6]."""
    for x in ships:
        if x["id"] in ctx.moved_3a:
            raise IllegalOrderError(f"{x['id']} moved in the Shadowed movement this turn and cannot also "
                                    f"{verb.lower()} (only a Shadowed unit that stayed may)", rule=f"7.1, {rule}")
    keys = {uid} | {x["id"] for x in ships} | {x["tf"] for x in ships if x["tf"]}
    taken = sorted(keys & ctx.moved)
    if taken:
        raise IllegalOrderError(f"{uid}: an earlier line already moves {taken[0]} or keeps it in place this "
                                f"turn, so it cannot also {verb.lower()}", rule=rule)


def repair(ctx: Ctx, w: Sequence[str]) -> Repair:
    x = _one_ship(ctx, w, "7.3")
    if not x["rudder"] and not any(x["ee"]):
        raise IllegalOrderError(f"{x['id']} has no rudder damage or lost ER to repair", rule="7.3")
    _stays(ctx, x, "REPAIR", "7.3")
    return Repair(x["id"])


def port(ctx: Ctx, w: Sequence[str]) -> Port:
    x = _one_ship(ctx, w, "7.4")
    p = board().ports.get(x["hex"])
    if p is None or p.side != ctx.side:
        raise IllegalOrderError(f"{x['id']} is not in a friendly port hex", rule="7.4")
    _stays(ctx, x, "PORT", "7.4")
    return Port(x["id"])


def rtb(ctx: Ctx, w: Sequence[str]) -> Rtb:
    x = _one_ship(ctx, w, "7.7.2")
    if x["cls"] not in ("BB", "BC", "CA") or (not x["rudder"] and not any(x["ee"])):
        raise IllegalOrderError("Return to Base is for a heavy ship with reduced ER", rule="7.7.2")
    return Rtb(x["id"])


def patrol(ctx: Ctx, w: Sequence[str]) -> Patrol:
    if len(w) != 2:
        raise OrderSyntaxError("write PATROL <unit>", rule="7.6")
    u = ctx.need_unit(w[1])
    if ctx.vis >= X or ctx.fog_blocks(u[0]["hex"]):
        raise IllegalOrderError("no patrol at visibility X or in a fog hex while fog is on", rule="7.6")
    _not_moving(ctx, u, unit_id(u), "PATROL", "7.6")
    ctx.moved.add(unit_id(u))
    for x in u:
        x["markers"] = list(x["markers"]) + ["patrol"]
    return Patrol(unit_id(u))


def refuel(ctx: Ctx, w: Sequence[str]) -> Refuel:
    if len(w) != 4 or w[2].upper() != "FROM":
        raise OrderSyntaxError("write REFUEL <ship> FROM <tanker>", rule="7.5")
    x, t = ctx.ship(w[1]), ctx.ship(w[3])
    if t["cls"] != "TK" or t["hex"] != x["hex"] or x["cls"] == "TK":
        raise IllegalOrderError(f"{x['id']} needs a tanker in its hex {x['hex']}", rule="7.5")
    if "refuel" in t["markers"]:
        raise IllegalOrderError(f"{t['id']} refuels one ship a turn", rule="7.5")
    for y in (x, t):
        _not_moving(ctx, [y], y["id"], "REFUEL", "7.5")
        ctx.moved.add(y["id"])
    x["markers"] = list(x["markers"]) + ["refuel"]
    t["markers"] = list(t["markers"]) + ["refuel"]
    return Refuel(x["id"], t["id"])


# --- movement [7.1, 7.7] ----------------------------------------------------------------------
def move(ctx: Ctx, w: Sequence[str]) -> Move:
    if len(w) < 3:
        raise OrderSyntaxError("write MOVE <unit> <hex> [<hex>]", rule="7.7")
    u = ctx.need_unit(w[1])
    uid = unit_id(u)
    _may_move_now(ctx, uid, u)
    path = [hex_word(h) for h in w[2:]]
    why = M.check_path(ctx.side, u, path, list(ctx.ships.values()))
    if why:
        # the reason ends with its own section ("... [2.1]"): cite that one, once
        text, _, ref = why.rpartition(" [")
        ok = bool(text) and ref.endswith("]")
        raise IllegalOrderError(f"{uid}: {text if ok else why}", rule=ref[:-1] if ok else "7.7.2")
    ctx.moved.add(uid)
    ctx.dest[uid] = path[-1]
    ctx.paths[uid] = len(path)
    for x in u:
        if x["cls"] == "CV":
            for a in ctx.air.values():
                if a["base"] == x["id"]:
                    ctx.base_after[a["id"]] = path[-1]
    return Move(uid, tuple(path))


def stay(ctx: Ctx, w: Sequence[str]) -> Stay:
    """STAY <unit>: a Shadowed unit stays put in its Shadowed movement (leaving it out does the same) [7.1]."""
    if len(w) != 2:
        raise OrderSyntaxError("write STAY <unit>", rule="7.1")
    if not ctx.step.startswith("shadowed"):
        raise IllegalOrderError("STAY is for a Shadowed unit in its Shadowed movement (or IF SHADOWED <unit> THEN "
                                "STAY <unit> for next turn); now a unit with no MOVE line stays anyway", rule="7.1")
    u = ctx.need_unit(w[1])
    uid = unit_id(u)
    _may_move_now(ctx, uid, u)
    ctx.moved.add(uid)
    return Stay(uid)


def _may_move_now(ctx: Ctx, uid: str, u: list[dict]) -> None:
    """Shadowed units move in 3A and only then; a unit moves (or stays under a marker) once [7.1, 7.7]."""
    shadowed_step = ctx.step.startswith("shadowed")
    if shadowed_step and uid not in ctx["must_move"]:
        raise IllegalOrderError(f"{uid} is not Shadowed; it moves in the main order phase "
                                f"(Shadowed now: {', '.join(ctx['must_move'])})", rule="7.1")
    if not shadowed_step and any(x["id"] in ctx["moved"] for x in u):
        raise IllegalOrderError(f"{uid} is Shadowed: it moved or stayed in this turn's Shadowed movement and "
                                f"does not move again (one that stayed may still repair, refuel or patrol)", rule="7.1")
    if uid in ctx.moved or any(x["id"] in ctx.moved for x in u):
        raise IllegalOrderError(f"{uid} already has an order that keeps it in place or moves it", rule="7.7")


# --- air [7.7.1] ------------------------------------------------------------------------------
def fly(ctx: Ctx, w: Sequence[str]) -> Fly:
    """FLY <air> <hex>[+S|+S+S|+A] ... : a flight path, 1 MP a hex [7.7.1]."""
    a = _air_unit(ctx, w)
    o = Fly(a["id"], *_flight_path(ctx, a, w[2:]))
    _markers_allowed(ctx, a, o.search, o.attack)
    mp = len(o.path) + max(0, len(o.search) - 2) * ctx.vis
    if mp > a["speed"]:
        raise IllegalOrderError(f"{a['id']} has {a['speed']} MP; this path and its extra Search markers cost {mp}",
                                rule="7.7.1")
    base = ctx.base_after.get(a["id"], a["base_hex"])
    if o.path[-1] != base and (a["range"] == 1 or a["status"] == "aloft"):
        raise IllegalOrderError(f"{a['id']} must end its flight at its base {base} this phase", rule="7.7.1")
    if o.air in ctx.moved:
        raise IllegalOrderError(f"{o.air} already has a flight path", rule="7.7.1")
    ctx.moved.add(o.air)
    return o


def _air_unit(ctx: Ctx, w: Sequence[str]) -> dict:
    if len(w) < 3:
        raise OrderSyntaxError("write FLY <air unit> <hex> <hex> ... with +S after a hex for a Search marker "
                               "or +A for an Attack marker", rule="7.7.1")
    a = ctx.air.get(w[1].lower())
    if a is None:
        raise IllegalOrderError(f"no air unit of yours is called {w[1]} (yours: {', '.join(sorted(ctx.air))})",
                                rule="2.3.2")
    if a["status"] not in ("ready", "aloft"):
        raise IllegalOrderError(f"{a['id']} is {a['status']} and cannot fly this turn", rule="7.7.1")
    return a


def _flight_path(ctx: Ctx, a: dict, tokens: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(hexes entered, marker letters after each) from the tokens of a FLY line."""
    # carriers move before their aircraft [7.7]: a carrier unit takes off from the carrier's new hex
    here = a["hex"] if a["status"] == "aloft" else ctx.base_after.get(a["id"], a["base_hex"])
    if here is None:
        raise IllegalOrderError(f"{a['id']}'s base is not on the map", rule="7.7.1")
    path, marks = [], []
    for tok in tokens:
        parts = tok.upper().split("+")
        h = hex_word(parts[0])
        if board().distance(here, h) != 1:
            raise IllegalOrderError(f"{h} is not adjacent to {here}: a flight path enters one hex at a time",
                                    rule="7.7.1")
        bad = [m for m in parts[1:] if m not in ("S", "A")]
        if bad:
            raise OrderSyntaxError(f"unknown flight-path marker +{bad[0]}: use +S or +A", rule="7.7.1")
        path.append(h)
        marks.append("".join(parts[1:]))
        here = h
    return tuple(path), tuple(marks)


def _markers_allowed(ctx: Ctx, a: dict, search: list[str], attack: list[str]) -> None:
    if (search or attack) and ctx.vis >= X:
        raise IllegalOrderError("no flight-path markers at visibility X", rule="7.7.1")
    for h in search + attack:
        if ctx.fog_blocks(h):
            raise IllegalOrderError(f"no flight-path markers in fog hex {h} while fog is on", rule="7.7.1")
    if not attack:
        return
    if a["type"] != "B":
        raise IllegalOrderError(f"{a['id']} is a recon unit (R): only type B drops Attack markers", rule="7.7.1")
    if len(attack) > 1 or search:
        raise IllegalOrderError("an air unit drops either two Search markers or one Attack marker", rule="7.7.1")
    shadowed = {c["hex"] for c in ctx.contacts.values() if c["status"] == "shadowed"}
    if attack[0] not in shadowed:
        raise IllegalOrderError(f"an Attack marker needs a Shadowed enemy unit in its hex; "
                                f"Shadowed contacts are in {', '.join(sorted(shadowed)) or 'no hex'}", rule="7.7.1")


# --- search, combat, release [8, 10, 12] ----------------------------------------------------------
def search(ctx: Ctx, w: Sequence[str]) -> Search:
    """One SEARCH line a turn (a second would silently replace the first); named hexes must be
    searchable at all this turn: none at visibility X, none in a fog hex while fog is on [8]."""
    if "SEARCH" in ctx.once:
        raise IllegalOrderError("one SEARCH line a turn: put every hex you call on it", rule="8")
    if len(w) == 2 and w[1].upper() in ("ALL", "NONE"):
        ctx.once.add("SEARCH")
        return Search(w[1].upper())
    if len(w) < 2:
        raise OrderSyntaxError("write SEARCH ALL, SEARCH NONE or SEARCH <hex> <hex> ...", rule="8")
    hexes = tuple(hex_word(h) for h in w[1:])
    if ctx.vis >= X:
        raise IllegalOrderError("no hex can be searched at visibility X (SEARCH NONE or ALL)", rule="8")
    fogged = [h for h in hexes if ctx.fog_blocks(h)]
    if fogged:
        raise IllegalOrderError(f"no search in fog hex {fogged[0]} while fog is on", rule="8")
    ctx.once.add("SEARCH")
    return Search("LIST", hexes)


def engage(ctx: Ctx, w: Sequence[str]) -> Engage | If:
    """A combat call [10]; ``ENGAGE ... IF <condition>`` is read as ``IF <condition> THEN ENGAGE ...``."""
    up = [x.upper() for x in w]
    if "IF" in up:
        i = up.index("IF")
        return If(suffix_condition(w[i + 1:], ctx, ctx.side), engage(ctx, w[:i]))
    if len(w) not in (2, 4) or (len(w) == 4 and up[2] != "WITH"):
        raise OrderSyntaxError(f"write {ENGAGE_FORM}", rule="10")
    c = ctx.contacts.get(up[1])
    if c is None:
        raise IllegalOrderError(f"no contact {w[1]} (contacts: {', '.join(sorted(ctx.contacts)) or 'none'})",
                                rule="10")
    if ctx.vis >= X:
        raise IllegalOrderError("no naval combat may be started at visibility X", rule="10")
    return Engage(c["id"], unit_id(ctx.need_unit(w[3])) if len(w) == 4 else None)


def release(ctx: Ctx, w: Sequence[str]) -> Release:
    releasable = ctx.get("releasable", [])
    if len(w) != 2 or w[1].lower() not in releasable:
        raise IllegalOrderError(f"nothing to release now (releasable: {', '.join(releasable) or 'none'})",
                                rule="12")
    return Release(w[1].lower())


def _verb(word: str, parse: Callable[[Ctx, Sequence[str]], Order | If], usage: str, rule: str) -> Verb:
    """A kit verb whose parser gets the check's Ctx (the view as this file leaves it) and the whole line."""
    return Verb(word, lambda args, ctx, seat: parse(ctx, (word, *args)), usage, rule)  # type: ignore[arg-type]


VERBS = (
    _verb("FORM", form, "FORM <TF1|KG1|TG1...> <ship> <ship> ...", "7.2"),
    _verb("JOIN", join, "JOIN <ship> <TF>", "7.2"),
    _verb("DETACH", detach, "DETACH <ship>", "7.2"),
    _verb("REPAIR", repair, "REPAIR <ship>", "7.3"),
    _verb("PORT", port, "PORT <ship>", "7.4"),
    _verb("PATROL", patrol, "PATROL <unit>", "7.6"),
    _verb("RTB", rtb, "RTB <ship>", "7.7.2"),
    _verb("REFUEL", refuel, "REFUEL <ship> FROM <tanker>", "7.5"),
    _verb("MOVE", move, "MOVE <unit> <hex> [<hex>]", "7.7"),
    _verb("STAY", stay, "STAY <unit> (a Shadowed unit, in its Shadowed movement)", "7.1"),
    _verb("FLY", fly, "FLY <air> <hex>[+S|+S+S|+A] ...", "7.7.1"),
    _verb("SEARCH", search, "SEARCH ALL|NONE|<hex> ...", "8"),
    _verb("ENGAGE", engage, ENGAGE_FORM, "10"),
    _verb("RELEASE", release, "RELEASE <ship>", "12"),
)
