"""An LMTP listener (aiosmtpd) that an MTA such as Postfix delivers game mail to.

Answers 250 once the message is stored — whatever the verdict, since the
sender hears the verdict by mail — and 451 (try again later) only when pbem
could not store it, so the MTA keeps the message and nothing is lost.
"""
from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller, UnixSocketController
from aiosmtpd.lmtp import LMTP

log = logging.getLogger("pbem.intake")


class IngestHandler:
    def __init__(self, ingest, max_bytes: int) -> None:
        self.ingest = ingest
        self.max_bytes = max_bytes

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        n = max(1, len(envelope.rcpt_tos))
        try:
            verdict = await asyncio.get_running_loop().run_in_executor(None, self.ingest, raw)
        except Exception:  # storage down: make the MTA keep it and retry
            log.exception("LMTP: could not store a message; answered 451")
            return "\r\n".join(["451 4.3.0 pbem could not store the message; try again later"] * n)
        return "\r\n".join([f"250 2.0.0 stored ({verdict.status})"] * n)


class _Inet(Controller):
    def factory(self):
        return LMTP(self.handler, **self.SMTP_kwargs)


class _Unix(UnixSocketController):
    def factory(self):
        return LMTP(self.handler, **self.SMTP_kwargs)


def start_lmtp(listen: str, ingest, max_bytes: int = 1 << 20):
    """Start a listener on ``host:port`` or ``unix:/path``; returns the running controller (call .stop())."""
    handler = IngestHandler(ingest, max_bytes)
    kwargs = {"data_size_limit": max_bytes * 2}  # oversize mail is stored and rejected by the intake itself
    if listen.startswith("unix:"):
        ctl = _Unix(handler, unix_socket=listen[5:], server_kwargs=None, **kwargs)
    else:
        host, _, port = listen.rpartition(":")
        ctl = _Inet(handler, hostname=host or "127.0.0.1", port=int(port), **kwargs)
    ctl.start()
    return ctl
