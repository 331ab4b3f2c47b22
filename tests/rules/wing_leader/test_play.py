"""Wing Leader by mail on the kit: the three windows, orders checked at ingest with their rule, the form,
standing orders and scripts, and whole bot games to their victory-point result."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core.dice import SeededDice
from pbem.core.play import canonical_json, play
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State
from pbem.rules.wing_leader.sky import parse

SEED = b"wing leader test seed, 32 bytes!"


def _start() -> State:
    return RULESET.setup("sweep", RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))


def _at(state: State, **where: str) -> State:
    """The position with squadrons moved (``A="K10"``)."""
    return replace(state, squadrons=tuple(s.move(at=parse(where[s.id])) if s.id in where else s
                                          for s in state.squadrons))


def _problems(state: State, seat: str, body: str) -> list[str]:
    return check_body(RULESET, state, seat, body)[1]


SCENARIOS = [s.name for s in RULESET.info.scenarios]


@pytest.mark.parametrize("cadence", ["standard", "fast", "single"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_ruleset_passes_the_kit_conformance_checks(scenario, cadence):
    assert check_ruleset(RULESET, scenario, SEED, options={"cadence": cadence}, max_phases=60) > 6


@pytest.mark.parametrize("cadence, first", [("fast", [("tallies", ["allies", "axis"]), ("movement", ["allies", "axis"])]),
                                            ("single", [("turn", ["allies", "axis"]), ("turn", ["allies", "axis"])])])
def test_faster_cadences_take_two_windows_or_one(cadence, first):
    """6.0 by mail: fast = both tally lists then movement; single = one message a turn."""
    state = RULESET.setup("sweep", RULESET.info.resolve_options({"cadence": cadence}), SeededDice(SEED, "setup"))
    phases = []
    for _ in range(2):
        phase = RULESET.phase(state)
        phases.append((phase.name, sorted(phase.awaiting)))
        state = RULESET.resolve(state, {s: () for s in phase.awaiting}, SeededDice(SEED, phase.key)).state
    assert phases == first


def test_in_one_message_a_pursuit_may_wait_on_this_turn_tally():
    """Cadence single: the tally and a conditional pursuit are written together and decided in order."""
    state = _at(RULESET.setup("sweep", RULESET.info.resolve_options({"cadence": "single"}), SeededDice(SEED, "s")),
                A="K15", K="M13")
    body = "TALLY A K\nIF TALLYING A THEN PURSUE A"
    assert _problems(state, "allies", body) == []
    from pbem.core.dice import FixedDice
    checked = check_body(RULESET, state, "allies", body)[0].orders
    events = [e.text for e in RULESET.resolve(state, {"allies": checked, "axis": ()}, FixedDice([6] + [3] * 40)).events]
    assert any(e.startswith("A tally on K") and "tallied" in e for e in events)
    assert any(e.startswith("A (pursue)") for e in events), events


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [SEED, b"another wing leader seed of 32 b"])
def test_a_bot_game_reaches_its_victory_point_result_and_replays_byte_for_byte(scenario, seed):
    """12.0-12.1: the game ends (all out, escaped or broken, or the last turn) with a VP result; the same
    seed gives the same game."""
    first, again = play(RULESET, scenario, seed, max_phases=200), play(RULESET, scenario, seed, max_phases=200)
    end = first[-1].state
    assert end.flow.over and RULESET.outcome(end) is not None and "victory points" in RULESET.outcome(end).text
    assert end.turn > 2
    assert [canonical_json(RULESET.dump(s.state)) for s in first] == [canonical_json(RULESET.dump(s.state)) for s in again]


def test_the_turn_opens_with_the_raider_tally_then_the_defender_then_both_plans():
    """6.0: the Raider rolls first, then the Defender, then the Movement Phase for both."""
    state = _start()
    phases = []
    for _ in range(3):
        phase = RULESET.phase(state)
        phases.append((phase.name, sorted(phase.awaiting)))
        state = RULESET.resolve(state, {s: () for s in phase.awaiting}, SeededDice(SEED, phase.name)).state
    assert phases == [("raider_tally", ["allies"]), ("defender_tally", ["axis"]), ("movement", ["allies", "axis"])]


def test_a_tally_beyond_range_is_refused_with_the_rule_and_the_legal_targets():
    """7.2: a target more than 9 squares away; the answer lists what may be tallied and the roll needed."""
    state = _at(_start(), A="K15", K="R13")
    problems = _problems(state, "allies", "TALLY A L")
    assert problems and "[7.2]" in problems[0] and "K (needs" in problems[0]
    assert _problems(state, "allies", "TALLY A K") == []


def test_tally_orders_belong_to_the_own_tally_window():
    """6.0: a tally in the Movement Phase, or a plan in the Tally Phase, is refused."""
    state = _start()
    assert "[6.0]" in _problems(state, "allies", "PURSUE A")[0]


def test_one_roll_per_squadron_and_a_tallying_squadron_drops_first():
    """7.2.1, 7.2.2."""
    state = _at(_start(), A="K15", K="M13", L="N12")
    assert "[7.2.1]" in " ".join(_problems(state, "allies", "TALLY A K\nTALLY A L"))
    tallying = replace(state, squadrons=tuple(s.move(tally="K") if s.id == "A" else s for s in state.squadrons))
    assert "[7.2.2]" in " ".join(_problems(tallying, "allies", "TALLY A L"))
    assert _problems(tallying, "allies", "DROP A\nTALLY A L") == []


def _movement(state: State) -> State:
    for _ in range(2):
        phase = RULESET.phase(state)
        state = RULESET.resolve(state, {s: () for s in phase.awaiting}, SeededDice(SEED, phase.name)).state
    return state


def test_a_mission_bound_squadron_cannot_be_given_a_path():
    """9.2.3, 9.2.7: an Unalert sweep flies straight on; the refusal says what it may do."""
    state = _movement(_start())
    problems = _problems(state, "allies", "MOVE A F15 G16")
    assert problems and "[9.2.7]" in problems[0] and "fly straight on" in problems[0]


def test_a_free_path_is_checked_step_by_step_at_ingest():
    """9.2.7, 8.3: a tallying fighter's path; a climb it cannot pay for is refused under 8.3."""
    state = _movement(_start())
    state = replace(state, squadrons=tuple(s.move(tally="K", alert=True) if s.id == "A" else s
                                           for s in state.squadrons))
    assert _problems(state, "allies", "MOVE A D15 E15 F15") == []
    assert "[8.3]" in _problems(state, "allies", "MOVE A D16 E17 F18")[0]
    assert _problems(state, "allies", "IF TALLYING A THEN PURSUE A ELSE RTB A") == []


def test_the_tally_form_lists_each_target_with_the_roll_it_needs():
    state = _at(_start(), A="K15", K="M13")
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "may tally: K needs" in form and "TALLY A K" in form


def test_a_standing_tactic_is_kept_and_listed():
    """10.5: the attacker's rating as a standing order, listed in the view."""
    state = _movement(_start())
    checked, problems = check_body(RULESET, state, "allies", "TACTIC A TURN")
    assert problems == []
    after = RULESET.resolve(state, {"allies": checked.orders, "axis": ()}, SeededDice(SEED, "m")).state
    assert "TACTIC A TURN" in str(RULESET.view(after, "allies")["standing"])


def test_both_sides_see_the_same_map_and_wing_displays():
    """5.2: the Wing Displays are public and nothing on the map is hidden."""
    state = _start()
    a, b = RULESET.view(state, "allies"), RULESET.view(state, "axis")
    for key in ("squadrons", "wing_display", "sky", "victory_points"):
        assert a[key] == b[key]


def _combat_example() -> State:
    from pathlib import Path

    from pbem.testing import known
    case = known.load_case(Path(__file__).parents[2] / "known" / "wing_leader" / "air_combat_example_10_5_1.toml")
    return known.start_state(RULESET, case)


def _resolve_with(state: State, bodies: dict[str, str], seed: str) -> State:
    phase = RULESET.phase(state)
    orders = {}
    for seat in phase.awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == []
        orders[seat] = checked.orders
    return RULESET.resolve(state, orders, SeededDice(SEED, seed)).state


def test_tactic_ask_opens_an_interrupt_for_the_attacker_and_resumes_with_its_answer():
    """10.5: the attacker declares the rating; TACTIC ASK stops the Combat Phase for that seat only, the
    answer TURN makes it a turning fight, and the turn then goes on to the next Tally Phase."""
    asked = _resolve_with(_combat_example(), {"axis": "TACTIC K ASK\nPURSUE K"}, "move")
    phase = RULESET.phase(asked)
    assert phase.name.startswith("combat_choice") and phase.awaiting == {"axis"}
    view = RULESET.view(asked, "axis")
    assert "SPEED gives column +4, TURN column +3" in view["asking"]
    assert "TURN" in RULESET.order_form(view, "axis")
    assert "[10.5, 10.8]" in check_body(RULESET, asked, "axis", "PURSUE K")[1][0]
    assert "answer SPEED or TURN or BEST" in check_body(RULESET, asked, "axis", "SEEK")[1][0]
    phase_before = RULESET.phase(asked)
    result = RULESET.resolve(asked, {"axis": check_body(RULESET, asked, "axis", "TURN")[0].orders},
                             SeededDice(SEED, phase_before.name))
    assert any("turning fight (turn) 3 against 0" in e.text for e in result.events)
    assert RULESET.phase(result.state).name == "raider_tally" and result.state.turn == 2


def test_silence_in_the_combat_choice_takes_the_better_column():
    """10.5: the default answer BEST picks hit-and-run here (+4 against +3)."""
    asked = _resolve_with(_combat_example(), {"axis": "TACTIC K ASK\nPURSUE K"}, "move")
    result = RULESET.resolve(asked, {"axis": ()}, SeededDice(SEED, "silent"))
    assert any("hit-and-run (speed) 7 against 3" in e.text for e in result.events)


def test_the_side_view_picture_shows_every_squadron_and_is_the_same_for_both_sides():
    """2.2: 26 columns by 20 altitudes, each labelled; squadrons with their IDs; open information."""
    from pbem import pictures
    from pbem.core.picture import Text
    state = _start()
    pic = RULESET.picture(RULESET.view(state, "allies"))
    labels = {s.text for s in pic.shapes + pic.base if isinstance(s, Text)}
    assert {"A", "B", "K", "L", "T1", "Z", "19"} <= labels
    assert pic == RULESET.picture(RULESET.view(state, "axis"))
    assert pictures.render_png(pic)[:4] == b"\x89PNG"


def test_cap_circles_and_alert_sweeps_may_join_a_tallying_net_mate():
    """9.2.4.1: a CAP squadron circles (no vector); 9.2.3 b: JOIN needs a tallying friend on the net."""
    state = _movement(_start())
    squadrons = {s.id: s for s in state.squadrons}
    squadrons["K"] = squadrons["K"].move(mission="cap", vector=None)
    squadrons["A"] = squadrons["A"].move(alert=True)
    squadrons["B"] = squadrons["B"].move(alert=True, tally="L")
    state = replace(state, squadrons=tuple(squadrons[s.id] for s in state.squadrons))
    assert _problems(state, "axis", "CIRCLE K") == [] and _problems(state, "allies", "JOIN A B") == []
    assert "[9.2.3]" in _problems(state, "allies", "JOIN B A")[0]
    checked = {seat: check_body(RULESET, state, seat, body)[0].orders
               for seat, body in (("allies", "JOIN A B"), ("axis", "CIRCLE K"))}
    after = RULESET.resolve(state, checked, SeededDice(SEED, "join")).state
    assert after.squadron("K").at == state.squadron("K").at
    from pbem.rules.wing_leader.sky import distance
    b_now = after.squadron("B").at   # B moved first (it follows its target); A flies toward where it is
    assert distance(after.squadron("A").at, b_now) < distance(state.squadron("A").at, b_now)


def test_standing_leads_and_hit_priorities_are_used_in_combat():
    """10.2: the attacker's LEADS list picks L over K (first to arrive); 10.2.2: the bombers' HITS list
    sends their hit to L first."""
    from pbem.core.dice import FixedDice
    state = _combat_example()
    two = tuple(s.move(status="on", model="bf109g6", at=(12, 15), heading=2, tally="A", alert=True,
                       mission="intercept", vector=None, side="axis") if s.id == "L" else s for s in state.squadrons)
    state = replace(state, squadrons=two)
    orders = {seat: check_body(RULESET, state, seat, body)[0].orders
              for seat, body in (("axis", "LEADS L\nPURSUE K\nPURSUE L"), ("allies", "HITS L"))}
    events = [e.text for e in RULESET.resolve(state, orders, FixedDice([1, 2] + [5] * 30)).events]
    assert any("leads L and A" in e for e in events), events
    assert any(e.startswith("A hit on L") for e in events), events


def test_dogfight_ask_opens_one_window_for_both_sides_and_both_seeking_starts_it():
    """10.8: both sides asked at once after the combat; both SEEK: the dogfight starts without a roll; the
    Combat Phase then goes on to the next turn."""
    from pathlib import Path

    from pbem.core.dice import FixedDice
    from pbem.testing import known
    case = known.load_case(Path(__file__).parents[2] / "known" / "wing_leader" / "dogfight_contested_start.toml")
    state = known.start_state(RULESET, case)
    orders = {seat: check_body(RULESET, state, seat, body)[0].orders
              for seat, body in (("allies", "DOGFIGHT ASK"), ("axis", "DOGFIGHT ASK\nPURSUE K"))}
    asked = RULESET.resolve(state, orders, FixedDice([1, 2, 2, 2, 6, 6, 6, 6])).state
    phase = RULESET.phase(asked)
    assert phase.name.startswith("dogfight_choice") and phase.awaiting == {"allies", "axis"}
    assert RULESET.view(asked, "allies")["asking_choices"] == ["SEEK", "DECLINE"]
    answers = {seat: check_body(RULESET, asked, seat, "SEEK")[0].orders for seat in ("allies", "axis")}
    result = RULESET.resolve(asked, answers, FixedDice([]))
    assert any(e.text == "dogfight in J10: A K (10.8.1)" for e in result.events)
    assert result.state.squadron("A").dogfight and RULESET.phase(result.state).name == "raider_tally"


def _duel_at_j10(k_from: str) -> State:
    """A (tallying K) heading E in J10; K flies to its vector J10 from ``k_from``; B and L out of the way."""
    state = _movement(_start())
    k_at = parse(k_from)
    squadrons = []
    for s in state.squadrons:
        if s.id == "A":
            s = s.move(at=parse("J10"), heading=2, alert=True, tally="K")
        elif s.id == "K":
            s = s.move(at=k_at, heading=6 if k_at[0] > 9 else 2, vector=parse("J10"))
        elif s.id in ("B", "L"):
            s = s.move(status="exited")
        squadrons.append(s)
    return replace(state, squadrons=tuple(squadrons))


def _resolve_allies(state: State, body: str) -> list[str]:
    checked = check_body(RULESET, state, "allies", body)[0].orders
    return [e.text for e in RULESET.resolve(state, {"allies": checked, "axis": ()}, SeededDice(SEED, "h")).events]


def test_a_squadron_its_target_flew_into_head_on_may_leave_at_once_else_it_stays():
    """7.2.3, second head-on exception: K enters A's square from A's front: A may fly out; K entering from
    behind: A must stay (its MOVE is skipped with the rule, and it circles)."""
    head_on = _resolve_allies(_duel_at_j10("L10"), "MOVE A K10 L10")
    assert any(e.startswith("A (move) J10 -> K10 L10") for e in head_on), head_on
    behind = _resolve_allies(_duel_at_j10("G10"), "MOVE A K10 L10")
    assert any("must stay there (7.2.3)" in e for e in behind), behind
    assert any(e.startswith("A (mission) J10 -> circles") for e in behind), behind


def test_the_game_ends_when_both_sides_send_end():
    """12.0: by mutual agreement; one side alone does not end it."""
    state = _movement(_start())
    one = {"allies": check_body(RULESET, state, "allies", "END")[0].orders, "axis": ()}
    assert not RULESET.resolve(state, one, SeededDice(SEED, "e1")).state.flow.over
    both = {seat: check_body(RULESET, state, seat, "END")[0].orders for seat in ("allies", "axis")}
    result = RULESET.resolve(state, both, SeededDice(SEED, "e2"))
    assert result.state.flow.over and any("agree to end" in e.text for e in result.events)
    assert RULESET.outcome(result.state) is not None


def test_an_unbroken_squadron_leaves_only_with_the_opponent_consent():
    """11.0: by mutual agreement; without the opponent's CONSENT YES the ESCAPE is skipped with the rule."""
    state = _movement(_start())
    mine = check_body(RULESET, state, "allies", "ESCAPE A")[0].orders
    refused = RULESET.resolve(state, {"allies": mine, "axis": ()}, SeededDice(SEED, "c1"))
    assert refused.state.squadron("A").status == "on"
    assert any("ESCAPE A was skipped" in e.text and "CONSENT YES" in e.text for e in refused.events)
    theirs = check_body(RULESET, state, "axis", "CONSENT YES")[0].orders
    agreed = RULESET.resolve(state, {"allies": mine, "axis": theirs}, SeededDice(SEED, "c2"))
    assert agreed.state.squadron("A").status == "escaped"


def test_the_movement_form_says_what_each_mission_allows_and_who_may_react():
    """9.2, 10.4: mission-bound squadrons fly by themselves; escorts near their bombers may react."""
    state = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))
    state = _movement(state)
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "only fly straight on" in form
    assert "may react for T (2d6 8+, late 6+), U (2d6 8+, late 6+) (10.4; REACT A NO holds it back)" in form
    waiting = RULESET.order_form(RULESET.view(_start(), "axis"), "axis")
    assert "The other side rolls its tallies now" in waiting


def test_react_ask_stops_the_move_asks_the_escort_owner_and_resumes():
    """10.4: the moving player's move stops before the bomber's square; the escort's owner answers in a
    short window; YES rolls the reaction (here a success: K is stopped short and A attacks it), NO lets it in."""
    from pathlib import Path

    from pbem.core.dice import FixedDice
    from pbem.testing import known
    case = known.load_case(Path(__file__).parents[2] / "known" / "wing_leader"
                           / "reaction_success_stops_the_attacker.toml")
    state = known.start_state(RULESET, case)
    orders = {"allies": check_body(RULESET, state, "allies", "REACT A ASK")[0].orders, "axis": ()}
    asked = RULESET.resolve(state, orders, FixedDice([]))
    phase = RULESET.phase(asked.state)
    assert phase.name.startswith("reaction_choice") and phase.awaiting == {"allies"}
    assert asked.state.squadron("K").at == (11, 16)   # K has not moved yet
    assert "does A react" in RULESET.view(asked.state, "allies")["asking"]
    yes = {"allies": check_body(RULESET, asked.state, "allies", "YES")[0].orders}
    result = RULESET.resolve(asked.state, yes, FixedDice(list(case.dice)))
    texts = [e.text for e in result.events]
    assert "A stop K in L15 (10.4.2)" in texts and any(t.startswith("air combat in L15: A attack K") for t in texts)
    assert RULESET.phase(result.state).name == "raider_tally" and result.state.turn == 2
    no = {"allies": check_body(RULESET, asked.state, "allies", "NO")[0].orders}
    entered = RULESET.resolve(asked.state, no, FixedDice([3, 4, 4, 5, 6, 1, 3, 4, 4, 5, 5]))
    assert entered.state.squadron("K").at == (12, 14) and not any("reacts" in e.text for e in entered.events)
