"""The A&A Miniatures sitrep (templates/aa_miniatures/): own units with facing and markers, the enemies
in sight with range band and the defence they would use, the attacks of the phase with dice and modifiers,
the standing orders in force and, in fog, the last-known positions; the same in text and HTML, rendered
for every seat of bot games by the production (sandboxed, StrictUndefined) environment."""
from __future__ import annotations

import html

import pytest

from pbem.core.play import play
from pbem.journal import sitrep_context
from pbem.render import render_sitrep
from pbem.rules.aa_miniatures import RULESET

SEED = b"aa miniatures sitrep seed, 32 b."


def _context(step, seat):
    entry = {"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {},
             "events": [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to), "data": dict(e.data)}
                        for e in step.events],
             "rolls": [{"sides": r.sides, "value": r.value, "why": r.why, "seen_by": sorted(r.seen_by)}
                       for r in step.rolls]}
    game = {"id": "g", "title": "t", "ruleset": "aa_miniatures", "scenario": "meeting", "turn": step.phase.turn,
            "phase": step.phase.name, "phase_title": step.phase.title, "prompt": "", "deadline": "",
            "seed_commitment": "c" * 64, "seed": None, "seed_salt": None, "server_key": "",
            "journal_head": "h" * 64, "notices": [], "outcome": None}
    view = RULESET.view(step.state, seat.name)
    return view, sitrep_context(game=game, seat={"name": seat.name, "side": seat.side, "title": seat.title},
                                view=view, entries=[entry], form=RULESET.order_form(view, seat.name), picture=True)


@pytest.fixture(scope="module", params=[{}, {"visibility": "fog"}, {"cadence": "fast", "visibility": "fog"}],
                ids=["open", "fog", "fog-fast"])
def game(request):
    return request.param, play(RULESET, "meeting", SEED, options=request.param, max_phases=120)


def test_every_seat_of_a_bot_game_gets_a_sitrep_in_text_and_html(game):
    options, steps = game
    assert RULESET.outcome(steps[-1].state) is not None  # the bot game reached its end
    rendered = 0
    for step in steps:
        for seat in RULESET.seats(step.state):
            view, context = _context(step, seat)
            text, page = render_sitrep("aa_miniatures", context)
            for u in view["units"]:
                listed = f"- {u['id']} ({u['name']}, {u['kind']}) in {u['hex']} facing {u['facing']}"
                assert listed in text, listed
                assert f"<tr><td>{u['id']}</td><td>{html.escape(u['name'])} ({u['kind']})</td>" in page
            for s in view["in_sight"]:
                assert f"- {s['unit']} -> {s['target']} ({s['name']}) in {s['hex']}: {s['hexes']} hexes, " \
                       f"{s['band']}, {s['defence']} defence {s['value']}" in text
            for s in view["standing"]:
                assert f"- {s['text']}\n" in text and f"<li><code>{s['text']}</code></li>" in page
            if options.get("visibility") == "fog":
                assert "LAST SEEN" in text and "Last seen" in page
                for g in view["last_known"]:
                    assert f"- {g['id']} ({g['name']}) in {g['hex']} facing {g['facing']}, turn {g['turn']}" in text
            rendered += 1
    assert rendered == 2 * len(steps) > 40


def test_the_attacks_with_their_dice_and_modifiers_are_in_both_forms(game):
    """A step with attacks: each attack event the seat saw, with its dice, is under ATTACKS AND FIRE."""
    _, steps = game
    step = next(s for s in steps if any(e.kind == "attack" for e in s.events))
    seat = RULESET.seats(step.state)[0]
    _, context = _context(step, seat)
    text, page = render_sitrep("aa_miniatures", context)
    attacks = [e["text"] for e in context["events"] if e["kind"] == "attack"]
    assert attacks and all(" dice " in a for a in attacks)
    section = text.split("ATTACKS AND FIRE THIS PHASE")[1].split("STANDING ORDERS")[0]
    for a in attacks:
        assert f"- {a}\n" in section and f"<li>{html.escape(a)}</li>" in page


def test_what_a_unit_sees_gives_band_defence_dice_and_chances():
    """Pure: a Sherman facing a PaK 40 at long range (the form's preview agrees: front defence 4, 6 dice)."""
    from pbem.core.dice import SeededDice
    from pbem.rules.aa_miniatures.sitrep import sights
    state = RULESET.setup("skirmish", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = "attack"
    view = RULESET.view(RULESET.load(data), "allies")
    row = next(r for r in sights(view, "allies") if r["unit"] == "sherman_a" and r["target"] == "pak40")
    assert (row["hex"], row["band"], row["defence"], row["value"], row["dice"]) == ("H7", "long", "front", 4, 6)
    chances = [float(p) for p in row["chances"].split("/")]
    assert len(chances) == 4 and abs(sum(chances) - 1) < 0.02
    assert row in view["in_sight"]


def test_every_seat_picture_of_a_bot_game_is_readable_and_names_every_unit_it_shows(game):
    """The map picture: no text overlaps another or leaves the canvas, every hex keeps its name, and every
    unit in the view (and, in fog, every last-seen enemy) is named by a label next to its disc."""
    from pbem.core.labels import problems
    from pbem.core.picture import Text
    from pbem.rules.aa_miniatures.board import board
    _, steps = game
    for step in steps:
        for seat in RULESET.seats(step.state):
            view = RULESET.view(step.state, seat.name)
            pic = RULESET.picture(view)
            assert problems(pic) == [], (step.phase.key, seat.name)
            names = {t.text for t in pic.base if isinstance(t, Text)}
            assert len(names) == len(board(view["map"]).hexes)
            named = {t.text.split()[0] for t in pic.shapes if isinstance(t, Text)}
            assert {u["id"] for u in [*view["units"], *view.get("last_known", ())]} <= named


@pytest.mark.parametrize("options", [{"players_per_side": 2}, {"players_per_side": 2, "visibility": "fog"}],
                         ids=["two-seats", "two-seats-fog"])
def test_with_two_players_a_side_the_sitrep_reads_the_side_and_says_who_commands_what(options):
    """A seat (allies-1) is not a side (allies): its side's units are under YOUR SIDE'S UNITS, each saying
    which seat commands it, and none of them is listed among the enemies."""
    steps = play(RULESET, "meeting", SEED, options=options, max_phases=8)
    step = next(s for s in steps if s.phase.name != "deploy")
    seat = next(s for s in RULESET.seats(step.state) if s.name == "allies-1")
    view, context = _context(step, seat)
    text, page = render_sitrep("aa_miniatures", context)
    assert "you are allies-1 (allies, with allies-2: you order the units commanded by you)" in text
    own, enemies = text.split("YOUR SIDE'S UNITS")[1].split("ENEMY UNITS")
    enemies = enemies.split("WHAT YOUR UNITS SEE")[0]
    mine = [u for u in view["units"] if u["side"] == "allies"]
    assert mine and {view["command"][u["id"]] for u in mine} == {"allies-1", "allies-2"}
    for u in mine:
        who = "you" if view["command"][u["id"]] == "allies-1" else "allies-2"
        assert f"- {u['id']} ({u['name']}, {u['kind']}) in {u['hex']} facing {u['facing']} · commanded by {who}" in own
        assert f"- {u['id']} (" not in enemies
        assert f"<td>{u['id']}</td>" in page.split("Enemy units")[0]
    assert all(f"- {u['id']} (" in enemies for u in view["units"] if u["side"] == "axis")
