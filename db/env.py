"""Alembic environment: migrations for pbem's tables (run by `pbem init` and on start)."""
from alembic import context
from sqlmodel import SQLModel

from pbem.store import db as store_db

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = store_db.make_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        # batch mode lets later migrations alter tables on SQLite too
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
