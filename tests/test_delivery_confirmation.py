"""Exactly once over SMTP: a copy to the server's own address, in the same transaction, confirms delivery.

A daemon killed after the relay took a message and before it recorded so used to send the message
again after the lease.  Now the relay's copy to the server comes back through intake and marks the
row sent, so the restarted daemon does not.  These tests use a real SMTP server (aiosmtpd) that, as
a mail server does, delivers mail for the pbem address into the server's inbox Maildir.
"""
import email
import os
from collections import Counter

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from pbem.daemon import tick
from pbem.delivery import LEASE, SmtpTransport, deliver
from pbem.store.models import Inbound, Outbox
from tests.helpers import orders_mail
from tests.test_delivery import Sink, free_port


class Relay(Sink):
    """Keeps every transaction; refuses nobody@…; delivers mail for a local address into its Maildir."""

    def __init__(self, local: dict):
        super().__init__()
        self.local = local  # address -> Maildir path
        self.transactions = []  # (rcpt_tos, raw)

    async def handle_DATA(self, server, session, envelope):
        self.transactions.append((list(envelope.rcpt_tos), envelope.content))
        for rcpt in envelope.rcpt_tos:
            box = self.local.get(rcpt)
            if box is not None:  # a delivery agent's lines on top, then the bytes as they came
                name = f"copy.{len(self.transactions)}"
                (box / "tmp" / name).write_bytes(b"Delivered-To: " + rcpt.encode() + b"\r\nReceived: by relay\r\n"
                                                 + envelope.content)
                os.replace(box / "tmp" / name, box / "new" / name)
        return "250 OK"

    def arrivals(self):
        """Message-IDs as the players' side saw them (the copies to the server not counted)."""
        ids = Counter()
        for rcpts, raw in self.transactions:
            if any(r not in self.local for r in rcpts):
                ids[email.message_from_bytes(raw)["Message-ID"]] += 1
        return ids


@pytest.fixture
def relay(server):
    handler = Relay({server.home.address: server.home.inbox})
    ctl = Controller(handler, hostname="127.0.0.1", port=free_port())
    ctl.start()
    yield ctl, handler
    ctl.stop()


def _use_smtp(server, port, confirm=True):
    server.home.config["smtp"] = {"host": "127.0.0.1", "port": port, "starttls": False, "confirm_by_copy": confirm}


class Killed(BaseException):
    """The daemon dies: nothing after this point runs."""


class DiesAfterTheRelayTookIt(SmtpTransport):
    def send(self, raw, to, message_id, accepted=None):
        super().send(raw, to, message_id, accepted=None)  # the relay has it...
        raise Killed  # ...and we die before recording it


def _outbox(server):
    with server.session() as s:
        return s.exec(select(Outbox).order_by(Outbox.id)).all()


@pytest.mark.parametrize("confirm", [True, False])
def test_a_daemon_killed_after_the_relay_took_a_message_does_not_send_it_again(server, duel_game, keys, clock,
                                                                              relay, confirm):
    ctl, handler = relay
    _use_smtp(server, ctl.port, confirm)
    assert deliver(server) == (len(_outbox(server)), 0)  # the sitreps of the start, sent normally
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]), advance=False)
    dying = DiesAfterTheRelayTookIt("127.0.0.1", ctl.port, starttls=False, sender=server.home.address,
                                    copy_to=server.home.address if confirm else "")
    with pytest.raises(Killed):
        deliver(server, dying)
    [ack] = [r for r in _outbox(server) if r.kind == "ack"]
    assert ack.state == "sending"  # in doubt: claimed, taken by the relay, not recorded
    clock.advance(seconds=LEASE.total_seconds() + 60)  # the restarted daemon finds the lease run out
    report = tick(server)
    arrivals = handler.arrivals()
    assert all(n == 1 for n in arrivals.values()) == confirm, arrivals
    [ack] = [r for r in _outbox(server) if r.kind == "ack"]
    assert ack.state == "sent"
    if confirm:
        assert report.verdicts.get("confirmed", 0) >= 1 and ack.attempts == 1
        with server.session() as s:
            copies = s.exec(select(Inbound).where(Inbound.status == "confirmed")).all()
        # every message the relay took came back once; the copy is kept as its header lines only
        assert len(copies) == len(handler.transactions)
        assert all(c.raw.startswith(b"Delivered-To:") and len(c.raw) < c.size for c in copies)
        inbox = server.home.inbox  # and, recorded, the copies leave the server's mailbox
        assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())
    else:
        assert ack.attempts == 2  # without the copy, at least once is all SMTP can promise


def test_the_copy_rides_only_with_an_accepted_player(server, keys, relay):
    from pbem.crypto import sshsig

    ctl, handler = relay
    server.new_game("p", "duel", "standard", seed=b"a seed of 16+ bytes")
    server.add_player("p", "east", "nobody@x.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("p", "west", "west@x.test", sshsig.public_key_of(keys["west"]).line())
    transport = SmtpTransport("127.0.0.1", ctl.port, starttls=False, sender=server.home.address,
                              copy_to=server.home.address)
    assert deliver(server, transport) == (1, 1)
    # one transaction, for west and the copy; none for the refused address, so no copy can vouch for it
    assert [sorted(r) for r, _ in handler.transactions] == [sorted(["west@x.test", server.home.address])]
    tick(server)
    states = {r.to_addr: r.state for r in _outbox(server)}
    assert states == {"nobody@x.test": "failed", "west@x.test": "sent"}


def test_mail_that_only_claims_to_be_our_copy_confirms_nothing(server, duel_game, keys, clock, relay):
    ctl, handler = relay
    _use_smtp(server, ctl.port)
    deliver(server)
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]), advance=False)
    [ack] = [r for r in _outbox(server) if r.kind == "ack"]
    real = server.outbox_bytes(ack)
    with server.session() as s:  # claimed and in doubt, as after a crash
        row = s.get(Outbox, ack.id)
        row.state, row.raw, row.attempts, row.not_before = "sending", real, 1, clock.now
        s.add(row)
        s.commit()
    forged = real.replace(b"FIRE 1", b"FIRE 5")  # our headers and Message-ID, not our bytes
    verdict = server.ingest(forged, advance=False)
    assert verdict.status == "discarded"
    assert {r.id: r.state for r in _outbox(server)}[ack.id] == "sending"
    clock.advance(seconds=LEASE.total_seconds() + 60)
    tick(server)
    assert handler.arrivals()[ack.message_id] == 1  # so it went out after all


def test_a_copy_larger_than_players_may_send_still_confirms(server, duel_game, clock):
    with server.session() as s:
        row = s.exec(select(Outbox).where(Outbox.kind == "sitrep")).first()
        row.raw, row.state, row.attempts = server.outbox_bytes(row), "sending", 1
        s.add(row)
        s.commit()
    server.home.config.setdefault("server", {})["max_message_bytes"] = len(row.raw) // 2
    assert server.ingest(b"Received: by relay\r\n" + row.raw, advance=False).status == "confirmed"
    assert {r.id: r.state for r in _outbox(server)}[row.id] == "sent"
