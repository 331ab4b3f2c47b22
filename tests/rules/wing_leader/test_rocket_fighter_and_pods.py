"""Advanced rules 13.1 (altitude errors), 13.4.3 (the Lufbery circle), 13.5.6 (gun pods), 13.7 (takeoff and
carriers) and 13.8.2 (the Me 163): known answers derived from the digest (T1, T4, T6, T8-T12, E4) and the rules'
own numbers; whole games are in the goldens (jets, carrier)."""
from __future__ import annotations

import dataclasses

import pytest

from pbem.core.dice import SeededDice
from pbem.core.errors import RulesetDefinitionError
from pbem.rules.wing_leader import RULESET, altitude_error, combat, jets, lufbery, movement, rocket_fighter, tactics, takeoff, tally, weapons
from pbem.rules.wing_leader.sky import HEADINGS, distance, parse
from pbem.rules.wing_leader.model import DESTROYED
from pbem.rules.wing_leader.ruleset import ADVANCED

from .helpers import refused, sq, state

SEED = b"wing leader rule 13 pods and rockets, 32 bytes"


def jets_game() -> object:
    return RULESET.setup("jets", RULESET.info.resolve_options({}), SeededDice(SEED, "s"))


def me163(at: str = "W9", **kw: object) -> object:
    base = dict(flight=True, fuel=10, power="full", alert=True)
    base.update(kw)
    return sq("R", "axis", "me163", "intercept", at, "W", **base)


# --- 13.5.6 gun pods -------------------------------------------------------------------------------------------

def test_a_gun_pod_adds_one_firepower_and_costs_speed_and_turn_like_a_load():
    """T9 (13.5.6): a Bf 109G-6 (firepower 3, speed 6 turn 4 at altitude 10) with a gun pod confirms hits with
    4 and flies at 5/3; without it 3 and 6/4."""
    bare = sq("S", "axis", "bf109g6", "intercept", "M10")
    podded = bare.move(gun_pod="gun")
    assert combat.firepower(bare) == 3 and combat.firepower(podded) == 4
    assert bare.basic() == (6, 4) and podded.basic() == (5, 3)


def test_pod_strafing_bonus_gun_and_at_pods():
    """T9 (13.5.6, 15.3.7): a Gun Pod adds 1 to strafing firepower, an AT Pod 2, or 4 against a tank, truck,
    train or ship."""
    gun = sq("S", "axis", "bf109g6", "sweep", "M1", gun_pod="gun")
    at = sq("H", "allies", "hurricane", "sweep", "M1", gun_pod="at")
    assert weapons.pod_strafing(gun, "bunker") == 1 and weapons.pod_strafing(gun, "ship") == 1
    assert weapons.pod_strafing(at, "bunker") == 2
    assert [weapons.pod_strafing(at, k) for k in ("tank", "truck", "train", "ship")] == [4, 4, 4, 4]
    assert weapons.pod_strafing(sq("X", "axis", "bf109g6", "sweep", "M1"), "ship") == 0


def test_setup_refuses_pods_without_the_ability_the_rule_or_with_bombs_or_rockets():
    """T8 (13.5.1, 13.5.6): a pod needs the card's ability and the rule; it excludes bombs and rockets."""
    uses = lambda rule: True   # noqa: E731
    with pytest.raises(RulesetDefinitionError, match="13.5.6"):
        weapons.fitted(sq("A", "allies", "p47d", "sweep", "D14"), {"gun_pod": "gun"}, {}, uses)
    with pytest.raises(RulesetDefinitionError, match="13.5.6"):
        weapons.fitted(sq("S", "axis", "bf109g6", "sweep", "D14"), {"gun_pod": "gun"}, {}, lambda rule: False)
    with pytest.raises(RulesetDefinitionError, match="13.5.1"):
        weapons.fitted(sq("S", "axis", "bf109g6", "sweep", "D14", bombs=True), {"gun_pod": "gun"}, {}, uses)
    fitted = weapons.fitted(sq("S", "axis", "bf109g6", "sweep", "D14"), {"gun_pod": "gun"}, {}, uses)
    assert fitted.gun_pod == "gun" and weapons.equipment(fitted) == "gun pod (13.5.6)"


# --- 13.8.2 the Me 163 -----------------------------------------------------------------------------------------

def test_the_jets_scenario_fields_an_me163_flight_with_ten_fuel():
    """13.8.2: the jets scenario's Me 163 is a flight with 10 fuel points at full power; the sections are built."""
    s = jets_game()
    r = next(q for q in s.squadrons if q.id == "R")
    assert (r.flight, r.fuel, r.power) == (True, 10, "full")
    assert {"13.5.6", "13.8.2"} <= set(ADVANCED)


def test_an_me163_must_be_a_flight_and_needs_the_rule():
    """13.8.2: Me 163s fly only in flights; a scenario without 13.8.2 cannot field one."""
    squadron = sq("R", "axis", "me163", "intercept", "W9")
    with pytest.raises(RulesetDefinitionError, match="only in flights"):
        rocket_fighter.fitted(squadron, lambda rule: True)
    with pytest.raises(RulesetDefinitionError, match="13.8.2"):
        rocket_fighter.fitted(squadron.move(flight=True), lambda rule: False)


def test_five_turns_of_full_power_empty_the_tanks_then_minimum_is_forced_and_kept():
    """T12: full power 2 fuel a turn: 10 fuel lasts five turns; on the sixth only minimum is open; once minimum,
    half and full are refused even with fuel (for good); with 1 fuel left full is refused, half allowed; no fuel
    is spent in the turn of takeoff."""
    r = me163()
    for _turn in range(5):
        r, _ = rocket_fighter.set_power(r, "full")
        assert r.power == "full"
    assert r.fuel == 0
    r, text = rocket_fighter.set_power(r, "full")
    assert r.power == "minimum" and "full is not open to it" in text
    locked = me163(fuel=6, power="minimum")
    assert rocket_fighter.mode_problem(locked, "half") == ("R chose minimum power: half and full power are closed "
                                                           "for the rest of the game")
    one = me163(fuel=1)
    assert rocket_fighter.mode_problem(one, "full").startswith("full power needs 2 fuel and R has 1")
    assert rocket_fighter.mode_problem(one, "half") is None
    assert rocket_fighter.chosen(one, "full") == "half"
    assert rocket_fighter.set_power(me163(), "full", took_off=True)[0].fuel == 10


def test_power_sets_movement_points_speed_turn_and_high_speed():
    """13.8.2: full 4 MP, the values before the slash, high speed; half 3 MP, the values after it (placeholder
    5/2), no high speed; minimum 2 MP, Slow (0/0); the descent bonus on top."""
    st = state(scenario="jets")
    full, half, low = me163(), me163(power="half"), me163(power="minimum")
    assert [movement.allowance(x) for x in (full, half, low)] == [4, 3, 2]
    assert movement.allowance(half, dive=True) == 4
    assert full.basic() == (8, 2) and half.basic() == (5, 2) and low.basic() == (0, 0)
    assert [jets.high_speed(st, x) for x in (full, half, low)] == [True, False, False]


def test_the_r_climb_at_full_power_costs_one_mp_a_level():
    """E4 (13.8.2): at full power 4 MP climb 4 levels; at half power 3 MP climb only 2 (1 + 2); at minimum power
    no climb at all."""
    climb = ["W10", "W11", "W12", "W13"]
    assert movement.walk(me163(), climb, 4).at == (22, 13)
    with refused("8.3"):
        movement.walk(me163(power="half"), climb[:3], 3)
    assert movement.walk(me163(power="half"), climb[:2], 3).spent == 3
    with refused("13.8.2"):
        movement.walk(me163(power="minimum"), climb[:1], 2)


def test_minimum_power_sinks_a_level_and_is_lost_at_altitude_zero():
    """13.8.2: a minimum-power flight whose move stayed level sinks one altitude; one coming down to 0 is removed
    with all its aircraft (the flight's maximum losses, 2 in the jets scenario)."""
    st = state(scenario="jets")
    start = me163("W5", power="minimum", fuel=0)
    moved, text = rocket_fighter.after_move(st, start, start.move(at=(21, 5)))
    assert moved.at == (21, 4) and "sinks one altitude" in text
    low = me163("W1", power="minimum", fuel=0)
    gone, text = rocket_fighter.after_move(st, low, low.move(at=(21, 0)))
    assert gone.status == DESTROYED and gone.losses == 2 and "removed" in text
    full = me163("W5")
    assert rocket_fighter.after_move(st, full, full.move(at=(21, 5)))[1] == ""


# --- 13.1 altitude errors --------------------------------------------------------------------------------------

def test_an_altitude_error_moves_the_vector_at_most_two_squares_as_the_policy_says():
    """T1 (13.1): DOWN and UP move it two altitudes (one at the map's edge, none when it cannot); AWAY to the
    square within two steps farthest from the opponent's squadrons; never more than two squares."""
    v = parse("N14")
    allies = [parse("D14"), parse("C15")]
    assert altitude_error.displaced(v, "DOWN", allies) == parse("N12")
    assert altitude_error.displaced(v, "UP", allies) == parse("N16")
    assert altitude_error.displaced(parse("N18"), "UP", allies) == parse("N19")
    assert altitude_error.displaced(parse("N0"), "DOWN", allies) == parse("N0")
    assert altitude_error.displaced(v, "AWAY", allies) == parse("P12")
    assert altitude_error.displaced(v, "AWAY", []) == v
    for policy in ("AWAY", "DOWN", "UP"):
        for square in ("A0", "N14", "Z19", "B1"):
            assert distance(altitude_error.displaced(parse(square), policy, allies), parse(square)) <= 2


# --- 13.4.3 the Lufbery circle ---------------------------------------------------------------------------------

def test_who_may_enter_a_lufbery_circle():
    """T6 (13.4.3): an alert, unbroken fighter; not unalert, broken, returning to base, a single aircraft (also
    one loss short of its maximum, the 13.6 reading) or with an enemy in its square."""
    st = state(scenario="jets")
    a = sq("A", "allies", "p47d", "sweep", "D14", alert=True)
    assert lufbery.enter_problem(st, a, [a]) is None
    assert "unalert" in lufbery.enter_problem(st, a.move(alert=False), [a])
    assert "broken" in lufbery.enter_problem(st, a.move(broken=True), [a])
    assert "returning to base" in lufbery.enter_problem(st, a.move(mission="rtb"), [a])
    assert "single aircraft" in lufbery.enter_problem(st, a.move(losses=3), [a])   # max losses 4 in jets
    enemy = sq("K", "axis", "me262", "intercept", "D14")
    assert "enemy" in lufbery.enter_problem(st, a, [a, enemy])
    assert "does not use" in lufbery.enter_problem(state(scenario="sweep"), a, [a])


def test_entering_turns_horizontal_and_an_escort_becomes_a_sweep():
    """13.4.3, 9.2.2: the circle faces east or west; an escort entering it is a Sweep (a former escort)."""
    e = sq("A", "allies", "p47d", "escort", "D14", "NW", alert=True)
    inside = lufbery.enter(e)
    assert inside.lufbery and inside.mission == "sweep" and inside.former_escort
    assert HEADINGS[inside.heading] == "W"
    assert HEADINGS[lufbery.enter(e.move(heading=HEADINGS.index("N"))).heading] == "E"


def test_a_circle_is_never_bounced_never_evades_and_defends_with_its_modifier():
    """T4, T6 (13.4.1-13.4.3): a lone unalert fighter is bounced, the same squadron in a circle is not; it does
    not evade though its order says YES; its lead gets the placeholder +1; broken or dogfighting, it is out of
    the circle."""
    st = state(scenario="jets")
    k = sq("K", "axis", "me262", "intercept", "M14", alert=True, tally="A", entered_from=parse("N14"))
    d = sq("D", "allies", "p47d", "sweep", "M14", alert=False)
    assert tactics.bounce(st, k, [d], [k], [k, d]) == "D is unalert"
    circling = d.move(alert=True, lufbery=True)
    assert tactics.bounce(st, k, [circling], [k], [k, circling]) == ""
    slow = sq("X", "axis", "bf109g6", "sweep", "M14", alert=True)
    assert tactics.evades(st, slow, [d.move(alert=True)], "", "YES")
    assert not tactics.evades(st, slow, [circling], "", "YES")
    assert lufbery.defence_modifier(st, circling) == 1 and lufbery.defence_modifier(st, d) == 0
    assert not lufbery.in_circle(circling.move(broken=True)) and not lufbery.in_circle(circling.move(dogfight=True))


# --- 13.7 takeoff and carriers ---------------------------------------------------------------------------------

def carrier_game() -> object:
    return RULESET.setup("carrier", RULESET.info.resolve_options({}), SeededDice(SEED, "c"))


def test_squadrons_wait_on_their_base_and_one_a_base_takes_off():
    """T11 (13.7): the carrier scenario's Zeros wait on C1 (L from turn 1, M from turn 2) and A1 (N from turn
    2); on turn 1 only L goes, facing the enemy's edge by default, or the one its owner names."""
    s = carrier_game()
    by = {q.id: q for q in s.squadrons}
    assert [by[x].base for x in "LMN"] == ["C1", "C1", "A1"] and by["L"].status == "waiting"
    assert by["L"].at == s.surface("C1").at
    assert [(q.id, f) for q, f in takeoff.launches(s, {})] == [("L", "W")]
    assert [(q.id, f) for q, f in takeoff.launches(s, {"L": "E"})] == [("L", "E")]
    assert takeoff.takeoff_problem(s, by["M"]) == "M may take off from turn 2 on"


def test_no_takeoff_from_heavy_damage_or_an_immobile_carrier_and_a_launching_carrier_defends_at_zero():
    """T11 (13.7, 13.7.1, 14.1.1, 14.1.3): heavy damage or an immobile carrier stop takeoffs; a carrier counts
    defensive modifier 0 in the turn it launched; a squadron that took off is Slow (speed and turn 0)."""
    s = carrier_game()
    c1 = s.surface("C1")
    assert takeoff.base_problem(c1) is None
    assert "heavy damage" in takeoff.base_problem(c1.hit(4))
    assert "immobile" in takeoff.base_problem(dataclasses.replace(c1, immobile_at_start=True))
    assert c1.defence_against(turn=3) == 1
    assert dataclasses.replace(c1, launched_turn=3).defence_against(turn=3) == 0
    zero = next(q for q in s.squadrons if q.id == "L")
    up = takeoff.placed(zero, c1, "E")
    assert up.on_map and up.slow and up.basic() == (0, 0) and up.move(slow=False).basic() != (0, 0)


def test_a_squadron_in_a_lufbery_circle_has_no_behind_for_its_tally():
    """13.4.3, 8.1.2: a target behind costs -2 to tally (7.2.2), not from a squadron in a Lufbery circle."""
    st = state(scenario="jets")
    a = sq("A", "allies", "f6f", "sweep", "M14", "E", alert=True)   # no Rear View
    k = sq("K", "axis", "me262", "intercept", "J14", "E")
    names = [m.why for m in tally.modifiers(st.sky, a, k)]
    assert "target behind" in names
    assert "target behind" not in [m.why for m in tally.modifiers(st.sky, a.move(lufbery=True), k)]
