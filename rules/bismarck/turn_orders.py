"""The verbs of this turn's orders, one parser each: ``(ctx, words) -> order value`` [7-12].

Each raises one of the core order errors with the rule it enforces, and records in ``ctx`` what
the order changes for the lines after it (TF membership, markers, units already moved).
"""
from __future__ import annotations

from pbem.core.texts import t_

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
        raise OrderSyntaxError(t_("write FORM <TF1|KG1|TG1...> <ship> <ship> ..."), rule="7.2")
    tf = w[1].upper()
    if any(x["tf"] == tf for x in ctx.ships.values()):
        raise IllegalOrderError(t_('%(tf)s already exists; JOIN ships to it instead', tf=tf), rule="7.2")
    ships = [ctx.ship(s) for s in w[2:]]
    if len({x["hex"] for x in ships}) != 1:
        raise IllegalOrderError(t_("all ships of a new task force must be in one hex"), rule="7.2")
    for x in ships:
        if x["shadowed"]:
            raise IllegalOrderError(t_('%(id)s is Shadowed: a task force is formed only of unshadowed ships', id=x['id']),
                                    rule="7.2")
    left = {x["tf"] for x in ships if x["tf"]}
    for x in ships:
        x["tf"] = tf
    _dissolve_small(ctx, left)
    return Form(tf, tuple(x["id"] for x in ships))


def join(ctx: Ctx, w: Sequence[str]) -> Join:
    if len(w) != 3:
        raise OrderSyntaxError(t_("write JOIN <ship> <TF>"), rule="7.2")
    x = ctx.ship(w[1])
    tf = ctx.need_unit(w[2])
    if len(tf) < 2:
        raise IllegalOrderError(t_('%(v)s is not a task force', v=w[2]), rule="7.2")
    if tf[0]["hex"] != x["hex"]:
        raise IllegalOrderError(t_("%(id)s must be in the task force's hex %(hex)s", id=x['id'], hex=tf[0]['hex']), rule="7.2")
    if x["shadowed"] or tf[0]["shadowed"]:
        raise IllegalOrderError(t_("Shadowed units may not join or be joined"), rule="7.2")
    left = {x["tf"]} - {None}
    x["tf"] = tf[0]["tf"]
    _dissolve_small(ctx, left)
    return Join(x["id"], tf[0]["tf"])


def detach(ctx: Ctx, w: Sequence[str]) -> Detach:
    if len(w) != 2:
        raise OrderSyntaxError(t_("write DETACH <ship>"), rule="7.2")
    x = ctx.ship(w[1])
    if not x["tf"]:
        raise IllegalOrderError(t_('%(id)s is not in a task force', id=x['id']), rule="7.2")
    if x["shadowed"]:
        raise IllegalOrderError(t_("a Shadowed task force splits only by a Diversion Maneuver"), rule="6, 7.2")
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
        raise OrderSyntaxError(t_('write %(v)s <ship>', v=w[0].upper()), rule=rule)
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
            raise IllegalOrderError(t_('%(id)s moved in the Shadowed movement this turn and cannot also %(v)s (only a Shadowed unit that stayed may)', id=x['id'], v=verb.lower()), rule=f"7.1, {rule}")
    keys = {uid} | {x["id"] for x in ships} | {x["tf"] for x in ships if x["tf"]}
    taken = sorted(keys & ctx.moved)
    if taken:
        raise IllegalOrderError(t_('%(uid)s: an earlier line already moves %(v)s or keeps it in place this turn, so it cannot also %(v2)s', uid=uid, v=taken[0], v2=verb.lower()), rule=rule)


def repair(ctx: Ctx, w: Sequence[str]) -> Repair:
    x = _one_ship(ctx, w, "7.3")
    if not x["rudder"] and not any(x["ee"]):
        raise IllegalOrderError(t_('%(id)s has no rudder damage or lost ER to repair', id=x['id']), rule="7.3")
    _stays(ctx, x, "REPAIR", "7.3")
    return Repair(x["id"])


def port(ctx: Ctx, w: Sequence[str]) -> Port:
    x = _one_ship(ctx, w, "7.4")
    p = board().ports.get(x["hex"])
    if p is None or p.side != ctx.side:
        raise IllegalOrderError(t_('%(id)s is not in a friendly port hex', id=x['id']), rule="7.4")
    _stays(ctx, x, "PORT", "7.4")
    return Port(x["id"])


def rtb(ctx: Ctx, w: Sequence[str]) -> Rtb:
    x = _one_ship(ctx, w, "7.7.2")
    if x["cls"] not in ("BB", "BC", "CA") or (not x["rudder"] and not any(x["ee"])):
        raise IllegalOrderError(t_("Return to Base is for a heavy ship with reduced ER"), rule="7.7.2")
    return Rtb(x["id"])


def patrol(ctx: Ctx, w: Sequence[str]) -> Patrol:
    if len(w) != 2:
        raise OrderSyntaxError(t_("write PATROL <unit>"), rule="7.6")
    u = ctx.need_unit(w[1])
    if ctx.vis >= X or ctx.fog_blocks(u[0]["hex"]):
        raise IllegalOrderError(t_("no patrol at visibility X or in a fog hex while fog is on"), rule="7.6")
    _not_moving(ctx, u, unit_id(u), "PATROL", "7.6")
    ctx.moved.add(unit_id(u))
    for x in u:
        x["markers"] = list(x["markers"]) + ["patrol"]
    return Patrol(unit_id(u))


def refuel(ctx: Ctx, w: Sequence[str]) -> Refuel:
    if len(w) != 4 or w[2].upper() != "FROM":
        raise OrderSyntaxError(t_("write REFUEL <ship> FROM <tanker>"), rule="7.5")
    x, t = ctx.ship(w[1]), ctx.ship(w[3])
    if t["cls"] != "TK" or t["hex"] != x["hex"] or x["cls"] == "TK":
        raise IllegalOrderError(t_('%(id)s needs a tanker in its hex %(hex)s', id=x['id'], hex=x['hex']), rule="7.5")
    if "refuel" in t["markers"]:
        raise IllegalOrderError(t_('%(id)s refuels one ship a turn', id=t['id']), rule="7.5")
    for y in (x, t):
        _not_moving(ctx, [y], y["id"], "REFUEL", "7.5")
        ctx.moved.add(y["id"])
    x["markers"] = list(x["markers"]) + ["refuel"]
    t["markers"] = list(t["markers"]) + ["refuel"]
    return Refuel(x["id"], t["id"])


# --- movement [7.1, 7.7] ----------------------------------------------------------------------
def move(ctx: Ctx, w: Sequence[str]) -> Move:
    if len(w) < 3:
        raise OrderSyntaxError(t_("write MOVE <unit> <hex> [<hex>]"), rule="7.7")
    u = ctx.need_unit(w[1])
    uid = unit_id(u)
    _may_move_now(ctx, uid, u)
    path = [hex_word(h) for h in w[2:]]
    why = M.check_path(ctx.side, u, path, list(ctx.ships.values()))
    if why:
        # the reason ends with its own section ("... [2.1]"): cite that one, once
        text, _, ref = why.rpartition(" [")
        ok = bool(text) and ref.endswith("]")
        raise IllegalOrderError(t_('%(uid)s: %(v)s', uid=uid, v=text if ok else why), rule=ref[:-1] if ok else "7.7.2")
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
        raise OrderSyntaxError(t_("write STAY <unit>"), rule="7.1")
    if not ctx.step.startswith("shadowed"):
        raise IllegalOrderError(t_("STAY is for a Shadowed unit in its Shadowed movement (or IF SHADOWED <unit> THEN "
                                "STAY <unit> for next turn); now a unit with no MOVE line stays anyway"), rule="7.1")
    u = ctx.need_unit(w[1])
    uid = unit_id(u)
    _may_move_now(ctx, uid, u)
    ctx.moved.add(uid)
    return Stay(uid)


def _may_move_now(ctx: Ctx, uid: str, u: list[dict]) -> None:
    """Shadowed units move in 3A and only then; a unit moves (or stays under a marker) once [7.1, 7.7]."""
    shadowed_step = ctx.step.startswith("shadowed")
    if shadowed_step and uid not in ctx["must_move"]:
        raise IllegalOrderError(t_('%(uid)s is not Shadowed; it moves in the main order phase (Shadowed now: %(v)s)', uid=uid, v=', '.join(ctx['must_move'])), rule="7.1")
    if not shadowed_step and any(x["id"] in ctx["moved"] for x in u):
        raise IllegalOrderError(t_("%(uid)s is Shadowed: it moved or stayed in this turn's Shadowed movement and does not move again (one that stayed may still repair, refuel or patrol)", uid=uid), rule="7.1")
    if uid in ctx.moved or any(x["id"] in ctx.moved for x in u):
        raise IllegalOrderError(t_('%(uid)s already has an order that keeps it in place or moves it', uid=uid), rule="7.7")


# --- air [7.7.1] ------------------------------------------------------------------------------
def fly(ctx: Ctx, w: Sequence[str]) -> Fly:
    """FLY <air> <hex>[+S|+S+S|+A] ... : a flight path, 1 MP a hex [7.7.1]."""
    a = _air_unit(ctx, w)
    o = Fly(a["id"], *_flight_path(ctx, a, w[2:]))
    _markers_allowed(ctx, a, o.search, o.attack)
    mp = len(o.path) + max(0, len(o.search) - 2) * ctx.vis
    if mp > a["speed"]:
        raise IllegalOrderError(t_('%(id)s has %(speed)s MP; this path and its extra Search markers cost %(mp)s', id=a['id'], speed=a['speed'], mp=mp),
                                rule="7.7.1")
    base = ctx.base_after.get(a["id"], a["base_hex"])
    if o.path[-1] != base and (a["range"] == 1 or a["status"] == "aloft"):
        raise IllegalOrderError(t_('%(id)s must end its flight at its base %(base)s this phase', id=a['id'], base=base), rule="7.7.1")
    if o.air in ctx.moved:
        raise IllegalOrderError(t_('%(air)s already has a flight path', air=o.air), rule="7.7.1")
    ctx.moved.add(o.air)
    return o


def _air_unit(ctx: Ctx, w: Sequence[str]) -> dict:
    if len(w) < 3:
        raise OrderSyntaxError(t_("write FLY <air unit> <hex> <hex> ... with +S after a hex for a Search marker "
                               "or +A for an Attack marker"), rule="7.7.1")
    a = ctx.air.get(w[1].lower())
    if a is None:
        raise IllegalOrderError(t_('no air unit of yours is called %(v)s (yours: %(v2)s)', v=w[1], v2=', '.join(sorted(ctx.air))),
                                rule="2.3.2")
    if a["status"] not in ("ready", "aloft"):
        raise IllegalOrderError(t_('%(id)s is %(status)s and cannot fly this turn', id=a['id'], status=a['status']), rule="7.7.1")
    return a


def _flight_path(ctx: Ctx, a: dict, tokens: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(hexes entered, marker letters after each) from the tokens of a FLY line."""
    # carriers move before their aircraft [7.7]: a carrier unit takes off from the carrier's new hex
    here = a["hex"] if a["status"] == "aloft" else ctx.base_after.get(a["id"], a["base_hex"])
    if here is None:
        raise IllegalOrderError(t_("%(id)s's base is not on the map", id=a['id']), rule="7.7.1")
    path, marks = [], []
    for tok in tokens:
        parts = tok.upper().split("+")
        h = hex_word(parts[0])
        if board().distance(here, h) != 1:
            raise IllegalOrderError(t_('%(h)s is not adjacent to %(here)s: a flight path enters one hex at a time', h=h, here=here),
                                    rule="7.7.1")
        bad = [m for m in parts[1:] if m not in ("S", "A")]
        if bad:
            raise OrderSyntaxError(t_('unknown flight-path marker +%(v)s: use +S or +A', v=bad[0]), rule="7.7.1")
        path.append(h)
        marks.append("".join(parts[1:]))
        here = h
    return tuple(path), tuple(marks)


def _markers_allowed(ctx: Ctx, a: dict, search: list[str], attack: list[str]) -> None:
    if (search or attack) and ctx.vis >= X:
        raise IllegalOrderError(t_("no flight-path markers at visibility X"), rule="7.7.1")
    for h in search + attack:
        if ctx.fog_blocks(h):
            raise IllegalOrderError(t_('no flight-path markers in fog hex %(h)s while fog is on', h=h), rule="7.7.1")
    if not attack:
        return
    if a["type"] != "B":
        raise IllegalOrderError(t_('%(id)s is a recon unit (R): only type B drops Attack markers', id=a['id']), rule="7.7.1")
    if len(attack) > 1 or search:
        raise IllegalOrderError(t_("an air unit drops either two Search markers or one Attack marker"), rule="7.7.1")
    shadowed = {c["hex"] for c in ctx.contacts.values() if c["status"] == "shadowed"}
    if attack[0] not in shadowed:
        raise IllegalOrderError(t_('an Attack marker needs a Shadowed enemy unit in its hex; Shadowed contacts are in %(v)s', v=', '.join(sorted(shadowed)) or t_('no hex')), rule="7.7.1")


# --- search, combat, release [8, 10, 12] ----------------------------------------------------------
def search(ctx: Ctx, w: Sequence[str]) -> Search:
    """One SEARCH line a turn (a second would silently replace the first); named hexes must be
    searchable at all this turn: none at visibility X, none in a fog hex while fog is on [8]."""
    if "SEARCH" in ctx.once:
        raise IllegalOrderError(t_("one SEARCH line a turn: put every hex you call on it"), rule="8")
    if len(w) == 2 and w[1].upper() in ("ALL", "NONE"):
        ctx.once.add("SEARCH")
        return Search(w[1].upper())
    if len(w) < 2:
        raise OrderSyntaxError(t_("write SEARCH ALL, SEARCH NONE or SEARCH <hex> <hex> ..."), rule="8")
    hexes = tuple(hex_word(h) for h in w[1:])
    if ctx.vis >= X:
        raise IllegalOrderError(t_("no hex can be searched at visibility X (SEARCH NONE or ALL)"), rule="8")
    fogged = [h for h in hexes if ctx.fog_blocks(h)]
    if fogged:
        raise IllegalOrderError(t_('no search in fog hex %(v)s while fog is on', v=fogged[0]), rule="8")
    ctx.once.add("SEARCH")
    return Search("LIST", hexes)


def engage(ctx: Ctx, w: Sequence[str]) -> Engage | If:
    """A combat call [10]; ``ENGAGE ... IF <condition>`` is read as ``IF <condition> THEN ENGAGE ...``."""
    up = [x.upper() for x in w]
    if "IF" in up:
        i = up.index("IF")
        return If(suffix_condition(w[i + 1:], ctx, ctx.side), engage(ctx, w[:i]))
    if len(w) not in (2, 4) or (len(w) == 4 and up[2] != "WITH"):
        raise OrderSyntaxError(t_('write %(ENGAGE_FORM)s', ENGAGE_FORM=ENGAGE_FORM), rule="10")
    c = ctx.contacts.get(up[1])
    if c is None:
        raise IllegalOrderError(t_('no contact %(v)s (contacts: %(v2)s)', v=w[1], v2=', '.join(sorted(ctx.contacts)) or t_('none')),
                                rule="10")
    if ctx.vis >= X:
        raise IllegalOrderError(t_("no naval combat may be started at visibility X"), rule="10")
    return Engage(c["id"], unit_id(ctx.need_unit(w[3])) if len(w) == 4 else None)


def release(ctx: Ctx, w: Sequence[str]) -> Release:
    releasable = ctx.get("releasable", [])
    if len(w) != 2 or w[1].lower() not in releasable:
        raise IllegalOrderError(t_('nothing to release now (releasable: %(v)s)', v=', '.join(releasable) or t_('none')),
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
