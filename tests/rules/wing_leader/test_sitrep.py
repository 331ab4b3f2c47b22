"""The Wing Leader sitrep (templates/wing_leader/): the Wing Displays as tables, the movement order as it
happened and every air combat with its column, modifiers, rolls and results, the same in text and HTML,
rendered for every seat of a bot game by the production (sandboxed, StrictUndefined) environment."""
from __future__ import annotations

import html

import pytest
from markupsafe import escape

from pbem.core.play import play
from pbem.journal import sitrep_context
from pbem.render import render_sitrep
from pbem.rules.wing_leader import RULESET

SEED = b"wing leader sitrep seed 32 bytes"


def _context(step, seat):
    entry = {"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {},
             "events": [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to), "data": dict(e.data)}
                        for e in step.events],
             "rolls": [{"sides": r.sides, "value": r.value, "why": r.why, "seen_by": sorted(r.seen_by)}
                       for r in step.rolls]}
    game = {"id": "g", "title": "t", "ruleset": "wing_leader", "scenario": "raid", "turn": step.phase.turn,
            "phase": step.phase.name, "phase_title": step.phase.title, "prompt": "", "deadline": "",
            "seed_commitment": "c" * 64, "seed": None, "seed_salt": None, "server_key": "",
            "journal_head": "h" * 64, "notices": [], "outcome": None}
    return sitrep_context(game={**game}, seat={"name": seat.name, "side": seat.side, "title": seat.title},
                          view=RULESET.view(step.state, seat.name), entries=[entry], form=None, picture=False)


@pytest.fixture(scope="module", params=[1, 2])
def steps(request):
    """A whole bot game of the raid with one seat a side, then with wing players."""
    return play(RULESET, "raid", SEED, options={"seats_per_side": request.param}, max_phases=200)


def test_every_seat_of_a_bot_game_gets_a_sitrep_in_text_and_html(steps):
    rendered = 0
    for step in steps:
        for seat in RULESET.seats(step.state):
            text, page = render_sitrep("wing_leader", _context(step, seat))
            for s in RULESET.view(step.state, seat.name)["wing_display"]:
                row = f"<td>{s['id']}</td><td>{html.escape(s['aircraft'])}</td><td>{s['mission']}</td>"
                assert row in page and f"\n{s['id']:<4} {s['aircraft']:<17} {s['mission']:<9}" in text
            assert "WING DISPLAY" in text and "Wing Display" in page
            rendered += 1
    assert rendered == sum(len(RULESET.seats(s.state)) for s in steps) > 20


def test_the_movement_order_and_every_combat_roll_are_in_both_forms(steps):
    """A step with air combat: its movement order line, and each side's Air Combat Table roll with its
    column, roll, modifiers and hits, in the text and in the HTML table."""
    step = next(s for s in steps if any(e.data.get("column") is not None for e in s.events))
    seat = RULESET.seats(step.state)[0]
    text, page = render_sitrep("wing_leader", _context(step, seat))
    order = next(e.text for e in step.events if e.kind == "order")
    assert f"- {order}" in text and f"<li>{html.escape(order)}</li>" in page
    rolls = [e.data for e in step.events if e.data.get("column") is not None]
    for r in rolls:
        assert (f"{r['role']} {r['lead']}: column {r['column']:+d}, roll {r['roll']}, modifiers {r['modifier']:+d}, "
                f"total {r['modified']}: {r['hits']} hit(s)") in text
        assert (f"<tr><td>{r['role']} {r['lead']}</td><td>{r['column']:+d}</td><td>{r['roll']}</td>"
                f"<td>{r['modifier']:+d}</td><td>{r['modified']}</td><td>{r['hits']} hit(s)</td></tr>") in page
    fight = next(e.data for e in step.events if "attackers" in e.data)
    assert f"{'+'.join(fight['attackers'])} attack {'+'.join(fight['defenders'])}" in text


def test_bombing_has_its_own_section_only_where_there_is_bombing():
    """Rule 15: a step with a strike lists every bombing event under BOMBING (15), text and HTML; the basic
    game's sitreps have no such section."""
    game = play(RULESET, "dive_bombing", SEED, max_phases=200)
    step = next(s for s in game if any(e.kind == "bombing" and "attack on" in e.text for e in s.events))
    seat = RULESET.seats(step.state)[0]
    text, page = render_sitrep("wing_leader", _context(step, seat))
    assert "BOMBING (15)" in text and "<h2>Bombing (15)</h2>" in page
    for e in (e for e in step.events if e.kind == "bombing"):
        assert f"- {e.text}" in text.split("BOMBING (15)")[1] and f"<li>{escape(e.text)}</li>" in page
    quiet = next(s for s in game if s.events and not any(e.kind == "bombing" for e in s.events))
    assert "BOMBING (15)" not in render_sitrep("wing_leader", _context(quiet, seat))[0]


def test_barrage_balloons_and_their_attacks_are_in_the_flak_section():
    """14.3: the balloons still up are listed with the surface units, and a sweep's attack on one among the
    flak events, text and HTML."""
    from dataclasses import replace

    from pbem.core.dice import SeededDice
    from pbem.rules.wing_leader.sky import parse
    from pbem.testing.known import check_body
    state = RULESET.setup("torpedo", RULESET.info.resolve_options({"cadence": "fast"}), SeededDice(SEED, "s"))
    state = RULESET.resolve(state, {s: () for s in RULESET.phase(state).awaiting}, SeededDice(SEED, "t")).state
    state = replace(state, squadrons=tuple(replace(s, at=parse("L2"), mission="sweep", alert=True) if s.id == "H"
                                           else s for s in state.squadrons))
    orders = check_body(RULESET, state, "allies", "BALLOON H B1")[0].orders
    result = RULESET.resolve(state, {"allies": orders, "axis": ()}, SeededDice(SEED, "m"))
    step = type("Step", (), {"events": result.events, "rolls": (), "state": result.state,
                             "phase": RULESET.phase(state)})
    seat = RULESET.seats(result.state)[0]
    text, page = render_sitrep("wing_leader", _context(step, seat))
    flak_part = text.split("SURFACE UNITS AND FLAK (14)")[1].split("AIR COMBAT")[0]
    assert "- barrage balloon B1 at altitude 2:" in flak_part and "H attacks barrage balloon B1" in flak_part
    assert "barrage balloon B1 at altitude 2:" in page and "H attacks barrage balloon B1" in page
