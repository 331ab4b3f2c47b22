"""Reading and checking one seat's order lines against its view only [digest 11 order vocabulary].

Two passes, through the kit's verb table (``pbem.core.verbs``):

1. each line alone: one parser per verb turns the words into a typed order of ``orders`` or raises one
   of the core order errors with its rule, using only the view;
2. the file as a whole (:class:`FileReplay`): the orders in the order written, as resolution will take
   them -- where each aircraft starts and ends (a formation's leaders must move first [R 4.1.1]), the
   hexes it flies over (for BOMB), which unit already has which order.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core.errors import AmbiguousOrderError, IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked
from pbem.core.texts import t_
from pbem.core.verbs import Order as AnyOrder, Verb, VerbTable

from . import board, combat, movement, planning, tables
from .board import Hex
from .orders import (AaFire, AllUnits, Bomb, Enter, Fire, Move, Order, Pass, Place, PlaceGun, Policy, ReactAnswer,
                     Unjam, Withdraw, flatten)
from .own_aircraft import stats_of
from .setup import gun_site_problem, inward
from .state import ALTS
from .words import NONE, alt_word, edge_word

View = Mapping[str, Any]
Row = dict[str, Any]
_HEXES = re.compile(r"A\s*\d{1,2}\s*,?\s*B\s*\d{1,2}", re.IGNORECASE)
Where = tuple[Hex, str, str]  # hex, facing, altitude
AN_ALLY = t_("an ally")
REACT_POLICIES = ("ALWAYS", "NEVER", "ASK")
PHASE_WORDS = {"setup": t_("the setup"), "move": t_("your movement phase"), "react": t_("a reactive-fire window"),
               "none": t_("a phase where you give no orders")}


def _taken(spots: set[tuple[Hex, str]]) -> movement.Occupied:
    return lambda h, alt: (h, alt) in spots


# ------------------------------------------------------------------------- what the view offers
def kind_of(view: View) -> str:
    """What the seat may order now: setup, move, react or none."""
    return view["phase"]["kind"] if view["phase"]["mine"] else "none"


def allowed(view: View) -> list[str]:
    gb = view["side"] == "gb"
    base = ["REACT (standing)", "RETURNFIRE", "PASS"] + (["AA (standing)"] if gb else [])
    return {"setup": ["PLACE", "AA <gun> <hex>"] + base,
            "move": ["MOVE", "ENTER", "FIRE", "BOMB", "UNJAM", "WITHDRAW"] + (["AAFIRE"] if gb else []) + base,
            "react": ["REACT <ac> FIRE|HOLD"] + base, "none": base}[kind_of(view)]


def need(view: View, *kinds: str, verb: str) -> None:
    """A verb of another phase is refused with what is allowed now [R 3.0]."""
    kind = kind_of(view)
    if kind not in kinds:
        raise IllegalOrderError(t_("%(verb)s is not allowed in %(phase)s; allowed now: %(list)s", verb=verb,
                                   phase=PHASE_WORDS[kind], list=', '.join(allowed(view))), rule="R 3.0")


def aircraft(view: View, word: str, rule: str = "") -> Row:
    """The seat's aircraft named (or uniquely abbreviated) by ``word``."""
    own = {a["id"].lower(): a for a in view["own"]}
    a = own.get(word.lower())
    if a is not None:
        return a
    matches = [x for k, x in own.items() if k.startswith(word.lower())]
    if len(matches) == 1:
        return matches[0]
    mine = ", ".join(sorted(x["id"] for x in own.values())) or NONE
    if len(matches) > 1:
        raise AmbiguousOrderError(t_("%(word)s could be %(list)s", word=word,
                                     list=', '.join(sorted(m['id'] for m in matches))), rule=rule)
    if any(p["id"].lower() == word.lower() for p in view["planes"]):
        raise IllegalOrderError(t_("%(word)s is not one of your aircraft (yours: %(mine)s)", word=word, mine=mine), rule="R 1")
    raise IllegalOrderError(t_("no aircraft of yours is called %(word)s (yours: %(mine)s)", word=word, mine=mine), rule=rule)


def gun(view: View, word: str) -> Row:
    guns = {g["id"].lower(): g for g in view.get("own_guns", [])}
    g = guns.get(word.lower())
    if g is None:
        mine = ", ".join(sorted(x["id"] for x in guns.values())) or NONE
        raise IllegalOrderError(t_("no AA gun of yours is called %(word)s (yours: %(mine)s)", word=word, mine=mine), rule="R 6")
    return g


def plane(view: View, word: str) -> Row | None:
    return next((p for p in view["planes"] if p["id"].lower() == word.lower()), None)


# ------------------------------------------------------------------------------- setup and PASS
def read_pass(args: tuple[str, ...], view: View, seat: str) -> Pass:
    if args:
        raise OrderSyntaxError(t_("PASS takes no arguments"), rule="R 3.0")
    return Pass()


def read_place(args: tuple[str, ...], view: View, seat: str) -> Place:
    """PLACE <aircraft> <hex> <facing>: within the group's start area [R 9.3]."""
    need(view, "setup", verb="PLACE")
    if len(args) < 3:
        raise OrderSyntaxError(t_("write PLACE <aircraft> <hex> <facing>, e.g. PLACE Spit-1 A10,B08 SE"), rule="R 9.3")
    a = aircraft(view, args[0], "R 9.3")
    rest = " ".join(args[1:])
    m = _HEXES.search(rest)
    if not m:
        raise OrderSyntaxError(t_("PLACE needs a hex like A10,B08"), rule="R 2.0")
    h: Hex = board.parse_hex(m.group(0))  # type: ignore[assignment]
    words = [x for x in rest[m.end():].split() if x.upper() != "FACING"]
    if len(words) != 1 or words[0].upper() not in board.FACINGS:
        raise OrderSyntaxError(t_("PLACE needs a facing, one of %(list)s", list=' '.join(board.FACINGS)), rule="R 4.0")
    area = [board.parse_hex(x) for x in a.get("start_area", [])]
    if h not in area:
        raise IllegalOrderError(t_("%(id)s must start within its start area (%(n)s hexes around %(x)s, radius "
                                   "%(x2)s)", id=a['id'], n=len(area), x=a.get('start_centre', '?'),
                                   x2=a.get('start_radius', '?')), rule="R 9.3")
    return Place(a["id"], h, words[0].upper())


def read_aa(args: tuple[str, ...], view: View, seat: str) -> PlaceGun | Policy | AllUnits:
    """AA <gun> <hex> in the setup; otherwise AA <gun|ALL> AUTO|BOMBERS|HOLD, a standing order."""
    if len(args) < 2:
        raise OrderSyntaxError(t_("write AA <gun|ALL> AUTO|BOMBERS|HOLD, or in the setup AA <gun> <hex>"), rule="R 6")
    rest = " ".join(args[1:])
    if _HEXES.fullmatch(rest.strip()):
        return place_gun(view, args[0], rest)
    val = args[1].upper()
    if val not in ("AUTO", "BOMBERS", "HOLD") or len(args) != 2:
        raise OrderSyntaxError(t_("an AA standing order is AUTO, BOMBERS or HOLD"), rule="R 6.2.4")
    if args[0].upper() == "ALL":
        return AllUnits("aa", val, tuple(sorted(g["id"] for g in view.get("own_guns", []))))
    return Policy(gun(view, args[0])["id"], "aa", val)


def place_gun(view: View, word: str, hex_text: str) -> PlaceGun:
    """A gun on a land hex without river or cloud [R 6.0.1-6.0.2]."""
    need(view, "setup", verb="AA <gun> <hex>")
    g = gun(view, word)
    h: Hex = board.parse_hex(hex_text)  # type: ignore[assignment]
    why = gun_site_problem(h)
    if why:
        raise IllegalOrderError(t_("%(id)s cannot stand on %(hex)s: %(why)s", id=g['id'], hex=board.fmt(h), why=why), rule="R 6.0.1-6.0.2")
    return PlaceGun(g["id"], h)


# ------------------------------------------------------------------------------- standing orders
def read_react(args: tuple[str, ...], view: View, seat: str) -> ReactAnswer | Policy | AllUnits:
    """REACT <ac> FIRE|HOLD answers an interrupt window; anything else is a standing order [R 5.4, G-31]."""
    if len(args) < 2:
        raise OrderSyntaxError(t_("write REACT <aircraft|ALL> ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k (or "
                                  "FIRE|HOLD when asked)"), rule="R 5.4")
    val = " ".join(args[1:]).upper().replace(" ", "")
    if val in ("FIRE", "HOLD"):
        return react_answer(view, args[0], val)
    return for_units(view, args[0], "react", react_policy(val))


def react_policy(val: str) -> str:
    if val in REACT_POLICIES:
        return val
    if val == "IFBOMBER":
        return "BOMBER"
    m = re.fullmatch(r"IFSTRENGTH>=?([0-5])", val)
    if m:
        return f"STRENGTH:{m.group(1)}"
    raise OrderSyntaxError(t_("a REACT standing order is ALWAYS, NEVER, ASK, IF BOMBER or IF STRENGTH>=k (k "
                              "0-5)"), rule="R 5.4")


def react_answer(view: View, word: str, val: str) -> ReactAnswer:
    need(view, "react", verb=f"REACT ... {val}")
    a = aircraft(view, word, "R 5.4")
    asked = {x["ac"] for x in view.get("ask", [])}
    if a["id"] not in asked:
        raise IllegalOrderError(t_("%(id)s is not asked to decide now (asked: %(list)s)", id=a['id'],
                                   list=', '.join(sorted(asked)) or NONE),
                                rule="R 5.4")
    return ReactAnswer(a["id"], val)


def for_units(view: View, word: str, kind: str, value: str) -> Policy | AllUnits:
    """A standing order for one aircraft, or for ALL the seat's aircraft."""
    if word.upper() == "ALL":
        return AllUnits(kind, value, tuple(sorted(a["id"] for a in view["own"])))
    return Policy(aircraft(view, word, "R 5.4")["id"], kind, value)


def read_returnfire(args: tuple[str, ...], view: View, seat: str) -> Policy | AllUnits:
    if len(args) != 2 or args[1].upper() not in ("YES", "NO"):
        raise OrderSyntaxError(t_("write RETURNFIRE <aircraft|ALL> YES|NO"), rule="R 5.4")
    return for_units(view, args[0], "return", args[1].upper())


# -------------------------------------------------------------------------------------- movement
def read_enter(args: tuple[str, ...], view: View, seat: str) -> Enter:
    """ENTER <aircraft> [<hex>] [<facing>] [<altitude>] for an aircraft due this stage [R 4.3.1, 9]."""
    need(view, "move", verb="ENTER")
    if not args:
        raise OrderSyntaxError(t_("write ENTER <aircraft> [<hex>] <facing> [HIGH|LOW|VLOW]"), rule="R 4.3.1")
    a = aircraft(view, args[0], "R 4.3.1")
    e = a.get("entry")
    if not e:
        raise IllegalOrderError(t_("%(id)s is not due to enter the board this stage", id=a['id']), rule="R 4.3.1, 9")
    rest = " ".join(args[1:])
    m = _HEXES.search(rest)
    h: Hex = board.parse_hex(m.group(0) if m else e["hex"])  # type: ignore[assignment]
    facing, alt = entry_words(view, a, (rest[m.end():] if m else rest).split())
    if not facing:  # no facing written: the entry's own one at its own hex, else facing into the board [R 4.3.1]
        facing = e["facing"] if board.fmt(h) == e["hex"] else inward(h)
    if board.fmt(h) not in e["hexes"]:
        raise IllegalOrderError(t_("%(id)s may enter only at %(list)s", id=a["id"], list=", ".join(e["hexes"][:12])
                                   + (" ..." if len(e["hexes"]) > 12 else "")), rule="R 4.3.1, 9")
    return Enter(a["id"], h, facing, alt)


def entry_words(view: View, a: Row, words: list[str]) -> tuple[str, str]:
    """The facing written ("" if none) and the altitude the owner chose ("" if none) [R 4.3.1]."""
    e = a["entry"]
    facing, alt = "", ""
    for w in words:
        if w.upper() in board.FACINGS:
            facing = w.upper()
        elif w.upper() in ALTS:
            if view["options"]["return_altitude"] != "owner" or e.get("reinforcement"):
                raise IllegalOrderError(t_("%(id)s enters at %(alt)s; altitude is not the owner's choice "
                                           "(option return_altitude)", id=a['id'], alt=alt_word(e['alt'])), rule="R 4.3.1")
            alt = w.upper()
        else:
            raise OrderSyntaxError(t_("%(w)s is neither a facing (%(list)s) nor an altitude", w=repr(w),
                                      list=' '.join(board.FACINGS)), rule="R 4.3.1")
    return facing, alt


def read_move(args: tuple[str, ...], view: View, seat: str) -> Move:
    """MOVE <aircraft> [CLIMB|DIVE] <path> [FORCED CLIMB|DIVE] [R 4-4.2]."""
    need(view, "move", verb="MOVE")
    if len(args) < 2:
        raise OrderSyntaxError(t_("write MOVE <aircraft> [CLIMB|DIVE] <path>, e.g. MOVE He111-3 FFRFF"), rule="R 4")
    a = aircraft(view, args[0], "R 4")
    if not (a["status"] == "board" or a.get("entry")):
        raise IllegalOrderError(t_("%(id)s is not on the board (%(status)s)", id=a['id'], status=a['status']), rule="R 4")
    change, path, forced = move_words([x.upper() for x in args[1:]])
    path, change, at = change_in_path(view, a, path, change)
    return Move(a["id"], path, change, at, forced)


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
        raise OrderSyntaxError(t_("write MOVE <aircraft> [CLIMB|DIVE] <path> [FORCED CLIMB|DIVE]; the path is "
                                  "one word like FFRFF"), rule="R 4")
    return change, rest[0], forced


def change_in_path(view: View, a: Row, path: str, change: str) -> tuple[str, str, int]:
    """A C or D inside the path (option alt_change=any_hex): the change and the hexes flown before it [G-22]."""
    if not any(ch in path for ch in "CD"):
        return path, change, 0
    if view["options"]["alt_change"] != "any_hex":
        raise IllegalOrderError(t_("%(id)s: an altitude change takes effect from the first hex; write MOVE "
                                   "<aircraft> CLIMB|DIVE <path> (option alt_change)", id=a['id']), rule="R 4.2.3")
    if change != "none" or sum(path.count(ch) for ch in "CD") > 1:
        raise IllegalOrderError(t_("%(id)s: one altitude change per movement phase", id=a['id']), rule="R 4.2.3")
    return movement.split_change(path)


def read_withdraw(args: tuple[str, ...], view: View, seat: str) -> Withdraw:
    """WITHDRAW a German aircraft that leaves (or has left) by the south edge [R 8.1]."""
    need(view, "move", verb="WITHDRAW")
    if len(args) != 1:
        raise OrderSyntaxError(t_("write WITHDRAW <aircraft>"), rule="R 8.1")
    a = aircraft(view, args[0], "R 8.1")
    if view["side"] != "de":
        raise IllegalOrderError(t_("only German aircraft may withdraw for good"), rule="R 8.1")
    return Withdraw(a["id"])


# ---------------------------------------------------------------------------------------- combat
def read_fire(args: tuple[str, ...], view: View, seat: str) -> Fire:
    """FIRE <aircraft> [AT <target>] [R 5.2, 5.3.1, 5.3.4]."""
    need(view, "move", verb="FIRE")
    if len(args) not in (1, 3) or (len(args) == 3 and args[1].upper() not in ("AT", "EXPECT")):
        raise OrderSyntaxError(t_("write FIRE <aircraft> [AT <target>]"), rule="R 5.2")
    a = aircraft(view, args[0], "R 5.2")
    if a["status"] not in ("board",) and not a.get("entry"):
        raise IllegalOrderError(t_("%(id)s is not on the board", id=a['id']), rule="R 5.2")
    if a["jammed"]:
        raise IllegalOrderError(t_("%(id)s has jammed guns and cannot fire; try UNJAM %(id)s", id=a['id']), rule="R 5.3.4")
    if a["fired"] and view["options"]["one_shot"] == "shot":
        raise IllegalOrderError(t_("%(id)s has already fired this stage", id=a['id']), rule="R 5.3.1")
    return Fire(a["id"], visible_enemy(view, args[2]) if len(args) == 3 else "")


def visible_enemy(view: View, word: str) -> str:
    t = plane(view, word)
    if t is None or t["side"] == view["side"]:
        seen = ", ".join(sorted(p["id"] for p in view["planes"] if p["side"] != view["side"]))
        raise IllegalOrderError(t_("%(word)s is not an enemy aircraft you can see (you see: %(seen)s)", word=word,
                                   seen=seen or NONE),
                                rule="R 5.2")
    return t["id"]


def read_bomb(args: tuple[str, ...], view: View, seat: str) -> Bomb:
    """BOMB <aircraft> <hex> ...: one series per hex [R 7.0.4-7.0.5, G-34]."""
    need(view, "move", verb="BOMB")
    if view["side"] != "de":
        raise IllegalOrderError(t_("only German aircraft carry bombs"), rule="R 7")
    if len(args) < 2:
        raise OrderSyntaxError(t_("write BOMB <aircraft> <hex> [<hex> ...], e.g. BOMB He111-1 A06,B19"), rule="R 7")
    a = aircraft(view, args[0], "R 7")
    hexes: list[Hex] = [board.parse_hex(m) for m in _HEXES.findall(" ".join(args[1:]))]  # type: ignore[misc]
    if not hexes:
        raise OrderSyntaxError(t_("BOMB needs hexes like A06,B19"), rule="R 7")
    if a["bombs"] < len(hexes):
        raise IllegalOrderError(t_("%(id)s has %(bombs)s bomb series left, not %(n)s", id=a['id'], bombs=a['bombs'],
                                   n=len(hexes)), rule="R 7.0.5")
    if len(set(hexes)) != len(hexes):
        raise IllegalOrderError(t_("one series per hex per aircraft per stage"), rule="R 7.0.4")
    if view["options"]["jammed_bombing"] == "no" and a["jammed"]:
        raise IllegalOrderError(t_("%(id)s has jammed guns and may not bomb (option jammed_bombing)", id=a['id']), rule="R 5.3.4, 7.0")
    return Bomb(a["id"], tuple(board.fmt(h) for h in hexes))


def read_unjam(args: tuple[str, ...], view: View, seat: str) -> Unjam:
    need(view, "move", verb="UNJAM")
    if len(args) != 1:
        raise OrderSyntaxError(t_("write UNJAM <aircraft>"), rule="R 5.3.4")
    a = aircraft(view, args[0], "R 5.3.4")
    if not a["jammed"] or a.get("unjam_pending"):
        raise IllegalOrderError(t_("%(id)s has no jammed guns to clear", id=a['id']), rule="R 5.3.4")
    return Unjam(a["id"])


def read_aafire(args: tuple[str, ...], view: View, seat: str) -> AaFire:
    """AAFIRE <gun> <target>: a German aircraft over or next to the gun [R 6.1, G-15]."""
    need(view, "move", verb="AAFIRE")
    if view["side"] != "gb":
        raise IllegalOrderError(t_("only the British have AA guns"), rule="R 6")
    if view["options"]["aa_timing"] != "combat":
        raise IllegalOrderError(t_("AA guns fire during German movement by standing AA orders (option "
                                   "aa_timing)"),
                                rule="R 3.0, 6.1")
    if len(args) != 2:
        raise OrderSyntaxError(t_("write AAFIRE <gun> <target>"), rule="R 6.1")
    g = gun(view, args[0])
    if g["destroyed"] or g["fired"]:
        raise IllegalOrderError(t_("%(id)s cannot fire (%(x)s)", id=g['id'],
                                   x=t_("destroyed") if g['destroyed'] else t_("already fired")),
                                rule="R 6.2.1")
    t = plane(view, args[1])
    if t is None or t["side"] != "de":
        raise IllegalOrderError(t_("%(x)s is not a German aircraft you can see", x=args[1]), rule="R 6.1")
    if board.distance(board.parse_hex(g["hex"]), board.parse_hex(t["hex"])) > 1:  # type: ignore[arg-type]
        raise IllegalOrderError(t_("%(id)s is not over or next to %(id2)s (%(hex)s)", id=t['id'], id2=g['id'],
                                   hex=g['hex']), rule="R 6.1")
    return AaFire(g["id"], t["id"])


#: The verb table; DROP is the digest's word for BOMB under option bomb_timing=movement.
VERBS = VerbTable([
    Verb("MOVE", read_move, "MOVE <aircraft> [CLIMB|DIVE] <path>", "R 4"),
    Verb("ENTER", read_enter, "ENTER <aircraft> [<hex>] <facing>", "R 4.3.1"),
    Verb("WITHDRAW", read_withdraw, "WITHDRAW <aircraft>", "R 8.1"),
    Verb("FIRE", read_fire, "FIRE <aircraft> [AT <target>]", "R 5.2"),
    Verb("BOMB", read_bomb, "BOMB <aircraft> <hex> ...", "R 7"),
    Verb("DROP", read_bomb, "DROP <aircraft> <hex> ...", "R 7"),
    Verb("UNJAM", read_unjam, "UNJAM <aircraft>", "R 5.3.4"),
    Verb("AAFIRE", read_aafire, "AAFIRE <gun> <target>", "R 6.1"),
    Verb("REACT", read_react, "REACT <aircraft|ALL> ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k|FIRE|HOLD", "R 5.4"),
    Verb("RETURNFIRE", read_returnfire, "RETURNFIRE <aircraft|ALL> YES|NO", "R 5.4"),
    Verb("AA", read_aa, "AA <gun|ALL> AUTO|BOMBERS|HOLD (setup: AA <gun> <hex>)", "R 6"),
    Verb("PLACE", read_place, "PLACE <aircraft> <hex> <facing>", "R 9.3"),
    Verb("PASS", read_pass, "PASS"),
], rule="R 3.0")


# ---------------------------------------------------------------------------- the file as a whole
class FileReplay:
    """The orders of one file in the order written, as resolution will take them."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.own = {a["id"]: a for a in view["own"]}
        self.occ = planning.occupancy(view)  # an earlier seat's allies are not counted where they are now
        self.start = {a["id"]: planning.start_of(a) for a in planning.movers(view)}
        self.paths: dict[str, list[Hex]] = {}
        self.exits: dict[str, str] = {}  # edge each moved aircraft leaves by ("" if it stays)
        self.gun_hexes: set[str] = set()  # hexes given to guns by earlier AA lines
        self.seen: set[tuple[str, str]] = set()
        self.notes: list[str] = []
        self.ends: dict[str, Where | None] = {}  # where each moved aircraft ends (None: it left the board)
        self.combat: list[tuple[OrderLine, Fire | Unjam]] = []  # checked once every move is known
        self.before = planning.earlier_allies(view)  # flown first [G-28]: see warn_before

    def __call__(self, parsed: Sequence[tuple[OrderLine, AnyOrder]], view: View, seat: str) -> list[OrderProblem]:
        problems = []
        for line, order in parsed:
            try:
                self.take(order)  # type: ignore[arg-type]
                if isinstance(order, (Fire, Unjam)):
                    self.combat.append((line, order))
            except OrderError as exc:
                problems.append(exc.problem(line.line_no, line.text))
        for line, act in self.combat:  # every move comes first (phase 1), then the combat phase
            try:
                if isinstance(act, Fire):
                    self.fire(act)
                else:
                    self.unjam(act)
            except OrderError as exc:
                problems.append(exc.problem(line.line_no, line.text))
        return sorted(problems, key=lambda p: p.line_no)

    def once(self, verb: str, unit: str) -> None:
        if (verb, unit) in self.seen:
            raise IllegalOrderError(t_("%(unit)s already has a %(verb)s order in this file", unit=unit, verb=verb), rule="R 3.0")
        self.seen.add((verb, unit))

    def take(self, o: Order) -> None:
        if isinstance(o, Move):
            self.move(o)
        elif isinstance(o, Enter):
            self.enter(o)
        elif isinstance(o, Place):
            self.place(o)
        elif isinstance(o, PlaceGun):
            self.place_gun(o)
        elif isinstance(o, Withdraw):
            self.withdraw(o)
        elif isinstance(o, Bomb):
            self.bomb(o)
        elif isinstance(o, (Fire, Unjam, ReactAnswer)):
            self.once(UNIQUE[type(o)], o.ac)
        elif isinstance(o, AaFire):
            self.once("AAFIRE", o.gun)

    def place(self, o: Place) -> None:
        """All aircraft start high, one per hex [R 4.2.1, 4.1.1]."""
        self.once("PLACE", o.ac)
        old = board.parse_hex(self.own[o.ac]["hex"])
        if (o.hex, "HIGH") in self.occ and o.hex != old:
            raise IllegalOrderError(t_("%(hex)s already holds an aircraft; all aircraft start high, one per hex",
                                       hex=board.fmt(o.hex)), rule="R 4.2.1, 4.1.1")
        self.occ.discard((old, "HIGH"))
        self.occ.add((o.hex, "HIGH"))

    def place_gun(self, o: PlaceGun) -> None:
        """One gun per hex [R 6.0.1]."""
        taken = {x["hex"] for x in self.view.get("own_guns", []) if x["id"] != o.gun} | self.gun_hexes
        if board.fmt(o.hex) in taken:
            raise IllegalOrderError(t_("%(hex)s already holds an AA gun; one gun per hex", hex=board.fmt(o.hex)), rule="R 6.0.1")
        self.once("AA", o.gun)
        self.gun_hexes.add(board.fmt(o.hex))

    def enter(self, o: Enter) -> None:
        alt = o.alt or self.own[o.ac]["entry"]["alt"]
        if (o.hex, alt) in self.occ:
            raise IllegalOrderError(t_("%(hex)s already holds an aircraft at %(alt)s", hex=board.fmt(o.hex),
                                       alt=alt_word(alt)), rule="R 4.1.1")
        self.once("ENTER", o.ac)
        self.start[o.ac] = (o.hex, o.facing, alt)

    def move(self, o: Move) -> None:
        """Legal for the counter from where it starts [R 4.0-4.2.4], then flown among the others."""
        a = self.own[o.ac]
        st = stats_of(a)
        h, f, alt = self.start[o.ac]
        why = movement.altitude_problem(st, alt, o.change)
        if why:
            raise IllegalOrderError(t_("%(ac)s: %(why)s", ac=o.ac, why=why), rule="R 4.2.3-4.2.4")
        why = movement.shape_problem(o.path, st, o.change, h, f)
        if why:
            lim = movement.limit(st, o.change)
            raise IllegalOrderError(t_("%(ac)s: %(why)s (speed %(min_speed)s-%(lim)s, manoeuvrability "
                                       "%(manoeuvrability)s, e.g. %(x)s)", ac=o.ac, why=why, min_speed=st.min_speed,
                                       lim=lim, manoeuvrability=st.manoeuvrability, x='F' * st.min_speed), rule="R 4.0-4.2")
        self.once("MOVE", o.ac)
        self.fly(a, o)

    def fly(self, a: Row, o: Move) -> None:
        """An occupied hex is refused while another path exists; forced stacking applies only when every
        path is blocked [R 4.1.1, 4.2.6]."""
        h, f, alt = self.start[o.ac]
        w = movement.walk(h, f, o.path)
        alt2 = movement.new_alt(alt, o.change)
        end_only = self.view["options"]["occupancy"] == "end_hex"
        self.occ.discard((h, alt))
        occupied = lambda x, y: (x, y) in self.occ  # noqa: E731
        block = movement.first_block(w, alt2, occupied, end_only, alt, o.at)
        if block is not None:
            alts = movement.options(stats_of(a), h, f, alt, occupied, end_only)
            if alts:
                self.occ.add((h, alt))
                ex = ", ".join(sorted({(p if ch == "none" else f"{ch.upper()} {p}") for ch, p, _ in alts})[:6])
                raise IllegalOrderError(t_("%(ac)s: %(hex)s already holds an aircraft at %(alt2)s; legal paths "
                                           "include %(ex)s", ac=o.ac, hex=board.fmt(block), alt2=alt_word(alt2), ex=ex), rule="R 4.1.1")
            self.notes.append(t_("%(ac)s: every path is blocked, the forced-stacking rule applies [R 4.2.6]", ac=o.ac))
        self.warn_before(o, w, alt, alt2, end_only)
        if w.exited:
            self.notes.append(t_("%(ac)s leaves the board by the %(x)s edge", ac=o.ac, x=edge_word(board.edge_of(w.off_hex))))  # type: ignore[arg-type]
        else:
            self.occ.add((w.end, alt2))
        self.paths[o.ac] = [x for x, _ in w.cells]
        self.ends[o.ac] = None if w.exited else (w.end, w.facing, alt2)  # type: ignore[assignment]
        self.exits[o.ac] = board.edge_of(w.off_hex) if w.exited else ""  # type: ignore[arg-type]

    def warn_before(self, o: Move, w: movement.Walk, alt: str, alt2: str, end_only: bool) -> None:
        """An acknowledgement warning: an earlier seat's aircraft (flown first, its move unknown here) may
        stand in this path -- where it is now if its player wrote no MOVE for it, or where one of its legal
        moves ends; the path then gives way to the nearest free one [R 4.1.1, G-28]."""
        names = []
        for x in self.before:
            xh = board.parse_hex(x["hex"])
            st = tables.stats(x["type"], x["damaged"], x["commander"], x.get("bombs", 0))
            spots = {(xh, x["alt"])} | {(mw.end, movement.new_alt(x["alt"], ch)) for ch, _, mw in
                                        movement.options(st, xh, x["facing"], x["alt"], lambda h, a: False, end_only)
                                        if not mw.exited}
            if movement.first_block(w, alt2, _taken(spots), end_only, alt, o.at) is not None:
                names.append(f"{x['id']} ({x['seat']})")
        if names:
            self.notes.append(t_("MOVE %(ac)s: %(list)s of an earlier seat moves before it in this phase, not "
                                 "known here, and may end in a hex of this path; %(ac)s then flies the nearest "
                                 "free path instead and you are told [R 4.1.1]", ac=o.ac, list=', '.join(names)))

    def withdraw(self, o: Withdraw) -> None:
        a = self.own[o.ac]
        if not ((a["status"] == "off" and a.get("exit_edge") == "south") or self.exits.get(o.ac) == "south"):
            raise IllegalOrderError(t_("%(ac)s must leave by the south edge first (give its MOVE before "
                                       "WITHDRAW)", ac=o.ac),
                                    rule="R 8.1")
        self.once("WITHDRAW", o.ac)

    def bomb(self, o: Bomb) -> None:
        """Only hexes flown over this stage, by an aircraft still on the board when bombs fall [R 7.0.2-7.0.3]."""
        path = self.flown_over(self.own[o.ac])
        if self.view["options"]["bomb_timing"] == "combat" and path and self.end_of(self.own[o.ac]) is None:
            raise IllegalOrderError(t_("%(ac)s leaves the board in its move, and bombs fall in the combat "
                                       "phase that follows it, so it cannot bomb this stage", ac=o.ac), rule="R 7.0.3, 4.3")
        for name in o.hexes:
            if board.parse_hex(name) not in path:
                raise IllegalOrderError(t_("%(ac)s does not fly over %(name)s this stage (its path: %(list)s); "
                                           "give its MOVE first", ac=o.ac, name=name,
                                           list=' '.join(board.fmt(x) for x in path) or NONE),
                                        rule="R 7.0.2")
        self.once("BOMB", o.ac)

    def fire(self, o: Fire) -> None:
        """FIRE as the combat phase will see it, after every move of the file [R 5.1-5.3.2]: ``AT`` names
        the nearest aircraft on the line of fire or is refused; a plain FIRE with nothing there is noted."""
        where = self.end_of(self.own[o.ac])
        if where is None:
            raise IllegalOrderError(t_("%(ac)s leaves the board in its move and cannot fire this stage", ac=o.ac), rule="R 4.3, 5.1")
        me = self.plane_at(self.own[o.ac], where)
        # an ally's aircraft moves in this same phase from another seat's file, unknown here: the line is
        # read without them, and the acknowledgement says when one of them may yet block it
        allies = {p["id"] for p in self.view.get("friends", [])}
        hit = combat.nearest_on_line(me, [p for p in self.planes_at_combat() if p.id not in allies],
                                     self.view["options"])
        target = hit if hit and hit[0].side != me.side and hit[0].alt == me.alt and self.sees(hit[0]) else None
        if target and (not o.at or target[0].id == o.at):
            self.warn_hopeless(me, *target)
            self.warn_allies(o, me, *target)
            return
        h, f, alt = where
        there = (t_("the nearest aircraft there is %(id)s at distance %(dist)s, %(alt)s", id=hit[0].id, dist=hit[1],
                    alt=alt_word(hit[0].alt))
                 if hit and self.sees(hit[0]) else t_("no aircraft it can see is there"))
        named = next((p for p in self.planes_at_combat() if p.id == o.at), None)
        if named and named.alt != me.alt and named.hex in board.ray(h, f, combat.fire_length(me, self.view["options"])):
            there = t_("%(there)s; %(at)s is %(alt)s, not %(own)s", there=there, at=o.at, alt=alt_word(named.alt),
                       own=alt_word(alt))
        why = t_("%(ac)s ends its move at %(hex)s facing %(facing)s, %(alt)s; its line of fire runs %(n)s hexes ahead "
                 "and %(there)s", ac=o.ac, hex=board.fmt(h), facing=f, alt=alt_word(alt),
                 n=combat.fire_length(me, self.view["options"]), there=there)
        if not o.at:
            self.notes.append(t_("%(why)s: it will hold fire [R 5.1-5.3.2]", why=why))
            return
        raise IllegalOrderError(t_("%(why)s, so it cannot fire at %(at)s: only the nearest aircraft on the line of "
                                   "fire, at the same altitude, may be fired at (write FIRE %(ac)s AT %(target)s or "
                                   "move it first)", why=why, at=o.at, ac=o.ac, target=target[0].id) if target else
                                t_("%(why)s, so it cannot fire at %(at)s: only the nearest aircraft on the line of "
                                   "fire, at the same altitude, may be fired at (change its MOVE)", why=why, at=o.at),
                                rule="R 5.1, 5.2, 5.3.2")

    def warn_allies(self, o: Fire, me: combat.Plane, target: combat.Plane, dist: int) -> None:
        """Acknowledgement warnings for what an ally's move, not known at this check, may change [R 5.2, 5.3.2]:
        an ally's aircraft that one of its legal moves brings onto the line of fire before the target, and
        (fog) a target seen now only from an ally's aircraft.  Either way the shooter then holds fire."""
        line = board.ray(me.hex, me.facing, dist)
        any_blocks = self.view["options"].get("blocking") == "any"
        end_only = self.view["options"]["occupancy"] == "end_hex"
        taken = {(p.hex, p.alt) for p in self.planes_at_combat() if p.id not in {f["id"] for f in self.view["friends"]}}
        may_block = []
        for f in self.view.get("friends", []):
            st = tables.stats(f["type"], f["damaged"], f["commander"], f.get("bombs", 0))
            moves = movement.options(st, board.parse_hex(f["hex"]), f["facing"], f["alt"],  # type: ignore[arg-type]
                                     lambda h, a: (h, a) in taken, end_only)
            if any(not w.exited and w.end in line and (any_blocks or movement.new_alt(f["alt"], ch) == me.alt)
                   for ch, _, w in moves):
                may_block.append(f"{f['id']} ({f.get('seat', AN_ALLY)})")
        shot = f"{o.ac} at {target.id}"
        if may_block:
            self.notes.append(t_("%(shot)s: checked without your allies' moves of this phase, not known yet; "
                                 "%(list)s can end its move on the line of fire before %(id)s, and if one "
                                 "does, %(ac)s holds fire and you are told [R 5.3.2]", shot=shot,
                                 list=', '.join(may_block), id=target.id, ac=o.ac))
        if self.view["side"] == "de" and self.view["options"]["visibility"] == "fog":
            eyes = [w[0] for w in (self.end_of(a) for a in self.own.values()) if w is not None]
            if not combat.seen(target.hex, target.alt, eyes, int(self.view["options"]["visual_range"])):
                self.notes.append(t_("%(shot)s: %(id)s is seen now only from your allies' aircraft; if none of "
                                     "your side's pilots sees it after the moves, %(ac)s holds fire and you "
                                     "are told [R 5.2]", shot=shot, id=target.id, ac=o.ac))

    def unjam(self, o: Unjam) -> None:
        """The unjam try is made in the combat phase, on the board [R 5.3.4, 4.3]."""
        if self.end_of(self.own[o.ac]) is None:
            raise IllegalOrderError(t_("%(ac)s leaves the board in its move; it can try to clear its guns only "
                                       "on the board, in the combat phase", ac=o.ac), rule="R 4.3, 5.3.4")

    def warn_hopeless(self, me: combat.Plane, target: combat.Plane, dist: int) -> None:
        """A shot Table 2 gives no hit is legal but only spends the one shot of the stage [R 5.3.1, 5.3.6]."""
        st, why = combat.strength(me, target, self.view["sun"], self.view["options"])
        if tables.hit_range(st, dist) is None:
            self.notes.append(t_("%(id)s at %(id2)s: strength %(st)s%(x)s at distance %(dist)s cannot hit "
                                 "(Table 2); the shot only spends its one shot of the stage [R 5.2, 5.3.1]", id=me.id,
                                 id2=target.id, st=st, x=' (' + '; '.join(why) + ')' if why else '', dist=dist))

    def end_of(self, a: Row) -> Where | None:
        """Where an own aircraft will be in the combat phase: its MOVE's end, or its default move's."""
        if a["id"] in self.ends:
            return self.ends[a["id"]]
        if a["id"] not in self.start:
            return None
        h, f, alt = self.start[a["id"]]
        w = movement.walk(h, f, "F" * stats_of(a).min_speed)
        return None if w.exited else (w.end, w.facing, alt)  # type: ignore[return-value]

    def planes_at_combat(self) -> list[combat.Plane]:
        """The seat's own aircraft where their moves end, and every other aircraft of the view where it is."""
        out = [combat.Plane(p["id"], p["side"], p["type"], board.parse_hex(p["hex"]), p["alt"], p["facing"])
               for p in self.view["planes"] if p["id"] not in self.own]  # type: ignore[arg-type]
        for a in self.own.values():
            where = self.end_of(a)
            if where is not None:
                out.append(self.plane_at(a, where))
        return out

    def plane_at(self, a: Row, where: Where) -> combat.Plane:
        h, f, alt = where
        return combat.Plane(a["id"], self.view["side"], a["type"], h, alt, f, a.get("damaged", False),
                            a.get("commander", False), a.get("bombs", 0))

    def sees(self, p: combat.Plane) -> bool:
        """Fog: German pilots aim only at what they see from where the moves end [R 5.2; option visibility]."""
        if p.side == self.view["side"] or self.view["side"] == "gb" or self.view["options"]["visibility"] != "fog":
            return True
        eyes = [w[0] for w in (self.end_of(a) for a in self.own.values()) if w is not None]
        eyes += [board.parse_hex(x["hex"]) for x in self.view.get("friends", [])]
        return combat.seen(p.hex, p.alt, eyes, int(self.view["options"]["visual_range"]))

    def flown_over(self, a: Row) -> list[Hex]:
        """The hexes the aircraft's MOVE of this file enters; without one, its default straight move."""
        path = self.paths.get(a["id"])
        if path is not None:
            return path
        if a["id"] in self.start and a["status"] == "board":
            h, f, _ = self.start[a["id"]]
            return [x for x, _ in movement.walk(h, f, "F" * stats_of(a).min_speed).cells]
        return []


UNIQUE = {Fire: "FIRE", Unjam: "UNJAM", ReactAnswer: "REACT"}


def check_orders(view: View, seat: str, lines: Sequence[OrderLine]) -> Checked:
    """The contract's check: every problem of every line; ALL standing orders become one per unit."""
    replay = FileReplay(view)
    checked = VERBS.check_lines(view, seat, lines, whole=replay)
    return replace(checked, orders=flatten(checked.orders), notes=tuple(replay.notes))
