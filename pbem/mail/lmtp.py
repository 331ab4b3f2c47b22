"""An LMTP listener (aiosmtpd) that an MTA such as Postfix delivers game mail to.

Answers 250 once the message is stored — whatever the verdict, since the
sender hears the verdict by mail — and 451 (try again later) only when pbem
could not store it, so the MTA keeps the message and nothing is lost.

Deliveries that arrive while others are being stored wait and are stored
together, in one transaction (group commit): a lone message is stored at
once, and a burst costs what a Maildir batch does rather than a transaction
per message.
"""
from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller, UnixSocketController
from aiosmtpd.lmtp import LMTP

log = logging.getLogger("pbem.intake")

#: At most this many deliveries share a transaction.
BATCH = 200


class IngestHandler:
    def __init__(self, ingest_many, max_bytes: int) -> None:
        self.ingest_many = ingest_many
        self.max_bytes = max_bytes
        self.waiting: list[tuple[bytes, asyncio.Future]] = []
        self.storing = False

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        n = max(1, len(envelope.rcpt_tos))
        stored = asyncio.get_running_loop().create_future()
        self.waiting.append((raw, stored))
        if not self.storing:
            self.storing = True
            asyncio.get_running_loop().create_task(self._store())
        try:
            verdict = await stored
        except Exception:  # storage down: make the MTA keep it and retry
            log.exception("LMTP: could not store a message; answered 451")
            return "\r\n".join(["451 4.3.0 pbem could not store the message; try again later"] * n)
        return "\r\n".join([f"250 2.0.0 stored ({verdict.status})"] * n)

    async def _store(self) -> None:
        """Store what is waiting, a batch at a time, until nothing is."""
        loop = asyncio.get_running_loop()
        try:
            while self.waiting:
                batch, self.waiting = self.waiting[:BATCH], self.waiting[BATCH:]
                try:
                    verdicts = await loop.run_in_executor(None, self.ingest_many, [raw for raw, _ in batch])
                except Exception as exc:
                    for _, stored in batch:
                        stored.set_exception(exc)
                    continue
                for (_, stored), verdict in zip(batch, verdicts):
                    stored.set_result(verdict)
        finally:
            self.storing = False


class _Inet(Controller):
    def factory(self):
        return LMTP(self.handler, **self.SMTP_kwargs)


class _Unix(UnixSocketController):
    def factory(self):
        return LMTP(self.handler, **self.SMTP_kwargs)


def start_lmtp(listen: str, ingest_many, max_bytes: int = 1 << 20):
    """Start a listener on ``host:port`` or ``unix:/path``; returns the running controller (call .stop()).

    ``ingest_many(raws)`` stores a batch and returns a verdict for each message, in order."""
    handler = IngestHandler(ingest_many, max_bytes)
    limit = max_bytes * 2  # oversize mail is stored and rejected by the intake itself
    ctl: _Unix | _Inet
    if listen.startswith("unix:"):
        ctl = _Unix(handler, unix_socket=listen[5:], data_size_limit=limit)
    else:
        host, _, port = listen.rpartition(":")
        ctl = _Inet(handler, hostname=host or "127.0.0.1", port=int(port), data_size_limit=limit)
    ctl.start()
    return ctl
