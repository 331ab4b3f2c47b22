"""`pbem ingest -` as an MTA runs it: one process per message, so the process itself is the cost.

A club's MTA (Postfix ``pipe``, procmail, a ``.forward``) starts ``pbem ingest -`` for every message.
Starting the whole engine for that (the database layer, every ruleset, the templates, the imaging
library) costs far more than taking the message in.  So this path imports only the standard library:

* when the config names a daemon's LMTP listener (``[lmtp] listen``), the message is handed to that
  daemon over LMTP and the process exits: the daemon, warm, stores and answers it;
* when nobody listens there (no socket, connection refused, a 4xx or 5xx answer, a timeout), the
  caller takes the message in directly, as before;
* when neither works, the MTA gets exit status 75 (EX_TEMPFAIL) and keeps the message to try again.

The config is read here with tomllib alone: the full check (pydantic) runs on the direct path, and a
running daemon has checked the same file when it started.
"""
from __future__ import annotations

import os
import re
import socket
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

#: The exit status that makes an MTA keep a message and try again later (sysexits.h).
EX_TEMPFAIL = 75

#: Seconds to wait for the daemon at each step of the hand-off before falling back to direct intake.
TIMEOUT = 30.0

#: Standard input as :mod:`pbem.launch` read it (message, within the limit), and whether it tried the
#: daemon already: the command line takes the message from here instead of reading stdin again.
READ_ALREADY: tuple[bytes, bool] | None = None
TRIED = False

_EOL = re.compile(rb"\r\n|\r(?!\n)|\n")


@dataclass(frozen=True)
class PipeConfig:
    """What the pipe needs from config.toml: where a daemon listens, the size limit, the game address."""

    listen: str = ""
    max_bytes: int = 1 << 20
    address: str = "pbem@localhost"


def read_config(path: Path) -> PipeConfig:
    """The pipe's settings; defaults when the file is missing or broken (the direct path then says why)."""
    try:
        raw = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return PipeConfig()
    server, lmtp = raw.get("server", {}), raw.get("lmtp", {})
    max_bytes = server.get("max_message_bytes", 1 << 20)
    return PipeConfig(listen=str(lmtp.get("listen", "") or ""),
                      max_bytes=max_bytes if isinstance(max_bytes, int) and max_bytes > 0 else 1 << 20,
                      address=str(server.get("address", "pbem@localhost")))


def read_message(stream: BinaryIO, limit: int) -> tuple[bytes, bool]:
    """The message and whether it is within ``limit``, holding at most ``limit + 1`` bytes of it.

    An oversize one comes back as :func:`pbem.mail.inbound.read_capped` returns it (a
    :class:`~pbem.mail.inbound.Capped`: its beginning, with the whole one's size and SHA-256): the direct
    intake stores and refuses it.  Only that rare case imports the mail parser.
    """
    head = bytearray()
    while len(head) <= limit and (block := stream.read(limit + 1 - len(head))):
        head += block  # a pipe may return less than asked before its end
    if len(head) <= limit:
        return bytes(head), True
    import hashlib

    from pbem.mail.inbound import Capped

    digest, size = hashlib.sha256(head), len(head)
    while block := stream.read(1 << 16):  # the rest is read to its end and dropped
        digest.update(block)
        size += len(block)
    capped = Capped(head)
    del head
    capped.size, capped.sha256 = size, digest.hexdigest()
    return capped, False


class HandOffFailed(Exception):
    """The daemon did not take the message (nobody listens, or it answered other than 250)."""


def hand_off(listen: str, raw: bytes, *, sender: str = "", recipient: str = "pbem@localhost",
             timeout: float = TIMEOUT) -> str:
    """Deliver ``raw`` to the daemon listening on ``listen`` (``host:port`` or ``unix:/path``) over LMTP.

    Returns the daemon's 250 answer (``stored (accepted)``); raises :class:`HandOffFailed` otherwise, and
    then the daemon has not stored the message (LMTP answers after storing).  Should the connection break
    after the daemon stored it, the direct intake that follows finds it stored: a duplicate, never a loss.
    """
    try:
        with _connect(listen, timeout) as sock:
            return _LmtpSession(sock).deliver(raw, sender, recipient)
    except OSError as exc:
        raise HandOffFailed(f"no daemon answers on {listen}: {exc.__class__.__name__}: {exc}") from None


def _connect(listen: str, timeout: float) -> socket.socket:
    if listen.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(listen[5:])
        except OSError:
            sock.close()
            raise
        return sock
    host, _, port = listen.rpartition(":")
    return socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout)


class _LmtpSession:
    """The client side of one LMTP transaction (RFC 2033), just what one message needs."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.file = sock, sock.makefile("rb")

    def reply(self) -> tuple[int, str]:
        """One reply, its continuation lines (``250-...``) joined."""
        lines = []
        while True:
            line = self.file.readline(4096)
            if not line:
                raise HandOffFailed("the daemon closed the connection")
            lines.append(line[4:].strip().decode("utf-8", "replace"))
            if line[3:4] != b"-":
                try:
                    return int(line[:3]), " ".join(lines)
                except ValueError:
                    raise HandOffFailed(f"not an LMTP reply: {line[:80]!r}") from None

    def command(self, text: str, expect: int) -> str:
        self.sock.sendall(text.encode("utf-8") + b"\r\n")
        code, said = self.reply()
        if code != expect:
            raise HandOffFailed(f"the daemon answered {text.split()[0]} with {code} {said}")
        return said

    def deliver(self, raw: bytes, sender: str, recipient: str) -> str:
        code, said = self.reply()
        if code != 220:
            raise HandOffFailed(f"the daemon greeted with {code} {said}")
        self.command(f"LHLO {socket.gethostname() or 'localhost'}", 250)
        self.command(f"MAIL FROM:<{_envelope(sender)}>", 250)
        self.command(f"RCPT TO:<{_envelope(recipient)}>", 250)
        self.command("DATA", 354)
        self.sock.sendall(wire_data(raw))
        code, said = self.reply()  # one reply per recipient: there is one
        if code != 250:
            raise HandOffFailed(f"the daemon did not store the message: {code} {said}")
        try:
            self.command("QUIT", 221)
        except (OSError, HandOffFailed):
            pass  # stored already: how the daemon says goodbye does not matter
        return said


def _envelope(address: str) -> str:
    """An address fit for an envelope command (no brackets, no line breaks); the daemon does not use it."""
    return re.sub(r"[\s<>]", "", address)


def wire_data(raw: bytes) -> bytes:
    """``raw`` as DATA carries it: CR LF line ends, a dot doubled at a line's start, the final dot."""
    data = _EOL.sub(b"\r\n", raw)
    if data and not data.endswith(b"\r\n"):
        data += b"\r\n"
    return re.sub(rb"(?m)^\.", b"..", data) + b".\r\n"


def status_of(said: str) -> str:
    """The verdict in the daemon's answer (``2.0.0 stored (accepted)``: accepted)."""
    found = re.search(r"\((\w+)\)", said)
    return found.group(1) if found else "stored"


def envelope_sender() -> str:
    """The envelope sender an MTA's pipe passes in the environment (Postfix local and pipe, procmail)."""
    return os.environ.get("SENDER", "")
