"""Shared fixtures: a pbem server on SQLite and on PostgreSQL, a test clock, player keys."""
from __future__ import annotations

import logging
import os
import uuid
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server
from tests.fixtures.duel import RULESET as DUEL

POSTGRES = os.environ.get("PBEM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw) -> None:
        self.now += timedelta(**kw)


def _postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES.replace("postgresql+psycopg", "postgresql"), connect_timeout=3):
            return True
    except Exception:
        return False


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """A fresh, empty database: SQLite in a temp folder, or a new schema on the PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/pbem.db"
        return
    with postgres_schema() as url:
        yield url


@contextmanager
def postgres_schema():
    """The URL of a new, empty schema on the PostgreSQL server, dropped afterwards; the test is skipped
    when no server answers (failed instead under PBEM_REQUIRE_POSTGRES, as in CI)."""
    if not _postgres_available():
        if os.environ.get("PBEM_REQUIRE_POSTGRES"):
            pytest.fail(f"PostgreSQL at {POSTGRES} is required (PBEM_REQUIRE_POSTGRES) but not reachable")
        pytest.skip(f"PostgreSQL at {POSTGRES} is not reachable")
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in POSTGRES else "?"
    try:
        yield f"{POSTGRES}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def server(tmp_path, db_url, clock):
    srv = Server.init(Home(tmp_path / "home"), db_url, clock=clock, extra_rulesets=(DUEL,))
    yield srv
    srv.engine.dispose()


@pytest.fixture(scope="session")
def keys():
    """A key per seat name, plus spares."""
    return {name: sshsig.generate_private_key() for name in ("east", "west", "mallory", "gm")}


@pytest.fixture
def duel_game(server, keys):
    server.new_game("g1", "duel", "standard", seed=b"fixed seed of game g1")
    for seat in ("east", "west"):
        server.add_player("g1", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    return "g1"


@pytest.fixture(autouse=True)
def error_log_fails(caplog, request):
    """A test that logs at ERROR fails unless it says it expects to (marker `logs_errors`)."""
    yield
    if request.node.get_closest_marker("logs_errors"):
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, f"unexpected error log: {errors[0].getMessage()}"


def pytest_configure(config):
    config.addinivalue_line("markers", "logs_errors: the test expects ERROR log records")
