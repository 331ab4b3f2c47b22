"""Rule 15's attacks in play beyond level and dive: torpedo and the Anvil, glide, steep, skip, rocket,
strafing, parafrag and kamikaze [15.1, 15.2.4, 15.3.3-15.3.7, 15.5]; scenario ``torpedo``."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import SeededDice
from pbem.core.play import play
from pbem.rules.wing_leader import RULESET, bomb_forms, bomb_runs
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.model import DESTROYED, State
from pbem.rules.wing_leader.sky import HEADINGS, parse
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body

SEED = b"wing leader rule 15 attacks test seed, 32 bytes"
SCENARIO = "torpedo"
AWAY = {"T": ("A19", "E"), "V": ("B19", "E"), "R": ("C19", "E"), "P": ("D19", "E"), "G": ("E19", "E"),
        "H": ("F19", "E"), "Z": ("Z19", "W"), "Y": ("Y19", "W")}


def _movement(changes: dict[str, dict] | None = None, **where: tuple[str, str]) -> State:
    """Turn 1's movement window without flak, everyone far away but the squadrons named, which are put on
    (square, heading) with the field ``changes`` given."""
    state = RULESET.setup(SCENARIO, RULESET.info.resolve_options({"cadence": "fast"}), SeededDice(SEED, "setup"))
    state = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "t")).state
    assert RULESET.phase(state).name == "movement"
    place = {**AWAY, **where}
    squadrons = tuple(replace(s, at=parse(place[s.id][0]), heading=HEADINGS.index(place[s.id][1]),
                              **(changes or {}).get(s.id, {})) for s in state.squadrons)
    return replace(state, squadrons=squadrons, surfaces=tuple(replace(u, flak=()) for u in state.surfaces),
                   barrages=())


def _texts(state: State) -> list[str]:
    result = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move"))
    return [e.text for e in result.events]


def _after(state: State) -> State:
    return RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move")).state


def test_two_torpedo_squadrons_on_one_ship_make_an_anvil():
    """15.3.5: at altitude 0, straight over the cruiser, aimed after two squares; 15.5.1: two squadrons
    torpedoing one ship in a turn each get the Anvil; strength 20 whatever the card's bomb load."""
    texts = _texts(_movement(T=("O0", "E"), V=("O0", "E")))
    assert "T drops its torpedoes at K1 from Q0, torpedo attack, aimed (15.3.5)" in texts, texts
    strikes = [t for t in texts if "'s torpedo attack on K1" in t]
    assert len(strikes) == 2 and all("strength 20" in t and "anvil +1" in t for t in strikes), strikes


def test_one_torpedo_squadron_has_no_anvil_and_a_torpedo_comes_down_a_level_a_turn():
    texts = _texts(_movement(T=("O0", "E")))
    strike = next(t for t in texts if t.startswith("T's torpedo attack on K1"))
    assert "anvil" not in strike
    after = _after(_movement(V=("H3", "E")))
    assert after.squadron("V").at == parse("J2")   # two squares, one level down [15.2.1]


def test_a_slow_torpedo_aims_one_square_a_turn():
    """15.3.5.1: a Kate at altitude 0 flying at its ship moves 1 MP a turn."""
    after = _after(_movement({"T": {"model": "b5n2"}}, T=("L0", "E")))
    assert after.squadron("T").at == parse("M0")


def test_a_torpedo_arriving_too_high_is_not_dropped_and_tries_again():
    texts = _texts(_movement(T=("P1", "E")))
    assert any(t.startswith("T cannot complete its torpedo attack on K1: 15.3.5") for t in texts), texts
    assert not any("T's torpedo attack" in t for t in texts)


def test_a_glide_from_two_columns_away_comes_down_two_levels_aimed():
    """15.3.4: begun exactly two columns from the transport at altitude 4, over it at 2, aimed."""
    texts = _texts(_movement(G=("L4", "E")))
    assert "G releases its bombs at M1 from N2, glide attack, aimed (15.3.4)" in texts, texts
    assert any(t.startswith("G's glide attack on M1") for t in texts)


def test_a_glide_too_low_bombs_level_instead():
    texts = _texts(_movement(G=("L1", "E")))
    assert any(t.startswith("G cannot make its glide attack on M1: 15.3.4") and t.endswith("it bombs level")
               for t in texts), texts


def test_skip_bombing_at_altitude_0_over_a_ship():
    """15.5.4: level at altitude 0 against a ship, where the scenario allows it: the skip modifier."""
    texts = _texts(_movement(P=("L0", "E")))
    assert "P releases its bombs at M1 from N0, skip attack, aimed (15.5.4)" in texts, texts
    assert "skip +1" in next(t for t in texts if t.startswith("P's skip attack"))


def test_a_fighter_bomber_near_enemy_units_moves_three_squares():
    """15.2.4: starting within three squares of an enemy surface unit, 3 MP instead of the bombers' 2."""
    far = _after(_movement(P=("E0", "E")))
    near = _after(_movement(P=("K0", "E")))
    assert far.squadron("P").at == parse("G0") and near.squadron("P").at == parse("N0")


def test_rockets_come_down_one_level_into_the_target_square():
    """15.3.6: from altitude 1 in the next column down into the destroyer's square: not long range;
    strength the card's ATGR value (8)."""
    texts = _texts(_movement(R=("S1", "E")))
    assert "R fires its rockets at D2 from T0, rocket attack, aimed (15.3.6)" in texts, texts
    assert "strength 8" in next(t for t in texts if t.startswith("R's rocket attack on D2"))


def test_rockets_high_in_the_next_column_come_down_first():
    """15.2.1: an ATGR load within two columns comes down freely, but one level at most in the turn of the
    attack (15.3.6): from altitude 4 it stops at 1, no strike this turn."""
    after = _after(_movement(R=("S4", "E")))
    assert after.squadron("R").at == parse("S1") and after.squadron("R").bombs


def test_steep_angle_attack_by_a_fighter_bomber():
    """15.3.3: a fighter-bomber over the target at altitude 5 dives to 1, aimed after 3 levels or more."""
    texts = _texts(_movement({"P": {"attack": "steep"}}, P=("N5", "E")))
    assert "P releases its bombs at M1 from N1, steep attack, aimed (15.3.3)" in texts, texts


def test_parafrags_are_dropped_level_at_altitude_1():
    """15.5.2: level bombing at altitude 0 or 1, the parafrag modifier, halved against a ship."""
    texts = _texts(_movement({"G": {"attack": "parafrag", "load": "parafrag"}}, G=("L1", "E")))
    strike = next(t for t in texts if t.startswith("G's parafrag attack on M1"))
    assert "strength 1" in strike and "parafrag +1" in strike, strike


def test_strafing_needs_no_load_and_leaves_low_ammo():
    """15.3.7: 1 + firepower (Typhoon 4) = 5; no load spent; Low Ammo after."""
    state = _movement({"R": {"attack": "strafing", "load": "", "bombs": False}}, R=("S1", "E"))
    result = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move"))
    texts = [e.text for e in result.events]
    assert "R strafes D2 at T0 (15.3.7)" in texts and any(
        t.startswith("R's strafing attack on D2: strength 5") for t in texts), texts
    assert result.state.squadron("R").ammo == 1


def test_a_kamikaze_flies_into_its_target_and_is_gone():
    """15.5.3: within 7 squares the shortest path into the target's square; strength = bomb 2 + 3 per
    aircraft left (4); the kamikaze modifier; the squadron is destroyed, no loss for the enemy's VP."""
    state = _movement({"G": {"attack": "kamikaze"}}, G=("N2", "S"))
    result = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move"))
    texts = [e.text for e in result.events]
    assert "G dives into M1 at N0: a kamikaze attack (15.5.3)" in texts, texts
    strike = next(t for t in texts if t.startswith("G's kamikaze attack on M1"))
    assert "strength 14" in strike and "kamikaze +2" in strike
    g = result.state.squadron("G")
    assert g.status == DESTROYED and g.losses == 0


def _checked(state: State, body: str):
    return check_body(RULESET, state, "allies", body)[0]


def test_attack_orders_are_refused_with_the_rule_and_what_is_legal():
    state = _movement()
    cases = {"ATTACK T LEVEL": "15.1", "ATTACK R TORPEDO": "15.1", "ATTACK P TORPEDO": "15.1",
             "ATTACK G DIVE": "15.3.2", "ATTACK G KAMIKAZE": "15.5.3", "ATTACK H LEVEL": "15.3"}
    for body, rule in cases.items():
        problems = _checked(state, body).problems
        assert [p.rule for p in problems] == [rule], (body, problems)
    refused = _checked(state, "ATTACK T LEVEL").problems[0].message
    assert "torpedo" in refused and "T may attack TORPEDO" in refused
    assert not _checked(state, "ATTACK G STEEP").problems and not _checked(state, "ATTACK P GLIDE").problems
    kamikaze = replace(state, squadrons=tuple(replace(s, attack="kamikaze") if s.id == "G" else s
                                              for s in state.squadrons))
    assert [p.rule for p in _checked(kamikaze, "ATTACK G LEVEL").problems] == ["15.5.3"]


def test_the_acknowledgement_previews_the_strike():
    """The ack of an ATTACK order gives the Bombing Table spread from the seat's own view [15.4]."""
    checked = _checked(_movement(), "ATTACK P GLIDE")
    assert len(checked.notes) == 1
    note = checked.notes[0]
    assert note.startswith("ATTACK P GLIDE: if aimed, without flak, glide attack on M1: strength 2") and "/36" in note
    spread = [int(part.split("/36")[0].split()[-1]) for part in note.split(": ")[-1].split(", ") if "/36" in part]
    assert sum(spread) == 36


def test_the_form_names_each_attack_and_the_others_allowed():
    state = RULESET.setup(SCENARIO, RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "#   flies to K1 (CA) and comes down to altitude 0 and drops its torpedoes over column Q" in form
    assert "#   ATTACK P LEVEL|STEEP|GLIDE to attack otherwise (15.3)" in form and "ATTACK T " not in form
    assert bomb_forms.form_lines(state, state.squadron("H")) == []


def test_setup_refuses_a_load_the_card_cannot_carry():
    air = Air(_movement(), None)   # type: ignore[arg-type]
    p = air.state.squadron("P")
    assert bomb_runs.problem_in(air.state, replace(p, attack="torpedo", load="torpedo")).startswith("15.3.5")
    assert bomb_runs.load_of(replace(p, bombs=False)) == ""


def test_the_scenario_plays_to_a_result_under_every_cadence():
    for cadence in ("standard", "fast", "single"):
        assert check_ruleset(RULESET, SCENARIO, SEED, options={"cadence": cadence}, max_phases=80) > 6
    end = play(RULESET, SCENARIO, SEED, max_phases=200)[-1].state
    assert end.flow.over and "victory points" in RULESET.outcome(end).text
    assert any(u.hits for u in end.surfaces)
