"""Reminders from two daemons at once: one of them queues each, and neither pass fails."""
from __future__ import annotations

import threading
import time

from sqlmodel import select

from pbem.server import Server
from pbem.store.models import Outbox
from tests.fixtures.duel import RULESET as DUEL


def test_a_reminder_queued_meanwhile_by_another_daemon_is_not_queued_again(server, duel_game, clock):
    clock.advance(hours=37)  # 11 hours before the deadline: inside the reminder window
    st = server.status(duel_game)
    other = Server(server.home, clock=clock, extra_rulesets=(DUEL,))
    result: list[object] = []

    def remind() -> None:
        try:
            result.append(server.remind())
        except Exception as exc:  # the failure under test: the whole pass (delivery included) was lost
            result.append(exc)

    try:
        with other.session() as s:  # the other daemon's pass, queued but not yet committed
            for seat in ("east", "west"):
                mid = other.outbox.message_id("remind", duel_game, st["turn"], st["phase"], seat, st["deadline"])
                other.outbox.queue(s, kind="notice", to=f"{seat}@players.test", subject="orders due", text="x",
                                   html="<p>x</p>", msg_id=mid, now=clock(), game_id=duel_game)
            thread = threading.Thread(target=remind)
            thread.start()
            time.sleep(1.0)  # this daemon's pass looks for the reminders now: not there yet
            s.commit()
        thread.join(30)
        assert result == [0]
        with server.session() as s:
            assert len(s.exec(select(Outbox).where(Outbox.kind == "notice")).all()) == 2
    finally:
        other.engine.dispose()
