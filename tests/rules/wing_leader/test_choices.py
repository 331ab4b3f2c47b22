"""The players' choices: wings chosen by the seats [9.1, 9.5], leads, hits and dogfight tallies asked
[10.2, 10.2.2, 10.8.1], the Wing Leader's orders without radio [9.5.4, 9.5.4.1], the leader marker lost
[10.7.3], and a move stopped for a reaction question resumed without repeating what was said [10.4]."""
from __future__ import annotations

from pathlib import Path

from pbem.core.dice import FixedDice, SeededDice
from pbem.testing import known
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State

SEED = b"wing leader choices seed 32 byte"
CASES = Path(__file__).parents[2] / "known" / "wing_leader"


def _case(name: str) -> tuple[State, known.Case]:
    case = known.load_case(CASES / f"{name}.toml")
    return known.start_state(RULESET, case), case


def _orders(state: State, bodies: dict[str, str]) -> dict:
    out = {}
    for seat in RULESET.phase(state).awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == [], problems
        out[seat] = checked.orders
    return out


def test_a_note_said_before_a_reaction_question_is_not_said_again_on_resuming():
    """10.4: K's first entry is skipped (its condition does not hold) and said to axis; its PURSUE then
    stops for A's REACT ASK.  Resumed, K's script goes on at the PURSUE: the skip is not said again."""
    state, case = _case("reaction_success_stops_the_attacker")
    skip = "IF TALLIED K THEN RTB K was skipped: TALLIED K does not hold"
    asked = RULESET.resolve(state, _orders(state, {"allies": "REACT A ASK", "axis": "IF TALLIED K THEN RTB K\nPURSUE K"}),
                            FixedDice([]))
    assert [e.text for e in asked.events].count(skip) == 1
    assert RULESET.phase(asked.state).name.startswith("reaction_choice")
    result = RULESET.resolve(asked.state, _orders(asked.state, {"allies": "YES"}), FixedDice(list(case.dice)))
    texts = [e.text for e in result.events]
    assert skip not in texts, texts
    assert "A stop K in L15 (10.4.2)" in texts and any(t.startswith("K (pursue) L16 -> L15") for t in texts), texts


def _start(scenario: str, per_side: int) -> State:
    return RULESET.setup(scenario, RULESET.info.resolve_options({"seats_per_side": per_side}), SeededDice(SEED, "setup"))


def _seats(state: State) -> dict[str, str]:
    return {s.id: s.seat for s in state.squadrons}


def test_the_players_of_a_side_choose_their_wings_before_the_first_turn():
    """9.5: the raid with two players a side opens with the choice of wings; allies-2 claims T's formation
    (allies-1's by the round-robin), allies-1 is silent: T goes to allies-2 and the rest is dealt to the
    seat holding fewest; every player of the side is told who commands what; the Tally Phase follows."""
    state = _start("raid", 2)
    phase = RULESET.phase(state)
    assert phase.name == "wings" and phase.awaiting == {"allies-1", "allies-2", "axis-1", "axis-2"}
    form = RULESET.order_form(RULESET.view(state, "allies-2"), "allies-2")
    assert "#   T: allies-1" in form and "#   U: yours" in form and "WINGS U B" in form
    result = RULESET.resolve(state, _orders(state, {"allies-2": "WINGS T"}), SeededDice(SEED, phase.name))
    after = result.state
    assert {k: v for k, v in _seats(after).items() if k in "TUAB"} == {
        "T": "allies-2", "U": "allies-1", "A": "allies-1", "B": "allies-2"}
    told = [e for e in result.events if e.kind == "wings"]
    assert [e.text for e in told if "allies-2" in e.visible_to and "axis-1" not in e.visible_to] == [
        "allies-1 commands U; A (9.5)", "allies-2 commands T; B (9.5)"]
    assert RULESET.phase(after).name == "raider_tally"
    assert "# T " in RULESET.order_form(RULESET.view(after, "allies-2"), "allies-2")


def test_a_wing_another_seat_took_first_is_refused_and_silence_keeps_the_round_robin():
    """9.5: both Axis players claim K's formation: seat 1 gets it, seat 2 is told it was taken and keeps a
    formation of its own; the silent Allies keep the round-robin of scenario order."""
    state = _start("raid", 2)
    before = _seats(state)
    result = RULESET.resolve(state, _orders(state, {"axis-1": "WINGS K", "axis-2": "WINGS K L"}),
                             SeededDice(SEED, "wings"))
    seats = _seats(result.state)
    assert seats["K"] == "axis-1" and seats["L"] == "axis-2"
    assert all(seats[s] == before[s] for s in "TUAB")
    notes = [e.text for e in result.events if e.visible_to == frozenset({"axis-2"})]
    assert notes == ["K was claimed by axis-1 first: not yours (9.5)"]
    assert sorted(seats.values()).count("axis-1") >= 1 and sorted(seats.values()).count("axis-2") >= 1


def test_a_seat_claiming_every_wing_leaves_its_ally_one():
    """9.5: a seat with nothing to command would have nothing to write; it takes the claimer's last one."""
    state = _start("sweep", 2)   # allies: A and B, a formation each
    result = RULESET.resolve(state, _orders(state, {"allies-1": "WINGS A B"}), SeededDice(SEED, "wings"))
    assert _seats(result.state)["A"] == "allies-1" and _seats(result.state)["B"] == "allies-2"


def test_wings_orders_are_checked_at_ingest():
    state = _start("raid", 2)
    assert "[9.5]" in check_body(RULESET, state, "allies-1", "WINGS K")[1][0]
    assert "[6.0]" in check_body(RULESET, state, "allies-1", "RTB A")[1][0]
    later = RULESET.resolve(state, _orders(state, {}), SeededDice(SEED, "wings")).state
    assert "[9.5]" in check_body(RULESET, later, "allies-1", "WINGS T")[1][0]


def test_one_player_a_side_has_no_choice_of_wings():
    assert RULESET.phase(_start("raid", 1)).name == "raider_tally"


def test_an_allys_per_squadron_standing_orders_are_shown_to_the_other_seats_of_the_side():
    """The side fights one battle: allies-1's TACTIC for its squadron is listed in allies-2's view and form,
    as its ally's (not for allies-2 to cancel); the enemy's view does not list it."""
    state = RULESET.resolve(_start("raid", 2), _orders(_start("raid", 2), {}), SeededDice(SEED, "wings")).state
    state = RULESET.resolve(state, _orders(state, {"allies-1": "TACTIC A TURN"}), SeededDice(SEED, "t")).state
    view = RULESET.view(state, "allies-2")
    assert view["allied_standing"] == [{"seat": "allies-1", "key": "TACTIC A", "text": "TACTIC A TURN"}]
    assert view["standing"] == []
    assert "#   allies-1: TACTIC A TURN" in RULESET.order_form(view, "allies-2")
    assert RULESET.view(state, "axis-1")["allied_standing"] == []
    assert "TACTIC A" not in str(RULESET.view(state, "axis-1"))


def _sweep(step: str = "defender_tally", **changes: dict) -> State:
    """The sweep at ``step`` with squadrons changed (``K={"tally": "A"}``)."""
    from dataclasses import replace

    from pbem.rules.wing_leader.sky import parse
    state = replace(_start("sweep", 1), flow=replace(_start("sweep", 1).flow, step=step))
    def edit(s):
        c = dict(changes.get(s.id, {}))
        if "at" in c:
            c["at"] = parse(c["at"])
        return s.move(**c)
    return replace(state, squadrons=tuple(edit(s) for s in state.squadrons))


def _jammed(**more: dict) -> State:
    """JG 1 (K leading, L) with its net jammed: B, made an Axis squadron on the same net, is in a dogfight
    with A [9.4.2]; B's tally on A lets the Wing Leader order onto A [9.5.4]."""
    return _sweep(A={"at": "K15", "alert": True, "tally": "B", "dogfight": True},
                  B={"side": "axis", "at": "K15", "tally": "A", "dogfight": True, "alert": True},
                  K={"at": "O13"}, L={"at": "P12"}, **more)


def test_without_radio_only_one_squadron_of_the_wing_rolls_to_tally():
    """9.5.4.1 (1): under jamming K and L may not both roll; the second TALLY is refused with the rule."""
    state = _jammed()
    assert _problems_of(state, "axis", "TALLY K A") == []
    problems = _problems_of(state, "axis", "TALLY K A\nTALLY L A")
    assert len(problems) == 1 and "[9.5.4.1]" in problems[0] and "TALLY L A" in problems[0]
    assert _problems_of(_sweep(K={"at": "O13"}, L={"at": "P12"}, A={"at": "K15", "alert": True}),
                        "axis", "TALLY K A\nTALLY L A") == []   # with its radio both may roll


def test_without_radio_the_leader_may_order_the_whole_wing_onto_one_enemy_instead():
    """9.5.4.1 (2): ORDER WING K A tallies A for every Available squadron of the wing formation, the
    leader's own included; it is the one order the wing may have, so a second order is refused."""
    state = _jammed()
    assert "[9.5.4.1]" in _problems_of(state, "axis", "ORDER WING K A\nORDER L A")[0]
    result = RULESET.resolve(state, _orders(state, {"axis": "ORDER WING K A"}), FixedDice([]))
    assert "K orders its wing onto A: K, L tallied (9.5.4.1)" in [e.text for e in result.events]
    assert result.state.squadron("K").tally == "A" and result.state.squadron("L").tally == "A"


def test_a_flight_split_on_order_stays_in_the_wing_and_may_be_ordered_later():
    """9.5.4: the leader orders L onto A and splits it; L1 keeps the tally, L2 stays in the wing formation
    and takes its own order in the next Tally Phase."""
    state = _sweep(A={"at": "K15", "alert": True}, K={"at": "O13", "tally": "A"}, L={"at": "P12"})
    result = RULESET.resolve(state, _orders(state, {"axis": "ORDER L A\nSPLIT L"}), FixedDice([]))
    after = result.state
    assert after.squadron("L1").tally == "A" and not after.squadron("L2").left_wing
    from dataclasses import replace
    again = replace(after, flow=replace(after.flow, step="defender_tally"))
    assert _problems_of(again, "axis", "ORDER L2 A") == []


def _crew_loss(**k: object) -> State:
    """The 10.5.1 example with K the Wing Leader of JG 1 (L with it): K takes the B-24's hit and rolls a
    natural 2 for cohesion."""
    return _sweep("movement", A={"model": "b24h", "mission": "bombing", "bombs": True, "at": "M14"},
                  K={"model": "bf109g6", "at": "M15", "heading": 2, "tally": "A", **k},
                  L={"at": "M16", "heading": 2}, B={"status": "exited"})


CREW_DICE = [3, 4, 4, 5, 6, 1, 3, 1, 1, 5, 5]   # ACT 7 and 9; A: loss, none; K: loss; cohesion K 1+1, A 5+5


def test_a_crew_loss_removes_the_wing_leader_marker_and_ends_the_wing_formation():
    """10.7.3: a loss in the combat and a natural 2 for cohesion remove the Wing Leader marker; the wing
    formation, formed on its squadron, is no more (9.5.2)."""
    state = _crew_loss()
    result = RULESET.resolve(state, _orders(state, {"axis": "PURSUE K"}), FixedDice(CREW_DICE))
    texts = [e.text for e in result.events]
    assert "K loses its Wing Leader (10.7.3); its wing formation is no more (9.5.2)" in texts, texts
    assert result.state.squadron("K").left_wing


def test_an_experte_leading_the_wing_is_one_marker_lost_at_once():
    """5.2.1: an Experte in the leader's squadron is the Wing Leader (one marker flipped); 10.7.3 removes it."""
    state = _crew_loss(experte=True)
    result = RULESET.resolve(state, _orders(state, {"axis": "PURSUE K"}), FixedDice(CREW_DICE))
    texts = [e.text for e in result.events]
    assert "K loses its Experte-leader (one marker, 5.2.1) (10.7.3); its wing formation is no more (9.5.2)" in texts
    assert not result.state.squadron("K").experte and result.state.squadron("K").left_wing


def _problems_of(state: State, seat: str, body: str) -> list[str]:
    return check_body(RULESET, state, seat, body)[1]


def test_rules_without_an_effect_are_said_in_the_form_not_silently_ignored():
    """4.4 contrails and 5.1 Rigid doctrine: the rulebook gives neither an effect here; the form says so."""
    from pbem.core.data import Overrides, use_overrides
    form = RULESET.order_form(RULESET.view(_start("raid", 1), "allies"), "allies")
    assert "# Contrails from altitude 16 (4.4): the rulebook states no effect; shown only" in form
    assert "Rigid" not in form
    rigid = Overrides("pbem.rules.wing_leader", {"scenarios.toml": {"dogfight": {"doctrine": {"axis": "rigid", "provenance": "placeholder"}}}})
    with use_overrides(rigid):
        form = RULESET.order_form(RULESET.view(_start("dogfight", 1), "allies"), "allies")
    assert "# Rigid doctrine for axis (5.1): the rulebook puts its effect on the lost Air Combat Table; " \
           "played as Loose" in form


def _melee() -> State:
    """The sweep's four squadrons locked in one dogfight in M14, A and B on K, K and L on A: one combat,
    the Spitfires attacking (better Basic Turn, 10.8.1), K and L defending."""
    return _sweep("movement", A={"at": "M14", "alert": True, "tally": "K", "dogfight": True},
                  B={"at": "M14", "alert": True, "tally": "K", "dogfight": True},
                  K={"at": "M14", "tally": "A", "dogfight": True}, L={"at": "M14", "tally": "A", "dogfight": True})


def test_leads_ask_asks_the_defender_then_the_attacker_knowing_the_defenders_lead():
    """10.2: the defender chooses its lead first, then the attacker, knowing it; each in a short window of
    its own, the standing default on silence; the combat uses both answers."""
    state = _melee()
    asked = RULESET.resolve(state, _orders(state, {"allies": "LEADS ASK", "axis": "LEADS ASK"}), FixedDice([1]))
    phase = RULESET.phase(asked.state)
    assert phase.name.startswith("lead_choice") and phase.awaiting == {"axis"}
    form = RULESET.order_form(RULESET.view(asked.state, "axis"), "axis")
    assert "which squadron leads your defence (10.2)?" in form and "LEAD K" in form
    assert "[10.2]" in check_body(RULESET, asked.state, "axis", "LEAD A")[1][0]
    second = RULESET.resolve(asked.state, _orders(asked.state, {"axis": "LEAD L"}), FixedDice([]))
    phase = RULESET.phase(second.state)
    assert phase.name.startswith("lead_choice") and phase.awaiting == {"allies"}
    assert "led by L" in RULESET.view(second.state, "allies")["asking"]
    fought = RULESET.resolve(second.state, _orders(second.state, {"allies": "LEAD B"}), FixedDice([3, 4, 2, 2] + [4] * 30))
    assert any("leads B and L; turning fight" in e.text for e in fought.events)


def test_silence_in_a_lead_question_takes_the_standing_default():
    state = _melee()
    asked = RULESET.resolve(state, _orders(state, {"axis": "LEADS ASK"}), FixedDice([1])).state
    fought = RULESET.resolve(asked, {"axis": ()}, FixedDice([3, 4, 2, 2] + [4] * 30))
    assert any("leads A and K; turning fight" in e.text for e in fought.events)


def test_hits_ask_asks_after_the_rolls_who_takes_the_odd_hit():
    """10.2.2: B's one hit may go to K or L; the Allies asked to be asked: the combat stops after the rolls
    (no die is rolled again on resuming) and the answer sends the hit to K."""
    state = _melee()
    orders = _orders(state, {"allies": "HITS ASK\nLEADS B"})
    asked = RULESET.resolve(state, orders, FixedDice([1, 3, 4, 2, 2]))
    phase = RULESET.phase(asked.state)
    assert phase.name.startswith("hits_choice") and phase.awaiting == {"allies"}
    assert "B scored 1 hit in M14" in RULESET.view(asked.state, "allies")["asking"]
    assert "[10.2.2]" in check_body(RULESET, asked.state, "allies", "HITS A")[1][0]
    result = RULESET.resolve(asked.state, _orders(asked.state, {"allies": "HITS K L"}), FixedDice([4] * 30))
    texts = [e.text for e in result.events]
    assert texts[0].startswith("B hit on K: rolled 4"), texts
    silent = RULESET.resolve(asked.state, {"allies": ()}, FixedDice([4] * 30))
    assert silent.events[0].text.startswith("B hit on K"), "the default is the enemy lead first"


def _three_on_one() -> State:
    """The dogfight scenario: the Zeros K, L and N dive on the Hellcat A circling in J10."""
    from dataclasses import replace

    from pbem.rules.wing_leader.sky import parse
    state = _start("dogfight", 1)
    state = replace(state, flow=replace(state.flow, step="movement"))

    def edit(s):
        if s.id == "A":
            return s.move(at=parse("J10"), mission="intercept", alert=True, quality="trained", vector=None)
        if s.id in ("K", "L", "N"):
            return s.move(at=parse("H10"), heading=2, tally="A", quality="trained", alert=True)
        return s.move(status="exited")
    return replace(state, squadrons=tuple(edit(s) for s in state.squadrons))


def test_retally_ask_lets_the_owner_choose_a_new_tally_in_the_dogfight():
    """10.8.1: N, whom A tallied as the attacking lead, breaks and leaves; A must tally an enemy of the
    dogfight: K or L.  The Allies asked; the dogfight stands with the default (K, first by ID) while
    they answer, and L is taken."""
    state = _three_on_one()
    body = {"allies": "DOGFIGHT SEEK\nRETALLY ASK", "axis": "DOGFIGHT SEEK\nPURSUE K\nPURSUE L\nPURSUE N"}
    asked = RULESET.resolve(state, _orders(state, body), SeededDice(b"retally seed number 0001 padding", "m"))
    assert "dogfight in J10: A K L (10.8.1)" in [e.text for e in asked.events]
    phase = RULESET.phase(asked.state)
    assert phase.name.startswith("tally_choice") and phase.awaiting == {"allies"}
    assert asked.state.squadron("A").tally == "K"
    assert "TALLY A K" in RULESET.order_form(RULESET.view(asked.state, "allies"), "allies")
    assert "[10.8.1]" in check_body(RULESET, asked.state, "allies", "TALLY A N")[1][0]
    result = RULESET.resolve(asked.state, _orders(asked.state, {"allies": "TALLY A L"}), FixedDice([]))
    assert "A tallies L in the dogfight (10.8.1)" in [e.text for e in result.events]
    assert result.state.squadron("A").tally == "L" and RULESET.phase(result.state).name == "raider_tally"


def test_a_standing_retally_list_chooses_without_asking():
    state = _three_on_one()
    body = {"allies": "DOGFIGHT SEEK\nRETALLY L", "axis": "DOGFIGHT SEEK\nPURSUE K\nPURSUE L\nPURSUE N"}
    result = RULESET.resolve(state, _orders(state, body), SeededDice(b"retally seed number 0001 padding", "m"))
    assert result.state.squadron("A").tally == "L" and RULESET.phase(result.state).name == "raider_tally"


def test_a_dogfighter_whose_target_broke_tallies_another_enemy_of_the_dogfight_and_may_be_asked():
    """10.8.1: K breaks and leaves the dogfight it led; A, B and C, all on K, must tally an enemy still in it.
    The Allies asked (RETALLY ASK): one window, a question per squadron, L (first by ID) on silence."""
    from dataclasses import replace

    from pbem.rules.wing_leader.sky import parse
    state = _start("dogfight", 1)
    state = replace(state, flow=replace(state.flow, step="movement"))
    state = replace(state, squadrons=tuple(
        s.move(at=parse("J10"), tally="K" if s.side == "allies" else "A", alert=True, dogfight=True, quality="trained")
        for s in state.squadrons))
    asked = RULESET.resolve(state, _orders(state, {"allies": "RETALLY ASK"}),
                            SeededDice(b"dogfight retally seed 0000 padding", "m"))
    texts = [e.text for e in asked.events]
    assert "K cohesion: rolled 2+0 = 2: broken (10.7)" in texts
    assert "A's target left the dogfight: it tallies L (10.8.1)" in texts
    phase = RULESET.phase(asked.state)
    assert phase.name.startswith("tally_choice") and phase.awaiting == {"allies"}
    form = RULESET.order_form(RULESET.view(asked.state, "allies"), "allies")
    assert all(f"TALLY {s} L" in form for s in "ABC"), form
    result = RULESET.resolve(asked.state, _orders(asked.state, {"allies": "TALLY A N\nTALLY B N"}), FixedDice([]))
    assert [result.state.squadron(s).tally for s in "ABC"] == ["N", "N", "L"]


def test_a_side_with_one_player_is_not_awaited_in_the_choice_of_wings():
    """The sweep's Axis flies one wing: one Axis player, who has nothing to choose (9.5)."""
    state = _start("sweep", 2)
    assert RULESET.phase(state).awaiting == {"allies-1", "allies-2"}
    assert "# Your side has one player" in RULESET.order_form(RULESET.view(state, "axis-1"), "axis-1")
