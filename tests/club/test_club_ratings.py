"""Club play end to end: members play finished games by mail (duels and a three-player Sky of WWII game), then
ratings are computed from the journals, exported, recomputed from the export, verified, and a tampered stored
rating is caught; `pbem players` shows ratings and reliability."""
from __future__ import annotations

import json

import pytest
from sqlmodel import select

from pbem.club import ratings as R
from pbem.club.listing import players as club_players
from pbem.club.listing import void
from pbem.club.players import identities
from pbem.crypto import sshsig
from pbem.store.models import Journal, Player, Rating
from tests.club.conftest import play_out, seat_game


def fp(key) -> str:
    return sshsig.public_key_of(key).fingerprint


@pytest.fixture
def season(gm_server, member_keys, clock):
    """Three duels, one three-player Sky of WWII game, one game the GM ended and one voided: a club season."""
    k = member_keys
    duels = [("d1", "alice", "bob"), ("d2", "bob", "carol"), ("d3", "carol", "alice")]
    for game_id, east, west in duels:
        seat_game(gm_server, game_id, "duel", "standard", {"east": (east, k[east]), "west": (west, k[west])})
        st = play_out(gm_server, game_id, {"east": k[east], "west": k[west]})
        assert st["status"] == "over", st
        clock.advance(days=3)
    sky = {"coalition-1": ("alice", k["alice"]), "coalition-2": ("bob", k["bob"]), "axis-1": ("dave", k["dave"])}
    seat_game(gm_server, "sky1", "sky_ww2", "quick", sky, {"players": 3, "aircraft": 2, "max_rounds": 4})
    st = play_out(gm_server, "sky1", {seat: key for seat, (_, key) in sky.items()})
    assert st["status"] == "over" and st["outcome"]["winner"] in ("coalition", "axis"), st
    clock.advance(days=2)
    seat_game(gm_server, "ended", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("dave", k["dave"])})
    gm_server.end_game("ended", "the players agreed to stop")
    seat_game(gm_server, "voided", "duel", "standard", {"east": ("dave", k["dave"]), "west": ("carol", k["carol"])})
    play_out(gm_server, "voided", {"east": k["dave"], "west": k["carol"]})
    void(gm_server.services, "voided", "dave and carol played it twice by mistake")
    return gm_server


def test_a_season_is_rated_exported_recomputed_and_verified(season, member_keys, tmp_path, club_cli):
    deps = season.deps
    assert R.update(deps) > 0
    data = R.export(deps)
    assert data["library"]["name"] == "openskill" and data["library"]["version"].startswith("6.")
    assert data["parameters"]["model"] == "PlackettLuce"
    assert [r["game"] for r in data["results"]] == ["d1", "d2", "d3", "sky1"]
    unrated = {r["game"]: r["unrated"] for r in data["unrated"]}
    assert unrated == {"ended": "ended by the GM, not by the rules", "voided": "voided by the GM"}
    sky = next(r for r in data["results"] if r["game"] == "sky1")
    assert sorted((x["side"], x["player"]) for x in sky["seats"]) == sorted(
        [("coalition", fp(member_keys["alice"])), ("coalition", fp(member_keys["bob"])),
         ("axis", fp(member_keys["dave"]))])
    assert len(sky["journal_head"]) == 64

    with season.reader() as s:
        rows = s.exec(select(Rating)).all()
    by = {(r.scope, r.fingerprint): r for r in rows}
    alice = fp(member_keys["alice"])
    assert by[("overall", alice)].games == 3 and by[("duel", alice)].games == 2 and by[("sky_ww2", alice)].games == 1
    assert ("sky_ww2", fp(member_keys["carol"])) not in by  # carol played no rated Sky game
    # every scenario side is rated like a player: the bias the method estimates
    for side in ("coalition", "axis"):
        assert by[("sky_ww2", f"side:sky_ww2/quick/{side}")].games == 1
    winner = sky["winner"]
    loser = "axis" if winner == "coalition" else "coalition"
    assert by[("sky_ww2", f"side:sky_ww2/quick/{winner}")].mu > 25 > by[("sky_ww2", f"side:sky_ww2/quick/{loser}")].mu

    assert R.verify(deps) == []
    # the export alone reproduces every rating it publishes
    assert R.verify_export(json.loads(json.dumps(data))) == []

    home = season.home.path
    nowhere = tmp_path / "nowhere"
    out = club_cli(home, "ratings", "--export", str(tmp_path / "r.json"))
    assert out.exit_code == 0, out.output
    out = club_cli(home, "ratings", "--verify")
    assert out.exit_code == 0 and "OK" in out.output, out.output
    out = club_cli(nowhere, "ratings", "--verify", "--inputs", str(tmp_path / "r.json"))
    assert out.exit_code == 0 and "OK" in out.output, out.output

    # a stored rating changed by hand is caught, and named
    with season.session() as s:
        row = s.exec(select(Rating).where(Rating.scope == "duel", Rating.fingerprint == alice)).one()
        row.mu += 0.5
        s.add(row)
        s.commit()
    problems = R.verify(deps)
    assert len(problems) == 1 and problems[0].startswith(f"{alice} (duel): stored mu") and "recomputed" in problems[0]
    out = club_cli(home, "ratings", "--verify")
    assert out.exit_code == 1 and f"{alice} (duel): stored mu" in out.output

    # so is an export whose results were changed: another winner gives other ratings
    doctored = json.loads((tmp_path / "r.json").read_text())
    first = doctored["results"][0]
    first["winner"] = next(x["side"] for x in first["seats"] if x["side"] != first["winner"])
    (tmp_path / "bad.json").write_text(json.dumps(doctored))
    out = club_cli(nowhere, "ratings", "--verify", "--inputs", str(tmp_path / "bad.json"))
    assert out.exit_code == 1 and "recomputed" in out.output

    # a journal changed by hand breaks its hash chain: no rating is computed from it
    with season.session() as s:
        entry = s.exec(select(Journal).where(Journal.game_id == "d2", Journal.kind == "resolve")).first()
        entry.payload_json = entry.payload_json.replace('"missing": []', '"missing": ["east"]')
        s.add(entry)
        s.commit()
    out = club_cli(home, "ratings", "--verify")
    assert out.exit_code == 1 and f"game d2: journal entry {entry.seq} does not match its hash chain" in out.output
    with season.session() as s:
        entry.payload_json = entry.payload_json.replace('"missing": ["east"]', '"missing": []')
        s.add(s.merge(entry))
        s.commit()

    # a game rated or not is in the journal: voiding it again after the update changes the recomputation
    R.update(deps)
    void(season.services, "d3", "a rules dispute the GM settled against the result")
    carol = fp(member_keys["carol"])
    assert f"{carol} (duel): stored 2 games, recomputed 1" in R.verify(deps)
    R.update(deps)
    assert R.verify(deps) == [] and "d3" in {r["game"] for r in R.inputs(deps)["unrated"]}


def test_players_list_their_games_ratings_and_reliability(season, member_keys, club_cli):
    R.update(season.deps)
    found = club_players(season.services, season.queries.players())
    alice = next(p for p in found if p["fingerprint"] == fp(member_keys["alice"]))
    assert {s["game"] for s in alice["seats"]} == {"d1", "d3", "sky1", "ended"}
    assert alice["player"]["name"] == "alice" and alice["ratings"]["overall"]["games"] == 3
    assert alice["ratings"]["overall"]["provisional"]  # fewer than five rated games
    assert alice["reliability"]["missed"] == 0 and alice["reliability"]["phases"] > 3
    assert alice["reliability"]["completed"] == 3  # d1, d3, sky1; the GM ended the fourth
    out = club_cli(season.home.path, "players")
    assert out.exit_code == 0, out.output
    assert "name alice" in out.output and "rating overall:" in out.output and "reliability 100.0%" in out.output
    assert out.output.count("key ") == 4  # one line per player, as before
    table = club_cli(season.home.path, "ratings", "--scope", "sky_ww2").output
    assert "alice" in table and "dave" in table and "carol" not in table and "not those of the journals" not in table
    void(season.services, "d1", "played under the wrong scenario")
    assert "not those of the journals now" in club_cli(season.home.path, "ratings").output
    sides = club_cli(season.home.path, "ratings", "--sides", "--scope", "sky_ww2").output
    assert "sky_ww2/quick/axis" in sides and "sky_ww2/quick/coalition" in sides


def test_bots_games_are_not_rated(season, member_keys, club_cli):
    out = club_cli(season.home.path, "club", "set", "dave@club.test", "--kind", "bot", "--name", "Dave the bot",
                   "--pref", "reminders=off")
    assert out.exit_code == 0 and "changed name, kind, preferences" in out.output, out.output
    with season.reader() as s:
        dave = s.get(Player, fp(member_keys["dave"]))
        assert dave is not None and dave.kind == "bot" and json.loads(dave.prefs_json) == {"reminders": "off"}
    data = R.inputs(season.deps)
    assert [r["game"] for r in data["results"]] == ["d1", "d2", "d3"]
    assert {r["game"]: r["unrated"] for r in data["unrated"]}["sky1"] == "not every seat was held by a human player"


def test_existing_seats_become_players_on_first_use(server, duel_game, keys):
    with server.session() as s:
        assert s.exec(select(Player)).all() == []
    R.inputs(server.deps)
    with server.reader() as s:
        players = {p.fingerprint: p for p in s.exec(select(Player)).all()}
        assert set(players) == {fp(keys["east"]), fp(keys["west"])}
        assert players[fp(keys["east"])].email == "east@players.test"
        assert identities(s) == {k: k for k in players}


def test_the_daemon_keeps_ratings_current(season, member_keys, monkeypatch, club_cli):
    """Each pass recomputes the ratings when a game has ended (or been voided) since the last time, and only
    then: with nothing new, the pass reads no journal."""
    from pbem.club import results
    from pbem.daemon import tick

    deps = season.deps
    # the season's games ended through daemon passes: the ratings are there without `pbem ratings --update`
    with season.reader() as s:
        alice = s.exec(select(Rating).where(Rating.scope == "overall",
                                            Rating.fingerprint == fp(member_keys["alice"]))).one()
        assert alice.games == 3  # d1, d3, sky1
        # "voided" was rated when it ended; the GM voided it after the last pass
        assert "voided" in {r.last_game for r in s.exec(select(Rating)).all()}
    tick(season)  # the GM's voiding after the last pass is caught up with
    assert R.verify(deps) == []
    out = club_cli(season.home.path, "ratings", "--verify")
    assert out.exit_code == 0 and "OK" in out.output, out.output

    read = []
    real = results.entries
    monkeypatch.setattr(results, "entries", lambda s, game_id: read.append(game_id) or real(s, game_id))
    assert R.refresh(deps) is None
    tick(season)
    assert read == []  # nothing ended: no journal opened

    void(season.services, "d2", "bob and carol swapped seats by mistake")
    assert R.verify(deps)  # the stored ratings are behind the journals now...
    tick(season)
    assert read and R.verify(deps) == []  # ...until the next pass
    read.clear()
    k = member_keys
    seat_game(season, "d4", "duel", "standard", {"east": ("carol", k["carol"]), "west": ("dave", k["dave"])})
    play_out(season, "d4", {"east": k["carol"], "west": k["dave"]})
    assert "d4" in read and R.verify(deps) == []
    with season.reader() as s:
        assert s.exec(select(Rating).where(Rating.last_game == "d4")).first() is not None
    read.clear()
    tick(season)
    assert read == []


def test_passes_storing_the_ratings_at_the_same_moment_all_finish(season):
    """Two daemons (or a `pbem tick` beside the daemon) may replace the stored ratings at once: each takes the
    table in turn (on PostgreSQL a second writer would otherwise insert keys the first just committed)."""
    import threading

    deps = season.deps
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def store() -> None:
        try:
            start.wait()
            R.update(deps)
        except BaseException as exc:  # noqa: BLE001 - reported below, whatever it is
            errors.append(exc)

    for _ in range(3):
        threads = [threading.Thread(target=store) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert R.verify(deps) == []


def test_passes_adding_the_same_new_players_at_the_same_moment_all_finish(server, duel_game, keys, clock):
    """Every daemon pass makes players of new seated keys: two passes that find the same new keys at once
    must both finish, with one player per key (on PostgreSQL the second writer used to insert a key the first
    had just committed)."""
    import threading

    from pbem.club.players import sync

    errors: list[BaseException] = []
    added: list[int] = []
    start = threading.Barrier(4)

    def add() -> None:
        try:
            with server.session() as s:
                start.wait()
                added.append(sync(s, clock()))
                s.commit()
        except BaseException as exc:  # noqa: BLE001 - reported below, whatever it is
            errors.append(exc)

    threads = [threading.Thread(target=add) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(added) == [0, 0, 0, 2]  # one pass added both seats' keys; the others found them there
    with server.reader() as s:
        assert sorted(p.fingerprint for p in s.exec(select(Player)).all()) == sorted(
            fp(keys[seat]) for seat in ("east", "west"))
