"""Issue #16 for Lew Morski: orders checked against the line of fire, optional reactive shots, fog that
holds for targets as well as shooters, entry facings and the sitrep's options."""
from __future__ import annotations

from dataclasses import replace

from pbem.rules.lew_morski import RULESET, attacks, board
from pbem.rules.lew_morski.setup import inward

from .lm_helpers import at, check, new_state, only, put, world

SEED_DICE = [6, 6, 6, 6, 6, 6]


def _ahead(hex_: str, facing: str, dist: int) -> str:
    """The hex ``dist`` hexes straight ahead of ``hex_`` [R 5.1]."""
    return board.fmt(board.ray(board.parse_hex(hex_), facing, dist)[dist - 1])  # type: ignore[arg-type]


def _facing_pair(shooter: str, target: str, dist: int, **options):
    """A position with only ``shooter`` (at A20,B20 facing N) and ``target`` ``dist`` hexes ahead of it."""
    s = only(new_state(**options), shooter, target)
    s = put(s, shooter, "A20,B20", "N")
    return put(s, target, _ahead("A20,B20", "N", dist), "N")


# ---------------------------------------------------------------- reactive fire is optional [R 5.3.6]
def test_default_reactive_fire_holds_where_table_2_gives_no_hit():
    """An He111 (strength 2) with a Spitfire 5 hexes ahead: Table 2 gives no hit, so by default it
    holds and keeps its one shot of the stage [R 5.3.6, 5.4]."""
    w = world(_facing_pair("He111-1", "Spit-1", 5), SEED_DICE)
    attacks.reactive_fire(w, "gb", {})
    assert w.ac["He111-1"].fired_stage != w.stage
    assert not any("fires" in e.text for e in w.w.events)


def test_default_reactive_fire_still_fires_where_a_hit_is_possible():
    """The same He111 at distance 2 (hits on 9-11) fires reactively by default [R 5.4]."""
    w = world(_facing_pair("He111-1", "Spit-1", 2), SEED_DICE)
    attacks.reactive_fire(w, "gb", {})
    assert w.ac["He111-1"].fired_stage == w.stage
    assert any("He111-1 fires reactively at Spit-1" in e.text for e in w.w.events)


def test_nobody_is_asked_about_a_shot_that_cannot_hit():
    """react_default=ask opens no window for a shot Table 2 says cannot hit [R 5.3.6]."""
    w = world(_facing_pair("He111-1", "Spit-1", 5, react_default="ask"), SEED_DICE)
    assert attacks.ask_list(w, "gb") == []
    w = world(_facing_pair("He111-1", "Spit-1", 2, react_default="ask"), SEED_DICE)
    assert [x["ac"] for x in attacks.ask_list(w, "gb")] == ["He111-1"]


def test_an_explicit_answer_fires_even_a_hopeless_shot():
    """The owner's own FIRE answer is carried out: the shot is his to spend [R 5.3.6]."""
    w = world(_facing_pair("He111-1", "Spit-1", 5), SEED_DICE)
    attacks.reactive_fire(w, "gb", {"He111-1": "FIRE"})
    assert w.ac["He111-1"].fired_stage == w.stage


# ------------------------------------------------------------- fog: no unseen target [R 5.1-5.3.2]
FOG = {"visibility": "fog", "visual_range": 3}


def test_fog_a_german_never_fires_reactively_at_a_spitfire_it_cannot_see():
    """The issue's sitrep: 'enemy aircraft you see -- none', then 'He111-2 fires reactively at Spit-3 ...
    at distance 5'.  A Spitfire 4 hexes ahead, beyond visual range 3, is no target."""
    w = world(_facing_pair("Me110-1", "Spit-1", 4, **FOG), SEED_DICE)
    assert attacks.unseen_by(w, w.ac["Spit-1"], "de")
    attacks.reactive_fire(w, "gb", {})
    assert w.ac["Me110-1"].fired_stage != w.stage and w.w.events == [] and w.w.dice.unused == len(SEED_DICE)


def test_fog_a_german_attack_at_an_unseen_spitfire_holds_without_naming_it():
    w = world(_facing_pair("Me110-1", "Spit-1", 4, **FOG), SEED_DICE)
    attacks.fire(w, w.ac["Me110-1"])
    assert w.ac["Me110-1"].fired_stage != w.stage
    assert all("Spit-1" not in e.text for e in w.w.events)


def test_fog_a_seen_spitfire_is_still_a_target():
    w = world(_facing_pair("Me110-1", "Spit-1", 3, **FOG), SEED_DICE)
    attacks.fire(w, w.ac["Me110-1"])
    assert w.ac["Me110-1"].fired_stage == w.stage


# ---------------------------------------------------------- FIRE checked on the line of fire [R 5.1-5.3.2]
def test_fire_at_the_aircraft_its_move_brings_onto_the_line_is_accepted():
    """Me110-1 at A20,B20 facing N flies FFF; Spit-1 is then 2 hexes ahead at the same altitude."""
    s = _facing_pair("Me110-1", "Spit-1", 5)
    assert not check(s, "de", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1").problems


def test_fire_through_another_aircraft_is_refused():
    """Only the nearest aircraft on the line may be fired at; nobody fires through another [R 5.3.2]."""
    s = _facing_pair("Me110-1", "Spit-1", 7)
    s = put(s, "Spit-2", _ahead("A20,B20", "N", 4), "N", status="board")
    p = check(s, "de", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1").problems
    assert [x.line_no for x in p] == [2] and p[0].rule == "R 5.1, 5.2, 5.3.2"
    assert "Spit-2 at distance 1" in p[0].message and "FIRE Me110-1 AT Spit-2" in p[0].message


def test_fire_at_an_aircraft_at_another_altitude_is_refused():
    s = put(_facing_pair("Me110-1", "Spit-1", 5), "Spit-1", _ahead("A20,B20", "N", 5), "N", "LOW")
    p = check(s, "de", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1").problems
    assert [x.rule for x in p] == ["R 5.1, 5.2, 5.3.2"] and "low" in p[0].message


def test_plain_fire_with_nothing_on_the_line_is_acknowledged_with_a_warning():
    """FIRE without a target is carried out only if an enemy is there; the acknowledgement says it is not."""
    s = put(only(new_state(), "Me110-1", "Spit-1"), "Me110-1", "A20,B20", "N")
    got = check(s, "de", "MOVE Me110-1 FFF\nFIRE Me110-1")
    assert not got.problems and any("Me110-1" in n and "hold fire" in n for n in got.notes)


def test_fire_by_an_aircraft_that_leaves_the_board_is_refused():
    s = put(only(new_state(), "Me110-1", "Spit-1"), "Me110-1", "A1,B1", "N")
    p = check(s, "de", "MOVE Me110-1 FFF\nFIRE Me110-1")
    assert [x.rule for x in p.problems] == ["R 4.3, 5.1"]


# ----------------------------------------------------------------- ENTER faces into the board [R 4.3.1]
def test_enter_at_another_hex_without_a_facing_faces_into_the_board():
    """Spit-1 left by the north edge at A20,B10; ENTER at another edge hex with no facing used to keep the
    default hex's facing, which may point off the board.  It now faces inward from the hex it enters."""
    s = put(only(new_state(), "Spit-1", "He111-1"), "He111-1", "A30,B30", "S")
    s = replace(at(s, "gb-move", 12), aircraft=tuple(
        replace(a, status="off", hex=None, exit_hex=(20, 10), exit_edge="north", left_alt="HIGH", return_stage=12)
        if a.id == "Spit-1" else a for a in s.aircraft))
    entry = next(x for x in RULESET.view(s, "gb")["own"] if x["id"] == "Spit-1")["entry"]
    other = next(h for h in entry["hexes"] if h != entry["hex"] and inward(board.parse_hex(h)) != entry["facing"])
    got = check(s, "gb", f"ENTER Spit-1 {other}")
    assert not got.problems and got.orders[0].facing == inward(board.parse_hex(other))
    same = check(s, "gb", "ENTER Spit-1")
    assert same.orders[0].facing == entry["facing"]
    assert check(s, "gb", f"ENTER Spit-1 {other} SW").orders[0].facing == "SW"


# ------------------------------------------------------ rejections cite the rulebook's own sections
def test_no_rejection_cites_a_digest_number():
    """Every ``rule=`` of the checker is a section printed in the rulebook ("R 5.3.2"), never the digest's
    G-numbers or [digest ...] references an owner of the box cannot look up."""
    import ast
    import re
    from pathlib import Path

    from pbem.rules.lew_morski import checker

    src = Path(checker.__file__).read_text()
    rules = re.findall(r'rule="([^"]*)"', src) + re.findall(r'aircraft\(view, [^,]+, "([^"]*)"\)', src)
    assert rules and all(re.fullmatch(r"R \d+(\.\d+)*(-\d+(\.\d+)*)?(, \d+(\.\d+)*(-\d+(\.\d+)*)?)*", r)
                         for r in rules), sorted(set(rules))
    raises = [n.exc for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call)]
    bare = [n.lineno for n in raises if not any(k.arg == "rule" for k in n.keywords)]
    assert raises and not bare, f"checker.py raises without a rule at lines {bare}"


# ---------------------------------------------------- combat-phase orders of an aircraft that leaves
def _leaving(ac: str, **kw):
    """``ac`` at A20,B11 facing N: any move of 3 hexes takes it off the north edge after A20,B10."""
    return put(only(new_state(), ac, "Spit-1"), ac, "A20,B11", "N", **kw)


def test_bomb_by_an_aircraft_that_leaves_the_board_is_refused():
    """Bombs fall in the combat phase [R 7.0.3]; an aircraft that left is no longer there to drop them."""
    p = check(_leaving("He111-1"), "de", "MOVE He111-1 FFF\nBOMB He111-1 A20,B10").problems
    assert [(x.line_no, x.rule) for x in p] == [(2, "R 7.0.3, 4.3")]


def test_bomb_while_flying_over_is_allowed_for_an_aircraft_that_leaves():
    """Under option bomb_timing=movement the series falls on the way out, so the line is carried out."""
    s = put(only(new_state(bomb_timing="movement"), "He111-1", "Spit-1"), "He111-1", "A20,B11", "N")
    assert not check(s, "de", "MOVE He111-1 FFF\nBOMB He111-1 A20,B10").problems


def test_unjam_by_an_aircraft_that_leaves_the_board_is_refused():
    p = check(_leaving("Me110-1", jammed=True), "de", "UNJAM Me110-1\nMOVE Me110-1 FFF").problems
    assert [(x.line_no, x.rule) for x in p] == [(1, "R 4.3, 5.3.4")]
    staying = put(_leaving("Me110-1", jammed=True), "Me110-1", "A20,B11", "S", jammed=True)
    assert not check(staying, "de", "UNJAM Me110-1\nMOVE Me110-1 FFF").problems


def test_fire_that_table_2_says_cannot_hit_is_acknowledged_with_a_warning():
    """Legal, but it only spends the one shot of the stage: the acknowledgement says so [R 5.2, 5.3.1]."""
    s = _facing_pair("He111-1", "Spit-1", 8)  # He111 strength 2; after FFF the Spitfire is 5 ahead
    got = check(s, "de", "MOVE He111-1 FFF\nFIRE He111-1 AT Spit-1")
    assert not got.problems and any("cannot hit (Table 2)" in n for n in got.notes)
    s = _facing_pair("He111-1", "Spit-1", 5)
    got = check(s, "de", "MOVE He111-1 FFF\nFIRE He111-1 AT Spit-1")
    assert not got.problems and not any("cannot hit" in n for n in got.notes)


# ------------------------------------------------------------- sequential windows with the defaults
def test_default_cadence_is_one_window_per_side_per_stage():
    """With the default options (react_default=always: no interrupt windows) a bot game of W3 costs one
    simultaneous setup window, then per stage one German and one British window, each awaiting one side."""
    from collections import Counter

    from pbem.core.play import play

    steps = play(RULESET, "w3", b"lew morski windows w3", max_phases=400)
    waits = [s.phase for s in steps if s.phase.awaiting]
    assert waits[0].key == "0/setup" and {x[:2] for x in waits[0].awaiting} == {"de", "gb"}
    per_stage = Counter(p.key.split("/")[0] for p in waits[1:])
    assert steps[-1].state.step == "over" and set(per_stage.values()) <= {1, 2}
    assert all(len({x[:2] for x in p.awaiting}) == 1 for p in waits[1:])
    assert len(waits) <= 1 + 2 * steps[-1].state.stage


def test_fog_an_unseen_aircraft_does_not_stop_a_shot_at_a_seen_one():
    """The German line of fire holds what German pilots see, as the view and the order check show it:
    a Spitfire inside full cloud 2 hexes ahead is neither a target nor a screen for the one 3 ahead."""
    from pbem.rules.lew_morski.combat import in_cloud

    def clear(h) -> bool:  # no full cloud: an aircraft there is seen, and a line of fire from it is whole
        return board.on_board(h) and in_cloud(h, "HIGH") != "full"

    # a full-cloud hex without full cloud 2 hexes south of it (the Me110) and 1 hex north (the seen Spitfire)
    cloud = next(h for h in board.all_hexes() if in_cloud(h, "HIGH") == "full"
                 and clear(board.ray(h, "N", 1)[0]) and clear(board.ray(h, "S", 2)[-1])
                 and clear(board.ray(h, "S", 1)[0]))
    start = board.fmt(board.ray(cloud, "S", 2)[-1])  # type: ignore[arg-type]
    s = only(new_state(**FOG), "Me110-1", "Spit-1", "Spit-2")
    s = put(put(s, "Me110-1", start, "N"), "Spit-1", board.fmt(cloud), "N")
    s = put(s, "Spit-2", _ahead(start, "N", 3), "N", status="board")
    w = world(s, SEED_DICE)
    assert attacks.unseen_by(w, w.ac["Spit-1"], "de") and not attacks.unseen_by(w, w.ac["Spit-2"], "de")
    assert attacks.target(w, w.ac["Me110-1"]) == (w.ac["Spit-2"], 3)
    view = RULESET.view(s, "de")
    assert next(a for a in view["own"] if a["id"] == "Me110-1")["target"]["target"] == "Spit-2"


def test_fire_at_an_aircraft_thirty_hexes_off_the_line_is_refused_at_ingest():
    """The issue's case: ``FIRE Me110-1 AT Spit-1`` with Spit-1 thirty hexes away and off the line of fire
    was acknowledged, then quietly not fired.  The check knows the path and refuses it [R 5.1-5.3]."""
    s = put(only(new_state(), "Me110-1", "Spit-1"), "Me110-1", "A5,B10", "N")
    far = put(s, "Spit-1", "A35,B35", "N")  # 30 hexes off, nowhere near the line ahead of Me110-1
    assert board.distance(board.parse_hex("A5,B10"), board.parse_hex("A35,B35")) == 30
    [p] = check(far, "de", "FIRE Me110-1 AT Spit-1").problems
    assert p.line_no == 1 and p.rule == "R 5.1, 5.2, 5.3.2" and "Spit-1" in p.message, str(p)
    # and a line that is refused at ingest is never carried out: the same order on the line is accepted
    assert not check(_facing_pair("Me110-1", "Spit-1", 5), "de", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1").problems


def test_an_owners_printed_map_loads_through_the_data_override():
    """Issue 16: the printed map is lost, so an owner who has one loads its terrain through the kit's
    per-game data override, and the orders are checked against it: an AA gun may not stand on the owner's
    river [R 6.0.2], wherever the authored map put it."""
    from pbem.core.data import Overrides, use_overrides
    from pbem.core.dice import FixedDice
    hex_ = "A10,B30"
    s = RULESET.setup("w3", RULESET.info.resolve_options({"sun": "south"}), FixedDice([]))
    assert not check(s, "gb", f"AA AA-1 {hex_}").problems
    mine = Overrides("pbem.rules.lew_morski", {"board.toml": {"terrain": {"provenance": "rulebook", "river": [hex_]}}})
    with use_overrides(mine):
        assert board.terrain().river == {board.parse_hex(hex_)}
        [p] = check(s, "gb", f"AA AA-1 {hex_}").problems
        assert p.rule == "R 6.0.1-6.0.2", str(p)
    assert board.parse_hex(hex_) not in board.terrain().river


def test_fog_an_unseen_spitfire_whose_guns_jam_is_not_named_to_the_germans():
    """The issue: jam results reached seats that may not know of the shooter.  Spit-1, 4 hexes behind
    He111-1 (visual range 3), fires and rolls 2: its guns jam [R 5.3.4].  The German side is told that an
    unseen aircraft fired and jammed, never which; the British are told it was Spit-1."""
    s = _facing_pair("Spit-1", "He111-1", 4, **FOG)
    w = world(s, [1, 1])
    assert attacks.unseen_by(w, w.ac["Spit-1"], "de")
    attacks.fire(w, w.ac["Spit-1"])
    assert w.ac["Spit-1"].jammed
    de, gb = w.w.seats_of("de"), w.w.seats_of("gb")
    german = [e.text for e in w.w.events if e.visible_to & de] + [r.why for r in w.w.dice.rolls if r.seen_by & de]
    british = [e.text for e in w.w.events if e.visible_to & gb]
    assert any("guns jammed" in t for t in german) and not any("Spit-1" in t for t in german), german
    assert any(t.startswith("Spit-1 fires at He111-1") and "guns jammed" in t for t in british), british
