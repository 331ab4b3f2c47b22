"""Campaigns played through: linked games by the rulesets' scripted players over the mail path, the
administrative step between them, the chain replayed, and tampering found; on SQLite and PostgreSQL."""
import json

import pytest
from click.testing import CliRunner
from sqlmodel import col, select

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign import record
from pbem.campaign.service import Campaigns
from pbem.club.results import collect
from pbem.cli import main
from pbem.crypto import sshsig
from pbem.home import Home
from pbem.journal import GENESIS, dumps, entry_hash
from pbem.server import Server
from pbem.store.models import Campaign, CampaignEntry, Game, Journal

from .play import play_game, players, signed

pytestmark = pytest.mark.slow


@pytest.fixture
def srv(tmp_path, db_url):
    server = Server.init(Home(tmp_path / "home"), db_url)
    yield server
    server.engine.dispose()


def campaign_block(text: str) -> str:
    return text.split("CAMPAIGN —", 1)[1].split("Carried over (hash)", 1)[0]


def first_state(server, game_id):
    with server.reader() as s:
        row = s.exec(select(Journal).where(Journal.game_id == game_id, Journal.seq == 0)).one()
    return json.loads(row.state_json), json.loads(row.payload_json)


def test_the_raid_plays_through_with_orders_edits_a_forced_edge_and_a_checked_chain(srv, tmp_path):
    keys = {s: sshsig.generate_private_key() for s in ("de", "gb", "mallory")}
    camp = Campaigns(srv)
    camp.new("raid", "lew_morski/raid", players(keys, {"de": "de", "gb": "gb"}), settings={"max_missing": 99})
    assert camp.status("raid")["game"] == "raid-1"
    final = play_game(srv, "raid-1", keys)
    assert "CAMPAIGN — Lew Morski: the course of a raid: game 1" in srv.sitrep("raid-1", "gb").text
    assert "still in play" not in camp.advance("raid")
    st = camp.status("raid")
    assert st["status"] == "admin" and st["slot"] == "escorted" and st["games"][0]["outcome"] == final["outcome"]["text"]

    # the administrative step: orders checked like any order, signed by the seat's player
    form = camp.form("raid", "gb")
    head = form.split("\n\n", 1)[0]
    assert "Turn: 1\nPhase: admin" in head and "REPLACE <unit>" in form
    ok, answer = camp.submit("raid", head + "\n\nCHOOSE Spit-1\n")
    assert not ok and "not signed" in answer
    ok, answer = camp.submit("raid", signed(head + "\n\nCHOOSE Spit-1\n", keys["mallory"]))
    assert not ok and "not by this seat's player" in answer
    ok, answer = camp.submit("raid", signed(head + "\n\nCHOOSE Me110-1\nPROMOTE Spit-2\n", keys["gb"]))
    assert not ok and "line 7: CHOOSE Me110-1 — you have no unit 'Me110-1'" in answer and "[campaign §C6]" in answer
    assert "a promotion costs 2 [campaign §C5]" in answer
    gb_units = st["sides"]["gb"]["units"]
    ready = [u["name"] for u in gb_units if u["status"] in ("fit", "damaged")]
    left_out = ready[-1] if len(ready) > 1 else None
    orders = signed(head + "\n\nCHOOSE " + " ".join(ready[:-1] if left_out else ready) + "\n", keys["gb"])
    ok, answer = camp.submit("raid", orders)
    assert ok, answer
    assert camp.submit("raid", orders) == (False, "refused: these signed orders were already carried out")
    camp.edit("raid", "de", ["FLAG", "radar-hit"])

    # game 2, with the carried units, the GM's edit shown to every side, and only a side's own roster
    assert "raid-2" in camp.advance("raid")
    state, setup = first_state(srv, "raid-2")
    ids = {a["id"] for a in state["aircraft"]}
    if left_out:
        assert left_out not in ids and setup["carried"]["gb"]
    for u in gb_units:
        if u["status"] not in ("fit", "damaged"):
            assert u["name"] not in ids  # lost in game 1: out of game 2
    for seat in ("de", "gb"):
        text = srv.sitrep("raid-2", seat).text
        assert "GM edit before game 2, side de: FLAG radar-hit" in text and "Flags: radar-hit" in text
    gb_block = campaign_block(srv.sitrep("raid-2", "gb").text)
    de_block = campaign_block(srv.sitrep("raid-2", "de").text)
    assert "Spit-" in gb_block and not any(k in gb_block for k in ("He111", "Me110", "Me109", "Ju88"))
    assert "Spit-" not in de_block and "Hurr-" not in de_block
    html = srv.sitrep("raid-2", "gb").html
    assert "Campaign — Lew Morski" in html

    # the GM calls game 2 off: a draw, which takes the draw edge (fighter-bombers), not the played one
    srv.end_game("raid-2", "called off by the GM")
    camp.advance("raid")
    st = camp.status("raid")
    assert st["games"][1]["levels"] == {"de": "draw", "gb": "draw"} and st["slot"] == "fighter-bombers"
    camp.advance("raid")
    games = 2
    while camp.status("raid")["status"] == "playing":
        play_game(srv, camp.status("raid")["game"], keys)
        games += 1
        if "campaign is over" not in camp.advance("raid"):
            camp.advance("raid")
    st = camp.status("raid")
    assert games >= 3 and st["status"] == "over" and st["result"]["vp"]
    assert "campaign raid is over: gb wins" in camp.advance("raid") or st["result"]["winner"] != "gb"

    report = camp.replay("raid")
    assert report.ok, report.problems
    assert report.games == [f"raid-{n}" for n in range(1, games + 1)]
    home = ["--home", str(srv.home.path)]
    out = CliRunner().invoke(main, [*home, "campaign", "replay", "raid"])
    assert out.exit_code == 0 and "every link verified" in out.output, out.output
    out = CliRunner().invoke(main, [*home, "campaign", "status", "raid"])
    assert out.exit_code == 0 and "result:" in out.output

    rated, unrated = collect(srv.deps)  # the campaign's result is rated like a game
    result = next(r for r in rated + unrated if r.game == "campaign:raid")
    assert result.rated, result.why
    assert (result.scenario, result.phases, result.winner) == ("campaign:raid", games, st["result"]["winner"])

    tamper_and_check(srv, camp)
    with srv.session() as s:  # an entry changed and not rehashed: the result is no longer rated
        row = record.entries(s, "raid")[-1]
        row.payload_json = row.payload_json.replace('"outcome": "', '"outcome": "x', 1)
        s.add(row)
        s.commit()
    result = next(r for r in collect(srv.deps)[1] if r.game == "campaign:raid")
    assert result.why == "its record does not match its hash chain"


def tamper_and_check(srv, camp):
    """A stored standing, a game's carried units (its journal rehashed) and a recorded result (the campaign
    record rehashed) changed behind the server's back are each found."""
    with srv.session() as s:
        c = s.get(Campaign, "raid")
        honest = c.standing_json
        st = json.loads(honest)
        st["sides"]["gb"]["vp"] += 10
        c.standing_json = dumps(st)
        s.add(c)
        s.commit()
    assert "the stored standing differs from the one its entries give" in camp.replay("raid").problems
    with srv.session() as s:
        c = s.get(Campaign, "raid")
        c.standing_json = honest
        s.add(c)
        s.commit()

    with srv.session() as s:  # game 3 starts with a unit the campaign held out of action, put back fit
        rows = s.exec(select(Journal).where(Journal.game_id == "raid-3").order_by(col(Journal.seq))).all()
        payload = json.loads(rows[0].payload_json)
        payload["carried"]["gb"] = [{**u, "status": "fit"} for u in payload["carried"]["gb"]]
        payload["campaign"]["carried_hash"] = "0" * 64
        rows[0].payload_json = dumps(payload)
        prev = GENESIS
        for row in rows:
            row.prev_hash = prev
            row.hash = prev = entry_hash(prev, row.seq, row.kind, row.turn, row.phase, json.loads(row.payload_json),
                                         json.loads(row.events_json), json.loads(row.rolls_json), row.state_hash)
            s.add(row)
        game = s.get(Game, "raid-3")
        game.journal_head = prev
        s.add(game)
        s.commit()
    problems = camp.replay("raid").problems
    assert any("game raid-3: its set-up link's carried_hash" in p for p in problems), problems
    assert any("raid-3: the link's signature does not hold" in p for p in problems), problems

    with srv.session() as s:  # a result says gb won game 1 more decisively than its journal does
        rows = record.entries(s, "raid")
        c = s.get(Campaign, "raid")
        prev = GENESIS
        for row in rows:
            payload = json.loads(row.payload_json)
            if row.kind == "result" and payload["game"] == "raid-1":
                payload["levels"] = {"de": "major_defeat", "gb": "major_victory"} \
                    if payload["levels"]["gb"] != "major_victory" else {"de": "draw", "gb": "draw"}
                row.payload_json = dumps(payload)
            row.prev_hash = prev
            row.hash = prev = record.entry_hash(prev, row.seq, row.kind, payload)
            s.add(row)
        c.head = prev
        s.add(c)
        s.commit()
    problems = camp.replay("raid").problems
    assert any("the levels recorded differs from game raid-1's journal" in p for p in problems), problems
    with srv.reader() as s:
        assert s.exec(select(CampaignEntry).where(CampaignEntry.kind == "gm")).first() is not None


def test_the_chase_carries_damage_and_fuel_through_three_games(srv):
    keys = {s: sshsig.generate_private_key() for s in ("german", "allied")}
    camp = Campaigns(srv)
    camp.new("chase", "bismarck/chase", players(keys, {"german": "german", "allied": "allied"}),
             settings={"max_missing": 99})
    played = []
    while len(played) < 3:
        game = camp.status("chase")["game"]
        play_game(srv, game, keys)
        played.append(game)
        assert "administrative step is open" in camp.advance("chase") or len(played) >= 3
        st = camp.status("chase")
        if st["status"] == "over":
            break
        german = {u["name"]: u for u in st["sides"]["german"]["units"]}
        assert "bismarck" in german or "tirpitz" in german
        camp.advance("chase")
        new = camp.status("chase")["game"]
        state, setup = first_state(srv, new)
        ships = {x["id"]: x for x in state["ships"]}
        for name, u in german.items():
            if u["status"] in ("fit", "damaged") and u["detail"] and name in ships:
                x = ships[name]  # what the last game left is where this one starts
                assert (x["hits"], x["hull"]) == (u["detail"]["hits"], u["detail"]["hull"])
                if x["fuel_max"]:
                    assert x["fuel"] == min(u["detail"]["fuel"], x["fuel_max"])
            elif u["status"] == "lost":
                assert name not in ships
        expected = "tirpitz-sortie" if st["games"][0]["levels"]["german"] == "major_defeat" else "dash"
        if len(played) == 1:
            assert st["slot"] == expected
        text = srv.sitrep(new, "allied").text
        assert "CAMPAIGN — The chase of the Bismarck" in text and "bismarck (" not in campaign_block(text)
    assert len(played) == 3
    if camp.status("chase")["status"] == "playing":
        play_game(srv, camp.status("chase")["game"], keys)
        camp.advance("chase")
    if camp.status("chase")["status"] == "admin":  # the GM ends it between games
        assert "campaign chase ended by the GM" in camp.end("chase")
    assert camp.status("chase")["status"] == "over"
    report = camp.replay("chase")
    assert report.ok, report.problems
