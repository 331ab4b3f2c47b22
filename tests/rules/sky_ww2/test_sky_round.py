"""The round cadence (issue 16, fewer round trips): one mail per player per round, a sealed deployment,
round plans flown in the rulebook's order, windows only where a player asked for one."""
from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.core.dice import SeededDice
from pbem.core.play import check_text

from pbem.rules.sky_ww2 import RULESET

from skyhelp import doc, pending, position, problems, standing, step

ROUND = {"cadence": "round"}
GUNS = ["short-burst", "snap-shot", "aimed-fire", "short-burst", "snap-shot"]


def nose_to_tail(c_hand=GUNS, x_hand=("short-burst",), tweak=None, **kw):
    """c1 nose-on to x1's tail at medium altitude, the coalition holding the initiative; round cadence."""
    return position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": list(c_hand)},
                     "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "E", "hand": list(x_hand)}},
                    options=ROUND, deck=kw.pop("deck", ["dive"] * 30), tweak=tweak, **kw)


def activations(events: list[str]) -> list[str]:
    return [e.split()[0] for e in events if " is activated" in e]


def test_one_window_for_every_player_at_the_start_of_the_round():
    s = nose_to_tail()
    assert pending(s) == {"kind": "round", "seats": ["axis-1", "coalition-1"], "n": pending(s)["n"], "round": 1}
    assert RULESET.phase(s).name.startswith("plan-")


def test_a_round_plan_runs_with_conditions_else_and_the_round_ends_without_another_window():
    s = nose_to_tail()
    s, ev = step(s, {"coalition-1": "AIRCRAFT c1\nSTAY\n"
                                    "IF ALT x1 HIGH THEN ATTACK snap-shot TARGET x1 ELSE ATTACK short-burst TARGET x1\n"
                                    "END",
                     "axis-1": "AIRCRAFT x1\nIF DOGFIGHT c1 THEN STAY ELSE DESCEND\nEND"})
    assert any(e.startswith("beat 1: c1 plays Short burst as an attack") for e in ev), ev
    assert not any("Snap shot" in e for e in ev)
    assert doc(s)["aircraft"]["x1"]["markers"] == 3 and doc(s)["aircraft"]["x1"]["alt"] == "medium"
    assert "round 1 ends" in ev and pending(s)["kind"] == "round" and pending(s)["round"] == 2


def test_unmet_condition_without_else_is_skipped_and_its_author_told():
    s = nose_to_tail()
    phase = RULESET.phase(s)
    res = RULESET.resolve(s, {"coalition-1": check_text(RULESET, s, "coalition-1",
                                                         "AIRCRAFT c1\nIF ALT x1 LOW THEN ATTACK short-burst TARGET x1")[0],
                              "axis-1": check_text(RULESET, s, "axis-1", "AIRCRAFT x1\nSTAY")[0]},
                          SeededDice(b"round plan skip, seat one", f"resolve/{phase.key}"))
    told = [e for e in res.events if "is skipped" in e.text]
    assert [e.text for e in told] == ["c1: order 'ATTACK short-burst TARGET x1' is skipped: its condition does not hold"]
    assert told[0].visible_to == {"coalition-1"}


def test_the_engine_interleaves_both_sides_plans_in_the_rulebooks_order():
    spec = {f"{p}{i}": {"number": n, "alt": "medium", "cell": (x, i * 2 - 1), "facing": "N", "hand": ["dive"]}
            for p, x in (("c", 1), ("x", 4)) for i, n in ((1, 8), (2, 5))}
    s = position(spec, options=ROUND, deck=["dive"] * 30)
    s, ev = step(s, {"coalition-1": "AIRCRAFT c1\nSTAY\nAIRCRAFT c2\nSTAY",
                     "axis-1": "AIRCRAFT x2\nSTAY\nAIRCRAFT x1\nSTAY"})
    assert activations(ev) == ["c1", "x1", "c2", "x2"]  # the initiative side first, alternating, by SEQUENCE


def test_an_aircraft_without_a_block_stays_and_its_player_is_told():
    s = nose_to_tail()
    s, ev = step(s, {"coalition-1": "SEQUENCE c1", "axis-1": "AIRCRAFT x1\nSTAY"})
    assert "c1 has no block in your round plan: it stays and does nothing this turn" in ev
    assert pending(s)["kind"] == "round"


def test_aircraft_ask_opens_that_turns_window_and_the_round_goes_on_after_it():
    s = nose_to_tail()
    s, _ = step(s, {"coalition-1": "AIRCRAFT c1 ASK", "axis-1": "AIRCRAFT x1\nSTAY"})
    assert pending(s)["kind"] == "script" and pending(s)["seats"] == ["coalition-1"] and pending(s)["ac"] == "c1"
    s, ev = step(s, {"coalition-1": "STAY\nEND"})
    assert activations(ev) == ["x1"] and pending(s)["kind"] == "round"


def test_react_default_ask_opens_a_reaction_window_whatever_the_hand_holds():
    def asks(d):
        standing(d, "axis-1", "REACT NONE", "REACT_DEFAULT ASK")
    plan = {"coalition-1": "AIRCRAFT c1\nATTACK short-burst TARGET x1", "axis-1": "AIRCRAFT x1\nSTAY"}
    for x_hand in (["dodge"], ["short-burst"]):  # a legal reaction, or none: the same window
        s, _ = step(nose_to_tail(x_hand=x_hand, tweak=asks), plan)
        assert pending(s)["kind"] == "react" and pending(s)["seats"] == ["axis-1"]


def test_the_enemys_plan_stays_secret_while_the_round_is_flown():
    s = nose_to_tail()
    seen = {}
    for x_plan in ("AIRCRAFT x1\nSTAY", "AIRCRAFT x1\nATTACK short-burst TARGET c1\nEND"):
        after, _ = step(s, {"coalition-1": "AIRCRAFT c1 ASK", "axis-1": x_plan})
        seen[x_plan] = (RULESET.view(after, "coalition-1"), RULESET.view(after, "axis-1")["plans"])
    (c_a, x_a), (c_b, x_b) = seen.values()
    assert c_a == c_b and x_a != x_b
    assert c_a["plans"] == {"c1": {"ask": True, "lines": []}}


def test_plan_lines_are_checked_per_aircraft():
    spec = {f"{p}{i}": {"number": n, "alt": "medium", "cell": (x, i * 2 - 1), "facing": "N", "hand": ["dive"]}
            for p, x in (("c", 1), ("x", 4)) for i, n in ((1, 8), (2, 5))}
    s = position(spec, options=ROUND, deck=["dive"] * 30)
    assert "AIRCRAFT <aircraft>" in problems(s, "coalition-1", "STAY")[0].message  # two aircraft: say whose
    [p] = problems(s, "coalition-1", "AIRCRAFT c1\nSTAY\nAIRCRAFT c1\nSTAY")
    assert "one block per aircraft" in p.message
    [p] = problems(s, "coalition-1", "AIRCRAFT x1\nSTAY")
    assert "not one of your aircraft" in p.message
    [p] = problems(s, "coalition-1", "AIRCRAFT c1 ASK\nSTAY")
    assert "takes no lines" in p.message
    [p] = problems(s, "coalition-1", "AIRCRAFT c1\nATTACK short-burst TARGET x1")  # the hand, when written
    assert "holds 0" in p.message
    [p] = problems(s, "coalition-1", "AIRCRAFT c1\nIF ALT x1 MEDIUM THEN CLOSE x1 ELSE STAY\nON_CANCELLED dodge")
    assert "follows the MANOEUVRE or ATTACK" in p.message
    assert not problems(s, "coalition-1", "AIRCRAFT c1\nIF ALT x1 HIGH THEN CLIMB DISCARD dive ELSE CLIMB DISCARD dive")
    assert not problems(s, "coalition-1", "AIRCRAFT c1\nIF ALT x1 MEDIUM THEN MOVE 2,1 FACE E ELSE STAY\n"
                                          "IF DOGFIGHT x1 THEN MANOEUVRE dive TARGET x1\nAIRCRAFT c2\nSTAY")


def test_the_round_form_is_accepted_as_it_is():
    s = nose_to_tail()
    form = RULESET.order_form(RULESET.view(s, "coalition-1"), "coalition-1")
    assert "AIRCRAFT c1\nSTAY\nEND" in form and "Round plan" in form
    assert "IF DOGFIGHT x1 THEN ATTACK" in form  # the examples name the seat's own enemy
    assert not re.search(r"\bL\d+", form) and "«Структура хода самолета» (Structure of an aircraft's turn)" in form
    assert not check_text(RULESET, s, "coalition-1", form)[1]
    assert "IF DOGFIGHT c1 THEN ATTACK" in RULESET.order_form(RULESET.view(s, "axis-1"), "axis-1")


# ---- the sealed deployment -------------------------------------------------------------------------------


def battle(**options):
    opts = RULESET.info.resolve_options(options)
    return RULESET.setup("battle", opts, SeededDice(b"round cadence set-up, seat one", "setup"))


def test_deployment_is_one_sealed_mail_per_player():
    s, _ = step(battle(), {"coalition-1": "GROUND dp aa", "axis-1": "GROUND cp aa"})
    p = pending(s)
    form = RULESET.order_form(RULESET.view(s, "coalition-1"), "coalition-1")
    assert "DEPLOY c1 MEDIUM FACE E\nDEPLOY c2 MEDIUM FACE E\nDEPLOY c3 MEDIUM FACE E" in form
    assert not check_text(RULESET, s, "coalition-1", form)[1]
    assert p["kind"] == "deploy" and p["seats"] == ["axis-1", "coalition-1"] and p["sealed"]
    [dup] = problems(s, "coalition-1", "DEPLOY c1 LOW\nDEPLOY c1 HIGH")
    assert "one DEPLOY line per aircraft" in dup.message
    cell = RULESET.view(s, "coalition-1")["decide"]["cells"]["low"][0]
    at = f"{cell[0]},{cell[1]}"
    [same] = problems(s, "coalition-1", f"DEPLOY c1 LOW CELL {at}\nDEPLOY c2 LOW CELL {at}")
    assert "one aircraft a cell" in same.message
    s, ev = step(s, {"coalition-1": "DEPLOY c1 HIGH\nDEPLOY c2 LOW\nDEPLOY c3 MEDIUM",
                     "axis-1": "DEPLOY x1 LOW\nDEPLOY x2 LOW\nDEPLOY x3 LOW"})
    d = doc(s)
    assert [d["aircraft"][a]["alt"] for a in ("c1", "c2", "c3", "x1", "x2", "x3")] == ["high", "low", "medium"] + [
        "low"] * 3
    assert all(a["hand_size"] == a["ttx"] for a in RULESET.view(s, "coalition-1")["aircraft"])  # full hands [L317]
    assert pending(s)["kind"] == "round"  # the first shot is one window away
    entered = [e.split()[0] for e in ev if "enters the battle" in e]
    first = "axis" if d["initiative"] == "coalition" else "coalition"
    assert entered[0][0] == first[0]  # the side without the initiative is placed first [L317]


# ---- stored games keep their cadence ----------------------------------------------------------------------


def test_a_game_stored_before_the_cadence_option_keeps_the_window_per_turn():
    old = json.loads((Path(__file__).parent / "data" / "old_midturn.json").read_text())
    assert "cadence" not in old["doc"]["options"]
    s = RULESET.load({"doc": old["doc"]})
    assert doc(s)["options"]["cadence"] == "turn"
    assert RULESET.load(RULESET.dump(s)) == s


def test_the_turn_cadence_still_asks_every_turn():
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": GUNS},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["short-burst"]}},
                 options={"cadence": "turn"})
    assert pending(s)["kind"] == "script" and pending(s)["ac"] == "c1"


# ---- [L178] the extra card of an attack: checked as it is paid ----------------------------------------------


def test_extra_card_is_refused_when_only_malfunctions_could_pay_it():
    s = position({"c1": {"number": 4, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": ["long-burst", "engine-trouble"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "E", "hand": ["dive"]}},
                 options={"cadence": "turn"}, deck=[])
    [p] = problems(s, "coalition-1", "STAY\nATTACK long-burst TARGET x1\nEND")
    assert "a malfunction cannot pay" in p.message and "Атаки" in p.rule


def test_extra_card_not_payable_when_the_beat_is_reached_skips_the_attack():
    s = position({"c1": {"number": 4, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": ["long-burst", "engine-trouble"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "E", "hand": ["dive"]}},
                 options=ROUND, deck=[])
    s, ev = step(s, {"coalition-1": "AIRCRAFT c1\nATTACK long-burst TARGET x1", "axis-1": "AIRCRAFT x1\nSTAY"})
    assert any("long-burst TARGET x1' is skipped: Long burst demands 1 extra card" in e for e in ev), ev
    assert doc(s)["aircraft"]["x1"]["markers"] == 0 and "long-burst" in doc(s)["aircraft"]["c1"]["hand"]


# ---- CLOSE: a movement found when the line is reached ----------------------------------------------------


def apart(**kw):
    """c1 and x1 in the medium field, not in a dogfight; the axis holds the initiative, so x1 flies first."""
    return position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": GUNS},
                     "x1": {"number": 2, "alt": "medium", "cell": (3, 3), "facing": "E",
                            "hand": ["dive", "dive", "short-burst"]}},
                    options=ROUND, initiative="axis", deck=["dive"] * 30, **kw)


def test_close_finds_the_enemys_cell_where_it_went_nose_on_to_its_side_or_tail():
    s, ev = step(apart(), {"coalition-1": "AIRCRAFT c1\nCLOSE x1\nIF DOGFIGHT x1 THEN ATTACK snap-shot TARGET x1",
                           "axis-1": "AIRCRAFT x1\nMOVE 4,4 FACE N"})
    c1 = doc(s)["aircraft"]["c1"]
    assert (c1["cell"], c1["facing"]) == ([3, 4], "E")  # beside x1, which shows its side; not its nose (4,3)
    assert "c1 moves to medium 3,4 facing E" in ev
    assert any(e.startswith("beat 1: c1 plays Snap shot as an attack") for e in ev), ev


def test_close_that_cannot_be_carried_out_falls_back_to_else():
    s, ev = step(apart(), {"coalition-1": "AIRCRAFT c1\nIF ALT x1 MEDIUM,HIGH THEN CLOSE x1 ELSE ROTATE S",
                           "axis-1": "AIRCRAFT x1\nCLIMB DISCARD dive"})
    assert doc(s)["aircraft"]["x1"]["alt"] == "high"
    assert doc(s)["aircraft"]["c1"]["facing"] == "S"
    [told] = [e for e in ev if "CLOSE x1 could not be carried out" in e]
    assert "(x1 flies at high altitude, not in c1's field [«Перемещение самолета: Перемещение»" in told
    assert told.endswith("ROTATE S was")


def test_close_names_an_enemy_and_in_a_turn_script_one_in_the_field():
    s = apart()
    [p] = problems(s, "coalition-1", "AIRCRAFT c1\nCLOSE c1")
    assert "not an enemy aircraft" in p.message
    t = position({"c1": {"number": 8, "alt": "medium", "cell": (1, 1), "facing": "E", "hand": GUNS},
                  "x1": {"number": 2, "alt": "high", "cell": (3, 3), "facing": "E", "hand": ["dive"]}})
    [p] = problems(t, "coalition-1", "CLOSE x1\nEND")
    assert "flies at high altitude" in p.message and "Перемещение" in p.rule
