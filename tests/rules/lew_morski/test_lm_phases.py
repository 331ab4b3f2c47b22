"""The PBEM protocol: one message per side per stage, standing orders, interrupt windows for ASK decisions."""
from __future__ import annotations


from pbem.core.dice import FixedDice
from pbem.core.ruleset import Window
from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.orders import Policy

from .lm_helpers import at, check, keeping, new_state, only, put


def _duel(**options):
    s = only(new_state(**options), "Spit-1", "He111-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    return put(s, "He111-1", "A20,B15", "S")  # flies FFF to A20,B18: 2 hexes ahead of the Spitfire


def test_stage_is_two_ordinary_phases():
    s = new_state()
    ph = RULESET.phase(s)
    assert (ph.turn, ph.name, ph.awaiting) == (1, "de-move", frozenset({"de"}))
    res = RULESET.resolve(s, {"de": ()}, FixedDice([]))
    ph2 = RULESET.phase(res.state)
    assert (ph2.turn, ph2.name, ph2.awaiting) == (1, "gb-move", frozenset({"gb"}))


def test_standing_policy_fires_without_asking():
    s = _duel()
    orders = check(s, "de", "MOVE He111-1 FFF").orders
    # reactive default ALWAYS: the Spitfire fires; the He-111 faces it, so it returns fire at once (mutual, R 5.4)
    res = RULESET.resolve(s, {"de": orders}, FixedDice([4, 4, 1, 2]))
    assert res.state.step == "gb-move" and res.state.ac("He111-1").damaged


def test_policy_never_holds_fire():
    s = _duel()
    s = keeping(s, ("Spit-1", "react", "NEVER"))
    res = RULESET.resolve(s, {"de": check(s, "de", "MOVE He111-1 FFF").orders}, FixedDice([]))
    assert not res.state.ac("He111-1").damaged and res.state.ac("Spit-1").fired_stage == 0


def test_ask_policy_opens_interrupt_window_for_that_seat_only():
    s = _duel()
    pol = check(at(s, "gb-move"), "gb", "REACT Spit-1 ASK").orders
    assert pol == (Policy("Spit-1", "react", "ASK"),)
    kept = RULESET.resolve(at(s, "gb-move"), {"gb": pol}, FixedDice([1] * 8))  # whatever is fired misses
    assert kept.state.flow.standing.listing("gb") == ["REACT Spit-1 ASK"]
    assert [e.text for e in kept.events if e.kind == "standing"] == ["standing order REACT Spit-1 ASK is now in force"]
    assert RULESET.view(kept.state, "gb")["policies"] == [["Spit-1", "react", "ASK"]]
    assert "# REACT Spit-1 ASK" in RULESET.order_form(RULESET.view(kept.state, "gb"), "gb").splitlines()
    assert RULESET.view(kept.state, "de")["policies"] == []
    s = keeping(s, ("Spit-1", "react", "ASK"))
    res = RULESET.resolve(s, {"de": check(s, "de", "MOVE He111-1 FFF\nFIRE He111-1").orders}, FixedDice([]))
    ph = RULESET.phase(res.state)
    assert ph.name == "gb-react" and ph.window == Window.INTERRUPT and ph.awaiting == frozenset({"gb"})
    v = RULESET.view(res.state, "gb")
    assert v["ask"][0]["ac"] == "Spit-1" and v["ask"][0]["target"] == "He111-1" and v["ask"][0]["range"] == [7, 11]
    assert RULESET.view(res.state, "de")["ask"] == []
    bad = check(res.state, "gb", "REACT He111-1 FIRE").problems
    assert bad
    answer = check(res.state, "gb", "REACT Spit-1 FIRE").orders
    done = RULESET.resolve(res.state, {"gb": answer}, FixedDice([5, 5, 1, 2]))
    assert done.state.step == "gb-move" and done.state.ac("He111-1").damaged and done.state.flow.pending is None
    silent = RULESET.resolve(res.state, {"gb": RULESET.default_orders(res.state, "gb")}, FixedDice([1, 2]))
    # silence holds fire; then the He-111's own FIRE order is resolved (a miss)
    assert not silent.state.ac("He111-1").damaged and silent.state.ac("Spit-1").fired_stage == 0
    assert silent.state.ac("He111-1").fired_stage == 1


def test_return_fire_policy_no():
    s = only(new_state(), "Spit-1", "Me110-1")
    s = put(s, "Spit-1", "A20,B20", "N")
    s = put(s, "Me110-1", "A20,B15", "S")
    o = check(s, "de", "MOVE Me110-1 FFF\nRETURNFIRE Me110-1 NO").orders
    res = RULESET.resolve(s, {"de": o}, FixedDice([1, 2]))  # only the Spitfire rolls (a miss)
    assert res.state.ac("Me110-1").fired_stage == 0 and res.state.ac("Spit-1").fired_stage == 1
    o2 = check(s, "de", "MOVE Me110-1 FFF").orders
    res2 = RULESET.resolve(s, {"de": o2}, FixedDice([1, 2, 1, 2]))  # mutual: both roll
    assert res2.state.ac("Me110-1").fired_stage == 1


def test_players_per_side_seats_and_orders():
    s = new_state(players_per_side=2)
    assert [x.name for x in RULESET.seats(s)] == ["de-1", "de-2", "gb-1", "gb-2"]
    ph = RULESET.phase(s)
    assert ph.awaiting == frozenset({"de-1", "de-2"})
    v = RULESET.view(s, "de-1")
    mine = [a["id"] for a in v["own"]]
    body = "\n".join(f"MOVE {m} FFF" for m in mine)
    o1 = check(s, "de-1", body).orders
    res = RULESET.resolve(s, {"de-1": o1, "de-2": ()}, FixedDice([]))
    assert all(res.state.ac(m).path for m in mine)


def test_game_over_has_no_phase_and_an_outcome():
    s = only(new_state(), "Spit-1")
    s = at(s, "gb-move")
    res = RULESET.resolve(s, {"gb": ()}, FixedDice([]))
    assert res.state.step == "over" and RULESET.phase(res.state) is None
    out = RULESET.outcome(res.state)
    # only British units remain, but the game is decided on VP: 0/10 is 10 short, 0/15 is 15 short [R 8.2]
    assert out.winner == "de" and "only British units" in out.text


def test_stage_limit_option_ends_the_game():
    s = at(new_state(stage_limit=12), "gb-move", 12)
    res = RULESET.resolve(s, {"gb": ()}, FixedDice([]))
    assert res.state.step == "over" and "stage limit" in res.state.end_reason


def test_view_lists_legal_moves_and_targets():
    """The view gives each own aircraft its reachable end positions and its line-of-fire target now."""
    s = only(new_state(), "He111-1", "Spit-1")
    s = put(s, "He111-1", "A20,B30", "N")
    s = put(s, "Spit-1", "A22,B25", "S")
    v = RULESET.view(s, "de")
    he = v["own"][0] if v["own"][0]["id"] == "He111-1" else next(a for a in v["own"] if a["id"] == "He111-1")
    ends = {(m["end"], m["facing"], m["alt"]): m for m in he["moves"]}
    assert ("A22,B28", "NE", "HIGH") in ends and ends[("A22,B28", "NE", "HIGH")]["path"] == "FFRFF"
    assert all(len(m["path"].replace("L", "").replace("R", "")) <= 5 for m in he["moves"])  # 4, or 5 diving
    vg = RULESET.view(s, "gb")
    sp = vg["own"][0]
    assert sp["target"] is None
    s2 = put(s, "He111-1", "A22,B28", "N")
    sp2 = RULESET.view(s2, "gb")["own"][0]
    assert sp2["target"]["target"] == "He111-1" and sp2["target"]["dist"] == 3 and sp2["target"]["range"] == [8, 11]
