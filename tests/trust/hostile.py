"""Hostile mail: header values, addresses and bodies a stranger can send, as hypothesis strategies and
as named cases.

Messages are assembled as bytes, by hand: the standard library refuses to write the very values
that matter here (CR, LF and NUL in a header, raw UTF-8, 10,000-character lines, 2,000 headers).
Every value may carry :data:`CANARY` right after a line break (raw, escaped, or hidden in an
RFC 2047 encoded word), so that the whole-path harness (``wholepath.py``) can tell whether the
sender managed to start a line of the server's signed text, or a header of its reply.

Bodies reach the size limit (``max_message_bytes``) and just past it; HTML bodies are the
pathological ones for a tag-stripping regular expression (unclosed ``<``, ``<script>`` without
its end, deep nesting).
"""
from __future__ import annotations

import base64

from hypothesis import strategies as st

#: A line the sender chose: it must never start a line of what the server signs or a header it writes.
CANARY = "PBEM-CANARY"
#: An honest stranger: a well-formed address the server must answer.
STRANGER = "stranger@players.test"

_BREAKS = ["\r\n", "\n", "\r", "\x00", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\r\n ", "\n\t", "\x1c"]
_CONTROL = "\r\n\x00\x01\x07\x08\t\x0b\x0c\x1b\x7f\x85\u2028\u2029"
_LETTERS = "abcxyz019 .:;<>@\"'=?_-()[],"
_NON_ASCII = "äöüßéЖ漢字€\u202e\ufeff😀"


def encoded_word(text: str, charset: str = "utf-8", q: bool = True) -> str:
    """RFC 2047: the decoded text may hold what the raw header cannot (CR, LF, NUL)."""
    data = text.encode(charset, "replace")
    if q:
        body = "".join(chr(b) if (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122) else
                       ("_" if b == 32 else f"={b:02X}") for b in data)
        return f"=?{charset}?Q?{body}?="
    return f"=?{charset}?B?{base64.b64encode(data).decode()}?="


@st.composite
def injection(draw) -> str:
    """A line break, then a header or a line of the sender's choosing."""
    brk = draw(st.sampled_from(_BREAKS))
    tail = draw(st.sampled_from([f"{CANARY} you are accepted", f"Bcc: {CANARY}@evil.test",
                                 f"X-PBEM-Server: {CANARY}", f"Content-Type: text/html\r\n\r\n{CANARY}",
                                 f"{CANARY}"]))
    return brk + tail


_plain_text = st.text(alphabet=st.sampled_from(list(_LETTERS + _CONTROL + _NON_ASCII)), max_size=80)


@st.composite
def header_text(draw) -> str:
    """A decoded header value: control characters, non-ASCII, injections."""
    parts = draw(st.lists(st.one_of(_plain_text, injection()), min_size=1, max_size=4))
    return "".join(parts)


@st.composite
def header_value(draw) -> bytes:
    """A header value as raw bytes: raw control characters and UTF-8, encoded words, very long lines."""
    kind = draw(st.sampled_from(["raw", "raw", "encoded", "encoded", "mixed", "long", "latin1"]))
    text = draw(header_text())
    if kind == "raw":
        return text.encode("utf-8", "surrogatepass")
    if kind == "latin1":
        return text.encode("latin-1", "replace")
    if kind == "encoded":
        charset = draw(st.sampled_from(["utf-8", "us-ascii", "iso-8859-1", "utf-16"]))
        word = encoded_word(text, charset, q=draw(st.booleans()))
        if draw(st.integers(0, 5)) == 0:  # a charset nobody knows
            word = word.replace(charset, "x-unknown", 1)
        return word.encode("ascii")
    if kind == "mixed":
        return (draw(_plain_text) + " " + encoded_word(text, q=draw(st.booleans())) + " "
                + draw(_plain_text)).encode("utf-8", "surrogatepass")
    n = draw(st.sampled_from([998, 1000, 5000, 70_000]))
    filler = draw(st.sampled_from(["x", "=?utf-8?Q?a?= ", "ä", " "]))
    return (filler * (n // len(filler)) + text).encode("utf-8", "surrogatepass")


@st.composite
def address(draw) -> bytes:
    """A From or To: well-formed, raw UTF-8, RFC 2047 in the name or the address, injected lines."""
    name = draw(st.sampled_from(["", "Jörg", "=?utf-8?q?J=C3=B6rg?=", '"a\\"b"', "=?utf-8?q?x=0D=0ABcc:_y@z?=",
                                 f"=?utf-8?q?x=0A{CANARY}?=", "Ж" * 200]))
    addr = draw(st.sampled_from([STRANGER, "jörg@exämple.de", "jörg@example.de", "joerg@exämple.de",
                                 "=?utf-8?q?j=C3=B6rg?=@example.de", f"a@b.test\r\nBcc: {CANARY}@evil.test",
                                 f"a@b.test\nBcc: {CANARY}@evil.test", '"a\\r\\nb"@players.test',
                                 "a\x00b@players.test", "a@players.test, b@players.test", "<>", "",
                                 "MAILER-DAEMON@players.test", "x" * 300 + "@players.test"]))
    if draw(st.booleans()) and name:
        return f"{name} <{addr}>".encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 4)) == 0:
        return draw(header_value())
    return addr.encode("utf-8", "surrogatepass")


_HEADER_NAMES = ["Subject", "Subject", "Subject", "Message-ID", "Reply-To", "To", "Cc", "In-Reply-To",
                 "References", "Content-Type", "Content-Transfer-Encoding", "MIME-Version", "Date",
                 "X-PBEM-Server", "Auto-Submitted", "Return-Path", "X-Junk"]


@st.composite
def body(draw, limit: int) -> tuple[bytes, bytes]:
    """(extra headers, body): plain or HTML, small or up to just past ``limit`` bytes in all."""
    size = draw(st.sampled_from(["limit", "over", "large", "small", "small", "small", "small"]))
    kind = draw(st.sampled_from(["plain", "plain", "html-lt", "html-script", "html-nest", "html-attr",
                                 "orders", "qp", "base64"]))
    patterns = {"plain": "word " + CANARY + "\n", "html-lt": "<", "html-script": "<script>x",
                "html-nest": "<div><b>", "html-attr": "<a href='", "orders": "", "qp": "=\r\n", "base64": "QUJD"}
    if kind == "orders":
        text = "PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 1\nPhase: fire\n\nFIRE 2\n" + CANARY + "\n"
        return b"Content-Type: text/plain; charset=utf-8\r\n", text.encode()
    head = {"plain": b"Content-Type: text/plain; charset=utf-8\r\n",
            "qp": b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n",
            "base64": b"Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n"}.get(
        kind, b"Content-Type: text/html; charset=utf-8\r\n")
    if size == "small":
        n = draw(st.integers(0, 3000))
    else:
        n = {"large": limit // 3, "limit": limit - 4096, "over": limit + 1}[size]
    unit = patterns[kind].encode()
    return head, (unit * (n // len(unit) + 1))[:n]


@st.composite
def hostile_message(draw, limit: int) -> bytes:
    """A whole message: hostile headers (or a hostile From) around a small or large, plain or HTML body."""
    lines: list[bytes] = []
    hostile_from = draw(st.booleans())
    lines.append(b"From: " + (draw(address()) if hostile_from else STRANGER.encode()))
    if draw(st.booleans()):
        lines.append(b"To: " + draw(address()))
    else:
        lines.append(b"To: pbem@localhost")
    for name in draw(st.lists(st.sampled_from(_HEADER_NAMES), min_size=0 if hostile_from else 1, max_size=5)):
        lines.append(name.encode() + b": " + draw(header_value()))
    many = draw(st.sampled_from([0] * 8 + [200, 2000]))
    lines += [f"X-Many-{i}: {CANARY}".encode() for i in range(many)]
    head, payload = draw(body(limit))
    sep = draw(st.sampled_from([b"\r\n", b"\r\n", b"\n"]))
    return sep.join(lines) + sep + head.replace(b"\r\n", sep) + sep + payload


# ------------------------------------------------------------------------------------------ named cases
#: Named cases found by the whole-path harness and not fixed yet: the tests expect them to fail (strictly,
#: so a fix is noticed), and atheris is not seeded with them; take a case off this list when it is fixed.
KNOWN: dict[str, str] = {}


def _mail(headers: list[tuple[str, str | bytes]], payload: bytes = b"hello\r\n",
          content_type: bytes = b"text/plain; charset=utf-8") -> bytes:
    out = []
    for name, value in headers:
        out.append(name.encode() + b": " + (value if isinstance(value, bytes) else value.encode("utf-8")))
    out.append(b"Content-Type: " + content_type)
    return b"\r\n".join(out) + b"\r\n\r\n" + payload


def _html(unit: bytes, size: int) -> bytes:
    return _mail([("From", STRANGER), ("To", "pbem@localhost"), ("Subject", "orders")],
                 (unit * (size // len(unit) + 1))[:size], b"text/html; charset=utf-8")


def regressions(limit: int) -> dict[str, bytes]:
    """Each defect issue 12 names, as the input that shows it (sized for a server with this ``limit``)."""
    big = limit - 2048  # just under the limit, after the headers
    return {
        "subject with an encoded CR LF": _mail([("From", STRANGER), ("To", "pbem@localhost"),
                                                ("Subject", "=?us-ascii?Q?hi=0D=0ABcc:_x@y?=")]),
        "raw UTF-8 From": _mail([("From", "Jörg <jörg@exämple.de>".encode()), ("To", "pbem@localhost"),
                                 ("Subject", "orders")]),
        "raw UTF-8 From, ASCII domain": _mail([("From", "Jörg <jörg@example.de>".encode()),
                                               ("To", "pbem@localhost"), ("Subject", "Grüße".encode())]),
        "HTML of unclosed <": _html(b"<", big),
        "HTML of <script> without end": _html(b"<script>x", big),
        "HTML nested deep": _html(b"<div><b>", big),
        "subject with a bare LF": _mail([("From", STRANGER), ("To", "pbem@localhost"),
                                         ("Subject", "=?utf-8?Q?hi=0AX-Injected:_yes?=")]),
        "subject with a bare CR": _mail([("From", STRANGER), ("To", "pbem@localhost"),
                                         ("Subject", b"hi\rX-Injected: yes")]),
        "subject placing a line in the signed text": _mail(
            [("From", STRANGER), ("To", "pbem@localhost"),
             ("Subject", encoded_word(f"x\n{CANARY}: your orders were accepted", q=False))]),
        "subject with a Unicode line separator": _mail(
            [("From", STRANGER), ("To", "pbem@localhost"), ("Subject", encoded_word(f"x\u2028{CANARY}", q=False))]),
        # found by the whole-path fuzz once the above were fixed:
        "subject with an encoded word in an unknown charset hiding CR LF": _mail(
            [("From", STRANGER), ("To", "pbem@localhost"), ("Subject", "=?x-unknown?Q?hi=0D=0ABcc:_x@y?=")]),
        "subject with a NUL in an encoded word's charset": _mail(  # found by atheris
            [("From", STRANGER), ("To", "pbem@localhost"), ("Subject", b"=?utf\x00-8?Q?hi=0D=0ABcc:_x@y?=")]),
        "From that is only an encoded word": _mail(
            [("From", encoded_word(f"\x0b{CANARY} you are accepted", q=False)), ("To", "pbem@localhost"),
             ("Subject", "orders")]),
        "From with separator controls after the address": (  # found by atheris, 25 November
            f"From: {STRANGER}".encode() + b"\x1d" * 44 + b"\r\nTo: pbem@\x01\x03From: stranger@playerlocalhost\r\nSubs"),
        "oversize message": _mail([("From", STRANGER), ("To", "pbem@localhost"), ("Subject", "map")],
                                  b"x" * (30 << 20)),  # 30 MB, as in the issue
    }
