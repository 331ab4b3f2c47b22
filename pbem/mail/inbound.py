"""Reading a player's message: find the order file and its signature, whatever the client did.

Handles inline orders followed by an armored signature, an orders attachment
beside a detached ``.sig`` attachment, quoted-printable and base64 bodies,
any declared charset, ``format=flowed`` soft line breaks, and HTML-only
mail.  Recognises auto-replies, bounces and the server's own mail so that
nothing is ever answered in a loop.
"""
from __future__ import annotations

import email
import html
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parseaddr

from pbem.core.orders import COMMAND_MAGIC, MAGIC
from pbem.crypto.sshsig import BEGIN, END

#: Header the server puts on everything it sends, to recognise its own mail.
SERVER_HEADER = "X-PBEM-Server"


class MailError(ValueError):
    """The message cannot be read as mail; ``code`` is a problem code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SignedText:
    """An order (or command) file found in a message, with its signature if any."""

    text: str  # as found (not yet canonical)
    signature: str | None
    where: str  # "message body" or "attachment orders.txt"


@dataclass
class Inbound:
    """What the intake needs from a message."""

    message_id: str
    sender: str
    subject: str
    automatic: str | None  # why the message is machine-generated, or None
    from_server: bool
    found: list[SignedText] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: a line ending in a space continues on the next."""
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line.rstrip() != "-- ":
            buf += line[:-1] if delsp else line
        else:
            out.append(buf + line)
            buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


def _html_to_text(markup: str) -> str:
    markup = re.sub(r"(?is)<(script|style).*?</\1>", "", markup)
    markup = re.sub(r"(?i)<br\s*/?>|</(p|div|pre|li|tr|h\d)>", "\n", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).replace("\xa0", " ")


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name: read it as UTF-8 rather than fail
        text = payload.decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_param("format", "").lower() == "flowed":
        text = _unflow(text, part.get_param("delsp", "no").lower() == "yes")
    if part.get_content_type() == "text/html":
        text = _html_to_text(text)
    return text


def _automatic(msg: Message, sender: str) -> str | None:
    auto = str(msg.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if str(msg.get("Precedence", "")).strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {msg.get('Precedence')}"
    for h in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress"):
        if msg.get(h) is not None and h != "X-Auto-Response-Suppress":
            return f"{h} header"
    if msg.get_content_type() == "multipart/report":
        return "delivery or read report"
    local = sender.split("@")[0].lower()
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"sent by {sender}"
    if str(msg.get("Return-Path", "")).strip() == "<>":
        return "empty Return-Path (a bounce)"
    return None


def _find_in_text(text: str, where: str) -> SignedText | None:
    lines = text.split("\n")
    start = next((i for i, ln in enumerate(lines) if ln.strip() in (MAGIC, COMMAND_MAGIC)), None)
    if start is None:
        return None
    end = next((i for i in range(start, len(lines)) if lines[i].strip() == BEGIN), None)
    if end is None:
        return SignedText("\n".join(lines[start:]), None, where)
    stop = next((i for i in range(end, len(lines)) if lines[i].strip() == END), None)
    signature = "\n".join(ln.strip() for ln in lines[end:(stop + 1 if stop is not None else len(lines))])
    return SignedText("\n".join(lines[start:end]), signature + "\n", where)


def read_message(raw: bytes) -> Inbound:
    """Parse raw RFC 5322 bytes.

    A bare signed order file (no mail headers) is accepted too, so an MTA
    pipe and a player's own file go the same way.

    :raises MailError: the bytes are not text that could hold an order file.
    """
    if raw.lstrip().startswith(MAGIC.encode()) or raw.lstrip().startswith(COMMAND_MAGIC.encode()):
        text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
        found = _find_in_text(text, "file")
        return Inbound("", "", "", None, False, [found] if found else [])
    # compat32, the parser's classic policy, is several times faster than policy.default's
    # header registry, and intake reads only a few headers.
    try:
        msg = email.message_from_bytes(raw)
    except Exception as exc:  # the parser is lenient; this is truly broken input
        raise MailError("mail/unreadable", f"the message cannot be parsed as mail: {exc}") from None
    if not msg.keys() and not raw.strip():
        raise MailError("mail/unreadable", "the message is empty")
    try:
        sender = parseaddr(str(msg.get("From", "")))[1].lower()
        message_id = str(msg.get("Message-ID", "")).strip()
        subject = str(make_header(decode_header(str(msg.get("Subject", "")))))
    except Exception:  # malformed headers: keep going with what can be read
        sender, message_id, subject = "", "", ""
    # Replies go to the registered address of the signer, never to one the message names (Reply-To).
    result = Inbound(message_id, sender, subject, _automatic(msg, sender), msg.get(SERVER_HEADER) is not None)

    texts: list[tuple[str, str, str]] = []  # (text, where, filename)
    signatures: list[tuple[str, str]] = []  # (armored, filename)
    html_parts: list[tuple[str, str]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        try:
            filename = part.get_filename() or ""
        except Exception:  # a broken RFC 2231 name (a NUL in its charset raises ValueError): an unnamed part
            filename = ""
        try:
            if filename.endswith((".sig", ".asc")) or (ctype == "application/pgp-signature"):
                signatures.append((_part_text(part), filename))
            elif ctype == "text/plain" or filename.endswith(".txt"):
                where = f"attachment {filename}" if filename else "message body"
                texts.append((_part_text(part), where, filename))
            elif ctype == "text/html":
                html_parts.append((_part_text(part), "message body (HTML)"))
        except Exception as exc:  # one undecodable part must not hide the others
            result.notes.append(f"a part of type {ctype} could not be decoded ({exc.__class__.__name__})")
    if not texts:
        texts = [(t, w, "") for t, w in html_parts]
    for text, where, filename in texts:
        found = _find_in_text(text, where)
        if found is None:
            continue
        if found.signature is None:
            detached = [s for s, name in signatures if BEGIN in s and (not filename or name.startswith(filename))]
            detached = detached or [s for s, _ in signatures if BEGIN in s]
            if detached:
                found = SignedText(found.text, detached[0], where + " with a detached signature")
        result.found.append(found)
    return result
