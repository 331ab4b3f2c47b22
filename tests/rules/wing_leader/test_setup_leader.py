"""5.2.1 under ``setup = players``: the player chooses which squadron of a wing carries its Wing Leader marker
(``LEADER <sq>``; the scenario's ``leader`` when unsaid).  The wing's vector goes with the marker (9.5.3); the
marked squadron keeps the order of battle's square (5.3 step 2) and the others set up in formation with it."""
from __future__ import annotations

from pbem.core.dice import FixedDice, SeededDice
from pbem.testing.known import check_body
from pbem.rules.wing_leader import RULESET, wings
from pbem.rules.wing_leader.model import State
from pbem.rules.wing_leader.parsing import position

SEED = b"wing leader LEADER test seed, 32"


def _sweep(**options: str) -> State:
    return RULESET.setup("sweep", RULESET.info.resolve_options({"setup": "players", **options}),
                         SeededDice(SEED, "setup"))


def _send(state: State, bodies: dict[str, str]) -> State:
    out = {}
    for seat in RULESET.phase(state).awaiting:
        checked, problems = check_body(RULESET, state, seat, bodies.get(seat, ""))
        assert problems == [], problems
        out[seat] = checked.orders
    return RULESET.resolve(state, out, FixedDice([])).state


def _leader(state: State) -> str | None:
    return wings.leader_id(state, wings.wings(state)[0])


def test_the_form_offers_the_marker_and_silence_keeps_the_scenarios_leader():
    state = _sweep()
    form = RULESET.order_form(RULESET.view(state, "axis"), "axis")
    assert "# LEADER <squadron>: the Wing Leader marker of JG 1 goes on one of its squadrons (K, L; 5.2.1); else K" \
        in form, form
    after = _send(state, {})
    assert _leader(after) == "K" and after.leaders == ()
    assert "wing_leaders" not in RULESET.view(after, "axis")


def test_the_marker_goes_where_the_player_puts_it_with_the_wings_vector():
    """LEADER L: L leads JG 1 (its vector is K's O13), K keeps formation on it and may be placed around it."""
    state = _sweep()
    after = _send(state, {"axis": "LEADER L\nPLACE K W6"})
    assert _leader(after) == "L" and after.leaders == (("JG 1", "L"),)
    assert after.squadron("L").vector == (14, 13) and after.squadron("K").vector is None
    assert after.squadron("K").at == (22, 6)
    seen = RULESET.view(after, "allies")
    assert seen["wing_leaders"] == {"JG 1": "L"} and _leader(position(seen)) == "L"
    told = [e.text for e in RULESET.resolve(state, {"axis": check_body(RULESET, state, "axis", "LEADER L")[0].orders},
                                             FixedDice([])).events]
    assert any("L carries the Wing Leader marker of JG 1 (5.2.1)" in t for t in told), told


def test_the_marked_squadron_keeps_its_square_and_alone_places_the_vector():
    """With LEADER L, L's square is the order of battle's (5.3 step 2) and K, now keeping formation, places no
    vector (9.5.3); K may be placed and L may place the vector."""
    problems = check_body(RULESET, _sweep(), "axis", "LEADER L\nPLACE L W9\nVECTOR K H12")[1]
    assert len(problems) == 2, problems
    assert "L is not an escort (step 5) nor a wing squadron" in problems[0] and problems[0].endswith("[5.3]")
    assert "K flies in JG 1: only its Wing Leader's squadron places a vector" in problems[1]
    assert problems[1].endswith("[9.5.3]")
    assert check_body(RULESET, _sweep(), "axis", "LEADER L\nPLACE K X8\nVECTOR L H12")[1] == []


def test_the_marker_is_refused_off_a_wing_twice_or_outside_the_set_up():
    state = _sweep()
    problems = check_body(RULESET, state, "axis", "LEADER L\nLEADER K")[1]
    assert len(problems) == 1 and "JG 1 has one Wing Leader marker, already on L" in problems[0], problems
    assert problems[0].endswith("[5.2.1]")
    assert check_body(RULESET, state, "axis", "LEADER Z")[1][0].endswith("[5.2.1]")
    later = _send(state, {})
    later = _send(later, {}) if RULESET.phase(later).name.startswith("setup") else later
    assert not RULESET.phase(later).name.startswith("setup")
    late = check_body(RULESET, later, "axis", "LEADER L")[1]
    assert len(late) == 1 and "only in the set-up" in late[0] and late[0].endswith("[5.2.1]"), late


def test_a_squadron_of_no_wing_cannot_take_the_marker():
    """The raid has no wing: LEADER on the Axis's K is refused, and the refusal says the Axis has no wing squadron."""
    raid = RULESET.setup("raid", RULESET.info.resolve_options({"setup": "players"}), SeededDice(SEED, "setup"))
    assert RULESET.phase(raid).awaiting == {"axis"}
    problems = check_body(RULESET, raid, "axis", "LEADER K")[1]
    assert len(problems) == 1 and "K flies in no wing" in problems[0] and "(yours: none)" in problems[0], problems
    assert problems[0].endswith("[5.2.1]")
