"""Sending the outbox: to a Maildir (the embedded default) or over SMTP, with retries.

A row is claimed by moving it to ``sending`` with a lease (``not_before`` set
a few minutes ahead) in its own transaction, which also fixes the message's
bytes; only then is it sent, and marked ``sent`` the moment the receiver
takes it (before SMTP's QUIT).  A daemon that dies mid-send leaves the row
claimed until the lease runs out, then any daemon sends the same bytes again.

That alone is at least once: a daemon killed after the receiver took the
message and before our commit would send it twice, and SMTP offers no way to
ask the receiver afterwards.  So each message also goes, in the same SMTP
transaction, to the server's own address (``[smtp] confirm_by_copy``, on by
default).  The relay takes both recipients or neither, so when that copy
comes back in the server's mail the message was certainly taken: intake
(:class:`pbem.intake.ConfirmCopy`) marks its row sent, and a row in doubt
after a crash is sent again only if its copy has not come back by the end of
the lease.  The copy goes only in a transaction the player's address was
accepted for; if it is refused, the message still goes, unconfirmed.

Maildir delivery writes a file named after the Message-ID, so a second
attempt overwrites the first.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import smtplib
import socket
import ssl
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Callable, Protocol

from sqlalchemy import or_
from sqlmodel import select

from pbem.store.models import Outbox

log = logging.getLogger("pbem.smtp")

LEASE = timedelta(minutes=10)
#: Give up on a message after this long of temporary failures, and tell the GM.
DELIVER_FOR = timedelta(days=5)


class TemporaryFailure(Exception):
    """Try again later (network down, 4xx)."""


class PermanentFailure(Exception):
    """Never try again (5xx for the recipient)."""


class Transport(Protocol):
    def send(self, raw: bytes, to: str, message_id: str, accepted: Callable[[], None] | None = None) -> None:
        """Deliver; call ``accepted`` the moment the message is handed over, before any goodbye."""
        ...


@dataclass
class MaildirTransport:
    """Writes each message into a Maildir: one file per message, readable by any mail client."""

    root: Path

    def send(self, raw: bytes, to: str, message_id: str, accepted: Callable[[], None] | None = None) -> None:
        name = "pbem." + hashlib.sha256(message_id.encode()).hexdigest()[:40]
        tmp = self.root / "tmp" / name
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.root / "new" / name)  # atomic: readers never see half a message
        if accepted:
            accepted()


@dataclass
class SmtpTransport:
    host: str
    port: int = 587
    starttls: bool = True
    tls: bool = False
    username: str = ""
    password: str = ""
    sender: str = ""
    timeout: float = 30.0
    cafile: str = ""  # trust this CA (a club's own mail server); default: the system's
    copy_to: str = ""  # the server's own address: a copy in the same transaction confirms delivery

    def _context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.cafile or None)

    def send(self, raw: bytes, to: str, message_id: str, accepted: Callable[[], None] | None = None) -> None:
        # SMTP lines end in CRLF; smtplib does not convert the bare LFs of a stored message itself
        raw = re.sub(rb"(?<!\r)\n", b"\r\n", raw)
        try:
            if self.tls:
                client = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self._context())
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            with client:
                if self.starttls and not self.tls:
                    client.starttls(context=self._context())
                if self.username:
                    self._login(client)
                self._transaction(client, raw, to)
                if accepted:
                    # recorded before QUIT: a crash while saying goodbye must not send the message again
                    accepted()
        except smtplib.SMTPAuthenticationError as exc:
            # our own credentials are wrong: every message would fail alike, so keep them all queued
            raise TemporaryFailure(f"SMTP login refused ({exc.smtp_code}); check [smtp] username/password") from None
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [c for c, _ in exc.recipients.values()]
            if all(500 <= c < 600 for c in codes):
                raise PermanentFailure(f"recipient refused: {exc.recipients}") from None
            raise TemporaryFailure(f"recipient deferred: {exc.recipients}") from None
        except smtplib.SMTPResponseException as exc:
            if 500 <= exc.smtp_code < 600:
                raise PermanentFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
            raise TemporaryFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
        except (OSError, smtplib.SMTPException, socket.timeout) as exc:
            raise TemporaryFailure(f"{exc.__class__.__name__}: {exc}") from None


    def _transaction(self, client: smtplib.SMTP, raw: bytes, to: str) -> None:
        """One SMTP transaction: the player, then (if the player was accepted) the confirmation copy.

        ``sendmail`` would go on to DATA when any recipient is accepted; a copy that comes back
        must prove the player's delivery, so a refused player ends the transaction here.
        """
        client.ehlo_or_helo_if_needed()
        code, resp = client.mail(self.sender)
        if code != 250:
            client.rset()
            raise smtplib.SMTPSenderRefused(code, resp, self.sender)
        code, resp = client.rcpt(to)
        if code not in (250, 251):
            client.rset()
            raise smtplib.SMTPRecipientsRefused({to: (code, resp)})
        if self.copy_to and self.copy_to != to:
            code, resp = client.rcpt(self.copy_to)
            if code not in (250, 251):
                log.warning("the confirmation copy to %s was refused (%s %r); sending unconfirmed",
                            self.copy_to, code, resp)
        code, resp = client.data(raw)
        if code != 250:
            client.rset()
            raise smtplib.SMTPDataError(code, resp)

    def _login(self, client: smtplib.SMTP) -> None:
        client.ehlo_or_helo_if_needed()
        mechanisms = client.esmtp_features.get("auth", "").upper().split()
        if "PLAIN" in mechanisms:
            # one mechanism: smtplib.login() would try the next after a refusal, and some servers then hang
            client.user, client.password = self.username, self.password
            client.auth("PLAIN", client.auth_plain)
        else:
            client.login(self.username, self.password)


def transport_for(home) -> Transport:
    smtp = home.section("smtp")
    if smtp.get("host"):
        password = smtp.get("password", "")
        if smtp.get("password_file"):
            password = (home.path / smtp["password_file"]).read_text().strip()
        return SmtpTransport(host=smtp["host"], port=int(smtp.get("port", 587)),
                             starttls=bool(smtp.get("starttls", True)), tls=bool(smtp.get("tls", False)),
                             username=smtp.get("username", ""), password=password, sender=home.address,
                             cafile=str(home.path / smtp["cafile"]) if smtp.get("cafile") else "",
                             copy_to=home.address if smtp.get("confirm_by_copy", True) else "")
    return MaildirTransport(home.outbox)


def backoff(attempts: int) -> timedelta:
    return timedelta(minutes=min(240, 2 ** min(attempts, 8)))


def deliver(server, transport: Transport | None = None, limit: int = 500) -> tuple[int, int]:
    """Send what is due; return (sent, failed for good)."""
    transport = transport or transport_for(server.home)
    sent = failed = 0
    dead_mta_logged = False
    while True:
        now = server.clock()
        with server.session() as s:
            query = (select(Outbox).where(or_(Outbox.state == "queued", Outbox.state == "sending"),
                                          or_(Outbox.not_before == None, Outbox.not_before <= now))  # noqa: E711
                     .order_by(Outbox.id).limit(50).with_for_update(skip_locked=True))
            rows = s.exec(query).all()
            for row in rows:
                row.state, row.attempts, row.not_before = "sending", row.attempts + 1, now + LEASE
                if row.raw is None:
                    row.raw = server.outbox_bytes(row)  # fixed before the first try: every try sends these bytes
                s.add(row)
            s.commit()
        if not rows:
            break
        for row in rows:
            done = []

            def accepted(row=row, done=done):
                _finish(server, row.id, "sent", "", None, sent_at=server.clock())
                done.append(True)
            try:
                transport.send(row.raw, row.to_addr, row.message_id, accepted)
            except TemporaryFailure as exc:
                give_up = now - _aware(row.created_at) > DELIVER_FOR
                _finish(server, row.id, "failed" if give_up else "queued", str(exc), now + backoff(row.attempts))
                if not dead_mta_logged:  # a dead MTA is logged once per pass, not once per message
                    log.warning("delivery deferred (%s); will retry", exc)
                    dead_mta_logged = True
                failed += give_up
                continue
            except PermanentFailure as exc:
                log.warning("%s: permanent failure to %s: %s", row.message_id, row.to_addr, exc)
                _finish(server, row.id, "failed", str(exc), None)
                if row.kind != "notice":  # never report a failed report (no loops)
                    server.report_bounce(row, str(exc))
                failed += 1
                continue
            if not done:  # a transport that does not report acceptance
                _finish(server, row.id, "sent", "", None, sent_at=server.clock())
            sent += 1
            if sent >= limit:
                return sent, failed
        if dead_mta_logged:
            break
    return sent, failed


def _finish(server, row_id: int, state: str, error: str, not_before, sent_at=None) -> None:
    with server.session() as s:
        row = s.get(Outbox, row_id)
        row.state, row.last_error, row.not_before = state, error[:2000], not_before
        if sent_at is not None:
            row.sent_at = sent_at
        s.add(row)
        s.commit()


def _aware(when):
    from pbem.server import aware

    return aware(when)
