"""Card effects beyond the worked example: events, persistent cards, special manoeuvres, the
reaction tree's edge cases and step mode [2.6, 4.3, 6.3]."""
import pytest

from pbem.rules.sky_ww2 import combat
from pbem.rules.sky_ww2.views import view
from pbem.rules.sky_ww2 import RULESET
from skyhelp import doc, pending, position, problems, standing, step
from pbem.rules.sky_ww2.rulebook import cite

FULL5 = ["banked-turn", "dodge", "barrel-roll", "sideslip", "half-loop"]


def duel(a_hand, b_hand=(), a_face="E", b_face="W", a_num=5, b_num=2, **kw):
    return position({
        "c1": {"number": a_num, "alt": "medium", "cell": (2, 2), "facing": a_face, "hand": list(a_hand)},
        "x1": {"number": b_num, "alt": "medium", "cell": (3, 2), "facing": b_face, "hand": list(b_hand)},
    }, **kw)


PASSIVE = "REACT NONE\nREACT_DEFAULT PASS"


# ---- malfunctions [L196] -----------------------------------------------------------------------
def test_fuel_leak_damages_when_drawn_and_is_repaired_at_turn_end():
    s = duel(["dodge"] * 3, deck=["fuel-leak", "dodge"] + ["dive"] * 20, options={"events": True})
    d = doc(s)
    assert d["aircraft"]["c1"]["markers"] == 1 and "fuel-leak" in d["aircraft"]["c1"]["hand"]
    assert view(s, "axis-1")["aircraft"][0]["malfunctions"] == 1
    s, ev = step(s, {"coalition-1": "STAY\nEND"})
    assert "fuel-leak" not in doc(s)["aircraft"]["c1"]["hand"] and "fuel-leak" in doc(s)["discard"]


def test_gun_jam_costs_a_firing_point_while_held():
    s = duel(["short-burst", "gun-jam", "dodge", "dodge", "dodge"], b_face="E", options={"events": True})
    assert view(s, "coalition-1")["decide"]["relations"][0]["firing"] == 2 + 2 - 1


def test_engine_trouble_forbids_altitude_change():
    s = duel(["engine-trouble", "dodge", "dodge", "dodge", "dodge"], options={"events": True})
    assert problems(s, "coalition-1", "CLIMB")[0].rule == cite("L196")


# ---- rescue [L198] -----------------------------------------------------------------------------
def test_rescue_halves_the_score():
    s = duel(["short-burst", "dodge", "dodge", "dodge", "dodge"], b_hand=["parachute"], b_face="E",
             b_num=9, options={"events": True},
             tweak=lambda d: d["aircraft"]["x1"].update(damaged=True, markers=2))   # He 51: damaged structure 3
    s, ev = step(s, {"coalition-1": "STAY\nATTACK short-burst TARGET x1\nEND", "axis-1": PASSIVE})
    d = doc(s)
    assert d["aircraft"]["x1"]["destroyed"] and d["aircraft"]["x1"]["rescue"] == "parachute"
    assert d["vp"]["coalition"] == 13 // 2
    assert d["over"] and d["over"]["winner"] == "coalition"


# ---- persistent (red) attack [L209] --------------------------------------------------------------
def test_engine_burst_burns_at_the_victims_next_turns():
    s = duel(["engine-burst", "dodge", "dodge", "dodge", "dodge"], b_face="E", b_hand=FULL5)
    s, ev = step(s, {"coalition-1": "STAY\nATTACK engine-burst TARGET x1\nEND", "axis-1": PASSIVE})
    d = doc(s)
    x1 = d["aircraft"]["x1"]
    # 1 on the hit, 1 more at the start of x1's turn, which has just begun
    assert x1["markers"] == 2 and x1["attached"][0]["turns"] == 1
    assert "engine-burst" not in d["discard"]


# ---- special manoeuvres [L166-170, L219-223] ---------------------------------------------------
def test_neutral_position():
    s = duel(["half-loop"] + FULL5[:4], a_face="S", b_face="E")
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE half-loop TARGET x1\nEND", "axis-1": PASSIVE})
    assert (doc(s)["aircraft"]["c1"]["facing"], doc(s)["aircraft"]["x1"]["facing"]) == ("E", "W")


def test_enemy_descend_moves_the_target_only():
    s = duel(["push-down"] + FULL5[:4])
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE push-down TARGET x1\nEND", "axis-1": PASSIVE})
    d = doc(s)
    assert d["aircraft"]["x1"]["alt"] == "low" and d["aircraft"]["c1"]["alt"] == "medium"
    assert d["aircraft"]["x1"]["cell"] == [3, 3]        # the axis start cell at low altitude [L133]


def test_self_climb_without_cost_or_pursuit():
    def pol(d):
        standing(d, "axis-1", "ON_PURSUIT ALL YES")
    s = duel(["zoom-climb"] + FULL5[:4], tweak=pol)
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE zoom-climb TARGET x1\nEND", "axis-1": PASSIVE})
    d = doc(s)
    assert d["aircraft"]["c1"]["alt"] == "high" and d["aircraft"]["x1"]["alt"] == "medium"
    assert not any("pursue" in e for e in ev)


def test_countermove_as_manoeuvre():
    s = duel(["counter-turn"] + FULL5[:4], a_face="N", b_face="N")
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE counter-turn TARGET x1\nEND", "axis-1": PASSIVE})
    assert (doc(s)["aircraft"]["c1"]["facing"], doc(s)["aircraft"]["x1"]["facing"]) == ("E", "W")


def test_manoeuvre_without_dogfight_acts_on_self_only():
    s = position({"c1": {"number": 5, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 4), "facing": "W"}})
    assert not problems(s, "coalition-1", "STAY\nMANOEUVRE banked-turn APPLY SELF ROTATE CCW")
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn APPLY SELF ROTATE CCW\nEND"})
    assert doc(s)["aircraft"]["c1"]["facing"] == "N"


# ---- the reaction tree [4.3] -------------------------------------------------------------------
def table(*nodes):
    return {"attacker": "c1", "target": "x1", "closed": False, "nodes": [
        {"n": i + 1, "card": c, "party": p, "ac": "", "target": t, "removed": False, "source": "hand", "crit": None}
        for i, (c, p, t) in enumerate(nodes)]}


def test_ace_reaction_never_targets_the_action():
    ex = table(("short-burst", "att", None))
    assert "cannot answer" in combat.play_problem(ex, "ace-reaction", "def", 1, True)


def test_ace_removes_its_target_and_subtree():
    ex = table(("banked-turn", "att", None), ("dodge", "def", 1), ("dodge", "att", 2))
    assert combat.live(ex)
    ex = combat.play(ex, "ace-reaction", "def", "x1", 3, "hand")
    assert [n["removed"] for n in ex["nodes"]] == [False, False, True, True] and not combat.live(ex)


@pytest.mark.parametrize("distinct,ok", [(True, False), (False, True)])
def test_distinct_reactions_option(distinct, ok):
    # two different targets are fine; the same card twice on one card is not, under the literal reading
    ex = table(("banked-turn", "att", None), ("dodge", "def", 1), ("feint", "att", 2), ("dodge", "def", 1))
    ex["nodes"][3]["removed"] = False
    ex2 = table(("banked-turn", "att", None), ("dodge", "def", 1), ("feint", "att", 2))
    assert not combat.play_problem(ex2, "counter-turn", "def", 1, distinct)
    problem = combat.play_problem(ex2, "dodge", "def", 1, distinct)
    assert (problem == "") is ok


def test_pointless_reaction_is_not_offered():
    ex = table(("short-burst", "att", None), ("barrel-roll", "def", 1))
    assert "would not change the outcome" in combat.play_problem(ex, "sideslip", "def", 1, True) \
        or "cannot answer" in combat.play_problem(ex, "sideslip", "def", 1, True)
    assert "only the losing party" in combat.play_problem(ex, "barrel-roll", "def", 1, False)


# ---- step mode (10.2) -------------------------------------------------------------------------
def test_step_mode_stops_after_each_beat():
    s = duel(["banked-turn", "snap-shot", "dodge", "dodge", "dodge"], options={"step_mode": True})
    [p] = problems(s, "coalition-1", "STAY\nMANOEUVRE banked-turn TARGET x1\nATTACK snap-shot TARGET x1")
    assert p.rule == cite("L297")
    s, _ = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1", "axis-1": PASSIVE})
    assert pending(s)["kind"] == "script" and pending(s)["ac"] == "c1"
    assert "STAY" not in view(s, "coalition-1")["decide"] or not view(s, "coalition-1")["decide"]["first_step"]
    assert problems(s, "coalition-1", "STAY")[0].rule == cite("L295")
    s, _ = step(s, {"coalition-1": "END"})
    assert doc(s)["aircraft"]["c1"]["done"]


# ---- AA standing order, unequal sides ------------------------------------------------------------
def test_aa_hold_fire():
    s = position({"c1": {"number": 5, "alt": "low", "cell": (3, 4), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W"}},
                 ground={"axis": ["aa", "cp"]}, deck=["short-burst"] * 10,
                 tweak=lambda d: standing(d, "axis-1", "AA_FIRE NO"))
    assert doc(s)["aircraft"]["c1"]["markers"] == 0


def test_side_with_more_aircraft_finishes_its_round_alone():
    s = position({"c1": {"number": 5, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                  "c2": {"number": 7, "alt": "medium", "cell": (1, 3), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W", "hand": FULL5}},
                 initiative="axis")
    order = []
    for _ in range(3):
        order.append(pending(s)["ac"])
        s, _ = step(s, {pending(s)["seats"][0]: "STAY\nEND"})
    assert order == ["x1", "c1", "c2"] and doc(s)["round"] == 2


# ---- conditional beats (10.2) ----------------------------------------------------------------
@pytest.mark.parametrize("b_hand,expect_attack", [(["dodge"], False), (["sideslip"], True)])
def test_if_prev_ok_and_position(b_hand, expect_attack):
    # the Banked turn is cancelled by a Dodge (then the attack is skipped) or goes through (then it runs)
    s = duel(["banked-turn", "short-burst", "snap-shot", "barrel-roll", "sideslip"], b_hand=b_hand, a_num=8)
    body = ("STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW\n"
            "IF PREV_OK THEN ATTACK short-burst TARGET x1\nIF POS x1 FRONT THEN ATTACK snap-shot TARGET x1\nEND")
    s, ev = step(s, {"coalition-1": body, "axis-1": "REACT x1 ANY\nREACT_DEFAULT PASS"})
    played = [e for e in ev if "plays Short burst" in e]
    front = [e for e in ev if "plays Snap shot" in e]
    assert bool(played) is expect_attack
    assert bool(front) is (not expect_attack)      # still Front only when the turn failed


def test_if_needs_a_beat_and_has_no_else():
    s = duel(["banked-turn", "short-burst", "snap-shot"], b_hand=["dodge"], a_num=8)
    probs = problems(s, "coalition-1", "STAY\nIF PREV_OK THEN END\n"
                     "IF POS x1 FRONT THEN ATTACK short-burst TARGET x1 ELSE ATTACK snap-shot TARGET x1\n"
                     "IF POS x9 REAR THEN ATTACK snap-shot TARGET x1")
    assert [p.code.value for p in probs] == ["order/syntax", "order/illegal", "order/illegal"]
    assert [p.text.split()[-1] for p in probs] == ["END", "x1", "x1"]
    assert "no ELSE" in probs[1].message and "'x9' is not an enemy" in probs[2].message


def test_phases_are_the_step_table_with_numbered_decisions():
    s = duel(["banked-turn", "snap-shot"], b_hand=["dodge"], a_num=8)
    first = RULESET.phase(s)
    assert (first.name, first.awaiting, first.window.value) == ("c1-turn-2", {"coalition-1"}, "orders")
    assert first.optional == {"axis-1"} and first.title == "round 1: c1 turn"
    s, _ = step(s, {"coalition-1": "STAY\nATTACK snap-shot TARGET x1\nEND", "axis-1": "REACT_DEFAULT ASK"})
    react = RULESET.phase(s)                  # the defender owes an answer nobody's standing order gives
    assert (react.name, react.awaiting, react.window.value, react.hours) == \
        ("x1-reaction-3", {"axis-1"}, "interrupt", 24.0)
    assert RULESET.default_orders(s, "axis-1") == ()


def test_pursuer_keeps_descent_excess_until_its_own_turn_end():
    def pol(d):
        standing(d, "axis-1", "ON_PURSUIT ALL YES")
    s = position({"c1": {"number": 5, "alt": "medium", "cell": (2, 2), "facing": "W", "hand": FULL5},
                  "x1": {"number": 9, "alt": "medium", "cell": (3, 2), "facing": "W",      # He 51: TTX 4
                         "hand": ["dodge", "dive", "snap-shot", "sideslip"]}},
                 tweak=pol, deck=["aimed-fire"] * 30)
    s, ev = step(s, {"coalition-1": "DESCEND FACE W\nEND"})
    x1 = doc(s)["aircraft"]["x1"]
    # 4 + 1 from the descent: over TTX 4 during c1's turn; now x1's own turn (no draw at a full hand)
    assert x1["alt"] == "low" and len(x1["hand"]) == 5 and doc(s)["turn"]["ac"] == "x1"
    s, ev = step(s, {"axis-1": "STAY\nEND"})
    assert len(doc(s)["aircraft"]["x1"]["hand"]) == 4


@pytest.mark.parametrize("markers,lethal_plays", [(0, False), (3, True)])
def test_react_lethal_rule(markers, lethal_plays):
    # x1 is a damaged Bf 109G (damaged structure 4): a Short burst (3) kills it only with 1 marker on it
    s = duel(["short-burst", "dodge", "dodge", "dodge", "dodge"], b_hand=["barrel-roll"], b_face="E", b_num=2,
             tweak=lambda d: d["aircraft"]["x1"].update(damaged=True, markers=markers - 2 if markers else 0))
    s, ev = step(s, {"coalition-1": "STAY\nATTACK short-burst TARGET x1\nEND",
                     "axis-1": "REACT x1 barrel-roll LETHAL\nREACT_DEFAULT PASS"})
    assert any("answers with Barrel roll" in e for e in ev) is lethal_plays


def test_react_max_cards_per_exchange():
    s = duel(["banked-turn", "dodge", "dodge", "feint", "dodge"], b_hand=["dodge", "dodge", "sideslip"], a_num=8)
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1\nON_CANCELLED dodge\nEND",
                     "axis-1": "REACT x1 ANY MAX 1\nREACT_DEFAULT PASS"})
    assert sum(1 for e in ev if e.startswith("x1 answers")) == 1
    assert any("Banked turn succeeds" in e for e in ev)
