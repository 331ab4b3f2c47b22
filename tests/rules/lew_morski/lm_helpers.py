"""Shared helpers for the Lew Morski tests: build positions by hand from a scenario's initial state."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.core.dice import FixedDice
from pbem.core.interrupts import Ask, Pending
from pbem.core.orders import OrderLine
from pbem.core.work import Work
from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.board import parse_hex
from pbem.rules.lew_morski.orders import Policy
from pbem.rules.lew_morski.state import Aircraft, Gun, State
from pbem.rules.lew_morski.world import World


def new_state(scenario: str = "w1", **options: Any) -> State:
    """A game in stage 1 (automatic setup) with the sun on an agreed edge unless given."""
    opts = {"setup": "auto", "sun": "south"}
    opts.update(options)
    return RULESET.setup(scenario, RULESET.info.resolve_options(opts), FixedDice([]))


def put(state: State, ac_id: str, hex_: str, facing: str, alt: str = "HIGH", **kw: Any) -> State:
    """Place an aircraft on the board (and optionally change other fields)."""
    acs = tuple(replace(a, status=kw.pop("status", "board"), hex=parse_hex(hex_), facing=facing, alt=alt, **kw)
                if a.id == ac_id else a for a in state.aircraft)
    return replace(state, aircraft=acs)


def only(state: State, *ids: str) -> State:
    """Take every aircraft except ``ids`` off the board (withdrawn), so a test sees only these."""
    acs = tuple(a if a.id in ids else replace(a, status="withdrawn", hex=None) for a in state.aircraft)
    return replace(state, aircraft=acs)


def add_gun(state: State, gun_id: str, hex_: str) -> State:
    return replace(state, guns=state.guns + (Gun(gun_id, "gb", parse_hex(hex_)),))


def world(state: State, dice: list[int]) -> World:
    """The working data of a resolution of ``state`` with fixed dice (its events: ``world.w.events``)."""
    work: Work[World] = Work(state.flow, RULESET.seats(state), FixedDice(dice))
    work.data = World(state, work)
    return work.data


def at(state: State, step: str, stage: int | None = None) -> State:
    """The state moved to another step (and stage) of the game."""
    return replace(state, flow=replace(state.flow, step=step, turn=state.stage if stage is None else stage))


def asking(state: State, side: str, *reactions: dict[str, Any]) -> State:
    """The state in ``side``'s interrupt window, asked for ``reactions`` (as the view's "ask" lists them)
    while the other side's combat phase, with no actions, waits."""
    asks = tuple(Ask(x["seat"], x["ac"], f"{x['ac']}: fire at {x['target']}?", "HOLD", ("FIRE", "HOLD"))
                 for x in reactions)
    other = "gb" if side == "de" else "de"
    pending = Pending(f"{side}-react", asks, {"phasing": other, "actions": [], "reactions": list(reactions)})
    return replace(state, flow=replace(state.flow, step=f"{side}-react", counter=state.flow.counter + 1,
                                       pending=pending))


def keeping(state: State, *policies: tuple[str, str, str]) -> State:
    """The state with standing orders (unit, kind, value) kept for the units' owners."""
    store = state.flow.standing
    for unit, kind, value in policies:
        owner = next(x.seat for x in state.aircraft + state.guns if x.id == unit)  # type: ignore[operator]
        store, _ = store.change(owner, Policy(unit, kind, value))
    return replace(state, flow=replace(state.flow, standing=store))


def lines(text: str) -> list[OrderLine]:
    return [OrderLine(i + 1, t.strip()) for i, t in enumerate(text.strip().splitlines()) if t.strip()]


def check(state: State, seat: str, text: str):
    return RULESET.check_orders(RULESET.view(state, seat), seat, lines(text))


def ac(state_or_world: Any, ac_id: str) -> Aircraft:
    if isinstance(state_or_world, World):
        return state_or_world.ac[ac_id]
    return state_or_world.ac(ac_id)
