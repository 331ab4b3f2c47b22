"""Shadowed movement ordered a turn ahead [7.1]: ``IF SHADOWED <unit> THEN MOVE <unit> <hex> ...`` or
``IF SHADOWED <unit> THEN STAY <unit>``.

A unit under an enemy Shadowed marker moves (or stays) at the start of the Movement Phase, before
everything else, and announces its new hex [7.1]; by mail that costs an extra window before the turn's
orders.  A player who expects a unit may be Shadowed next turn writes, in this turn's main orders, what
it should do then.  The line is kept as a standing order for the next turn only (the kit's store lists it
and reports it); at the start of next turn's Movement Phase:

* the unit is Shadowed and the order can be carried out then: it is, and no window opens for the side
  when every Shadowed unit of it is covered so (a window still opens for any unit not covered, and
  there the order stands unless a MOVE or STAY line for the unit replaces it);
* the unit is Shadowed but the order cannot be carried out (it was damaged, ran short of fuel, made an
  Evasion Maneuver, was split or joined): the side is told why and its window opens as usual;
* the unit is not Shadowed: nothing happens (it moves in the main order phase).

Either way the order then lapses: a path is written from where the unit ends this turn.
"""
from __future__ import annotations

from pbem.core.texts import t_

from collections.abc import Sequence
from typing import Any

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.scripts import Condition, If

from . import movement as M
from .checking import Ctx, hex_word, unit_id
from .model import to_json
from .verbs import Move, Policy, Stay
from .work import Work

FORM = "IF SHADOWED <unit> THEN MOVE <unit> <hex> [<hex>] or IF SHADOWED <unit> THEN STAY <unit>"
ONE_TURN = ("patrol", "patrol-tf", "repair", "port", "refuel", "evasion")  # markers Administration removes [12]


# --- checking the line (from the seat's view) ------------------------------------------------------
def parse(ctx: Ctx, words: Sequence[str]) -> Policy:
    """The canonical standing line, or the reason it is refused [7.1, 7.7.2]."""
    up = [w.upper() for w in words]
    if ctx.step != "orders":
        raise IllegalOrderError(t_("IF SHADOWED is written with the turn's main orders, for the next turn's Shadowed "
                                "movement"), rule="7.1")
    if len(words) < 6 or up[3] != "THEN" or up[4] not in ("MOVE", "STAY"):
        raise OrderSyntaxError(t_('write %(FORM)s', FORM=FORM), rule="7.1")
    if "ELSE" in up:
        raise IllegalOrderError(t_("IF SHADOWED takes no ELSE: a unit that is not Shadowed moves with the main orders"),
                                rule="7.1")
    u = ctx.need_unit(words[2])
    uid = unit_id(u)
    other = ctx.need_unit(words[5])
    if unit_id(other) != uid:
        raise IllegalOrderError(t_('IF SHADOWED %(uid)s orders %(uid)s itself: a Shadowed unit moves or stays, and only it moves now', uid=uid), rule="7.1")
    if up[4] == "STAY":
        if len(words) != 6:
            raise OrderSyntaxError(t_('write %(FORM)s', FORM=FORM), rule="7.1")
        return Policy(If(Condition("SHADOWED", (uid,)), Stay(uid)).text())
    path = [hex_word(h) for h in words[6:]]
    if not path:
        raise OrderSyntaxError(t_('write %(FORM)s', FORM=FORM), rule="7.1")
    start = ctx.dest.get(uid, u[0]["hex"])
    ships = [next_turn(x, start, ctx.paths.get(uid), x["id"] in ctx["moved"]) for x in u]
    why = M.check_path(ctx.side, ships, path, list(ctx.ships.values()))
    if why:
        text, _, ref = why.rpartition(" [")
        ok = bool(text) and ref.endswith("]")
        raise IllegalOrderError(t_('%(uid)s, next turn from %(start)s: %(v)s', uid=uid, start=start, v=text if ok else why),
                                rule=ref[:-1] if ok else "7.7.2")
    return Policy(If(Condition("SHADOWED", (uid,)), Move(uid, tuple(path))).text())


def next_turn(x: dict, start: str, hexes: int | None, moved_3a: bool) -> dict:
    """Ship ``x`` as she will start next turn: in ``start`` after a MOVE of ``hexes`` this turn (None: no
    MOVE line; ``moved_3a``: she moved in this turn's Shadowed movement), fuel paid, one-turn markers off."""
    y = dict(x, hex=start)
    if hexes is not None:
        y["fuel"] = x["fuel"] - M.fuel_cost(x["speed"], x["moved_last"], hexes)
        y["moved_last"] = hexes
        y["no_mvt"] = {"VS": 4, "S": 2}.get(x["speed"], x["no_mvt"])
    elif not moved_3a:
        y["moved_last"] = 0
    if "port" in x["markers"] or "refuel" in x["markers"]:
        y["fuel"] = min(x["fuel_max"], y["fuel"] + (2 if x["cls"] == "DD" and "refuel" in x["markers"] else 4))
    y["no_mvt"] = max(0, y["no_mvt"] - 1)
    y["markers"] = [m for m in x["markers"] if m not in ONE_TURN]
    return y


def note(line: str) -> str:
    """What the acknowledgement says of an accepted line: when it is used, and when it may not be."""
    uid = line.split()[2]
    return (t_('%(line)s: for the next turn only. If %(uid)s is Shadowed then, it moves (or stays) so without a Shadowed-movement window; if the order can no longer be carried out then (damage, fuel, an Evasion Maneuver, the unit split or changed) you are told why and the window opens as usual; if %(uid)s is not Shadowed, it moves with the main orders [7.1]', line=line, uid=uid))


# --- using the lines (from the state) ----------------------------------------------------------------
def lines(w: Work, side: str) -> list[list[str]]:
    return [ws for ws in w.std_lines(side, "IF") if len(ws) > 5 and ws[1].upper() == "SHADOWED"]


def order_of(ws: Sequence[str]) -> Move | Stay:
    uid = ws[2]
    return Stay(uid) if ws[4].upper() == "STAY" else Move(uid, tuple(ws[6:]))


def why_not(w: Work, side: str, o: Move | Stay) -> str:
    """'' if the order can be carried out now, else why not."""
    ships = w.unit_ships(o.unit)
    if not ships or w.unit_of(ships[0].id) != o.unit:
        return t_('there is no unit %(unit)s now', unit=o.unit)
    if isinstance(o, Stay):
        return ""
    own: list[dict[str, Any]] = [to_json(x) for x in w.afloat(side)]
    return M.check_path(side, [to_json(x) for x in ships], list(o.path), own)


def usable(w: Work, side: str, units: Sequence[str]) -> tuple[dict[str, Move | Stay], dict[str, str]]:
    """For the side's Shadowed ``units``: the orders that can be carried out now, and why the others cannot."""
    ok: dict[str, Move | Stay] = {}
    bad: dict[str, str] = {}
    for ws in lines(w, side):
        o = order_of(ws)
        if o.unit not in units:
            continue
        why = why_not(w, side, o)
        if why:
            bad[o.unit] = why
        else:
            ok[o.unit] = o
    return ok, bad


def lapse(w: Work, side: str, shadowed: Sequence[str]) -> None:
    """The side's IF SHADOWED orders end with this turn's Shadowed movement; say which were not needed."""
    idle, gone = [], []
    for ws in lines(w, side):
        w.drop_standing(side, " ".join(ws))
        ships = w.unit_ships(ws[2])
        if not ships or w.unit_of(ships[0].id) != ws[2]:
            gone.append(ws[2])
        elif ws[2] not in shadowed:
            idle.append(ws[2])
    if idle:
        w.tell(side, t_('not Shadowed this turn, so they move with the main orders: %(v)s; their IF SHADOWED orders lapse', v=', '.join(idle)))
    if gone:
        w.tell(side, t_('no unit is called %(v)s any more (sunk, split or joined): its IF SHADOWED order lapses', v=', '.join(gone)))
