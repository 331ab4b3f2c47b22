"""Composing what the server sends: text and HTML parts, an inline map, the order form, a signature.

Headers are those that keep mail out of spam folders and let players filter
and thread: Message-ID, Date, Reply-To the game address, a List-Id per game,
References to a per-game thread root, and Auto-Submitted so that vacation
responders do not answer.
"""
from __future__ import annotations

import hashlib
import quopri
import re
from datetime import datetime
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import Compat32
from email.utils import format_datetime, formataddr

from pbem.core.orders import canonical
from pbem.crypto import sshsig

from .inbound import LINE_CAP, SERVER_HEADER, one_line

#: A Message-ID fit to be quoted in In-Reply-To and References: one angle-bracketed ASCII token.
#: Anything else a sender put in his Message-ID is left out of the reply's threading headers.
_MSG_ID = re.compile(r"<[!-;=?-~]{1,250}>")

#: Headers holding addresses: where a non-ASCII address must go as raw UTF-8 (RFC 6532), never as
#: an encoded word, which no mail system reads as an address.
_ADDRESS_HEADERS = frozenset({"to", "cc", "from", "reply-to", "sender"})


def message_id(*parts: object, domain: str = "pbem.invalid") -> str:
    """A Message-ID derived from what the message is, so a re-run makes the same one (and the outbox refuses a twin)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:32]
    return f"<{digest}@{domain}>"


def compose(*, server_name: str, server_address: str, to: str, subject: str, text: str, html: str,
            msg_id: str, now: datetime, game_id: str = "", kind: str = "", in_reply_to: str = "",
            png: bytes | None = None, form: str | None = None, key=None) -> Message:
    """Build the message: mixed[alternative[plain, related[html, map.png]], orders.txt, signature].

    Uses the classic ``email.mime`` classes: the same MIME, several times faster to build
    than ``EmailMessage`` with its header registry, which matters at a thousand sitreps a pass.
    """
    domain = server_address.split("@")[-1] or "pbem.invalid"
    body = MIMEMultipart("alternative")
    body.attach(_text(text, "plain"))
    html_part = _text(html, "html")
    if png is not None:
        related = MIMEMultipart("related")
        related.attach(html_part)
        image = MIMEImage(png, "png")
        image.add_header("Content-ID", "<map@pbem>")
        image.add_header("Content-Disposition", "inline", filename="map.png")
        related.attach(image)
        body.attach(related)
    else:
        body.attach(html_part)
    msg = MIMEMultipart("mixed")
    msg.attach(body)
    if form is not None:
        attachment = _text(form, "plain")
        attachment.add_header("Content-Disposition", "attachment", filename="orders.txt")
        msg.attach(attachment)
    if key is not None:
        # The signature covers the canonical text part, so a player can prove what the server said.
        sig = MIMEApplication(sshsig.sign(key, canonical(text).encode(), sshsig.SERVER_NAMESPACE).encode(),
                              "octet-stream")
        sig.add_header("Content-Disposition", "attachment", filename="pbem-server.sig")
        msg.attach(sig)
    _set_headers(msg, [
        ("From", formataddr((one_line(server_name), server_address))),
        ("To", to),
        ("Reply-To", server_address),
        ("Subject", one_line(subject, LINE_CAP)),
        ("Date", format_datetime(now)),
        ("Message-ID", msg_id),
        ("Auto-Submitted", "auto-replied" if in_reply_to else "auto-generated"),
        (SERVER_HEADER, server_name),
        ("X-PBEM-Kind", kind),
    ])
    in_reply_to = in_reply_to.strip()
    if in_reply_to and not _MSG_ID.fullmatch(in_reply_to):
        in_reply_to = ""  # not a Message-ID (a sender wrote it): the reply is not threaded to it
    if game_id:
        root = f"<game-{game_id}@{domain}>"
        _set_headers(msg, [("X-PBEM-Game", game_id), ("List-Id", f"pbem game {game_id} <{game_id}.{domain}>"),
                           ("References", f"{root} {in_reply_to}".strip() if in_reply_to else root)])
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    _boundaries(msg, msg_id)
    return msg


def _set_headers(msg: Message, headers: list[tuple[str, str]]) -> None:
    """Set headers, each value on one line whatever it holds.

    This is the one place values reach a header: a CR, LF or other control character (from a
    sender's Subject, say) becomes a space, so a value can neither end the header block early nor
    add a header of its own.
    """
    for name, value in headers:
        msg[name] = one_line(value)


class _Policy(Compat32):
    """compat32, with short plain header lines written as they are.

    ``Compat32`` runs every header through ``email.header.Header`` to fold it, which was half the
    cost of writing a message; a line of printable ASCII that fits in 78 characters comes out of
    that unchanged, so it is written directly (tests/test_compose.py holds the two to each other).  Anything else takes the usual road.
    """

    def _fold(self, name, value, sanitize):
        if (isinstance(value, str) and value.isascii() and value.isprintable()
                and len(name) + 2 + len(value) <= 78):
            return f"{name}: {value}{self.linesep}"
        if isinstance(value, str) and not value.isascii() and name.lower() in _ADDRESS_HEADERS:
            # RFC 6532: the address as UTF-8 bytes (fold_binary writes surrogates back as the bytes)
            return f"{name}: {value.encode().decode('ascii', 'surrogateescape')}{self.linesep}"
        # Compat32._fold is private, so missing from the stubs; it is there at run time
        return super()._fold(name, value, sanitize)  # type: ignore[misc]


POLICY = _Policy()


def as_bytes(msg: Message) -> bytes:
    return msg.as_bytes(policy=POLICY)


def _boundaries(msg: Message, seed: str) -> None:
    """Give every multipart a boundary made from the Message-ID.

    Otherwise the generator picks a random one and compiles a regular expression to check it
    against the content, for every message.  "=_" can appear in neither quoted-printable nor
    base64, the only encodings used here, so the boundary cannot clash with a part's content;
    and the same message now comes out as the same bytes.
    """
    digest = hashlib.sha256(seed.encode()).hexdigest()[:24]
    for n, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{digest}_{n}")


def _text(content: str, subtype: str) -> MIMEText:
    # quoted-printable keeps plain text readable in any client and lines under 78 characters
    part = MIMEText("", subtype, "utf-8")
    del part["Content-Transfer-Encoding"]
    part.set_payload(quopri.encodestring(content.encode("utf-8")).decode("ascii"))
    part["Content-Transfer-Encoding"] = "quoted-printable"
    return part
