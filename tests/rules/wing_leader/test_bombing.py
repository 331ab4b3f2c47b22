"""Rule 15: bomb loads [15.1], approaches [15.3], special attacks [15.5] and the strike's arithmetic [15.4]."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from pbem.core.errors import IllegalOrderError
from pbem.rules.wing_leader import approaches as ap
from pbem.rules.wing_leader import bombing, loads
from pbem.rules.wing_leader.model import Squadron
from pbem.rules.wing_leader.sky import HEADINGS, parse


@dataclass(frozen=True)
class Tgt:
    defence: int = 0
    hardened: bool = False
    ship: bool = False


def path(*names: str):
    return [parse(n) for n in names]


COL_J = parse("J0")[0]


# ---- 15.1 loads ----------------------------------------------------------------------------------------------

def test_a_special_load_makes_only_its_own_attack():
    """15.1: torpedo -> torpedo attack, ATGR -> rocket, parafrag -> parafrag; bombs make the ordinary ones."""
    assert loads.approach_problem("torpedo", "torpedo") == ""
    assert "must make a torpedo attack" in loads.approach_problem("torpedo", "dive")
    assert "must make a rocket attack" in loads.approach_problem("atgr", "level")
    assert "must make a parafrag attack" in loads.approach_problem("parafrag", "level")
    assert loads.approach_problem("bombs", "dive") == ""
    assert "needs a torpedo load" in loads.approach_problem("bombs", "torpedo")
    assert "needs a load" in loads.approach_problem("", "level")
    assert loads.approach_problem("", "strafing") == "" and loads.approach_problem("bombs", "strafing") == ""
    assert loads.approach_problem("bombs", "skip") == ""   # ordinary bombs only [15.5.4]
    assert loads.approach_problem("torpedo", "skip").startswith("15.1")


def test_a_load_needs_the_card_ability():
    """15.1/3.3: a torpedo load needs a torpedo-equipped card; a bomber card carries bombs."""
    assert "no TORPEDO ability" in loads.load_problem("b24h", "torpedo")
    assert loads.load_problem("b24h", "bombs") == ""
    assert "no bomb load" in loads.load_problem("f6f", "bombs")
    assert "not a load" in loads.load_problem("b24h", "napalm")


# ---- 15.3.1 level bombing, 15.2.1.2 recon ------------------------------------------------------------------

@pytest.mark.parametrize("sight,cells,aimed", [("G", 4, True), ("G", 3, False), ("V", 2, True), ("V", 1, False),
                                               ("T", 1, True)])
def test_level_aim_by_bombsight(sight, cells, aimed):
    """T21: G needs 4 straight level squares ending over the target, V 2, T 1; fewer strike with no aim."""
    squares = [f"{chr(ord('J') - k)}12" for k in range(cells, -1, -1)]   # e.g. F12 G12 H12 I12 J12
    before = f"{chr(ord('J') - cells - 1)}13"    # came down into the run: that step is not level
    run = ap.level(path(before, *squares), COL_J, sight)
    assert run.released and run.release == parse("J12") and run.aimed is aimed


def test_level_run_broken_by_a_change_of_altitude():
    """15.3.1: course and altitude held; a climb inside the last four squares spoils a G aim."""
    assert not ap.level(path("F12", "G12", "H13", "I13", "J13"), COL_J, "G").aimed
    assert ap.level(path("E13", "F13", "G13", "H13", "I13", "J13"), COL_J, "G").aimed
    assert not ap.level(path("F12", "G12", "H12"), COL_J, "G").released   # not over the target yet


def test_recon_four_squares_in_sight():
    """T31 / 15.2.1.2: four straight level squares ending over the target, in sight throughout."""
    assert ap.recon(path("F8", "G8", "H8", "I8", "J8"), COL_J, sight_all_the_way=True).aimed
    assert not ap.recon(path("F8", "G8", "H8", "I8", "J8"), COL_J, sight_all_the_way=False).aimed
    assert not ap.recon(path("G8", "H8", "I8", "J8"), COL_J, sight_all_the_way=True).aimed


# ---- 15.3.2 dive, 15.3.3 steep, 15.3.4 glide -----------------------------------------------------------------

def _down(col: str, top: int, bottom: int, before: str = ""):
    return path(*([before] if before else []), *[f"{col}{a}" for a in range(top, bottom - 1, -1)])


def test_dive_prerequisites():
    """T22: no Dive Brake, no sight, or a start at altitude 1 are refused with 15.3.2."""
    assert "Dive Brake" in ap.dive(_down("J", 6, 1), COL_J, abilities=(), sight=True).problem
    assert "see the target" in ap.dive(_down("J", 6, 1), COL_J, abilities=("dive_brakes",), sight=False).problem
    assert "altitude 2 to 10" in ap.dive(_down("J", 1, 0), COL_J, abilities=("dive_brakes",), sight=True).problem
    assert "next column" in ap.dive(_down("L", 6, 1), COL_J, abilities=("dive_brakes",), sight=True).problem


def test_dive_aim_needs_four_levels():
    """T22: from 6 to 1 (5 levels) aimed; from 4 to 1 (3 levels) no aim; two levels a turn keep it out of combat."""
    run = ap.dive(_down("J", 6, 1), COL_J, abilities=("dive_brakes",), sight=True, release_alt=1)
    assert run.released and run.aimed and run.release == parse("J1") and run.immune
    run = ap.dive(_down("J", 4, 1), COL_J, abilities=("dive_brakes",), sight=True, release_alt=1)
    assert run.released and not run.aimed
    one_level = ap.dive(_down("J", 5, 1), COL_J, abilities=("dive_brakes",), sight=True, release_alt=1,
                        turn_start=3)
    assert one_level.released and not one_level.immune   # this turn only J2 -> J1


def test_dive_from_the_next_column_enters_the_target_column_once():
    """15.3.2: begun in the next column, the squadron enters the target's column during the dive."""
    ok = ap.dive(path("I6", "I5", "J4", "J3", "J2", "J1", "J0"), COL_J, abilities=("dive_brakes",), sight=True)
    assert ok.released and ok.aimed and ok.release == parse("J0")
    bad = ap.dive(path("J6", "I5", "J4"), COL_J, abilities=("dive_brakes",), sight=True)
    assert "straight down" in bad.problem
    assert "straight down" in ap.dive(path("J6", "J6"), COL_J, abilities=("dive_brakes",), sight=True).problem


def test_steep_attack():
    """T23: a fighter-bomber from 5 to 2 is aimed; release at 0 is refused; a heavy bomber without Speed Brakes
    may not."""
    fb = dict(abilities=(), aircraft_class="fighter", fighter_bomber=True, sight=True)
    run = ap.steep(_down("J", 5, 2), COL_J, release_alt=2, **fb)
    assert run.released and run.aimed
    assert "altitude 1" in ap.steep(_down("J", 5, 0), COL_J, release_alt=0, **fb).problem
    heavy = ap.steep(_down("J", 5, 2), COL_J, abilities=(), aircraft_class="heavy_bomber", fighter_bomber=False,
                     sight=True, release_alt=2)
    assert "Speed" in heavy.problem
    braked = ap.steep(_down("J", 5, 2), COL_J, abilities=("speed_brakes",), aircraft_class="heavy_bomber",
                      fighter_bomber=False, sight=True, release_alt=2)
    assert braked.released and braked.aimed
    assert not ap.steep(_down("J", 4, 2), COL_J, release_alt=2, **fb).aimed   # two levels only


def test_glide_the_rules_own_example():
    """E1 (15.3.4): begun two columns away at altitude 3, the squadron is over the target at altitude 1."""
    run = ap.glide(path("H3", "I2", "J1"), COL_J, aircraft_class="medium_bomber", sight=True)
    assert run.released and run.aimed and run.release == parse("J1")
    assert "two columns" in ap.glide(path("G4", "H3", "I2", "J1"), COL_J, aircraft_class="medium_bomber",
                                     sight=True).problem
    assert "one level for each column" in ap.glide(path("H3", "I3", "J2"), COL_J, aircraft_class="medium_bomber",
                                                   sight=True).problem
    assert "heavy bombers" in ap.glide(path("H3", "I2", "J1"), COL_J, aircraft_class="heavy_bomber",
                                       sight=True).problem
    assert ap.glide(path("L3", "K2", "J1"), COL_J, aircraft_class="fighter", sight=True).released  # from the right


# ---- 15.3.5 torpedo, 15.3.6 rocket, 15.3.7 strafing ----------------------------------------------------------

def test_torpedo_attack():
    """T25: over a ship at altitude 0, straight; from the next column at long range; not against land targets."""
    eq = ("torpedo",)
    run = ap.torpedo(path("G0", "H0", "I0", "J0"), COL_J, abilities=eq, ship=True)
    assert run.released and run.aimed and not run.long_range and run.release == parse("J0")
    early = ap.torpedo(path("G0", "H0", "I0", "J0"), COL_J, abilities=eq, ship=True, adjacent=True)
    assert early.released and early.long_range and early.release == parse("I0") and early.aimed
    assert not ap.torpedo(path("H1", "I0", "J0"), COL_J, abilities=eq, ship=True).aimed   # one square at 0
    assert "against a ship" in ap.torpedo(path("I0", "J0"), COL_J, abilities=eq, ship=False).problem
    assert "equipped" in ap.torpedo(path("I0", "J0"), COL_J, abilities=(), ship=True).problem
    assert "altitude 0" in ap.torpedo(path("I1", "J1"), COL_J, abilities=eq, ship=True).problem


def test_rocket_attack():
    """T26: at altitude 0 in the target's square or the next one facing it (long range); one level down at most."""
    run = ap.rocket(path("H1", "I0"), COL_J, abilities=("atgr",))
    assert run.released and run.long_range and run.release == parse("I0")
    assert ap.rocket(path("I1", "J0"), COL_J, abilities=("atgr",)).long_range is False
    assert "one level at most" in ap.rocket(path("H2", "I1", "J0"), COL_J, abilities=("atgr",)).problem
    assert not ap.rocket(path("K1", "L0"), COL_J, abilities=("atgr",)).released   # flying away
    assert "ATGR" in ap.rocket(path("I1", "J0"), COL_J, abilities=()).problem


def test_strafing_attack():
    """T27: enter the target's square; a Depleted or unarmed squadron, or a bombing mission, may not strafe."""
    assert ap.strafing(path("I1", "J0"), COL_J, armed=True, mission="sweep", ammo=1).released
    assert not ap.strafing(path("H1", "I0"), COL_J, armed=True, mission="sweep", ammo=0).released
    assert "expended" in ap.strafing(path("I1", "J0"), COL_J, armed=True, mission="sweep", ammo=2).problem
    assert "unarmed" in ap.strafing(path("I1", "J0"), COL_J, armed=False, mission="sweep", ammo=0).problem
    assert "sweep and strafing" in ap.strafing(path("I1", "J0"), COL_J, armed=True, mission="bombing",
                                               ammo=0).problem


def test_parafrag_and_skip():
    """15.5.2 level at 0 or 1; T30 skip: scenario permission, ships only, altitude 0."""
    assert ap.parafrag(path("I1", "J1"), COL_J, "T").released
    assert "altitude 0 or 1" in ap.parafrag(path("I2", "J2"), COL_J, "T").problem
    assert "scenario" in ap.skip(path("I0", "J0"), COL_J, "T", allowed=False, ship=True).problem
    assert "against ships" in ap.skip(path("I0", "J0"), COL_J, "T", allowed=True, ship=False).problem
    assert "altitude 0" in ap.skip(path("I1", "J1"), COL_J, "T", allowed=True, ship=True).problem
    assert ap.skip(path("I0", "J0"), COL_J, "T", allowed=True, ship=True).released


# ---- 15.4 the strike's arithmetic ----------------------------------------------------------------------------

@pytest.mark.parametrize("kw,expected", [
    ({}, 6),                                     # 12 x 50%
    ({"flight": True}, 3),                       # 12/2 x 50%
    ({"disrupted": True}, 3),
    ({"broken": True}, 2),                       # 12/4 = 3, x 50% = 1.5 -> 2
    ({"broken": True, "flight": True}, 1),       # 12/2 = 6, /4 = 1.5 -> 2, x 50% = 1
])
def test_hits_round_after_each_division(kw, expected):
    """T28 / 1.2: strength divided for a flight, disruption or breaking, rounding after each division."""
    n = bombing.strength(bombing.Strike("level", bomb=12, **kw), Tgt())
    assert bombing.hits(n, 50) == expected


def test_step_wise_rounding_matters():
    """T28: strength 5, broken flight: 5/2 = 3, 3/4 = 1, x 50% = 1 (not 0); 1 x 25% rounds to 0."""
    n = bombing.strength(bombing.Strike("level", bomb=5, flight=True, broken=True), Tgt())
    assert n == 1 and bombing.hits(n, 50) == 1
    assert bombing.hits(1, 25) == 0


def test_special_strengths():
    """15.3.5 torpedo 20 whatever the card; T26 ATGR 8 halved vs hardened; T27 strafing 1 + firepower, halved;
    15.5.2 parafrag halved vs ships; T9 5/2 rounds to 3."""
    hard, ship = Tgt(hardened=True), Tgt(ship=True)
    assert bombing.strength(bombing.Strike("torpedo", bomb=4), ship) == 20
    assert bombing.strength(bombing.Strike("rocket", bomb=8), hard) == 4
    assert bombing.strength(bombing.Strike("strafing", firepower=3), Tgt()) == 4
    assert bombing.strength(bombing.Strike("strafing", firepower=3), hard) == 2
    assert bombing.strength(bombing.Strike("strafing", firepower=4), hard) == 3
    assert bombing.strength(bombing.Strike("parafrag", bomb=6), ship) == 3
    assert bombing.strength(bombing.Strike("level", bomb=6), hard) == 6   # ordinary bombs are not halved


def test_kamikaze_strength():
    """T29: bomb 4, two aircraft left: 4 + 3x2 = 10; a flight 4/2 + 6 = 8; disrupted (4 + 6)/2 = 5."""
    assert bombing.strength(bombing.Strike("kamikaze", bomb=4, remaining=2), Tgt()) == 10
    assert bombing.strength(bombing.Strike("kamikaze", bomb=4, remaining=2, flight=True), Tgt()) == 8
    assert bombing.strength(bombing.Strike("kamikaze", bomb=4, remaining=2, disrupted=True), Tgt()) == 5


def test_ship_defence_from_the_sun():
    """T14 / 14.1.3: a dive or steep attack from the sun takes the ship's modifier one toward zero."""
    s = bombing.Strike("dive", from_sun=True)
    assert bombing.target_modifier(s, Tgt(defence=3, ship=True)) == 2
    assert bombing.target_modifier(s, Tgt(defence=-2, ship=True)) == -1
    assert bombing.target_modifier(s, Tgt(defence=0, ship=True)) == 0
    assert bombing.target_modifier(bombing.Strike("level", from_sun=True), Tgt(defence=3, ship=True)) == 3
    assert bombing.target_modifier(s, Tgt(defence=3)) == 3   # not a ship


def test_modifiers_named_and_the_table():
    """15.4: each named modifier the strike earns, read from the table data; the table is monotone."""
    s = bombing.Strike("torpedo", aimed=False, long_range=True, anvil=True, flak=-2, altitude=0)
    names = [n for n, _ in bombing.modifiers(s, Tgt(ship=True))]
    assert {"no aim", "long range", "anvil", "flak"} <= set(names)
    m = bombing.tables()["bombing_modifiers"]
    assert dict(bombing.modifiers(s, Tgt(ship=True)))["no aim"] == m["no_aim"]
    row = [bombing.percent(t) for t in range(-5, 20)]
    assert row == sorted(row) and row[0] == 0 and bombing.percent(2) == 0
    res = bombing.resolve(bombing.Strike("level", bomb=12, altitude=4), Tgt(), roll=10)
    assert res.hits == bombing.hits(12, bombing.percent(10 + res.modifier)) and res.strength == 12


def test_bombsight_altitude_rows():
    """15.4: the Altitude Modifier Table is read by bombsight and release altitude; a missing sight reads as T."""
    t = bombing.tables()["bombsight_altitude"]
    assert bombing.bombsight_modifier("T", 0) == t["T"][0][1]
    assert bombing.bombsight_modifier("G", 19) == t["G"][-1][1]
    assert bombing.bombsight_modifier("", 8) == bombing.bombsight_modifier("T", 8)


# ---- the squadron and its card: check() and strike_of() -----------------------------------------------------


@dataclass(frozen=True)
class Unit:
    at: tuple[int, int]
    ship: bool = True
    defence: int = 0
    hardened: bool = False


def _sq(model: str, mission: str = "bombing", at: str = "J6", **kw) -> Squadron:
    return Squadron("S", "allies", model, mission, parse(at), HEADINGS.index("E"), **kw)


def test_check_reads_the_card_and_the_load():
    """A Stuka dives with bombs; a B-24 may not (no Dive Brake); an Avenger with bombs may not torpedo."""
    ship = Unit(parse("J0"))
    assert ap.check(_sq("ju87d"), "dive", _down("J", 6, 0), ship, load="bombs").aimed
    assert "Dive Brake" in ap.check(_sq("b24h"), "dive", _down("J", 6, 0), ship, load="bombs").problem
    assert "needs a torpedo load" in ap.check(_sq("tbf1"), "torpedo", path("I0", "J0"), ship, load="bombs").problem
    run = ap.check(_sq("tbf1"), "torpedo", path("H0", "I0", "J0"), ship, load="torpedo")
    assert run.released and run.aimed
    assert "not an approach" in ap.check(_sq("tbf1"), "loop", path("I0"), ship, load="bombs").problem
    # the B-24's card has no bombsight: read as T, one square suffices
    assert ap.check(_sq("b24h"), "level", path("I9", "J9"), ship, load="bombs").aimed


def test_strike_of_a_released_run():
    """15.4: the card's bomb load, the release altitude, the card's torpedo modifier and bombsight."""
    ship = Unit(parse("J0"))
    run = ap.check(_sq("ju87d"), "dive", _down("J", 6, 0), ship, load="bombs")
    s = bombing.strike_of(_sq("ju87d", disruption=1), run, ship)
    assert (s.kind, s.bomb, s.altitude, s.disrupted, s.aimed) == ("dive", 3, 0, True, True)
    t = bombing.strike_of(_sq("b5n2"), ap.check(_sq("b5n2"), "torpedo", path("I0", "J0"), ship, load="torpedo"),
                          ship)
    assert dict(bombing.modifiers(t, ship)).get("torpedo (card)") == 1
    r = bombing.strike_of(_sq("typhoon1b", mission="bombing"),
                          ap.check(_sq("typhoon1b"), "rocket", path("I1", "J0"), ship, load="atgr"), ship)
    assert bombing.strength(r, Unit(parse("J0"), ship=False, hardened=True)) == 4   # ATGR 8 halved
    k = bombing.strike_of(_sq("ju87d", losses=1), run, ship, kamikaze=True, max_losses=3)
    assert bombing.strength(k, ship) == 3 + 3 * 2


def test_anvil_needs_two_torpedo_attacks_on_one_ship():
    """15.5.1."""
    assert bombing.anvils(["T1", "T2", "T1"]) == {"T1"}
    assert bombing.anvils(["T1"]) == set()


def test_a_surface_unit_s_own_defence_is_used_when_it_has_one():
    """14.1.3 via rule 14's unit: an immobile ship's modifier is 0, whatever it prints."""
    @dataclass(frozen=True)
    class Immobile(Unit):
        def defence_against(self, *, from_sun: bool, dive_or_steep: bool, turn: int) -> int:
            return 0

    assert bombing.target_modifier(bombing.Strike("level"), Immobile(parse("J0"), defence=3)) == 0


def test_bombers_on_the_way():
    """T20 / 15.2.1: one level a turn; a strafer or ATGR load within two columns dives freely; T32 / 15.2.4:
    a fighter-bomber near an enemy surface unit has 3 MP; a second circling is refused; T29 kamikaze range."""
    assert bombing.altitude_problem(path("F8", "G7", "H7"), COL_J, load="bombs") == ""
    assert "one level a turn" in bombing.altitude_problem(path("F8", "G7", "H6"), COL_J, load="bombs")
    assert bombing.altitude_problem(path("H3", "I2", "J1"), COL_J, load="atgr") == ""
    assert "one level" in bombing.altitude_problem(path("F3", "G2", "H1"), COL_J, load="atgr")   # 4 columns off
    assert bombing.altitude_problem(path("H3", "I2", "J1"), COL_J, load="", strafing=True) == ""
    assert bombing.fighter_bomber_allowance(_sq("p47d", at="G3"), [parse("J0")]) == 3
    assert bombing.fighter_bomber_allowance(_sq("p47d", at="F3"), [parse("J0")]) == 2
    assert "once a game" in bombing.circling_problem(has_circled=True, approaching=False)
    assert "approach" in bombing.circling_problem(has_circled=False, approaching=True)
    assert bombing.circling_problem(has_circled=False, approaching=False) == ""
    assert bombing.kamikaze_problem(_sq("a6m", at="C7"), parse("J0")) == ""
    assert "not 8" in bombing.kamikaze_problem(_sq("a6m", at="B7"), parse("J0"))


def test_the_preview_adds_up_to_36_and_matches_resolve():
    """The acknowledgement's preview: every 2d6 roll counted once, each giving what resolve() would."""
    s, tgt = bombing.Strike("level", bomb=12, aimed=False, altitude=8), Tgt(defence=-1)
    spread = bombing.chances(s, tgt)
    assert sum(spread.values()) == 36
    counted: dict[int, int] = {}
    for total, ways in bombing.TWO_DICE.items():
        h = bombing.resolve(s, tgt, total).hits
        counted[h] = counted.get(h, 0) + ways
    assert counted == spread
    worst, best = bombing.resolve(s, tgt, 2).hits, bombing.resolve(s, tgt, 12).hits
    assert min(spread) == worst and max(spread) == best and spread[best] >= 1
    line = bombing.preview(s, tgt, "T1")
    assert line.startswith("level attack on T1: strength 12") and "no aim" in line and line.endswith("[15.4]")
    r = bombing.resolve(s, tgt, 9)
    text = bombing.describe("D", "T1", s, r)
    assert "roll 9" in text and f"{r.hits} hit" in text and "no aim" in text


def test_mission_details():
    """15.2.2 escort follows; 15.3 approach MP (+1 descending, none level; slow torpedo 1 MP); 15.3 no evasion;
    T32 fighter-bomber pursuing -> Sweep, Alert, no load; only fighter-bombers decline; T31 recon success."""
    assert bombing.escort_follows(parse("J9"), parse("J6")) == -3
    assert bombing.approach_allowance(_sq("ju87d"), 2, kind="dive", aiming=True, descending=True) == 3
    assert bombing.approach_allowance(_sq("b24h"), 2, kind="level", aiming=True, descending=True) == 2
    assert bombing.approach_allowance(_sq("b5n2"), 2, kind="torpedo", aiming=True, descending=False) == 1
    assert bombing.approach_allowance(_sq("tbf1"), 2, kind="torpedo", aiming=True, descending=False) == 2
    assert not bombing.may_evade(approaching=True) and bombing.may_evade(approaching=False)
    fb = bombing.after_pursuit(_sq("p47d", bombs=True))
    assert (fb.mission, fb.alert, fb.bombs) == ("sweep", True, False)
    assert bombing.after_pursuit(_sq("b24h", bombs=True)).mission == "bombing"   # a bomber is never a fighter-bomber
    assert bombing.may_decline_pursuit(_sq("p47d", bombs=True))
    assert not bombing.may_decline_pursuit(_sq("ju87d", bombs=True))
    assert not bombing.may_decline_pursuit(_sq("p47d", bombs=False))
    run = ap.recon(path("F8", "G8", "H8", "I8", "J8"), COL_J, sight_all_the_way=True)
    assert bombing.recon_succeeds(run, broken_after_flak=False)
    assert not bombing.recon_succeeds(run, broken_after_flak=True)


# ---- the order and the mission's own move ---------------------------------------------------------------------


def test_parse_approach():
    """15.3: APPROACH <sq> <kind> <target> [RELEASE n] [EARLY] <steps>; refusals cite the rule."""
    o = ap.parse_approach("d dive t1 release 1 S S".split())
    assert (o.sq, o.kind, o.target, o.release, o.early, o.steps) == ("D", "dive", "T1", 1, False, ("S", "S"))
    assert o.text() == "APPROACH D DIVE T1 RELEASE 1 S S"
    assert ap.parse_approach("V torpedo T2 EARLY I0".split()).early
    for words, rule in ((["D", "loop", "T1"], "15.3"), (["D"], "15.3"), (["D", "dive", "T1", "RELEASE"], "15.3"),
                        (["D", "dive", "T1", "EARLY"], "15.3.5")):
        with pytest.raises(IllegalOrderError) as caught:
            ap.parse_approach(words)
        assert caught.value.rule == rule


def test_planned_walks_the_steps_and_checks_the_run():
    """A Stuka in J6 facing down dives two levels, then four more next turn: released at J0, aimed (6 levels),
    out of air combat that turn."""
    ship = Unit(parse("J0"))
    stuka = Squadron("D", "axis", "ju87d", "bombing", parse("J6"), HEADINGS.index("S"), bombs=True)
    run = ap.planned(stuka, ap.parse_approach("D dive T1 J5 J4".split()), ship, load="bombs", mp=3)
    assert run.problem == "" and not run.released                  # J6 -> J4: not down yet
    later = stuka.move(at=parse("J4"))
    run = ap.planned(later, ap.parse_approach("D dive T1 J3 J2 J1 J0".split()), ship, load="bombs", mp=3,
                     flown=path("J6", "J5", "J4"))
    assert run.released and run.aimed and run.release == parse("J0") and run.immune
    refused = ap.planned(stuka.move(model="b24h"), ap.parse_approach("D dive T1 J5".split()), ship, load="bombs",
                         mp=3)
    assert "Dive Brake" in refused.problem
    with pytest.raises(IllegalOrderError):   # three vertical levels cost 1.5 MP: more than 1
        ap.planned(stuka, ap.parse_approach("D dive T1 J5 J4 J3".split()), ship, load="bombs", mp=1)
    assert ap.planned(stuka, ap.parse_approach("D dive T1 J5 J4".split()), ship, load="bombs", mp=1).problem == ""


def test_toward_the_target_column():
    """15.2.1: two level squares toward the target's column a turn, stopping over it."""
    b = Squadron("B", "allies", "b24h", "bombing", parse("E9"), HEADINGS.index("E"), bombs=True)
    assert ap.toward_column(b, parse("J0")[0], 2) == ["F9", "G9"]
    assert ap.toward_column(b.move(at=parse("I9")), parse("J0")[0], 2) == ["J9"]
    assert ap.toward_column(b.move(at=parse("J9")), parse("J0")[0], 2) == []
