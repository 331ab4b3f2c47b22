"""The parsers of the orders, checked at ingest against the view (open information, so the view
holds the whole position), each refusal citing the fragment and saying what would be legal."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.texts import join, t_, tn_
from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.standing import parse_cancel
from pbem.core.hexgrid import NAMES, Hex, direction, distance, neighbours
from pbem.core.verbs import View, arity, one_of

from . import combat
from .board import direction_of, hex_name, parse_hex, view_board
from .los import LOS_RULE, clear, strike_facings
from .model import Unit
from .movement import FACING_RULE, STACK_RULE, path_problem, placement_problem
from .orders import (Air, Answer, Attack, Buy, Face, Place, FireOrder, Hand, Hold, Initiative, Load, Move, Overwatch, Penalty,
                     Policy, Unload)
from .reactions import DF_RULE, OW_RULE
from .tables import AIRCRAFT, ARTILLERY, cards, scenarios

ATTACK_RULE = t_("Attack and defence, L37-L74")
AIR_RULE = t_("Attacks against aircraft, L76-L78")


# ---------------------------------------------------------------------------------- the position
def units_of(view: View) -> tuple[Unit, ...]:
    """The units of the view as values (the view is open: it shows every unit)."""
    return tuple(Unit(u["id"], u["card"], u["side"], _hex(u["hex"]), NAMES.index(u["facing"]), u["disrupted"],
                      u["damaged"], tuple(u["pending"]), None if u["overwatch"] is None
                      else NAMES.index(u["overwatch"])) for u in view["units"])


def _hex(name: str) -> Any:
    h = parse_hex(name)
    assert h is not None, name
    return h


MOVING_RULE = t_("Terrain and movement, L11-L13; Unit facing, L15-L35")
INITIATIVE_RULE = t_("initiative: lost from the fragment (placeholder: 2d6 each, the winner chooses FIRST or SECOND; "
                   "options cadence, movement)")
LISTS_RULE = t_("attack and movement lists by mail (the sequence of play is lost: options cadence, movement)")
ORDERS_RULE = t_("the orders of each window (the sequence of play is lost: options cadence, movement)")
CANCEL_RULE = t_("standing orders by mail (DF, OW, AA: L212-L240, L340-L384; INITIATIVE; OVERSTACK_PENALTY: L5)")
SEATS_RULE = t_("two players a side (option players_per_side; the fragment is for two players)")


def commanded(view: View, uid: str) -> bool:
    """Whether the seat whose view this is commands unit ``uid`` (always, with one seat a side)."""
    command = view.get("command")
    return command is None or command.get(uid, view["seat"]) == view["seat"]


def check_command(view: View, uid: str) -> None:
    """Refuse an order for a unit of the side that the other seat of the side commands."""
    if not commanded(view, uid):
        mine = ", ".join(sorted(u for u, s in view["command"].items() if s == view["seat"])) or "none"
        raise IllegalOrderError(t_("%(unit)s is commanded by %(seat)s, not by you (yours: %(mine)s)", unit=uid, seat=view['command'][uid], mine=mine),
                                rule=SEATS_RULE)


def _own(view: View, seat: str, name: str, rule: str, *, anyone: bool = False) -> Unit:
    """The side's unit called ``name``; unless ``anyone``, one the writing seat commands."""
    units = units_of(view)
    found = next((u for u in units if u.id == name.lower()), None)
    if found is None or found.side != seat:
        mine = ", ".join(u.id for u in units if u.side == seat)
        raise IllegalOrderError(t_("%(unit)s is not one of your units (yours: %(mine)s)", unit=name, mine=mine), rule=rule)
    if not anyone:
        check_command(view, found.id)
    return found


def _facing(word: str, rule: str) -> str:
    if direction_of(word) is None:
        raise OrderSyntaxError(t_("%(word)s is not a direction (one of %(names)s)", word=word, names=' '.join(NAMES)), rule=rule)
    return word.upper()


# ------------------------------------------------------------------------------------- parsers
def parse_move(args: tuple[str, ...], view: View, seat: str) -> Move:
    usage = "MOVE <unit> <hex> [<hex> ...] [FACE <dir>]"
    words = [a.upper() for a in args]
    face = None
    if "FACE" in words:
        at = words.index("FACE")
        arity(words[at + 1:], 1, usage, rule=MOVING_RULE)
        face, words = _facing(words[at + 1], MOVING_RULE), words[:at]
    if len(words) < 2:
        raise OrderSyntaxError(t_("expected %(usage)s", usage=usage), rule=MOVING_RULE)
    unit = _own(view, seat, args[0], MOVING_RULE)
    path = []
    for w in words[1:]:
        h = parse_hex(w)
        if h is None:
            raise OrderSyntaxError(t_("%(word)s is not a hex name (a column letter and a row: C4)", word=w), rule=MOVING_RULE)
        path.append(h)
    problem = path_problem(view_board(view), units_of(view), unit, path)
    if problem is not None:
        raise IllegalOrderError(t_("%(unit)s cannot move so: %(problem)s", unit=unit.id, problem=problem), rule=MOVING_RULE)
    last_dir = NAMES[_heading(unit, path)]
    return Move(unit.id, tuple(hex_name(h) for h in path), face or last_dir)


def _heading(unit: Unit, path: Sequence[Any]) -> int:
    before = unit.hex if len(path) == 1 else path[-2]
    d = direction(before, path[-1])
    return unit.facing if d is None else d


def parse_face(args: tuple[str, ...], view: View, seat: str) -> Face:
    arity(args, 2, "FACE <unit> <dir>", rule=FACING_RULE)
    unit = _own(view, seat, args[0], FACING_RULE)
    if unit.disrupted:
        raise IllegalOrderError(t_("%(unit)s is Disrupted and cannot change its facing (L25)", unit=unit.id), rule=FACING_RULE)
    return Face(unit.id, _facing(args[1], FACING_RULE))


def parse_hold(args: tuple[str, ...], view: View, seat: str) -> Hold:
    arity(args, 1, "HOLD <unit>", rule=FACING_RULE)
    return Hold(_own(view, seat, args[0], FACING_RULE).id)


AIR_USAGE = "AIR <aircraft> AT <hex> ATTACK <target> [FACE <dir>]"
STRIKE_RULE = t_("Aircraft, L244-L252")


def reserve_of(view: View) -> tuple[Unit, ...]:
    return tuple(Unit(u["id"], u["card"], u["side"], (0, 0), 0, u["disrupted"]) for u in view["reserve"])


def parse_air(args: tuple[str, ...], view: View, seat: str) -> Air:
    """An air strike by one of the seat's aircraft off the map: the hex it strikes from, its target there
    and the side it faces."""
    words = [a.upper() for a in args]
    if len(words) not in (5, 7) or words[1] != "AT" or words[3] != "ATTACK" or (len(words) == 7 and words[5] != "FACE"):
        raise OrderSyntaxError(t_("expected %(usage)s", usage=AIR_USAGE), rule=STRIKE_RULE)
    plane = _ready_plane(view, seat, args[0])
    at = _strike_hex(view, words[2])
    _within_reach(view, at)
    target = _target(view, plane.but(hex=at), args[4])
    face = _strike_facing(plane, at, target, words[6] if len(words) == 7 else None)
    return Air(plane.id, hex_name(at), target.id, face)


def _ready_plane(view: View, seat: str, word: str) -> Unit:
    """The seat's aircraft off the map called ``word``, if it is not Disrupted (digest G16).

    :raises IllegalOrderError: no such aircraft of the seat, or it is Disrupted.
    """
    plane = next((u for u in reserve_of(view) if u.id == word.lower() and u.side == seat), None)
    if plane is None:
        ready = ", ".join(u.id for u in reserve_of(view) if u.side == seat) or "none"
        raise IllegalOrderError(t_("%(word)s is not one of your aircraft off the map (yours: %(ready)s)", word=word, ready=ready), rule=STRIKE_RULE)
    check_command(view, plane.id)
    if plane.disrupted:
        raise IllegalOrderError(t_("%(unit)s is Disrupted and cannot strike this turn: a face-up Disrupted aircraft is not placed (a reading; L244-L252 give no placement rule)", unit=plane.id), rule=STRIKE_RULE)
    return plane


def _strike_hex(view: View, word: str) -> Hex:
    """The map hex ``word`` names, if no aircraft is in it already (one per hex, L1).

    :raises IllegalOrderError: not a hex of the map, or it already holds an aircraft.
    """
    at = parse_hex(word)
    if at is None or at not in view_board(view):
        raise IllegalOrderError(t_("%(word)s is not a hex of the map", word=word), rule=STRIKE_RULE)
    if any(u.hex == at and u.stats.kind == AIRCRAFT for u in units_of(view)):
        raise IllegalOrderError(t_("%(word)s already holds an aircraft (one per hex, L1)", word=word), rule=STACK_RULE)
    return at


def _within_reach(view: View, at: Hex) -> None:
    """With ``tables.toml [readings] strike_reach`` N > 0 an aircraft strikes only from the N rows of
    its side's own map edge (the edge its set-up zone touches; digest G16); 0: anywhere.

    :raises IllegalOrderError: the hex is farther from the side's edge.
    """
    reach = int(combat.tables()["readings"]["strike_reach"])
    if not reach:
        return
    rows = sorted(int(n[1:]) for n in scenarios()[view["scenario"]][f"{view['side']}_zone"])
    height = view_board(view).height
    lowest, highest = (1, reach) if rows[0] == 1 else (height - reach + 1, height)
    if not lowest <= int(hex_name(at)[1:]) <= highest:
        raise IllegalOrderError(t_("%(hex)s is too far from your edge: aircraft strike from rows %(lowest)s-%(highest)s "
                                   "(L244-L252 give no placement rule; placeholder strike_reach %(reach)s)", hex=hex_name(at),
                                   lowest=lowest, highest=highest, reach=reach), rule=STRIKE_RULE)


def _strike_facing(plane: Unit, at: Hex, target: Unit, word: str | None) -> str:
    """The side the aircraft faces: the one ``word`` names, else the first its line to the target crosses
    (L246).

    :raises IllegalOrderError: the named side is not one the line crosses.
    """
    facings = strike_facings(at, target.hex) or (plane.facing,)
    face = _facing(word, STRIKE_RULE) if word is not None else NAMES[facings[0]]
    if NAMES.index(face) not in facings:
        raise IllegalOrderError(t_("an aircraft faces the side its line to the target crosses (L246): %(sides)s",
                                   sides=join(t_(" or "), [NAMES[f] for f in facings])), rule=STRIKE_RULE)
    return face


TRANSPORT_RULE = t_("Stacking, transported units, L9")


def parse_load(args: tuple[str, ...], view: View, seat: str) -> Load:
    if len(args) != 3 or args[1].upper() != "INTO":
        raise OrderSyntaxError(t_("expected %(usage)s", usage="LOAD <unit> INTO <transport>"), rule=TRANSPORT_RULE)
    unit = _own(view, seat, args[0], TRANSPORT_RULE)
    carrier = _own(view, seat, args[2], TRANSPORT_RULE, anyone=True)  # the partner's transport will do
    problem = load_problem(view, unit, carrier)
    if problem is not None:
        raise IllegalOrderError(problem, rule=TRANSPORT_RULE)
    return Load(unit.id, carrier.id)


def load_problem(view: View, unit: Unit, carrier: Unit) -> str | None:
    if not carrier.stats.has("transport"):
        carriers = ", ".join(u.id for u in units_of(view) if u.side == unit.side and u.stats.has("transport"))
        return t_("%(name)s carries nobody (your transports: %(carriers)s)", name=carrier.stats.name, carriers=carriers or t_("none"))
    if unit.stats.kind not in ("soldier", ARTILLERY) or unit.disrupted:
        return t_("%(unit)s cannot board: only soldiers and guns that may move do", unit=unit.id)
    capacity = combat.tables()["readings"]["transport_capacity"]
    if sum(c["aboard"] == carrier.id for c in view["cargo"]) >= capacity:
        return tn_("%(unit)s is full: it carries %(n)d unit (L9 gives no number; a placeholder)",
                   "%(unit)s is full: it carries %(n)d units (L9 gives no number; a placeholder)", capacity, unit=carrier.id)
    if distance(unit.hex, carrier.hex) > combat.tables()["readings"]["load_reach"]:
        if combat.tables()["readings"]["load_reach"]:
            return t_("%(unit)s must be in or next to %(carrier)s's hex (L9 says no more; a placeholder)",
                      unit=unit.id, carrier=carrier.id)
        return t_("%(unit)s must be in %(carrier)s's hex (L9 says no more; a placeholder)", unit=unit.id, carrier=carrier.id)
    return None


def unload_hexes(view: View, passenger: Unit, carrier: Unit) -> list[Any]:
    """Where a passenger may get off: the transport's hex if it can take it, else next hexes free of
    enemies that can (L9)."""
    m, units = view_board(view), units_of(view)

    def takes(h: Any) -> bool:
        return placement_problem(m, units, passenger, h) is None

    if takes(carrier.hex):
        return [carrier.hex]
    return [h for h in neighbours(carrier.hex) if takes(h)
            and not any(u.hex == h and u.side != passenger.side for u in units)]


def parse_unload(args: tuple[str, ...], view: View, seat: str) -> Unload:
    words = [a.upper() for a in args]
    if len(words) not in (1, 3) or (len(words) == 3 and words[1] != "AT"):
        raise OrderSyntaxError(t_("expected %(usage)s", usage="UNLOAD <unit> [AT <hex>]"), rule=TRANSPORT_RULE)
    row = next((c for c in view["cargo"] if c["id"] == args[0].lower() and c["side"] == seat), None)
    if row is None:
        raise IllegalOrderError(t_("%(unit)s is not aboard one of your transports", unit=args[0]), rule=TRANSPORT_RULE)
    check_command(view, row["id"])
    carrier = next(u for u in units_of(view) if u.id == row["aboard"])
    passenger = Unit(row["id"], row["card"], seat, carrier.hex, carrier.facing)
    places = unload_hexes(view, passenger, carrier)
    wanted = parse_hex(words[2]) if len(words) == 3 else places[0] if places else None
    if wanted not in places:
        where = ", ".join(hex_name(h) for h in places) or t_("nowhere: it cannot unload")
        raise IllegalOrderError(t_("%(unit)s may get off at %(where)s", unit=passenger.id, where=where), rule=TRANSPORT_RULE)
    return Unload(passenger.id, hex_name(wanted))


def parse_cancel_order(args: tuple[str, ...], view: View, seat: str) -> Any:
    """``CANCEL <key>``: the key of one of the side's standing orders in force (the form lists them)."""
    try:
        return parse_cancel(args, view, seat)
    except OrderSyntaxError:
        raise OrderSyntaxError(t_("expected CANCEL <key>, the key of a standing order in force, e.g. CANCEL DF pak40 "
                                  "or CANCEL INITIATIVE"), rule=CANCEL_RULE) from None
    except IllegalOrderError as e:
        raise IllegalOrderError(e.message, rule=CANCEL_RULE) from None


def parse_overwatch(args: tuple[str, ...], view: View, seat: str) -> Overwatch:
    """A ground unit, not Disrupted (L224), within the side's limit of 2 per 100 points (L236)."""
    arity(args, 2, "OVERWATCH <unit> <dir>", rule=OW_RULE)
    unit = _own(view, seat, args[0], OW_RULE)
    if not unit.stats.ground:
        raise IllegalOrderError(t_("only ground units go on Overwatch (L214)"), rule=OW_RULE)
    if unit.disrupted:
        raise IllegalOrderError(t_("%(unit)s is Disrupted and cannot go on Overwatch (L224)", unit=unit.id), rule=OW_RULE)
    watching = [u.id for u in units_of(view) if u.side == seat and u.overwatch is not None and u.id != unit.id]
    if len(watching) >= overwatch_limit(view, seat):
        raise IllegalOrderError(t_("%(n)s units are already on Overwatch (%(units)s): the limit for this army",
                                   n=overwatch_limit(view, seat), units=', '.join(watching)), rule=OW_RULE)
    return Overwatch(unit.id, _facing(args[1], OW_RULE))


def overwatch_limit(view: View, seat: str) -> int:
    """2 per 100 points of the army (L236), never fewer than 2 (the scaling is lost, digest G24)."""
    points = sum(cards()[u["card"]].cost for u in (*view["units"], *view["lost"]) if u["side"] == seat)
    return combat.overwatch_limit(points)


POLICY_CHOICES = {"DF": ("ALWAYS", "NEVER", "VEHICLES", "SOLDIERS", "ASK"),
                  "OW": ("ALWAYS", "NEVER", "VEHICLES", "SOLDIERS", "ASK"), "AA": ("ALWAYS", "NEVER")}


def parse_policy(verb: str) -> Any:
    rule = {"DF": DF_RULE, "OW": OW_RULE, "AA": STRIKE_RULE}[verb]
    usage = f"{verb} <unit>|ALL {'|'.join(POLICY_CHOICES[verb])}" + (" [HEX BEST|FROM|TO]" if verb == "DF" else "")

    def parse(args: tuple[str, ...], view: View, seat: str) -> Policy:
        words = [a.upper() for a in args]
        if len(words) not in ((2, 4) if verb == "DF" else (2,)) or (len(words) == 4 and words[2] != "HEX"):
            raise OrderSyntaxError(t_("expected %(usage)s", usage=usage), rule=rule)
        unit = "ALL" if words[0] == "ALL" else _own(view, seat, args[0], rule).id
        when = one_of(words[1], POLICY_CHOICES[verb], verb, rule=rule)
        where = one_of(words[3], ("BEST", "FROM", "TO"), "HEX", rule=rule) if len(words) == 4 else "BEST"
        return Policy(verb, unit, when, where)
    return parse


def parse_fire_order(args: tuple[str, ...], view: View, seat: str) -> FireOrder:
    if not args:
        raise OrderSyntaxError(t_("expected %(usage)s", usage="DF_ORDER <unit> <unit> ..."), rule=DF_RULE)
    named = tuple(_own(view, seat, a, DF_RULE, anyone=True).id for a in args)  # a side-wide order
    if len(set(named)) != len(named):
        raise IllegalOrderError(t_("a unit is named twice"), rule=DF_RULE)
    return FireOrder(named)


def parse_hand(args: tuple[str, ...], view: View, seat: str) -> Hand:
    """``HAND <unit> TO <seat>``: pass command of a unit this seat commands to the other seat of its side."""
    if not view.get("seats"):
        raise IllegalOrderError(t_("HAND needs two players a side (option players_per_side)"), rule=SEATS_RULE)
    if len(args) != 3 or args[1].upper() != "TO":
        raise OrderSyntaxError(t_("expected %(usage)s", usage="HAND <unit> TO <seat>"), rule=SEATS_RULE)
    uid = args[0].lower()
    rows = [*view["units"], *view["reserve"], *view["cargo"]]  # on the map, an aircraft off it, a passenger
    if not any(r["id"] == uid and r["side"] == seat for r in rows):
        mine = ", ".join(sorted(r["id"] for r in rows if r["side"] == seat and commanded(view, r["id"])))
        raise IllegalOrderError(t_("%(unit)s is not one of your units (yours: %(mine)s)", unit=args[0], mine=mine), rule=SEATS_RULE)
    check_command(view, uid)
    partners = [s for s in view["seats"] if s != view["seat"]]
    if args[2].lower() not in partners:
        raise IllegalOrderError(t_("%(seat)s is not the other seat of your side (%(partners)s)", seat=args[2], partners=', '.join(partners)),
                                rule=SEATS_RULE)
    return Hand(uid, args[2].lower())


def parse_penalty(args: tuple[str, ...], view: View, seat: str) -> Penalty:
    arity(args, 1, "OVERSTACK_PENALTY HIGHEST_COST|LOWEST_COST|ALREADY_HIT", rule=STACK_RULE)
    return Penalty(one_of(args[0], ("HIGHEST_COST", "LOWEST_COST", "ALREADY_HIT"), "OVERSTACK_PENALTY",
                          rule=STACK_RULE))


def parse_initiative(args: tuple[str, ...], view: View, seat: str) -> Initiative:
    arity(args, 1, "INITIATIVE FIRST|SECOND|ASK", rule=INITIATIVE_RULE)
    return Initiative(one_of(args[0].upper(), ("FIRST", "SECOND", "ASK"), "INITIATIVE", rule=INITIATIVE_RULE))


def parse_choice(word: str) -> Any:
    """FIRST or SECOND, answering the initiative question."""
    def parse(args: tuple[str, ...], view: View, seat: str) -> Answer:
        arity(args, 0, word, rule=INITIATIVE_RULE)
        choices = view["asking"]["choices"] if view.get("asking") else ()
        if word not in choices:
            raise IllegalOrderError(t_("answer one of: %(choices)s", choices=', '.join(choices)), rule=INITIATIVE_RULE)
        return Answer(word)
    return parse


def attack_problem(view: View, attacker: Unit, target: Unit) -> str | None:
    """Why ``attacker`` may not attack ``target`` now, or None: line of sight (L43), a band within
    long range with dice on the card (L62-L66, L84-L90), artillery without AA never at aircraft (L78)."""
    if target.side == attacker.side:
        return t_("%(unit)s is your own unit", unit=target.id)
    if attacker.stats.kind == AIRCRAFT and target.stats.kind == AIRCRAFT:
        return t_("aircraft strike ground units")
    if target.stats.kind == AIRCRAFT and attacker.stats.kind == ARTILLERY and not attacker.stats.has("antiair"):
        return t_("artillery without the AA ability cannot attack aircraft (%(rule)s)", rule=AIR_RULE)
    if not clear(view_board(view), attacker.hex, target.hex, strict=view["strict"]):
        return t_("%(unit)s has no line of sight to %(target)s (%(rule)s)", unit=attacker.id, target=target.id, rule=LOS_RULE)
    band = combat.band(attacker.hex, target.hex)
    if band is None:
        return t_("%(unit)s is beyond long range (%(rule)s)", unit=target.id, rule=combat.BAND_RULE)
    if attacker.stats.dice(target.stats.kind, band) == 0:
        return t_("%(name)s has no dice against a %(kind)s at %(band)s range (L66)", name=attacker.stats.name, kind=combat.kind_word(target.stats.kind), band=combat.band_word(band))
    return None


def legal_targets(view: View, attacker: Unit) -> list[Unit]:
    """Whom a unit on the map may ATTACK now (an aircraft attacks only by its air strike)."""
    if attacker.stats.kind == AIRCRAFT:
        return []
    return [t for t in units_of(view) if t.side != attacker.side and attack_problem(view, attacker, t) is None]


ATTACK_USAGE = "ATTACK <unit> <target> [AND <target> | GRAZE]"
GRAZE_RULE = t_("Grazing fire, L274-L282")


def _target(view: View, attacker: Unit, name: str) -> Unit:
    target = next((u for u in units_of(view) if u.id == name.lower()), None)
    if target is None:  # in fog the view holds only the enemies in sight: one answer for both cases
        raise IllegalOrderError(t_("no enemy you can see is called %(unit)s", unit=name) if view.get("fog") else
                                t_("there is no unit %(unit)s", unit=name), rule=ATTACK_RULE)
    problem = attack_problem(view, attacker, target)
    if problem is not None:
        legal = join(", ", [t_("%(unit)s (%(band)s)", unit=t.id, band=combat.band_word(combat.band(attacker.hex, t.hex) or ""))
                            for t in legal_targets(view, attacker)])
        raise IllegalOrderError(t_("%(problem)s; %(unit)s may attack: %(legal)s", problem=problem, unit=attacker.id,
                                   legal=legal or t_("nobody")), rule=ATTACK_RULE)
    return target


def parse_attack(args: tuple[str, ...], view: View, seat: str) -> Attack:
    words = [a.upper() for a in args]
    if len(words) not in (2, 3, 4) or (len(words) == 3 and words[2] != "GRAZE") or \
            (len(words) == 4 and words[2] != "AND"):
        raise OrderSyntaxError(t_("expected %(usage)s", usage=ATTACK_USAGE), rule=ATTACK_RULE)
    attacker = _own(view, seat, args[0], ATTACK_RULE)
    if attacker.stats.kind == AIRCRAFT:
        raise IllegalOrderError(t_("an aircraft attacks only by its air strike (AIR ... ATTACK ...)"), rule=STRIKE_RULE)
    target = _target(view, attacker, args[1])
    if len(words) > 2 and not attacker.stats.has("double_shot"):
        raise IllegalOrderError(t_("%(name)s has no Double Shot: one target only", name=attacker.stats.name), rule=GRAZE_RULE)
    second = _target(view, attacker, args[3]).id if len(words) == 4 else ""
    return Attack(attacker.id, target.id, second, len(words) == 3)


def parse_fire(args: tuple[str, ...], view: View, seat: str) -> Answer:
    choices = view["asking"]["choices"] if view.get("asking") else ()
    choice = " ".join(("FIRE", *(a.upper() for a in args)))
    if choice not in choices:
        raise IllegalOrderError(t_("answer one of: %(choices)s", choices=', '.join(choices)), rule=DF_RULE)
    return Answer(choice)


def parse_hold_fire(args: tuple[str, ...], view: View, seat: str) -> Answer:
    if "HOLD" not in (view["asking"]["choices"] if view.get("asking") else ()):
        raise IllegalOrderError(t_("answer FIRST or SECOND"), rule=INITIATIVE_RULE)
    arity(args, 0, "HOLD", rule=DF_RULE)
    return Answer("HOLD")



# ------------------------------------------------------------------------------------ army build
BUILD_RULE = t_("army build: 100 points a side (L236); the set-up rules are lost (option army=build, placeholder zones)")


def zone(view: View, seat: str) -> list[Any]:
    """The hexes of the side's set-up rectangle (by column and row of the printed map); with two
    seats a side, the writing seat's share of its columns (the first seat the western part), so that
    neither can overfill a hex the other sets up in."""
    corners = [parse_hex(n) for n in scenarios()[view["scenario"]][f"{seat}_zone"]]
    names = [hex_name(h) for h in corners if h is not None]
    cols = sorted(ord(n[0]) for n in names)
    rows = sorted(int(n[1:]) for n in names)
    if view.get("seats"):
        k, n = view["seats"].index(view["seat"]), len(view["seats"])
        width = cols[1] - cols[0] + 1
        cols = [cols[0] + width * k // n, cols[0] + width * (k + 1) // n - 1]
    return [h for h in view_board(view).hexes if cols[0] <= ord(hex_name(h)[0]) <= cols[1]
            and rows[0] <= int(hex_name(h)[1:]) <= rows[1]]


def _can_stand(view: View, unit: Unit, h: Hex, rule: str) -> None:
    """A unit is not set up where it could not move in: impassable terrain or an obstacle it may
    not enter (stacking is checked on the whole mail)."""
    problem = placement_problem(view_board(view), (), unit, h)
    if problem is not None:
        raise IllegalOrderError(t_("%(unit)s cannot be set up there: %(problem)s", unit=unit.id, problem=problem), rule=rule)


def parse_place(args: tuple[str, ...], view: View, seat: str) -> Place:
    """``PLACE <unit> AT <hex> [FACE <dir>]``: a unit of the scenario's forces, a hex of the seat's zone."""
    words = [a.upper() for a in args]
    if len(words) not in (3, 5) or words[1] != "AT" or (len(words) == 5 and words[3] != "FACE"):
        raise OrderSyntaxError(t_("expected %(usage)s", usage=PLACE_USAGE), rule=PLACE_RULE)
    unit = _own(view, seat, args[0], PLACE_RULE)
    h = parse_hex(words[2])
    if h is None or h not in zone(view, seat):
        raise IllegalOrderError(t_("%(hex)s is not in your set-up zone", hex=words[2]), rule=PLACE_RULE)
    _can_stand(view, unit, h, PLACE_RULE)
    face = _facing(words[4], PLACE_RULE) if len(words) == 5 else NAMES[unit.facing]
    return Place(unit.id, hex_name(h), face)


PLACE_USAGE = "PLACE <unit> AT <hex> [FACE <dir>]"
PLACE_RULE = t_("sealed deployment (option visibility=fog; the set-up rules are lost, placeholder zones)")


def budget(view: View) -> int:
    """The points the writing seat may spend: the side's (L236), shared out between its seats."""
    return int(view["points"]) // max(1, len(view.get("seats", ())))


def parse_buy(args: tuple[str, ...], view: View, seat: str) -> Buy:
    words = [a.upper() for a in args]
    card = cards().get(args[0].lower()) if args else None
    if card is None or card.side != seat:
        mine = ", ".join(f"{k} ({c.cost})" for k, c in cards().items() if c.side == seat)
        raise IllegalOrderError(t_("%(card)s is not a card of your side (yours: %(mine)s)", card=args[0] if args else '?', mine=mine),
                                rule=BUILD_RULE)
    if not card.ground:
        arity(words[1:], 0, "BUY <aircraft>", rule=BUILD_RULE)
        return Buy(card.key)
    if len(words) not in (3, 5) or words[1] != "AT" or (len(words) == 5 and words[3] != "FACE"):
        raise OrderSyntaxError(t_("expected %(usage)s", usage="BUY <card> AT <hex> [FACE <dir>]"), rule=BUILD_RULE)
    h = parse_hex(words[2])
    if h is None or h not in zone(view, seat):
        raise IllegalOrderError(t_("%(hex)s is not in your set-up zone", hex=words[2]), rule=BUILD_RULE)
    _can_stand(view, Unit(card.key, card.key, seat, h, 0), h, BUILD_RULE)
    face = _facing(words[4], BUILD_RULE) if len(words) == 5 else ("N" if seat == "allies" else "S")
    return Buy(card.key, hex_name(h), face)
