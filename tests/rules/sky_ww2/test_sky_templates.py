"""The sitrep templates render from the view alone, for every kind of step."""
import pytest

from pbem.core.play import play
from pbem.render import environment
from pbem.rules.sky_ww2 import RULESET

ENV = environment()  # the one the server renders with: the shipped templates, sandboxed, autoescaped HTML
GAME = {"id": "g1", "title": "Sky test", "turn": 1, "phase_title": "turn", "notices": [], "outcome": None,
        "seed_commitment": "abc", "seed": None, "journal_head": "def", "deadline": None, "prompt": ""}


def states():
    out = []
    for cadence, every in (("round", 1), ("turn", 4)):
        steps = play(RULESET, "battle", b"tpl", options={"players": 4, "events": True, "cadence": cadence},
                     max_phases=40)
        out += [s.state for s in steps[::every]] + [steps[-1].state]
    return out


@pytest.mark.parametrize("name", ["sitrep.txt.j2", "sitrep.html.j2"])
def test_templates_render(name):
    tpl = ENV.get_template(f"sky_ww2/{name}")
    for st in states():
        for seat in RULESET.seats(st):
            v = RULESET.view(st, seat.name)
            out = tpl.render(view=v, seat={"name": seat.name, "side": seat.side, "title": seat.title},
                             game=GAME, events=[], rolls=[], form=RULESET.order_form(v, seat.name),
                             picture_cid=None)
            assert "BOARD" in out or "Board" in out
            for a in v["aircraft"]:
                assert a["id"] in out


def test_text_sitrep_shows_card_uses_for_the_active_player():
    from skyhelp import position
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": ["short-burst", "banked-turn", "dodge", "feint", "barrel-roll"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W"}})
    v = RULESET.view(s, "coalition-1")
    out = ENV.get_template("sky_ww2/sitrep.txt.j2").render(view=v, seat={"name": "coalition-1", "side": "coalition",
                                                                          "title": ""}, game=GAME, events=[],
                                                           rolls=[], form="")
    assert "WHAT EACH CARD COULD DO NOW" in out
    assert "MANOEUVRE banked-turn TARGET x1 APPLY TARGET" in out
    assert "Short burst costs 2 firing points, c1 has 1 against x1" in out
    other = RULESET.view(s, "axis-1")
    txt = ENV.get_template("sky_ww2/sitrep.txt.j2").render(view=other, seat={"name": "axis-1", "side": "axis",
                                                                             "title": ""}, game=GAME, events=[],
                                                           rolls=[], form="")
    assert "short-burst" not in txt


def test_picture_shows_board_and_own_hand_only():
    from pbem.core.picture import Polygon, Text
    from skyhelp import position
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": ["short-burst", "banked-turn", "dodge", "feint", "barrel-roll"]},
                  "x1": {"number": 2, "alt": "low", "cell": (3, 2), "facing": "W", "hand": ["aimed-fire"]}})
    pic = RULESET.picture(RULESET.view(s, "coalition-1"))
    texts = [t.text for t in pic.base + pic.shapes if isinstance(t, Text)]
    assert {"high altitude", "medium altitude", "low altitude"} <= set(texts)
    assert any(t.startswith("c1 ") for t in texts) and any(t.startswith("x1 ") for t in texts)
    assert "c1 hand:" in texts and any("banked-turn: manoeuvre" in t for t in texts)
    assert any("MANOEUVRE banked-turn TARGET x1 APPLY TARGET" in t for t in texts) is False  # x1 not adjacent
    assert not any("aimed-fire" in t for t in texts)
    # 3 fields x 16 cells + 4 ground slots + 2 aircraft bodies
    assert sum(isinstance(x, Polygon) for x in pic.base + pic.shapes) == 48 + 4 + 2
    enemy = RULESET.picture(RULESET.view(s, "axis-1"))
    assert not any("short-burst" in t.text for t in enemy.shapes if isinstance(t, Text))


def test_text_sitrep_explains_the_round_plan_and_shows_the_players_own():
    from skyhelp import position, step
    s = position({"c1": {"number": 8, "alt": "medium", "cell": (2, 2), "facing": "E", "hand": ["short-burst"]},
                  "x1": {"number": 2, "alt": "medium", "cell": (3, 2), "facing": "W", "hand": ["dodge"]}},
                 options={"cadence": "round"})

    def text(state, seat):
        return ENV.get_template("sky_ww2/sitrep.txt.j2").render(
            view=RULESET.view(state, seat), seat={"name": seat, "side": seat.split("-")[0], "title": ""}, game=GAME,
            events=[], rolls=[], form="")
    out = text(s, "coalition-1")
    assert "YOUR ROUND PLAN IS NEEDED (round 1): one mail for the whole round" in out
    assert "c1: dogfight with x1: front, firing 1 (guns); short-burst x1" in out
    s, _ = step(s, {"coalition-1": "AIRCRAFT c1 ASK", "axis-1": "AIRCRAFT x1\nSTAY\nEND"})
    assert "c1: asked for by mail when it is activated" in text(s, "coalition-1")
    assert "x1: STAY / END" in text(s, "axis-1") and "x1: STAY" not in text(s, "coalition-1")
