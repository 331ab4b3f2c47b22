"""Flak units: zones and Barrage markers, barrage attacks, direct fire and their resolution [14.2]."""
from __future__ import annotations

from dataclasses import replace

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.play import play
from pbem.core.work import Work
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader import flak
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.game import seats
from pbem.rules.wing_leader.model import DIVE
from pbem.rules.wing_leader.moves import move_stack
from pbem.rules.wing_leader.sky import parse
from pbem.rules.wing_leader.surface import Barrage, Surface, parse_flak
from pbem.testing import known
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body

from .helpers import sq, state

HEAVY_AT_M = Surface("F1", "flak battery", 12, "axis", defence=2, damage=3, flak=(parse_flak("H1^2"),), vp=3)


def _gun(text: str, column: int = 12) -> flak.Gun:
    unit = Surface("G", "battery", column, "axis", flak=(parse_flak(text),))
    return flak.Gun("G", unit, unit.flak[0])


def _squares(*names: str) -> set[tuple[int, int]]:
    return {parse(n) for n in names}


def test_a_barrage_zone_is_the_four_squares_round_its_point():
    assert flak.zone(parse("N9")) == _squares("M8", "N8", "M9", "N9")
    assert flak.zone(parse("A1")) == _squares("A0", "A1")   # off the map's left edge: two squares


def test_where_heavy_light_and_low_angle_flak_may_put_their_markers():
    heavy, light, low = _gun("H1^2"), _gun("L1^1"), _gun("_H1^2")
    assert parse("L15") in flak.barrage_points(heavy) and parse("O3") in flak.barrage_points(heavy)
    assert parse("P3") not in flak.barrage_points(heavy)   # two columns away: not an edge of an adjacent column
    assert sorted(flak.barrage_points(light)) == sorted([parse("M1"), parse("N1")])
    assert all(p[1] == 1 for p in flak.barrage_points(low)) and len(flak.barrage_points(low)) == 4
    assert flak.barrage_points(_gun("S1")) == []


def test_a_barrage_marker_out_of_reach_is_refused_with_its_rule():
    s = state()
    assert flak.barrage_problem(s, _gun("L1^1"), parse("M2"))[1] == "14.2.2"
    assert flak.barrage_problem(s, _gun("_H1^2"), parse("M5"))[1] == "14.2.8"
    assert flak.barrage_problem(s, _gun("S1"), parse("M1"))[1] == "14.2.2"
    assert flak.barrage_problem(s, _gun("H1^2"), parse("M5")) is None


def test_the_barrage_trigger_entering_turning_circling_but_not_leaving():
    """The digest's T17: through a zone without turning: attack; starting inside and flying straight out: none;
    circling inside: attack; through three zones: one attack, +2."""
    s = replace(state(), surfaces=(HEAVY_AT_M,), barrages=(Barrage("F1", parse("N9")),))
    assert flak.met_zones(s, parse("K9"), [parse("L9"), parse("M9"), parse("N9"), parse("O9")], [], False) == ["F1"]
    assert flak.met_zones(s, parse("M9"), [parse("N10"), parse("O10")], [], False) == []      # left: no attack
    assert flak.met_zones(s, parse("M9"), [parse("N10")], [parse("M9")], False) == ["F1"]     # turned inside
    assert flak.met_zones(s, parse("M9"), [], [], True) == ["F1"]                             # circled inside
    three = replace(s, surfaces=s.surfaces + (replace(HEAVY_AT_M, id="F2"), replace(HEAVY_AT_M, id="F3")),
                    barrages=s.barrages + (Barrage("F2", parse("O9")), Barrage("F3", parse("P9"))))
    met = flak.met_zones(three, parse("K9"), [parse(c + "9") for c in "LMNOP"], [], False)
    assert met == ["F1", "F2", "F3"]
    b24 = sq("T", "allies", "b24h", "bombing", "P9", bombs=True)
    assert flak.modifier(flak.guns(three)[0], b24, flak.BARRAGE, len(met) - 1) == \
        flak.modifier(flak.guns(three)[0], b24, flak.BARRAGE, 0) + 2


def test_a_suppressed_unit_has_no_zone_and_fires_no_more():
    s = replace(state(), surfaces=(replace(HEAVY_AT_M, hits=3),), barrages=(Barrage("F1", parse("N9")),))
    assert flak.zones(s) == {} and flak.guns(s) == []


def test_direct_fire_range_heavy_light_and_low_angle():
    """The digest's T15."""
    s = state()
    heavy, light, low = _gun("H1^2"), _gun("L1^1"), _gun("_H1^2")
    assert flak.in_range(s, heavy, sq("T", "allies", "b24h", "bombing", "O19")) is None
    assert "two columns" in flak.in_range(s, heavy, sq("T", "allies", "b24h", "bombing", "P3"))
    assert flak.in_range(s, light, sq("T", "allies", "b24h", "bombing", "N4")) is None
    assert "0 to 4" in flak.in_range(s, light, sq("T", "allies", "b24h", "bombing", "N5"))
    assert flak.in_range(s, low, sq("T", "allies", "b24h", "bombing", "O1")) is None
    assert "14.2.8" in flak.in_range(s, low, sq("T", "allies", "b24h", "bombing", "O2"))
    assert "14.2.8" in flak.in_range(s, low, sq("T", "allies", "f6f", "sweep", "M1", marker=DIVE))


def test_the_automatic_choice_prefers_loaded_bombers_then_the_lowest_up_to_the_number_of_targets():
    s = replace(state(sq("A", "allies", "p47d", "escort", "M3"), sq("T", "allies", "b24h", "bombing", "N9", bombs=True),
                      sq("U", "allies", "b24h", "bombing", "L6", bombs=True), sq("K", "axis", "fw190a8", "sweep", "M2")),
                surfaces=(HEAVY_AT_M,))
    g = flak.guns(s)[0]
    assert [t.id for t in flak.auto_targets(s, g, set())] == ["U", "T"]
    assert [t.id for t in flak.auto_targets(s, g, {"U"})] == ["T", "A"]


def test_the_flak_attack_table_and_confirmation_firepower():
    assert flak.result(2) == ("-", 0) and flak.result(8) == (1, -1) and flak.result(13) == ("die", -2)
    assert flak.confirm_firepower(_gun("H1^2"), flak.BARRAGE) == 0
    assert flak.confirm_firepower(_gun("H1^2"), flak.DIRECT) == 1
    assert flak.confirm_firepower(_gun("H1^2"), flak.DIRECT, ["dual_fuze"]) == 2      # 14.2.7
    assert flak.confirm_firepower(_gun("L1^1"), flak.BARRAGE, ["dual_fuze"]) == 0     # heavy flak only
    b24 = sq("T", "allies", "b24h", "bombing", "N9")
    better = flak.modifier(_gun("H1^2"), b24, flak.DIRECT, 0, ["fire_direction", "proximity_fuse"])
    assert better == flak.modifier(_gun("H1^2"), b24, flak.DIRECT, 0) + 2
    assert flak.modifier(_gun("H1^2"), b24, flak.BARRAGE, 0, ["fire_direction"]) == flak.modifier(_gun("H1^2"), b24, flak.BARRAGE, 0)


def _orders(s, seat, body):
    checked, problems = check_body(RULESET, s, seat, body)
    assert checked is not None and problems == [], problems
    return checked.orders


def _work(s, rolls):
    w: Work[Air] = Work(s.flow, seats(s), FixedDice(rolls))
    w.data = Air(s, w)
    return w


def test_direct_fire_one_attack_a_squadron_its_pursuer_rolls_too_and_the_worse_bomb_column_is_kept():
    """T16: a squadron is attacked once a phase; squadrons pursuing the target in its square take their own roll."""
    s = replace(state(sq("T", "allies", "b24h", "bombing", "N9", bombs=True),
                      sq("K", "axis", "fw190a8", "sweep", "N9", tally="T")), surfaces=(HEAVY_AT_M,))
    w = _work(s, [6, 6, 3, 6, 6, 1, 2, 2, 1, 1])   # T: 12+1 = 13 "die" -> 3 hits, 6 6 1 confirmed; cohesion 2+2
    flak.direct_fire(w, {})
    texts = [e.text for e in w.events]
    assert texts[0].startswith("flak F1 (H1^2) direct fire at T in N9: rolled 12+1 = 13: 3 hits, bomb column -2")
    assert any(t.startswith("flak F1 (H1^2) direct fire at K in N9: rolled 2+1 = 3: no hits (14.2.4") for t in texts)
    assert w.data.squadron("T").losses == 2 and w.data.flak_bomb == {"T": -2, "K": 0}


def test_a_barrage_order_is_checked_at_ingest():
    start = known.start_state(RULESET, known.Case("flak", "-", "-", {"scenario": "flak", "options": {}, "edits": []}))
    step = next(st for st in play(RULESET, "flak", b"wl14 barrage order ingest test", max_phases=4)
                if RULESET.phase(st.state) and RULESET.phase(st.state).name == "movement")
    assert start.barrages == (Barrage("F1", parse("N9")), Barrage("S2/2", parse("Q1")))
    ok, problems = check_body(RULESET, step.state, "axis", "BARRAGE F1 O12\nBARRAGE S2/2 OFF")
    assert problems == []
    for body, why in (("BARRAGE S2/2 P2", "two upper corners of its own square"), ("BARRAGE Y1 N1", "small arms"),
                      ("BARRAGE X9 N1", "no flak unit X9")):
        _, problems = check_body(RULESET, step.state, "axis", body)
        assert len(problems) == 1 and "14.2.2" in str(problems[0]) and why in str(problems[0]), (body, problems)
    _, problems = check_body(RULESET, step.state, "allies", "BARRAGE F1 O12")
    assert len(problems) == 1 and "not yours" in str(problems[0])


def test_the_flak_scenario_conforms_and_plays_to_its_result_with_flak_firing():
    assert check_ruleset(RULESET, "flak", b"wl14 flak conformance seed 32b", max_phases=60) > 10
    steps = play(RULESET, "flak", b"wl14 flak scenario plays, seed 2", max_phases=60)
    assert steps[-1].state.flow.over and RULESET.outcome(steps[-1].state) is not None
    kinds = [e.text for st in steps for e in st.events if e.kind == "flak"]
    assert any("barrage attack" in t for t in kinds) and any("direct fire" in t for t in kinds)


def test_the_basic_scenarios_have_no_flak():
    s = RULESET.setup("raid", RULESET.info.resolve_options({}), SeededDice(b"pbem wl14 no flak in the raid", "s"))
    assert s.surfaces == () and s.barrages == () and not s.uses("14.2")


def test_the_flak_standing_order_holds_fire_or_names_the_targets():
    s = replace(state(sq("T", "allies", "b24h", "bombing", "N9", bombs=True), sq("U", "allies", "b24h", "bombing", "L6")),
                surfaces=(HEAVY_AT_M,))
    w = _work(s, [])
    flak.direct_fire(w, {"F1": None})             # FLAK F1 HOLD
    assert w.events == []
    w = _work(s, [1, 1])
    flak.direct_fire(w, {"F1": ["T"]})            # FLAK F1 AT T: only T, though it could take two
    assert [e.text.split(":")[0] for e in w.events] == ["flak F1 (H1^2) direct fire at T in N9"]


def test_the_flak_standing_order_is_checked_at_ingest_and_the_form_lists_the_units():
    step = next(st for st in play(RULESET, "flak", b"wl14 barrage order ingest test", max_phases=4)
                if RULESET.phase(st.state) and RULESET.phase(st.state).name == "movement")
    assert check_body(RULESET, step.state, "axis", "FLAK S2/1 AT T U\nFLAK F1 HOLD")[1] == []
    for body, why in (("FLAK Y1 AUTO", "small arms"), ("FLAK S2/1 AT K", "not enemy squadrons"),
                      ("FLAK S2/1 AT", "AT names the squadrons"), ("FLAK Q7 HOLD", "not one of your flak units")):
        problems = check_body(RULESET, step.state, "axis", body)[1]
        assert len(problems) == 1 and why in str(problems[0]), (body, problems)
    form = RULESET.order_form(RULESET.view(step.state, "axis"), "axis")
    assert "# flak S2/1 (H2^1) in P0: direct fire at up to 1" in form
    assert "# barrage zone of flak F1: M8 M9 N8 N9" in form
    enemy = RULESET.order_form(RULESET.view(step.state, "allies"), "allies")
    assert "# barrage zone of flak F1: M8 M9 N8 N9" in enemy and "FLAK F1" not in enemy


def test_a_dogfight_moving_into_or_staying_in_a_zone_takes_a_barrage_attack_on_each_squadron():
    s = replace(state(sq("A", "allies", "p47d", "sweep", "M9", tally="K", dogfight=True),
                      sq("K", "axis", "fw190a8", "sweep", "M9", tally="A", dogfight=True)),
                surfaces=(HEAVY_AT_M,), barrages=(Barrage("F1", parse("N9")),))
    s = replace(s, scenario="flak")
    w = _work(s, [5, 1, 1, 1, 1])       # the Defender moves it (5) and keeps it there; two misses
    move_stack(w, w.data.squadron("A"), {})
    texts = [e.text for e in w.events]
    assert texts[0].startswith("the dogfight in M9 (A K) is moved by axis: stays")
    assert [t.split(":")[0] for t in texts[1:]] == ["flak F1 (H1^2) barrage attack at A in M9",
                                                    "flak F1 (H1^2) barrage attack at K in M9"]


def test_the_picture_marks_surface_units_with_their_damage_and_barrage_zones_without_overlaps():
    from pbem import pictures
    from pbem.core.labels import problems
    from pbem.core.picture import Circle, Polygon, Text
    from pbem.rules.wing_leader import picture as pic
    s = known.start_state(RULESET, known.Case("pic", "-", "-", {"scenario": "flak", "edits": [["surfaces[id=F1].hits", 3]]}))
    p = RULESET.picture(RULESET.view(s, "allies"))
    texts = {t.text for t in p.shapes if isinstance(t, Text)}
    assert {"Y1 -", "F1 H 3/3", "S2 -", "S2/2"} <= texts and "F1" not in texts   # F1 suppressed: its marker is gone
    on_map = [x for x in p.shapes if isinstance(x, Polygon) and x.fill == pic.SURFACE_FILL
              and max(y for _, y in x.points) <= pic.GRID_BOTTOM]
    assert len(on_map) == 3
    assert len([x for x in p.shapes if isinstance(x, Circle) and x.fill == pic.BARRAGE]) == 1
    assert problems(p) == [] and pictures.render_png(p)[:4] == b"\x89PNG"


def test_the_sitrep_lists_surface_units_and_every_flak_attack_in_text_and_html():
    import html as html_
    from pbem.journal import sitrep_context
    from pbem.render import render_sitrep
    steps = play(RULESET, "flak", b"wl14 flak conformance seed 32b", max_phases=60)
    fired = 0
    for step in steps:
        flak_events = [e for e in step.events if e.kind == "flak"]   # an open game: every seat is told all
        for seat in RULESET.seats(step.state):
            entry = {"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {},
                     "events": [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to), "data": dict(e.data)}
                                for e in step.events], "rolls": []}
            game = {"id": "g", "title": "t", "ruleset": "wing_leader", "scenario": "flak", "turn": step.phase.turn,
                    "phase": step.phase.name, "phase_title": step.phase.title, "prompt": "", "deadline": "",
                    "seed_commitment": "c" * 64, "seed": None, "seed_salt": None, "server_key": "",
                    "journal_head": "h" * 64, "notices": [], "outcome": None}
            ctx = sitrep_context(game=game, seat={"name": seat.name, "side": seat.side, "title": seat.title},
                                 view=RULESET.view(step.state, seat.name), entries=[entry], form=None, picture=False)
            text, page = render_sitrep("wing_leader", ctx)
            assert "SURFACE UNITS AND FLAK (14)" in text and "Surface units and flak (14)" in page
            assert "- surface unit F1 (flak battery, axis) at M0" in text
            for e in flak_events:
                assert f"- {e.text}\n" in text and html_.escape(e.text) in page
                fired += 1
    assert fired > 10


def test_every_form_of_a_flak_game_signed_as_it_came_is_accepted_and_the_bot_moves_its_markers():
    refused, forms, placed = [], 0, 0
    for options in ({}, {"cadence": "single"}, {"visibility": "fog"}):
        for step in play(RULESET, "flak", b"every form signed as it came, 2026", options=options):
            placed += sum("puts its Barrage marker" in e.text for e in step.events)
            phase = RULESET.phase(step.state)
            for seat in sorted(phase.awaiting) if phase else ():
                form = RULESET.order_form(RULESET.view(step.state, seat), seat)
                body = "\n".join(line for line in form.splitlines() if not line.startswith("#"))
                refused += [f"{phase.key} {seat}: {p}" for p in check_body(RULESET, step.state, seat, body)[1]]
                forms += 1
    assert forms > 40 and refused == [] and placed > 0


def test_a_fighter_broken_by_flak_cannot_attack_in_that_combat_phase_14_2_6():
    from pbem.rules.wing_leader import combat
    s = replace(state(sq("A", "allies", "p47d", "sweep", "N9", tally="K", alert=True),
                      sq("K", "axis", "b24h", "bombing", "N9")), surfaces=(HEAVY_AT_M,))
    before = combat.fights(list(s.squadrons), ["A"])
    assert [f.attackers for f in before] == [("A",)]
    w = _work(s, [6, 6, 1, 1, 1, 1, 1, 1, 1])   # 12+1 = 13: "die" 1 hit, confirmed 1: none; cohesion 1+1: broken;
    #                                             then K, pursued by A, takes its own roll: 1+1, no hits
    flak.direct_fire(w, {})
    hit = w.data.squadron("A")
    assert hit.broken and hit.tally == "" and hit.mission == "rtb"
    assert combat.fights(list(w.data.squadrons.values()), ["A"]) == []


def test_flak_ask_stops_the_combat_phase_for_the_flak_side_to_aim_and_resumes_with_its_answer():
    case = known.Case("ask", "-", "-", {"scenario": "flak", "seed": "wing leader known-answer seed, 32b", "edits": [
        ["flow.step", "movement"], ["squadrons[id=T].at", [17, 9]], ["squadrons[id=T].heading", 6],
        ["squadrons[id=U].status", "destroyed"], ["squadrons[id=A].status", "destroyed"],
        ["squadrons[id=K].status", "destroyed"], ["squadrons[id=L].status", "destroyed"], ["barrages", []]]})
    start = known.start_state(RULESET, case)
    orders = {"allies": _orders(start, "allies", ""),
              "axis": _orders(start, "axis", "FLAK S2/1 ASK\nFLAK F1 HOLD\nFLAK S2/2 HOLD")}
    asked = RULESET.resolve(start, orders, SeededDice(b"wl14 flak ask test seed, 32 bytes", "r")).state
    assert RULESET.phase(asked).name.startswith("flak_choice")
    view = RULESET.view(asked, "axis")
    assert view["asks"] == [{"key": "flak-S2/1", "default": "AUTO", "choices": ["AUTO", "HOLD", "T"],
                             "question": "flak S2/1 (H2^1) in P0 may fire directly at up to 1 of T: name them, or AUTO "
                                         "or HOLD (14.2.4)"}]
    form = RULESET.order_form(view, "axis")
    assert "FLAK S2/1 AUTO\n" in form and "FLAK S2/1 AUTO|HOLD|<T...> (14.2.4)" in form
    assert check_body(RULESET, asked, "axis", "FLAK S2/1 K")[1]            # not a choice: refused
    held = RULESET.resolve(asked, {"axis": _orders(asked, "axis", "FLAK S2/1 HOLD")},
                           SeededDice(b"wl14 flak ask test seed, 32 bytes", "h"))
    fired = RULESET.resolve(asked, {"axis": _orders(asked, "axis", "FLAK S2/1 T")},
                            SeededDice(b"wl14 flak ask test seed, 32 bytes", "h"))
    assert not RULESET.phase(held.state).name.startswith("flak_choice")
    assert not any("direct fire" in e.text for e in held.events)
    assert [e.text.split(":")[0] for e in fired.events if e.kind == "flak"][:1] == ["flak S2/1 (H2^1) direct fire at T in P9"]


def test_the_barrage_lead_is_the_best_unit_for_the_target_not_merely_the_strongest():
    heavy, light = _gun("H1^2"), _gun("L1^1")
    low = sq("T", "allies", "b24h", "bombing", "M1")      # heavy flak -1 at altitudes 0-2, light +1 at 0-1 (placeholders)
    high = sq("T", "allies", "b24h", "bombing", "M8")
    assert flak.best_lead([heavy, light], low) is light
    assert flak.best_lead([light, heavy], high) is heavy
