"""Order files are found in mail shaped the way real clients send it; machine mail is recognised."""
import base64
import quopri
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from pbem.crypto import sshsig
from pbem.mail.inbound import MailError, one_line, read_message

KEY = sshsig.generate_private_key()
ORDERS = "PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 1\nPhase: fire\n\nFIRE 3\nMOVE +1\n"
SIG = sshsig.sign(KEY, ORDERS.encode())


def _verify(found):
    from pbem.core.orders import canonical

    assert sshsig.verify(found.signature, canonical(found.text).encode())


def test_inline_orders_with_signature_after():
    msg = EmailMessage()
    msg["From"] = "East <East@Example.org>"
    msg["Message-ID"] = "<a@b>"
    msg.set_content("Hi GM, my orders:\n\n" + ORDERS + SIG + "\n-- \nsent from my phone\n")
    inb = read_message(bytes(msg))
    assert inb.sender == "east@example.org" and inb.message_id == "<a@b>" and not inb.automatic
    [found] = inb.found
    _verify(found)


def test_attachment_with_detached_signature():
    msg = EmailMessage()
    msg["From"] = "east@example.org"
    msg.set_content("orders attached")
    msg.add_attachment(ORDERS.encode(), maintype="text", subtype="plain", filename="orders.txt")
    msg.add_attachment(SIG.encode(), maintype="application", subtype="octet-stream", filename="orders.txt.sig")
    [found] = read_message(bytes(msg)).found
    assert "detached" in found.where
    _verify(found)


def test_quoted_printable_crlf_and_trailing_spaces():
    body = (ORDERS.replace("\n", "  \r\n") + SIG.replace("\n", "\r\n")).encode()
    raw = (b"From: east@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"Content-Transfer-Encoding: quoted-printable\r\n\r\n" + quopri.encodestring(body))
    [found] = read_message(raw).found
    _verify(found)


def test_base64_latin1_body():
    body = ("Grüße\n" + ORDERS + SIG).encode("latin-1")
    raw = (b"From: east@example.org\nContent-Type: text/plain; charset=iso-8859-1\n"
           b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(body))
    [found] = read_message(raw).found
    _verify(found)


@pytest.mark.parametrize("param", ["format=flowed", "format*=us-ascii''flowed"])
def test_format_flowed_soft_breaks_are_joined(param):
    """Also when the parameter is RFC 2231 encoded (``format*=``), which once came back as a tuple."""
    long_line = "FIRE 3 # " + " ".join(["because"] * 14)
    orders = ORDERS.replace("FIRE 3", long_line)
    sig = sshsig.sign(KEY, orders.encode())
    cut = long_line.index(" ", 60) + 1  # clients break after a space and keep it (RFC 3676)
    flowed = orders.replace(long_line, long_line[:cut] + "\n" + long_line[cut:])
    raw = (f"From: east@example.org\nContent-Type: text/plain; charset=utf-8; {param}\n\n"
           + flowed + sig).encode()
    [found] = read_message(raw).found
    assert long_line in found.text
    assert sshsig.verify(found.signature, orders.encode())


def test_html_only_mail():
    html = "<html><body><p>" + ORDERS.replace("\n", "<br>") + "</p><pre>" + SIG + "</pre></body></html>"
    msg = MIMEMultipart("alternative")
    msg["From"] = "east@example.org"
    msg.attach(MIMEText(html, "html"))
    [found] = read_message(msg.as_bytes()).found
    _verify(found)


def test_bare_order_file():
    [found] = read_message((ORDERS + SIG).encode()).found
    _verify(found)


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"X-Autoreply": "yes"},
    {"From": "MAILER-DAEMON@example.org"},
    {"Return-Path": "<>"},
])
def test_machine_mail_is_recognised(headers):
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "east@example.org")
    for k, v in headers.items():
        msg[k] = v
    msg.set_content("I am on holiday")
    assert read_message(bytes(msg)).automatic


def test_own_mail_is_recognised():
    msg = EmailMessage()
    msg["From"] = "pbem@localhost"
    msg["X-PBEM-Server"] = "pbem"
    msg.set_content("x")
    assert read_message(bytes(msg)).from_server


def test_no_orders_found_is_empty_not_an_error():
    msg = EmailMessage()
    msg["From"] = "east@example.org"
    msg.set_content("what are the rules again?")
    assert read_message(bytes(msg)).found == []


def test_empty_input_is_a_mail_error():
    with pytest.raises(MailError):
        read_message(b"")


@pytest.mark.parametrize("text, expected", [
    ("hi\r\nBcc: x@y", "hi Bcc: x@y"), ("a\n b", "a b"), ("a\x00b\x1b[31mc", "a b [31mc"),
    ("a\u2028b\u202ec\x85d", "a b c d"), ("  Grüße  ", "Grüße"), ("a\udcc3b", "a b"),
])
def test_one_line_leaves_no_line_break_or_control(text, expected):
    assert one_line(text) == expected


def test_one_line_cuts_long_text():
    assert one_line("x" * 500, 200) == "x" * 199 + "…"


def test_headers_are_read_as_utf8_and_on_one_line():
    raw = ("From: Jörg <Jörg@Exämple.de>\nMessage-ID: <a@b>\n =?us-ascii?Q?=0D=0AX:_y?=\n"
           "Subject: =?utf-8?Q?caf=C3=A9=0A=0AACCEPTED?= r\u00e9sum\u00e9\n\nhello\n").encode()
    inb = read_message(raw)
    assert inb.sender == "jörg@exämple.de"
    assert inb.subject == "café ACCEPTED résumé"
    assert "\n" not in inb.message_id and "\r" not in inb.message_id


@pytest.mark.parametrize("sender", [b"x@y\x00.test", b"j\xf6rg@ex\xe4mple.de", b"<a b@c.test>",
                                    b"a" * 300 + b"@c.test"], ids=["nul", "latin-1", "space", "too-long"])
def test_an_address_with_controls_or_bad_bytes_is_no_address(sender):
    assert read_message(b"From: " + sender + b"\nSubject: s\n\nhello\n").sender == ""


def test_attachment_names_are_on_one_line():
    part = ("--b\nContent-Type: text/plain\nContent-Disposition: attachment; filename*=utf-8''{}\n\n" + ORDERS)
    raw = ("From: east@example.org\nContent-Type: multipart/mixed; boundary=b\n\n"
           + part.format("a.txt") + part.format("b%0A%0DEvil%20line.txt") + "--b--\n").encode()
    found = read_message(raw).found
    assert [f.where for f in found] == ["attachment a.txt", "attachment b Evil line.txt"]
