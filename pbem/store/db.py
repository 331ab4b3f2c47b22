"""Opening the database and bringing its schema up to date with Alembic."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
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


_REVISION = re.compile(r"""^(down_revision|revision)\s*(?::[^=]*)?=\s*['"]?([\w-]+|None)['"]?""", re.M)


@lru_cache(maxsize=1)
def schema_head() -> str:
    """The newest schema revision this pbem knows, read from the migration files' ``revision`` and
    ``down_revision`` lines (without loading Alembic: the MTA pipe checks the schema on every message)."""
    revisions, parents = set(), set()
    for path in resources.files("pbem.db").joinpath("versions").iterdir():
        if path.name.endswith(".py") and not path.name.startswith("_"):
            found = dict((k, v) for k, v in _REVISION.findall(path.read_text()))
            revisions.add(found["revision"])
            parents.add(found.get("down_revision", "None"))
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads ({', '.join(sorted(heads))}); expected one")
    return heads.pop()


def schema_problem(engine: Engine) -> str:
    """Why this database cannot be used as it is ("" when its schema is the newest), in one query."""
    try:
        with engine.connect() as conn:
            found = [row[0] for row in conn.exec_driver_sql("SELECT version_num FROM alembic_version")]
    except DBAPIError as exc:
        if "alembic_version" not in str(exc):  # the database is down or locked: not a schema problem
            raise
        found = []  # never migrated
    head = schema_head()
    if found == [head]:
        return ""
    have = ", ".join(found) or "none (no alembic_version table)"
    return (f"the database schema is at revision {have}; this pbem needs revision {head}: run `pbem init` "
            "with the same --home (it upgrades an existing database and keeps the rest), then deliver again")
