"""The Alembic migrations build exactly the schema the models declare, on both databases."""
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from pbem.store import db


def test_migrations_match_models(db_url):
    db.migrate(db_url)
    engine = db.make_engine(db_url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    engine.dispose()
    assert diff == [], diff


def test_migrating_twice_is_harmless(db_url):
    db.migrate(db_url)
    db.migrate(db_url)


def _row(conn, table: str, given: dict) -> None:
    """Insert a row with ``given`` and a plain value in every other required column (whatever the schema then)."""
    import datetime

    import sqlalchemy as sa

    t = sa.Table(table, sa.MetaData(), autoload_with=conn)
    values = dict(given)
    for c in t.columns:
        if c.name in values or c.nullable or c.server_default is not None or c.autoincrement is True:
            continue
        kind = c.type.python_type if hasattr(c.type, "python_type") else str
        values[c.name] = {int: 0, float: 0.0, bool: False, datetime.datetime: datetime.datetime(2026, 1, 1),
                          bytes: b""}.get(kind, "x")
    conn.execute(t.insert().values(**values))


def test_a_database_with_games_in_it_upgrades_from_the_first_schema(db_url):
    """An install that has played games since the first release upgrades to the newest schema with its rows
    kept.  On SQLite a batch migration copies a table and drops the old one, which failed while any seat
    pointed at its game (migrations 0006 and 0007 did that to every database holding a game)."""
    import sqlalchemy as sa
    from alembic import command

    command.upgrade(db.alembic_config(db_url), "0001")
    engine = db.make_engine(db_url)
    with engine.begin() as conn:
        _row(conn, "game", {"id": "old-game"})
        _row(conn, "seat", {"game_id": "old-game", "name": "east"})
    engine.dispose()
    db.migrate(db_url)
    engine = db.make_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT game_id, name FROM seat")).all() == [("old-game", "east")]
        assert conn.execute(sa.text("SELECT id FROM game")).all() == [("old-game",)]
        if conn.dialect.name == "sqlite":
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1  # on again for the server
    engine.dispose()
