"""Sky of WWII's campaign: a squadron's pilots.  The carry-over by itself (a pilot lost, one saved by a
Rescue and wounded, a damaged aircraft, an ace's Ace's reaction, the cards all kept), then the packaged
campaign played by the bots through linked battles on SQLite, a forced draw taking its own edge, a
promotion bought in the administrative step, and the chain replayed."""
from __future__ import annotations

import json
from collections import Counter

import pytest

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign.definition import check_against, load
from pbem.campaign.service import Campaigns
from pbem.core.dice import SeededDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.play import play
from pbem.core.ruleset import CampaignUnit, carryover_of
from pbem.crypto import sshsig
from pbem.rules.sky_ww2.campaign import ACE_CARD, apply, roster
from pbem.rules.sky_ww2.ruleset import RULESET
from pbem.rules.sky_ww2.state import Game, State

from .play import first_game_state, play_game, players, signed

SEED = b"sky of wwii campaign test seed, 32 bytes"


def _setup() -> State:
    return RULESET.setup("quick", RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))


def _cards(doc: dict) -> Counter:
    return Counter([*doc["deck"], *doc["discard"], *(c for a in doc["aircraft"].values() for c in a["hand"])])


def test_the_definition_fits_the_ruleset():
    defn = load("sky_ww2/squadron")
    check_against(defn, RULESET)
    assert carryover_of(RULESET) is not None and defn.provenance.get("placeholder", 0) > 20
    first = defn.slot("first-clash")
    assert (first.after("major_victory"), first.after("draw"), first.after("major_defeat")) == \
        ("pursuit", "airfield-defence", "airfield-defence")


def test_pilots_wounds_damage_and_an_ace_carry_into_the_next_battle():
    doc = _setup().read()
    doc = json.loads(json.dumps(doc))
    ac = doc["aircraft"]
    ac["c1"].update(destroyed=True, placed=False, hand=[])
    ac["c2"].update(destroyed=True, placed=False, hand=[], rescue="rescue")
    ac["x1"].update(damaged=True, markers=1)
    ac["x2"]["attached"] = [{"card": "crit-pilot"}]
    doc["over"] = {"winner": "axis", "text": "axis wins"}
    ended = State.of(doc)
    coalition = {u.name: u for u in roster(ended, "coalition")}
    axis = {u.name: u for u in roster(ended, "axis")}
    assert set(coalition) == {"c1", "c2", "c3"} and set(axis) == {"x1", "x2", "x3"}  # a side's own pilots only
    assert (coalition["c1"].status, coalition["c2"].status) == ("lost", "wounded")
    assert coalition["c3"].status == "fit" and coalition["c3"].xp == 1 and axis["x3"].xp == 2  # the winners' two
    assert axis["x1"].status == "damaged" and axis["x1"].detail == {"markers": 1}
    assert axis["x2"].status == "wounded"

    fresh = _setup()
    carried = {"coalition": [*coalition.values()][:2] + [CampaignUnit("c3", "x", "fit", 0, "ace")],
               "axis": list(axis.values())}
    nxt = apply(fresh, carried).read()
    assert set(nxt["aircraft"]) == {"c3", "x1", "x3"}  # the lost and the wounded stay out
    assert _cards(nxt) == _cards(fresh.read())  # their hands went back under the deck: no card lost or made
    seq = {row[0]: row[2] for row in nxt["flow"]["standing"] if row[1] == "SEQUENCE"}
    assert seq == {"coalition": "SEQUENCE c3", "axis": "SEQUENCE x1 x3"}
    x1 = nxt["aircraft"]["x1"]
    assert x1["damaged"] and x1["markers"] == 1
    assert len(x1["hand"]) <= Game(nxt).stats(x1).ttx  # a damaged aircraft's hand is its damaged side's
    if ACE_CARD in fresh.read()["deck"]:
        assert ACE_CARD in nxt["aircraft"]["c3"]["hand"]
        assert len(nxt["aircraft"]["c3"]["hand"]) == len(fresh.read()["aircraft"]["c3"]["hand"])
    assert apply(fresh, carried) == apply(fresh, carried)  # deterministic, as replay needs


@pytest.mark.slow
def test_a_squadron_flies_three_battles_played_by_the_bots(srv):
    keys = {s: sshsig.generate_private_key() for s in ("coalition-1", "axis-1")}
    camp = Campaigns(srv)
    camp.new("squadron", "sky_ww2/squadron", players(keys, {"coalition-1": "coalition", "axis-1": "axis"}),
             settings={"max_missing": 99})
    games = []
    seen: set[str] = set()  # the statuses the carry-over met
    promoted = ""
    while camp.status("squadron")["status"] == "playing":
        game = camp.status("squadron")["game"]
        if not games:  # the first clash called off by the GM: a draw, so the defence over the airfield follows
            srv.end_game(game, "called off by the GM")
        else:
            play_game(srv, game, keys)
        games.append(game)
        camp.advance("squadron")
        st = camp.status("squadron")
        if len(games) == 1:
            assert st["games"][0]["levels"] == {"coalition": "draw", "axis": "draw"}
            assert st["slot"] == "airfield-defence"
        if st["status"] != "admin":
            break
        for side, other in (("coalition", "axis"), ("axis", "coalition")):
            mine = {u["name"] for u in st["sides"][side]["units"]}
            assert mine and not mine & {u["name"] for u in st["sides"][other]["units"]}
        coalition = {u["name"]: u for u in st["sides"]["coalition"]["units"]}
        ready = [n for n, u in sorted(coalition.items()) if u["status"] in ("fit", "damaged") and u["xp"] >= 2]
        if ready and not promoted:  # a pilot with two battles' experience is made an ace
            promoted = ready[0]
            head = camp.form("squadron", "coalition-1").split("\n\n", 1)[0]
            ok, answer = camp.submit("squadron", signed(f"{head}\n\nPROMOTE {promoted}\n", keys["coalition-1"]))
            assert ok, answer
            st = camp.status("squadron")
            assert {u["name"]: u for u in st["sides"]["coalition"]["units"]}[promoted]["rank"] == "ace"
        seen |= {u["status"] for side in st["sides"].values() for u in side["units"]}
        units = {u["name"]: u for side in ("coalition", "axis") for u in st["sides"][side]["units"]}
        camp.advance("squadron")
        nxt = camp.status("squadron")
        assert nxt["status"] == "playing"
        first = first_game_state(srv, nxt["game"])["doc"]
        for name, u in units.items():
            if u["status"] not in ("fit", "damaged"):
                assert name not in first["aircraft"], name  # shot down or wounded: not in the next battle
            elif u["status"] == "damaged":
                a = first["aircraft"][name]  # damaged stays damaged
                assert a["damaged"] and a["markers"] == u["detail"]["markers"], (name, u, a)
        if promoted and promoted in first["aircraft"] and ACE_CARD in (
                *first["deck"], *first["aircraft"][promoted]["hand"]):
            assert ACE_CARD in first["aircraft"][promoted]["hand"]
    st = camp.status("squadron")
    assert len(games) == 3 and st["status"] == "over", st
    assert [g["slot"] for g in st["games"]] == ["first-clash", "airfield-defence", "decisive"]
    assert max(u["xp"] for side in st["sides"].values() for u in side["units"]) >= 2  # experience grew
    print(f"squadron: statuses carried {sorted(seen)}")
    assert seen & {"damaged", "lost", "wounded", "captured"}, seen  # the bots did hurt someone
    report = camp.replay("squadron")
    assert report.ok, report.problems
    assert report.games == games


class _Carried:
    """The ruleset with a campaign's carry-over laid over its set-up, as the campaign engine starts a game."""

    def __init__(self, carried):
        self.carried = carried

    def __getattr__(self, name):
        return getattr(RULESET, name)

    def setup(self, *args):
        return apply(RULESET.setup(*args), self.carried)


def test_a_battle_with_pilots_left_out_plays_to_its_end_in_the_round_cadence():
    everyone_out = {"axis": [CampaignUnit(x, "t", "lost") for x in ("x1", "x2", "x3")]}
    some_out = {"axis": [CampaignUnit("x1", "t", "wounded"), CampaignUnit("x2", "t", "damaged", detail={"markers": 1})],
                "coalition": [CampaignUnit("c1", "t", "fit", rank="ace")]}
    for carried in (everyone_out, some_out):
        steps = play(_Carried(carried), "quick", SEED, options={"max_rounds": 4}, max_phases=300)
        assert steps[-1].state.read()["over"], carried
    turn = RULESET.setup("quick", RULESET.info.resolve_options({"cadence": "turn"}), SeededDice(SEED, "setup"))
    with pytest.raises(RulesetDefinitionError, match="round cadence"):
        apply(turn, some_out)
