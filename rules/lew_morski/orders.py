"""Order lines: parsing and checking against the seat's view only [digest 11 order vocabulary].

::

    MOVE He111-3 [CLIMB|DIVE] FFRFF [FORCED CLIMB|DIVE]   path: F forward, one L/R turn [R 4.0]
    ENTER Spit-4 [A01,B09] NE                             reinforcement / return [R 9, 4.3.1]
    WITHDRAW He111-2                                      after leaving by the south edge [R 8.1]
    FIRE Spit-1 [AT He111-3]                              in the order written [R 5.3.8]
    BOMB He111-1 A06,B19 [A05,B19]                        hexes flown over this stage [R 7.0.2]
    UNJAM Me110-1                                         [R 5.3.4]
    AAFIRE AA-3 He111-2                                   [R 6.1]
    REACT Spit-1|ALL ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=3   standing order [R 5.4, G-31]
    REACT Spit-1 FIRE|HOLD                                answer in an interrupt window
    RETURNFIRE Me110-1|ALL YES|NO                         standing order for mutual fire [R 5.4]
    AA AA-3|ALL AUTO|BOMBERS|HOLD                         standing AA order [R 6, G-15]
    PLACE Spit-1 A10,B08 SE / AA AA-1 A05,B10             setup [R 9.3, 6.0]
    PASS
"""
from __future__ import annotations

import re
from typing import Any
from collections.abc import Mapping, Sequence

from pbem.core.errors import AmbiguousOrderError, IllegalOrderError, OrderError, OrderSyntaxError, OrderProblem
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked

from . import board, movement
from .board import Hex
from .setup import gun_site_problem
from .state import ALTS
from .tables import Stats

_HEXES = re.compile(r"A\s*\d{1,2}\s*,?\s*B\s*\d{1,2}", re.IGNORECASE)
REACT_POLICIES = ("ALWAYS", "NEVER", "ASK")


def stats_of(d: Mapping[str, Any]) -> Stats:
    s = d["stats"]
    return Stats(s["max_speed"], s["min_speed"], s["attack"], s["manoeuvrability"])


class Checker:
    """Collects problems while reading one seat's order lines."""

    def __init__(self, view: Mapping[str, Any], seat: str) -> None:
        self.view = view
        self.seat = seat
        self.kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
        self.own = {a["id"].lower(): a for a in view["own"]}
        self.guns = {g["id"].lower(): g for g in view.get("own_guns", [])}
        self.planes = {p["id"].lower(): p for p in view["planes"]}
        self.problems: list[OrderProblem] = []
        self.notes: list[str] = []
        self.out: dict[str, Any] = {"kind": self.kind, "enters": [], "moves": [], "actions": [], "withdraw": [],
                                    "policies": [], "place": [], "aa": [], "react": {}}
        self.occ = {(board.parse_hex(p["hex"]), p["alt"]) for p in view["planes"]}
        self.start: dict[str, tuple[Hex, str, str]] = {}  # where an aircraft starts its move this phase
        self.paths: dict[str, list[Hex]] = {}
        for a in view["own"]:
            if a["status"] == "board":
                self.start[a["id"]] = (board.parse_hex(a["hex"]), a["facing"], a["alt"])  # type: ignore[assignment]
            elif a.get("entry"):
                e = a["entry"]
                self.start[a["id"]] = (board.parse_hex(e["hex"]), e["facing"], e["alt"])  # type: ignore[assignment]
        self.seen: set[tuple[str, str]] = set()

    # -------------------------------------------------------------- lookups
    def aircraft(self, word: str, rule: str = "") -> dict[str, Any]:
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
            now = {"setup": "the setup", "move": "your movement phase", "react": "a reactive-fire window",
                   "none": "a phase where you give no orders"}[self.kind]
            raise IllegalOrderError(f"{verb} is not allowed in {now}; allowed now: {', '.join(self.allowed())}",
                                    rule="R 3.0")

    def allowed(self) -> list[str]:
        base = ["REACT (standing)", "RETURNFIRE", "PASS"] + (["AA (standing)"] if self.view["side"] == "gb" else [])
        return {"setup": ["PLACE", "AA <gun> <hex>"] + base,
                "move": ["MOVE", "ENTER", "FIRE", "BOMB", "UNJAM", "WITHDRAW"]
                + (["AAFIRE"] if self.view["side"] == "gb" else []) + base,
                "react": ["REACT <ac> FIRE|HOLD"] + base, "none": base}[self.kind]

    # ---------------------------------------------------------------- orders
    def line(self, ln: OrderLine) -> None:
        w = ln.words
        verb = ln.verb
        handler = getattr(self, "do_" + verb.lower(), None)
        if handler is None:
            raise OrderSyntaxError(f"unknown order {w[0]!r}; allowed now: {', '.join(self.allowed())}")
        handler([x for x in w[1:]], ln.text)

    def do_pass(self, args: list[str], text: str) -> None:
        if args:
            raise OrderSyntaxError("PASS takes no arguments")

    def do_place(self, args: list[str], text: str) -> None:
        self.need("setup", verb="PLACE")
        if len(args) < 3:
            raise OrderSyntaxError("write PLACE <aircraft> <hex> <facing>, e.g. PLACE Spit-1 A10,B08 SE")
        a = self.aircraft(args[0], "R 9.3")
        rest = " ".join(args[1:])
        m = _HEXES.search(rest)
        if not m:
            raise OrderSyntaxError("PLACE needs a hex like A10,B08", rule="R 2.0")
        h = board.parse_hex(m.group(0))
        words = rest[m.end():].split()
        words = [x for x in words if x.upper() != "FACING"]
        if len(words) != 1 or words[0].upper() not in board.FACINGS:
            raise OrderSyntaxError(f"PLACE needs a facing, one of {' '.join(board.FACINGS)}", rule="R 4.0")
        area = [board.parse_hex(x) for x in a.get("start_area", [])]
        if h not in area:
            raise IllegalOrderError(f"{a['id']} must start within its start area ({len(area)} hexes around "
                                    f"{a.get('start_centre', '?')}, radius {a.get('start_radius', '?')})", rule="R 9.3")
        self.once("PLACE", a["id"])
        old = board.parse_hex(a["hex"])
        if (h, "HIGH") in self.occ and h != old:
            raise IllegalOrderError(f"{board.fmt(h)} already holds an aircraft; all aircraft start high, one per hex",  # type: ignore[arg-type]
                                    rule="R 4.2.1, 4.1.1")
        self.occ.discard((old, "HIGH"))
        self.occ.add((h, "HIGH"))
        self.out["place"].append({"ac": a["id"], "hex": board.fmt(h), "facing": words[0].upper()})  # type: ignore[arg-type]

    def do_aa(self, args: list[str], text: str) -> None:
        if len(args) < 2:
            raise OrderSyntaxError("write AA <gun|ALL> AUTO|BOMBERS|HOLD, or in the setup AA <gun> <hex>")
        rest = " ".join(args[1:])
        m = _HEXES.fullmatch(rest.strip())
        if m:
            self.need("setup", verb="AA <gun> <hex>")
            g = self.gun(args[0])
            h = board.parse_hex(rest)
            why = gun_site_problem(h)  # type: ignore[arg-type]
            if why:
                raise IllegalOrderError(f"{g['id']} cannot stand on {board.fmt(h)}: {why}", rule="R 6.0.1-6.0.2")  # type: ignore[arg-type]
            taken = {x["hex"] for x in self.view.get("own_guns", []) if x["id"] != g["id"]}
            taken |= {p["hex"] for p in self.out["aa"]}
            if board.fmt(h) in taken:  # type: ignore[arg-type]
                raise IllegalOrderError(f"{board.fmt(h)} already holds an AA gun; one gun per hex", rule="R 6.0.1")  # type: ignore[arg-type]
            self.once("AA", g["id"])
            self.out["aa"].append({"gun": g["id"], "hex": board.fmt(h)})  # type: ignore[arg-type]
            return
        val = args[1].upper()
        if val not in ("AUTO", "BOMBERS", "HOLD") or len(args) != 2:
            raise OrderSyntaxError("an AA standing order is AUTO, BOMBERS or HOLD", rule="R 6.2.4")
        units = sorted(self.guns.values(), key=lambda g: g["id"]) if args[0].upper() == "ALL" else [self.gun(args[0])]
        for g in units:
            self.out["policies"].append([g["id"], "aa", val])

    def do_react(self, args: list[str], text: str) -> None:
        if len(args) < 2:
            raise OrderSyntaxError("write REACT <aircraft|ALL> ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k "
                                   "(or FIRE|HOLD when asked)")
        val = " ".join(args[1:]).upper().replace(" ", "")
        if val in ("FIRE", "HOLD"):
            self.need("react", verb=f"REACT ... {val}")
            a = self.aircraft(args[0], "R 5.4")
            asked = {x["ac"] for x in self.view.get("ask", [])}
            if a["id"] not in asked:
                raise IllegalOrderError(f"{a['id']} is not asked to decide now (asked: {', '.join(sorted(asked)) or 'none'})",
                                        rule="R 5.4")
            self.once("REACT", a["id"])
            self.out["react"][a["id"]] = val
            return
        if val in REACT_POLICIES:
            pol = val
        elif val == "IFBOMBER":
            pol = "BOMBER"
        elif (m := re.fullmatch(r"IFSTRENGTH>=?([0-5])", val)):
            pol = f"STRENGTH:{m.group(1)}"
        else:
            raise OrderSyntaxError("a REACT standing order is ALWAYS, NEVER, ASK, IF BOMBER or IF STRENGTH>=k "
                                   "(k 0-5)", rule="R 5.4")
        units = sorted(self.own.values(), key=lambda a: a["id"]) if args[0].upper() == "ALL" else [self.aircraft(args[0], "R 5.4")]
        for a in units:
            self.out["policies"].append([a["id"], "react", pol])

    def do_returnfire(self, args: list[str], text: str) -> None:
        if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
            raise OrderSyntaxError("write RETURNFIRE <aircraft|ALL> YES|NO", rule="R 5.4")
        units = sorted(self.own.values(), key=lambda a: a["id"]) if args[0].upper() == "ALL" else [self.aircraft(args[0], "R 5.4")]
        for a in units:
            self.out["policies"].append([a["id"], "return", args[1].upper()])

    def do_enter(self, args: list[str], text: str) -> None:
        self.need("move", verb="ENTER")
        if not args:
            raise OrderSyntaxError("write ENTER <aircraft> [<hex>] <facing> [HIGH|LOW|VLOW]")
        a = self.aircraft(args[0], "R 4.3.1")
        e = a.get("entry")
        if not e:
            raise IllegalOrderError(f"{a['id']} is not due to enter the board this stage", rule="R 4.3.1, 9")
        rest = " ".join(args[1:])
        m = _HEXES.search(rest)
        h = board.parse_hex(m.group(0)) if m else board.parse_hex(e["hex"])
        words = (rest[m.end():] if m else rest).split()
        facing = e["facing"]
        alt = e["alt"]
        for w in words:
            if w.upper() in board.FACINGS:
                facing = w.upper()
            elif w.upper() in ALTS:
                if self.view["options"]["return_altitude"] != "owner" or e.get("reinforcement"):
                    raise IllegalOrderError(f"{a['id']} enters at {e['alt'].lower()}; altitude is not the owner's "
                                            "choice (option return_altitude)", rule="G-6")
                alt = w.upper()
            else:
                raise OrderSyntaxError(f"{w!r} is neither a facing ({' '.join(board.FACINGS)}) nor an altitude")
        allowed = e["hexes"]
        if board.fmt(h) not in allowed:  # type: ignore[arg-type]
            raise IllegalOrderError(f"{a['id']} may enter only at {', '.join(allowed[:12])}"
                                    + (" ..." if len(allowed) > 12 else ""), rule="R 4.3.1, 9")
        if (h, alt) in self.occ:
            raise IllegalOrderError(f"{board.fmt(h)} already holds an aircraft at {alt.lower()}", rule="R 4.1.1")  # type: ignore[arg-type]
        self.once("ENTER", a["id"])
        self.start[a["id"]] = (h, facing, alt)  # type: ignore[assignment]
        self.out["enters"].append({"ac": a["id"], "hex": board.fmt(h), "facing": facing, "alt": alt})  # type: ignore[arg-type]

    def do_move(self, args: list[str], text: str) -> None:
        self.need("move", verb="MOVE")
        if len(args) < 2:
            raise OrderSyntaxError("write MOVE <aircraft> [CLIMB|DIVE] <path>, e.g. MOVE He111-3 FFRFF", rule="R 4")
        a = self.aircraft(args[0], "R 4")
        if a["id"] not in self.start:
            raise IllegalOrderError(f"{a['id']} is not on the board ({a['status']})", rule="R 4")
        rest = [x.upper() for x in args[1:]]
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
        path = rest[0]
        at = 0
        if any(ch in path for ch in "CD"):
            if self.view["options"]["alt_change"] != "any_hex":
                raise IllegalOrderError(f"{a['id']}: an altitude change takes effect from the first hex; write "
                                        "MOVE <aircraft> CLIMB|DIVE <path> (option alt_change)", rule="G-22")
            if change != "none" or sum(path.count(ch) for ch in "CD") > 1:
                raise IllegalOrderError(f"{a['id']}: one altitude change per movement phase", rule="R 4.2.3, G-22")
            path, change, at = movement.split_change(path)
        st = stats_of(a)
        h, f, alt = self.start[a["id"]]
        why = movement.altitude_problem(st, alt, change)
        if why:
            raise IllegalOrderError(f"{a['id']}: {why}", rule="R 4.2.3-4.2.4")
        why = movement.shape_problem(path, st, change, h, f)
        if why:
            lim = movement.limit(st, change)
            raise IllegalOrderError(f"{a['id']}: {why} (speed {st.min_speed}-{lim}, manoeuvrability "
                                    f"{st.manoeuvrability}, e.g. {'F' * st.min_speed})", rule="R 4.0-4.2")
        self.once("MOVE", a["id"])
        w = movement.walk(h, f, path)
        alt2 = movement.new_alt(alt, change)
        end_only = self.view["options"]["occupancy"] == "end_hex"
        self.occ.discard((h, alt))
        occupied = lambda x, y: (x, y) in self.occ  # noqa: E731
        block = movement.first_block(w, alt2, occupied, end_only, alt, at)
        if block is not None:
            alts = movement.options(st, h, f, alt, occupied, end_only)
            if alts:
                self.occ.add((h, alt))
                ex = ", ".join(sorted({(p if c == "none" else f"{c.upper()} {p}") for c, p, _ in alts})[:6])
                raise IllegalOrderError(f"{a['id']}: {board.fmt(block)} already holds an aircraft at {alt2.lower()}; "
                                        f"legal paths include {ex}", rule="R 4.1.1")
            self.notes.append(f"{a['id']}: every path is blocked, the forced-stacking rule applies [R 4.2.6]")
        if w.exited:
            self.notes.append(f"{a['id']} leaves the board by the {board.edge_of(w.off_hex)} edge")  # type: ignore[arg-type]
        else:
            self.occ.add((w.end, alt2))  # type: ignore[arg-type]
        self.paths[a["id"]] = [c for c, _ in w.cells]
        self.out["moves"].append({"ac": a["id"], "change": change, "path": path, "forced": forced, "at": at,
                                  "exits": w.exited, "edge": board.edge_of(w.off_hex) if w.exited else ""})  # type: ignore[arg-type]

    def do_withdraw(self, args: list[str], text: str) -> None:
        self.need("move", verb="WITHDRAW")
        if len(args) != 1:
            raise OrderSyntaxError("write WITHDRAW <aircraft>", rule="R 8.1")
        a = self.aircraft(args[0], "R 8.1")
        if self.view["side"] != "de":
            raise IllegalOrderError("only German aircraft may withdraw for good", rule="R 8.1")
        move = next((m for m in self.out["moves"] if m["ac"] == a["id"]), None)
        ok = (a["status"] == "off" and a.get("exit_edge") == "south") or (move is not None and move["edge"] == "south")
        if not ok:
            raise IllegalOrderError(f"{a['id']} must leave by the south edge first (give its MOVE before WITHDRAW)",
                                    rule="R 8.1")
        self.once("WITHDRAW", a["id"])
        self.out["withdraw"].append(a["id"])

    def do_fire(self, args: list[str], text: str) -> None:
        self.need("move", verb="FIRE")
        if len(args) not in (1, 3) or (len(args) == 3 and args[1].upper() not in ("AT", "EXPECT")):
            raise OrderSyntaxError("write FIRE <aircraft> [AT <target>]", rule="R 5.2")
        a = self.aircraft(args[0], "R 5.2")
        if a["status"] not in ("board",) and not a.get("entry"):
            raise IllegalOrderError(f"{a['id']} is not on the board", rule="R 5.2")
        if a["jammed"]:
            raise IllegalOrderError(f"{a['id']} has jammed guns and cannot fire; try UNJAM {a['id']}", rule="R 5.3.4")
        if a["fired"] and self.view["options"]["one_shot"] == "shot":
            raise IllegalOrderError(f"{a['id']} has already fired this stage", rule="R 5.3.1")
        at = ""
        if len(args) == 3:
            t = self.planes.get(args[2].lower())
            if t is None or t["side"] == self.view["side"]:
                seen = ", ".join(sorted(p["id"] for p in self.planes.values() if p["side"] != self.view["side"]))
                raise IllegalOrderError(f"{args[2]} is not an enemy aircraft you can see (you see: {seen or 'none'})",
                                        rule="R 5.2")
            at = t["id"]
        self.once("FIRE", a["id"])
        self.out["actions"].append({"verb": "FIRE", "ac": a["id"], "at": at})

    def do_bomb(self, args: list[str], text: str) -> None:
        self.need("move", verb="BOMB")
        if self.view["side"] != "de":
            raise IllegalOrderError("only German aircraft carry bombs", rule="R 7")
        if len(args) < 2:
            raise OrderSyntaxError("write BOMB <aircraft> <hex> [<hex> ...], e.g. BOMB He111-1 A06,B19", rule="R 7")
        a = self.aircraft(args[0], "R 7")
        hexes = [board.parse_hex(m) for m in _HEXES.findall(" ".join(args[1:]))]
        if not hexes:
            raise OrderSyntaxError("BOMB needs hexes like A06,B19", rule="R 7")
        if a["bombs"] < len(hexes):
            raise IllegalOrderError(f"{a['id']} has {a['bombs']} bomb series left, not {len(hexes)}", rule="R 7.0.5")
        if len(set(hexes)) != len(hexes):
            raise IllegalOrderError("one series per hex per aircraft per stage", rule="R 7.0.4")
        if self.view["options"]["jammed_bombing"] == "no" and a["jammed"]:
            raise IllegalOrderError(f"{a['id']} has jammed guns and may not bomb (option jammed_bombing)", rule="G-34")
        path = self.paths.get(a["id"])
        if path is None:
            if a["id"] in self.start and a["status"] == "board":
                st = stats_of(a)
                h, f, _ = self.start[a["id"]]
                path = [c for c, _ in movement.walk(h, f, "F" * st.min_speed).cells]
            else:
                path = []
        for h in hexes:
            if h not in path:
                raise IllegalOrderError(f"{a['id']} does not fly over {board.fmt(h)} this stage (its path: "  # type: ignore[arg-type]
                                        f"{' '.join(board.fmt(x) for x in path) or 'none'}); give its MOVE first",
                                        rule="R 7.0.2")
        self.once("BOMB", a["id"])
        self.out["actions"].append({"verb": "BOMB", "ac": a["id"], "hexes": [board.fmt(h) for h in hexes]})  # type: ignore[arg-type]

    def do_drop(self, args: list[str], text: str) -> None:
        """DROP is the digest's word for BOMB under option bomb_timing=movement; both work in every game."""
        self.do_bomb(args, text)

    def do_unjam(self, args: list[str], text: str) -> None:
        self.need("move", verb="UNJAM")
        if len(args) != 1:
            raise OrderSyntaxError("write UNJAM <aircraft>", rule="R 5.3.4")
        a = self.aircraft(args[0], "R 5.3.4")
        if not a["jammed"] or a.get("unjam_pending"):
            raise IllegalOrderError(f"{a['id']} has no jammed guns to clear", rule="R 5.3.4")
        self.once("UNJAM", a["id"])
        self.out["actions"].append({"verb": "UNJAM", "ac": a["id"]})

    def do_aafire(self, args: list[str], text: str) -> None:
        self.need("move", verb="AAFIRE")
        if self.view["side"] != "gb":
            raise IllegalOrderError("only the British have AA guns", rule="R 6")
        if self.view["options"]["aa_timing"] != "combat":
            raise IllegalOrderError("AA guns fire during German movement by standing AA orders (option aa_timing)",
                                    rule="G-15")
        if len(args) != 2:
            raise OrderSyntaxError("write AAFIRE <gun> <target>", rule="R 6.1")
        g = self.gun(args[0])
        if g["destroyed"] or g["fired"]:
            raise IllegalOrderError(f"{g['id']} cannot fire ({'destroyed' if g['destroyed'] else 'already fired'})",
                                    rule="R 6.2.1")
        t = self.planes.get(args[1].lower())
        if t is None or t["side"] != "de":
            raise IllegalOrderError(f"{args[1]} is not a German aircraft you can see", rule="R 6.1")
        if board.distance(board.parse_hex(g["hex"]), board.parse_hex(t["hex"])) > 1:  # type: ignore[arg-type]
            raise IllegalOrderError(f"{t['id']} is not over or next to {g['id']} ({g['hex']})", rule="R 6.1")
        self.once("AAFIRE", g["id"])
        self.out["actions"].append({"verb": "AAFIRE", "gun": g["id"], "at": t["id"]})


def check(view: Mapping[str, Any], seat: str, lines: Sequence[OrderLine]) -> Checked:
    c = Checker(view, seat)
    for ln in lines:
        try:
            c.line(ln)
        except OrderError as exc:
            c.problems.append(exc.problem(ln.line_no, ln.text))
    return Checked(c.out, tuple(c.problems), tuple(c.notes))


def merge(orders: Mapping[str, Any]) -> dict[str, Any]:
    """Several seats of one side: their orders in seat order [G-28]."""
    out: dict[str, Any] = {"enters": [], "moves": [], "actions": [], "withdraw": [], "policies": [], "place": [],
                           "aa": [], "react": {}}
    for seat in sorted(orders):
        o = orders[seat] or {}
        for k in ("enters", "moves", "actions", "withdraw", "policies", "place", "aa"):
            out[k].extend(o.get(k, []))
        out["react"].update(o.get("react", {}))
    return out
