"""Which phase the game is in and who owes orders [R 3, 3.1; digest 4.2-4.3].

Each stage is two ordinary phases, one message per side: ``de-move`` (German movement, then the
combat phase with German initiative) and ``gb-move`` (British movement, then combat with British
initiative).  Reactive and mutual fire are decided by standing orders; a reactive decision that
no standing order covers (policy ASK) opens an interrupt window, ``gb-react`` or ``de-react``.
"""
from __future__ import annotations

from pbem.core.ruleset import Phase, Window

from .setup import side_seats
from .state import State

STEP_TITLES = {
    "setup": "setup: place aircraft and AA guns",
    "de-move": "German movement and combat with German initiative (phases 1-2)",
    "gb-react": "British reactive fire (phase 2, interrupt)",
    "gb-move": "British movement and combat with British initiative (phases 3-4)",
    "de-react": "German reactive fire (phase 4, interrupt)",
    "over": "game over",
}


def active_seats(state: State, side: str) -> set[str]:
    """Seats of ``side`` with an aircraft to move or bring in this stage."""
    out = set()
    for a in state.aircraft:
        if a.side != side:
            continue
        if a.status == "board" or (a.status == "due" and a.due_stage <= state.stage) or \
                (a.status == "off" and 0 < a.return_stage <= state.stage):
            out.add(a.seat)
    return out


def awaiting(state: State) -> frozenset[str]:
    step = state.step
    if step == "setup":
        return frozenset(s for s in state.seat_names
                         if any(a.seat == s and a.status == "board" for a in state.aircraft)
                         or any(g.seat == s for g in state.guns))
    if step in ("de-move", "gb-move"):
        return frozenset(active_seats(state, step[:2]))
    if step in ("gb-react", "de-react"):
        return frozenset(x["seat"] for x in state.pending_data().get("asks", []))
    return frozenset()


def phase(state: State) -> Phase | None:
    if state.step == "over":
        return None
    wait = awaiting(state)
    title = STEP_TITLES[state.step]
    if state.step == "setup":
        return Phase(0, "setup", wait, "Setup", prompt="place your aircraft (PLACE) and AA guns (AA), or send PASS "
                     "to keep the default placement [R 9.3, 6.0]")
    optional: frozenset[str] = frozenset()
    if state.step == "gb-move":
        optional = frozenset(g.seat for g in state.guns if not g.destroyed) - wait
    if state.step.endswith("react"):
        return Phase(state.stage, state.step, wait, f"Stage {state.stage}: {title}", window=Window.INTERRUPT,
                     hours=12, prompt="decide REACT <aircraft> FIRE or HOLD for each aircraft listed")
    prompt = "give MOVE for each aircraft (missing: straight ahead at minimum speed), then FIRE/BOMB/UNJAM"
    if state.step == "gb-move":
        prompt = "give MOVE for each aircraft (missing: straight ahead at minimum speed), then FIRE/AAFIRE/UNJAM"
    return Phase(state.stage, state.step, wait, f"Stage {state.stage}: {title}", optional=optional, prompt=prompt)


def seats_of_side(state: State, side: str) -> tuple[str, ...]:
    return side_seats(state.seat_names, side)
