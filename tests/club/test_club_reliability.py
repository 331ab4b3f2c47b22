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
