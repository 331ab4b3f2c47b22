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
