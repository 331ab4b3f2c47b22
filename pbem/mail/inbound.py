"""Reading a player's message: find the order file and its signature, whatever the client did.

Handles inline orders followed by an armored signature, an orders attachment
beside a detached ``.sig`` attachment, quoted-printable and base64 bodies,
any declared charset, ``format=flowed`` soft line breaks, and HTML-only
mail.  Recognises auto-replies, bounces and the server's own mail so that
nothing is ever answered in a loop.
"""
from __future__ import annotations

import email
import hashlib
import html
import re
from dataclasses import dataclass, field
from email.header import decode_header
from email.message import Message
from email.utils import collapse_rfc2231_value, parseaddr
from typing import Protocol

from pbem.core.orders import COMMAND_MAGIC, MAGIC
from pbem.crypto.sshsig import BEGIN, END

#: Header the server puts on everything it sends, to recognise its own mail.
SERVER_HEADER = "X-PBEM-Server"

#: How much of a message's header block is kept or read when the message itself is not (oversize mail).
HEADER_CAP = 64 << 10

#: Longest sender-written text quoted on one line (a Subject): a reply's header must stay well under
#: the 998-character line limit of RFC 5322 after "Re: " and folding.
LINE_CAP = 200

#: HTML beyond this many characters is not searched for orders (the message limit is 1 MiB by default).
HTML_CAP = 4 << 20

# Line breaks, C0/C1 controls, the bidi overrides and isolates that make a line display as something
# it is not, and lone surrogates (undecodable bytes, which no encoder can write); a run of them, or of
# whitespace, counts as one space.  One character class repeated: the match cannot backtrack, so
# cleaning is linear in the length of the text.
_UNSAFE_RUN = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def one_line(text: str, cap: int = 0) -> str:
    """Text a sender wrote, made safe to put on one line of a header or a signed reply.

    Every run of whitespace or control characters (CR, LF, NUL, escape, U+2028, bidi overrides...)
    becomes a single space, so nothing the sender writes can start a new header or a line of its own.
    With ``cap``, longer text is cut and ends in "…".
    """
    text = _UNSAFE_RUN.sub(" ", text).strip()
    if cap and len(text) > cap:
        text = text[:cap - 1].rstrip() + "…"
    return text


def has_control(text: str) -> bool:
    """Whether the text holds a line break or other control character (an address must not)."""
    return _CONTROL.search(text) is not None


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


_BREAKS = frozenset({"br", "/p", "/div", "/pre", "/li", "/tr", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6"})
_RAW_TEXT = ("script", "style")  # elements whose content is not text at all


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _opens_tag(markup: str, lt: int) -> bool:
    after = markup[lt + 1:lt + 2]
    return after.isalpha() or after in ("/", "!", "?")


def _html_to_text(markup: str) -> str:
    """The text of an HTML part, in one pass: every search starts where the last one ended.

    Regular expressions over hostile HTML (an unclosed ``<`` or ``<script>`` repeated) rescan the rest of
    the text at every candidate, which is quadratic: 200 kB took 18 s, 1 MB half an hour.  Here each ``find`` moves the
    position forward, and a search that fails ends the scan, so the cost is linear in the length.
    """
    markup = markup[:HTML_CAP]
    lower = markup.translate(_ASCII_LOWER)  # to find a closing </SCRIPT>; same length, unlike str.lower
    out: list[str] = []
    pos, n = 0, len(markup)
    while pos < n:
        lt = markup.find("<", pos)
        while lt >= 0 and not _opens_tag(markup, lt):  # as in a browser: "x < y" is text, not a tag
            lt = markup.find("<", lt + 1)
        if lt < 0:
            out.append(markup[pos:])
            break
        out.append(markup[pos:lt])
        gt = markup.find(">", lt + 1)
        if gt < 0:  # no tag can close after here: the rest is text, as a browser shows it
            out.append(markup[lt:])
            break
        name = lower[lt + 1:gt].strip().split(None, 1)[0].rstrip("/") if gt > lt + 1 else ""
        pos = gt + 1
        if name in _BREAKS:
            out.append("\n")
        elif name in _RAW_TEXT:
            end = lower.find(f"</{name}", pos)
            if end < 0:  # never closed: the rest is script, not text
                break
            close = markup.find(">", end)
            pos = n if close < 0 else close + 1
    return html.unescape("".join(out)).replace("\xa0", " ")


def _param(part: Message, name: str, default: str) -> str:
    """A Content-Type parameter as text, an RFC 2231 encoded one (``format*=''flowed``) decoded."""
    return collapse_rfc2231_value(part.get_param(name, default))


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):  # a leaf part decodes to bytes; anything else has no text
        payload = b""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name: read it as UTF-8 rather than fail
        text = payload.decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _param(part, "format", "").lower() == "flowed":
        text = _unflow(text, _param(part, "delsp", "no").lower() == "yes")
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


def _header(msg: Message, name: str) -> str:
    """A header's value as the sender wrote it, raw UTF-8 (RFC 6532) decoded as such.

    compat32 keeps undecodable bytes as surrogates and would hand them back as an "unknown-8bit"
    Header, which mangles ``jörg@exämple.de``; the raw item is read instead.
    """
    for key, value in msg.raw_items():
        if key.lower() == name.lower():
            if isinstance(value, str):
                value = value.encode("ascii", "surrogateescape").decode("utf-8", "surrogateescape")
            return str(value)
    return ""


#: A mail domain: dot-separated labels of letters (any script), digits and inner hyphens.
_DOMAIN = re.compile(r"^(?!-)[\w-]{1,63}(?<!-)(?:\.(?!-)[\w-]{1,63}(?<!-))*$")


def _sender(msg: Message) -> str:
    """The From address, exactly (lower-cased), or "" when there is none a reply could safely go to."""
    try:
        # str.strip() also drops the separator controls U+001C-U+001F, which the standard library's
        # strict parser reads as white space around the address (as the whole-path fuzz found)
        address = parseaddr(_header(msg, "From"))[1].strip().lower()
    except Exception:  # a malformed header: no address to answer
        return ""
    # A line break would put a header of the sender's choosing into the reply; bytes that are not UTF-8
    # (left as surrogates) are no address at all; nor is one longer than SMTP allows (RFC 5321: 254),
    # which would make a header line no relay takes.
    if has_control(address) or " " in address or len(address.encode("utf-8", "surrogatepass")) > 254:
        return ""
    # And it must be an address: a From of one encoded word parses as a bare "name", not local@domain.
    local, _, domain = address.rpartition("@")
    return address if local and _DOMAIN.match(domain) else ""


def _subject(msg: Message) -> str:
    """The decoded Subject on one line, without controls: it is quoted in reply headers and signed text."""
    raw = _header(msg, "Subject")
    try:
        text = "".join(_decoded(word, charset) for word, charset in decode_header(raw))
    except Exception:  # a malformed encoded word: show it as it came
        text = raw
    return one_line(text, LINE_CAP)


def _decoded(word: bytes, charset: str | None) -> str:
    # decode_header gives text outside encoded words as raw-unicode-escape bytes, which make_header
    # cannot take back when it is UTF-8 text (RFC 6532 mail); undone here, whatever the mix.
    if charset is None:
        return word.decode("raw-unicode-escape", "replace")
    try:
        return word.decode(charset, "replace")
    except LookupError:  # an unknown charset name: read it as UTF-8 rather than fail
        return word.decode("utf-8", "replace")


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
    sender, message_id, subject = _sender(msg), one_line(_header(msg, "Message-ID")), _subject(msg)
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
            filename = one_line(part.get_filename() or "", LINE_CAP)
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


def header_block(raw: bytes, cap: int = HEADER_CAP) -> bytes:
    """A message's header block, up to and including the blank line; at most ``cap`` bytes.

    Searches only the first ``cap`` bytes and copies no more, so a 30 MB message costs no second copy.
    """
    ends = [end + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (end := raw.find(sep, 0, cap)) >= 0]
    return raw[:min(ends)] if ends else raw[:cap]


class Capped(bytes):
    """The first bytes of a message longer than the limit, with the size and SHA-256 of the whole.

    The intake stores an oversize message's headers, size and hash for audit and answers its sender;
    it never needs the rest, so a reader need not hold it.
    """

    size: int
    sha256: str


class Readable(Protocol):
    """What :func:`read_capped` reads from: a file, a pipe, or a stream of partial IMAP fetches."""

    def read(self, n: int, /) -> bytes: ...


def read_capped(stream: Readable, limit: int, chunk: int = 1 << 16) -> bytes:
    """Read a message from ``stream`` holding at most ``limit + 1`` bytes of it in memory.

    A message within the limit comes back as it is.  A longer one comes back as :class:`Capped`: its
    first ``limit + 1`` bytes (enough for the intake to see it is too large and to read its headers),
    carrying the size and SHA-256 of the whole, which is read to its end in chunks and dropped.
    """
    head = bytearray()
    while len(head) <= limit and (block := stream.read(min(chunk, limit + 1 - len(head)))):
        head += block  # a pipe or socket may return less than asked before its end
    if len(head) <= limit:
        return bytes(head)
    digest, size = hashlib.sha256(head), len(head)
    while block := stream.read(chunk):
        digest.update(block)
        size += len(block)
    capped = Capped(head)
    del head
    capped.size, capped.sha256 = size, digest.hexdigest()
    return capped


def size_of(raw: bytes) -> int:
    """The size of the whole message (a :class:`Capped` one holds only its beginning)."""
    return raw.size if isinstance(raw, Capped) else len(raw)


def sha256_of(raw: bytes) -> str:
    """The SHA-256 of the whole message, the intake's identity of a message."""
    return raw.sha256 if isinstance(raw, Capped) else hashlib.sha256(raw).hexdigest()
