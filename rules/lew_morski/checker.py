"""Reading and checking one seat's order lines against its view only [digest 11 order vocabulary].

One function per verb turns the words of a line into the typed orders of ``orders`` or raises one
of the core order errors with its rule.  A :class:`Checker` carries what earlier lines of the same
file settled: where each aircraft starts and ends (moves are checked in the order written, so a
formation's leaders must move first [R 4.1.1]), the hexes it flies over (for BOMB) and which unit
already has which order.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core.errors import AmbiguousOrderError, IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked

from . import board, movement
from .board import Hex
from .orders import (AaFire, Bomb, Enter, Fire, Move, Order, Pass, Place, PlaceGun, ReactAnswer, Standing, Unjam,
                     Withdraw)
from .own_aircraft import stats_of
from .setup import gun_site_problem
from .state import ALTS

_HEXES = re.compile(r"A\s*\d{1,2}\s*,?\s*B\s*\d{1,2}", re.IGNORECASE)
REACT_POLICIES = ("ALWAYS", "NEVER", "ASK")
PHASE_WORDS = {"setup": "the setup", "move": "your movement phase", "react": "a reactive-fire window",
               "none": "a phase where you give no orders"}


class Checker:
    """What one seat's order file has settled so far, line by line."""

    def __init__(self, view: Mapping[str, Any], seat: str) -> None:
        self.view = view
        self.seat = seat
        self.kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
        self.own = {a["id"].lower(): a for a in view["own"]}
        self.guns = {g["id"].lower(): g for g in view.get("own_guns", [])}
        self.planes = {p["id"].lower(): p for p in view["planes"]}
        self.orders: list[Order] = []
        self.notes: list[str] = []
        self.occ = {(board.parse_hex(p["hex"]), p["alt"]) for p in view["planes"]}
        self.start: dict[str, tuple[Hex, str, str]] = {}  # where an aircraft starts its move this phase
        self.paths: dict[str, list[Hex]] = {}
        self.exits: dict[str, str] = {}  # edge each moved aircraft leaves by ("" if it stays)
        self.gun_hexes: set[str] = set()  # hexes given to guns by earlier AA lines
        for a in view["own"]:
            if a["status"] == "board":
                self.start[a["id"]] = (board.parse_hex(a["hex"]), a["facing"], a["alt"])  # type: ignore[assignment]
            elif a.get("entry"):
                e = a["entry"]
                self.start[a["id"]] = (board.parse_hex(e["hex"]), e["facing"], e["alt"])  # type: ignore[assignment]
        self.seen: set[tuple[str, str]] = set()

    @property
    def side(self) -> str:
        return self.view["side"]

    @property
    def opts(self) -> Mapping[str, Any]:
        return self.view["options"]

    def aircraft(self, word: str, rule: str = "") -> dict[str, Any]:
        """The seat's aircraft named (or uniquely abbreviated) by ``word``."""
        a = self.own.get(word.lower())
        if a is not None:
            return a
        matches = [x for k, x in self.own.items() if k.startswith(word.lower())]
        if len(matches) == 1:
            return matches[0]
        mine = ", ".join(sorted(x["id"] for x in self.own.values())) or "none"
        if len(matches) > 1:
            raise AmbiguousOrderError(f"{word} could be {', '.join(sorted(m['id'] for m in matches))}", rule=rule)
        if word.lower() in self.planes:
            raise IllegalOrderError(f"{word} is not one of your aircraft (yours: {mine})", rule="R 1")
        raise IllegalOrderError(f"no aircraft of yours is called {word} (yours: {mine})", rule=rule)

    def aircraft_or_all(self, word: str, rule: str) -> list[dict[str, Any]]:
        if word.upper() == "ALL":
            return sorted(self.own.values(), key=lambda a: a["id"])
        return [self.aircraft(word, rule)]

    def gun(self, word: str) -> dict[str, Any]:
        g = self.guns.get(word.lower())
        if g is None:
            mine = ", ".join(sorted(x["id"] for x in self.guns.values())) or "none"
            raise IllegalOrderError(f"no AA gun of yours is called {word} (yours: {mine})", rule="R 6")
        return g

    def once(self, verb: str, unit: str) -> None:
        if (verb, unit) in self.seen:
            raise IllegalOrderError(f"{unit} already has a {verb} order in this file", rule="R 3.0")
        self.seen.add((verb, unit))

    def need(self, *kinds: str, verb: str) -> None:
        if self.kind not in kinds:
            raise IllegalOrderError(f"{verb} is not allowed in {PHASE_WORDS[self.kind]}; allowed now: "
                                    f"{', '.join(self.allowed())}", rule="R 3.0")

    def allowed(self) -> list[str]:
        gb = self.side == "gb"
        base = ["REACT (standing)", "RETURNFIRE", "PASS"] + (["AA (standing)"] if gb else [])
        return {"setup": ["PLACE", "AA <gun> <hex>"] + base,
                "move": ["MOVE", "ENTER", "FIRE", "BOMB", "UNJAM", "WITHDRAW"] + (["AAFIRE"] if gb else []) + base,
                "react": ["REACT <ac> FIRE|HOLD"] + base, "none": base}[self.kind]

    def line(self, ln: OrderLine) -> None:
        handler = VERBS.get(ln.verb.upper())
        if handler is None:
            raise OrderSyntaxError(f"unknown order {ln.words[0]!r}; allowed now: {', '.join(self.allowed())}")
        self.orders.extend(handler(self, list(ln.words[1:])))


Orders = Sequence[Order]


# ------------------------------------------------------------------------------------------ setup
def read_pass(c: Checker, args: list[str]) -> Orders:
    if args:
        raise OrderSyntaxError("PASS takes no arguments")
    return (Pass(),)


def read_place(c: Checker, args: list[str]) -> Orders:
    """PLACE <aircraft> <hex> <facing>: within the group's start area, one per hex, all high [R 9.3]."""
    c.need("setup", verb="PLACE")
    if len(args) < 3:
        raise OrderSyntaxError("write PLACE <aircraft> <hex> <facing>, e.g. PLACE Spit-1 A10,B08 SE")
    a = c.aircraft(args[0], "R 9.3")
    rest = " ".join(args[1:])
    m = _HEXES.search(rest)
    if not m:
        raise OrderSyntaxError("PLACE needs a hex like A10,B08", rule="R 2.0")
    h: Hex = board.parse_hex(m.group(0))  # type: ignore[assignment]
    words = [x for x in rest[m.end():].split() if x.upper() != "FACING"]
    if len(words) != 1 or words[0].upper() not in board.FACINGS:
        raise OrderSyntaxError(f"PLACE needs a facing, one of {' '.join(board.FACINGS)}", rule="R 4.0")
    area = [board.parse_hex(x) for x in a.get("start_area", [])]
    if h not in area:
        raise IllegalOrderError(f"{a['id']} must start within its start area ({len(area)} hexes around "
                                f"{a.get('start_centre', '?')}, radius {a.get('start_radius', '?')})", rule="R 9.3")
    c.once("PLACE", a["id"])
    old = board.parse_hex(a["hex"])
    if (h, "HIGH") in c.occ and h != old:
        raise IllegalOrderError(f"{board.fmt(h)} already holds an aircraft; all aircraft start high, one per hex",
                                rule="R 4.2.1, 4.1.1")
    c.occ.discard((old, "HIGH"))
    c.occ.add((h, "HIGH"))
    return (Place(a["id"], h, words[0].upper()),)


def read_aa(c: Checker, args: list[str]) -> Orders:
    """AA <gun> <hex> in the setup; otherwise AA <gun|ALL> AUTO|BOMBERS|HOLD, a standing order."""
    if len(args) < 2:
        raise OrderSyntaxError("write AA <gun|ALL> AUTO|BOMBERS|HOLD, or in the setup AA <gun> <hex>")
    rest = " ".join(args[1:])
    if _HEXES.fullmatch(rest.strip()):
        return (place_gun(c, args[0], rest),)
    val = args[1].upper()
    if val not in ("AUTO", "BOMBERS", "HOLD") or len(args) != 2:
        raise OrderSyntaxError("an AA standing order is AUTO, BOMBERS or HOLD", rule="R 6.2.4")
    units = sorted(c.guns.values(), key=lambda g: g["id"]) if args[0].upper() == "ALL" else [c.gun(args[0])]
    return tuple(Standing(g["id"], "aa", val) for g in units)


def place_gun(c: Checker, word: str, hex_text: str) -> PlaceGun:
    """A gun on a land hex without river or cloud, one gun per hex [R 6.0.1-6.0.2]."""
    c.need("setup", verb="AA <gun> <hex>")
    g = c.gun(word)
    h: Hex = board.parse_hex(hex_text)  # type: ignore[assignment]
    why = gun_site_problem(h)
    if why:
        raise IllegalOrderError(f"{g['id']} cannot stand on {board.fmt(h)}: {why}", rule="R 6.0.1-6.0.2")
    taken = {x["hex"] for x in c.view.get("own_guns", []) if x["id"] != g["id"]} | c.gun_hexes
    if board.fmt(h) in taken:
        raise IllegalOrderError(f"{board.fmt(h)} already holds an AA gun; one gun per hex", rule="R 6.0.1")
    c.once("AA", g["id"])
    c.gun_hexes.add(board.fmt(h))
    return PlaceGun(g["id"], h)


# ------------------------------------------------------------------------------- standing orders
def read_react(c: Checker, args: list[str]) -> Orders:
    """REACT <ac> FIRE|HOLD answers an interrupt window; anything else is a standing order [R 5.4, G-31]."""
    if len(args) < 2:
        raise OrderSyntaxError("write REACT <aircraft|ALL> ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k "
                               "(or FIRE|HOLD when asked)")
    val = " ".join(args[1:]).upper().replace(" ", "")
    if val in ("FIRE", "HOLD"):
        return (react_answer(c, args[0], val),)
    pol = react_policy(val)
    return tuple(Standing(a["id"], "react", pol) for a in c.aircraft_or_all(args[0], "R 5.4"))


def react_policy(val: str) -> str:
    if val in REACT_POLICIES:
        return val
    if val == "IFBOMBER":
        return "BOMBER"
    m = re.fullmatch(r"IFSTRENGTH>=?([0-5])", val)
    if m:
        return f"STRENGTH:{m.group(1)}"
    raise OrderSyntaxError("a REACT standing order is ALWAYS, NEVER, ASK, IF BOMBER or IF STRENGTH>=k "
                           "(k 0-5)", rule="R 5.4")


def react_answer(c: Checker, word: str, val: str) -> ReactAnswer:
    c.need("react", verb=f"REACT ... {val}")
    a = c.aircraft(word, "R 5.4")
    asked = {x["ac"] for x in c.view.get("ask", [])}
    if a["id"] not in asked:
        raise IllegalOrderError(f"{a['id']} is not asked to decide now (asked: {', '.join(sorted(asked)) or 'none'})",
                                rule="R 5.4")
    c.once("REACT", a["id"])
    return ReactAnswer(a["id"], val)


def read_returnfire(c: Checker, args: list[str]) -> Orders:
    if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
        raise OrderSyntaxError("write RETURNFIRE <aircraft|ALL> YES|NO", rule="R 5.4")
    return tuple(Standing(a["id"], "return", args[1].upper()) for a in c.aircraft_or_all(args[0], "R 5.4"))


# -------------------------------------------------------------------------------------- movement
def read_enter(c: Checker, args: list[str]) -> Orders:
    """ENTER <aircraft> [<hex>] [<facing>] [<altitude>] for an aircraft due this stage [R 4.3.1, 9]."""
    c.need("move", verb="ENTER")
    if not args:
        raise OrderSyntaxError("write ENTER <aircraft> [<hex>] <facing> [HIGH|LOW|VLOW]")
    a = c.aircraft(args[0], "R 4.3.1")
    e = a.get("entry")
    if not e:
        raise IllegalOrderError(f"{a['id']} is not due to enter the board this stage", rule="R 4.3.1, 9")
    rest = " ".join(args[1:])
    m = _HEXES.search(rest)
    h: Hex = board.parse_hex(m.group(0) if m else e["hex"])  # type: ignore[assignment]
    facing, alt = entry_words(c, a, (rest[m.end():] if m else rest).split())
    allowed = e["hexes"]
    if board.fmt(h) not in allowed:
        raise IllegalOrderError(f"{a['id']} may enter only at {', '.join(allowed[:12])}"
                                + (" ..." if len(allowed) > 12 else ""), rule="R 4.3.1, 9")
    if (h, alt or e["alt"]) in c.occ:
        raise IllegalOrderError(f"{board.fmt(h)} already holds an aircraft at {(alt or e['alt']).lower()}",
                                rule="R 4.1.1")
    c.once("ENTER", a["id"])
    c.start[a["id"]] = (h, facing, alt or e["alt"])
    return (Enter(a["id"], h, facing, alt),)


def entry_words(c: Checker, a: Mapping[str, Any], words: list[str]) -> tuple[str, str]:
    """The facing (default: the entry's) and the altitude the owner chose ("" if none) [G-6]."""
    e = a["entry"]
    facing, alt = e["facing"], ""
    for w in words:
        if w.upper() in board.FACINGS:
            facing = w.upper()
        elif w.upper() in ALTS:
            if c.opts["return_altitude"] != "owner" or e.get("reinforcement"):
                raise IllegalOrderError(f"{a['id']} enters at {e['alt'].lower()}; altitude is not the owner's "
                                        "choice (option return_altitude)", rule="G-6")
            alt = w.upper()
        else:
            raise OrderSyntaxError(f"{w!r} is neither a facing ({' '.join(board.FACINGS)}) nor an altitude")
    return facing, alt


def read_move(c: Checker, args: list[str]) -> Orders:
    """MOVE <aircraft> [CLIMB|DIVE] <path> [FORCED CLIMB|DIVE] [R 4-4.2]."""
    c.need("move", verb="MOVE")
    if len(args) < 2:
        raise OrderSyntaxError("write MOVE <aircraft> [CLIMB|DIVE] <path>, e.g. MOVE He111-3 FFRFF", rule="R 4")
    a = c.aircraft(args[0], "R 4")
    if a["id"] not in c.start:
        raise IllegalOrderError(f"{a['id']} is not on the board ({a['status']})", rule="R 4")
    change, path, forced = move_words([x.upper() for x in args[1:]])
    path, change, at = change_in_path(c, a, path, change)
    move_legal(c, a, path, change)
    c.once("MOVE", a["id"])
    fly(c, a, path, change, at)
    return (Move(a["id"], path, change, at, forced),)


def move_words(rest: list[str]) -> tuple[str, str, str]:
    """(altitude change, path, forced-stacking preference) from the words after the aircraft."""
    change, forced = "none", ""
    if rest and rest[0] in ("CLIMB", "DIVE", "DESCEND"):
        change = "climb" if rest[0] == "CLIMB" else "dive"
        rest = rest[1:]
    if len(rest) >= 3 and rest[-2] == "FORCED" and rest[-1] in ("CLIMB", "DIVE"):
        forced = rest[-1].lower()
        rest = rest[:-2]
    if len(rest) != 1:
        raise OrderSyntaxError("write MOVE <aircraft> [CLIMB|DIVE] <path> [FORCED CLIMB|DIVE]; the path is one word "
                               "like FFRFF", rule="R 4")
    return change, rest[0], forced


def change_in_path(c: Checker, a: Mapping[str, Any], path: str, change: str) -> tuple[str, str, int]:
    """A C or D inside the path (option alt_change=any_hex): the change and the hexes flown before it [G-22]."""
    if not any(ch in path for ch in "CD"):
        return path, change, 0
    if c.opts["alt_change"] != "any_hex":
        raise IllegalOrderError(f"{a['id']}: an altitude change takes effect from the first hex; write "
                                "MOVE <aircraft> CLIMB|DIVE <path> (option alt_change)", rule="G-22")
    if change != "none" or sum(path.count(ch) for ch in "CD") > 1:
        raise IllegalOrderError(f"{a['id']}: one altitude change per movement phase", rule="R 4.2.3, G-22")
    return movement.split_change(path)


def move_legal(c: Checker, a: Mapping[str, Any], path: str, change: str) -> None:
    """The altitude change and the path's shape against the counter [R 4.0-4.2.4]."""
    st = stats_of(a)
    h, f, alt = c.start[a["id"]]
    why = movement.altitude_problem(st, alt, change)
    if why:
        raise IllegalOrderError(f"{a['id']}: {why}", rule="R 4.2.3-4.2.4")
    why = movement.shape_problem(path, st, change, h, f)
    if why:
        lim = movement.limit(st, change)
        raise IllegalOrderError(f"{a['id']}: {why} (speed {st.min_speed}-{lim}, manoeuvrability "
                                f"{st.manoeuvrability}, e.g. {'F' * st.min_speed})", rule="R 4.0-4.2")


def fly(c: Checker, a: Mapping[str, Any], path: str, change: str, at: int) -> None:
    """Fly the move among the aircraft as earlier lines left them; an occupied hex is refused while another
    path exists, and forced stacking applies only when every path is blocked [R 4.1.1, 4.2.6]."""
    h, f, alt = c.start[a["id"]]
    w = movement.walk(h, f, path)
    alt2 = movement.new_alt(alt, change)
    end_only = c.opts["occupancy"] == "end_hex"
    c.occ.discard((h, alt))
    occupied = lambda x, y: (x, y) in c.occ  # noqa: E731
    block = movement.first_block(w, alt2, occupied, end_only, alt, at)
    if block is not None:
        alts = movement.options(stats_of(a), h, f, alt, occupied, end_only)
        if alts:
            c.occ.add((h, alt))
            ex = ", ".join(sorted({(p if ch == "none" else f"{ch.upper()} {p}") for ch, p, _ in alts})[:6])
            raise IllegalOrderError(f"{a['id']}: {board.fmt(block)} already holds an aircraft at {alt2.lower()}; "
                                    f"legal paths include {ex}", rule="R 4.1.1")
        c.notes.append(f"{a['id']}: every path is blocked, the forced-stacking rule applies [R 4.2.6]")
    if w.exited:
        c.notes.append(f"{a['id']} leaves the board by the {board.edge_of(w.off_hex)} edge")  # type: ignore[arg-type]
    else:
        c.occ.add((w.end, alt2))  # type: ignore[arg-type]
    c.paths[a["id"]] = [x for x, _ in w.cells]
    c.exits[a["id"]] = board.edge_of(w.off_hex) if w.exited else ""  # type: ignore[arg-type]


def read_withdraw(c: Checker, args: list[str]) -> Orders:
    """WITHDRAW a German aircraft that leaves (or has left) by the south edge [R 8.1]."""
    c.need("move", verb="WITHDRAW")
    if len(args) != 1:
        raise OrderSyntaxError("write WITHDRAW <aircraft>", rule="R 8.1")
    a = c.aircraft(args[0], "R 8.1")
    if c.side != "de":
        raise IllegalOrderError("only German aircraft may withdraw for good", rule="R 8.1")
    ok = (a["status"] == "off" and a.get("exit_edge") == "south") or c.exits.get(a["id"]) == "south"
    if not ok:
        raise IllegalOrderError(f"{a['id']} must leave by the south edge first (give its MOVE before WITHDRAW)",
                                rule="R 8.1")
    c.once("WITHDRAW", a["id"])
    return (Withdraw(a["id"]),)


# ---------------------------------------------------------------------------------------- combat
def read_fire(c: Checker, args: list[str]) -> Orders:
    """FIRE <aircraft> [AT <target>] [R 5.2, 5.3.1, 5.3.4]."""
    c.need("move", verb="FIRE")
    if len(args) not in (1, 3) or (len(args) == 3 and args[1].upper() not in ("AT", "EXPECT")):
        raise OrderSyntaxError("write FIRE <aircraft> [AT <target>]", rule="R 5.2")
    a = c.aircraft(args[0], "R 5.2")
    if a["status"] not in ("board",) and not a.get("entry"):
        raise IllegalOrderError(f"{a['id']} is not on the board", rule="R 5.2")
    if a["jammed"]:
        raise IllegalOrderError(f"{a['id']} has jammed guns and cannot fire; try UNJAM {a['id']}", rule="R 5.3.4")
    if a["fired"] and c.opts["one_shot"] == "shot":
        raise IllegalOrderError(f"{a['id']} has already fired this stage", rule="R 5.3.1")
    at = visible_enemy(c, args[2]) if len(args) == 3 else ""
    c.once("FIRE", a["id"])
    return (Fire(a["id"], at),)


def visible_enemy(c: Checker, word: str) -> str:
    t = c.planes.get(word.lower())
    if t is None or t["side"] == c.side:
        seen = ", ".join(sorted(p["id"] for p in c.planes.values() if p["side"] != c.side))
        raise IllegalOrderError(f"{word} is not an enemy aircraft you can see (you see: {seen or 'none'})",
                                rule="R 5.2")
    return t["id"]


def read_bomb(c: Checker, args: list[str]) -> Orders:
    """BOMB <aircraft> <hex> ...: one series per hex flown over this stage [R 7.0.2-7.0.5, G-34]."""
    c.need("move", verb="BOMB")
    if c.side != "de":
        raise IllegalOrderError("only German aircraft carry bombs", rule="R 7")
    if len(args) < 2:
        raise OrderSyntaxError("write BOMB <aircraft> <hex> [<hex> ...], e.g. BOMB He111-1 A06,B19", rule="R 7")
    a = c.aircraft(args[0], "R 7")
    hexes: list[Hex] = [board.parse_hex(m) for m in _HEXES.findall(" ".join(args[1:]))]  # type: ignore[misc]
    if not hexes:
        raise OrderSyntaxError("BOMB needs hexes like A06,B19", rule="R 7")
    if a["bombs"] < len(hexes):
        raise IllegalOrderError(f"{a['id']} has {a['bombs']} bomb series left, not {len(hexes)}", rule="R 7.0.5")
    if len(set(hexes)) != len(hexes):
        raise IllegalOrderError("one series per hex per aircraft per stage", rule="R 7.0.4")
    if c.opts["jammed_bombing"] == "no" and a["jammed"]:
        raise IllegalOrderError(f"{a['id']} has jammed guns and may not bomb (option jammed_bombing)", rule="G-34")
    path = flown_over(c, a)
    for h in hexes:
        if h not in path:
            raise IllegalOrderError(f"{a['id']} does not fly over {board.fmt(h)} this stage (its path: "
                                    f"{' '.join(board.fmt(x) for x in path) or 'none'}); give its MOVE first",
                                    rule="R 7.0.2")
    c.once("BOMB", a["id"])
    return (Bomb(a["id"], tuple(board.fmt(h) for h in hexes)),)


def flown_over(c: Checker, a: Mapping[str, Any]) -> list[Hex]:
    """The hexes the aircraft's MOVE of this file enters; without one, its default straight move."""
    path = c.paths.get(a["id"])
    if path is not None:
        return path
    if a["id"] in c.start and a["status"] == "board":
        h, f, _ = c.start[a["id"]]
        return [x for x, _ in movement.walk(h, f, "F" * stats_of(a).min_speed).cells]
    return []


def read_unjam(c: Checker, args: list[str]) -> Orders:
    c.need("move", verb="UNJAM")
    if len(args) != 1:
        raise OrderSyntaxError("write UNJAM <aircraft>", rule="R 5.3.4")
    a = c.aircraft(args[0], "R 5.3.4")
    if not a["jammed"] or a.get("unjam_pending"):
        raise IllegalOrderError(f"{a['id']} has no jammed guns to clear", rule="R 5.3.4")
    c.once("UNJAM", a["id"])
    return (Unjam(a["id"]),)


def read_aafire(c: Checker, args: list[str]) -> Orders:
    """AAFIRE <gun> <target>: a German aircraft over or next to the gun [R 6.1, G-15]."""
    c.need("move", verb="AAFIRE")
    if c.side != "gb":
        raise IllegalOrderError("only the British have AA guns", rule="R 6")
    if c.opts["aa_timing"] != "combat":
        raise IllegalOrderError("AA guns fire during German movement by standing AA orders (option aa_timing)",
                                rule="G-15")
    if len(args) != 2:
        raise OrderSyntaxError("write AAFIRE <gun> <target>", rule="R 6.1")
    g = c.gun(args[0])
    if g["destroyed"] or g["fired"]:
        raise IllegalOrderError(f"{g['id']} cannot fire ({'destroyed' if g['destroyed'] else 'already fired'})",
                                rule="R 6.2.1")
    t = c.planes.get(args[1].lower())
    if t is None or t["side"] != "de":
        raise IllegalOrderError(f"{args[1]} is not a German aircraft you can see", rule="R 6.1")
    if board.distance(board.parse_hex(g["hex"]), board.parse_hex(t["hex"])) > 1:  # type: ignore[arg-type]
        raise IllegalOrderError(f"{t['id']} is not over or next to {g['id']} ({g['hex']})", rule="R 6.1")
    c.once("AAFIRE", g["id"])
    return (AaFire(g["id"], t["id"]),)


#: The verb table; DROP is the digest's word for BOMB under option bomb_timing=movement.
VERBS: dict[str, Callable[[Checker, list[str]], Orders]] = {
    "PASS": read_pass, "PLACE": read_place, "AA": read_aa, "REACT": read_react, "RETURNFIRE": read_returnfire,
    "ENTER": read_enter, "MOVE": read_move, "WITHDRAW": read_withdraw, "FIRE": read_fire, "BOMB": read_bomb,
    "DROP": read_bomb, "UNJAM": read_unjam, "AAFIRE": read_aafire,
}


def check(view: Mapping[str, Any], seat: str, lines: Sequence[OrderLine]) -> Checked:
    c = Checker(view, seat)
    problems: list[OrderProblem] = []
    for ln in lines:
        try:
            c.line(ln)
        except OrderError as exc:
            problems.append(exc.problem(ln.line_no, ln.text))
    return Checked(tuple(c.orders), tuple(problems), tuple(c.notes))
