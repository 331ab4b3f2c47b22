"""What a combat call may wait for [10]: the conditions of the script entries
``IF <condition> THEN ENGAGE ... [ELSE ENGAGE ...]``, through the kit's scripts.

A player "may wait for the result of one combat before calling the next": the calls are taken one
at a time in file order, and a condition is tested when its entry is reached.  PREVIOUS is the
result of this side's previous entry (NONE when it had no battle or was not called).
"""
from __future__ import annotations

from pbem.core.texts import t_

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.scripts import Condition, ConditionKind, Conditions, Reached
from pbem.core.work import Work as KitWork

RESULTS = ("WON", "LOST", "DRAWN", "NONE")
ENGAGE_FORM = "ENGAGE <contact> [WITH <unit>] [IF PREVIOUS WON|LOST|DRAWN|NONE | IF <ship> AFLOAT|SUNK]"


def _result(args: tuple[str, ...], view: Mapping[str, Any], seat: str) -> tuple[str, ...]:
    if len(args) != 1 or args[0].upper() not in RESULTS:
        raise OrderSyntaxError(t_("IF PREVIOUS takes WON, LOST, DRAWN or NONE"), rule="10")
    return (args[0].upper(),)


def _ship(args: tuple[str, ...], view: Mapping[str, Any], seat: str) -> tuple[str, ...]:
    """One of the seat's own ships, or a ship whose card is in play (public) [2.3]."""
    if len(args) != 1:
        raise OrderSyntaxError(t_("write IF AFLOAT <ship> or IF SUNK <ship>"), rule="10")
    known = {x["id"] for x in view["ships"]} | {c["id"] for c in view["cards"]}
    if args[0].lower() not in known:
        raise IllegalOrderError(t_('IF names %(v)s, which is neither your ship nor a Ship Card in play (or write IF PREVIOUS WON|LOST|DRAWN|NONE)', v=args[0]), rule="10")
    return (args[0].lower(),)


def _previous(k: KitWork[Any], reached: Reached, args: tuple[str, ...]) -> bool:
    return k.data.kw.get("previous", "NONE") == args[0]


def _afloat(k: KitWork[Any], sid: str) -> bool:
    x = k.data.ships.get(sid)
    return bool(x and x.afloat)


CONDITIONS = Conditions([
    ConditionKind("PREVIOUS", _result, _previous, "PREVIOUS WON|LOST|DRAWN|NONE"),
    ConditionKind("AFLOAT", _ship, lambda k, r, a: _afloat(k, a[0]), "AFLOAT <ship>"),
    ConditionKind("SUNK", _ship, lambda k, r, a: not _afloat(k, a[0]), "SUNK <ship>"),
], rule="10")


def suffix_condition(words: Sequence[str], view: Mapping[str, Any], seat: str) -> Condition:
    """The condition of the older form ``ENGAGE ... IF PREVIOUS <result>`` or ``IF <ship> AFLOAT|SUNK``,
    still accepted (stored order files are checked again at resolution)."""
    if len(words) != 2:
        raise OrderSyntaxError(t_('write %(ENGAGE_FORM)s', ENGAGE_FORM=ENGAGE_FORM), rule="10")
    if words[0].upper() == "PREVIOUS":
        return Condition("PREVIOUS", _result(tuple(words[1:]), view, seat))
    sid = _ship(tuple(words[:1]), view, seat)
    if words[1].upper() not in ("AFLOAT", "SUNK"):
        raise OrderSyntaxError(t_('IF %(v)s takes AFLOAT or SUNK', v=sid[0]), rule="10")
    return Condition(words[1].upper(), sid)
