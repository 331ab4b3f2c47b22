"""A player on a daily digest: one mail a day at their own local hour, across a change of daylight-saving time,
with every game where they owe orders and each game's form attached; the sitreps stored as ever."""
from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import select

from pbem.core.orders import parse_order_file
from pbem.replay import replay
from pbem.store.models import Sitrep
from tests.helpers import mail, signed
from tests.notices.conftest import (attachments, composed, mails_to, miss, new_game, prefer,
                                    profile_by_mail, send, walk)


def test_a_digest_goes_once_a_local_day_at_the_chosen_hour_across_daylight_saving(server, clock, players):
    k = players
    # Warsaw leaves summer time at 01:00 UTC on Sunday 25 October 2026: 07:00 there is 05:00 UTC, then 06:00 UTC
    clock.now = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
    for g in ("g1", "g2"):
        new_game(server, k, g, {"east": "alice", "west": "bob"}, tz={"alice": "Europe/Warsaw"})
    profile_by_mail(server, k["alice"], "g1", "east",
                    "PROFILE tz Europe/Warsaw\nPROFILE pref notices digest\nPROFILE pref digest_hour 7\n")
    before = len(mails_to(server, "alice@club.test", "sitrep"))  # the two opening sitreps, mailed before she chose
    assert before == 2
    new_game(server, k, "g3", {"east": "alice", "west": "bob"}, tz={"alice": "Europe/Warsaw"})  # after choosing

    def bob_plays(_hour):  # bob answers within the hour, every phase, in every game
        for g in ("g1", "g2", "g3"):
            if "west" in server.status(g)["owing"]:
                send(server, g, "west", k["bob"])

    walk(server, clock, 24 * 4 - 5, bob_plays)  # to 27 October, 07:00 UTC; alice sends nothing: phases time out
    digests = mails_to(server, "alice@club.test", "digest")
    # the first at once (15:00 in Warsaw: past her hour that day, and a deadline may fall before tomorrow's)
    assert [d.created_at.replace(tzinfo=UTC) for d in digests] == [
        datetime(2026, 10, 23, 13, tzinfo=UTC), datetime(2026, 10, 24, 5, tzinfo=UTC),
        datetime(2026, 10, 25, 6, tzinfo=UTC),
        datetime(2026, 10, 26, 6, tzinfo=UTC), datetime(2026, 10, 27, 6, tzinfo=UTC)]
    assert len(mails_to(server, "alice@club.test", "sitrep")) == before  # never more often than she asked
    assert not [m for m in mails_to(server, "alice@club.test", "notice") if "orders due" in m.subject]  # no reminders
    assert mails_to(server, "bob@club.test", "sitrep")  # bob still has his mail per phase
    with server.session() as s:  # alice's sitreps are stored as ever, and replay rebuilds them
        assert s.exec(select(Sitrep).where(Sitrep.seat == "east", Sitrep.game_id == "g3")).first() is not None
    assert replay(server, "g3").ok

    last = composed(server, digests[-1])
    text = last.get_body(("plain",)).get_content()
    files = attachments(last)
    assert {"orders-g1-east.txt", "orders-g2-east.txt", "orders-g3-east.txt"} <= set(files)
    for g in ("g1", "g2", "g3"):
        assert f"  {g} (Duel (test fixture) — Standard duel), east: turn" in text
    assert "(Europe/Warsaw)" in text and " left;" in text
    assert "Reports since" not in text  # the phases last timed out on the 25th: nothing new since the 26th's
    before_last = composed(server, digests[-2]).get_body(("plain",)).get_content()
    assert "Reports since your last digest (3)" in before_last
    assert all(f"======== {g} / east, turn 2" in before_last for g in ("g1", "g2", "g3"))

    # the attached form is the one to sign: filled in and mailed back, it is accepted
    form, problems = parse_order_file(files["orders-g2-east.txt"])
    assert form is not None, problems
    head = form.text.split("\n\n", 1)[0]
    filled, problems = parse_order_file(f"{head}\n\n{miss(server, 'g2', 'east')}")
    assert filled is not None, problems
    verdict = server.ingest(mail(signed(filled.text, k["alice"]), sender="alice@club.test"))
    assert verdict.status == "accepted", verdict.reasons

    # a second pass in the same local day queues nothing more (one outbox row per player and day)
    walk(server, clock, 3)
    assert len(mails_to(server, "alice@club.test", "digest")) == 5


def test_the_digest_covers_the_reports_since_the_last_one_and_nothing_when_there_is_nothing(server, clock, players):
    k = players
    clock.now = datetime(2026, 11, 2, 8, 30, tzinfo=UTC)
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", notices="digest", digest_hour="9")
    walk(server, clock, 1)  # 09:30 UTC: her first digest, the game's opening sitrep
    first = mails_to(server, "alice@club.test", "digest")
    assert len(first) == 1 and "turn 1" in composed(server, first[0]).get_body(("plain",)).get_content()
    clock.advance(minutes=10)
    send(server, "g1", "east", k["alice"])
    send(server, "g1", "west", k["bob"])  # the phase resolves: a new sitrep, and she owes again
    walk(server, clock, 23)
    assert len(mails_to(server, "alice@club.test", "digest")) == 1  # before 09:00 the next day: nothing yet
    walk(server, clock, 1)
    second = mails_to(server, "alice@club.test", "digest")[1]
    text = composed(server, second).get_body(("plain",)).get_content()
    assert text.count("======== g1 / east") == 1  # only the report since the first digest
    assert "turn 2" in text
    # she sends her orders and the game waits on bob: nothing new, nothing owed -> no digest that day
    send(server, "g1", "east", k["alice"])
    walk(server, clock, 23)  # to 08:40 on the 4th, before the phase times out on bob
    assert len(mails_to(server, "alice@club.test", "digest")) == 2, composed(server, mails_to(server, "alice@club.test", "digest")[-1]).get_body(("plain",)).get_content()


def test_back_to_a_mail_per_phase(server, clock, players):
    k = players
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    prefer(server, k, "alice", notices="digest")
    send(server, "g1", "east", k["alice"])
    send(server, "g1", "west", k["bob"])
    assert len(mails_to(server, "alice@club.test", "sitrep")) == 1  # the opening one only, before she chose
    assert len(mails_to(server, "bob@club.test", "sitrep")) == 2
    prefer(server, k, "alice", notices="phase")
    send(server, "g1", "east", k["alice"])
    send(server, "g1", "west", k["bob"])
    assert len(mails_to(server, "alice@club.test", "sitrep")) == 2


def test_a_digest_player_gets_no_reminder_mail_a_phase_player_does(server, clock, players):
    k = players
    new_game(server, k, "g1", {"east": "alice", "west": "bob"})
    new_game(server, k, "g2", {"east": "carol", "west": "bob"})
    prefer(server, k, "alice", notices="digest")
    walk(server, clock, 40)  # 12 h before the 48 h deadline nobody met

    def reminders(who):
        return [m for m in mails_to(server, f"{who}@club.test", "notice") if "orders due" in m.subject]

    assert reminders("alice") == []
    assert len(reminders("carol")) == 1
