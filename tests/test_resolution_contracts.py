"""Resolution guards against a ruleset that breaks the phase contract: the game is held, never looped."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from pbem.store.models import Journal
from tests.fixtures.duel import RULESET as DUEL
from tests.helpers import orders_mail


class StuckTurnDuel:
    """The duel, but every phase says turn 1: after "1/fire" comes "1/fire" again (a forgotten new_turn)."""

    def __init__(self) -> None:
        self.info = replace(DUEL.info, name="stuck")

    def __getattr__(self, name: str) -> Any:
        return getattr(DUEL, name)

    def phase(self, state: Any) -> Any:
        phase = DUEL.phase(state)
        return None if phase is None else replace(phase, turn=1)


@pytest.mark.logs_errors
def test_a_phase_key_that_comes_round_again_holds_the_game_instead_of_reusing_its_orders(tmp_path, db_url,
                                                                                          clock, keys):
    # The same key means the same submissions (still current) and the same dice: without the guard the
    # two seats' one set of orders was resolved again and again in one pass.
    server = Server.init(Home(tmp_path / "h"), db_url, clock=clock, extra_rulesets=(DUEL, StuckTurnDuel()))
    try:
        server.new_game("s1", "stuck", "standard", seed=b"a seed of 16+ bytes for s1")
        for seat in ("east", "west"):
            server.add_player("s1", seat, f"{seat}@x.test", sshsig.public_key_of(keys[seat]).line())
        for seat in ("east", "west"):
            v = server.ingest(orders_mail(server, "s1", seat, "FIRE 5\n", keys[seat]))
            assert v.status == "accepted", v.line()
        status = server.status("s1")
        assert status["status"] == "held", status
        assert "1/fire" in status["held_reason"] and "again" in status["held_reason"]
        with server.session() as s:
            kinds = [j.kind for j in s.exec(select(Journal).where(Journal.game_id == "s1")).all()]
        assert kinds == ["setup", "start"], "nothing of the looping pass is kept"
    finally:
        server.engine.dispose()
