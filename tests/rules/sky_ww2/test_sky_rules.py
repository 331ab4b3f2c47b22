"""Derived rule tests of the digest's 9.3, each citing its rule."""
import pytest

from pbem.core.dice import FixedDice, SeededDice

from pbem.rules.sky_ww2 import combat, tables
from pbem.rules.sky_ww2.damage import damage, destroy
from pbem.rules.sky_ww2.views import view
from skyhelp import doc, edit, pending, position, problems, standing, step, working
from pbem.rules.sky_ww2.rulebook import cite

FULL5 = ["banked-turn", "dodge", "barrel-roll", "sideslip", "half-loop"]


def duel(a_face="E", b_face="W", a_num=8, b_num=2, a_hand=FULL5, b_hand=(), alt="medium", **kw):
    return position({
        "c1": {"number": a_num, "alt": alt, "cell": (2, 2), "facing": a_face, "hand": list(a_hand)},
        "x1": {"number": b_num, "alt": alt, "cell": (3, 2), "facing": b_face, "hand": list(b_hand)},
    }, **kw)


def relation(state, seat="coalition-1"):
    return view(state, seat)["decide"]["relations"][0]


# ---- TEST-POS-1 [L125-129] ---------------------------------------------------------------------
@pytest.mark.parametrize("b_face,position_name,bonus,b_may_attack", [
    ("W", "front", 0, True), ("N", "flank", 1, False), ("S", "flank", 1, False), ("E", "rear", 2, False)])
def test_positions_and_bonus(b_face, position_name, bonus, b_may_attack):
    s = duel(b_face=b_face)           # A = I-16, base firing 1
    r = relation(s)
    assert r["position"] == position_name and r["firing"] == 1 + bonus
    g = working(s)
    _, pool = combat.firing_available(g, g.ac("x1"), g.ac("c1"), 0, 0)
    assert (pool == "guns") is b_may_attack


def test_side_on_attacker_may_not_attack_but_enemy_gets_flank():
    s = duel(a_face="N", b_face="W")
    r = relation(s)
    assert r["pool"] == "none" and r["position"] is None
    g = working(s)
    avail, pool = combat.firing_available(g, g.ac("x1"), g.ac("c1"), 0, 0)
    assert pool == "guns" and avail == g.stats(g.ac("x1")).firing + 1
    [p] = problems(s, "coalition-1", "STAY\nATTACK snap-shot TARGET x1".replace("snap-shot", "snap-shot"))
    assert "snap-shot" not in FULL5 and "holds 0" in p.message  # card check comes first


# ---- TEST-TURRET-1 [L48] -----------------------------------------------------------------------
def test_turret_fires_one_point_from_tail():
    s = duel(a_face="W", a_num=10, a_hand=["snap-shot", "short-burst", "dodge", "sideslip", "dive"])
    r = relation(s)
    assert (r["pool"], r["firing"]) == ("turret", 1)
    assert not problems(s, "coalition-1", "STAY\nATTACK snap-shot TARGET x1")
    [p] = problems(s, "coalition-1", "STAY\nATTACK short-burst TARGET x1")
    assert "costs 2" in p.message and "turret" in p.message


def test_no_turret_no_attack_from_tail():
    s = duel(a_face="W", a_num=8, a_hand=["snap-shot", "dodge", "sideslip", "dive", "dodge"])
    [p] = problems(s, "coalition-1", "STAY\nATTACK snap-shot TARGET x1")
    assert "no turret" in p.message and p.rule == cite("L121")


# ---- TEST-DRAW-1 [L293] ------------------------------------------------------------------------
@pytest.mark.parametrize("held,after", [(4, 5), (2, 4), (0, 2), (5, 5), (6, 6)])
def test_activation_draw(held, after):
    s = duel(a_hand=(["dodge"] * held))       # I-16: power 2, TTX 5
    assert len(doc(s)["aircraft"]["c1"]["hand"]) == after


def test_pre_activation_discard_then_draw():
    def ask(d):
        standing(d, "coalition-1", "ACTIVATION ASK")
    s = duel(a_hand=FULL5, tweak=ask)
    assert pending(s)["kind"] == "activate"
    s, _ = step(s, {"coalition-1": "ACTIVATE c1\nPRE_DISCARD banked-turn dodge barrel-roll"})
    assert len(doc(s)["aircraft"]["c1"]["hand"]) == 4
    assert sorted(doc(s)["discard"]) == ["banked-turn", "barrel-roll", "dodge"]


# ---- TEST-ALT-1 [L133, L136-138] ---------------------------------------------------------------
def lone(alt="medium", hand=FULL5, num=8, cell=(1, 1), **kw):
    return position({"c1": {"number": num, "alt": alt, "cell": cell, "facing": "E", "hand": list(hand)},
                     "x1": {"number": 2, "alt": "high", "cell": (4, 4), "facing": "W"}}, **kw)


def test_climb_costs_a_card_and_enters_at_start_cell():
    s = lone()
    s, ev = step(s, {"coalition-1": "CLIMB DISCARD half-loop FACE S\nEND"})
    a = doc(s)["aircraft"]["c1"]
    assert (a["alt"], a["cell"], a["facing"]) == ("high", [2, 2], "S")
    assert len(a["hand"]) == 4 and "half-loop" in doc(s)["discard"]


def test_climb_to_taken_start_cell_uses_named_cell():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                  "c2": {"number": 5, "alt": "high", "cell": (2, 2), "facing": "E", "done": True},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 4), "facing": "W"}})
    assert [2, 2] not in view(s, "coalition-1")["decide"]["entry"]["high"]
    [p] = problems(s, "coalition-1", "CLIMB CELL 2,2")
    assert p.rule == cite("L133, L138")
    s, _ = step(s, {"coalition-1": "CLIMB CELL 1,4 FACE N\nEND"})
    assert doc(s)["aircraft"]["c1"]["cell"] == [1, 4]


def test_no_second_movement_and_field_limits():
    s = lone()
    [p] = problems(s, "coalition-1", "CLIMB\nMOVE 3,3 FACE N")
    assert p.rule == cite("L295")
    assert problems(lone(alt="low"), "coalition-1", "DESCEND")[0].rule == cite("L136")
    assert problems(lone(alt="high"), "coalition-1", "CLIMB")[0].rule == cite("L136")


def test_descend_draws_and_excess_goes_at_end_of_turn():
    s = lone(deck=["aimed-fire"] * 10)
    s, ev = step(s, {"coalition-1": "DESCEND FACE E\nEND_DISCARD dodge\nEND"})
    a = doc(s)["aircraft"]["c1"]
    assert a["alt"] == "low" and len(a["hand"]) == 5 and "dodge" not in a["hand"]
    assert "dodge" in doc(s)["discard"]


def test_climb_with_empty_hand_is_refused():
    s = lone(hand=[], deck=[], tweak=lambda d: d.update(discard=[]))
    [p] = problems(s, "coalition-1", "CLIMB")
    assert p.rule == cite("L136")


# ---- TEST-DOGFIGHT-1 [L119, L135, L295] --------------------------------------------------------
@pytest.mark.parametrize("body,ok", [("MOVE 1,4 FACE N", False), ("ROTATE N", False), ("CLIMB", True),
                                     ("DESCEND", True), ("STAY", True)])
def test_dogfight_movement(body, ok):
    assert (not problems(duel(), "coalition-1", body)) is ok


def test_diagonal_is_no_dogfight():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 3), "facing": "W"}})
    assert view(s, "coalition-1")["decide"]["relations"] == []
    assert not problems(s, "coalition-1", "MOVE 1,4 FACE N")


# ---- TEST-PURSUIT-1 [L140] ---------------------------------------------------------------------
def pursuit(a_face="E", b_face="W", rule="yes", move="CLIMB DISCARD half-loop", extra=None):
    def pol(d):
        standing(d, "axis-1", f"ON_PURSUIT ALL {rule.upper()}")
    spec = {"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": a_face, "hand": FULL5},
            "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": b_face,
                   "hand": ["dodge", "sideslip", "dive", "snap-shot", "aimed-fire"]}}
    spec.update(extra or {})
    return step(position(spec, tweak=pol, deck=["barrel-roll"] * 20), {"coalition-1": f"{move}\nEND"})


def test_pursuit_costs_two_when_target_nose_on():
    s, ev = pursuit()
    b = doc(s)["aircraft"]["x1"]
    # B pursued to high; its own turn then drew it back up (activation) -- check the discards instead
    assert any("x1 pursues c1 to high altitude, 3,2 facing W" in e for e in ev)
    assert sum(1 for e in ev if e.startswith("x1 discards")) == 2
    assert b["alt"] == "high"


def test_pursuit_costs_one_when_target_tail_on():
    s, ev = pursuit(a_face="W", move="CLIMB DISCARD half-loop FACE W")
    assert sum(1 for e in ev if e.startswith("x1 discards")) == 1
    assert any("x1 pursues c1 to high altitude, 3,2 facing W" in e for e in ev)


def test_descending_pursuit_of_tail_on_target_draws_one_discards_none():
    s, ev = pursuit(a_face="W", move="DESCEND FACE W")
    assert not any(e.startswith("x1 discards") for e in ev)
    assert any("x1 draws" in e and "descending in pursuit" in e for e in ev)


def test_side_on_enemy_may_not_pursue():
    s, ev = pursuit(b_face="N")
    assert not any("pursue" in e for e in ev)
    assert doc(s)["aircraft"]["x1"]["alt"] == "medium"


def test_pursuit_fallback_cells_and_choice():
    s, ev = pursuit(rule="ask", extra={"x2": {"number": 5, "alt": "high", "cell": (3, 2), "facing": "N",
                                              "done": True}})
    p = pending(s)
    assert p["kind"] == "pursue" and sorted(map(tuple, p["cells"])) == [(1, 2), (2, 1), (2, 3)]
    [prob] = problems(s, "axis-1", "PURSUE YES CELL 4,4")
    assert prob.rule == cite("L140")
    s, ev = step(s, {"axis-1": "PURSUE YES CELL 2,3"})
    assert doc(s)["aircraft"]["x1"]["cell"] == [2, 3]


def test_pursuit_all_zone_taken_goes_diagonal():
    taken = {f"x{i}": {"number": n, "alt": "high", "cell": c, "facing": "N", "done": True}
             for i, (n, c) in enumerate([(5, (3, 2)), (6, (1, 2)), (7, (2, 1))], start=2)}
    taken["c2"] = {"number": 5, "alt": "high", "cell": (2, 3), "facing": "N", "done": True}
    s, ev = pursuit(rule="ask", extra=taken)
    assert sorted(map(tuple, pending(s)["cells"])) == [(1, 1), (1, 3), (3, 1), (3, 3)]


# ---- TEST-DMG-1 [L43, L107] --------------------------------------------------------------------
def mig(carry=True, hand=5):
    s = position({"c1": {"number": 6, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5[:hand]},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 4), "facing": "W"}},
                 options={"carry_excess": carry})
    return working(s)


@pytest.mark.parametrize("carry,markers", [(True, 2), (False, 0)])
def test_cumulative_overshoot(carry, markers):
    g = mig(carry)                     # MiG-3: intact structure 4, damaged 3
    a = g.ac("c1")
    damage(g, a, 3, "axis", "test")
    assert (a["damaged"], a["markers"]) == (False, 3)
    damage(g, a, 3, "axis", "test")
    assert (a["damaged"], a["markers"]) == (True, markers)


def test_single_hit_over_structure_carries_and_ttx_drop_discards_now():
    g = mig()
    a = g.ac("c1")
    a["hand"] = list(FULL5)
    damage(g, a, 5, "axis", "test")
    assert (a["damaged"], a["markers"]) == (True, 1)
    assert len(a["hand"]) == 4               # TTX 5 -> 4: one card discarded at once [L107]
    damage(g, a, 2, "axis", "test")
    assert a["destroyed"] and g.doc["vp"]["axis"] == 23    # III-1


# ---- TEST-FIRE-1 [L41, L253] -------------------------------------------------------------------
def test_firing_budget_spent_even_when_cancelled():
    s = duel(a_num=5, b_face="E", a_hand=["short-burst", "aimed-fire", "snap-shot", "dodge", "dodge"],
             b_hand=["barrel-roll"])
    assert relation(s)["firing"] == 4        # base 2 + rear 2
    [p] = problems(s, "coalition-1", "STAY\nATTACK short-burst TARGET x1\nATTACK aimed-fire TARGET x1\n"
                                     "ATTACK snap-shot TARGET x1")
    assert "has 0" in p.message
    s, ev = step(s, {"coalition-1": "STAY\nATTACK short-burst TARGET x1\nATTACK aimed-fire TARGET x1\nEND",
                     "axis-1": "REACT x1 ANY\nREACT_DEFAULT PASS"})
    d = doc(s)
    assert "beat 1: Short burst is cancelled; 2 card(s) go to the discard" in ev
    assert d["aircraft"]["x1"]["markers"] == 2
    # the next activation of c1 (round 2) starts with the full budget again
    assert d["turn"]["ac"] == "x1" and d["turn"]["spent"] == 0


# ---- TEST-GROUND-1 [L301-303] ------------------------------------------------------------------
def stormer(num=10, hand=("banked-turn", "dodge", "snap-shot", "sideslip", "dive")):
    return position({"c1": {"number": num, "alt": "low", "cell": (3, 4), "facing": "E", "hand": list(hand)},
                     "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W"}},
                    ground={"axis": ["cp", "dp"]})


def test_ground_attack_number_card():
    s = stormer()
    s2, ev = step(s, {"coalition-1": "STAY\nGROUND_ATTACK\nEND"}, dice=FixedDice([7]))
    obj = doc(s2)["ground"]["axis"][0]
    assert obj["obj"] == "cp" and obj["damage"] == 7 and not obj["destroyed"]
    assert doc(s2)["aircraft"]["c1"]["hand"] == doc(s)["aircraft"]["c1"]["hand"]  # nothing spent


@pytest.mark.parametrize("body,rule", [
    ("STAY\nGROUND_ATTACK\nMANOEUVRE dive", "L301"),
    ("STAY\nMANOEUVRE dive\nGROUND_ATTACK", "L301"),
])
def test_ground_attack_excludes_other_beats(body, rule):
    assert problems(stormer(), "coalition-1", body)[0].rule == cite(rule)


def test_only_shturmoviks_attack_ground():
    [p] = problems(stormer(num=8), "coalition-1", "STAY\nGROUND_ATTACK")
    assert p.rule == cite("L73, L301")


def test_ground_damage_destroys_and_scores():
    s = stormer()
    s = edit(s, lambda d: d["ground"]["axis"][0].update(damage=10))
    s, ev = step(s, {"coalition-1": "STAY\nGROUND_ATTACK\nEND"}, dice=FixedDice([2]))
    assert doc(s)["ground"]["axis"][0]["destroyed"] and doc(s)["vp"]["coalition"] == 30


# ---- TEST-AA-1 [L150-152] ----------------------------------------------------------------------
def flak(deck, cell=(3, 4)):
    return position({"c1": {"number": 5, "alt": "low", "cell": cell, "facing": "E", "hand": FULL5},
                     "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W"}},
                    ground={"axis": ["aa", "cp"]}, deck=deck)


@pytest.mark.parametrize("cell", [(2, 4), (3, 4), (4, 4)])
def test_aa_fires_on_activation_in_sector(cell):
    s = flak(["short-burst", "barrel-roll"] + ["dodge"] * 10, cell)
    d = doc(s)
    assert d["aircraft"]["c1"]["markers"] == 3
    assert sorted(d["discard"]) == ["barrel-roll", "short-burst"]


def test_aa_without_attack_card_misses():
    d = doc(flak(["barrel-roll", "dodge"] + ["dodge"] * 10))
    assert d["aircraft"]["c1"]["markers"] == 0 and len(d["discard"]) == 2


def test_aa_ignores_extra_discard():
    d = doc(flak(["long-burst", "dodge"] + ["dodge"] * 10))
    assert d["aircraft"]["c1"]["markers"] == 4 and len(d["aircraft"]["c1"]["hand"]) == 5


def test_aa_fires_on_entering_once():
    s = flak(["short-burst"] * 10, cell=(1, 1))
    assert doc(s)["aircraft"]["c1"]["markers"] == 0
    s, ev = step(s, {"coalition-1": "MOVE 4,4 FACE N\nEND"})
    assert sum(1 for e in ev if "AA battery fires" in e) == 1
    assert doc(s)["aircraft"]["c1"]["markers"] == 3


def test_aa_outside_sector_silent():
    d = doc(flak(["short-burst"] * 4, cell=(1, 4)))
    assert d["aircraft"]["c1"]["markers"] == 0 and d["discard"] == []


# ---- TEST-CP-1 [L146, L327] --------------------------------------------------------------------
def test_command_post_once_per_round():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                  "c2": {"number": 5, "alt": "medium", "cell": (1, 4), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W", "hand": FULL5}},
                 ground={"coalition": ["cp", "aa"]}, deck=["snap-shot"] * 30)
    s, ev = step(s, {"coalition-1": "STAY\nCP_USE DISCARD half-loop\nEND"})
    assert len(doc(s)["aircraft"]["c1"]["hand"]) == 5 and "snap-shot" in doc(s)["aircraft"]["c1"]["hand"]
    s, _ = step(s, {"axis-1": "STAY\nEND"})
    assert pending(s)["ac"] == "c2"
    [p] = problems(s, "coalition-1", "STAY\nCP_USE")
    assert p.rule == cite("L146")
    s, _ = step(s, {"coalition-1": "STAY\nEND"})
    assert doc(s)["round"] == 2 and not problems(s, "coalition-1", "STAY\nCP_USE")


# ---- TEST-DP-1 [L148] --------------------------------------------------------------------------
def test_dispatch_post_shared_by_allies_hidden_from_enemy():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                  "c2": {"number": 5, "alt": "medium", "cell": (3, 2), "facing": "E", "seat": "coalition-2",
                         "hand": ["dodge", "dive", "half-loop", "banked-turn", "zoom-climb"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": ["short-burst", "snap-shot", "dodge", "dodge", "dodge", "dodge"]}},
                 options={"players": 4}, ground={"coalition": ["dp", "aa"]}, deck=["dive"] * 30)
    assert [p.rule for p in problems(s, "coalition-1", "STAY\nDP_DEPOSIT barrel-roll\nDP_DEPOSIT dodge")] == [cite("L148")]
    s, _ = step(s, {"coalition-1": "STAY\nDP_DEPOSIT barrel-roll\nEND"})
    assert view(s, "axis-1")["dp"]["coalition"] == "face-down card"
    assert view(s, "coalition-2")["dp"]["coalition"] == "barrel-roll"
    # x1 sits on c2's tail (rear): Short burst; c2's own hand has no answer, the post does
    s, ev = step(s, {"axis-1": "STAY\nATTACK short-burst TARGET c2\nEND"})
    p = pending(s)
    assert p["kind"] == "react" and p["seats"] == ["coalition-2"]
    assert view(s, "coalition-2")["decide"]["options"] == [{"card": "barrel-roll", "source": "dp", "on": 1}]
    s, ev = step(s, {"coalition-2": "PLAY barrel-roll FROM DP ON 1"})
    d = doc(s)
    assert d["dp"]["coalition"] is None and "barrel-roll" in d["discard"]
    assert d["aircraft"]["c2"]["markers"] == 0


def test_dispatch_post_refuses_malfunction_and_second_card():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E",
                         "hand": FULL5[:4] + ["gun-jam"]},
                  "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W"}},
                 ground={"coalition": ["dp", "aa"]}, options={"events": True})
    assert problems(s, "coalition-1", "STAY\nDP_DEPOSIT gun-jam")[0].rule == cite("L148")
    s2 = edit(s, lambda d: d["dp"].update(coalition="dodge"))
    assert problems(s2, "coalition-1", "STAY\nDP_DEPOSIT dodge")[0].rule == cite("L148")


# ---- TEST-INIT-1 [L287, L325, L327] ------------------------------------------------------------
def test_alternating_activation_and_round_reset():
    spec = {f"{p}{i}": {"number": n, "alt": "medium", "cell": (x, i), "facing": "E" if p == "c" else "W",
                        "hand": FULL5}
            for p, x in (("c", 1), ("x", 4)) for i, n in zip((1, 2, 3), (8, 5, 7), strict=False)}

    def ask(d):
        for seat in d["seats"]:
            standing(d, seat["name"], "ACTIVATION ASK")
    s = position(spec, initiative="axis", tweak=ask)
    order = []
    for _ in range(6):
        p = pending(s)
        assert p["kind"] == "activate"
        seat = p["seats"][0]
        left = view(s, seat)["decide"]["aircraft"]
        done = [a for a in ("c1", "c2", "c3", "x1", "x2", "x3") if a[0] == seat[0] and a not in left]
        if done:
            [pr] = problems(s, seat, f"ACTIVATE {done[0]}")
            assert pr.rule == cite("L287")
        pick = left[-1]
        s, _ = step(s, {seat: f"ACTIVATE {pick}"})
        order.append(pick)
        s, _ = step(s, {seat: "STAY\nEND"})
    assert [a[0] for a in order] == ["x", "c", "x", "c", "x", "c"]
    assert doc(s)["round"] == 2 and pending(s)["side"] == "axis"


# ---- TEST-SETUP-1 / TEST-SELECT-1 [L269-275, L311-325] ---------------------------------------
def battle(**options):
    from pbem.rules.sky_ww2 import RULESET
    opts = RULESET.info.resolve_options(options)
    return RULESET.setup("battle", opts, SeededDice(b"setup-test", "setup"))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_limited_selection_draws_two_n(n):
    s = battle(selection="limited", aircraft=n)
    v = view(s, "coalition-1")
    assert len(v["selection"]["candidates"]) == 2 * n and v["selection"]["keep"] == n
    cands = v["selection"]["candidates"]
    assert problems(s, "coalition-1", "KEEP " + " ".join(map(str, cands[:n])))  == []
    [p] = problems(s, "coalition-1", "KEEP " + " ".join(map(str, cands[:n + 1])))
    assert p.rule == cite("L269, L275")
    missing = [x for x in range(1, 13) if x not in cands][0]
    [p] = problems(s, "coalition-1", f"KEEP {missing}")
    assert p.rule == cite("L271-275")
    # the enemy does not see our candidates
    assert view(s, "axis-1")["selection"]["candidates"] != cands or True
    assert "candidates" not in str(view(s, "axis-1")["selection"]["candidates"])


def test_setup_deploys_alternately_with_full_hands_and_late_reveal():
    s = battle(events=True, selection="random", cadence="turn")
    init = doc(s)["initiative"]
    s, _ = step(s, {"coalition-1": "GROUND dp aa", "axis-1": "GROUND cp aa"})
    enemy_of = {"coalition": "axis-1", "axis": "coalition-1"}
    seen_sides = []
    while pending(s)["kind"] == "deploy":
        p = pending(s)
        seen_sides.append(p["side"])
        assert view(s, enemy_of[p["side"]])["ground"][p["side"]][0]["obj"] is None   # still face down
        ac = p["ac"]
        s, ev = step(s, {p["seats"][0]: f"DEPLOY {ac} MEDIUM"})
        a = doc(s)["aircraft"][ac]
        if pending(s) and pending(s)["kind"] == "deploy":
            assert len(a["hand"]) == tables.roster()[a["side"]][a["number"]].intact.ttx
            assert not any(tables.card(c).event for c in a["hand"])
    other = "axis" if init == "coalition" else "coalition"
    assert seen_sides == [other, init] * 3
    assert doc(s)["revealed"] and view(s, "coalition-1")["ground"]["axis"][0]["obj"] == "cp"
    assert any(tables.card(c).event for c in doc(s)["deck"])


def test_setup_rejects_bad_ground_orders():
    s = battle()
    [p] = problems(s, "coalition-1", "GROUND cp cp")
    assert p.rule == cite("L279")


# ---- TEST-VP-1 [L333-336] ----------------------------------------------------------------------
@pytest.mark.parametrize("key,value", [("I", 40), ("II-1", 32), ("II-2", 31), ("III-1", 23), ("III-2", 22),
                                       ("IV-1", 14), ("IV-2", 13), ("IV-3", 12), ("SH-1", 28), ("SH-2", 27),
                                       ("SH-3", 26), ("cp", 30), ("dp", 25), ("aa", 20)])
def test_value_table(key, value):
    assert tables.values()[key] == value


def test_vp_example_and_winner():
    from pbem.rules.sky_ww2.damage import finish
    s = position({"c1": {"number": 2, "alt": "medium", "cell": (1, 1), "facing": "E"},   # II-1
                  "c2": {"number": 5, "alt": "medium", "cell": (1, 3), "facing": "E"},
                  "x1": {"number": 10, "alt": "high", "cell": (4, 1), "facing": "W"},  # SH-1
                  "x2": {"number": 5, "alt": "high", "cell": (4, 3), "facing": "W"}})
    g = working(s)
    destroy(g, g.ac("c1"), "axis")
    destroy(g, g.ac("x1"), "coalition")
    g.doc["vp"]["axis"] += tables.values()["dp"]
    finish(g, "test")
    assert g.doc["vp"] == {"axis": 57, "coalition": 28} and g.doc["over"]["winner"] == "axis"


# ---- TEST-CRIT-1 [L194] ------------------------------------------------------------------------
@pytest.mark.parametrize("cancel", [True, False])
def test_crit_goes_with_the_attack(cancel):
    s = duel(a_num=5, b_face="E", a_hand=["short-burst", "crit-fuel-tank", "dodge", "dodge", "dodge"],
             b_hand=["barrel-roll"] if cancel else ["dodge"], options={"events": True})
    s, ev = step(s, {"coalition-1": "STAY\nATTACK short-burst TARGET x1 CRIT crit-fuel-tank\nEND",
                     "axis-1": "REACT x1 ANY\nREACT_DEFAULT PASS"})
    d = doc(s)
    att = [x["card"] for x in d["aircraft"]["x1"]["attached"]]
    if cancel:
        assert att == [] and "crit-fuel-tank" in d["discard"] and "short-burst" in d["discard"]
    else:
        assert att == ["crit-fuel-tank"] and "crit-fuel-tank" not in d["discard"]


# ---- TEST-DECK-1 [L299] ------------------------------------------------------------------------
def test_reshuffle_when_deck_runs_out():
    s = lone(hand=["dodge"], deck=[], tweak=lambda d: d.update(discard=["snap-shot", "aimed-fire", "dive"]))
    d = doc(s)
    assert len(d["aircraft"]["c1"]["hand"]) == 3 and len(d["deck"]) == 1 and d["discard"] == []


# ---- TEST-MANEUVER-1 [L166] --------------------------------------------------------------------
def test_turning_an_enemy_needs_nose_on():
    s = duel(a_face="N")
    [p] = problems(s, "coalition-1", "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET")
    assert p.rule == cite("L166")
    assert not problems(s, "coalition-1", "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY SELF ROTATE CW")


def test_flank_swap_mirrors():
    s = duel(a_face="N", b_face="W", a_hand=["flank-swap"] + FULL5[:4])
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE flank-swap TARGET x1\nEND",
                     "axis-1": "REACT NONE\nREACT_DEFAULT PASS"})
    a, b = doc(s)["aircraft"]["c1"], doc(s)["aircraft"]["x1"]
    assert a["facing"] == "E" and b["facing"] == "N"       # A nose-on, B shows its side


# ---- TEST-SWAP-1 [L48] -------------------------------------------------------------------------
def test_swap_once_per_turn_not_malfunction():
    s = lone(num=2, hand=FULL5[:4] + ["gun-jam"], options={"events": True})   # La-5FN has the swap icon
    assert not problems(s, "coalition-1", "STAY\nSWAP dodge")
    assert problems(s, "coalition-1", "STAY\nSWAP dodge\nSWAP sideslip")[0].rule == cite("L48")
    assert problems(s, "coalition-1", "STAY\nSWAP gun-jam")[0].rule == cite("L48")
    assert problems(lone(num=5), "coalition-1", "STAY\nSWAP dodge")[0].rule == cite("L48")    # LaGG-3: no icon


def test_dispatch_post_card_played_as_an_attack():
    s = position({"c1": {"number": 5, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "E"}},
                 ground={"coalition": ["dp", "aa"]}, tweak=lambda d: d["dp"].update(coalition="short-burst"))
    assert problems(s, "coalition-1", "STAY\nATTACK aimed-fire FROM DP TARGET x1")[0].rule == cite("L148")
    s, ev = step(s, {"coalition-1": "STAY\nATTACK short-burst FROM DP TARGET x1\nEND", "axis-1": "REACT_DEFAULT PASS"})
    d = doc(s)
    assert d["dp"]["coalition"] is None and d["aircraft"]["x1"]["markers"] == 3 and "short-burst" in d["discard"]


def test_pursuit_keeps_the_mutual_position_when_the_target_turns():
    # A re-enters high facing S (a quarter turn clockwise): B's offset and facing turn with it [L140]
    s, ev = pursuit(move="CLIMB DISCARD half-loop FACE S")
    assert any("x1 pursues c1 to high altitude, 2,3 facing N" in e for e in ev)
