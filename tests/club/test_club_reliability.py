"""Reliability from the record: a missed phase, one excused by a vacation, late orders, an abandoned seat."""
from __future__ import annotations

from datetime import datetime, timedelta

from pbem.club.reliability import reliability
from pbem.core.orders import order_file_text
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.demo import _send_orders
from tests.helpers import mail

N = [1000]


def send(server, game, seat, key):
    N[0] += 1
    _send_orders(server, game, seat, key, N[0])
    tick(server)


def settle(server, game, keys):
    """Answer on time whatever is owed until a phase awaits both sides again (a one-seat interrupt, say)."""
    while (st := server.status(game))["status"] == "active" and st["owing"] != ["east", "west"]:
        for seat in st["owing"]:
            send(server, game, seat, keys[seat])


def past_deadline(server, game, clock, hours=0.5):
    clock.now = datetime.fromisoformat(server.status(game)["deadline"]) + timedelta(hours=hours)


def test_missed_excused_late_and_abandoned(gm_server, member_keys, clock):
    k = member_keys
    keys_by_seat = {"east": k["alice"], "west": k["bob"]}
    gm_server.new_game("r1", "duel", "standard", seed=b"club reliability game r1",
                       settings={"max_missing": 99, "grace_hours": 3})
    gm_server.add_player("r1", "east", "alice@club.test", sshsig.public_key_of(k["alice"]).line())
    gm_server.add_player("r1", "west", "bob@club.test", sshsig.public_key_of(k["bob"]).line())
    tick(gm_server)
    settle(gm_server, "r1", keys_by_seat)

    # 1. alice sends on time, bob sends nothing: missed, no excuse
    send(gm_server, "r1", "east", k["alice"])
    past_deadline(gm_server, "r1", clock, hours=3.5)
    tick(gm_server)
    settle(gm_server, "r1", keys_by_seat)

    # 2. bob announces a vacation by signed command, then sends nothing: missed, excused;
    #    alice sends an hour after the deadline, within the grace time: late
    text = order_file_text("command", {"Game": "r1", "Side": "west"}, "VACATION 5\n")
    verdict = gm_server.ingest(mail(text + sshsig.sign(k["bob"], text.encode()), sender="bob@club.test"))
    assert verdict.status == "accepted", verdict.reasons
    tick(gm_server)  # the sitreps that say so go out
    past_deadline(gm_server, "r1", clock, hours=1)
    send(gm_server, "r1", "east", k["alice"])
    past_deadline(gm_server, "r1", clock, hours=-1)  # the deadline stands; the grace time still runs
    clock.advance(hours=4)
    tick(gm_server)
    settle(gm_server, "r1", keys_by_seat)

    # 3. the GM gives bob's seat to carol: bob abandoned the game
    gm_server.replace_player("r1", "west", "carol@club.test", sshsig.public_key_of(k["carol"]).line())

    rec = reliability(gm_server.deps)
    alice, bob, carol = (rec[sshsig.public_key_of(k[n]).fingerprint] for n in ("alice", "bob", "carol"))
    assert (bob["missed"], bob["excused"], bob["abandoned"]) == (2, 1, 1)
    assert bob["score"] == round(100 * (bob["phases"] - 1) / bob["phases"], 1) < 100
    assert (alice["missed"], alice["late"], alice["abandoned"]) == (0, 1, 0)
    assert 0.9 <= alice["hours_late"] <= 1.1
    assert carol["phases"] == 0 and carol["games"] == 1 and carol["abandoned"] == 0
    assert alice["completed"] == bob["completed"] == 0  # the game is still running


def test_abandoning_bars_ladders_and_tournaments_until_games_are_completed(gm_server, member_keys, clock, club_cli):
    """A player who abandoned more games than they completed since may not join a ladder nor be drawn into a
    tournament, and is told how many games they still have to complete; a tournament's minimum reliability
    refuses, by name and score, the players under it."""
    from pbem.club import ladder, tournament
    from pbem.services.records import ServerError
    from tests.club.conftest import play_out, seat_game
    from tests.club.test_ladder import NAME, _send

    k = member_keys
    fp = {n: sshsig.public_key_of(key).fingerprint for n, key in k.items()}
    for name, key in k.items():
        ladder.add_member(gm_server.services, f"{name}@club.test", sshsig.public_key_of(key).line(), name=name)
    ladder.new_ladder(gm_server.services, NAME, "duel")
    # bob completes one game, then misses a phase unexcused in two games and leaves both: abandoned 2, completed 0 since
    seat_game(gm_server, "g0", "duel", "standard", {"east": ("alice", k["alice"]), "west": ("bob", k["bob"])})
    play_out(gm_server, "g0", {"east": k["alice"], "west": k["bob"]})
    for game in ("g1", "g2"):
        seat_game(gm_server, game, "duel", "standard", {"east": ("carol", k["carol"]), "west": ("bob", k["bob"])})
        tick(gm_server)
        settle(gm_server, game, {"east": k["carol"], "west": k["bob"]})
        send(gm_server, game, "east", k["carol"])
        past_deadline(gm_server, game, clock)
        tick(gm_server)
        clock.advance(hours=1)
        gm_server.replace_player(game, "west", "dave@club.test", sshsig.public_key_of(k["dave"]).line())
    bob = reliability(gm_server.deps)[fp["bob"]]
    assert (bob["abandoned"], bob["completed"], bob["completed_since"], bob["owed"]) == (2, 1, 0, 2)
    assert bob["score"] < 100

    v = _send(gm_server, k["bob"], "JOIN\n", who="bob")
    assert v.status == "accepted" and v.reasons[0].startswith("failed:"), v.reasons
    assert "you abandoned 2 game(s) and have completed 0 since: 2 more game(s) to complete" in v.reasons[0]
    try:
        tournament.new_tournament(gm_server.services, "spring", "duel", "", ["alice@club.test", "bob@club.test"])
        raise AssertionError("bob was drawn into a tournament")
    except ServerError as exc:
        assert "bob abandoned 2 game(s) and has completed 0 since: 2 more game(s) to complete" in str(exc)
    # the minimum reliability names each player under it, with their score
    out = club_cli(gm_server.home.path, "tournament", "new", "summer", "--rules", "duel",
                   "--players", "alice@club.test,carol@club.test,dave@club.test", "--min-reliability", "101")
    assert out.exit_code != 0 and "from 0 to 100" in out.output, out.output
    out = club_cli(gm_server.home.path, "tournament", "new", "summer", "--rules", "duel",
                   "--players", "alice@club.test,bob@club.test", "--min-reliability", "99")
    assert out.exit_code != 0 and f"bob's reliability is {bob['score']:g}; this tournament asks for 99" in out.output
    assert "alice's reliability" not in out.output

    # two games completed after leaving lift the sanction; one is not enough
    for n, opponent in enumerate(("alice", "carol"), 3):
        seat_game(gm_server, f"g{n}", "duel", "standard", {"east": (opponent, k[opponent]), "west": ("bob", k["bob"])})
        play_out(gm_server, f"g{n}", {"east": k[opponent], "west": k["bob"]})
        bob = reliability(gm_server.deps)[fp["bob"]]
        assert (bob["completed_since"], bob["owed"]) == (n - 2, 4 - n)
        if bob["owed"]:
            assert "1 more game(s)" in _send(gm_server, k["bob"], "JOIN\n", who="bob").reasons[0]
    v = _send(gm_server, k["bob"], "JOIN\n", who="bob")
    assert v.reasons[0].startswith(f"you joined ladder {NAME}"), v.reasons
    out = tournament.new_tournament(gm_server.services, "spring", "duel", "", ["alice@club.test", "bob@club.test"],
                                    min_reliability=50)
    assert out.startswith("tournament spring: 2 players")
