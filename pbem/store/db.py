"""Opening the database and bringing its schema up to date with Alembic."""
from __future__ import annotations

from importlib import resources

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from . import models  # noqa: F401  (registers the tables on SQLModel.metadata)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and foreign keys, as a server database would behave."""
    if url.startswith("sqlite"):
        # isolation_level=None hands transaction control to SQLAlchemy, which then begins every
        # transaction IMMEDIATE: a transaction that read and then writes after another connection
        # committed would otherwise fail at once with "database is locked" (SQLite does not wait
        # for a snapshot upgrade).  Writers queue on the busy timeout instead; WAL keeps reads cheap.
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30,
                                                  "isolation_level": None})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn):  # pragma: no cover - trivial
            # read-only sessions (status, sitreps, due games) must not queue behind or block writers
            conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get("readonly") else "BEGIN IMMEDIATE")
        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return create_engine(url, pool_pre_ping=True)


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("pbem.db")))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def migrate(url: str) -> None:
    """Upgrade the database at ``url`` to the newest schema (creating it if empty)."""
    from alembic import command

    command.upgrade(alembic_config(url), "head")
