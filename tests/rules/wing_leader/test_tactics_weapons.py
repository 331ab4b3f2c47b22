"""Advanced rule 13 as built: drop tanks [13.2], the fuel limit [13.3], the bounce [13.4.1], USAAF heavy bomber
groups [13.5.5] and single aircraft [13.6]; each only where the scenario lists it."""
from __future__ import annotations

import pytest

from pbem.core.dice import SeededDice
from pbem.core.errors import RulesetDefinitionError
from pbem.rules.wing_leader import RULESET, combat, tactics, weapons
from pbem.rules.wing_leader.model import max_losses
from pbem.rules.wing_leader.parsing import plain_problem
from pbem.rules.wing_leader.ruleset import ADVANCED
from pbem.rules.wing_leader.sky import parse
from pbem.rules.wing_leader.tables import scenario

from .helpers import sq, state

SEED = b"wing leader rule 13 tests, 32 bytes"


def jets(**options: object) -> object:
    return RULESET.setup("jets", RULESET.info.resolve_options(dict(options)), SeededDice(SEED, "s"))


def test_drop_tanks_cost_one_speed_and_one_turn_not_twice_with_a_load():
    """T2 (13.2, 3.3.2): a P-47D at altitude 14 (speed 6, turn 3) with drop tanks flies at 5/2; with a bomb
    load as well still 5/2 (one -1, our reading); without either 6/3."""
    bare = sq("A", "allies", "p47d", "escort", "D14")
    assert bare.basic() == (6, 3)
    assert bare.move(drop_tanks=True).basic() == (5, 2)
    assert bare.move(drop_tanks=True, bombs=True).basic() == (5, 2)


def test_drop_tanks_are_jettisoned_in_movement_only_when_alert():
    """T2 (13.2): JETTISON of an unalert squadron's tanks is refused, an alert one's allowed."""
    a = sq("A", "allies", "p47d", "escort", "D14", drop_tanks=True)
    assert plain_problem(state(a), a, "JETTISON") == "A is unalert: drop tanks are jettisoned in movement only when alert"
    alert = a.move(alert=True, mission="sweep")
    assert plain_problem(state(alert), alert, "JETTISON") is None
    bare = a.move(drop_tanks=False)
    assert plain_problem(state(bare), bare, "JETTISON") == "A carries no bomb load"


def test_the_scenario_fits_tanks_groups_single_aircraft_and_the_fuel_limit():
    """13.2, 13.3, 13.5.5, 13.6: the jets scenario's rows: A tanks; B tanks and at the fuel limit (not spared:
    Low Ammo from the start); T and U one group; S a single aircraft with max losses 1."""
    s = jets()
    by = {q.id: q for q in s.squadrons}
    assert by["A"].drop_tanks and by["A"].ammo == 0
    assert by["B"].drop_tanks and by["B"].ammo == 1
    assert by["T"].group == by["U"].group == "446 BG"
    assert by["S"].single and max_losses("jets", by["S"]) == 1 and max_losses("jets", by["K"]) == 4


def test_a_flag_needs_its_rule_and_tanks_need_the_ability():
    """Setup refuses drop tanks where 13.2 is off, and on a card without the Drop Tanks ability."""
    row = {"drop_tanks": True}
    b24 = sq("T", "allies", "b24h", "bombing", "D14")
    with pytest.raises(RulesetDefinitionError, match="13.2"):
        weapons.fitted(b24, row, {}, lambda rule: False)
    with pytest.raises(RulesetDefinitionError, match="has no Drop Tanks"):
        weapons.fitted(b24, row, {}, lambda rule: True)
    spared = weapons.fitted(sq("A", "allies", "p47d", "escort", "D14"), {"drop_tanks": True, "fuel_limit": True},
                            {"fuel_limit_spares_tanks": True}, lambda rule: True)
    assert spared.drop_tanks and spared.ammo == 0


def test_a_heavy_bomber_group_defends_at_plus_one_while_both_are_unbroken():
    """E2 (13.5.5): T and U of one group in one square, both unbroken: T defends at +1 even when U is not in
    the combat; U broken: no bonus; U elsewhere: none."""
    t = sq("T", "allies", "b24h", "bombing", "D14", bombs=True, group="G")
    u = sq("U", "allies", "b24h", "bombing", "D14", bombs=True, group="G")
    game = state(t, u, scenario="jets")
    assert weapons.group_bonus(game, [t], [t, u]) == {"T": 1}
    assert combat.defence([t], combat.SPEED, weapons.group_bonus(game, [t], [t, u])) == 2
    assert weapons.group_bonus(game, [t], [t, u.move(broken=True)]) == {}
    assert weapons.group_bonus(game, [t], [t, u.move(at=parse("E14"))]) == {}
    assert weapons.group_bonus(state(t, u, scenario="raid"), [t], [t, u]) == {}   # 13.5.5 off


def test_a_single_aircraft_and_a_squadron_one_loss_short_fight_at_minus_one():
    """T10 (13.6): a single aircraft's combat speed and turn -1; a squadron of max losses 4 with 3 losses too;
    with 2 losses not; in a basic scenario never."""
    game = state(scenario="jets")
    s = sq("S", "axis", "bf109g6", "intercept", "M15", flight=True, single=True)
    k = sq("K", "axis", "me262", "intercept", "M15")
    assert weapons.combat_penalty(game, s, 1) == -1
    assert weapons.combat_penalty(game, k.move(losses=3), 4) == -1 and weapons.combat_penalty(game, k.move(losses=2), 4) == 0
    assert weapons.combat_penalty(state(scenario="raid"), k.move(losses=3), 4) == 0
    assert combat.rating(s, [s], combat.SPEED, -1) == combat.rating(s, [s], combat.SPEED) - 1


def test_bounce():
    """T4 (13.4.1) in the jets scenario (sun left and high): a lone unalert fighter is bounced; an alert one
    pursuing an attacker is not, even from the sun; two defenders never; a lone bomber only from the sun."""
    game = state(scenario="jets")
    a = sq("A", "allies", "p47d", "sweep", "M14", alert=True, tally="K")
    k = sq("K", "axis", "me262", "intercept", "M14")
    assert tactics.bounce(game, a, [k], [a], [a, k]) == "K is unalert"
    k_alert = k.move(alert=True, tally="A")
    assert tactics.bounce(game, a, [k_alert], [a], [a, k_alert]) == ""
    far = sq("Z", "allies", "p47d", "sweep", "T14")
    k_away = k.move(alert=True, tally="Z")
    assert tactics.bounce(game, a, [k_away], [a], [a, k_away, far]) == "K is pursuing Z outside its square"
    assert tactics.bounce(game, a, [k, k.move(id="L")], [a], [a, k]) == ""
    assert tactics.bounce(state(scenario="raid"), a, [k], [a], [a, k]) == ""   # 13.4.1 off
    bomber = sq("T", "allies", "b24h", "bombing", "M14", bombs=True)
    axis = sq("K", "axis", "me262", "intercept", "M14", alert=True, tally="T")
    sky = game.sky
    sunward = next(parse(f"{c}{h}") for c in "LN" for h in (13, 14, 15) if sky.up_sun(bomber.at, parse(f"{c}{h}")))
    shade = next(parse(f"{c}{h}") for c in "LN" for h in (13, 14, 15) if not sky.up_sun(bomber.at, parse(f"{c}{h}")))
    assert tactics.bounce(game, axis.move(entered_from=sunward), [bomber], [axis], [axis, bomber]) \
        == "K came out of the sun"
    assert tactics.bounce(game, axis.move(entered_from=shade), [bomber], [axis], [axis, bomber]) == ""


def test_the_jets_scenario_lists_only_rules_that_are_built():
    assert set(scenario("jets")["advanced"]) <= set(ADVANCED)


def test_the_jets_scenario_plays_to_its_result_with_rule_13_in_the_events():
    """The bot plays the advanced scenario to its victory-point result; the escorts' tanks go after their first
    combat (13.2), the group's bombers defend at +1 (13.5.5), the Me 163 spends its fuel (13.8.2), an
    altitude error moves a vector (13.1) and fighters enter Lufbery circles (13.4.3).  (The game's seed was chosen so that a 6 comes up for 13.1.)"""
    from pbem.core.play import play
    steps = play(RULESET, "jets", b"wing leader rule 13 jets game 05, 32 bytes", options={"cadence": "single"},
                 max_phases=80)
    assert RULESET.outcome(steps[-1].state) is not None
    texts = [e.text for s in steps for e in s.events]
    assert any("jettisons its drop tanks after the combat (13.2)" in t for t in texts)
    assert any("at +1 in a heavy bomber group (13.5.5)" in t for t in texts)
    assert any(t.startswith("R flies at") and "power" in t and "left (13.8.2)" in t for t in texts)
    assert any("altitude error" in t and "rolled 6" in t for t in texts)
    assert any("enters a Lufbery circle" in t for t in texts)


def test_the_form_and_the_sitrep_show_the_drop_tanks_and_the_group():
    """13.2 in the movement window's form: an unalert escort learns it may jettison only once alert; the
    sitrep's Wing Display carries the advanced markers (text and HTML)."""
    from pbem.core.play import play
    from pbem.render import render_sitrep

    from .test_sitrep import _context
    s = jets(cadence="single")
    form = RULESET.order_form(RULESET.view(s, "allies"), "allies")
    assert "only once alert may it JETTISON them" in form and "(13.2)" in form
    step = play(RULESET, "jets", SEED, options={"cadence": "single"}, max_phases=1)[0]
    seat = next(x for x in RULESET.seats(step.state) if x.name == "allies")
    text, page = render_sitrep("wing_leader", _context(step, seat))
    assert "[group 446 BG (13.5.5)]" in text and "drop tanks (13.2)" in page


def test_long_range_attacks_only_on_bombers_with_no_other_fighter():
    """13.5.2, 13.5.3: rockets fire by default while unexpended; Heavy Guns only when FIRE says LONG; never
    with a fighter defending or a second attacking fighter; expended rockets fire no more."""
    game = state(scenario="jets")
    k = sq("K", "axis", "me262", "intercept", "M14", alert=True, tally="T", rockets=1)
    t = sq("T", "allies", "b24h", "bombing", "M14", bombs=True)
    a = sq("A", "allies", "p47d", "escort", "M14")
    assert weapons.long_range(game, k, [k], [t], "") == "rockets"
    assert weapons.long_range(game, k, [k], [t], "CLOSE") == ""
    assert weapons.long_range(game, k, [k], [t, a], "") == ""
    assert weapons.long_range(game, k, [k, k.move(id="L")], [t], "") == ""
    spent = k.move(rockets=2)
    assert weapons.long_range(game, spent, [spent], [t], "") == ""
    assert weapons.long_range(game, spent, [spent], [t], "LONG") == "guns"
    assert weapons.long_firepower(k, "rockets") == 5 and weapons.long_firepower(k, "guns") == 4
    assert weapons.long_range(state(scenario="raid"), k, [k], [t], "") == ""   # 13.5.3 off


def test_rockets_slow_every_aircraft_but_the_me_262_and_exclude_a_bomb_load():
    """13.5.3, 3.3.2: rockets, fitted or expended, -1 speed and turn (not the Me 262); 13.5.1: not with bombs."""
    p47 = sq("A", "allies", "p47d", "sweep", "D14")
    assert p47.move(rockets=2).basic() == (5, 2)
    me262 = sq("K", "axis", "me262", "intercept", "D14")
    assert me262.move(rockets=1).basic() == me262.basic()
    with pytest.raises(RulesetDefinitionError, match="has no Air-to-Air Rockets"):
        weapons.fitted(p47, {"rockets": True}, {}, lambda rule: True)
    with pytest.raises(RulesetDefinitionError, match="13.5.1"):
        weapons.fitted(me262.move(bombs=True), {"rockets": True}, {}, lambda rule: True)


def test_fire_orders_are_refused_without_the_weapon():
    """FIRE ROCKETS needs rockets fitted (13.5.3); FIRE LONG needs Heavy Guns (13.5.2)."""
    game = state(scenario="jets")
    me262 = sq("K", "axis", "me262", "intercept", "D14")
    assert weapons.fire_problem(game, me262, "ROCKETS") == ("13.5.3", "K is not fitted with air-to-air rockets")
    assert weapons.fire_problem(game, me262, "LONG") is None
    p47 = sq("A", "allies", "p47d", "sweep", "D14")
    assert weapons.fire_problem(game, p47, "LONG") == ("13.5.2", "a P-47D Thunderbolt has no Heavy Guns for a "
                                                       "long-range attack")
    assert weapons.fire_problem(state(scenario="raid"), me262, "LONG")[0] == "13.5.2"


def test_evasion_needs_the_order_the_speed_and_no_bounce():
    """T5 (13.4.2): every defender at least as fast as the attacking lead (Basic Speed), a bomber or an alert
    fighter, not bounced, and its lead's EVADE YES; an unalert fighter may not; off in a basic scenario."""
    game = state(scenario="jets")
    a = sq("A", "allies", "p47d", "sweep", "M15", alert=True, drop_tanks=True)    # speed 5
    s = sq("S", "axis", "bf109g6", "intercept", "M15", alert=True)                # speed 6
    assert tactics.evades(game, a, [s], "", "YES")
    assert not tactics.evades(game, a, [s], "", "NO") and not tactics.evades(game, a, [s], "S is unalert", "YES")
    assert not tactics.evades(game, a, [s.move(alert=False)], "", "YES")
    assert not tactics.evades(game, a.move(drop_tanks=False, marker="dive"), [s], "", "YES")   # 7 > 6
    assert not tactics.evades(state(scenario="raid"), a, [s], "", "YES")
    b24 = sq("T", "allies", "b24h", "bombing", "M15", bombs=True)
    k = sq("K", "axis", "me262", "intercept", "M15", alert=True)
    assert not tactics.evades(game, k, [b24], "", "YES")


def test_evade_ask_stops_before_the_rolls_and_the_answer_decides():
    """13.4.2 with EVADE S ASK: the axis is asked (NO on silence); answering YES, S evades A."""
    from dataclasses import replace

    from pbem.core.dice import SeededDice as Dice
    from pbem.core.flow import Flow
    from pbem.core.orders import OrderLine

    s = jets()
    gone = {"T", "U", "B", "K"}
    moved = tuple(q.move(status="exited") if q.id in gone
                  else q.move(mission="sweep", alert=True, tally="S", at=parse("V15")) if q.id == "A"
                  else q.move(at=parse("X15"), alert=True) if q.id == "S" else q for q in s.squadrons)
    s = replace(s, squadrons=moved, flow=Flow("movement", 1))

    def lines(text: str) -> tuple[OrderLine, ...]:
        return tuple(OrderLine(i + 1, t) for i, t in enumerate(text.splitlines()))

    def resolve(state, orders):
        phase = RULESET.phase(state)
        checked = {seat: RULESET.check_orders(RULESET.view(state, seat), seat, lines(orders.get(seat, "")))
                   for seat in phase.awaiting}
        return RULESET.resolve(state, {seat: c.orders for seat, c in checked.items()}, Dice(SEED, phase.key))

    asked = resolve(s, {"axis": "EVADE S ASK"}).state
    phase = RULESET.phase(asked)
    assert phase.name.startswith("evade_choice") and phase.awaiting == {"axis"}
    form = RULESET.order_form(RULESET.view(asked, "axis"), "axis")
    assert "YES or NO (13.4.2)" in form
    done = resolve(asked, {"axis": "YES"})
    assert any("S evades A" in e.text for e in done.events)


def test_the_me_262_is_at_high_speed_except_climbing():
    """13.8.3: high speed at all times but climbing or under a Climb marker; only where 13.8.3 is used; other
    aircraft never (the placeholder effects: +1 to its combat roll, -2 to escorts reacting to it)."""
    from pbem.rules.wing_leader import jets as jet_rules
    from pbem.rules.wing_leader.model import CLIMB, SLOW_CLIMB
    game = state(scenario="jets")
    k = sq("K", "axis", "me262", "intercept", "M14")
    assert jet_rules.high_speed(game, k) and jet_rules.combat_modifier(game, k) == 1
    assert jet_rules.reaction_modifier(game, k) == -2
    assert not jet_rules.high_speed(game, k.move(marker=CLIMB)) and not jet_rules.high_speed(game, k.move(marker=SLOW_CLIMB))
    assert not jet_rules.high_speed(state(scenario="raid"), k)
    assert not jet_rules.high_speed(game, sq("S", "axis", "bf109g6", "intercept", "M14"))
