"""Round-robin tournaments: rounds drawn so every pair meets once, two games per pair with the sides swapped,
played by the bots through the mail path; standings (points, then Sonneborn-Berger) mailed after each round."""
from __future__ import annotations

import itertools
import json
from collections import defaultdict

from sqlmodel import col, select

from pbem.club import ladder, tournament
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.store.models import Outbox, Seat, TournamentGame
from tests.club.conftest import play_out


def test_the_circle_method_pairs_everyone_once():
    for n in range(2, 9):
        players = [f"p{i}" for i in range(n)]
        rounds = tournament.rounds(players)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        pairs = [frozenset(p) for rnd in rounds for p in rnd]
        assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(players, 2))))
        for rnd in rounds:  # nobody plays twice in a round
            seen = [x for p in rnd for x in p]
            assert len(seen) == len(set(seen))


def test_a_round_robin_is_played_by_mail_and_its_standings_mailed_after_each_round(gm_server, member_keys,
                                                                                   club_cli):
    k = {n: member_keys[n] for n in ("alice", "bob", "carol")}
    fp = {n: sshsig.public_key_of(key).fingerprint for n, key in k.items()}
    for name, key in k.items():
        ladder.add_member(gm_server.services, f"{name}@club.test", sshsig.public_key_of(key).line(), name=name)
    # (made here on the test's clock; the command line's own server would run on the real one)
    out = tournament.new_tournament(gm_server.services, "autumn", "duel", "",
                                    ["alice@club.test", "bob@club.test", fp["carol"]])
    assert out == "tournament autumn: 3 players, 3 round(s); round 1 started (2 games)"
    key_of = {fp[n]: k[n] for n in k}
    for number in (1, 2, 3):
        with gm_server.reader() as s:
            games = s.exec(select(TournamentGame).where(TournamentGame.round == number)
                           .order_by(col(TournamentGame.id))).all()
            seats = {g.game_id: {x.name: x.fingerprint for x in s.exec(select(Seat).where(Seat.game_id == g.game_id))}
                     for g in games}
        assert len(games) == 2
        a, b = games
        assert (a.first, a.second) == (b.second, b.first)  # the sides swapped in the pair's second game
        for g in games:
            assert seats[g.game_id] == {"east": g.first, "west": g.second}
            assert play_out(gm_server, g.game_id, {s: key_of[f] for s, f in seats[g.game_id].items()})["status"] == "over"
        tick(gm_server)
        with gm_server.reader() as s:
            mails = s.exec(select(Outbox).where(Outbox.subject == f"[autumn] standings after round {number} of 3")).all()
        assert sorted(m.to_addr for m in mails) == ["alice@club.test", "bob@club.test", "carol@club.test"]
    # the standings from the recorded results, computed here on their own
    with gm_server.reader() as s:
        results = s.exec(select(TournamentGame)).all()
    assert len(results) == 6 and all(g.done for g in results)
    pts: dict[str, float] = defaultdict(float)
    vs: dict[tuple[str, str], float] = defaultdict(float)
    for g in results:
        for me, them in ((g.first, g.second), (g.second, g.first)):
            got = {g.winner: 1.0}.get(me, 0.5 if g.winner == "" else 0.0)
            pts[me] += got
            vs[me, them] += got
    sb = {me: sum(v * pts[them] for (m, them), v in vs.items() if m == me) for me in fp.values()}
    rows = tournament.standings(gm_server.services, "autumn")
    assert [(r["fingerprint"], r["points"], r["sb"], r["games"]) for r in rows] == sorted(
        [(f, pts[f], sb[f], 4) for f in fp.values()], key=lambda x: (-x[1], -x[2], {v: n for n, v in fp.items()}[x[0]]))
    assert sum(pts.values()) == 6.0
    r = club_cli(gm_server.home.path, "tournament", "standings", "autumn")
    assert r.exit_code == 0 and "SB" in r.output and "@" not in r.output, r.output
    r = club_cli(gm_server.home.path, "tournament", "standings", "autumn", "--json")
    assert json.loads(r.output)[0]["place"] == 1
    final = [m for m in _mail(gm_server, "alice@club.test") if "after round 3 of 3" in m[0]]
    assert final and "(final)" in final[0][1]


def _mail(server, to):
    with server.reader() as s:
        return [(m.subject, json.loads(m.parts_json)["text"]) for m in
                s.exec(select(Outbox).where(Outbox.to_addr == to).order_by(col(Outbox.id))).all()]


def test_the_gm_makes_a_tournament_from_the_command_line(gm_server, member_keys, club_cli):
    for name in ("alice", "bob"):
        ladder.add_member(gm_server.services, f"{name}@club.test", sshsig.public_key_of(member_keys[name]).line(),
                          name=name)
    home = gm_server.home.path
    r = club_cli(home, "tournament", "new", "spring", "--rules", "duel", "--players", "alice@club.test, bob@club.test")
    assert r.exit_code == 0 and "2 players, 1 round(s); round 1 started (2 games)" in r.output, r.output
    r = club_cli(home, "tournament", "new", "solo", "--rules", "duel", "--players", "alice@club.test,alice@club.test")
    assert r.exit_code != 0 and "two or more different players" in r.output
    r = club_cli(home, "tournament", "standings", "spring")
    assert r.exit_code == 0 and "alice" in r.output and "bob" in r.output, r.output


def test_swiss_rounds_pair_by_score_and_never_repeat_a_pairing_or_a_bye():
    import random

    rng = random.Random("swiss pairing test, sixteen bytes at least")
    for n in range(2, 11):
        players = [f"p{i}" for i in range(n)]
        for _ in range(20):
            met: set[frozenset[str]] = set()
            points = dict.fromkeys(players, 0.0)
            for _ in range((n + 1) // 2):  # as many rounds as a Swiss tournament may have
                order = sorted(players, key=lambda p: (-points[p], p))
                pairs = tournament.swiss_pairs(order, met)
                assert pairs is not None
                seen = [x for p in pairs for x in p if x]
                assert sorted(seen) == sorted(players)  # everyone plays or sits out, once
                assert all(frozenset(p) not in met for p in pairs)
                met |= {frozenset(p) for p in pairs}
                for a, b in pairs:
                    if not b:
                        points[a] += 2
                    else:
                        got = rng.choice((0.0, 1.0, 2.0))
                        points[a] += got
                        points[b] += 2 - got
    # the leaders meet: first against second when they have not met, the bye to the last
    assert tournament.swiss_pairs(["a", "b", "c", "d", "e"], set()) == [("a", "b"), ("c", "d"), ("e", "")]
    assert tournament.swiss_pairs(["a", "b", "c", "d"], {frozenset("ab")}) == [("a", "c"), ("b", "d")]
    assert tournament.swiss_pairs(["a", "b"], {frozenset("ab")}) is None


def test_a_swiss_tournament_is_played_by_mail(gm_server, member_keys, club_cli):
    k = {n: member_keys[n] for n in ("alice", "bob", "carol")}
    fp = {n: sshsig.public_key_of(key).fingerprint for n, key in k.items()}
    for name, key in k.items():
        ladder.add_member(gm_server.services, f"{name}@club.test", sshsig.public_key_of(key).line(), name=name)
    home = gm_server.home.path
    r = club_cli(home, "tournament", "new", "winter", "--rules", "duel", "--players", "alice@club.test,bob@club.test",
                 "--rounds", "1")
    assert r.exit_code != 0 and "--rounds is for --system swiss" in r.output, r.output
    too_many = club_cli(home, "tournament", "new", "winter", "--rules", "duel", "--system", "swiss",
                        "--players", "alice@club.test,bob@club.test,carol@club.test", "--rounds", "3")
    assert too_many.exit_code != 0 and "has 1 to 2 round(s)" in too_many.output, too_many.output
    out = tournament.new_tournament(gm_server.services, "winter", "duel", "",
                                    ["alice@club.test", "bob@club.test", "carol@club.test"],
                                    system="swiss", swiss_rounds=2)
    assert out == "tournament winter: Swiss, 3 players, 2 round(s); round 1 started (2 games)"
    key_of = {fp[n]: k[n] for n in k}
    pairs = []
    for number in (1, 2):
        with gm_server.reader() as s:
            games = s.exec(select(TournamentGame).where(TournamentGame.round == number)
                           .order_by(col(TournamentGame.id))).all()
            seats = {g.game_id: {x.name: x.fingerprint for x in s.exec(select(Seat).where(Seat.game_id == g.game_id))}
                     for g in games}
        assert len(games) == 2 and (games[0].first, games[0].second) == (games[1].second, games[1].first)
        pairs.append(frozenset((games[0].first, games[0].second)))
        if number == 1:  # everyone level: in name order, carol sits out and scores 2
            assert pairs[0] == {fp["alice"], fp["bob"]}
            assert {r["name"]: r["points"] for r in tournament.standings(gm_server.services, "winter")}["carol"] == 2
        for g in games:
            assert play_out(gm_server, g.game_id, {s: key_of[f] for s, f in seats[g.game_id].items()})["status"] == "over"
        tick(gm_server)
    assert pairs[1] != pairs[0] and fp["carol"] in pairs[1]  # no repeat; the bye went to nobody twice
    with gm_server.reader() as s:
        mails = s.exec(select(Outbox).where(Outbox.subject == "[winter] standings after round 2 of 2")).all()
        assert len(mails) == 3 and all("(final)" in json.loads(m.parts_json)["text"] for m in mails)
        assert tournament.plan(s.get(tournament.Tournament, "winter"))[0] == "swiss"
    rows = tournament.standings(gm_server.services, "winter")
    assert sum(r["points"] for r in rows) == 4 * 1.0 + 2 * 2.0  # four games, a bye in each round
    assert sorted(r["games"] for r in rows) == [2, 2, 4]  # carol and the round-2 bye played two, the other four
