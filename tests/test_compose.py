"""Composing outgoing mail: the fast header path writes what compat32 writes; boundaries are safe."""
import email
import re
from datetime import datetime, timezone
from email.policy import compat32

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto import sshsig
from pbem.mail.compose import POLICY, as_bytes, compose

NAMES = st.sampled_from(["Subject", "To", "From", "References", "List-Id", "X-PBEM-Game", "In-Reply-To"])


@settings(max_examples=500)
@given(name=NAMES, value=st.text(max_size=120))
def test_header_lines_are_written_as_compat32_writes_them(name, value):
    if name in ("To", "From") and not value.isascii():
        # an address is never an encoded word: RFC 6532 UTF-8 (tests/test_hostile_content.py)
        assert POLICY.fold_binary(name, value) == f"{name}: {value}\n".encode("utf-8", "surrogateescape")
        return
    assert POLICY.fold_binary(name, value) == compat32.fold_binary(name, value)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=400), subject=st.text(max_size=100))
def test_a_message_reads_back_as_it_was_written(text, subject):
    key = sshsig.generate_private_key()
    msg = compose(server_name="pbem", server_address="pbem@club.test", to="east@players.test", subject=subject,
                  text=text, html=f"<p>{text}</p>", msg_id="<m1@club.test>",
                  now=datetime(2026, 11, 22, tzinfo=timezone.utc), game_id="g1", kind="sitrep",
                  png=b"\x89PNG not really", form="PBEM-ORDERS 1\n", key=key)
    raw = as_bytes(msg)
    assert raw == bytes(msg)  # the fast header path changed nothing
    back = email.message_from_bytes(raw)
    parts = [p for p in back.walk() if not p.is_multipart()]
    assert [p.get_content_type() for p in parts] == ["text/plain", "text/html", "image/png", "text/plain",
                                                     "application/octet-stream"]
    plain = parts[0].get_payload(decode=True).decode("utf-8")
    assert plain == text.replace("\r\n", "\n").replace("\r", "\n") or plain == text
    # every boundary is distinct, and none occurs inside a part's encoded content
    boundaries = [p.get_boundary() for p in back.walk() if p.is_multipart()]
    assert len(set(boundaries)) == len(boundaries) == 3
    for part in parts:
        payload = part.get_payload()
        assert not any(b in payload for b in boundaries)
    multiparts = [p for p in back.walk() if p.is_multipart()]
    lines = sum(len(m.get_payload()) for m in multiparts) + len(multiparts)  # one before each part, one closing
    assert len(re.findall(rb"^--=_pbem_", raw, re.M)) == lines


def _headers_of(**kw) -> tuple[bytes, email.message.Message]:
    args = dict(server_name="pbem", server_address="pbem@club.test", to="east@players.test", subject="s",
                text="t", html="<p>t</p>", msg_id="<m1@club.test>", now=datetime(2026, 11, 22, tzinfo=timezone.utc),
                kind="reject", in_reply_to="<a@b>")
    raw = as_bytes(compose(**{**args, **kw}))
    return raw.split(b"\n\n", 1)[0], email.message_from_bytes(raw)


def test_a_non_ascii_address_is_written_as_utf8_not_an_encoded_word():
    head, back = _headers_of(to="jörg@exämple.de")
    assert "\nTo: jörg@exämple.de".encode() in head and b"=?utf-8?" not in head
    assert head.decode("utf-8")  # the whole header block is UTF-8 (RFC 6532)


@pytest.mark.parametrize("field", ["subject", "to", "server_name", "kind", "game_id", "in_reply_to", "msg_id"])
def test_no_header_value_can_add_a_header(field):
    head, back = _headers_of(**{field: "<x@y>\r\nBcc: evil@x.test\n\nbody"})
    assert back["Bcc"] is None and not back.defects
    assert back["X-PBEM-Server"] and back["Auto-Submitted"]


@pytest.mark.parametrize("reply_to", ["not a message id", "<a@b> <c@d>", "<" + "x" * 600 + "@b>", "<ä@b>"])
def test_only_a_well_formed_message_id_is_threaded_to(reply_to):
    head, back = _headers_of(in_reply_to=reply_to, game_id="g1")
    assert back["In-Reply-To"] is None and back["References"] == "<game-g1@club.test>"


_HOSTILE = st.text(alphabet=st.sampled_from("ab é€\r\n\t\x00\x0b\x1b\x7f\x85\u2028\u202e:<>@=?"), max_size=60) \
    | st.text(max_size=80) | st.text(min_size=300, max_size=2000)


@settings(max_examples=300, deadline=None)
@given(subject=_HOSTILE, to=_HOSTILE, name=_HOSTILE, reply_to=_HOSTILE | st.just("<a@b>"))
def test_any_header_values_compose_to_exactly_the_expected_headers(subject, to, name, reply_to):
    head, back = _headers_of(subject=subject, to=to or "x@y", server_name=name, in_reply_to=reply_to)
    threaded = back["In-Reply-To"]  # only to a well-formed Message-ID, as it was
    assert threaded is None or (threaded == reply_to.strip() and re.fullmatch(r"<[!-~]+>", threaded))
    assert reply_to != "<a@b>" or threaded == "<a@b>"
    expected = {"Content-Type", "MIME-Version", "From", "To", "Reply-To", "Subject", "Date", "Message-ID",
                "Auto-Submitted", "X-PBEM-Server", "X-PBEM-Kind"} | ({"In-Reply-To"} if threaded else set())
    assert not back.defects and set(back.keys()) == expected and len(back.keys()) == len(expected)
    assert back["Message-ID"] == "<m1@club.test>"
