"""The outbox reaches a Maildir or a real SMTP server (aiosmtpd) once, with retries and clear failures."""
import email
import email.policy
import socket
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from pbem.delivery import LEASE, SmtpTransport, deliver
from pbem.store.models import Outbox
from tests.helpers import orders_mail


class Sink:
    """An SMTP server's handler that keeps what it receives and refuses one address."""

    def __init__(self):
        self.messages = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("nobody@"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    sink = Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port())
    ctl.start()
    yield ctl, sink
    ctl.stop()


def outbox(server):
    with server.session() as s:
        return s.exec(select(Outbox).order_by(Outbox.id)).all()


def test_maildir_delivery_is_once_even_after_a_crash(server, duel_game, keys, clock):
    sent, failed = deliver(server)
    assert sent == len(outbox(server)) >= 2 and failed == 0
    files = sorted((server.home.outbox / "new").iterdir())
    assert len(files) == sent
    # a daemon that died after sending but before recording it: the row is re-claimed after its lease
    with server.session() as s:
        row = s.exec(select(Outbox)).first()
        row.state = "sending"
        row.not_before = clock.now
        s.add(row)
        s.commit()
    clock.advance(seconds=1)
    assert deliver(server) == (1, 0)
    assert sorted((server.home.outbox / "new").iterdir()) == files  # overwritten, not duplicated


def test_smtp_delivery_with_headers(server, duel_game, keys, smtp):
    ctl, sink = smtp
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]))
    sent, failed = deliver(server, SmtpTransport("127.0.0.1", ctl.port, starttls=False, sender="pbem@localhost"))
    assert failed == 0 and sent == len(sink.messages) == len(outbox(server))
    ids = [m["Message-ID"] for m in sink.messages]
    assert len(set(ids)) == len(ids)
    sitrep = next(m for m in sink.messages if m["X-PBEM-Kind"] == "sitrep")
    assert sitrep["List-Id"] and sitrep["Reply-To"] == "pbem@localhost" and sitrep["Date"]
    assert sitrep.get_body(("plain",)) is not None and sitrep.get_body(("html",)) is not None
    names = [p.get_filename() for p in sitrep.iter_attachments()]
    assert "orders.txt" in names and "pbem-server.sig" in names
    assert deliver(server, SmtpTransport("127.0.0.1", ctl.port, starttls=False)) == (0, 0)


def test_smtp_down_then_up_sends_on_the_next_pass(server, duel_game, clock, smtp):
    """A dead relay is the transport's failure, not the messages': they are handed back at once, uncounted."""
    ctl, sink = smtp
    dead = SmtpTransport("127.0.0.1", free_port(), starttls=False, timeout=2)
    assert deliver(server, dead) == (0, 0)
    rows = outbox(server)
    assert all(r.state == "queued" and r.attempts == 0 and "refused" in r.last_error for r in rows)
    live = SmtpTransport("127.0.0.1", ctl.port, starttls=False)
    sent, _ = deliver(server, live)  # no lease or backoff to wait out
    assert sent == len(rows) == len(sink.messages)


def test_permanent_refusal_is_recorded_not_retried(server, keys, smtp, clock):
    from pbem.crypto import sshsig

    ctl, sink = smtp
    server.new_game("p", "duel", "standard", seed=b"a seed of 16+ bytes")
    server.add_player("p", "east", "nobody@x.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("p", "west", "west@x.test", sshsig.public_key_of(keys["west"]).line())
    sent, failed = deliver(server, SmtpTransport("127.0.0.1", ctl.port, starttls=False))
    assert (sent, failed) == (1, 1)
    bad = [r for r in outbox(server) if r.state == "failed"]
    assert [r.to_addr for r in bad] == ["nobody@x.test"] and "550" in bad[0].last_error
    clock.advance(days=1)
    assert deliver(server, SmtpTransport("127.0.0.1", ctl.port, starttls=False)) == (0, 0)


def _self_signed(tmp_path):
    """A certificate for 127.0.0.1, made with cryptography, written as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                         serialization.PrivateFormat.PKCS8,
                                                         serialization.NoEncryption()))
    return tmp_path / "cert.pem", tmp_path / "key.pem"


def test_smtp_starttls_with_authentication(server, duel_game, tmp_path):
    """STARTTLS to a server with its own CA, then AUTH; a wrong password is a retry, not a loss."""
    import ssl

    from aiosmtpd.smtp import AuthResult

    cert, key = _self_signed(tmp_path)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)
    sink = Sink()

    def authenticator(server_, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"club" and auth_data.password == b"s3cret"
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself

    ctl = Controller(sink, hostname="127.0.0.1", port=free_port(), tls_context=tls, require_starttls=True,
                     authenticator=authenticator, auth_require_tls=True)
    ctl.start()
    try:
        wrong = SmtpTransport("127.0.0.1", ctl.port, username="club", password="nope", cafile=str(cert))
        assert deliver(server, wrong) == (0, 0) and not sink.messages
        server.clock.advance(hours=1)
        right = SmtpTransport("127.0.0.1", ctl.port, username="club", password="s3cret", cafile=str(cert))
        sent, failed = deliver(server, right)
        assert failed == 0 and sent == len(sink.messages) >= 2
    finally:
        ctl.stop()


def test_permanent_failure_is_reported_to_the_gm(server, keys, smtp):
    from pbem.crypto import sshsig

    ctl, sink = smtp
    server.home.config.setdefault("server", {})["gm"] = "gm@club.test"
    server.new_game("b", "duel", "standard", seed=b"a seed of 16+ bytes")
    server.add_player("b", "east", "nobody@x.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("b", "west", "west@x.test", sshsig.public_key_of(keys["west"]).line())
    transport = SmtpTransport("127.0.0.1", ctl.port, starttls=False)
    deliver(server, transport)
    deliver(server, transport)
    notes = [m for m in sink.messages if m["To"] == "gm@club.test"]
    assert len(notes) == 1 and "nobody@x.test" in notes[0].get_body(("plain",)).get_content()
