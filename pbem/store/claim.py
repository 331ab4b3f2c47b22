"""How one process, among several daemons on one database, claims a game's phase or an outbox row.

This is the only module that takes a claim; every service that changes a game or sends mail goes
through it, so "can two daemons both resolve this phase, or both send this message?" is answered here.

A game (its phase, its orders, its journal)
    :func:`claim_game` reads the game's row ``SELECT … FOR UPDATE``.  On PostgreSQL that row lock is
    held to the end of the transaction: a second daemon resolving or commanding the same game waits,
    then sees what the first committed.  SQLite has no row locks; it ignores ``FOR UPDATE`` and
    instead begins every writing transaction ``IMMEDIATE`` (see :mod:`pbem.store.db`), one writer at
    a time for the whole database.  Two SQLite processes may still both *read* a phase as complete
    before either writes; the journal's unique ``(game, seq)`` is the backstop: the second insert of
    the same entry fails, and :func:`run_claimed` starts the work again from what is stored.

    Intake claims a game the same way (:func:`claim_game_for_intake`), once per batch and game, so
    two daemons cannot both make orders current; on SQLite the identity map serves repeat look-ups.

A table rebuilt whole (the club's ratings)
    :func:`claim_table` takes the table for one writer: on PostgreSQL ``LOCK TABLE … IN EXCLUSIVE MODE``
    (readers go on; a second writer waits, then its delete sees what the first committed, so two daemons
    replacing every row never insert the same key twice); on SQLite the IMMEDIATE transaction already is
    one writer at a time.

An outbox row
    :func:`claim_outbox` moves due rows to ``sending`` with a lease (``not_before`` = now + :data:`LEASE`)
    in a transaction that does nothing else, choosing them ``FOR UPDATE SKIP LOCKED``: on PostgreSQL
    two daemons claiming at once take different rows and never wait for each other; on SQLite the
    IMMEDIATE transaction serialises the claims.  A row still ``sending`` after its lease belongs to a
    process that died while sending it: it is claimed again, one at a time and only when no fresh mail
    is due, and failed after :data:`MAX_INTERRUPTED` such claims in a row.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar
from collections.abc import Callable

from sqlalchemy import or_
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem.store.models import Game, Outbox

# The logger keeps the name it had when this lived in the server: operators filter on it.
log = logging.getLogger("pbem.server")

#: How long a claimed outbox row is the claimer's before another daemon may send it again.
LEASE = timedelta(minutes=10)
#: Claims of one message that never finished in a row (the process died while sending it) before it is
#: failed and reported rather than claimed again.
MAX_INTERRUPTED = 3

T = TypeVar("T")
_INTERRUPTED = re.compile(r"^interrupted (\d+) time")


class ClaimLost(Exception):
    """Another process wrote the same journal entry first, every time the work was tried."""


def claim_table(s: Session, table: str) -> None:
    """Hold ``table`` for this transaction's writes alone (see the module's docstring)."""
    if s.get_bind().dialect.name == "postgresql":
        s.connection().exec_driver_sql(f'LOCK TABLE "{table}" IN EXCLUSIVE MODE')


def claim_game(s: Session, game_id: str) -> Game | None:
    """The game's row, locked for the rest of the transaction (a row lock on PostgreSQL; on SQLite the
    transaction already holds the database's write lock).  None if there is no such game."""
    return s.exec(select(Game).where(Game.id == game_id).with_for_update()).first()


def claim_game_for_intake(s: Session, game_id: str, claimed: set[str]) -> Game | None:
    """The game's row for one intake batch, locked once per batch where the database has row locks.

    ``claimed`` is the batch's set of games locked so far; the next message of a game needs no query.
    """
    if game_id in claimed or s.get_bind().dialect.name == "sqlite":
        return s.get(Game, game_id)
    game = s.get(Game, game_id, with_for_update=True)
    claimed.add(game_id)  # held to the end of the transaction
    return game


def run_claimed(open_session: Callable[[], Session], game_id: str, work: Callable[[Session, Game | None], T],
                *, retries: int = 3) -> T:
    """Run ``work(session, game)`` with the game claimed, and commit what it did.

    When the journal's unique ``(game, seq)`` refuses an entry (two SQLite processes completed the same
    phase at once), the work starts again from what is stored, at most ``retries`` more times.

    :raises ClaimLost: when every try was refused.
    """
    for attempt in range(retries + 1):
        try:
            with open_session() as s:
                result = work(s, claim_game(s, game_id))
                s.commit()
                return result
        except IntegrityError:
            if attempt == retries:
                raise ClaimLost(f"{game_id}: the journal refused the entry {retries + 1} times") from None
            log.info("%s: advanced by another process at the same moment; reloading", game_id)
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


@dataclass
class OutboxClaim:
    """What one :func:`claim_outbox` took: rows now the claimer's, and rows failed for being interrupted."""

    claimed: list[Outbox] = field(default_factory=list)
    given_up: list[Outbox] = field(default_factory=list)


def claim_outbox(open_session: Callable[[], Session], now: datetime, limit: int) -> OutboxClaim:
    """Claim up to ``limit`` due rows in a transaction of its own: state ``sending``, ``attempts`` + 1, a lease.

    Fresh rows first; a row whose lease ran out only when none is due, one at a time, so that a message
    that kills the sender cannot hold up the others.
    """
    due = or_(col(Outbox.not_before).is_(None), col(Outbox.not_before) <= now)
    out = OutboxClaim()
    with open_session() as s:
        rows = s.exec(select(Outbox).where(Outbox.state == "queued", due).order_by(col(Outbox.id))
                      .limit(limit).with_for_update(skip_locked=True)).all()
        if not rows:
            rows = s.exec(select(Outbox).where(Outbox.state == "sending", due).order_by(col(Outbox.id))
                          .limit(1).with_for_update(skip_locked=True)).all()
        for row in rows:
            if row.state == "sending":
                times = interrupted(row.last_error) + 1
                row.last_error = f"interrupted {times} time(s) in a row: the sender stopped while sending this"
                if times >= MAX_INTERRUPTED:
                    row.state, row.not_before = "failed", None
                    out.given_up.append(row)
                    s.add(row)
                    continue
            row.state, row.attempts, row.not_before = "sending", row.attempts + 1, now + LEASE
            s.add(row)
            out.claimed.append(row)
        s.commit()
    return out


def interrupted(error: str) -> int:
    """How many claims in a row a row's last error says were interrupted."""
    m = _INTERRUPTED.match(error or "")
    return int(m.group(1)) if m else 0
