"""Ingest: the verb tables of each window, the attack lists' conditions, the checks of a whole
mail (one order per unit, the overwatch limit) and the acknowledgement's attack previews."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.texts import join, t_
from pbem.core.errors import IllegalOrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.scripts import ConditionKind, Conditions, If, scripted
from pbem.core.verbs import Order, Verb, VerbTable, View

from .movement import FACING_RULE, STACK_RULE, within_full
from .board import hex_name, parse_hex, view_board
from .fog import knowers
from .orders import Attack, Buy, Overwatch, Place, unit_of
from .parsers import (AIR_USAGE, CANCEL_RULE, MOVING_RULE, INITIATIVE_RULE, LISTS_RULE, ORDERS_RULE, parse_cancel_order, SEATS_RULE, budget, parse_hand, ATTACK_RULE, BUILD_RULE, PLACE_RULE, PLACE_USAGE, parse_buy, parse_place, ATTACK_USAGE, STRIKE_RULE, TRANSPORT_RULE, overwatch_limit,
                      parse_air, parse_attack, parse_choice, parse_face, parse_fire, parse_fire_order, parse_hold,
                      parse_hold_fire, parse_initiative, parse_load, parse_move, parse_overwatch, parse_penalty,
                      parse_policy, parse_unload, units_of)
from .preview import attack_preview
from .reactions import DF_RULE, OW_RULE
from .tables import cards

STANDING_VERBS = ("DF", "OW", "AA", "DF_ORDER", "INITIATIVE", "OVERSTACK_PENALTY", "CANCEL")
MOVE_VERBS = ("MOVE", "FACE", "HOLD", "OVERWATCH", "LOAD", "UNLOAD", "HAND", *STANDING_VERBS)
ATTACK_VERBS = ("AIR", "ATTACK", "MOVE", "FACE", "HOLD", "OVERWATCH", "LOAD", "UNLOAD", "IF", "HAND", *STANDING_VERBS)

# ---------------------------------------------------------------------------------- conditions
def _parse_unit(args: tuple[str, ...], view: View, seat: str) -> tuple[str, ...]:
    if len(args) != 1 or not any(u["id"] == args[0].lower() for u in view["units"]):
        raise OrderSyntaxError(t_("expected a unit name after the condition"), rule=LISTS_RULE)
    return (args[0].lower(),)


def _doomed(w: Any, reached: Any, args: tuple[str, ...]) -> bool:
    """Whether the unit's face-down markers already destroy it; in fog, an enemy the author's side does
    not see when the entry is reached counts as not doomed (the author may not know its markers)."""
    unit = w.data.unit(args[0])
    if unit is None:
        return True
    if w.data.state.fog and reached.author not in {s for s, ids in knowers(w, [unit]).items() if ids}:
        return False
    return bool(unit.doomed)


def _parse_unit_at(args: tuple[str, ...], view: View, seat: str) -> tuple[str, ...]:
    h = parse_hex(args[1]) if len(args) == 2 else None
    if h is None or h not in view_board(view):
        raise OrderSyntaxError(t_("expected a unit name and a hex of the map after AT (AT <unit> <hex>)"),
                               rule=LISTS_RULE)
    return (*_parse_unit(args[:1], view, seat), hex_name(h))


def _known(w: Any, reached: Any, uid: str) -> Any:
    """The unit as the author's side may know it when the entry is reached: None if it is gone, or
    (in fog) an enemy out of its sight."""
    unit = w.data.unit(uid)
    if unit is None or (w.data.state.fog and reached.author not in
                        {s for s, ids in knowers(w, [unit]).items() if ids}):
        return None
    return unit


CONDITIONS = Conditions([
    ConditionKind("DOOMED", _parse_unit, _doomed, t_("DOOMED <unit> (its face-down markers already destroy it)")),
    ConditionKind("LIVE", _parse_unit, lambda w, r, a: not _doomed(w, r, a),
                  t_("LIVE <unit> (not yet doomed by its face-down markers)")),
    ConditionKind("DISRUPTED", _parse_unit, lambda w, r, a: bool(getattr(_known(w, r, a[0]), "disrupted", False)),
                  t_("DISRUPTED <unit> (it shows a face-up yellow marker now)")),
    ConditionKind("AT", _parse_unit_at,
                  lambda w, r, a: (u := _known(w, r, a[0])) is not None and hex_name(u.hex) == a[1],
                  t_("AT <unit> <hex> (it stands in that hex now)")),
], rule=LISTS_RULE)

ORDERS = scripted(VerbTable([
    Verb("MOVE", parse_move, "MOVE <unit> <hex> [<hex> ...] [FACE <dir>]", MOVING_RULE),
    Verb("FACE", parse_face, "FACE <unit> <dir>", FACING_RULE),
    Verb("ATTACK", parse_attack, ATTACK_USAGE, ATTACK_RULE),
    Verb("HOLD", parse_hold, "HOLD <unit>", FACING_RULE),
    Verb("AIR", parse_air, AIR_USAGE, STRIKE_RULE),
    Verb("PLACE", parse_place, PLACE_USAGE, PLACE_RULE),
    Verb("BUY", parse_buy, "BUY <card> AT <hex> [FACE <dir>] | BUY <aircraft>", BUILD_RULE),
    Verb("LOAD", parse_load, "LOAD <unit> INTO <transport>", TRANSPORT_RULE),
    Verb("UNLOAD", parse_unload, "UNLOAD <unit> [AT <hex>]", TRANSPORT_RULE),
    Verb("OVERWATCH", parse_overwatch, "OVERWATCH <unit> <dir>", OW_RULE),
    Verb("DF", parse_policy("DF"), "DF <unit>|ALL ALWAYS|NEVER|VEHICLES|SOLDIERS|ASK [HEX BEST|FROM|TO]", DF_RULE),
    Verb("OW", parse_policy("OW"), "OW <unit>|ALL ALWAYS|NEVER|VEHICLES|SOLDIERS|ASK", OW_RULE),
    Verb("AA", parse_policy("AA"), "AA <unit>|ALL ALWAYS|NEVER", STRIKE_RULE),
    Verb("DF_ORDER", parse_fire_order, "DF_ORDER <unit> <unit> ...", DF_RULE),
    Verb("INITIATIVE", parse_initiative, "INITIATIVE FIRST|SECOND|ASK", INITIATIVE_RULE),
    Verb("OVERSTACK_PENALTY", parse_penalty, "OVERSTACK_PENALTY HIGHEST_COST|LOWEST_COST|ALREADY_HIT", STACK_RULE),
    Verb("HAND", parse_hand, "HAND <unit> TO <seat>", SEATS_RULE),
    Verb("CANCEL", parse_cancel_order, "CANCEL INITIATIVE | CANCEL DF <unit> | CANCEL OW <unit>", CANCEL_RULE),
], rule=ORDERS_RULE), CONDITIONS)


def _one_order_per_unit(parsed: Sequence[tuple[OrderLine, Order]], view: View, seat: str) -> list[OrderProblem]:
    """A unit acts once a phase: one plain order each (IF entries may name it again as fallbacks)."""
    seen: set[str] = set()
    problems = []
    watching = {u.id for u in units_of(view) if u.side == seat and u.overwatch is not None}
    for line, order in parsed:
        if isinstance(order, Overwatch):
            watching.add(order.unit)
            if len(watching) > overwatch_limit(view, seat):
                problems.append(IllegalOrderError(t_("more than %(n)s units on Overwatch", n=overwatch_limit(view, seat)),
                                                  rule=OW_RULE).problem(line.line_no, line.text))
        unit = unit_of(order)
        if unit is None or isinstance(order, If):
            continue
        if unit in seen:
            problems.append(IllegalOrderError(t_("%(unit)s already has an order this phase", unit=unit), rule=FACING_RULE)
                            .problem(line.line_no, line.text))
        seen.add(unit)
    return problems

ANSWERS = VerbTable([Verb("FIRE", parse_fire, "FIRE [FROM|TO]", DF_RULE),
                     Verb("HOLD", parse_hold_fire, "HOLD", DF_RULE),
                     Verb("FIRST", parse_choice("FIRST"), "FIRST", INITIATIVE_RULE),
                     Verb("SECOND", parse_choice("SECOND"), "SECOND", INITIATIVE_RULE)], rule=DF_RULE)


def _within_budget(parsed: Sequence[tuple[OrderLine, Order]], view: View, seat: str) -> list[OrderProblem]:
    """The army costs at most the game's points (L236), and no hex is set up beyond full (L1)."""
    problems, spent, stacks = [], 0, {}
    for line, order in parsed:
        if not isinstance(order, Buy):
            continue
        card = cards()[order.card]
        spent += card.cost
        if spent > budget(view):
            problems.append(IllegalOrderError(t_("the army would cost %(spent)s of %(budget)s points", spent=spent, budget=budget(view)),
                                              rule=BUILD_RULE).problem(line.line_no, line.text))
        if order.at:
            v, s = stacks.get(order.at, (0, 0))
            stacks[order.at] = (v + (card.kind == "vehicle"), s + (card.kind != "vehicle"))
            if not within_full(*stacks[order.at]):
                problems.append(IllegalOrderError(t_("%(hex)s would be over full (%(rule)s)", hex=order.at, rule=STACK_RULE), rule=BUILD_RULE)
                                .problem(line.line_no, line.text))
    return problems


def placing(view: View, seat: str) -> bool:
    """The set-up window places the scenario's own forces (fog), rather than buying an army."""
    return any(u["side"] == seat for u in view["units"])


def _placed_within_full(parsed: Sequence[tuple[OrderLine, Order]], view: View, seat: str) -> list[OrderProblem]:
    """Each unit placed once, and no hex beyond full once every unit of the side stands where it will (L1)."""
    problems, where, seen = [], {u.id: u.hex for u in units_of(view) if u.side == seat and u.stats.ground}, set()
    for line, order in parsed:
        if not isinstance(order, Place):
            continue
        if order.unit in seen:
            problems.append(IllegalOrderError(t_("%(unit)s is placed twice", unit=order.unit), rule=PLACE_RULE)
                            .problem(line.line_no, line.text))
        seen.add(order.unit)
        where[order.unit] = parse_hex(order.at)
    kinds = {u.id: u.stats.kind for u in units_of(view)}
    for line, order in parsed:
        if isinstance(order, Place):
            here = [uid for uid, h in where.items() if h == where[order.unit]]
            vehicles = sum(1 for uid in here if kinds[uid] == "vehicle")
            if not within_full(vehicles, len(here) - vehicles):
                problems.append(IllegalOrderError(t_("%(hex)s would be over full (%(rule)s)", hex=order.at, rule=STACK_RULE), rule=PLACE_RULE)
                                .problem(line.line_no, line.text))
    return problems


def check_orders(view: View, seat: str, lines: Sequence[OrderLine]) -> Any:
    """A seat's mail, checked against its view; the parsers read ``seat`` as the side, and what the
    seat commands from the view (``view["seat"]``, ``view["command"]``, with two players a side)."""
    seat = view.get("side", seat)
    if view.get("asking"):
        return ANSWERS.check_lines(view, seat, lines)
    if view["step"] == "deploy" and placing(view, seat):
        return ORDERS.check_lines(view, seat, lines, allowed=("PLACE", *STANDING_VERBS), whole=_placed_within_full)
    if view["step"] == "deploy":
        return ORDERS.check_lines(view, seat, lines, allowed=("BUY", *STANDING_VERBS), whole=_within_budget)
    allowed = ATTACK_VERBS if view["step"] == "attack" else \
        (*MOVE_VERBS, "IF") if view["step"] == "move-alternate" else MOVE_VERBS
    if view["step"] == "attack" and not view["move_in_attack"]:
        allowed = tuple(v for v in allowed if v not in ("MOVE", "FACE", "LOAD", "UNLOAD"))
    return ORDERS.check_lines(view, seat, lines, allowed=allowed, whole=_one_order_per_unit,
                              note=lambda order: _attack_note(view, order))


def _attack_note(view: View, order: Order) -> str | None:
    """The acknowledgement's preview of an attack (of THEN and ELSE too), as things stand now."""
    if isinstance(order, If):
        notes = [_attack_note(view, o) for o in (order.then, order.otherwise) if o is not None]
        return join("; ", [n for n in notes if n]) or None
    if not isinstance(order, Attack):
        return None
    units = {u.id: u for u in units_of(view)}
    attacker, target = units[order.unit], units[order.target]
    friends = [u for u in units.values() if u.side == attacker.side]
    return t_("%(order)s: %(preview)s", order=order.text(), preview=attack_preview(attacker, target, friends, view['advanced']))
