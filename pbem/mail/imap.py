"""Taking mail from an IMAP mailbox (a provider's, or Dovecot's), waking on IDLE where offered.

A message is ingested (stored and answered, one transaction) *before* it is
moved to the processed folder, so a crash in between only makes the next
poll see it again, and the intake recognises it as a duplicate.  Nothing is
deleted until it is stored.  Copies of the server's own mail (which confirm
its delivery, see :mod:`pbem.delivery`) are deleted once recorded: the outbox
keeps their bytes.

Every message in the mailbox is taken, read or not: a GM who glances at the
game's mailbox on a phone marks mail ``\\Seen`` and must not lose a player's
orders by it.  Only a message someone flagged ``\\Deleted`` is left alone.
The poll removes only the messages it took, by UID (``UID MOVE``, or ``UID
EXPUNGE`` of UIDPLUS), never by a plain ``EXPUNGE``, which would also purge
whatever else is flagged deleted.  With ``processed = ""`` messages stay in
place, flagged ``\\Seen`` and with the keyword ``$PbemTaken`` by which later
polls pass over them.
"""
from __future__ import annotations

import imaplib
import io
import logging
import re
import select
import ssl
from dataclasses import dataclass

from pbem.mail.inbound import read_capped

log = logging.getLogger("pbem.intake")

_UID = re.compile(rb"UID (\d+)")
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")

#: The keyword that marks a message taken, where taken messages stay in the mailbox (``processed = ""``).
TAKEN = "$PbemTaken"


@dataclass
class ImapSource:
    host: str
    port: int = 993
    tls: bool = True
    starttls: bool = False
    username: str = ""
    password: str = ""
    mailbox: str = "INBOX"
    processed: str = "pbem-processed"  # moved here after ingesting; "" keeps them, marked \Seen
    cafile: str = ""
    #: messages larger than this are read in pieces, keeping only their beginning (0: no cap)
    max_bytes: int = 0

    @classmethod
    def from_config(cls, home) -> "ImapSource | None":
        cfg = home.section("imap")
        if not cfg.get("host"):
            return None
        password = cfg.get("password", "")
        if cfg.get("password_file"):
            password = (home.path / cfg["password_file"]).read_text().strip()
        return cls(host=cfg["host"], port=int(cfg.get("port", 993 if cfg.get("tls", True) else 143)),
                   tls=bool(cfg.get("tls", True)), starttls=bool(cfg.get("starttls", False)),
                   username=cfg.get("username", ""), password=password, mailbox=cfg.get("mailbox", "INBOX"),
                   processed=cfg.get("processed", "pbem-processed"), cafile=cfg.get("cafile", ""),
                   max_bytes=home.max_message_bytes)

    def _context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.cafile or None)

    def connect(self) -> imaplib.IMAP4:
        conn: imaplib.IMAP4
        if self.tls:
            conn = imaplib.IMAP4_SSL(self.host, self.port, ssl_context=self._context(), timeout=60)
        else:
            conn = imaplib.IMAP4(self.host, self.port, timeout=60)
            if self.starttls:
                conn.starttls(ssl_context=self._context())
        conn.login(self.username, self.password)
        _refresh_capabilities(conn)  # servers add MOVE, UIDPLUS... once logged in
        if self.processed:
            conn.create(self.processed)  # harmless "already exists" when it does
        typ, _ = conn.select(self.mailbox)
        if typ != "OK":
            raise imaplib.IMAP4.error(f"cannot open mailbox {self.mailbox!r}")
        return conn

    def poll(self, ingest_many, conn: imaplib.IMAP4 | None = None, batch: int = 200) -> list:
        """Ingest every message not yet taken (whatever its flags but ``\\Deleted``); return the verdicts.

        ``ingest_many(raws)`` must store the batch before returning; only then are the messages
        moved (or marked), so a crash in between makes the next poll read them again.
        """
        own = conn is None
        conn = conn or self.connect()
        verdicts = []
        try:
            typ, data = conn.uid("SEARCH", "UNDELETED" if self.processed else f"UNDELETED UNKEYWORD {TAKEN}")
            uids = (data[0] or b"").split() if typ == "OK" else []
            for start in range(0, len(uids), batch):
                fetched = []
                sizes = self._sizes(conn, uids[start:start + batch])
                for uid in uids[start:start + batch]:
                    raw = self._fetch(conn, uid, sizes.get(uid, 0))
                    if raw is None:
                        log.warning("IMAP: could not fetch UID %s; will retry", uid.decode())
                        continue
                    fetched.append((uid, raw))
                taken = ingest_many([raw for _, raw in fetched])
                verdicts += taken
                # a copy of our own mail, now recorded, is a receipt: deleted, not kept
                receipts = [uid for (uid, _), v in zip(fetched, taken) if v.status == "confirmed"]
                kept = [uid for (uid, _), v in zip(fetched, taken) if v.status != "confirmed"]
                self._remove(conn, receipts)
                self._file(conn, kept)
        finally:
            if own:
                _close(conn)
        return verdicts

    def _sizes(self, conn: imaplib.IMAP4, uids: list[bytes]) -> dict[bytes, int]:
        """Each message's size, in one round trip for the batch (only when a cap is set)."""
        if not self.max_bytes or not uids:
            return {}
        typ, data = conn.uid("FETCH", _uid_set(uids), "(RFC822.SIZE)")
        sizes = {}
        for line in data if typ == "OK" else ():
            if isinstance(line, bytes) and (m := _SIZE.search(line)) and (u := _UID.search(line)):
                sizes[u.group(1)] = int(m.group(1))
        return sizes

    def _fetch(self, conn: imaplib.IMAP4, uid: bytes, size: int) -> bytes | None:
        if self.max_bytes and size > self.max_bytes:
            # read in pieces, so a 30 MB message costs the cap, not 30 MB (see read_capped)
            return read_capped(_PartialBody(conn, uid), self.max_bytes, chunk=1 << 20)
        typ, parts = conn.uid("FETCH", uid.decode("ascii"), "(BODY.PEEK[])")
        raw = next((p[1] for p in parts if isinstance(p, tuple)), None) if typ == "OK" else None
        return raw

    def _file(self, conn: imaplib.IMAP4, uids: list[bytes]) -> None:
        """Mark taken messages read, then move them to the processed folder (or keep them, marked taken)."""
        if not uids:
            return
        uid_set = _uid_set(uids)
        if not self.processed:
            conn.uid("STORE", uid_set, "+FLAGS.SILENT", f"(\\Seen {TAKEN})")
            return
        conn.uid("STORE", uid_set, "+FLAGS.SILENT", "(\\Seen)")
        if "MOVE" in conn.capabilities and conn.uid("MOVE", uid_set, self.processed)[0] == "OK":
            return
        if conn.uid("COPY", uid_set, self.processed)[0] == "OK":
            self._remove(conn, uids)

    def _remove(self, conn: imaplib.IMAP4, uids: list[bytes]) -> None:
        """Delete exactly these messages: flagged, then expunged by UID, never anyone else's deleted mail."""
        if not uids:
            return
        uid_set = _uid_set(uids)
        conn.uid("STORE", uid_set, "+FLAGS.SILENT", "(\\Deleted)")
        if "UIDPLUS" in conn.capabilities:
            conn.uid("EXPUNGE", uid_set)
        else:  # a plain EXPUNGE would purge others' deleted mail too: leave them flagged for the mail client
            log.info("IMAP: the server lacks UIDPLUS; %d taken message(s) stay flagged \\Deleted", len(uids))

    @staticmethod
    def idle(conn: imaplib.IMAP4, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for new mail with IMAP IDLE (RFC 2177); True if some arrived.

        Python 3.11's imaplib has no IDLE, so this speaks it directly; a server
        without IDLE makes it return False at once and the caller polls instead.
        """
        if "IDLE" not in conn.capabilities:
            return False
        tag = conn._new_tag()
        conn.send(tag + b" IDLE\r\n")
        if not conn.readline().startswith(b"+"):
            return False
        ready, _, _ = select.select([conn.sock], [], [], timeout)
        arrived = False
        if ready:
            line = conn.readline()
            arrived = b"EXISTS" in line or b"RECENT" in line
        conn.send(b"DONE\r\n")
        while True:  # read to the tagged end of IDLE (untagged lines may come first)
            line = conn.readline()
            if not line or line.startswith(tag):
                break
            arrived = arrived or b"EXISTS" in line
        return arrived


def _uid_set(uids: list[bytes]) -> str:
    """UIDs as an IMAP sequence set; imaplib sends a str argument as its ASCII bytes, so on the wire
    this is the same as joining the bytes."""
    return b",".join(uids).decode("ascii")


def _refresh_capabilities(conn: imaplib.IMAP4) -> None:
    typ, data = conn.capability()
    if typ == "OK" and data and data[-1]:
        conn.capabilities = tuple(data[-1].decode("ascii", "replace").upper().split())


def _close(conn: imaplib.IMAP4) -> None:
    try:
        conn.close()
        conn.logout()
    except (imaplib.IMAP4.error, OSError):
        pass


class _PartialBody(io.RawIOBase):
    """One message's body as a stream, each read a partial FETCH (``BODY.PEEK[]<offset.length>``)."""

    def __init__(self, conn: imaplib.IMAP4, uid: bytes) -> None:
        self.conn, self.uid, self.offset = conn, uid, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = n if n > 0 else 1 << 20
        typ, parts = self.conn.uid("FETCH", self.uid.decode("ascii"), f"(BODY.PEEK[]<{self.offset}.{n}>)")
        data = next((p[1] for p in parts if isinstance(p, tuple)), b"") if typ == "OK" else b""
        if typ != "OK":
            raise imaplib.IMAP4.error(f"cannot fetch UID {self.uid.decode()} at {self.offset}")
        self.offset += len(data)
        return data
