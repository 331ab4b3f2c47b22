"""Hidden information [5]: what a seat may not see never changes a byte of what it gets."""
import json

import pytest

from pbem.core.flow import Flow
from pbem.core.orders import OrderLine
from pbem.core.standing import Standing
from pbem.core.play import play

from pbem.rules.sky_ww2 import RULESET, tables
from pbem.rules.sky_ww2.standing import RULES, parse_standing, policies, standing_lines
from skyhelp import doc, edit, pending, position, step
from pbem.rules.sky_ww2.rulebook import cite

FULL5 = ["banked-turn", "dodge", "barrel-roll", "sideslip", "half-loop"]
BODY = ["STAY", "ATTACK short-burst TARGET x1", "MANOEUVRE banked-turn TARGET x1", "REACT ALL ANY",
        "CLIMB DISCARD dodge", "PLAY dodge ON 1", "PASS", "DEPLOY c1 LOW", "GROUND cp aa"]


def seen(state, seat):
    v = RULESET.view(state, seat)
    lines = [OrderLine(i + 1, t) for i, t in enumerate(BODY)]
    checked = RULESET.check_orders(v, seat, lines)
    return (json.dumps(v, sort_keys=True), RULESET.order_form(v, seat),
            [str(p) for p in checked.problems], repr(RULESET.picture(v)))


def four_player():
    return position({
        "c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
        "c2": {"number": 5, "alt": "medium", "cell": (1, 4), "facing": "E", "seat": "coalition-2",
               "hand": ["dodge", "dive", "snap-shot"]},
        "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["dodge", "barrel-roll"]},
        "x2": {"number": 5, "alt": "high", "cell": (4, 4), "facing": "W", "seat": "axis-2",
               "hand": ["aimed-fire", "gun-jam", "dive"]},
    }, options={"players": 4, "events": True}, ground={"coalition": ["dp", "aa"], "axis": ["cp", "dp"]},
        tweak=lambda d: d.update(deck=["snap-shot", "dive", "gun-jam"] + ["dodge"] * 20))


def swap_hand(aid, cards):
    return lambda d: d["aircraft"][aid].update(hand=cards)


VARIANTS = {
    # the other aircraft's hand: same size, same number of malfunction backs
    "c2": swap_hand("c2", ["barrel-roll", "long-burst", "aimed-fire"]),
    "x1": swap_hand("x1", ["short-burst", "feint"]),
    "x2": swap_hand("x2", ["barrel-roll", "fuel-leak", "half-loop"]),
    "c1": swap_hand("c1", ["long-burst"] * 5),
    # deck order below the top card (the top card's back is public)
    "deck": lambda d: d.update(deck=d["deck"][:1] + list(reversed(d["deck"][1:]))),
    # which card lies face down on the axis dispatch post (that one lies there is public)
    "axis-dp": lambda d: d["dp"].update(axis="sideslip"),
}
WHO_KNOWS = {"c1": {"coalition-1"}, "c2": {"coalition-2"}, "x1": {"axis-1"}, "x2": {"axis-2"},
             "deck": set(), "axis-dp": {"axis-1", "axis-2"}}


@pytest.mark.parametrize("secret", sorted(VARIANTS))
def test_views_do_not_leak(secret):
    base = four_player()
    base = edit(base, lambda d: d["dp"].update(axis="dodge"))
    other = edit(base, VARIANTS[secret])
    changed = 0
    for seat in ("coalition-1", "coalition-2", "axis-1", "axis-2"):
        same = seen(base, seat) == seen(other, seat)
        if seat in WHO_KNOWS[secret]:
            changed += not same
        else:
            assert same, f"{seat} can tell the {secret} variants apart"
    if WHO_KNOWS[secret]:
        assert changed, "the variant changed nothing its owner sees: the test proves nothing"


def test_ground_objects_and_candidates_hidden_before_reveal():
    from pbem.core.dice import SeededDice
    s = RULESET.setup("battle", RULESET.info.resolve_options({"selection": "limited", "cadence": "turn"}),
                      SeededDice(b"v", "setup"))
    s2 = edit(s, lambda d: d["selection"]["axis"].update(candidates=[1, 2, 3, 4, 5, 6]))
    assert seen(s, "coalition-1") == seen(s2, "coalition-1")
    assert seen(s, "axis-1") != seen(s2, "axis-1")
    s3, _ = step(s, {"coalition-1": "GROUND dp aa", "axis-1": "GROUND cp aa"})
    s4, _ = step(s, {"coalition-1": "GROUND dp aa", "axis-1": "GROUND dp cp"})
    seat = "coalition-1" if pending(s3)["side"] == "coalition" else None
    if seat:   # the coalition deploys first: it must not see the axis objects yet
        assert json.dumps(RULESET.view(s3, seat)["ground"]) == json.dumps(RULESET.view(s4, seat)["ground"])


def test_public_malfunction_count_and_top_back():
    s = four_player()
    v = RULESET.view(s, "coalition-1")
    x2 = next(a for a in v["aircraft"] if a["id"] == "x2")
    assert x2["hand_size"] == 3 and x2["malfunctions"] == 1
    assert "x2" not in v["hands"] and sorted(v["hands"]) == ["c1"]
    s2 = edit(s, lambda d: d.update(deck=["gun-jam"] + d["deck"]))
    assert RULESET.view(s2, "coalition-1")["top_is_malfunction"] is True
    assert RULESET.view(s, "coalition-1")["top_is_malfunction"] is False


def test_bot_games_never_leak_private_events():
    steps = play(RULESET, "quick", b"leak", options={"players": 2}, max_phases=25)
    for st in steps:
        for e in st.events:
            if " draws " in e.text and "card(s)" not in e.text:
                assert len(e.visible_to) == 1, e.text


# ---- standing orders: form -> parse -> same policy (round trip) -------------------------------
def test_standing_orders_round_trip():
    s = four_player()
    v = RULESET.view(s, "coalition-1")
    text = ["REACT c1 dodge AGAINST banked-turn", "REACT ALL ANY AGAINST ATTACK MIN_DAMAGE 3",
            "REACT c1 ace-reaction LETHAL MAX 2",
            "REACT_DEFAULT PASS", "ON_PURSUIT c1 FREE", "DISCARD_PRIORITY dive half-loop", "RESCUE NO",
            "ACTIVATION ASK", "DP_USE FIRST", "AA_FIRE NO", "SEQUENCE c2 c1"]
    items = [parse_standing(v, t.split()) for t in text]
    store = RULES.apply(Flow.load(doc(s)["flow"]).standing, "coalition-1", "coalition", items)[0]
    lines = RULES.listing(store, "coalition-1", "coalition")
    mine, side = policies(store, "coalition-1", "coalition")
    assert standing_lines({"policies": mine, "side_policies": side}) == lines, "the form lists what the kit keeps"
    again = RULES.apply(Standing(), "coalition-1", "coalition", [parse_standing(v, t.split()) for t in lines])[0]
    assert policies(again, "coalition-1", "coalition") == (mine, side)
    partner, shared = policies(store, "coalition-2", "coalition")
    assert shared == side == {"aa": "hold", "sequence": ["c2", "c1"]}, "AA_FIRE and SEQUENCE are the side's"
    assert partner == policies(Standing(), "coalition-2", "coalition")[0], "the partner keeps its own defaults"


def test_a_new_game_lists_the_defaults_in_force():
    v = RULESET.view(four_player(), "coalition-2")
    assert standing_lines(v) == ["REACT_DEFAULT ASK", "ON_PURSUIT ALL ASK", "RESCUE YES", "ACTIVATION AUTO",
                                 "DP_USE LAST", "AA_FIRE YES", "SEQUENCE c1 c2"]


# ---- illegal orders: every problem, with line and rule ------------------------------------------
def test_all_problems_reported_with_lines_and_rules():
    s = four_player()
    v = RULESET.view(s, "coalition-1")
    body = ["STAY", "ATTACK long-burst TARGET x1", "MANOEUVRE snap-shot TARGET x1", "SWAP dodge",
            "REACT c9 dodge", "FLY AWAY", "ON_CANCELLED dodge"]
    lines = [OrderLine(i + 1, t) for i, t in enumerate(body)]
    probs = RULESET.check_orders(v, "coalition-1", lines).problems
    by_line = {p.line_no: p for p in probs}
    assert sorted(by_line) == [2, 3, 5, 6, 7]   # 7: ON_CANCELLED after a line that is no beat
    assert "holds 0" in by_line[2].message
    assert by_line[3].rule == cite("L166, L184")
    assert by_line[5].rule == cite("L21")
    assert by_line[6].code.value == "order/syntax"
    assert all(not p.message[0].isupper() for p in probs)
    assert all(not p.message.endswith(".") for p in probs)


def test_non_awaited_seat_may_only_send_standing_orders():
    s = four_player()
    v = RULESET.view(s, "axis-2")
    probs = RULESET.check_orders(v, "axis-2", [OrderLine(1, "STAY"), OrderLine(2, "REACT ALL ANY")]).problems
    assert [p.line_no for p in probs] == [1] and probs[0].rule == "«Структура хода самолета» (Structure of an aircraft's turn)"


def test_roster_and_deck_data():
    for side in tables.SIDES:
        r = tables.roster()[side]
        assert sorted(r) == list(range(1, len(r) + 1)) and len(r) >= 10        # number cards 1..N [L91, L303]
        assert any(t.shturmovik for t in r.values()) and any(t.turret for t in r.values())
        assert any(t.swap for t in r.values())
    for _cid, c in tables.cards().items():
        assert c.count > 0
        if c.kind == "attack":
            assert c.cost >= 1 and c.damage >= 1
    assert tables.card("short-burst").cost == 2 and tables.card("short-burst").damage == 3    # [L231, L245]
    assert "banked-turn" in tables.card("dodge").cancels and "dodge" in tables.card("dodge").cancels
    assert "dodge" in tables.card("feint").cancels and tables.card("ace-reaction").remove
    assert {"short-burst", "barrel-roll"} <= set(tables.card("barrel-roll").cancels)
