"""Rule 15 in play: bombers fly to their target, bomb it level or dive on it, and the strike is resolved in the
Combat Phase after flak, before air combat [15.2.1, 15.3.1, 15.3.2, 15.4]; scenario ``dive_bombing``."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import SeededDice
from pbem.core.play import play
from pbem.rules.wing_leader import RULESET, bomb_runs
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.model import State
from pbem.rules.wing_leader.sky import HEADINGS, parse
from pbem.rules.wing_leader.victory import points
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body

SEED = b"wing leader rule 15 test seed, 32b"
SCENARIO = "dive_bombing"


def _movement(**where: tuple[str, str]) -> State:
    """The scenario at turn 1's movement window, without flak (so the dice go to the bombs), the squadrons
    named moved to (square, heading), the Zeros far away."""
    state = RULESET.setup(SCENARIO, RULESET.info.resolve_options({"cadence": "fast"}), SeededDice(SEED, "setup"))
    state = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "t")).state
    assert RULESET.phase(state).name == "movement"
    where = {"K": ("Z19", "W"), "L": ("Y19", "W"), **where}
    squadrons = tuple(replace(s, at=parse(where[s.id][0]), heading=HEADINGS.index(where[s.id][1]))
                      if s.id in where else s for s in state.squadrons)
    surfaces = tuple(replace(u, flak=()) for u in state.surfaces)
    return replace(state, squadrons=squadrons, surfaces=surfaces, barrages=())


def _resolve(state: State):
    return RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "move"))


def test_a_dive_bomber_over_its_target_dives_releases_and_the_strike_lands():
    """15.3.2: over the carrier at altitude 4 it dives straight down (0.5 MP a level) to 0 and releases, aimed
    (at least 4 levels); 15.4: the hits told are the hits the carrier has, after the release."""
    state = _movement(D=("P4", "E"), E=("A19", "E"), H=("B19", "E"))
    result = _resolve(state)
    texts = [e.text for e in result.events]
    released = [t for t in texts if t.startswith("D dives on C1")]
    assert released == ["D dives on C1 from altitude 4 and releases at P0, aimed (15.3.2)"], texts
    strike = next(e for e in result.events if e.text.startswith("D's dive attack on C1"))
    c1 = result.state.surface("C1")
    assert c1.hits == strike.data["hits"] and f"C1 has {c1.hits} hits" in strike.text
    d = result.state.squadron("D")
    assert (d.bombs, d.mission, d.released, d.run) == (False, "rtb", "", ())
    assert texts.index(released[0]) < texts.index(strike.text)


def test_a_dive_begun_high_counts_its_levels_across_turns():
    """15.3.2: from altitude 8 it gets down to 2 this turn (2 MP and the approach's descent bonus, 15.3/8.2:
    0.5 MP a level), the run kept; not released yet."""
    state = _movement(D=("P8", "E"), E=("A19", "E"), H=("B19", "E"))
    d = _resolve(state).state.squadron("D")
    assert d.at == parse("P2") and d.run == tuple(parse(n) for n in ("P8", "P7", "P6", "P5", "P4", "P3", "P2"))
    assert d.bombs and not d.released and d.dived == 6


def test_a_dive_of_two_levels_or_more_keeps_the_bomber_out_of_air_combat():
    """15.3.2: the turn it dives 2+ levels it neither attacks nor is attacked; next turn it fights again."""
    state = _movement(D=("P8", "E"), E=("A19", "E"), H=("B19", "E"))
    result = _resolve(state)
    assert "D dives 6 levels this turn: it neither attacks nor is attacked in air combat (15.3.2)" in [
        e.text for e in result.events]
    air = Air(result.state, None)   # type: ignore[arg-type]
    assert "D" not in [s.id for s in bomb_runs.in_air_combat(air)]
    calm = Air(replace(result.state, squadrons=tuple(replace(s, dived=1) if s.id == "D" else s
                                                     for s in result.state.squadrons)), None)  # type: ignore[arg-type]
    assert "D" in [s.id for s in bomb_runs.in_air_combat(calm)]


def test_a_level_bomber_releases_as_soon_as_it_is_over_the_target():
    """15.3.1 with 15.2.1: two level squares toward the column, release over it; bombsight T needs one."""
    state = _movement(D=("N3", "E"), E=("A19", "E"), H=("B19", "E"))
    state = replace(state, squadrons=tuple(replace(s, attack="") if s.id == "D" else s for s in state.squadrons))
    result = _resolve(state)
    texts = [e.text for e in result.events]
    assert "D releases its bombs over C1 from P3, level, aimed (15.3.1)" in texts, texts
    assert any(t.startswith("D's level attack on C1") for t in texts)


def test_a_bomber_flies_to_its_target_column_not_the_edge():
    """15.2.1: two squares a turn toward the target's column."""
    state = _movement(D=("T8", "W"), E=("A19", "E"), H=("B19", "E"))
    d = _resolve(state).state.squadron("D")
    assert d.at == parse("R8") and d.bombs


def test_surface_damage_scores_and_bombs_carried_off_score_nothing():
    """15.0/12.1: with rule 15 a bomber leaving by the enemy edge with its load scores nothing; hits on a
    surface unit score for its enemy [14.1.1]."""
    state = _movement()
    squadrons = tuple(replace(s, status="exited", exit_edge="E") if s.id == "D" else s for s in state.squadrons)
    state = replace(state, squadrons=squadrons)
    assert points(state)["allies"] == 0
    hit = replace(state, surfaces=tuple(u.hit(4) if u.id == "C1" else u for u in state.surfaces))
    assert points(hit)["allies"] == 6   # heavy damage on the carrier: its VP


def test_the_form_says_how_each_bomber_attacks_and_its_chances():
    state = RULESET.setup(SCENARIO, RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "#   flies to C1 (CV) and dives from altitude 2-10 over column P" in form
    assert "if aimed, without flak: dive attack on C1: strength 4" in form and "/36" in form
    assert "flies to" not in RULESET.order_form(RULESET.view(state, "axis"), "axis")


def test_attacks_the_scenario_may_give():
    state = RULESET.setup(SCENARIO, RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    d = state.squadron("D")
    assert bomb_runs.problem_in(state, d) == ""
    assert bomb_runs.problem_in(state, replace(d, model="b24h")).startswith("15.3.2: only aircraft with a Dive Brake")
    assert bomb_runs.problem_in(state, replace(d, attack="glide")) == "15.3.4: this scenario does not use glide attacks"


def test_the_scenario_plays_to_a_result_under_every_cadence():
    for cadence in ("standard", "fast", "single"):
        assert check_ruleset(RULESET, SCENARIO, SEED, options={"cadence": cadence}, max_phases=80) > 6
    end = play(RULESET, SCENARIO, SEED, max_phases=200)[-1].state
    assert end.flow.over and "victory points" in RULESET.outcome(end).text


def test_the_basic_scenarios_bomb_nothing():
    """Without rule 15 a bombing squadron flies to the enemy edge as before (9.2.1)."""
    state = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    assert not any(s.target for s in state.squadrons) and not state.uses("15.2.1")
    assert all("flies to" not in line for line in RULESET.order_form(RULESET.view(state, "allies"), "allies").splitlines())


def test_an_escort_dives_with_its_bombers():
    """15.2.2: escorts move first, foreseeing their bombers' move: H above D dives the 6 levels D dives (a
    dive declared, 8.2)."""
    state = _movement(D=("P8", "E"), H=("P9", "E"), E=("A19", "E"))
    after = _resolve(state).state
    assert after.squadron("D").at == parse("P2") and after.squadron("H").at == parse("P3")


def test_an_escort_keeps_its_place_on_the_way():
    """15.2.2: on the way it keeps its offset from the bomber it escorts."""
    after = _resolve(_movement(D=("J8", "E"), H=("I9", "E"), E=("A19", "E"))).state
    assert after.squadron("D").at == parse("L8") and after.squadron("H").at == parse("K9")


def _checked(state: State, seat: str, body: str):
    return check_body(RULESET, state, seat, body)[0]


def test_attack_orders_are_checked_at_ingest_with_the_rule():
    """15.3: ATTACK <sq> LEVEL|DIVE for a bomber flying to its target; a Dive Brake for DIVE (15.3.2)."""
    state = _movement()
    assert list(_checked(state, "allies", "ATTACK D LEVEL").problems) == []
    for body, rule in (("ATTACK H DIVE", "15.3"), ("ATTACK D GLIDE", "15.3.4"), ("ATTACK D", "15.3"),
                       ("ATTACK D BARREL", "15.3")):
        problems = _checked(state, "allies", body).problems
        assert [p.rule for p in problems] == [rule], (body, problems)
    heavy = replace(state, squadrons=tuple(replace(s, model="b24h", attack="") if s.id == "D" else s
                                           for s in state.squadrons))
    problems = _checked(heavy, "allies", "ATTACK D DIVE").problems
    assert [p.rule for p in problems] == ["15.3.2"] and "Dive Brake" in problems[0].message
    basic = RULESET.setup("raid", RULESET.info.resolve_options({"cadence": "fast"}), SeededDice(SEED, "s"))
    basic = RULESET.resolve(basic, {s: () for s in RULESET.phase(basic).awaiting}, SeededDice(SEED, "t")).state
    refused = _checked(basic, "allies", "ATTACK T LEVEL").problems
    assert [p.rule for p in refused] == ["15.3"] and "bombing rules" in refused[0].message


def test_an_attack_order_changes_the_approach_in_play():
    """ATTACK D LEVEL: over the carrier at altitude 4, the dive bomber now bombs level as it comes over."""
    state = _movement(D=("N4", "E"), E=("A19", "E"), H=("B19", "E"))
    orders = _checked(state, "allies", "ATTACK D LEVEL").orders
    result = RULESET.resolve(state, {"allies": orders, "axis": ()}, SeededDice(SEED, "move"))
    texts = [e.text for e in result.events]
    assert "D (attack) N4 -> O4 P4, heading E, 2 of 2 MP" in texts, texts
    assert "D releases its bombs over C1 from P4, level, aimed (15.3.1)" in texts
