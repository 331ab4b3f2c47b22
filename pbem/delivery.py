"""Sending the outbox: to a Maildir (the embedded default) or over SMTP, with retries.

A row is claimed by moving it to ``sending`` with a lease (``not_before`` set
a few minutes ahead) in a transaction that does nothing else (how, among
several daemons, is :mod:`pbem.store.claim`'s to say); its bytes are
then composed, one message at a time, and fixed in the next transaction;
only then is it sent, and marked ``sent`` the moment the receiver takes it
(before SMTP's QUIT).  A daemon that dies mid-send leaves the row claimed
until the lease runs out, then any daemon sends the same bytes again.

One message never stops another.  A message that cannot be composed, or that
the transport fails on for a reason of its own (a 5xx, an address the relay
cannot take, a bug), is kept with its error, failed once it fails for good,
and reported to the GM once; the others go.  A failure of the transport as a
whole (:class:`TransportDown`: the outbox unwritable, the disk full, the
relay unreachable or refusing our login) ends the pass and hands the claimed
rows straight back, attempt uncounted, for the next pass.

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

import contextlib
import hashlib
import logging
import os
import re
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable, Protocol

from pbem.services.outbox import OutboxService
from pbem.store.claim import LEASE, MAX_INTERRUPTED, claim_outbox
from pbem.store.models import Outbox
from pbem.store.times import aware

log = logging.getLogger("pbem.smtp")

#: Give up on a message after this long of temporary failures, and tell the GM.
DELIVER_FOR = timedelta(days=5)


class TemporaryFailure(Exception):
    """Try again later (network down, 4xx)."""


class PermanentFailure(Exception):
    """Never try again (5xx for the recipient)."""


class TransportDown(TemporaryFailure):
    """The transport as a whole failed (outbox unwritable, disk full, relay unreachable, login refused).

    No message can go now, whichever it is: the pass stops and hands its messages back for the next one.
    """


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
        try:
            with open(tmp, "wb") as fh:
                fh.write(raw)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.root / "new" / name)  # atomic: readers never see half a message
        except OSError as exc:  # unwritable, full, gone: true of every message, not of this one
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise TransportDown(f"cannot write to the outbox {self.root}: {exc.strerror or exc}") from None
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
        client = self._open()
        try:
            self._transaction(client, raw, to)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [c for c, _ in exc.recipients.values()]
            if all(500 <= c < 600 for c in codes):
                raise PermanentFailure(f"recipient refused: {exc.recipients}") from None
            raise TemporaryFailure(f"recipient deferred: {exc.recipients}") from None
        except smtplib.SMTPResponseException as exc:
            if exc.smtp_code == 421 or (isinstance(exc, smtplib.SMTPSenderRefused) and exc.smtp_code < 500):
                raise TransportDown(f"{exc.smtp_code} {exc.smtp_error!r}") from None  # the relay, not this message
            if 500 <= exc.smtp_code < 600:
                raise PermanentFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
            raise TemporaryFailure(f"{exc.smtp_code} {exc.smtp_error!r}") from None
        except (OSError, smtplib.SMTPException) as exc:  # the connection broke mid-transaction
            raise TransportDown(f"{exc.__class__.__name__}: {exc}") from None
        else:
            if accepted:
                # recorded before QUIT: a crash while saying goodbye must not send the message again
                accepted()
        finally:
            _quit(client)

    def _open(self) -> smtplib.SMTP:
        """Connect, greet, secure and log in; any failure here is the relay's, whatever the message."""
        client: smtplib.SMTP | None = None
        try:
            if self.tls:
                client = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=self._context())
            else:
                client = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            if self.starttls and not self.tls:
                client.starttls(context=self._context())
            if self.username:
                self._login(client)
            client.ehlo_or_helo_if_needed()
            return client
        except smtplib.SMTPAuthenticationError as exc:
            if client is not None:
                _quit(client)
            raise TransportDown(f"SMTP login refused ({exc.smtp_code}); check [smtp] username/password") from None
        except (OSError, smtplib.SMTPException, ValueError) as exc:
            if client is not None:
                _quit(client)
            raise TransportDown(f"{exc.__class__.__name__}: {exc}") from None

    def _transaction(self, client: smtplib.SMTP, raw: bytes, to: str) -> None:
        """One SMTP transaction: the player, then (if the player was accepted) the confirmation copy.

        ``sendmail`` would go on to DATA when any recipient is accepted; a copy that comes back
        must prove the player's delivery, so a refused player ends the transaction here.
        """
        options = []
        if not all(a.isascii() for a in (self.sender, to, self.copy_to)):
            # an internationalised address (RFC 6531/6532) goes only to a relay that says it takes one
            if not client.has_extn("smtputf8"):
                raise PermanentFailure(f"the address {to!r} (or the server's own) is not ASCII and the relay "
                                       "does not offer SMTPUTF8; ask the player for an ASCII address")
            options = ["SMTPUTF8", "BODY=8BITMIME"] if client.has_extn("8bitmime") else ["SMTPUTF8"]
        code, resp = client.mail(self.sender, options)
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


def _quit(client: smtplib.SMTP) -> None:
    """Say goodbye, ignoring a relay that hangs up first: the message's fate is already known."""
    try:
        client.quit()
    except (OSError, smtplib.SMTPException):
        client.close()


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


#: A message whose sending raised something unforeseen (a bug, an address smtplib cannot encode) is tried
#: this many times, then failed and reported: it must not come back after every lease forever.
MAX_ERRORS = 3
#: Rows claimed in one transaction.
BATCH = 50

__all__ = ["BATCH", "DELIVER_FOR", "LEASE", "MAX_ERRORS", "MAX_INTERRUPTED", "MaildirTransport", "PermanentFailure",
           "SmtpTransport", "TemporaryFailure", "Transport", "TransportDown", "backoff", "deliver", "transport_for"]


class HasOutbox(Protocol):
    """What :func:`deliver` is given: the server, or anything else that holds the outbox service."""

    @property
    def outbox(self) -> OutboxService: ...


@dataclass
class _Pass:
    """What one call of :func:`deliver` did."""

    sent: int = 0
    failed: int = 0
    down: str = ""  # why the transport as a whole failed: stop until the next pass


def deliver(server: HasOutbox, transport: Transport | None = None, limit: int = 500) -> tuple[int, int]:
    """Send what is due; return (sent, failed for good).

    Each message fails alone: one that cannot be composed or sent is kept with its error (and, once it
    fails for good, reported to the GM) while the others go.  A failure of the transport itself (the
    outbox unwritable, the disk full, the relay unreachable) ends the pass and hands the claimed
    messages straight back, so the next pass tries them without waiting out the lease.
    """
    outbox = server.outbox
    transport = transport or transport_for(outbox.deps.home)
    done = _Pass()
    while done.sent < limit and not done.down:
        now = outbox.deps.clock()
        rows = _claim(outbox, now, min(BATCH, limit - done.sent), done)
        if not rows:
            break
        rows = _compose(outbox, rows, done)
        for i, row in enumerate(rows):
            _send_one(outbox, transport, row, now, done)
            if done.down:
                outbox.release([r.id for r in rows[i + 1:] if r.id is not None], now, f"not tried: {done.down}")
                break
    return done.sent, done.failed


def _claim(outbox: OutboxService, now: datetime, limit: int, done: _Pass) -> list[Outbox]:
    """Claim due rows (see :func:`pbem.store.claim.claim_outbox`); report those given up after being
    interrupted :data:`MAX_INTERRUPTED` times, and claim again if that was all there was."""
    while True:
        taken = claim_outbox(outbox.deps.session, now, limit)
        for row in taken.given_up:
            log.warning("%s: given up after %d interrupted attempts", row.message_id, MAX_INTERRUPTED)
            _report(outbox, row, row.last_error)
            done.failed += 1
        if taken.claimed or not taken.given_up:
            return taken.claimed


def _compose(outbox: OutboxService, rows: list[Outbox], done: _Pass) -> list[Outbox]:
    """Fix each claimed row's bytes before its first try (every try sends these bytes); return the sendable rows.

    Composed outside the claim, one row at a time: a message that cannot be composed fails alone.
    Composing is deterministic, so such a message fails for good and the GM is told.
    """
    fixed: dict[int, bytes] = {}
    broken: dict[int, str] = {}
    for row in rows:
        if row.raw is not None or row.id is None:
            continue
        try:
            fixed[row.id] = outbox.compose(row)
        except Exception as exc:
            log.exception("%s: the message to %s cannot be composed; kept for the GM", row.message_id, row.to_addr)
            broken[row.id] = f"cannot be composed: {exc.__class__.__name__}: {exc}"
    outbox.fix_bytes(fixed, broken)
    for row in rows:
        if row.id in broken:
            _report(outbox, row, broken[row.id], hint="The message could not be built: a bug in pbem, please report it.")
            done.failed += 1
        elif row.raw is None and row.id in fixed:
            row.raw = fixed[row.id]
    return [row for row in rows if row.id not in broken]


def _send_one(outbox: OutboxService, transport: Transport, row: Outbox, now: datetime, done: _Pass) -> None:
    assert row.id is not None and row.raw is not None
    row_id = row.id
    taken = []

    def accepted() -> None:
        outbox.settle(row_id, "sent", "", None, sent_at=outbox.deps.clock())
        taken.append(True)
    try:
        transport.send(row.raw, row.to_addr, row.message_id, accepted)
    except TransportDown as exc:
        if not taken:
            log.warning("delivery stopped: %s; the messages claimed go out on the next pass", exc)
            outbox.release([row_id], now, str(exc))
            done.down = str(exc)
            return
    except TemporaryFailure as exc:
        if not taken:
            give_up = now - aware(row.created_at) > DELIVER_FOR
            log.info("%s: deferred for %s: %s", row.message_id, row.to_addr, exc)
            _fail_or_retry(outbox, row, str(exc), now, give_up, done)
            return
    except PermanentFailure as exc:
        if not taken:
            log.warning("%s: permanent failure to %s: %s", row.message_id, row.to_addr, exc)
            _fail_or_retry(outbox, row, str(exc), now, True, done)
            return
    except Exception as exc:  # unforeseen, and this message's own: it must not stop the others
        if not taken:
            log.exception("%s: sending to %s failed (attempt %d of %d)", row.message_id, row.to_addr,
                          row.attempts, MAX_ERRORS)
            _fail_or_retry(outbox, row, f"{exc.__class__.__name__}: {exc}", now, row.attempts >= MAX_ERRORS, done)
            return
    if not taken:  # a transport that does not report acceptance
        outbox.settle(row_id, "sent", "", None, sent_at=outbox.deps.clock())
    done.sent += 1


def _fail_or_retry(outbox: OutboxService, row: Outbox, error: str, now: datetime, give_up: bool,
                   done: _Pass) -> None:
    assert row.id is not None
    if give_up:
        outbox.settle(row.id, "failed", error, None)
        _report(outbox, row, error)
        done.failed += 1
    else:
        outbox.settle(row.id, "queued", error, now + backoff(row.attempts))


def _report(outbox: OutboxService, row: Outbox, error: str, hint: str | None = None) -> None:
    if row.kind != "notice":  # never report a failed report (no loops)
        outbox.report_bounce(row, error, hint=hint)
