"""The game's steps as the kit's table, and what resolving each does [R 3, 3.1; digest 4.2-4.3].

Each stage is two ordinary phases, one message per side: ``de-move`` (German movement, then the
combat phase with German initiative) and ``gb-move`` (British movement, then combat with British
initiative).  Reactive and mutual fire are decided by standing orders; a reactive decision that
no standing order covers (policy ASK) suspends the combat phase in an interrupt window,
``gb-react`` or ``de-react``, for the asked seats only; silence holds fire.  The stage is the
kit's turn; the setup is turn 0.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.flow import OVER, Flow
from pbem.core.interrupts import Ask
from pbem.core.phases import ResolveFn, Step, Steps
from pbem.core.ruleset import Seat, Window
from pbem.core.texts import t_
from pbem.core.work import Work

from . import attacks, flight
from .orders import Action, Order, action_data, action_from_data, merge, of_type
from .state import State
from .world import OTHER, World

STEP_TITLES = {
    "setup": t_("setup: place aircraft and AA guns"),
    "de-move": t_("German movement and combat with German initiative (phases 1-2)"),
    "gb-react": t_("British reactive fire (phase 2, interrupt)"),
    "gb-move": t_("British movement and combat with British initiative (phases 3-4)"),
    "de-react": t_("German reactive fire (phase 4, interrupt)"),
    "over": t_("game over"),
}
SIDE_TITLES = {"de": t_("German"), "gb": t_("British")}
REACT_PROMPT = t_("decide REACT <aircraft> FIRE or HOLD for each aircraft listed")
Orders = Mapping[str, Sequence[Order]]


def move_prompt(actions: str) -> str:
    return t_("give MOVE for each aircraft (missing: straight ahead at minimum speed), then %(actions)s",
              actions=actions)


def ask_question(x: Mapping[str, Any]) -> str:
    """The interrupt's question on one reaction (also rebuilt by :mod:`.migrate`)."""
    return t_("%(ac)s: fire at %(target)s?", ac=x["ac"], target=x["target"])


# ------------------------------------------------------------------------------ who acts
def seats(state: State) -> tuple[Seat, ...]:
    def title(s: str) -> str:
        side = s.split("-")[0]
        return SIDE_TITLES[side] if "-" not in s else t_("%(side)s player %(n)s", side=SIDE_TITLES[side], n=s[3:])
    return tuple(Seat(s, s.split("-")[0], title(s)) for s in state.seat_names)


def placing(state: State) -> set[str]:
    """Seats with an aircraft on the board or an AA gun to place [R 9.3, 6.0]."""
    return {s for s in state.seat_names
            if any(a.seat == s and a.status == "board" for a in state.aircraft) or any(g.seat == s for g in state.guns)}


def active_seats(state: State, side: str) -> set[str]:
    """Seats of ``side`` with an aircraft to move or bring in this stage."""
    return {a.seat for a in state.aircraft if a.side == side and (
        a.status == "board" or (a.status == "due" and a.due_stage <= state.stage)
        or (a.status == "off" and 0 < a.return_stage <= state.stage))}


def gunners(state: State) -> set[str]:
    """British seats with a gun left but no aircraft to move: they may change AA standing orders."""
    return {g.seat for g in state.guns if not g.destroyed} - active_seats(state, "gb")


def stage_title(state: State) -> str:
    return t_("Stage %(n)s: %(title)s", n=state.stage, title=STEP_TITLES[state.step])


# ------------------------------------------------------------------------- resolution
def place(w: Work[World], orders: Orders) -> None:
    """The setup: placements as ordered; stage 1 begins."""
    w.data.apply_setup(merge(orders))
    w.new_turn()
    w.say(t_("the aircraft are in their start areas; stage 1 begins"), kind="stage")


def move_phase(side: str) -> ResolveFn:
    """Movement, then the combat phase, of ``side``; suspended when a reaction must be asked."""
    def resolve(w: Work[World], orders: Orders) -> None:
        merged = merge(orders)
        flight.movement_phase(w.data, side, merged)
        actions: list[Action] = of_type(merged, Action)
        asks = attacks.ask_list(w.data, side)
        if asks:
            ask_reactions(w, side, actions, asks)
            return
        attacks.combat_phase(w.data, side, actions, {})
        finish(w, side)
    return resolve


def ask_reactions(w: Work[World], side: str, actions: Sequence[Action], asks: list[dict[str, Any]]) -> None:
    """Open the other side's interrupt window for the reactions no standing order covers [R 5.4, G-31]."""
    for x in asks:
        w.say(t_("%(ac)s has %(target)s on its line of fire: fire or hold?", ac=x["ac"], target=x["target"]),
              to=x["seat"], kind="ask")
    w.interrupt(f"{OTHER[side]}-react",
                [Ask(x["seat"], x["ac"], ask_question(x), "HOLD", ("FIRE", "HOLD")) for x in asks],
                phasing=side, actions=[action_data(a) for a in actions], reactions=asks)


def react(w: Work[World], orders: Orders) -> None:
    """The suspended combat phase resumes with the answers (HOLD for a silent seat)."""
    data = w.resumed.data
    actions = [action_from_data(d) for d in data["actions"]]
    attacks.combat_phase(w.data, data["phasing"], actions, dict(w.answers))
    finish(w, data["phasing"])


def finish(w: Work[World], side: str) -> None:
    """After a combat phase: the end of the game [R 8.1, G-26], or after the British one a new stage."""
    world = w.data
    reason = world.end_reason_now(after_gb_phase=side == "gb")
    if reason:
        world.end_reason = reason
        w.say(t_("the game ends: %(reason)s; VP DE %(de)s, GB %(gb)s", reason=reason, de=world.vp["de"],
                 gb=world.vp["gb"]), kind="end")
        w.goto(OVER)
    elif side == "gb":
        world.new_stage()
        w.say(t_("stage %(n)s begins", n=w.turn), kind="stage")


def own_step_name(state: State, flow: Flow) -> str:
    """An interrupt window keeps its step name: at most one per side and stage, so it never repeats."""
    return flow.step


STEPS: Steps[State, World] = Steps([
    Step("setup", place, next="de-move", who=placing, title=t_("Setup"),
         prompt=t_("place your aircraft (PLACE) and AA guns (AA), or send PASS to keep the default placement "
                   "[R 9.3, 6.0]"), rule="R 9.3"),
    Step("de-move", move_phase("de"), next="gb-move", who=lambda s: active_seats(s, "de"), title=stage_title,
         prompt=move_prompt("FIRE/BOMB/UNJAM"), rule="R 3.0"),
    Step("gb-react", react, next="gb-move", window=Window.INTERRUPT, hours=12, title=stage_title,
         prompt=REACT_PROMPT, phase_name=own_step_name,
         rule="R 5.4"),
    Step("gb-move", move_phase("gb"), next="de-move", who=lambda s: active_seats(s, "gb"), optional=gunners,
         title=stage_title, prompt=move_prompt("FIRE/AAFIRE/UNJAM"), rule="R 3.0"),
    Step("de-react", react, next="de-move", window=Window.INTERRUPT, hours=12, title=stage_title,
         prompt=REACT_PROMPT, phase_name=own_step_name,
         rule="R 5.4"),
], seats=seats, open=World, close=World.freeze, sides=("de", "gb"))


def start(options: Mapping[str, Any]) -> Flow:
    """Where a new game begins: the setup phase, or stage 1 when the engine places the forces."""
    return STEPS.start("de-move", turn=1) if options["setup"] == "auto" else STEPS.start("setup", turn=0)
