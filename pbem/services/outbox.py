"""The outbox: every message the server sends is a row first (queued in the transaction that decided
it), composed and signed once, then settled by :mod:`pbem.delivery` (sent, retried, failed)."""
from __future__ import annotations

import json
from datetime import datetime
from email.mime.text import MIMEText
from html import escape
from typing import Any
from collections.abc import Mapping

from sqlalchemy import bindparam, update
from sqlmodel import Session, col, select

from pbem.mail.compose import as_bytes, compose, message_id
from pbem.services.deps import Deps
from pbem.store import writes as store_writes
from pbem.store.models import Game, Outbox
from pbem.store.times import aware


def outbox_row(*, kind: str, to: str, subject: str, text: str, html: str, msg_id: str, now: datetime,
               game_id: str = "", in_reply_to: str = "", png: bytes | None = None,
               form: str | None = None, ack: Mapping[str, Any] | None = None,
               forms: list[list[str]] | None = None) -> dict[str, Any]:
    """The values of one queued message, ready to insert (``forms``: more order forms, [file name, text],
    as a digest of several games carries)."""
    parts: dict[str, Any] = {"text": text, "html": html, "form": form, "in_reply_to": in_reply_to}
    if forms:
        parts["forms"] = forms
    if ack is not None:  # kept to render the ack again should its phase resolve before it is sent
        parts["ack"] = ack
    return {"created_at": now, "game_id": game_id, "kind": kind, "to_addr": to, "subject": subject,
            "message_id": msg_id, "parts_json": json.dumps(parts, ensure_ascii=False), "png": png, "raw": None,
            "state": "queued", "attempts": 0, "not_before": now, "sent_at": None, "last_error": ""}


class OutboxService:
    """Queue messages, compose them, settle their rows; tell the GM what needs a human."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def message_id(self, *parts: Any) -> str:
        """A Message-ID of the server's domain, the same for the same parts (so a retry is idempotent)."""
        return message_id(*parts, domain=self.deps.domain)

    def queue(self, s: Session, **row: Any) -> None:
        """Queue one message in the session's transaction (see :func:`outbox_row` for the fields)."""
        store_writes.insert_outbox(s.connection(), [outbox_row(**row)])

    def queue_once(self, s: Session, **row: Any) -> bool:
        """Queue one message unless its Message-ID is queued already (another daemon may have queued
        the same message at the same moment); True if it was queued here."""
        return store_writes.insert_outbox_once(s.connection(), outbox_row(**row))

    def notify_gm(self, s: Session, game: Game, subject: str, text: str, now: datetime) -> None:
        """Queue a notice about ``game`` for the GM, if there is one."""
        gm = self.deps.gm_address
        if gm:
            self.queue(s, kind="notice", to=gm, subject=f"[{game.id}] {subject}", text=text + "\n",
                       html=f"<pre>{text}</pre>", msg_id=self.message_id("gm", game.id, game.journal_head, subject),
                       now=now, game_id=game.id)

    def compose(self, row: Outbox) -> bytes:
        """The message as it was (or will be) sent: composed from its parts, signed by the server."""
        if row.raw is not None:
            return row.raw
        parts = json.loads(row.parts_json)
        home = self.deps.home
        mail = compose(server_name=home.section("server").get("name", "pbem"),
                       server_address=home.address, to=row.to_addr, subject=row.subject,
                       text=parts["text"], html=parts["html"], msg_id=row.message_id,
                       now=aware(row.created_at), game_id=row.game_id, kind=row.kind,
                       in_reply_to=parts.get("in_reply_to", ""), png=row.png, form=parts.get("form"),
                       key=self.deps.key)
        for name, form in parts.get("forms", []):  # before the server's signature, after the body
            attachment = MIMEText(form, "plain", "utf-8")
            attachment.add_header("Content-Disposition", "attachment", filename=name)
            payload = mail.get_payload()
            assert isinstance(payload, list)
            payload.insert(len(payload) - 1 if self.deps.key is not None else len(payload), attachment)
        return as_bytes(mail)

    def report_bounce(self, row: Outbox, error: str, *, hint: str | None = None) -> None:
        """Tell the GM, once per message, that it fails for good (the player may have changed address).

        ``hint`` replaces the advice to fix the address, for a failure that is not the address's.
        """
        gm = self.deps.gm_address
        if not gm:
            return
        with self.deps.session() as s:
            game = s.get(Game, row.game_id) if row.game_id else None
            hint = hint or "Fix the address with `pbem gm replace`, then `pbem gm resend`."
            text = f"Mail to {row.to_addr} ({row.kind} {row.message_id}) failed permanently:\n{error}\n\n{hint}"
            mid = self.message_id("bounce", row.message_id)
            if s.exec(select(Outbox.id).where(Outbox.message_id == mid)).first() is None:
                # the error is the relay's or an exception's text, not ours: escaped in the HTML
                self.queue(s, kind="notice", to=gm, subject=f"[{row.game_id or 'pbem'}] undeliverable: "
                           f"{row.to_addr}", text=text, html=f"<pre>{escape(text)}</pre>", msg_id=mid,
                           now=self.deps.clock(), game_id=game.id if game else "")
                s.commit()

    # ------------------------------------------------------------ settling rows (pbem.delivery drives these)
    def fix_bytes(self, fixed: Mapping[int, bytes], broken: Mapping[int, str]) -> None:
        """Store composed bytes of claimed rows (never over bytes already fixed), and fail the rows that
        could not be composed; one statement per kind, not a load and an update per row."""
        if not fixed and not broken:
            return
        with self.deps.session() as s:
            conn = s.connection()
            if fixed:
                conn.execute(update(Outbox).where(col(Outbox.id) == bindparam("row_id"),
                                                  col(Outbox.raw).is_(None))
                             .values(raw=bindparam("bytes")),
                             [{"row_id": row_id, "bytes": raw} for row_id, raw in fixed.items()])
            if broken:
                conn.execute(update(Outbox).where(col(Outbox.id) == bindparam("row_id"))
                             .values(state="failed", last_error=bindparam("error"), not_before=None),
                             [{"row_id": row_id, "error": error[:2000]} for row_id, error in broken.items()])
            s.commit()

    def settle(self, row_id: int, state: str, error: str, not_before: datetime | None,
               sent_at: datetime | None = None) -> None:
        """Record a claimed row's fate: ``sent``, ``queued`` again (a retry) or ``failed``."""
        with self.deps.session() as s:
            row = s.get(Outbox, row_id)
            assert row is not None, row_id  # rows are never deleted
            row.state, row.last_error, row.not_before = state, error[:2000], not_before
            if sent_at is not None:
                row.sent_at = sent_at
            s.add(row)
            s.commit()

    def release(self, row_ids: list[int], now: datetime, error: str = "") -> None:
        """Hand claimed rows back at once, their attempt not counted: the transport failed, not they."""
        if not row_ids:
            return
        with self.deps.session() as s:
            for row_id in row_ids:
                row = s.get(Outbox, row_id)
                if row is None or row.state != "sending":  # confirmed meanwhile by its copy
                    continue
                row.state, row.attempts, row.not_before = "queued", max(0, row.attempts - 1), now
                if error:
                    row.last_error = error[:2000]
                s.add(row)
            s.commit()
