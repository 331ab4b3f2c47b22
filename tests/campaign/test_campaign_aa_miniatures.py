"""Axis & Allies Miniatures' campaign: a company through three battles.  The carry-over by itself (a tank
knocked out, one damaged, a squad wounded or captured, one side's units only), then the packaged campaign
played by the bots through three linked battles on SQLite, a forced draw taking its own edge, and the chain
replayed."""
from __future__ import annotations

from dataclasses import replace

import pytest

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign.definition import check_against, load
from pbem.campaign.service import Campaigns
from pbem.core.dice import SeededDice
from pbem.core.flow import OVER
from pbem.core.ruleset import carryover_of
from pbem.crypto import sshsig
from pbem.rules.aa_miniatures import RULESET
from pbem.rules.aa_miniatures.campaign import apply, margin, roster
from pbem.rules.aa_miniatures.game import outcome

from .play import first_game_state, play_game, players

SEED = b"a&a miniatures campaign test seed, 32 bytes"


def _setup(name: str):
    return RULESET.setup(name, RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))


def _knock_out(state, *ids):
    gone = tuple(u for u in state.units if u.id in ids)
    return replace(state, units=tuple(u for u in state.units if u.id not in ids), lost=(*state.lost, *gone))


def test_the_definition_fits_the_ruleset():
    defn = load("aa_miniatures/company")
    check_against(defn, RULESET)
    assert carryover_of(RULESET) is not None and defn.provenance.get("placeholder", 0) > 20
    village = defn.slot("village")
    assert (village.after("major_victory"), village.after("draw")) == ("hold-the-village", "second-assault")


def test_casualties_damage_and_one_sides_units_carry_into_the_next_battle():
    state = _setup("meeting")
    state = _knock_out(state, "sherman_1", "garand_1", "grenadier_1")
    state = replace(state, units=tuple(u.but(damaged=True) if u.id == "sherman_2" else
                                       u.but(disrupted=True) if u.id == "garand_2" else u for u in state.units))
    allies = {u.name: u for u in roster(state, "allies")}
    axis = {u.name: u for u in roster(state, "axis")}
    assert "p47" in allies and not set(allies) & set(axis)  # a side's roster holds its own units only
    assert allies["sherman_1"].status == "lost" and allies["garand_1"].status == "wounded"
    assert allies["sherman_2"].status == "damaged" and allies["sherman_2"].detail == {"damaged": True}
    assert allies["garand_2"].status == "fit" and allies["halftrack"].xp == 1 and allies["sherman_1"].xp == 0

    nxt = apply(_setup("assault"), {"allies": list(allies.values()), "axis": list(axis.values())})
    units = {u.id: u for u in (*nxt.units, *nxt.reserve)}
    assert not {"sherman_1", "garand_1", "grenadier_1"} & set(units)  # out of action: out of the battle
    assert units["sherman_2"].damaged and not units["garand_2"].disrupted  # damage stays, disruption does not
    assert "sherman_3" in units and "tiger" in units  # units the campaign does not name fight as set up

    # a beaten side's destroyed squads are captured, and a side swept off the field is a major defeat
    wiped = replace(_knock_out(state, *[u.id for u in state.units if u.side == "axis"]),
                    flow=replace(state.flow, step=OVER))
    result = outcome(wiped)
    assert result is not None and result.winner == "allies" and margin(wiped, result) == "major"
    assert {u.name: u for u in roster(wiped, "axis")}["grenadier_1"].status == "captured"
    assert {u.name: u for u in roster(wiped, "allies")}["garand_1"].status == "wounded"


@pytest.mark.slow
def test_a_company_fights_three_battles_played_by_the_bots(srv):
    keys = {s: sshsig.generate_private_key() for s in ("allies", "axis")}
    camp = Campaigns(srv)
    camp.new("company", "aa_miniatures/company", players(keys, {"allies": "allies", "axis": "axis"}),
             settings={"max_missing": 99})
    games = []
    seen: set[str] = set()  # the statuses the carry-over met
    while camp.status("company")["status"] == "playing":
        game = camp.status("company")["game"]
        if len(games) == 1:  # the village assault called off by the GM: a draw, so a second assault follows
            srv.end_game(game, "called off by the GM")
        else:
            play_game(srv, game, keys)
        games.append(game)
        camp.advance("company")
        st = camp.status("company")
        if len(games) == 2:
            assert st["games"][1]["levels"] == {"allies": "draw", "axis": "draw"} and st["slot"] == "second-assault"
        if st["status"] != "admin":
            break
        for side, other in (("allies", "axis"), ("axis", "allies")):
            mine = {u["name"] for u in st["sides"][side]["units"]}
            assert mine and not mine & {u["name"] for u in st["sides"][other]["units"]}
        seen |= {u["status"] for side in st["sides"].values() for u in side["units"]}
        units = {u["name"]: u for side in ("allies", "axis") for u in st["sides"][side]["units"]}
        camp.advance("company")
        nxt = camp.status("company")
        assert nxt["status"] == "playing"
        first = first_game_state(srv, nxt["game"])
        placed = {u["id"]: u for key in ("units", "reserve", "cargo") for u in first[key]}
        for name, u in units.items():
            if u["status"] not in ("fit", "damaged"):
                assert name not in placed, name  # a casualty of one battle is absent from the next
            elif u["status"] == "damaged" and name in placed:
                assert placed[name]["damaged"], name  # damaged stays damaged
        if len(games) >= 2:
            assert max(u["xp"] for u in units.values()) >= 2  # experience grows battle after battle
    st = camp.status("company")
    assert len(games) == 3 and st["status"] == "over", st
    assert [g["slot"] for g in st["games"]] == ["crossroads", "village", "second-assault"]
    print(f"company: statuses carried {sorted(seen)}")
    assert seen & {"damaged", "lost", "wounded", "captured"}, seen  # the bots did hurt someone
    report = camp.replay("company")
    assert report.ok, report.problems
    assert report.games == games
