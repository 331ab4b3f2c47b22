"""Wing Leader's campaign: squadrons worn down raid after raid.  The carry-over by itself (losses, stragglers,
a lost squadron, quality by rank, one side's units only), then the packaged campaign played by the bots
through linked games on SQLite, a forced draw taking its own edge, and the chain replayed."""
from __future__ import annotations

from dataclasses import replace

import pytest

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign.definition import check_against, load
from pbem.campaign.service import Campaigns
from pbem.core.dice import SeededDice
from pbem.core.ruleset import CampaignUnit, carryover_of
from pbem.crypto import sshsig
from pbem.rules.wing_leader import RULESET
from pbem.rules.wing_leader.campaign import apply, roster
from pbem.rules.wing_leader.model import DESTROYED

from .play import first_game_state, play_game, players, signed

SEED = b"wing leader campaign test seed, 32 bytes"


def _setup(name: str):
    return RULESET.setup(name, RULESET.info.resolve_options({}), SeededDice(SEED, "setup"))


def test_the_definition_fits_the_ruleset():
    defn = load("wing_leader/raids")
    check_against(defn, RULESET)
    assert carryover_of(RULESET) is not None and defn.provenance.get("placeholder", 0) > 20
    assert {s.scenario for s in defn.slots.values()} <= {"sweep", "raid", "dogfight"}  # basic scenarios only
    first = defn.slot("first-raid")
    assert (first.after("major_victory"), first.after("draw"), first.after("major_defeat")) == \
        ("second-raid", "renewed-sweep", "other-front")


def test_losses_stragglers_and_a_lost_squadron_carry_into_the_next_raid():
    state = _setup("sweep")
    sq = {q.id: q for q in state.squadrons}
    ended = replace(state, squadrons=tuple(
        q.move(status=DESTROYED, losses=4) if q.id == "B" else
        q.move(losses=2) if q.id == "A" else
        q.move(losses=1) if q.id == "K" else
        q.move(straggler=True) if q.id == "L" else q for q in state.squadrons))
    allies = {u.name: u for u in roster(ended, "allies")}
    axis = {u.name: u for u in roster(ended, "axis")}
    assert set(allies) == {q for q in sq if sq[q].side == "allies"}  # a side's roster holds its own units only
    assert set(axis) == {q for q in sq if sq[q].side == "axis"}
    assert allies["B"].status == "lost" and allies["B"].xp == 0
    assert allies["A"].status == "damaged" and allies["A"].detail == {"losses": 2, "straggler": False}
    assert allies["A"].rank == "veteran"  # the scenario's veteran squadron holds that rank
    assert axis["K"].detail == {"losses": 1, "straggler": False} and axis["L"].detail["straggler"]
    assert axis["L"].rank == "" and axis["K"].rank == "trained"

    carried = {"allies": list(allies.values()),
               "axis": [replace(axis["L"], rank="trained"), axis["K"]]}
    nxt = {q.id: q for q in apply(_setup("raid"), carried).squadrons}
    assert "B" not in nxt and "T" in nxt  # lost stays out; a squadron the campaign does not name flies as set up
    assert nxt["A"].flight and nxt["A"].losses == 0  # worn: a flight, no loss on the Wing Display [12.1]
    assert nxt["K"].straggler and not nxt["K"].flight
    assert nxt["L"].straggler and nxt["L"].quality == "veteran"  # the raid's L is a veteran already
    assert nxt["M"].quality == "green"

    # a worn squadron's losses add up: the flight that loses one more is three down
    again = replace(apply(_setup("raid"), carried), squadrons=tuple(
        q.move(losses=1) if q.id == "A" else q for q in apply(_setup("raid"), carried).squadrons))
    assert {u.name: u for u in roster(again, "allies")}["A"].detail["losses"] == 3
    promoted = apply(_setup("sweep"), {"axis": [CampaignUnit("L", "fw190a4", "fit", 0, "trained")]})
    assert {q.id: q for q in promoted.squadrons}["L"].quality == "trained"  # promotion: green -> trained [5.2.1]
    rebuilt = apply(_setup("sweep"), {"allies": [CampaignUnit("A", "spitfire9", "fit", 0, "", {})]})
    assert {q.id: q for q in rebuilt.squadrons}["A"].quality == "green"  # replaced: new pilots, green


@pytest.mark.slow
def test_raid_after_raid_played_by_the_bots(srv):
    keys = {s: sshsig.generate_private_key() for s in ("allies", "axis")}
    camp = Campaigns(srv)
    camp.new("raids", "wing_leader/raids", players(keys, {"allies": "allies", "axis": "axis"}),
             settings={"max_missing": 99})
    games = []
    seen: set[str] = set()  # the statuses the carry-over met
    while camp.status("raids")["status"] == "playing":
        game = camp.status("raids")["game"]
        if len(games) == 1:  # the first raid called off by the GM: a draw, which sends the Allies to sweep again
            srv.end_game(game, "called off by the GM")
        else:
            play_game(srv, game, keys)
        games.append(game)
        camp.advance("raids")
        st = camp.status("raids")
        if len(games) == 2:
            assert st["games"][1]["levels"] == {"allies": "draw", "axis": "draw"} and st["slot"] == "renewed-sweep"
        if st["status"] != "admin":
            break
        for side, other in (("allies", "axis"), ("axis", "allies")):
            mine = {u["name"] for u in st["sides"][side]["units"]}
            theirs = {u["name"] for u in st["sides"][other]["units"]}
            assert mine and not mine & theirs  # fog across games: each side's carry-over is its own
        seen |= {u["status"] for side in st["sides"].values() for u in side["units"]}
        recovered = _recover_one(camp, st, keys)
        units = {u["name"]: u for side in ("allies", "axis") for u in camp.status("raids")["sides"][side]["units"]}
        camp.advance("raids")
        nxt = camp.status("raids")
        if nxt["status"] != "playing":
            break
        squadrons = {q["id"]: q for q in first_game_state(srv, nxt["game"])["squadrons"]}
        for name, u in units.items():
            if u["status"] not in ("fit", "damaged"):
                assert name not in squadrons, name  # lost in one raid, absent from the next
            elif name in squadrons and u["status"] == "damaged":
                q = squadrons[name]  # the worn stay worn
                assert q["flight"] or q["straggler"], (name, u, q)
                assert q["losses"] == 0
        if recovered in squadrons:  # patched up between raids: no straggler, not a flight
            q = squadrons[recovered]
            assert not q["straggler"] and not q["flight"] and units[recovered]["status"] == "fit"
        xp = {n: u["xp"] for n, u in units.items()}
        if len(games) >= 3:
            assert any(v >= 2 for v in xp.values()), xp  # experience grows game after game
    st = camp.status("raids")
    assert len(games) >= 3 and st["status"] == "over", st
    assert [g["slot"] for g in st["games"]][:3] == ["opening-sweep", "first-raid", "renewed-sweep"]
    print(f"raids: statuses carried {sorted(seen)}")
    assert seen & {"damaged", "lost", "wounded", "captured"}, seen  # the bots did hurt someone
    report = camp.replay("raids")
    assert report.ok, report.problems
    assert report.games == games


def _recover_one(camp, st, keys) -> str:
    """The Allies RECOVER a worn squadron in the administrative step when they may; its name, or ""."""
    allies = st["sides"]["allies"]
    worn = [u["name"] for u in allies["units"] if u["status"] == "damaged"]
    if not worn or allies["recovery"] < 1:
        return ""
    head = camp.form("raids", "allies").split("\n\n", 1)[0]
    ok, answer = camp.submit("raids", signed(f"{head}\n\nRECOVER {worn[0]}\n", keys["allies"]))
    assert ok, answer
    return worn[0]
