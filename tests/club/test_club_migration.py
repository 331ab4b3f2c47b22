"""Migration 0008: the club's tables come and go on both databases; a database with games from before
gets players from its seats the first time the club reads it."""
from __future__ import annotations

from alembic import command
from sqlalchemy import inspect
from sqlmodel import select

from pbem.club.players import sync
from pbem.crypto import sshsig
from pbem.store import db
from pbem.store.models import Player, Seat


def tables(server):
    return set(inspect(server.engine).get_table_names())


def test_0008_up_and_down_keeps_the_games_and_their_seats(server, duel_game, keys, db_url):
    assert {"player", "rating"} <= tables(server)
    server.engine.dispose()
    command.downgrade(db.alembic_config(db_url), "0007")
    assert not {"player", "rating"} & tables(server) and "seat" in tables(server)
    db.migrate(db_url)
    assert {"player", "rating"} <= tables(server)
    with server.session() as s:
        assert s.exec(select(Player)).all() == []
        assert len(s.exec(select(Seat).where(Seat.game_id == duel_game)).all()) == 2
        assert sync(s, server.clock()) == 2 and sync(s, server.clock()) == 0
        s.commit()
    with server.reader() as s:
        east = s.get(Player, sshsig.public_key_of(keys["east"]).fingerprint)
    assert east is not None and east.email == "east@players.test" and east.kind == "human"
