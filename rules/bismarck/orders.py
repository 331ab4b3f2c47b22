"""Order lines: checking one seat's file against its view (never the state), through the kit's verb table.

One order file per side covers most of a turn [digest 12]: this turn's orders (:mod:`.turn_orders`)
and standing orders (reaction policies, :mod:`.standing_orders`, kept in the kit's store until
replaced or cancelled) are typed values (:mod:`.verbs`).  Every problem of the file is reported,
each with its line and rule.
"""
from __future__ import annotations

from pbem.core.texts import t_

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import IllegalOrderError, OrderError, OrderProblem, OrderSyntaxError
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Checked
from pbem.core.scripts import If, scripted
from pbem.core.standing import Cancel, parse_cancel
from pbem.core.verbs import Verb, VerbTable, arity

from . import preorders, standing_orders, turn_orders
from .checking import Ctx
from .conditions import CONDITIONS
from .verbs import Attack, Engage, Ignore, Order, Policy, standing_key

GERMAN_ONLY = {"ON_SHADOW", "REFUEL", "RTB", "HUNT", "ON_MERCHANT", "ON_CONVOY", "SUB_HEX"}
ALLIED_ONLY = {"SHADOW", "ON_DIVERSION", "RELEASE"}
STANDING = {v.word for v in standing_orders.VERBS} | {"CANCEL"}


def _cancel(args: tuple[str, ...], view: Mapping[str, Any], seat: str) -> Cancel:
    """CANCEL <key>: the view lists standing orders as lines; their keys are what may be cancelled.  A standing
    order answers a decision of the turn's sequence before it comes up, so a refusal cites that [4]."""
    rows = [{"key": standing_key(line.split()), "text": line} for line in view["standing"]]
    try:
        return parse_cancel(args, {"standing": rows}, seat)
    except OrderError as exc:
        raise type(exc)(exc.message, rule=exc.rule or "4") from None


def _answer(order: Attack | Ignore) -> Verb:
    def parse(args: tuple[str, ...], view: Mapping[str, Any], seat: str) -> Attack | Ignore:
        arity(args, 0, "ATTACK or IGNORE", rule="11.3")
        return order
    return Verb(order.text(), parse, order.text(), "11.3")


VERBS = scripted(VerbTable([*turn_orders.VERBS, *standing_orders.VERBS,
                            Verb("CANCEL", _cancel, "CANCEL <key of a standing order in force, e.g. SUB_HEX>", "4")],
                           rule="4"), CONDITIONS)  # an unknown word: the orders of a turn are its sequence [4]
ANSWERS = VerbTable([_answer(Attack()), _answer(Ignore())], rule="11.3")


def check(view: dict, seat: str, lines: Sequence[OrderLine]) -> Checked:
    """``Checked.orders`` is the tuple of typed orders, TF changes first so that MOVE lines may name a
    task force formed in the same file [7.2]."""
    if view["step"] == "convoy":
        return ANSWERS.check_lines(view, seat, lines)
    ctx = Ctx(view)
    problems: list[OrderProblem] = []
    orders: list[Order | Cancel | If] = []
    ahead: list[str] = []
    for ln in sorted(lines, key=_check_order):
        try:
            if _if_shadowed(ln):
                o = preorders.parse(ctx, ln.text.split())
                ahead.append(preorders.note(o.text()))
                orders.append(o)
                continue
            _allowed_now(ctx, ln.verb)
            orders.append(_only_calls_wait(VERBS.parse(ln.text, ctx, seat)))
        except OrderError as exc:
            problems.append(exc.problem(ln.line_no, ln.text))
    standing = [o.text() for o in orders if isinstance(o, Policy)]
    notes = _replacements(standing, view.get("standing", [])) + _apart(ctx, orders) + ahead
    return Checked(tuple(orders), tuple(problems), tuple(notes))


def _if_shadowed(ln: OrderLine) -> bool:
    words = ln.text.split()
    return ln.verb == "IF" and len(words) > 1 and words[1].upper() == "SHADOWED"


def _check_order(ln: OrderLine) -> int:
    """TF changes first (MOVE lines may name a TF formed in the file [7.2]); IF SHADOWED lines last, since
    they plan next turn from where this turn's MOVE lines leave the unit [7.1]."""
    return 0 if ln.verb in turn_orders.TF_VERBS else 2 if _if_shadowed(ln) else 1


def _apart(ctx: Ctx, orders: Sequence[Order | Cancel | If]) -> list[str]:
    """Acknowledgement warnings: a call WITH a unit that will not be in the contact's hex (where it is now,
    or where this file moves it) finds no battle unless the enemy moves to it [10]."""
    calls = [c for o in orders for c in ((o.then, o.otherwise) if isinstance(o, If) else (o,)) if isinstance(c, Engage)]
    out = []
    for c in calls:
        ships = ctx.unit(c.unit) if c.unit else None
        if not ships:
            continue
        there = ctx.dest.get(c.unit, ships[0]["hex"])
        if there != ctx.contacts[c.contact]["hex"]:
            out.append(f"warning: ENGAGE {c.contact} WITH {c.unit}: {c.unit} will be in {there} and {c.contact} "
                       f"was last reported in {ctx.contacts[c.contact]['hex']}; the call finds no battle unless "
                       f"both are in one hex after movement [10]")
    return out + _one_battle_a_hex(ctx, [o for o in orders if isinstance(o, Engage)])


def _one_battle_a_hex(ctx: Ctx, plain: Sequence[Engage]) -> list[str]:
    """Acknowledgement warnings: a plain call at a contact reported in the hex of an earlier plain call is
    fought only if that one finds no battle -- a hex sees one naval battle a turn [10]."""
    out: list[str] = []
    first: dict[str, Engage] = {}
    for c in plain:
        where = ctx.contacts[c.contact]["hex"]
        if where in first:
            out.append(f"warning: {c.text()}: {first[where].text()} is called first at a contact reported in "
                       f"{where}, and a hex sees only one naval battle a turn; this call is fought only if that one "
                       f"finds no battle [10]")
        else:
            first[where] = c
    return out


def _allowed_now(ctx: Ctx, verb: str) -> None:
    """What this step and this side may order; a one-sided verb is refused under the rule that gives
    it to the other side (refuelling at sea is German only by 7.5, shadowing is Allied by 6) [7.1, 10]."""
    if verb in ANSWERS.verbs and ctx.step != "convoy":
        raise IllegalOrderError(t_('%(verb)s answers the question of a convoy found under ON_CONVOY ASK, asked in its own window; no convoy question is open now', verb=verb), rule="11.3")
    if ctx.step == "doctrine" and verb != "DOCTRINE":
        raise OrderSyntaxError(t_("a naval combat is coming: only DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE "
                               "[TORPEDOES ON|OFF] [BREAK <hull>] lines are taken now"), rule="10")
    if verb in GERMAN_ONLY and ctx.side != "german":
        raise IllegalOrderError(t_('%(verb)s is a German order', verb=verb), rule=VERBS.verbs[verb].rule)
    if verb in ALLIED_ONLY and ctx.side != "allied":
        raise IllegalOrderError(t_('%(verb)s is an Allied order', verb=verb), rule=VERBS.verbs[verb].rule)
    if ctx.step.startswith("shadowed") and verb in VERBS and verb not in STANDING | {"MOVE", "STAY"}:
        raise IllegalOrderError(t_("only your Shadowed units move now (MOVE or STAY; one left out stays); "
                                "the other orders come in the main order phase"), rule="7.1")


def _only_calls_wait(order: Order | Cancel | If) -> Order | Cancel | If:
    """Only combat calls are taken one at a time in resolution; the other orders happen before [10]."""
    if isinstance(order, If) and not all(isinstance(o, Engage) for o in (order.then, order.otherwise) if o):
        raise IllegalOrderError(t_("only ENGAGE calls may wait for a condition (IF ... THEN ENGAGE ... "
                                "[ELSE ENGAGE ...]); a move for next turn's Shadowed movement is IF SHADOWED "
                                "<unit> THEN MOVE|STAY <unit> ... (rule 7.1)"), rule="10")
    return order


def _replacements(standing: list[str], in_force: Sequence[str]) -> list[str]:
    """Acknowledgement notes: which standing order replaces which (in this file, then in force)."""
    notes = []
    keys: dict[str, str] = {}
    for s in standing:
        k = standing_key(s.split())
        if k in keys:
            notes.append(t_("standing order %(after)s replaces %(before)s", after=s, before=keys[k]))
        keys[k] = s
    for s in in_force:
        if standing_key(s.split()) in keys:
            notes.append(t_("standing order %(after)s replaces the earlier %(before)s", after=keys[standing_key(s.split())],
                            before=s))
    return notes
