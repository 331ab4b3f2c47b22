"""Order lines: parsing and checking against a seat's view (never the state).

One order file per side covers most of a turn [digest 12]. Standing orders (reaction
policies) are kept in the state until replaced and consulted during resolution.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.core.errors import IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked

from . import movement as M
from .board import board, parse_hex
from .tables import X

TF_RE = re.compile(r"^(TF|KG|TG)[0-9]{1,2}$")
CLASSES = ("BB", "BC", "CV", "CA", "CL", "DD", "CG", "TK")
STANDING = {"ON_SHADOW", "SHADOW", "ON_DIVERSION", "STRIKE_CLASSES", "DEFEND_PRIORITY", "DOCTRINE",
            "HUNT", "ON_MERCHANT", "ON_CONVOY", "AUTO_ENGAGE", "SUB_HEX"}
TURN_VERBS = {"FORM", "JOIN", "DETACH", "REPAIR", "PORT", "REFUEL", "PATROL", "RTB", "MOVE", "FLY", "SEARCH",
              "ENGAGE", "RELEASE"}
GERMAN_ONLY = {"ON_SHADOW", "REFUEL", "RTB", "HUNT", "ON_MERCHANT", "ON_CONVOY", "SUB_HEX"}
ALLIED_ONLY = {"SHADOW", "ON_DIVERSION", "RELEASE"}


def standing_key(words: Sequence[str]) -> str:
    """Two standing orders with the same key: the later replaces the earlier."""
    verb = words[0].upper()
    if verb in ("ON_SHADOW", "DOCTRINE") and len(words) > 1:
        return f"{verb} {words[1].upper()}"
    if verb in ("SHADOW", "ON_DIVERSION") and len(words) > 2 and words[1].upper() not in ("FAST", "SLOW", "BOTH"):
        return f"{verb} {words[1].upper()}"
    return verb


class Ctx:
    """What a check needs from the view, with own units after this file's TF changes."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.side = view["side"]
        self.ships = {x["id"]: dict(x) for x in view["ships"] if x["status"] == "sea"}
        self.air = {a["id"]: a for a in view["air"]}
        self.contacts = {c["id"]: c for c in view["contacts"]}
        self.vis = view["visibility_n"]

    def unit(self, name: str) -> list[dict] | None:
        u = name.lower()
        if u in self.ships and not self.ships[u]["tf"]:
            return [self.ships[u]]
        tf = name.upper()
        found = [x for k, x in sorted(self.ships.items()) if x["tf"] == tf]
        return found or None

    def units(self) -> list[str]:
        return sorted({x["tf"] or x["id"] for x in self.ships.values()})

    def ship(self, name: str) -> dict:
        x = self.ships.get(name.lower())
        if x is None:
            known = ", ".join(sorted(self.ships)) or "none"
            raise IllegalOrderError(f"no ship of yours at sea is called {name} (yours: {known})", rule="2.3")
        return x

    def need_unit(self, name: str) -> list[dict]:
        u = self.unit(name)
        if u is None:
            raise IllegalOrderError(f"no unit of yours is called {name} (units: {', '.join(self.units())})",
                                    rule="2.3")
        return u

    def fog_blocks(self, h: str) -> bool:
        return self.view["fog"] and h in board().fog


def _hex(word: str) -> str:
    h = word.upper()
    if parse_hex(h) is None or not board().exists(h):
        raise OrderSyntaxError(f"{word} is not a hex id (a row letter A..AH and a column 1..33, e.g. U26)",
                               rule="2.1")
    return h


def parse_fly(ctx: Ctx, words: Sequence[str]) -> dict:
    """FLY <air> <hex>[+S|+S+S|+A] ... : a flight path, 1 MP a hex [7.7.1]."""
    if len(words) < 3:
        raise OrderSyntaxError("write FLY <air unit> <hex> <hex> ... with +S after a hex for a Search marker "
                               "or +A for an Attack marker", rule="7.7.1")
    a = ctx.air.get(words[1].lower())
    if a is None:
        raise IllegalOrderError(f"no air unit of yours is called {words[1]} (yours: {', '.join(sorted(ctx.air))})",
                                rule="2.3.2")
    if a["status"] not in ("ready", "aloft"):
        raise IllegalOrderError(f"{a['id']} is {a['status']} and cannot fly this turn", rule="7.7.1")
    # carriers move before their aircraft [7.7]: a carrier unit takes off from the carrier's new hex
    here = a["hex"] if a["status"] == "aloft" else ctx.view["base_hex_after"].get(a["id"], a["base_hex"])
    if here is None:
        raise IllegalOrderError(f"{a['id']}'s base is not on the map", rule="7.7.1")
    path, search, attack = [], [], []
    b = board()
    for tok in words[2:]:
        parts = tok.upper().split("+")
        h = _hex(parts[0])
        if b.distance(here, h) != 1:
            raise IllegalOrderError(f"{h} is not adjacent to {here}: a flight path enters one hex at a time",
                                    rule="7.7.1")
        path.append(h)
        here = h
        for m in parts[1:]:
            if m == "S":
                search.append(h)
            elif m == "A":
                attack.append(h)
            else:
                raise OrderSyntaxError(f"unknown flight-path marker +{m}: use +S or +A", rule="7.7.1")
    if (search or attack) and ctx.vis >= X:
        raise IllegalOrderError("no flight-path markers at visibility X", rule="5")
    for h in search + attack:
        if ctx.fog_blocks(h):
            raise IllegalOrderError(f"no flight-path markers in fog hex {h} while fog is on", rule="5")
    if attack:
        if a["type"] != "B":
            raise IllegalOrderError(f"{a['id']} is a recon unit (R): only type B drops Attack markers", rule="7.7.1")
        if len(attack) > 1 or search:
            raise IllegalOrderError("an air unit drops either two Search markers or one Attack marker", rule="7.7.1")
        shadowed = {c["hex"] for c in ctx.contacts.values() if c["status"] == "shadowed"}
        if attack[0] not in shadowed:
            raise IllegalOrderError(f"an Attack marker needs a Shadowed enemy unit in its hex; "
                                    f"Shadowed contacts are in {', '.join(sorted(shadowed)) or 'no hex'}", rule="7.7.1")
    mp = len(path) + max(0, len(search) - 2) * ctx.vis
    if mp > a["speed"]:
        raise IllegalOrderError(f"{a['id']} has {a['speed']} MP; this path and its extra Search markers cost {mp}",
                                rule="7.7.1")
    end = path[-1]
    base = ctx.view["base_hex_after"].get(a["id"], a["base_hex"])
    if end != base and (a["range"] == 1 or a["status"] == "aloft"):
        raise IllegalOrderError(f"{a['id']} must end its flight at its base {base} this phase", rule="7.7.1")
    return {"verb": "FLY", "air": a["id"], "path": path, "search": search, "attack": attack}


def check(view: dict, seat: str, lines: Sequence[OrderLine]) -> Checked:
    ctx = Ctx(view)
    step = view["step"]
    problems: list[OrderProblem] = []
    orders: list[dict] = []
    standing: list[str] = []
    notes: list[str] = []
    moved_units: set[str] = set()
    # TF changes first, so MOVE lines may name a task force formed in the same file [7.2]
    ordered = sorted(lines, key=lambda ln: 0 if ln.verb in ("FORM", "JOIN", "DETACH") else 1)
    base_after: dict[str, str] = {}
    view = dict(view, base_hex_after=base_after)
    ctx.view = view
    for ln in ordered:
        w = ln.words
        verb = ln.verb
        try:
            if step == "convoy":
                if verb not in ("ATTACK", "IGNORE") or len(w) != 1:
                    raise OrderSyntaxError("a convoy has been found: answer ATTACK or IGNORE", rule="11.3")
                orders.append({"verb": verb})
                continue
            if step == "doctrine" and verb != "DOCTRINE":
                raise OrderSyntaxError("a naval combat is coming: only DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE "
                                       "[TORPEDOES ON|OFF] [BREAK <hull>] lines are taken now", rule="10")
            if verb not in STANDING | TURN_VERBS:
                raise OrderSyntaxError(f"unknown order {w[0]}; orders are "
                                       + ", ".join(sorted(STANDING | TURN_VERBS)))
            if verb in GERMAN_ONLY and ctx.side != "german":
                raise IllegalOrderError(f"{verb} is a German order", rule="4")
            if verb in ALLIED_ONLY and ctx.side != "allied":
                raise IllegalOrderError(f"{verb} is an Allied order", rule="4")
            if verb in STANDING:
                standing.append(_standing(ctx, w))
                continue
            if step.startswith("shadowed") and verb not in ("MOVE",):
                raise IllegalOrderError("only your Shadowed units move now (MOVE, or leave them out to stay); "
                                        "the other orders come in the main order phase", rule="7.1")
            orders.append(_turn_order(ctx, verb, w, step, moved_units, base_after))
        except OrderError as exc:
            problems.append(exc.problem(ln.line_no, ln.text))
    if step != "convoy":
        keys = {}
        for s in standing:
            k = standing_key(s.split())
            if k in keys:
                notes.append(f"standing order {s} replaces {keys[k]}")
            keys[k] = s
        for s in view.get("standing", []):
            if standing_key(s.split()) in keys:
                notes.append(f"standing order {keys[standing_key(s.split())]} replaces the earlier {s}")
    return Checked({"orders": orders, "standing": standing}, tuple(problems), tuple(notes))


def _standing(ctx: Ctx, w: Sequence[str]) -> str:
    verb = w[0].upper()
    args = [x.upper() for x in w[1:]]

    def choice(opts: tuple[str, ...], rule: str) -> str:
        if len(args) != 1 or args[0] not in opts:
            raise OrderSyntaxError(f"write {verb} {'|'.join(opts)}", rule=rule)
        return f"{verb} {args[0]}"

    if verb == "ON_SHADOW":
        if len(w) < 3:
            raise OrderSyntaxError("write ON_SHADOW <unit> EVADE|NONE|DIVERT <fast ship>,<fast ship>", rule="6")
        unit = ctx.need_unit(w[1])
        act = args[1]
        if act in ("EVADE", "NONE") and len(w) == 3:
            return f"ON_SHADOW {w[1].upper() if TF_RE.match(w[1].upper()) else w[1].lower()} {act}"
        if act == "DIVERT" and len(w) == 4:
            if len(unit) < 2:
                raise IllegalOrderError("a Diversion Maneuver needs a task force", rule="6")
            fast = [s.lower() for s in w[3].split(",")]
            ids = {x["id"] for x in unit}
            bad = [s for s in fast if s not in ids]
            if bad or len(fast) >= len(unit):
                raise IllegalOrderError(f"the fast part must be some, not all, ships of {w[1]} "
                                        f"({', '.join(sorted(ids))})", rule="6")
            slow = [x for x in unit if x["id"] not in fast]
            if min(M.er_now(x) for x in unit if x["id"] in fast) < max(M.er_now(x) for x in slow):
                raise IllegalOrderError("the slowest ship of the fast part must be at least as fast as the "
                                        "fastest ship of the slow part", rule="6")
            return f"ON_SHADOW {w[1].upper()} DIVERT {','.join(sorted(fast))}"
        raise OrderSyntaxError("write ON_SHADOW <unit> EVADE|NONE|DIVERT <fast ship>,<fast ship>", rule="6")
    if verb == "SHADOW":
        if len(args) == 1:
            return choice(("ON", "OFF"), "6")
        return _shadow(ctx, w)
    if verb == "AUTO_ENGAGE":
        return choice(("ON", "OFF"), "10")
    if verb == "ON_DIVERSION":
        return _on_diversion(ctx, w)
    if verb == "ON_MERCHANT":
        return choice(("ATTACK", "IGNORE"), "11.3")
    if verb == "ON_CONVOY":
        return choice(("ATTACK", "IGNORE", "ASK"), "11.3")
    if verb == "STRIKE_CLASSES":
        bad = [a for a in args if a not in CLASSES]
        if not args or bad:
            raise OrderSyntaxError(f"write STRIKE_CLASSES followed by classes from {' '.join(CLASSES)}", rule="9")
        return f"STRIKE_CLASSES {' '.join(args)}"
    if verb == "DEFEND_PRIORITY":
        names = [ctx.ship(x)["id"] for x in w[1:]]
        if not names:
            raise OrderSyntaxError("write DEFEND_PRIORITY <ship> <ship> ...", rule="9")
        return f"DEFEND_PRIORITY {' '.join(names)}"
    if verb == "HUNT":
        if len(args) == 1 and args[0] in ("AUTO", "NONE"):
            return f"HUNT {args[0]}"
        if len(w) == 2:
            ctx.need_unit(w[1])
            return f"HUNT {w[1]}"
        raise OrderSyntaxError("write HUNT <unit>|AUTO|NONE", rule="11.3")
    if verb == "SUB_HEX":
        if len(w) != 2:
            raise OrderSyntaxError("write SUB_HEX <hex>", rule="11.1")
        return f"SUB_HEX {_hex(w[1])}"
    if verb == "DOCTRINE":
        if len(w) < 3:
            raise OrderSyntaxError("write DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE [TORPEDOES ON|OFF] [BREAK <hull>]",
                                   rule="10")
        who = "ALL" if args[0] == "ALL" else w[1]
        if who != "ALL":
            ctx.need_unit(who)
        if args[1] not in ("CLOSE", "STANDOFF", "EVADE"):
            raise OrderSyntaxError("a doctrine is CLOSE, STANDOFF or EVADE", rule="10")
        rest = args[2:]
        out = [f"DOCTRINE {who} {args[1]}"]
        while rest:
            if rest[0] == "TORPEDOES" and len(rest) > 1 and rest[1] in ("ON", "OFF"):
                out.append(f"TORPEDOES {rest[1]}")
                rest = rest[2:]
            elif rest[0] == "BREAK" and len(rest) > 1 and rest[1].isdigit():
                out.append(f"BREAK {int(rest[1])}")
                rest = rest[2:]
            else:
                raise OrderSyntaxError("after the doctrine write TORPEDOES ON|OFF and/or BREAK <hull>", rule="10")
        return " ".join(out)
    raise OrderSyntaxError(f"unknown standing order {verb}")


ENGAGE_FORM = "ENGAGE <contact> [WITH <unit>] [IF PREVIOUS WON|LOST|DRAWN|NONE | IF <ship> AFLOAT|SUNK]"


def _engage(ctx: Ctx, w: Sequence[str]) -> dict:
    """A combat call [10]; calls are resolved one at a time in file order, so a condition may test
    the result of this side's previous call or whether a ship is still afloat."""
    words = list(w)
    cond = None
    up = [x.upper() for x in words]
    if "IF" in up:
        i = up.index("IF")
        words, cw = words[:i], up[i + 1:]
        if len(cw) != 2:
            raise OrderSyntaxError(f"write {ENGAGE_FORM}", rule="10")
        if cw[0] == "PREVIOUS":
            if cw[1] not in ("WON", "LOST", "DRAWN", "NONE"):
                raise OrderSyntaxError("IF PREVIOUS takes WON, LOST, DRAWN or NONE", rule="10")
            cond = ["PREVIOUS", cw[1]]
        else:
            known = {x["id"] for x in ctx.view["ships"]} | {c["id"] for c in ctx.view["cards"]}
            sid = cw[0].lower()
            if sid not in known:
                raise IllegalOrderError(f"IF names {cw[0]}, which is neither your ship nor a Ship Card in play "
                                        f"(or write IF PREVIOUS WON|LOST|DRAWN|NONE)", rule="10")
            if cw[1] not in ("AFLOAT", "SUNK"):
                raise OrderSyntaxError(f"IF {sid} takes AFLOAT or SUNK", rule="10")
            cond = [sid, cw[1]]
    if len(words) not in (2, 4) or (len(words) == 4 and words[2].upper() != "WITH"):
        raise OrderSyntaxError(f"write {ENGAGE_FORM}", rule="10")
    c = ctx.contacts.get(words[1].upper())
    if c is None:
        raise IllegalOrderError(f"no contact {words[1]} (contacts: {', '.join(sorted(ctx.contacts)) or 'none'})",
                                rule="10")
    unit = None
    if len(words) == 4:
        u = ctx.need_unit(words[3])
        unit = u[0]["tf"] or u[0]["id"]
    return {"verb": "ENGAGE", "contact": c["id"], "unit": unit, "cond": cond}


def format_engage(o: dict) -> str:
    """The canonical line of a parsed ENGAGE order."""
    out = f"ENGAGE {o['contact']}" + (f" WITH {o['unit']}" if o["unit"] else "")
    return out + (f" IF {' '.join(o['cond'])}" if o.get("cond") else "")


SHADOW_FORM = "SHADOW ON|OFF or SHADOW <contact|hex> WITH <TF|ship[,ship...]> [SPLIT] or SHADOW <contact|hex> OFF"
DIVERSION_FORM = "ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>]"


def _target(ctx: Ctx, word: str) -> str:
    """A shadow target: one of your contacts (C3) or a hex (for contacts not yet made) [6]."""
    t = word.upper()
    if t in ctx.contacts:
        return t
    if re.match(r"^C[0-9]+$", t):
        raise IllegalOrderError(f"no contact {t} (contacts: {', '.join(sorted(ctx.contacts)) or 'none'}); "
                                f"name a contact or a hex", rule="6")
    return _hex(word)


def _shadow(ctx: Ctx, w: Sequence[str]) -> str:
    """SHADOW <contact|hex> WITH <who> [SPLIT] | SHADOW <contact|hex> OFF [6]."""
    args = [x.upper() for x in w[1:]]
    if len(args) == 2 and args[1] == "OFF":
        return f"SHADOW {_target(ctx, w[1])} OFF"
    if len(args) not in (3, 4) or args[1] != "WITH" or (len(args) == 4 and args[3] != "SPLIT"):
        raise OrderSyntaxError(f"write {SHADOW_FORM}", rule="6")
    target = _target(ctx, w[1])
    who = w[3]
    if TF_RE.match(who.upper()):
        ships = ctx.need_unit(who)
        if len(ships) < 2:
            raise IllegalOrderError(f"{who.upper()} is not a task force of yours", rule="6")
        if len(args) == 4:
            raise IllegalOrderError(f"SPLIT detaches named ships; to shadow with the whole {who.upper()} leave it out",
                                    rule="6")
        return f"SHADOW {target} WITH {who.upper()}"
    ships = [ctx.ship(s) for s in who.split(",")]
    ids = sorted({x["id"] for x in ships})
    for tf in sorted({x["tf"] for x in ships if x["tf"]}):
        whole = sorted(x["id"] for x in ctx.ships.values() if x["tf"] == tf)
        if set(whole) <= set(ids):
            continue
        if any(x["shadowed"] for x in ctx.ships.values() if x["tf"] == tf):
            raise IllegalOrderError(f"{tf} is Shadowed and may not split to shadow: name {tf}", rule="6")
        if len(args) != 4:
            raise IllegalOrderError(f"{', '.join(i for i in ids if ctx.ships[i]['tf'] == tf)} sail in {tf} "
                                    f"({', '.join(whole)}): add SPLIT to detach them for the attempt, or name {tf}",
                                    rule="6")
    return f"SHADOW {target} WITH {','.join(ids)}{' SPLIT' if len(args) == 4 else ''}"


def _on_diversion(ctx: Ctx, w: Sequence[str]) -> str:
    """ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>] [6]."""
    args = [x.upper() for x in w[1:]]
    out = ["ON_DIVERSION"]
    if args and args[0] not in ("FAST", "SLOW", "BOTH"):
        out.append(_target(ctx, w[1]))
        args = args[1:]
    if not args or args[0] not in ("FAST", "SLOW", "BOTH") or len(args) > 2:
        raise OrderSyntaxError(f"write {DIVERSION_FORM}", rule="6")
    out.append(args[0])
    if len(args) == 2:
        if args[0] != "BOTH" or not args[1].startswith("FAST="):
            raise OrderSyntaxError(f"FAST=<ships> only follows BOTH: write {DIVERSION_FORM}", rule="6")
        ids = sorted({ctx.ship(s)["id"] for s in args[1][5:].split(",") if s})
        if not ids:
            raise OrderSyntaxError(f"name the ships after FAST=: write {DIVERSION_FORM}", rule="6")
        out.append("FAST=" + ",".join(ids))
    return " ".join(out)


def _turn_order(ctx: Ctx, verb: str, w: Sequence[str], step: str, moved: set[str], base_after: dict) -> dict:
    view = ctx.view
    side = ctx.side
    if verb == "FORM":
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
        for x in ships:
            x["tf"] = tf
        return {"verb": "FORM", "tf": tf, "ships": [x["id"] for x in ships]}
    if verb == "JOIN":
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
        x["tf"] = tf[0]["tf"]
        return {"verb": "JOIN", "ship": x["id"], "tf": tf[0]["tf"]}
    if verb == "DETACH":
        if len(w) != 2:
            raise OrderSyntaxError("write DETACH <ship>", rule="7.2")
        x = ctx.ship(w[1])
        if not x["tf"]:
            raise IllegalOrderError(f"{x['id']} is not in a task force", rule="7.2")
        if x["shadowed"]:
            raise IllegalOrderError("a Shadowed task force splits only by a Diversion Maneuver", rule="6, 7.2")
        x["tf"] = None
        return {"verb": "DETACH", "ship": x["id"]}
    if verb in ("REPAIR", "PORT", "PATROL", "RTB"):
        if len(w) != 2:
            raise OrderSyntaxError(f"write {verb} <{'unit' if verb == 'PATROL' else 'ship'}>")
        if verb == "PATROL":
            u = ctx.need_unit(w[1])
            if ctx.vis >= X or ctx.fog_blocks(u[0]["hex"]):
                raise IllegalOrderError("no patrol at visibility X or in a fog hex while fog is on", rule="7.6")
            if (u[0]["tf"] or u[0]["id"]) in moved:
                raise IllegalOrderError("a patrolling unit cannot move", rule="7.6")
            moved.add(u[0]["tf"] or u[0]["id"])
            for x in u:
                x["markers"] = list(x["markers"]) + ["patrol"]
            return {"verb": "PATROL", "unit": u[0]["tf"] or u[0]["id"]}
        x = ctx.ship(w[1])
        if verb == "REPAIR":
            if not x["rudder"] and not any(x["ee"]):
                raise IllegalOrderError(f"{x['id']} has no rudder damage or lost ER to repair", rule="7.3")
        if verb == "PORT":
            p = board().ports.get(x["hex"])
            if p is None or p.side != side:
                raise IllegalOrderError(f"{x['id']} is not in a friendly port hex", rule="7.4")
        if verb == "RTB":
            if x["cls"] not in ("BB", "BC", "CA") or (not x["rudder"] and not any(x["ee"])):
                raise IllegalOrderError("Return to Base is for a heavy ship with reduced ER", rule="7.7.2")
            return {"verb": "RTB", "ship": x["id"]}
        if x["id"] in moved:
            raise IllegalOrderError(f"{x['id']} moves this turn and cannot also {verb.lower()}", rule="7.3-7.5")
        moved.add(x["id"])
        x["markers"] = list(x["markers"]) + [verb.lower()]
        return {"verb": verb, "ship": x["id"]}
    if verb == "REFUEL":
        if len(w) != 4 or w[2].upper() != "FROM":
            raise OrderSyntaxError("write REFUEL <ship> FROM <tanker>", rule="7.5")
        x, t = ctx.ship(w[1]), ctx.ship(w[3])
        if t["cls"] != "TK" or t["hex"] != x["hex"] or x["cls"] == "TK":
            raise IllegalOrderError(f"{x['id']} needs a tanker in its hex {x['hex']}", rule="7.5")
        if "refuel" in t["markers"]:
            raise IllegalOrderError(f"{t['id']} refuels one ship a turn", rule="7.5")
        for s in (x["id"], t["id"]):
            if s in moved:
                raise IllegalOrderError(f"{s} moves this turn and cannot refuel", rule="7.5")
            moved.add(s)
        x["markers"] = list(x["markers"]) + ["refuel"]
        t["markers"] = list(t["markers"]) + ["refuel"]
        return {"verb": "REFUEL", "ship": x["id"], "tanker": t["id"]}
    if verb == "MOVE":
        if len(w) < 3:
            raise OrderSyntaxError("write MOVE <unit> <hex> [<hex>]", rule="7.7")
        u = ctx.need_unit(w[1])
        uid = u[0]["tf"] or u[0]["id"]
        if step.startswith("shadowed") and uid not in view["must_move"]:
            raise IllegalOrderError(f"{uid} is not Shadowed; it moves in the main order phase "
                                    f"(Shadowed now: {', '.join(view['must_move'])})", rule="7.1")
        if not step.startswith("shadowed") and any(x["id"] in view["moved"] for x in u):
            raise IllegalOrderError(f"{uid} already moved and announced this turn", rule="7.1")
        if uid in moved or any(x["id"] in moved for x in u):
            raise IllegalOrderError(f"{uid} already has an order that keeps it in place or moves it", rule="7.7")
        path = [_hex(h) for h in w[2:]]
        why = M.check_path(side, u, path, list(ctx.ships.values()))
        if why:
            raise IllegalOrderError(f"{uid}: {why}", rule="7.7.2")
        moved.add(uid)
        for x in u:
            if x["cls"] == "CV":
                for a in ctx.air.values():
                    if a["base"] == x["id"]:
                        base_after[a["id"]] = path[-1]
        return {"verb": "MOVE", "unit": uid, "path": path}
    if verb == "FLY":
        o = parse_fly(ctx, w)
        if o["air"] in moved:
            raise IllegalOrderError(f"{o['air']} already has a flight path", rule="7.7.1")
        moved.add(o["air"])
        return o
    if verb == "SEARCH":
        if len(w) == 2 and w[1].upper() in ("ALL", "NONE"):
            return {"verb": "SEARCH", "mode": w[1].upper(), "hexes": []}
        if len(w) < 2:
            raise OrderSyntaxError("write SEARCH ALL, SEARCH NONE or SEARCH <hex> <hex> ...", rule="8")
        return {"verb": "SEARCH", "mode": "LIST", "hexes": [_hex(h) for h in w[1:]]}
    if verb == "ENGAGE":
        return _engage(ctx, w)
    if verb == "RELEASE":
        if len(w) != 2 or w[1].lower() not in view.get("releasable", []):
            raise IllegalOrderError(f"nothing to release now (releasable: {', '.join(view.get('releasable', [])) or 'none'})",
                                    rule="12")
        return {"verb": "RELEASE", "ship": w[1].lower()}
    raise OrderSyntaxError(f"unknown order {verb}")
