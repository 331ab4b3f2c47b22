"""The claim module: of two daemons claiming the same game or the same outbox rows, one wins."""
from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import select

from pbem.server import Server
from pbem.store.claim import LEASE, ClaimLost, claim_game, claim_outbox, run_claimed
from pbem.store.models import Game, Journal, Outbox
from tests.fixtures.duel import RULESET as DUEL


def _second_daemon(server, clock) -> Server:
    """Another process on the same home and database: its own engine, so its own connections."""
    return Server(server.home, clock=clock, extra_rulesets=(DUEL,))


def _queue(server, n: int) -> set[int]:
    with server.session() as s:
        for i in range(n):
            server.outbox.queue(s, kind="notice", to=f"p{i}@players.test", subject="claim test", text="x",
                                html="<p>x</p>", msg_id=f"<claim-{i}@test>", now=server.clock())
        s.commit()
        return {row.id for row in s.exec(select(Outbox)).all()}


def test_two_daemons_claiming_the_outbox_at_once_take_each_row_once(server, clock):
    """Both claim every due row at the same moment: no row goes to both, and none is left behind."""
    other = _second_daemon(server, clock)
    try:
        queued = _queue(server, 40)
        start = threading.Barrier(2)
        taken: dict[str, list[int]] = {}

        def claimer(name, srv):
            start.wait()
            taken[name] = [row.id for row in claim_outbox(srv.session, clock(), 100).claimed]

        threads = [threading.Thread(target=claimer, args=(n, srv)) for n, srv in (("a", server), ("b", other))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not set(taken["a"]) & set(taken["b"])
        assert set(taken["a"]) | set(taken["b"]) == queued
        with server.session() as s:
            rows = s.exec(select(Outbox)).all()
        assert {(r.state, r.attempts) for r in rows} == {("sending", 1)}
    finally:
        other.engine.dispose()


def test_a_claimed_row_is_not_claimed_again_until_its_lease_runs_out(server, clock):
    """The lease, not a lock, protects a row while it is being sent: after it, another daemon may take it."""
    (row_id,) = _queue(server, 1)
    assert [r.id for r in claim_outbox(server.session, clock(), 10).claimed] == [row_id]
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert claim_outbox(server.session, clock(), 10).claimed == []
    clock.advance(seconds=2)
    again = claim_outbox(server.session, clock(), 10).claimed
    assert [(r.id, r.attempts) for r in again] == [(row_id, 2)]
    assert again[0].last_error.startswith("interrupted 1 time")


def test_a_game_claimed_by_one_daemon_waits_for_it_and_sees_its_writes(server, clock, duel_game):
    """The second claimer of a game blocks until the first commits, then reads what it wrote."""
    other = _second_daemon(server, clock)
    seen: list[str] = []
    try:
        with server.session() as s:
            game = claim_game(s, duel_game)
            assert game is not None

            def second():
                with other.session() as s2:
                    g2 = claim_game(s2, duel_game)
                    seen.append(g2.held_reason)
                    s2.commit()

            t = threading.Thread(target=second)
            t.start()
            time.sleep(0.5)
            assert t.is_alive() and not seen  # waiting on the first claim
            game.held_reason = "written by the first claimer"
            s.add(game)
            s.commit()
        t.join(30)
        assert seen == ["written by the first claimer"]
    finally:
        other.engine.dispose()


def _duplicate_entry(s, game: Game) -> None:
    """Write what a second resolver of the same phase would: an entry with a sequence number taken."""
    s.add(Journal(game_id=game.id, seq=game.journal_seq, kind="resolve", payload_json="{}", state_json="{}",
                  state_hash="0" * 64, prev_hash="0" * 64, hash="1" * 64, created_at=game.created_at))
    s.flush()


def test_the_journal_backstop_retries_from_what_is_stored(server, duel_game):
    """A journal entry refused by the unique (game, seq) rolls the try back and runs the work again."""
    tries = []

    def work(s, game):
        tries.append(game.journal_seq)
        if len(tries) == 1:
            _duplicate_entry(s, game)
        return "done"

    assert run_claimed(server.session, duel_game, work) == "done"
    assert len(tries) == 2
    with server.session() as s:  # the refused try left nothing behind
        assert s.exec(select(Journal).where(Journal.hash == "1" * 64)).first() is None


def test_the_journal_backstop_gives_up_after_its_retries(server, duel_game):
    """Refused every time: the caller is told (resolution then holds the game), not looped forever."""
    tries = []

    def work(s, game):
        tries.append(1)
        _duplicate_entry(s, game)

    with pytest.raises(ClaimLost):
        run_claimed(server.session, duel_game, work, retries=2)
    assert len(tries) == 3
