"""GM commands decide on the game as it is once claimed, not as it was read before the claim."""
from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import select

from pbem.server import Server, ServerError
from pbem.store.claim import claim_game
from pbem.store.models import Journal
from tests.fixtures.duel import RULESET as DUEL


def test_archive_refuses_a_game_archived_while_it_waited_for_the_claim(server, duel_game, clock):
    server.end_game(duel_game, "a draw")
    other = Server(server.home, clock=clock, extra_rulesets=(DUEL,))  # another GM session archiving it
    outcome: list[object] = []

    def archive() -> None:
        try:
            outcome.append(server.archive(duel_game))
        except ServerError as exc:
            outcome.append(exc)

    try:
        with other.session() as s:
            game = claim_game(s, duel_game)
            assert game is not None
            game.status = "archived"
            s.add(game)
            s.flush()
            thread = threading.Thread(target=archive)
            thread.start()
            time.sleep(1.0)  # this archive reads the game as over now, then waits for the claim
            s.commit()
        thread.join(30)
        assert len(outcome) == 1 and isinstance(outcome[0], ServerError), outcome
        assert "archived" in str(outcome[0])
        with server.session() as s:
            kinds = [j.kind for j in s.exec(select(Journal).where(Journal.game_id == duel_game)).all()]
        assert "gm" not in kinds[kinds.index("end") + 1:], "no ARCHIVE entry was written over the other's"
    finally:
        other.engine.dispose()


def test_archive_still_ends_and_archives_a_running_game_with_force(server, duel_game):
    with pytest.raises(ServerError, match="--force"):
        server.archive(duel_game)
    assert "archived" in server.archive(duel_game, force=True)
    assert server.status(duel_game)["status"] == "archived"
