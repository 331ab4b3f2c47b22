"""Two movement readings made options: turning in place in the target's square [7.2.3, AMB-29] and the cost of
an about-turn in a Balbo [9.5.6, AMB-23]; each default keeps the proposed reading."""
from __future__ import annotations

from dataclasses import replace

from pbem.rules.wing_leader import RULESET, movement
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.moves import _must_stay
from pbem.rules.wing_leader.parsing import parse_move

from .helpers import refused, sq, state


def test_the_options_default_to_the_proposed_readings():
    options = {o.name: (o.default, o.choices) for o in RULESET.info.options}
    assert options["target_turn"] == ("turn", ("turn", "stay"))
    assert options["balbo_about_turn"] == ("1", ("1", "2"))


def _in_the_targets_square(*options: tuple[str, str]):
    a = sq("A", "allies", "spitfire9", "sweep", "M10", heading="E", tally="K", alert=True)
    k = sq("K", "axis", "fw190a4", "intercept", "M10", heading="W", alert=True)
    return replace(state(a, k), options=options)


def test_a_squadron_in_its_targets_square_turns_in_place_or_not_at_all():
    """7.2.3, AMB-29: A starts in K's square. It may turn to W by default; under ``target_turn = stay`` the
    turn is refused at ingest (the view carries the option) and skipped when it moves."""
    turn, stay = _in_the_targets_square(), _in_the_targets_square(("target_turn", "stay"))
    assert parse_move(["A", "W"], RULESET.view(turn, "allies"), "allies").text() == "MOVE A W"
    seen = RULESET.view(stay, "allies")
    assert seen["options"] == {"target_turn": "stay"}
    with refused("7.2.3"):
        parse_move(["A", "W"], seen, "allies")
    assert _must_stay(Air(turn, None), turn.squadron("A"), ["W"]) is None
    assert "must stay" in _must_stay(Air(stay, None), stay.squadron("A"), ["W"])
    assert _must_stay(Air(stay, None), stay.squadron("A"), []) is None   # staying put is always allowed
    for position_ in (turn, stay):   # flying out is refused either way
        with refused("7.2.3"):
            parse_move(["A", "N10"], RULESET.view(position_, "allies"), "allies")


def test_an_about_turn_in_a_balbo_costs_one_mp_or_two():
    """9.5.6, AMB-23: a Balbo squadron heading E turns back W (L10 from M10): 1 MP for the about-turn plus 1
    to enter, or 2 plus 1; outside a Balbo an about-turn costs 1 MP either way (8.1.1)."""
    a = sq("A", "allies", "spitfire9", "sweep", "M10", heading="E")
    once = movement.walk(a, ["L10"], 4, balbo=True)
    twice = movement.walk(a, ["L10"], 4, balbo=True, balbo_about=2)
    assert twice.spent == once.spent + 1
    assert movement.walk(a, ["L10"], 4, balbo_about=2).spent == movement.walk(a, ["L10"], 4).spent
    with refused("8.3"):   # the about-turn took the MP the entry needs
        movement.walk(a, ["L10"], once.spent, balbo=True, balbo_about=2)
