"""Issue 16, Sky of WWII: what an owner of the box met playing by mail, each as a test."""
from __future__ import annotations

import re

import pytest

from pbem.rules.sky_ww2 import RULESET, tables
from pbem.rules.sky_ww2.rulebook import cite, cite_tags

from skyhelp import doc, pending, position, problems, standing, step

FULL5 = ["banked-turn", "dodge", "barrel-roll", "sideslip", "half-loop"]
DIGEST_OR_LINE = re.compile(r"^\s*\d+(\.\d+)*\b|\bL\d+|\bG-\d+")


def react_window(x_hand) -> object:
    """c1 lays a banked turn on x1; x1's seat has no REACT rule and asks to be asked."""
    def pol(d):
        standing(d, "axis-1", "REACT NONE", "REACT_DEFAULT ASK")
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": list(x_hand)}},
                 tweak=pol, deck=["dive"] * 20)
    s, _ = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW\nEND"})
    assert pending(s)["kind"] == "react" and pending(s)["seats"] == ["axis-1"]
    return s


# ---- a reaction line written above the form's PASS --------------------------------------------------
def test_reaction_line_above_the_forms_pass_is_rejected_not_dropped():
    s = react_window(["dodge", "dive"])
    [p] = problems(s, "axis-1", "PLAY dodge ON 1\nPASS")
    assert p.text == "PASS" and "one answer" in p.message and "Реакции" in p.rule


def test_reaction_line_alone_is_acted_on():
    s = react_window(["dodge", "dive"])
    s, ev = step(s, {"axis-1": "PLAY dodge ON 1"})
    assert any(e.startswith("x1 answers with Dodge against card 1") for e in ev)
    assert "dodge" not in doc(s)["aircraft"]["x1"]["hand"]


# ---- a window with no legal answer says so ------------------------------------------------------------
def test_window_without_a_legal_answer_says_so_plainly():
    s = react_window(["dive", "zoom-climb"])
    v = RULESET.view(s, "axis-1")
    assert v["decide"]["options"] == []
    form = RULESET.order_form(v, "axis-1")
    assert "No card you hold can answer now" in form and "tells the enemy nothing" in form


def test_no_window_when_the_hand_shows_only_malfunction_backs():
    # the malfunction backs are public: nobody learns anything from skipping a window no card could fill
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["gun-jam"]}},
                 tweak=lambda d: standing(d, "axis-1", "REACT NONE", "REACT_DEFAULT ASK"),
                 deck=["dive"] * 20, options={"events": True})
    s, ev = step(s, {"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW\nEND"})
    assert not (pending(s) and pending(s)["kind"] == "react")
    assert any("banked turn succeeds" in e.lower() for e in ev)


# ---- the pursuer names the cards it pays -------------------------------------------------------------
X_HAND = ["dodge", "sideslip", "dive", "snap-shot", "aimed-fire"]


def pursuit_window(a_face="E", move="CLIMB DISCARD half-loop"):
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": a_face, "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": list(X_HAND)}},
                 tweak=lambda d: standing(d, "axis-1", "ON_PURSUIT ALL ASK"), deck=["barrel-roll"] * 20)
    s, _ = step(s, {"coalition-1": f"{move}\nEND"})
    assert pending(s)["kind"] == "pursue"
    return s


def test_pursuer_names_its_discards_and_they_are_the_ones_paid():
    s = pursuit_window()
    s, ev = step(s, {"axis-1": "PURSUE YES DISCARD dive aimed-fire"})
    paid = [e for e in ev if e.startswith("x1 discards")]
    assert paid == [cite_tags("x1 discards Dive (the cost of climbing in pursuit [L140])"),
                    cite_tags("x1 discards Aimed fire (pursuing a target that showed its side or nose [L140])")]
    assert doc(s)["aircraft"]["x1"]["alt"] == "high"


def test_pursuit_discard_is_checked_against_the_hand_and_the_cost():
    s = pursuit_window()
    [p] = problems(s, "axis-1", "PURSUE YES DISCARD barrel-roll")
    assert "not a card x1 can discard" in p.message and "Преследование" in p.rule
    [p] = problems(s, "axis-1", "PURSUE YES DISCARD dodge dive sideslip")
    assert "costs 2 card(s)" in p.message
    [p] = problems(s, "axis-1", "PURSUE NO DISCARD dodge")
    assert "PURSUE NO takes no" in p.message
    assert problems(s, "axis-1", "PURSUE YES DISCARD dodge") == []   # the other card by priority


def test_a_dive_onto_a_tail_on_target_costs_no_card_to_name():
    s = pursuit_window(a_face="W", move="DESCEND FACE W")
    [p] = problems(s, "axis-1", "PURSUE YES DISCARD dodge")
    assert "costs none" in p.message


def test_two_pursuit_answers_contradict():
    s = pursuit_window()
    [p] = problems(s, "axis-1", "PURSUE YES\nPURSUE NO")
    assert p.text == "PURSUE NO" and "one answer" in p.message


# ---- every rejection cites the rulebook's own headings --------------------------------------------------
BAD = {"script": ["MOVE 1,1 FACE N", "ATTACK short-burst TARGET x1", "FLY AWAY", "CLIMB CELL 9,9",
                  "MANOEUVRE dodge TARGET x1", "PLAY dodge ON 1", "DEPLOY c1 LOW", "SWAP gun-jam"],
       "react": ["PLAY dive ON 1", "PASS NOW", "STAY", "PURSUE NO"],
       "pursue": ["PURSUE MAYBE", "PURSUE YES CELL 4,4", "PASS"]}


def test_no_rejection_cites_a_digest_number_or_a_seed_line():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": FULL5},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["dodge"]}})
    states = {"script": (s, "coalition-1"), "react": (react_window(["dodge"]), "axis-1"),
              "pursue": (pursuit_window(), "axis-1")}
    for kind, lines in BAD.items():
        state, seat = states[kind]
        for line in lines:
            found = problems(state, seat, line)
            assert found, (kind, line)
            for p in found:
                assert p.rule.startswith("«") and not DIGEST_OR_LINE.search(p.rule), (kind, line, p.rule)


def test_wrong_phase_rejection_names_the_rule_of_the_awaited_decision():
    [p] = problems(pursuit_window(), "axis-1", "STAY")
    assert p.rule == cite("", "pursue") == "«Перемещение самолета: Преследование» (Aircraft movement: pursuit)"


def test_cite_names_the_heading_a_seed_line_is_printed_under():
    assert cite("L119, L135, L295") == ("«Схватка» (Dogfight); «Перемещение самолета: Перемещение» "
                                        "(Aircraft movement: moving); «Структура хода самолета, 2. Фаза "
                                        "перемещения» (Aircraft's turn, 2. movement)")
    assert cite("L158") == "«Действия в бою: Реакции» (Actions in combat: reactions)"


# ---- the placeholder start cells no longer start every altitude as a dogfight -------------------------
def test_start_cells_are_not_orthogonal_neighbours():
    b = tables.board()
    (cx, cy), (ax, ay) = b.start_cell["coalition"], b.start_cell["axis"]
    assert abs(cx - ax) + abs(cy - ay) > 1


# ---- every decision takes each of its answers once ---------------------------------------------------
def battle(**options):
    from pbem.core.dice import SeededDice
    opts = RULESET.info.resolve_options(options)
    return RULESET.setup("battle", opts, SeededDice(b"issue 16 set-up, seat one", "setup"))


def test_setup_takes_one_ground_line_and_one_pick():
    s = battle(selection="free")
    cands = RULESET.view(s, "coalition-1")["selection"]["candidates"]
    keep = RULESET.view(s, "coalition-1")["selection"]["keep"]
    pick = "PICK " + " ".join(map(str, cands[:keep]))
    [p] = problems(s, "coalition-1", f"GROUND cp aa\nGROUND dp aa\n{pick}")
    assert p.text == "GROUND dp aa" and "Размещение наземных объектов" in p.rule
    [p] = problems(s, "coalition-1", f"GROUND cp aa\n{pick}\n{pick}")
    assert p.text == pick and "Выбор самолетов" in p.rule
    assert problems(s, "coalition-1", f"GROUND cp aa\n{pick}") == []


def test_deployment_takes_one_deploy_line():
    s = battle(selection="random", cadence="turn")
    s, _ = step(s, {"coalition-1": "GROUND dp aa", "axis-1": "GROUND cp aa"})
    p = pending(s)
    assert p["kind"] == "deploy"
    ac = p["ac"]
    [prob] = problems(s, p["seats"][0], f"DEPLOY {ac} MEDIUM\nDEPLOY {ac} LOW")
    assert prob.text == f"DEPLOY {ac} LOW" and "Начало игры" in prob.rule


def test_activation_takes_one_activate_line():
    spec = {f"{p}{i}": {"number": n, "alt": "medium", "cell": (x, i), "facing": "E", "hand": FULL5}
            for p, x in (("c", 1), ("x", 4)) for i, n in zip((1, 2), (8, 5), strict=False)}
    s = position(spec, initiative="axis", tweak=lambda d: standing(d, "axis-1", "ACTIVATION ASK"))
    assert pending(s)["kind"] == "activate"
    [p] = problems(s, "axis-1", "ACTIVATE x1\nACTIVATE x2")
    assert p.text == "ACTIVATE x2" and "Инициатива" in p.rule
    [p] = problems(s, "axis-1", "ACTIVATE x1\nPRE_DISCARD dodge\nPRE_DISCARD sideslip")
    assert p.text == "PRE_DISCARD sideslip"


# ---- script lines the engine would have ignored are refused -------------------------------------------
def lone_turn(**kw):
    return position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": FULL5},
                     "x1": {"number": 2, "alt": "high", "cell": (4, 1), "facing": "W", "hand": FULL5}},
                    deck=["snap-shot"] * 30, **kw)


def test_nothing_after_end_is_accepted():
    [p] = problems(lone_turn(), "coalition-1", "STAY\nEND\nEND_DISCARD dodge")
    assert p.text == "END_DISCARD dodge" and "nothing after it" in p.message
    assert "Структура хода самолета" in p.rule


def test_command_post_discard_must_be_a_card_in_hand():
    s = lone_turn(ground={"coalition": ["cp", "aa"]})
    [p] = problems(s, "coalition-1", "STAY\nCP_USE DISCARD long-burst\nEND")
    assert "holds 0 Long burst" in p.message
    s, ev = step(s, {"coalition-1": "STAY\nCP_USE DISCARD dodge\nEND"})
    assert cite_tags("c1 discards Dodge (command post [L146])") in ev


def test_planned_discards_name_cards_in_hand_once():
    s = lone_turn()
    [p] = problems(s, "coalition-1", "STAY\nEND_DISCARD long-burst\nEND")
    assert "more than c1 holds" in p.message and "ТТХ" in p.rule
    [p] = problems(s, "coalition-1", "STAY\nNEXT_DISCARD dodge\nNEXT_DISCARD sideslip\nEND")
    assert p.text == "NEXT_DISCARD sideslip" and "once a turn" in p.message and "Структура хода" in p.rule
    assert problems(s, "coalition-1", "STAY\nEND_DISCARD dodge sideslip\nNEXT_DISCARD half-loop\nEND") == []


def test_standing_order_that_cannot_come_into_play_is_acknowledged_with_a_warning():
    from pbem.core.orders import OrderLine
    s = lone_turn(ground={"coalition": ["cp", "dp"]})
    v = RULESET.view(s, "coalition-1")
    notes = RULESET.check_orders(v, "coalition-1", [OrderLine(1, "AA_FIRE NO"), OrderLine(2, "DP_USE FIRST"),
                                                    OrderLine(3, "RESCUE NO")]).notes
    assert notes == ("standing order aa stored (it has no effect now: your side has no AA battery)",
                     "standing order dp_use stored",
                     "standing order rescue stored (it has no effect now: this game has no event cards, "
                     "so no rescue card)")


def test_an_owners_own_start_cells_load_through_the_data_override():
    from pbem.core.data import Overrides, use_overrides
    mine = Overrides("pbem.rules.sky_ww2", {"board.toml": {"sides": {"axis": {"provenance": "rulebook", "start_cell": [3, 4]}}}})
    with use_overrides(mine):
        assert tables.board().start_cell["axis"] == (3, 4)
    assert tables.board().start_cell["axis"] == (3, 3)


def test_sitrep_of_a_window_without_a_legal_answer_reads_plainly():
    from pbem.render import environment
    s = react_window(["dive", "zoom-climb"])
    v = RULESET.view(s, "axis-1")
    seat = {"name": "axis-1", "side": "axis", "title": ""}
    game = {"id": "g1", "title": "Sky test", "turn": 1, "phase_title": "reaction", "notices": [], "outcome": None,
            "seed_commitment": "abc", "seed": None, "journal_head": "def", "deadline": None, "prompt": ""}
    txt = environment().get_template("sky_ww2/sitrep.txt.j2").render(view=v, seat=seat, game=game, events=[],
                                                                      rolls=[], form="")
    assert "for x1: or PASS" not in txt
    assert "YOUR ANSWER IS NEEDED for x1: no card you hold can answer now, so PASS is your only answer" in txt
    html = environment().get_template("sky_ww2/sitrep.html.j2").render(
        view=v, seat=seat, game=game, events=[], rolls=[], form="", picture_cid=None)
    assert "No card you hold can answer now" in html


# ---- the verb audit: one precondition a row, each refused with the heading it is printed under ---------------
def duel(c_num=4, c_face="E", x_face="W", **kw):
    """c1 (Yak-9, no swap) nose to nose with x1 at medium altitude; c2 out of the fight."""
    return position({"c1": {"number": c_num, "alt": "medium", "cell": (2, 2), "facing": c_face,
                            "hand": ["short-burst", "banked-turn", "dodge", "feint", "snap-shot"]},
                     "c2": {"number": 5, "alt": "medium", "cell": (1, 4), "facing": "E", "hand": FULL5},
                     "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": x_face, "hand": FULL5}},
                    deck=["dive"] * 30, **kw)


AUDIT = [  # (verb: precondition, body, what the message says, the heading[, the coalition's ground objects])
    ("REACT: own aircraft", "REACT x1 dodge", "not one of your aircraft", "Цели игры"),
    ("REACT: a reaction card", "REACT ALL short-burst", "not a reaction", "Реакции"),
    ("SEQUENCE: own side's aircraft", "SEQUENCE c1 x1", "SEQUENCE lists your side's aircraft", "Начало игры"),
    ("STAY/MOVE: one movement", "STAY\nSTAY", "one movement order per turn", "2. Фаза перемещения"),
    ("MOVE: not in a dogfight", "MOVE 1,1 FACE N", "in a dogfight", "Схватка"),
    ("ROTATE: not in a dogfight", "ROTATE N", "in a dogfight", "Схватка"),
    ("CLIMB: entry cell", "CLIMB CELL 4,4", "start cell first", "Выход на поле высоты"),
    ("CLIMB: the discard is held", "CLIMB DISCARD half-loop", "holds 0 Half loop", "ТТХ"),
    ("ATTACK: an enemy in play", "STAY\nATTACK snap-shot TARGET c2", "not an enemy aircraft", "3. Бой"),
    ("ATTACK: an attack card", "STAY\nATTACK dodge TARGET x1", "not an attack", "Атаки"),
    ("ATTACK: firing points", "STAY\nATTACK short-burst TARGET x1\nATTACK snap-shot TARGET x1", "firing points",
     "Стрельба"),
    ("MANOEUVRE: a manoeuvre card", "STAY\nMANOEUVRE snap-shot TARGET x1", "not a manoeuvre", "Маневры"),
    ("MANOEUVRE: a target in the dogfight", "STAY\nMANOEUVRE banked-turn", "name the TARGET", "Маневры"),
    ("ON_CANCELLED: below a beat", "STAY\nON_CANCELLED dodge", "follows the MANOEUVRE or ATTACK", "Реакции"),
    ("ON_CANCELLED: cards held", "STAY\nMANOEUVRE banked-turn TARGET x1\nON_CANCELLED barrel-roll", "holds no",
     "ТТХ"),
    ("IF POS: an enemy", "STAY\nIF POS c2 FRONT THEN ATTACK snap-shot TARGET x1", "not an enemy", "Позиция"),
    ("GROUND_ATTACK: a shturmovik", "STAY\nGROUND_ATTACK", "only shturmoviks", "Карты наземных объектов"),
    ("SWAP: the ability", "STAY\nSWAP dodge", "no swap ability", "Специальная возможность"),
    ("CP_USE: a command post", "STAY\nCP_USE", "no working command post", "Командный пункт", ["aa", "dp"]),
    ("DP_DEPOSIT: a dispatch post", "STAY\nDP_DEPOSIT dodge", "no working dispatch post", "Диспетчерский пункт"),
    ("END: last line", "STAY\nEND\nSTAY", "nothing after it", "Структура хода самолета"),
    ("PLAY: not in a turn", "STAY\nPLAY dodge ON 1", "not an order here", "Структура хода самолета"),
]


@pytest.mark.parametrize("name,body,says,heading,ground", [a if len(a) == 5 else (*a, None) for a in AUDIT],
                         ids=[a[0] for a in AUDIT])
def test_verb_precondition_is_refused_with_its_rulebook_heading(name, body, says, heading, ground):
    found = problems(duel(ground={"coalition": ground} if ground else None), "coalition-1", body)
    assert len(found) == 1, [str(p) for p in found]
    assert says in found[0].message and heading in found[0].rule, str(found[0])


def test_a_beat_skipped_at_resolution_names_the_rulebook_heading_too():
    from pbem.core.scripts import Skip
    from pbem.rules.sky_ww2.script_verbs import Attack
    from pbem.rules.sky_ww2.turn import skipped
    beat = Attack("short-burst", "x2")
    text = skipped({"id": "c1"}, Skip("coalition-1", 3, beat, beat, "x1 is side-on to c2 and has no turret: it may "
                                      "not attack it [L126, L129]"))
    assert text == ("c1: order 'ATTACK short-burst TARGET x2' is skipped: x1 is side-on to c2 and has no turret: "
                    "it may not attack it [«Позиция» (Position)]")


@pytest.mark.parametrize("cadence", ["round", "turn"])
def test_no_event_text_ends_in_a_seed_line_tag(cadence):
    """Events cite the rulebook's headings as rejections do: a player never reads ``[L293]``."""
    from pbem.core.play import play
    steps = play(RULESET, "battle", b"events cite the rulebook, seat one", max_phases=60,
                 options={"cadence": cadence, "events": True})
    texts = [e.text for st in steps for e in st.events]
    assert len(texts) > 50 and any("«" in t for t in texts)
    assert not [t for t in texts if DIGEST_OR_LINE.search(t)], texts


def test_option_and_scenario_descriptions_cite_no_seed_line_or_digest_number():
    texts = [o.doc for o in RULESET.info.options] + [s.doc for s in RULESET.info.scenarios]
    assert not [t for t in texts if re.search(r"\bL\d+|\bgap \d|\(\d+\.\d+\)", t)], texts
