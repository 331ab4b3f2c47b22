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


def _pragma(connection, statement: str) -> None:
    """A pragma run on the driver's own connection, outside any transaction (the engine begins every
    transaction itself, and SQLite ignores ``foreign_keys`` inside one)."""
    connection.connection.dbapi_connection.execute(statement)


def run_migrations_online() -> None:
    engine = store_db.make_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch migration on SQLite copies a table, drops the old one and renames the copy.  With foreign
            # keys enforced, dropping ``game`` fails as soon as any seat points at it: the pragma only takes
            # effect outside a transaction, so it is switched off here and the keys are checked afterwards.
            _pragma(connection, "PRAGMA foreign_keys=OFF")
        # batch mode lets later migrations alter tables on SQLite too
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migration left rows pointing nowhere: {broken[:5]}")
        if sqlite:
            _pragma(connection, "PRAGMA foreign_keys=ON")
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
