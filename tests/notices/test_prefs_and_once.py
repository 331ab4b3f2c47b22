"""What players type is read leniently; a digest is one outbox row per player and local day, even when two
daemons find it due at the same moment."""
from __future__ import annotations

from datetime import UTC, datetime

from pbem.notices.digest import Digests, left_text
from pbem.notices.prefs import NoticePrefs, parse
from pbem.store.models import Player
from tests.notices.conftest import fp, mails_to, new_game, prefer


def test_preferences_are_read_leniently():
    assert parse({}) == NoticePrefs()
    p = parse({"notices": "Digest", "digest_hour": "6", "alarm": "25%", "webhook": "https://x.test/h slack"})
    assert (p.digest, p.digest_hour, p.alarm, p.webhook, p.webhook_format) == (True, 6, 25.0, "https://x.test/h", "slack")
    bad = parse({"notices": "hourly", "digest_hour": "25", "alarm": "150", "webhook": "ftp://x.test/h"})
    assert (bad.mode, bad.digest_hour, bad.alarm, bad.webhook) == ("phase", None, None, "")
    assert parse({"webhook": "https://x.test/h telegram"}).webhook_format == "json"


def test_left_text():
    assert [left_text(s) for s in (-5, 59, 3600 * 3 + 1200, 86400 * 2 + 3600 * 5)] == [
        "overdue", "0 min", "3 h 20 min", "2 d 5 h"]


def test_two_daemons_finding_the_same_digest_due_queue_it_once(server, clock, players):
    k = players
    clock.now = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", notices="digest", digest_hour="9")
    one = Digests(server.deps, server.services.outbox, server.queries.order_form)
    two = Digests(server.deps, server.services.outbox, server.queries.order_form)
    with server.session() as s:
        alice = s.get(Player, fp(k, "alice"))
    mid = one.outbox.message_id("digest", alice.fingerprint, "2026-11-02")
    assert one._one(alice, clock.now.date(), mid, clock.now) == 1
    assert two._one(alice, clock.now.date(), mid, clock.now) == 0  # its insert meets the first one's row
    assert len(mails_to(server, "alice@club.test", "digest")) == 1
    assert one.run() == 0 and two.run() == 0  # and a later pass that day sees it queued


def test_a_notice_preference_that_cannot_be_read_is_refused_when_set(server, players):
    import pytest

    from pbem.notices.prefs import check
    from pbem.services.records import ServerError

    assert check("notices", "digest") == check("alarm", "25") == check("digest_hour", "7") == ""
    assert check("webhook", "https://x.test/h matrix") == check("webhook", "https://x.test/h") == ""
    assert check("colour", "red") == "" and check("alarm", "") == ""  # not a notice's; removing one
    assert "phase or digest" in check("notices", "daily")
    assert "discord, slack, matrix or json" in check("webhook", "https://x.test/h telegram")
    new_game(server, players, "g1", {"east": "alice", "west": "bob"})
    with pytest.raises(ServerError, match="a local hour, 0 to 23"):
        prefer(server, players, "alice", digest_hour="25")
