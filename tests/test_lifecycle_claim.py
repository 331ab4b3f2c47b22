"""Seating players claims the game: the last two players registered at once still start it."""
from __future__ import annotations

import threading
import time

import pytest
from sqlmodel import select

from pbem.crypto import sshsig
from pbem.server import Server
from pbem.store.claim import claim_game
from pbem.store.models import Seat
from tests.fixtures.duel import RULESET as DUEL


def test_the_last_player_waits_for_a_seating_in_flight_and_starts_the_game(server, clock, keys):
    if not server.home.db_url.startswith("postgresql"):
        pytest.skip("SQLite serialises every writing transaction; the race needs row locks")
    server.new_game("g", "duel", "standard", seed=b"a seed of 16+ bytes for g")
    other = Server(server.home, clock=clock, extra_rulesets=(DUEL,))  # another process seating east
    done: list[str] = []
    try:
        with other.session() as s:
            claim_game(s, "g")  # as seating does: a player is registered with the game claimed
            east = s.exec(select(Seat).where(Seat.game_id == "g", Seat.name == "east")).one()
            east.email, east.fingerprint = "east@x.test", sshsig.public_key_of(keys["east"]).fingerprint
            east.pubkey = sshsig.public_key_of(keys["east"]).line()
            s.add(east)
            s.flush()
            seating = threading.Thread(target=lambda: done.append(server.add_player(
                "g", "west", "west@x.test", sshsig.public_key_of(keys["west"]).line()).name))
            seating.start()
            time.sleep(1.0)  # west's seating reads the seats now, unless it waits for the claim
            s.commit()
        seating.join(30)
        assert done == ["west"]
        # Without the claim, west saw east still empty, east saw west empty: both seated, nobody started it.
        assert server.status("g")["status"] == "active"
    finally:
        other.engine.dispose()
