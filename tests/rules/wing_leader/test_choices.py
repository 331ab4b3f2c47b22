"""The players' choices: wings chosen by the seats [9.1, 9.5], leads, hits and dogfight tallies asked
[10.2, 10.2.2, 10.8.1], the Wing Leader's orders without radio [9.5.4, 9.5.4.1], the leader marker lost
[10.7.3], and a move stopped for a reaction question resumed without repeating what was said [10.4]."""
from __future__ import annotations

from pathlib import Path

from pbem.core.dice import FixedDice
from pbem.testing import known
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.model import State

SEED = b"wing leader choices seed 32 byte"
CASES = Path(__file__).parents[2] / "known" / "wing_leader" / "cases"


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
