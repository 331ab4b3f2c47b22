"""The intake's writes, as plain SQLAlchemy Core statements.

Intake is the hot path of a busy server (every order, every resubmission), and
building ORM objects and flushing them cost more than checking the orders.  So
each message is checked first, its rows are collected as plain values, and
then written: a batch with one statement per table (``executemany``), a single
message (or a batch taken again carefully) with one each.  The statements are
built once and their compiled forms are cached by SQLAlchemy.

The unique index on ``inbound.sha256`` decides whether a message is new:
``INSERT … ON CONFLICT DO NOTHING RETURNING id`` gives no id for a message
seen before (by this process or another daemon), without failing the
transaction, so a batch needs no savepoint per message.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.dml import Insert

from pbem.store.models import Inbound, Outbox, Submission, table

INBOUND, SUBMISSION, OUTBOX = table(Inbound), table(Submission), table(Outbox)


@dataclass
class Writes:
    """Everything one message adds to the database, held until its checks are done."""

    inbound: dict[str, Any]
    submissions: list[dict[str, Any]] = field(default_factory=list)  # their inbound_id is filled in on write
    outbox: list[dict[str, Any]] = field(default_factory=list)
    retire: Any = None  # the orders the new ones replace (a pbem.intake.Held)
    confirm: int | None = None  # the outbox row a returning copy proves delivered


class AlreadyStored(Exception):
    """A message of a batch was stored meanwhile by another process: the batch must be taken again."""


@lru_cache(maxsize=4)
def _insert_new(dialect: str):
    new: Insert
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        new = postgresql_insert(INBOUND).on_conflict_do_nothing(index_elements=["sha256"])
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        new = sqlite_insert(INBOUND).on_conflict_do_nothing(index_elements=["sha256"])
    return new.returning(INBOUND.c.id, INBOUND.c.sha256, sort_by_parameter_order=True)


_STORED = select(INBOUND.c.sha256).where(INBOUND.c.sha256.in_(bindparam("shas", expanding=True)))


def stored(conn: Connection, shas: list[str]) -> set[str]:
    """Which of these messages are stored already."""
    return set(conn.execute(_STORED, {"shas": shas}).scalars()) if shas else set()


_CONFIRM = (update(OUTBOX).where(OUTBOX.c.id == bindparam("confirmed"), OUTBOX.c.state != "sent")
            .values(state="sent", sent_at=bindparam("at"), last_error=""))
_INSERT_SUBMISSION = insert(SUBMISSION)
_INSERT_OUTBOX = insert(OUTBOX)
_RETIRE = update(SUBMISSION).where(SUBMISSION.c.id == bindparam("retired")).values(current=False)


def write(conn: Connection, w: Writes) -> bool:
    """Store one message's rows; False if that message was stored before (and then nothing is written:
    its replies went out the first time)."""
    try:
        write_batch(conn, [w])
    except AlreadyStored:
        return False
    return True


def write_batch(conn: Connection, batch: list[Writes]) -> None:
    """Store the rows of a batch of messages checked one after another: one statement per table.

    The messages were checked against what was stored and what the batch had taken before them
    (:meth:`pbem.intake.IntakeContext.taken`), so retiring replaced orders and inserting the new
    ones here is what writing them one by one would have done.
    """
    if not batch:
        return
    # the message's own row first: a conflict there means it is stored already, and nothing else is written
    ids = {sha: id_ for id_, sha in conn.execute(_insert_new(conn.dialect.name), [w.inbound for w in batch])}
    if len(ids) != len(batch):
        raise AlreadyStored(", ".join(w.inbound["sha256"][:12] for w in batch if w.inbound["sha256"] not in ids))
    retired = [{"retired": w.retire.id} for w in batch if w.retire is not None and w.retire.id is not None]
    if retired:
        conn.execute(_RETIRE, retired)
    confirmed = [{"confirmed": w.confirm, "at": w.inbound["received_at"]} for w in batch if w.confirm is not None]
    if confirmed:
        conn.execute(_CONFIRM, confirmed)
    submissions = [{**row, "inbound_id": ids[w.inbound["sha256"]]} for w in batch for row in w.submissions]
    if submissions:
        conn.execute(_INSERT_SUBMISSION, submissions)
    outbox = [row for w in batch for row in w.outbox]
    if outbox:
        insert_outbox(conn, outbox)


def insert_outbox(conn: Connection, rows: list[dict[str, Any]]) -> None:
    conn.execute(_INSERT_OUTBOX, rows)


@lru_cache(maxsize=4)
def _insert_outbox_once(dialect: str):
    once: Insert
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        once = postgresql_insert(OUTBOX).on_conflict_do_nothing(index_elements=["message_id"])
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        once = sqlite_insert(OUTBOX).on_conflict_do_nothing(index_elements=["message_id"])
    return once.returning(OUTBOX.c.id)


def insert_outbox_once(conn: Connection, row: dict[str, Any]) -> bool:
    """Queue ``row`` unless a message with its Message-ID is queued already (by this process or
    another daemon, committed or not: on PostgreSQL the insert waits for the other transaction);
    True if it was queued here."""
    return conn.execute(_insert_outbox_once(conn.dialect.name), row).first() is not None
