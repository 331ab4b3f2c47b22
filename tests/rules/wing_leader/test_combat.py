"""Air combat [10]: the worked example of 10.5.1, columns, defence, hits, confirmation, cohesion, ammunition."""
from __future__ import annotations

from pbem.rules.wing_leader import combat
from pbem.rules.wing_leader.model import DIVE
from pbem.rules.wing_leader.tables import halve, round_half_up

from .helpers import sq

BF109 = sq("K", "axis", "bf109g6", "intercept", "O14", alert=True, tally="T", marker=DIVE)
B24 = sq("T", "allies", "b24h", "bombing", "O14", bombs=True)


def test_the_worked_air_combat_example():
    """10.5.1 example: a diving Bf 109G-6 attacks a loaded B-24H at altitude 14, hit-and-run: speeds 7
    (6 + dive) and 3 (4 - bomb load), columns +4 and -4; the bombers' defence +1 (+3 turning); the
    Bf 109 rolls 7: 2 hits; the bombers roll 9, 10 modified: 1 hit."""
    assert BF109.basic()[0] == 7 and B24.basic()[0] == 3
    a, d = combat.rating(BF109, [BF109], combat.SPEED), combat.rating(B24, [B24], combat.SPEED)
    assert (combat.column(a, d), combat.column(d, a)) == (4, -4)
    assert combat.defence([B24], combat.SPEED) == 1 and combat.defence([B24], combat.TURN) == 3
    assert combat.hits(4, 7) == 2
    assert combat.hits(-4, 9 + 1) == 1


def test_columns_are_held_within_four():
    """10.5: a difference of +6 reads column +4, -5 reads -4."""
    assert combat.column(9, 3) == 4 and combat.column(1, 6) == -4


def test_extra_armed_fighters_add_one_each_bombers_and_unarmed_nothing():
    """10.2, 10.5.3: lead turn + 1 per other armed fighter squadron."""
    lead = sq("A", "allies", "spitfire9", "sweep", "E10")        # turn 5 in the medium band
    side = [lead, sq("B", "allies", "spitfire9", "sweep", "E10"), sq("C", "allies", "spitfire9", "escort", "E10"),
            sq("T", "allies", "b24h", "bombing", "E10", bombs=True)]
    assert combat.rating(lead, side, combat.TURN) == 7


def test_defence_is_the_best_rating_not_the_sum():
    """10.5.2: defence 1 and 2 give +2; a turning fight +4."""
    side = [B24, sq("U", "allies", "b17g", "bombing", "O14", bombs=True)]
    assert combat.defence(side, combat.SPEED) == 2 and combat.defence(side, combat.TURN) == 4


def test_hits_are_spread_one_each_before_any_second():
    """10.2.2: 3 hits on two squadrons go 2 and 1."""
    assert combat.allocate(3, ["T", "U"]) == ["T", "U", "T"]


def test_confirmation_against_protection():
    """10.6: against Protection 5 (B-17G, firepower 0 here): 4 none, 5 straggler, 6 loss; a natural 6
    always a loss, a natural 1 never."""
    b17 = sq("U", "allies", "b17g", "bombing", "O14", bombs=True)
    assert [combat.confirm(n, 2, b17, False) for n in (2, 3, 4)] == ["none", "straggler", "loss"]
    assert combat.confirm(6, -5, b17, False) == "loss" and combat.confirm(1, 9, b17, False) == "none"


def test_a_head_on_attack_adds_one_against_an_h_bomber():
    """10.6: +1 firepower in a head-on attack on a bomber whose Protection is marked h (B-24H)."""
    assert combat.confirm(2, 1, B24, False) == "none" and combat.confirm(2, 1, B24, True) == "straggler"


def test_a_second_straggler_becomes_a_loss():
    """10.6.1: an 'equal' result on a squadron that already has a straggler flips it to a loss."""
    once = combat.take(B24, "straggler")
    twice = combat.take(once, "straggler")
    assert once.straggler and once.losses == 0 and not twice.straggler and twice.losses == 1


def test_disruption_breaks_a_flight_at_one_level_and_a_squadron_at_two():
    """10.7: levels accumulate; a broken fighter drops its tally and returns to base (10.7.1)."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10", tally="K")
    once = combat.disrupt(a, 1)
    assert once.disruption == 1 and not once.broken and combat.disrupt(once, 1).broken
    assert combat.disrupt(a.move(flight=True), 1).broken
    gone = combat.broken_effects(combat.disrupt(a, 2))
    assert gone.tally == "" and gone.mission == "rtb"


def test_ammunition_low_after_the_first_combat_depleted_after_the_second_never_for_bombers():
    """10.7.2."""
    a = sq("A", "allies", "spitfire9", "sweep", "E10")
    assert [combat.spend_ammo(a).ammo, combat.spend_ammo(combat.spend_ammo(a)).ammo] == [1, 2]
    assert combat.spend_ammo(combat.spend_ammo(combat.spend_ammo(a))).ammo == 2
    assert combat.spend_ammo(B24).ammo == 0


def test_the_side_with_bombers_defends_and_mutual_pursuit_goes_to_the_last_mover():
    """10.1.1, 10.1.2: bombers always defend; two fighters tallying each other: the last to move attacks."""
    assert combat.fights([BF109, B24], ["T", "K"])[0].attackers == ("K",)
    a = sq("A", "allies", "spitfire9", "sweep", "E10", tally="K")
    k = sq("K", "axis", "a6m", "sweep", "E10", tally="A")
    assert combat.fights([a, k], ["A", "K"])[0].attackers == ("K",)
    assert combat.fights([a, k], ["K", "A"])[0].attackers == ("A",)


def test_a_head_on_attack_comes_from_the_target_front_squares():
    """10.3: the attacker entered from one of the three squares ahead of its target."""
    target = sq("T", "allies", "b24h", "bombing", "O14", heading="E")
    assert combat.head_on(BF109.move(entered_from=(15, 15)), target)
    assert not combat.head_on(BF109.move(entered_from=(13, 14)), target)


def test_rounding_halves_up_after_each_division():
    """1.2 example: 5 halved twice is 3 then 2, not 1."""
    assert halve(5, 2) == 2 and round_half_up(5, 2) == 3 and round_half_up(0, 2) == 0
