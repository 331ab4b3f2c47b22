"""AMB-14 as option ``jam_reading``: whether the squadrons that fought in the previous Combat Phase jam their
nets in the Tally Phase [9.4.2] (the literal reading: only dogfights do, as no combat comes before it)."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.play import play
from pbem.rules.wing_leader import RULESET, radio, wings
from pbem.rules.wing_leader.parsing import position
from pbem.rules.wing_leader.tally_phase import jammed_now
from pbem.rules.wing_leader.views import view

from .helpers import sq, state

SEED = b"wing leader jamming seed, 32 b!!"


def _wing(*, fought: tuple[str, ...], reading: str | None):
    """The sweep scenario's Axis wing K, L (leader K) on the Axis net, and a Spitfire A; ``fought``: who
    fought in the last Combat Phase."""
    k = sq("K", "axis", "fw190a4", "intercept", "O13", heading="W", alert=True)
    lone = sq("L", "axis", "fw190a4", "intercept", "P13", heading="W", alert=True)
    a = sq("A", "allies", "spitfire9", "sweep", "H13", heading="E", alert=True)
    options = (("jam_reading", reading),) if reading else ()
    return replace(state(k, lone, a, step="defender_tally"), options=options, fought_last=fought)


def test_the_option_defaults_to_the_literal_reading():
    options = {o.name: (o.default, o.choices) for o in RULESET.info.options}
    assert options["jam_reading"] == ("dogfights", ("dogfights", "combats"))


def test_a_combat_last_phase_jams_the_net_only_under_the_combats_reading():
    """K fought in the last Combat Phase: under ``combats`` the Axis net is jammed, so K's wing gives one order
    only [9.4.2 item 2] and no radio tally bonus applies [item 1]; by default nothing changes."""
    for reading, jammed, allowed in ((None, set(), None), ("dogfights", set(), None), ("combats", {"axis"}, 1)):
        position_ = _wing(fought=("K",), reading=reading)
        assert jammed_now(position_) == jammed, reading
        assert wings.orders_allowed(position_, position_.squadron("K")) == allowed, reading
    quiet = _wing(fought=(), reading="combats")
    assert jammed_now(quiet) == set() and wings.orders_allowed(quiet, quiet.squadron("K")) is None


def test_the_radio_bonus_is_lost_under_the_combats_reading():
    """9.4 b: L tallied A; K rolling for A gets the net's bonus unless K's net is jammed."""
    for reading, bonus in (("dogfights", True), ("combats", False)):
        position_ = _wing(fought=("K",), reading=reading)
        position_ = replace(position_, squadrons=tuple(s.move(tally="A") if s.id == "L" else s
                                                       for s in position_.squadrons))
        k, a = position_.squadron("K"), position_.squadron("A")
        mods = radio.modifiers(position_, k, a, jammed_now(position_))
        assert bool(mods) == bonus, (reading, mods)


def test_the_view_carries_the_own_fighters_for_the_ingest_check_and_only_under_the_option():
    """Orders are checked against a view: it carries the option and the own side's squadrons that fought, so
    the one-order limit is checked at ingest; by default views stay as they were."""
    chosen = _wing(fought=("K", "A"), reading="combats")
    seen = view(chosen, "axis")
    assert seen["fought_last"] == ["K"] and seen["options"] == {"jam_reading": "combats"}
    assert view(chosen, "allies")["fought_last"] == ["A"]
    again = position(seen)
    assert wings.orders_allowed(again, again.squadron("K")) == 1
    plain = view(_wing(fought=("K",), reading=None), "axis")
    assert "fought_last" not in plain and "options" not in plain


def test_a_played_game_keeps_the_last_combat_phases_fighters():
    """In a whole bot game under ``combats`` the state after each Combat Phase names who fought in it, and the
    next Tally Phase's jamming reads it."""
    steps = play(RULESET, "dogfight", SEED, options={"jam_reading": "combats"}, max_phases=40)
    kept = [s.state for s in steps if s.state.fought_last]
    assert kept, "no combat in 40 phases"
    assert any(jammed_now(s) for s in kept if s.flow.step.endswith("tally"))
