"""Alarms: one mail when the share of time a player chose is left and no orders have come; fixed windows and
time banks alike, once per phase."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem import gm
from pbem.notices.alarms import share_left
from tests.notices.conftest import mails_to, new_game, prefer, send, walk


def alarms_to(server, address):
    return [m for m in mails_to(server, address, "notice") if "alarm" in m.subject]


def test_share_left():
    t0 = datetime(2026, 11, 1, tzinfo=UTC)
    assert share_left(t0, t0 + timedelta(hours=48), t0 + timedelta(hours=36)) == 25.0
    assert share_left(t0, t0 + timedelta(hours=48), t0 + timedelta(hours=50)) == 0.0
    assert share_left(t0, t0, t0) == 0.0


def test_an_alarm_rings_once_a_phase_at_the_chosen_share_of_a_fixed_window(server, clock, players):
    k = players
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    new_game(server, k, "g2", {"east": "alice", "west": "carol"})
    prefer(server, k, "alice", alarm="25")
    opened = clock.now
    walk(server, clock, 35, lambda h: send(server, "g2", "east", k["alice"]) if h == 0 else None)
    assert alarms_to(server, "alice@club.test") == []  # 35 h of 48 gone: more than a quarter left
    walk(server, clock, 1)
    rung = alarms_to(server, "alice@club.test")
    assert [(m.game_id, m.created_at.replace(tzinfo=UTC)) for m in rung] == [("g1", opened + timedelta(hours=36))]
    assert "25 % of your time is left for game g1" in rung[0].parts_json  # not g2, where her orders are in
    walk(server, clock, 11)
    assert len(alarms_to(server, "alice@club.test")) == 1  # once a phase
    assert alarms_to(server, "bob@club.test") == [] and alarms_to(server, "carol@club.test") == []
    walk(server, clock, 1)  # 48 h: g1 times out; the next phase rings again 36 h on
    walk(server, clock, 36)
    assert [m.game_id for m in alarms_to(server, "alice@club.test")] == ["g1", "g1", "g2"]


def test_an_alarm_follows_the_seats_own_clock_in_a_time_bank_game(server, clock, players):
    k = players
    server.new_game("b1", "duel", "standard", seed=b"fixed seed of notices bank game b1")
    gm.clock_settings(server.services, "b1", clock="bank:3d+1d/5d")
    from pbem.crypto import sshsig
    for seat, name in (("east", "alice"), ("west", "bob")):
        server.add_player("b1", seat, f"{name}@club.test", sshsig.public_key_of(k[name]).line())
    prefer(server, k, "alice", alarm="50")
    prefer(server, k, "bob", alarm="50")
    walk(server, clock, 1, lambda h: send(server, "b1", "west", k["bob"]))  # bob in at once: no alarm for him
    walk(server, clock, 34)
    assert alarms_to(server, "alice@club.test") == []
    walk(server, clock, 1)  # 36 h of her 3 days
    assert len(alarms_to(server, "alice@club.test")) == 1
    assert alarms_to(server, "bob@club.test") == []
