"""Fixtures for the Sky of WWII tests: build exact positions and drive one phase at a time."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import SeededDice
from pbem.core.flow import Flow
from pbem.core.play import check_text
from pbem.core.work import Work

from pbem.rules.sky_ww2 import RULESET
from pbem.rules.sky_ww2.asks import first_flow, pending_of
from pbem.rules.sky_ww2.setup import new_game
from pbem.rules.sky_ww2.standing import RULES, read_back
from pbem.rules.sky_ww2.state import State
from pbem.rules.sky_ww2.turn import advance


def position(aircraft: dict, *, options: dict | None = None, initiative: str = "coalition",
             deck: list[str] | None = None, ground: dict | None = None, seed: bytes = b"t",
             tweak=None) -> State:
    """A round-1 position with the given aircraft, advanced to the first decision (with the turn cadence,
    a window per aircraft turn, unless ``options`` say otherwise).

    ``aircraft`` maps ids (c1.., x1..) to dicts with number, alt, cell, facing, hand and
    optionally damaged, markers, done, attached, seat.  Unlisted preset aircraft are removed.
    """
    opts = RULESET.info.resolve_options({"aircraft": 3, "cadence": "turn", **(options or {})})
    g = new_game("quick", opts, SeededDice(seed, "setup"))
    doc = g.doc
    base = dict(doc["aircraft"]["c1"])
    keep = {}
    for aid, spec in aircraft.items():
        side = "coalition" if aid.startswith("c") else "axis"
        a = dict(base, id=aid, side=side, seat=spec.get("seat", f"{side}-1"), number=spec["number"],
                 placed=True, alt=spec["alt"], cell=list(spec["cell"]), facing=spec["facing"],
                 hand=list(spec.get("hand", [])), damaged=spec.get("damaged", False),
                 markers=spec.get("markers", 0), done=spec.get("done", False),
                 attached=list(spec.get("attached", [])), destroyed=False, rescue=None, next_discard=[])
        keep[aid] = a
    doc["aircraft"] = keep
    for side in ("coalition", "axis"):
        standing(doc, f"{side}-1", " ".join(["SEQUENCE"] + sorted(a for a in keep if keep[a]["side"] == side)))
        if ground and side in ground:
            for slot, obj in zip(doc["ground"][side], ground[side], strict=False):
                slot["obj"] = obj
    if deck is not None:
        doc["deck"] = list(deck)
    doc["discard"] = []
    doc["initiative"] = initiative
    doc["last_side"] = None
    doc["round"] = 1
    doc["turn"] = None
    doc["over"] = None
    doc["vp"] = {"coalition": 0, "axis": 0}
    if tweak:
        tweak(doc)
    g.asked = None
    kept = Flow.load(doc["flow"]).standing
    g.work = Work(Flow("setup", 1, standing=kept), RULESET.seats(g.freeze()), SeededDice(seed, "advance"))
    advance(g)
    # the decision is numbered after set-up's own, as when the game runs on from set-up
    doc["flow"] = replace(first_flow(g), counter=Flow.load(doc["flow"]).counter + 1).dump()
    return g.freeze()


def standing(doc: dict, seat: str, *lines: str) -> None:
    """Give ``seat``'s standing-order lines to the position ``doc``, as one order file would."""
    side = next(s["side"] for s in doc["seats"] if s["name"] == seat)
    flow = Flow.load(doc["flow"])
    store = RULES.apply(flow.standing, seat, side, [read_back(t) for t in lines])[0]
    doc["flow"] = replace(flow, standing=store).dump()


def edit(state: State, fn) -> State:
    g = state.thaw()
    fn(g.doc)
    return g.freeze()


def step(state: State, bodies: dict[str, str], dice=None):
    """Check each awaited seat's body (asserting it is accepted) and resolve the phase."""
    phase = RULESET.phase(state)
    assert phase is not None
    orders = {}
    for seat in sorted(phase.awaiting | set(bodies)):
        body = bodies.get(seat)
        if body is None:
            orders[seat] = RULESET.default_orders(state, seat)
            continue
        parsed, problems = check_text(RULESET, state, seat, body)
        assert not problems, [str(p) for p in problems]
        orders[seat] = parsed
    res = RULESET.resolve(state, orders, dice or SeededDice(b"t", f"resolve/{phase.key}"))
    return res.state, [e.text for e in res.events]


def problems(state: State, seat: str, body: str) -> list:
    return check_text(RULESET, state, seat, body)[1]


def doc(state: State) -> dict:
    return state.read()


def pending(state: State) -> dict | None:
    return pending_of(Flow.load(doc(state)["flow"]))


def working(state: State, seed: bytes = b"t"):
    """A working copy with a Work of its own, to call the game's internals directly."""
    return state.thaw(Work(RULESET.steps.flow(state), RULESET.seats(state), SeededDice(seed, "working")))
