"""The game on the kit: known-answer cases, the contract's conformance, ingest, forms and the bot."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.core.play import play
from pbem.rules.aa_miniatures import RULESET
from pbem.testing import known
from pbem.testing.conformance import check_ruleset

CASES = sorted((Path(__file__).parents[2] / "known" / "aa_miniatures").glob("*.toml"))
SEED = b"aa miniatures conformance seed"


def test_there_are_known_answer_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_known_answer(path):
    """Each worked example and derived test of the fragment, through the public contract, fixed dice."""
    case = known.load_case(path)
    failures = known.run_case(RULESET, case)
    assert not failures, f"[{case.rule}] {case.title}:\n  " + "\n  ".join(failures)


@pytest.mark.parametrize("scenario", [s.name for s in RULESET.info.scenarios])
@pytest.mark.parametrize("options", [{"sight": "edge"}, {"sight": "strict"}, {"cadence": "fast"}, {"army": "build"},
                                     {"rules": "advanced"}, {"visibility": "fog"},
                                     {"visibility": "fog", "cadence": "fast", "sight": "strict"},
                                     {"visibility": "fog", "army": "build"}, {"obstacles": "no"},
                                     {"movement": "alternate"}, {"movement": "alternate", "visibility": "fog"},
                                     {"players_per_side": 2},
                                     {"players_per_side": 2, "visibility": "fog", "movement": "alternate"},
                                     {"players_per_side": 2, "army": "build", "cadence": "fast"}],
                         ids=["edge", "strict", "fast", "build", "advanced", "fog", "fog-fast-strict", "fog-build",
                              "no-obstacles", "alternate", "alternate-fog", "two-seats", "two-seats-fog-alternate",
                              "two-seats-build-fast"])
def test_conformance(scenario, options):
    """Bot games replay the same, round-trip, and every view, form and bot order is accepted."""
    assert check_ruleset(RULESET, scenario, SEED, options=options, max_phases=60) > 3


def test_the_fast_cadence_moves_both_sides_unit_by_unit():
    steps = play(RULESET, "skirmish", SEED, options={"cadence": "fast"}, max_phases=60)
    names = [s.phase.name for s in steps[:4]]
    assert names[:2] == ["move-both", "attack"] and "move-first" not in names
    moved = [e.text.split()[0] for e in steps[0].events if e.kind == "move"]
    assert moved[:2] == ["allies", "axis"]


def test_a_bot_game_ends_with_a_result():
    steps = play(RULESET, "skirmish", SEED, max_phases=60)
    last = steps[-1].state
    assert RULESET.phase(last) is None
    result = RULESET.outcome(last)
    assert result is not None and str(last.last_turn) and result.text


def _state(step: str = "move-first"):
    state = RULESET.setup("skirmish", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = step
    return RULESET.load(data)


def _check(state, seat, text):
    from pbem.core.orders import OrderLine
    lines = [OrderLine(i + 1, t) for i, t in enumerate(text.splitlines())]
    return RULESET.check_orders(RULESET.view(state, seat), seat, lines)


def test_attacks_are_refused_in_the_movement_windows_and_units_act_once():
    checked = _check(_state(), "allies", "ATTACK sherman_a pak40\nHOLD garand\nHOLD garand\nMOVE panzer J5")
    text = "\n".join(str(p) for p in checked.problems)
    assert "'ATTACK' is not an order here" in text and "already has an order" in text and "panzer is not one of your units" in text


def test_an_attack_list_with_a_fallback_is_accepted():
    checked = _check(_state("attack"), "allies", "IF LIVE pak40 THEN ATTACK sherman_a pak40 ELSE HOLD sherman_a\n"
                                                 "INITIATIVE SECOND")
    assert not checked.problems and len(checked.orders) == 2


def test_the_order_form_lists_verbs_speed_and_targets_with_band_and_defence():
    state = _state("attack")
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "# sherman_a: Sherman at B10 facing NE, speed 4; may ATTACK MOVE FACE HOLD" in form
    assert "sees pak40 (PaK 40) at H7: long, front defence 4, 6 dice, P(0/1/2/3 hits) = " in form
    assert "HOLD sherman_a" in form
    assert "Nothing to order" in RULESET.order_form(RULESET.view(_state("move-second"), "allies"), "allies")


def test_views_are_open_but_standing_orders_are_private():
    state = _state("attack")
    allies, axis = RULESET.view(state, "allies"), RULESET.view(state, "axis")
    assert allies["units"] == axis["units"]
    assert allies["standing"] == [] and axis["standing"] == []


def test_overwatch_fire_ends_the_overwatch():
    """L230: once it has fired, the 6 Pounder of the T4 case is no longer on Overwatch."""
    from pbem.core.dice import FixedDice
    case = known.load_case(next(p for p in CASES if p.stem == "t4_overwatch_row"))
    state = known.start_state(RULESET, case)
    before = RULESET.view(state, "allies")
    assert next(u for u in before["units"] if u["id"] == "garand")["overwatch"] == "NW"
    checked = _check(state, "axis", case.orders["axis"])
    after = RULESET.resolve(state, {"axis": checked.orders}, FixedDice(case.dice)).state
    assert next(u for u in RULESET.view(after, "allies")["units"] if u["id"] == "garand")["overwatch"] is None


def _asked_position(policy: str):
    """T8's position with the PaK 40's standing order set to ``policy``, after the Sherman's move."""
    from pbem.core.dice import FixedDice
    case = known.load_case(next(p for p in CASES if p.stem == "t8_defensive_fire_into_the_hex_entered"))
    data = known._plain(RULESET.dump(known.start_state(RULESET, case)))
    data["flow"]["standing"] = [["axis", "DF pak40", policy]]
    state = RULESET.load(data)
    moved = RULESET.resolve(state, {"allies": _check(state, "allies", case.orders["allies"]).orders}, FixedDice([]))
    return moved.state, case.dice


@pytest.mark.parametrize("answer, disrupted, where", [("FIRE TO", True, "H7"), ("HOLD", False, "H6"), (None, False, "H6")])
def test_an_ask_policy_opens_a_window_for_that_seat_only(answer, disrupted, where):
    """DF <unit> ASK: the move stops at the provoking step; the owner answers FIRE FROM/TO or HOLD
    (silence holds fire); the rest of the move and of the phase follow."""
    from pbem.core.dice import FixedDice
    state, dice = _asked_position("DF pak40 ASK")
    phase = RULESET.phase(state)
    assert phase.name.startswith("react") and phase.awaiting == {"axis"}
    view = RULESET.view(state, "axis")
    assert "FIRE FROM" in view["asking"]["choices"] and RULESET.view(state, "allies")["asking"] is None
    assert "Silence answers HOLD" in RULESET.order_form(view, "axis")
    orders = _check(state, "axis", answer).orders if answer else ()
    assert not (answer and _check(state, "axis", answer).problems)
    after = RULESET.resolve(state, {"axis": orders}, FixedDice(dice if answer == "FIRE TO" else [])).state
    sherman = next(u for u in RULESET.view(after, "allies")["units"] if u["id"] == "sherman_a")
    assert (sherman["disrupted"], sherman["hex"]) == (disrupted, where)
    assert RULESET.phase(after).name == "move-second"


def test_a_wrong_answer_is_refused_with_the_choices():
    state, _ = _asked_position("DF pak40 ASK")
    problems = _check(state, "axis", "FIRE SIDEWAYS").problems
    assert problems and "FIRE FROM, FIRE TO, HOLD" in str(problems[0])


def test_never_lets_the_mover_pass():
    state, _ = _asked_position("DF pak40 NEVER")
    assert RULESET.phase(state).name == "move-second"
    assert next(u for u in RULESET.view(state, "allies")["units"] if u["id"] == "sherman_a")["hex"] == "H6"


def test_the_acknowledgement_previews_each_attack():
    checked = _check(_state("attack"), "allies", "ATTACK sherman_a pak40\n"
                                                 "IF LIVE pak40 THEN ATTACK sherman_b pak40 ELSE HOLD sherman_b")
    assert not checked.problems and len(checked.notes) == 2
    assert checked.notes[0].startswith("ATTACK sherman_a pak40: pak40 (PaK 40) at H7: long, front defence 4, 6 dice")
    assert "P(0/1/2/3 hits) = " in checked.notes[1]


def test_the_picture_names_every_hex_and_draws_hedges_units_and_rows():
    from pbem.core.picture import Circle, Line, Text
    from pbem.rules.aa_miniatures.board import board
    from pbem.rules.aa_miniatures.picture import SIDE, _size
    state = _state()
    data = RULESET.dump(state)
    data["units"][0]["overwatch"] = 1
    pic = RULESET.picture(RULESET.view(RULESET.load(data), "allies"))
    farm = board("farm")
    labels = {s.text for s in pic.base if isinstance(s, Text)}
    assert len(labels) == len(farm.hexes) == 15 * 12 and {"A1", "O12", "G5"} <= labels
    assert sum(1 for s in pic.base if isinstance(s, Line)) == len(farm.sides)
    map_bottom = _size("farm")[1]  # the legend's marks lie below the map
    assert sum(1 for s in pic.shapes if isinstance(s, Circle) and s.center[1] < map_bottom
               and s.fill in SIDE.values()) == len(data["units"])
    assert {u["id"] for u in data["units"]} <= {t.text.split()[0] for t in pic.shapes if isinstance(t, Text)}
    assert any(isinstance(s, Line) and s.arrow for s in pic.shapes)


def test_air_strike_orders_are_checked_at_ingest():
    """L246: the aircraft faces the side its line to the target crosses; only aircraft off the map
    strike; an aircraft never takes an ATTACK line."""
    state = RULESET.setup("los", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = "attack"
    state = RULESET.load(data)
    ok = _check(state, "allies", "AIR p47 AT D3 ATTACK mg42")
    assert not ok.problems and ok.orders[0].text() == "AIR p47 AT D3 ATTACK mg42 FACE NW"
    problems = [str(p) for p in _check(state, "allies", "AIR p47 AT D3 ATTACK mg42 FACE S").problems]
    assert problems and "NW" in problems[0] and "L246" in problems[0]
    assert "not one of your aircraft" in str(_check(state, "axis", "AIR p47 AT D3 ATTACK sherman").problems[0])
    form = RULESET.order_form(RULESET.view(state, "allies"), "allies")
    assert "# p47: P-47 Thunderbolt off the map; may AIR" in form


def _meeting_allies_first():
    state = RULESET.setup("meeting", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["first"] = "allies"
    return RULESET.load(data)


def _resolve(state, seat, text, dice=()):
    from pbem.core.dice import FixedDice
    checked = _check(state, seat, text)
    assert not checked.problems, checked.problems
    return RULESET.resolve(state, {seat: checked.orders}, FixedDice(list(dice))).state


def test_a_rifle_boards_the_half_track_and_rides_with_it():
    """L9: a transported unit leaves the map (it ignores stacking) and goes where the transport goes."""
    after = _resolve(_meeting_allies_first(), "allies", "LOAD garand_2 INTO halftrack\nMOVE halftrack G11 G10")
    view = RULESET.view(after, "allies")
    assert view["cargo"] == [{"id": "garand_2", "card": "garand", "name": "M1 Garand Rifle", "side": "allies",
                              "aboard": "halftrack"}]
    assert "garand_2" not in {u["id"] for u in view["units"]}
    assert next(u for u in view["units"] if u["id"] == "halftrack")["hex"] == "G10"


def test_unloading_into_a_maximum_hex_goes_next_door():
    """R36 (L9): the transport's hex would be over its maximum, so the passenger gets off in a next
    hex free of enemies, and only there."""
    loaded = _resolve(_meeting_allies_first(), "allies", "LOAD garand_2 INTO halftrack")
    data = RULESET.dump(loaded)
    data["flow"]["step"] = "move-first"
    for uid in ("sherman_1", "garand_1", "captain"):
        next(u for u in data["units"] if u["id"] == uid)["hex"] = [6, 8]   # G12, the half-track's hex
    crowded = RULESET.load(data)
    problem = str(_check(crowded, "allies", "UNLOAD garand_2 AT G12").problems[0])
    places = problem.split("may get off at ", 1)[1].split(" [")[0].split(", ")
    assert "G11" in places and "G12" not in places
    assert _check(crowded, "allies", "UNLOAD garand_2").orders[0].text() == f"UNLOAD garand_2 AT {places[0]}"
    after = _resolve(crowded, "allies", "UNLOAD garand_2 AT G11")
    assert next(u for u in RULESET.view(after, "allies")["units"] if u["id"] == "garand_2")["hex"] == "G11"


def test_loading_is_refused_with_the_reason():
    state = _meeting_allies_first()
    assert "carries nobody" in str(_check(state, "allies", "LOAD garand_2 INTO sherman_2").problems[0])
    assert "next to" in str(_check(state, "allies", "LOAD sniper INTO halftrack").problems[0])


def test_options_for_two_gaps():
    """G6: with move_in_attack=no the attack window takes no MOVE; G22: with ow_soldiers=no a tank's
    overwatch lets a rifle pass through its row."""
    no_move = RULESET.setup("skirmish", RULESET.info.resolve_options({"move_in_attack": "no"}),
                            SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(no_move)
    data["flow"]["step"] = "attack"
    assert "'MOVE' is not an order here" in str(_check(RULESET.load(data), "allies", "MOVE garand D9").problems[0])
    for allowed, fired in (("yes", True), ("no", False)):
        state = RULESET.setup("skirmish", RULESET.info.resolve_options({"ow_soldiers": allowed}),
                              SeededDice(b"aa miniatures setup seed", "s"))
        data = RULESET.dump(state)
        next(u for u in data["units"] if u["id"] == "panzer")["overwatch"] = 3     # J4 watching south
        next(u for u in data["units"] if u["id"] == "garand").update(hex=[10, 0])  # K6, beside the row
        state = RULESET.load(data)
        assert any("overwatch fire" in e.text for e in _events(state, "MOVE garand J6")) is fired


def _events(state, text):
    from pbem.core.dice import FixedDice
    return RULESET.resolve(state, {"allies": _check(state, "allies", text).orders}, FixedDice([1] * 20)).events


def test_df_order_sets_which_unit_fires_first():
    """A4 (L360): DF_ORDER says which of two units the Sherman passes fires first; once it is
    Disrupted the other holds."""
    from pbem.core.dice import FixedDice
    case = known.load_case(next(p for p in CASES if p.stem == "t8_defensive_fire_into_the_hex_entered"))
    data = known._plain(RULESET.dump(known.start_state(RULESET, case)))
    next(u for u in data["units"] if u["id"] == "grenadier")["hex"] = [8, 3]   # I8, next to H8 and H7
    for order, first in (("DF_ORDER grenadier pak40", "grenadier"), ("DF_ORDER pak40 grenadier", "pak40")):
        data["flow"]["standing"] = [["axis", "DF_ORDER", order], ["axis", "DF ALL", "DF ALL ALWAYS HEX TO"]]
        state = RULESET.load(data)
        orders = _check(state, "allies", case.orders["allies"]).orders
        events = RULESET.resolve(state, {"allies": orders}, FixedDice([6] * 30)).events
        fired = [e.text.split()[1] for e in events if e.kind == "reaction"]
        assert fired == [first], fired


@pytest.mark.parametrize("answer, first", [("SECOND", "allies"), (None, "axis")])
def test_initiative_ask(answer, first):
    """INITIATIVE ASK: the winner of the roll is asked FIRST or SECOND (FIRST on silence)."""
    from pbem.core.dice import FixedDice
    data = RULESET.dump(_state("attack"))
    data["flow"]["standing"] = [["axis", "INITIATIVE", "INITIATIVE ASK"]]
    state = RULESET.load(data)
    asked = RULESET.resolve(state, {}, FixedDice([1, 1, 6, 6])).state   # allies 2, axis 12
    assert RULESET.phase(asked).awaiting == {"axis"}
    assert RULESET.view(asked, "axis")["asking"]["choices"] == ["FIRST", "SECOND"]
    assert "answer one of: FIRST, SECOND" in str(_check(asked, "axis", "FIRE").problems[0])
    orders = _check(asked, "axis", answer).orders if answer else ()
    after = RULESET.resolve(asked, {"axis": orders}, FixedDice([])).state
    assert after.first == first and RULESET.phase(after).name == "move-first" and after.turn == 2


def test_sealed_army_build():
    """army=build: each side buys up to 100 points (L236) in a sealed window and sets up in its zone."""
    from pbem.core.dice import FixedDice
    state = RULESET.setup("meeting", RULESET.info.resolve_options({"army": "build"}),
                          SeededDice(b"aa miniatures setup seed", "s"))
    assert RULESET.phase(state).name == "deploy" and state.units == ()
    assert RULESET.phase(state).awaiting == {"allies", "axis"}
    over = "\n".join(["BUY sherman AT C10"] * 2 + ["BUY sherman AT D10", "BUY sherman AT G10", "BUY sherman AT H10",
                                                   "BUY sherman AT I10"])
    problems = [str(p) for p in _check(state, "allies", over).problems]
    assert any("C10 would be over full" in p for p in problems) and any("cost 114 of 100" in p for p in problems)
    assert "not in your set-up zone" in str(_check(state, "allies", "BUY sherman AT C2").problems[0])
    assert "not a card of your side" in str(_check(state, "allies", "BUY tiger AT C10").problems[0])
    allies = _check(state, "allies", "BUY sherman AT C10 FACE NE\nBUY p47").orders
    axis = _check(state, "axis", "BUY tiger AT C2").orders
    after = RULESET.resolve(state, {"allies": allies, "axis": axis}, FixedDice([])).state
    assert [(u.id, u.hex, u.facing) for u in after.units] == [("sherman_1", (2, 8), 1), ("tiger_1", (2, 0), 3)]
    assert [u.id for u in after.reserve] == ["p47_2"] and RULESET.phase(after).name == "move-first"


# ------------------------------------------------------------------------- movement=alternate (G5)
def test_alternate_movement_is_one_sealed_window_a_turn_and_the_bot_plays_it():
    """Within the standard cadence: one movement window awaiting both sides, then the attack lists;
    the units move one of each side in turn, the first player's first; the bot's moves are
    conditional (IF AT), and the game reaches a result."""
    steps = play(RULESET, "skirmish", SEED, options={"movement": "alternate"}, max_phases=60)
    names = [s.phase.name for s in steps]
    assert names[:2] == ["move-alternate", "attack"] and "move-first" not in names and "move-second" not in names
    assert steps[0].phase.awaiting == {"allies", "axis"}
    moved = [e.text.split()[0] for e in steps[0].events if e.kind == "move"]
    assert moved[:2] == ["allies", "axis"]
    assert any("IF AT " in body for s in steps for body in s.bodies.values())
    assert RULESET.phase(steps[-1].state) is None and RULESET.outcome(steps[-1].state) is not None


def test_the_movement_order_comes_from_the_tables_unless_the_option_names_it():
    """The sequence of play is lost (G5): ``movement=table`` (the default) reads data/tables.toml."""
    for options, first in (({}, "move-first"), ({"movement": "side"}, "move-first"),
                           ({"movement": "alternate"}, "move-alternate"),
                           ({"movement": "alternate", "cadence": "fast"}, "move-both")):
        state = RULESET.setup("skirmish", RULESET.info.resolve_options(options), SeededDice(SEED, "s"))
        assert RULESET.phase(state).name == first, options


def _alternate(**edits):
    state = RULESET.setup("skirmish", RULESET.info.resolve_options({"movement": "alternate"}),
                          SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    for uid, where in edits.items():
        next(u for u in data["units"] if u["id"] == uid)["hex"] = list(where)
    return RULESET.load(data)


def _orders(state, seat, text):
    return RULESET.check_orders(RULESET.view(state, seat), seat,
                                [OrderLine(i + 1, t) for i, t in enumerate(text.splitlines())])


def test_alternate_movement_interleaves_the_lists_and_tests_conditions_when_reached():
    """The Allies move first: their garand's step happens before the Axis' entry is reached, so the
    grenadier's IF AT (the garand still in D10?) fails and its ELSE runs; the second Allied entry comes
    after the Axis' first."""
    state = _alternate()
    allies = _orders(state, "allies", "MOVE garand D9\nMOVE bazooka E10")
    axis = _orders(state, "axis", "IF AT garand D10 THEN MOVE grenadier I7 ELSE FACE grenadier S\nHOLD panzer")
    assert not allies.problems and not axis.problems
    result = RULESET.resolve(state, {"allies": allies.orders, "axis": axis.orders}, FixedDice([]))
    texts = [e.text for e in result.events]
    garand = next(i for i, t in enumerate(texts) if t.startswith("allies garand moves to D9"))
    grenadier = next(i for i, t in enumerate(texts) if "grenadier" in t)
    bazooka = next(i for i, t in enumerate(texts) if t.startswith("allies bazooka moves to E10"))
    assert garand < grenadier < bazooka
    assert result.state.unit("grenadier").hex == state.unit("grenadier").hex
    assert result.state.unit("grenadier").facing == 3
    assert RULESET.phase(result.state).name == "attack"


def test_conditions_are_refused_outside_the_alternating_lists():
    state = RULESET.setup("skirmish", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    refused = _orders(state, "allies", "IF AT panzer J4 THEN MOVE garand D9 ELSE HOLD garand").problems
    assert refused
    bad = _orders(_alternate(), "allies", "IF AT panzer Q99 THEN MOVE garand D9 ELSE HOLD garand").problems
    assert any("AT <unit> <hex>" in str(p) for p in bad)


# ------------------------------------------------------------------------- players_per_side=2
TWO = {"players_per_side": 2}


def _two(options=TWO, step: str | None = None, **edits):
    state = RULESET.setup("skirmish", RULESET.info.resolve_options(options), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    if step is not None:
        data["flow"]["step"] = step
    for uid, where in edits.items():
        next(u for u in data["units"] if u["id"] == uid)["hex"] = list(where)
    return RULESET.load(data)


def test_two_seats_a_side_share_its_units_by_the_scenario_or_in_turn():
    state = _two()
    assert [s.name for s in RULESET.seats(state)] == ["allies-1", "allies-2", "axis-1", "axis-2"]
    command = dict(state.command)
    assert [command[u] for u in ("sherman_a", "garand", "sherman_b", "bazooka")] == ["allies-1"] * 2 + ["allies-2"] * 2
    assert [command[u] for u in ("panzer", "pak40", "mg42", "grenadier")] == ["axis-1", "axis-2"] * 2  # dealt
    assert RULESET.phase(state).awaiting == {"allies-1", "allies-2"}  # the first side's movement: both its seats
    assert "# You command garand, sherman_a; allies-2 commands the rest" in RULESET.order_form(
        RULESET.view(state, "allies-1"), "allies-1")


def test_an_order_for_the_other_seats_unit_is_refused():
    state = _two()
    refused = [str(p) for p in _orders(state, "allies-1", "MOVE sherman_b C10\nMOVE garand D9").problems]
    assert len(refused) == 1 and "sherman_b is commanded by allies-2, not by you (yours: garand, sherman_a)" in \
        refused[0] and "players_per_side" in refused[0]
    assert not _orders(state, "allies-2", "MOVE sherman_b C10").problems
    assert [str(p) for p in _orders(state, "allies-1", "DF sherman_b NEVER").problems]  # its standing orders too
    assert not _orders(state, "allies-1", "DF ALL ASK\nDF_ORDER sherman_b garand").problems  # side-wide ones


def test_both_seats_orders_are_carried_out_and_a_unit_can_be_handed_over():
    state = _two()
    one = _orders(state, "allies-1", "MOVE garand D9\nHAND sherman_a TO allies-2")
    two = _orders(state, "allies-2", "MOVE bazooka E10")
    assert not one.problems and not two.problems
    result = RULESET.resolve(state, {"allies-1": one.orders, "allies-2": two.orders}, FixedDice([]))
    assert result.state.unit("garand").hex != state.unit("garand").hex
    assert result.state.unit("bazooka").hex != state.unit("bazooka").hex
    assert dict(result.state.command)["sherman_a"] == "allies-2"
    told = [e for e in result.events if e.kind == "command"]
    assert [e.text for e in told] == ["allies-1 hands sherman_a over to allies-2"]
    assert _orders(_two(), "allies-1", "HAND sherman_a TO axis-1").problems
    assert _orders(RULESET.setup("skirmish", RULESET.info.resolve_options({}), SeededDice(SEED, "s")),
                   "allies", "HAND sherman_a TO allies-2").problems  # one player a side: nobody to hand to


def test_a_reaction_fire_question_goes_to_the_seat_commanding_the_firer():
    """allies-1 sets its garand to ASK and holds it in H5; the grenadier (axis-2) steps from I6 to I5,
    both next to it: allies-1 alone is asked, and the side's standing order is listed to both seats."""
    state = _two(garand=(7, 1))
    first = _orders(state, "allies-1", "DF garand ASK\nHOLD garand")
    assert not first.problems
    state = RULESET.resolve(state, {"allies-1": first.orders, "allies-2": []}, FixedDice([])).state
    assert RULESET.phase(state).awaiting == {"axis-1", "axis-2"}
    assert RULESET.view(state, "allies-2")["standing"] == RULESET.view(state, "allies-1")["standing"] != []
    axis = _orders(state, "axis-2", "MOVE grenadier I5")
    assert not axis.problems
    result = RULESET.resolve(state, {"axis-1": [], "axis-2": axis.orders}, FixedDice([]))
    phase = RULESET.phase(result.state)
    assert phase.name.startswith("react") and phase.awaiting == {"allies-1"}
    assert RULESET.view(result.state, "allies-1")["asking"] is not None
    assert RULESET.view(result.state, "allies-2")["asking"] is None


def test_in_fog_both_seats_of_a_side_see_the_same():
    state = _two({**TWO, "visibility": "fog"}, step="attack")
    one, two = RULESET.view(state, "allies-1"), RULESET.view(state, "allies-2")
    assert {k: v for k, v in one.items() if k != "seat"} == {k: v for k, v in two.items() if k != "seat"}
    assert [u["id"] for u in one["units"] if u["side"] == "axis"] == ["pak40"]


def test_no_unit_is_set_up_where_it_could_not_move_in():
    """A vehicle is not bought into a marsh (impassable to it, placeholder chart) nor onto dragon's teeth."""
    state = RULESET.setup("assault", RULESET.info.resolve_options({"army": "build"}), SeededDice(SEED, "s"))
    refused = [str(p) for p in _orders(state, "axis", "BUY tiger AT H8").problems]
    assert len(refused) == 1 and "H8 holds dragon's teeth, which a vehicle cannot enter" in refused[0]
    assert not _orders(state, "axis", "BUY grenadier AT H8").problems
    meeting = RULESET.setup("meeting", RULESET.info.resolve_options({"army": "build"}), SeededDice(SEED, "s"))
    assert "terrain it cannot be in" in str(_orders(meeting, "allies", "BUY sherman AT E10").problems[0])


def test_an_army_build_shares_the_points_and_the_zone_between_the_seats():
    state = _two({**TWO, "army": "build"})
    view = RULESET.view(state, "allies-1")
    assert any("of 50 points" in str(p) for p in _orders(state, "allies-1", "BUY sherman AT A12\nBUY sherman AT B12\n"
                                                                        "BUY sherman AT C12").problems)
    assert any("not in your set-up zone" in str(p) or "zone" in str(p)
               for p in _orders(state, "allies-1", "BUY garand AT O12").problems)
    assert not _orders(state, "allies-2", "BUY garand AT O12").problems
    assert "allies-1" in view["seats"]


def test_the_overwatch_limit_is_the_sides_when_both_seats_order_overwatch():
    """Each seat's mail is checked against the side's units already watching; together the two may
    go beyond the side's 2 (L236), and the order carried out second is refused and reported."""
    data = RULESET.dump(_two())
    next(u for u in data["units"] if u["id"] == "sherman_b")["overwatch"] = 0
    state = RULESET.load(data)
    one = _orders(state, "allies-1", "OVERWATCH garand N")
    two = _orders(state, "allies-2", "OVERWATCH bazooka N")
    assert not one.problems and not two.problems
    assert _orders(state, "allies-1", "OVERWATCH garand N\nOVERWATCH sherman_a N").problems  # one mail: at ingest
    result = RULESET.resolve(state, {"allies-1": one.orders, "allies-2": two.orders}, FixedDice([]))
    watching = sorted(u.id for u in result.state.units if u.overwatch is not None)
    assert watching == ["garand", "sherman_b"]
    assert any("the side already has 2 units on Overwatch (L236)" in e.text for e in result.events)
