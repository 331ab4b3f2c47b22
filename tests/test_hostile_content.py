"""Hostile message content: what a sender controls never breaks a reply, a header or a signed text.

Each case goes in through ``server.ingest(raw)``; every outbox row it queued is then composed
(``server.outbox_bytes``) and parsed back with the stdlib parser, as a receiving client would.
"""
from __future__ import annotations

import base64
import email
import email.policy
import hashlib
import io
import re
import signal
import tracemalloc
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from pbem.core.orders import canonical
from pbem.crypto import sshsig
from pbem.mail.compose import message_id
from pbem.mail.inbound import Capped, read_capped, read_message
from pbem.store.models import Inbound, Outbox

#: The headers of every reply the intake sends, and nothing else.
REPLY_HEADERS = {"Content-Type", "MIME-Version", "From", "To", "Reply-To", "Subject", "Date", "Message-ID",
                 "Auto-Submitted", "X-PBEM-Server", "X-PBEM-Kind"}


def _rows(server, after: int = 0) -> list[Outbox]:
    with server.session() as s:
        return list(s.exec(select(Outbox).where(Outbox.id > after).order_by(Outbox.id)).all())


def _last_id(server) -> int:
    rows = _rows(server)
    return rows[-1].id if rows else 0


def _inbound(server, sha: str) -> Inbound:
    with server.session() as s:
        return s.exec(select(Inbound).where(Inbound.sha256 == sha)).one()


def _replies(server, raw: bytes) -> list[tuple[Outbox, bytes, email.message.Message]]:
    """Ingest one message; compose every row it queued and parse each back (compat32, as intake reads)."""
    before = _last_id(server)
    server.ingest(raw)
    out = []
    for row in _rows(server, before):
        composed = server.outbox_bytes(row)
        out.append((row, composed, email.message_from_bytes(composed)))
    return out


def _assert_clean(composed: bytes, back, extra=frozenset({"In-Reply-To"})):
    """The header block is exactly the reply's headers, each once, all before the blank line."""
    head = composed.split(b"\n\n", 1)[0]
    assert not back.defects, back.defects
    assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", head), head  # no control character in any header
    assert sorted(back.keys()) == sorted(REPLY_HEADERS | extra), back.keys()
    for name in ("Message-ID", "Auto-Submitted", "X-PBEM-Server"):
        assert f"\n{name}: ".encode() in head, name
    assert back.is_multipart() and back.get_content_type() == "multipart/mixed"


def _plain(back) -> str:
    part = next(p for p in back.walk() if p.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode("utf-8")


def _sender_mail(subject: bytes, *, sender: bytes = b"stranger@elsewhere.test", body: bytes = b"hello\n",
                 msg_id: bytes = b"<h1@elsewhere.test>", extra: bytes = b"") -> bytes:
    return (b"From: " + sender + b"\r\nTo: pbem@localhost\r\nMessage-ID: " + msg_id + b"\r\n" + extra
            + b"Subject: " + subject + b"\r\n\r\n" + body)


class Hung(BaseException):
    """Not an Exception: the intake's "one bad part must not hide the others" handler must not swallow it."""


@contextmanager
def _guard(seconds: int):
    """Fail rather than hang; not a timing assertion (the scan takes well under a second).

    The old regexes took 4.5 s for 100 kB here and 18 s for 200 kB (quadratic: half an hour for 1 MB);
    the regex engine checks for signals, so the alarm stops it.
    """
    def expired(signum, frame):
        raise Hung(f"still running after {seconds} s: not linear")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# ------------------------------------------------------------------ headers

def test_an_encoded_crlf_in_the_subject_cannot_add_a_header(server):
    # Before: composing the rejection raised HeaderParseError inside deliver(), and the row blocked the queue.
    [(row, composed, back)] = _replies(server, _sender_mail(b"=?us-ascii?Q?hi=0D=0ABcc:_x@y?="))
    assert row.kind == "reject" and row.to_addr == "stranger@elsewhere.test"
    _assert_clean(composed, back)
    assert back["Bcc"] is None and back["Subject"] == "Re: hi Bcc: x@y"


@pytest.mark.parametrize("subject", [b"=?us-ascii?Q?hi=0Athere?=", b"=?utf-8?Q?hi=0A=0Athere?=",
                                     b"=?utf-8?B?" + base64.b64encode("a\u2028b\x1b[31m\x00c".encode()) + b"?="])
def test_a_line_break_in_the_subject_keeps_the_reply_headers_in_the_header_block(server, subject):
    # Before: a bare LF ended the reply's header block after Subject, so Message-ID, Auto-Submitted and
    # X-PBEM-Server fell into the body: auto-responders lost their guard, and the copy was not recognised.
    [(row, composed, back)] = _replies(server, _sender_mail(subject))
    _assert_clean(composed, back)
    assert back["In-Reply-To"] == "<h1@elsewhere.test>"
    # and the copy coming back is recognised as the server's own mail
    assert read_message(composed).from_server


def test_a_stranger_cannot_place_a_line_in_the_signed_text(server):
    forged = "ORDERS ACCEPTED - game g1, east"
    subject = "=?utf-8?B?" + base64.b64encode(f"x\n\n{forged}\n".encode()).decode() + "?="
    [(row, composed, back)] = _replies(server, _sender_mail(subject.encode()))
    text = _plain(back)
    assert forged not in text.splitlines(), text  # quoted, on the sender's own line, never a line of its own
    assert f'("x {forged}")' in text
    sig = next(p for p in back.walk() if p.get_filename() == "pbem-server.sig")
    sshsig.verify(sig.get_payload(decode=True).decode(), canonical(text).encode(), sshsig.SERVER_NAMESPACE)


def test_a_folded_or_hostile_message_id_is_not_threaded_to(server):
    raw = _sender_mail(b"hi", msg_id=b"<a@b>\r\n =?us-ascii?Q?=0D=0AX-Evil:_1?= " + b"x" * 3000)
    [(row, composed, back)] = _replies(server, raw)
    _assert_clean(composed, back, extra=frozenset())  # no In-Reply-To: it was no Message-ID
    assert max(map(len, composed.split(b"\n\n", 1)[0].split(b"\n"))) <= 998


def test_a_raw_utf8_from_is_stored_exactly_and_answered_in_rfc6532(server):
    # Before: stored as 'j\ufffd\ufffdrg@ex\ufffd\ufffdmple.de' and the To header an encoded word of that.
    raw = _sender_mail("Grüße".encode(), sender="Jörg <jörg@exämple.de>".encode())
    [(row, composed, back)] = _replies(server, raw)
    assert _inbound(server, hashlib.sha256(raw).hexdigest()).sender == "jörg@exämple.de"
    assert row.to_addr == "jörg@exämple.de"
    assert "\nTo: jörg@exämple.de\n".encode() in composed  # UTF-8 itself, not an encoded word
    _assert_clean(composed, back)
    # the stdlib's bytes parser leaves 8-bit header bytes undecoded; an RFC 6532 reader takes them as UTF-8
    modern = email.message_from_string(composed.decode("utf-8"), policy=email.policy.SMTPUTF8)
    assert modern["To"].addresses[0].addr_spec == "jörg@exämple.de"
    assert str(modern["Subject"]) == "Re: Grüße"


def test_a_from_with_bytes_that_are_not_utf8_gets_no_reply(server):
    raw = _sender_mail(b"hi", sender=b"J\xf6rg <j\xf6rg@ex\xe4mple.de>")
    assert _replies(server, raw) == []  # no address to answer: nothing mangled is stored or sent to
    assert _inbound(server, hashlib.sha256(raw).hexdigest()).sender == ""


# Header values as a sender may write them: control characters, non-ASCII, encoded words, very long.
_CONTROL_TEXT = st.text(alphabet=st.sampled_from("ab é€\r\n\t\x00\x0b\x1b\x7f\x85\u2028\u202e:<>@=?"),
                        max_size=60)
_ENCODED = st.builds(lambda t, b64: ("=?utf-8?b?" + base64.b64encode(t.encode()).decode() + "?=") if b64 else
                     ("=?utf-8?q?" + "".join(f"={c:02X}" for c in t.encode()) + "?="),
                     _CONTROL_TEXT | st.text(max_size=40), st.booleans())
HEADER_TEXT = _CONTROL_TEXT | _ENCODED | st.text(max_size=80) | st.text(min_size=300, max_size=3000)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(subject=HEADER_TEXT, name=HEADER_TEXT)
def test_any_subject_or_name_gives_a_reply_with_exactly_the_expected_headers(server, subject, name):
    # The Subject comes last so that whatever it holds, From and Message-ID are read; the name holds
    # any control but a line break (which would end the From line and leave no address to answer).
    name = "".join(" " if c in "\r\n" else c for c in name if c not in '"\\')
    raw = _sender_mail(subject.encode(), msg_id=b"<p1@elsewhere.test>",
                       sender=b'"' + name.encode() + b'" <stranger@elsewhere.test>')
    server.ingest(raw)  # hypothesis may try the same bytes again: then the reply is the one queued before
    with server.session() as s:
        row = s.exec(select(Outbox).where(Outbox.message_id == message_id(
            "reject", hashlib.sha256(raw).hexdigest(), domain=server._domain))).one()
    composed = server.outbox_bytes(row)
    back = email.message_from_bytes(composed)
    _assert_clean(composed, back)
    assert back["In-Reply-To"] == "<p1@elsewhere.test>"
    assert all(len(line) <= 998 for line in composed.split(b"\n"))
    subject = email.message_from_string(composed.decode("utf-8"), policy=email.policy.SMTPUTF8)["Subject"]
    assert "\n" not in str(subject) and "\r" not in str(subject)


# ------------------------------------------------------------------ HTML

def _html_mail(markup: str) -> bytes:
    return (b"From: stranger@elsewhere.test\r\nMessage-ID: <html@elsewhere.test>\r\nSubject: html\r\n"
            b"Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            + markup.encode())


@pytest.mark.parametrize("markup", ["<" * 1_000_000, "<script>" * 125_000, "<a " * 330_000,
                                    "<style>x</scrip" * 60_000], ids=["lt", "script", "open-tag", "style"])
def test_pathological_html_of_a_megabyte_is_read_in_linear_time(markup):
    # Before: the regexes rescanned the rest at every '<': 100 kB took 20 s, 1 MB tens of minutes.
    with _guard(10):
        inbound = read_message(_html_mail(markup))
    assert inbound.found == []


def test_pathological_html_through_the_intake_is_answered(server):
    raw = _html_mail("<script>" * 120_000)
    with _guard(20):
        [(row, composed, back)] = _replies(server, raw)
    assert row.kind == "reject" and "no order file found" in _plain(back)


def test_html_to_text_still_reads_orders():
    html = ("<html><head><style>p{}</style><SCRIPT>PBEM-ORDERS 1</script></head><body><p>PBEM-ORDERS 1<br/>"
            "Game: g1</p><div>a &amp; b</div>x < y İİ<SCRIPT>z</Script >w</body>")  # "İ".lower() is 2 characters
    [found] = read_message(_html_mail(html)).found
    assert found.text.split("\n")[:3] == ["PBEM-ORDERS 1", "Game: g1", "a & b"]
    assert "x < y İİw" in found.text


# ------------------------------------------------------------------ size

def _big_mail(size: int) -> bytes:
    head = b"From: stranger@elsewhere.test\r\nMessage-ID: <big@elsewhere.test>\r\nSubject: big\r\n\r\n"
    return head + b"x" * (size - len(head))


def test_an_oversize_message_keeps_its_headers_size_and_hash_not_its_body(server):
    # Before: a 30 MB message was stored whole (the database grew 30 MB a mail) and its handling peaked
    # at several times its size.
    raw = _big_mail(30 << 20)
    before = _last_id(server)
    tracemalloc.start()
    try:
        verdict = server.ingest(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert verdict.status == "rejected"
    assert peak < 4 * server.home.max_message_bytes, peak
    row = _inbound(server, hashlib.sha256(raw).hexdigest())
    assert row.size == len(raw) and row.raw == raw[:raw.index(b"\r\n\r\n") + 4]
    [reply] = _rows(server, before)
    back = email.message_from_bytes(server.outbox_bytes(reply))
    assert reply.to_addr == "stranger@elsewhere.test" and "limit" in _plain(back)


def test_an_oversize_forged_copy_of_the_servers_mail_is_not_copied(server):
    [(row, composed, back)] = _replies(server, _sender_mail(b"hi"))
    with server.session() as s:  # as delivery leaves a row: the bytes it sent
        stored = s.get(Outbox, row.id)
        stored.raw, stored.state = composed, "sending"
        s.add(stored)
        s.commit()
    forged = (b"X-PBEM-Server: pbem\r\nMessage-ID: " + row.message_id.encode() + b"\r\n"
              + _big_mail(30 << 20).replace(b"Message-ID: <big@", b"X-Was: <big@"))
    tracemalloc.start()
    try:
        verdict = server.ingest(forged)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert verdict.status == "rejected"  # too large, and not a copy of what the server sent
    assert peak < 4 * server.home.max_message_bytes, peak  # before: two copies of the 30 MB


class _Endless(io.RawIOBase):
    """A stream of ``size`` bytes made as they are read, so the test itself never holds them."""

    def __init__(self, head: bytes, size: int) -> None:
        self.head, self.left, self.digest = head, size, hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.left)
        data = (self.head[:n] + b"y" * max(0, n - len(self.head)))
        self.head = self.head[n:]
        buffer[:n] = data
        self.digest.update(data)
        self.left -= n
        return n


def test_read_capped_holds_at_most_the_limit_and_the_intake_answers(server):
    limit = server.home.max_message_bytes
    head = b"From: stranger@elsewhere.test\r\nMessage-ID: <endless@elsewhere.test>\r\nSubject: big\r\n\r\n"
    stream = io.BufferedReader(_Endless(head, 30 << 20))
    raw = read_capped(stream, limit)
    assert isinstance(raw, Capped) and len(raw) == limit + 1
    assert raw.size == 30 << 20 and raw.sha256 == stream.raw.digest.hexdigest()
    before = _last_id(server)
    assert server.ingest(raw).status == "rejected"
    row = _inbound(server, raw.sha256)
    assert row.size == 30 << 20 and row.raw == head
    [reply] = _rows(server, before)
    assert "31,457,280 bytes" in _plain(email.message_from_bytes(server.outbox_bytes(reply)))


def test_read_capped_returns_a_message_within_the_limit_as_it_is():
    assert read_capped(io.BytesIO(b"x" * 10), 10) == b"x" * 10
    assert type(read_capped(io.BytesIO(b"x" * 10), 10)) is bytes


def test_a_message_its_reader_cut_under_a_smaller_limit_is_not_parsed(server):
    raw = read_capped(io.BytesIO(_big_mail(600 << 10)), 512 << 10)  # the server's limit is 1 MiB
    before = _last_id(server)
    assert server.ingest(raw).status == "rejected"
    assert _inbound(server, raw.sha256).raw.endswith(b"Subject: big\r\n\r\n")
    [reply] = _rows(server, before)
    assert "614,400 bytes" in _plain(email.message_from_bytes(server.outbox_bytes(reply)))
