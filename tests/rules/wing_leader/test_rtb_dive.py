"""8.2, 9.2.6: a squadron returning to base may declare a dive: one more MP, and it must dive at least one
altitude (the first square diagonally below toward its own edge, the rest level); so may a former escort
returning to its bombers (9.2.2) or an Alert Sweep joining a friend (9.2.3) when its goal is lower."""
from __future__ import annotations

from pbem.core.dice import SeededDice
from pbem.rules.wing_leader import RULESET, movement
from pbem.rules.wing_leader.model import DIVE
from pbem.rules.wing_leader.sky import name
from pbem.testing import known
from pbem.testing.known import check_body

from .helpers import sq

ALERT_A = [["flow.step", "movement"], ["squadrons[id=A].alert", True], ["squadrons[id=A].at", [10, 12]]]


def _start(edits: list) -> object:
    return known.start_state(RULESET, known.Case("rtb", "-", "-", {"scenario": "sweep", "edits": edits}))


def test_a_declared_dive_on_the_way_home_dives_first_then_flies_level_with_one_more_point():
    a = sq("A", "allies", "spitfire9", "rtb", "K12", heading="W", alert=True)
    assert movement.toward_edge(a, "W", movement.allowance(a)) == ["J12", "I12", "H12"]
    assert movement.toward_edge(a, "W", movement.allowance(a, dive=True), dive=True) == ["J11", "I11", "H11", "G11"]


def test_at_the_edge_the_dive_is_dropped_and_it_leaves_level():
    a = sq("A", "allies", "spitfire9", "rtb", "A12", heading="W", alert=True)
    assert movement.toward_edge(a, "W", 4, dive=True) == ["<"]


def test_rtb_dive_is_taken_at_ingest_and_flown_in_the_movement_phase():
    state = _start(ALERT_A)
    checked, problems = check_body(RULESET, state, "allies", "RTB A DIVE")
    assert problems == [] and [o.text() for o in checked.orders] == ["RTB A DIVE"]
    moved = RULESET.resolve(state, {"allies": checked.orders, "axis": ()},
                            SeededDice(b"wing leader rtb dive test seed", "movement"))
    assert any(e.text == "A (rtb) K12 -> J11 I11 H11 G11, heading W, 4 of 4 MP" for e in moved.events)
    a = moved.state.squadron("A")
    assert name(a.at) == "G11" and a.marker == DIVE and a.mission == "rtb"


def test_the_form_of_a_squadron_on_its_way_home_offers_the_dive():
    state = _start(ALERT_A + [["squadrons[id=A].mission", "rtb"]])
    assert "RTB A DIVE dives for one more MP, 8.2" in RULESET.order_form(RULESET.view(state, "allies"), "allies")


def test_a_former_escort_returning_to_a_lower_square_may_take_the_dive_bonus():
    """8.2, 9.2.2, 9.2.5: RETURN <sq> <square> DIVE: one more MP when the square is lower and the path dives."""
    edits = [["flow.step", "movement"], ["squadrons[id=A].mission", "sweep"], ["squadrons[id=A].former_escort", True],
             ["squadrons[id=A].at", [1, 17]]]
    state = known.start_state(RULESET, known.Case("return", "-", "-", {"scenario": "raid", "edits": edits}))
    flown = {}
    for line in ("RETURN A F15 DIVE", "RETURN A F15"):
        checked, problems = check_body(RULESET, state, "allies", line)
        assert problems == [] and [o.text() for o in checked.orders] == [line]
        done = RULESET.resolve(state, {"allies": checked.orders, "axis": ()},
                               SeededDice(b"wing leader return dive test seed", "movement"))
        flown[line] = [e.text for e in done.events if e.text.startswith("A (return)")]
    assert flown == {"RETURN A F15 DIVE": ["A (return) B17 -> C16 D15 E15, heading E, 3 of 3 MP"],
                     "RETURN A F15": ["A (return) B17 -> C16 D15, heading SE, 2 of 2 MP"]}
