"""One message can never stop another: delivery isolation, exit codes an MTA understands, overlapping ticks.

Each test makes one message (or the transport) fail for real, between good messages, and shows the good
ones go out while the bad one is kept, marked with its error, and reported to the GM once.
"""
import email
import email.policy
import shutil
import sqlite3
import threading

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from sqlmodel import select

from pbem.cli import main
from pbem.crypto import sshsig
from pbem.daemon import tick
from pbem.delivery import LEASE, MAX_ERRORS, MAX_INTERRUPTED, MaildirTransport, SmtpTransport, deliver
from pbem.server import Server, aware
from pbem.store.models import Outbox
from tests.conftest import DUEL
from tests.helpers import mail, orders_mail
from tests.test_delivery import Sink, free_port

GM = "gm@club.test"


def rows(server):
    with server.session() as s:
        return s.exec(select(Outbox).order_by(Outbox.id)).all()


def row(server, row_id):
    with server.session() as s:
        return s.get(Outbox, row_id)


def delivered(server):
    """Messages in the embedded outbox Maildir, by Message-ID."""
    found = {}
    for path in (server.home.outbox / "new").iterdir():
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        found[msg["Message-ID"]] = msg
    return found


def with_gm(server):
    server.home.config.setdefault("server", {})["gm"] = GM


def poison_row(server, **kw):
    """An outbox row that cannot be composed: its parts lack the text (say, written by an older release)."""
    fields = dict(created_at=server.clock(), game_id="g1", kind="ack", to_addr="east@players.test",
                  subject="poison", message_id="<poison@pbem.test>", parts_json="{}", state="queued",
                  attempts=0, not_before=server.clock(), last_error="")
    fields.update(kw)
    with server.session() as s:
        r = Outbox(**fields)
        s.add(r)
        s.commit()
        return r.id


def gm_notices(server):
    return [r for r in rows(server) if r.kind == "notice" and r.to_addr == GM]


@pytest.mark.logs_errors
def test_a_message_that_cannot_be_composed_fails_alone_and_is_reported_once(server, duel_game, keys):
    with_gm(server)
    bad = poison_row(server)  # after the sitreps of the start...
    server.ingest(orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]), advance=False)  # ...before the ack
    sent, failed = deliver(server)
    assert failed == 1
    poisoned = row(server, bad)
    assert poisoned.state == "failed" and "cannot be composed" in poisoned.last_error
    good = [r for r in rows(server) if r.id != bad]
    assert {r.kind for r in good} >= {"sitrep", "ack", "notice"}
    assert all(r.state == "sent" for r in good) and sent == len(good)
    assert set(delivered(server)) == {r.message_id for r in good}
    [notice] = gm_notices(server)
    assert "<poison@pbem.test>" in notice.parts_json and "bug in pbem" in notice.parts_json
    assert deliver(server) == (0, 0)  # failed for good: neither tried nor reported again
    assert len(gm_notices(server)) == 1


class SmtpUtf8Sink(Sink):
    def __init__(self):
        super().__init__()
        self.rcpts = []

    async def handle_DATA(self, server, session, envelope):
        self.rcpts.append(list(envelope.rcpt_tos))
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture(params=[False, True], ids=["no-smtputf8", "smtputf8"])
def relay(request):
    sink = SmtpUtf8Sink()
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=request.param)
    ctl.start()
    yield ctl, sink, request.param
    ctl.stop()


def test_a_non_ascii_address_goes_by_smtputf8_or_is_refused_for_good(server, keys, relay, clock):
    ctl, sink, utf8 = relay
    with_gm(server)
    server.new_game("u", "duel", "standard", seed=b"s")
    server.add_player("u", "east", "east@players.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("u", "west", "jörg@spieler.test", sshsig.public_key_of(keys["west"]).line())
    server.new_game("v", "duel", "standard", seed=b"s")  # and good mail after it
    server.add_player("v", "east", "east@else.test", sshsig.public_key_of(keys["east"]).line())
    server.add_player("v", "west", "west@else.test", sshsig.public_key_of(keys["west"]).line())
    transport = SmtpTransport("127.0.0.1", ctl.port, starttls=False, sender=server.home.address)
    sent, failed = deliver(server, transport)
    by_addr = {r.to_addr: r for r in rows(server) if r.kind != "notice"}
    assert all(by_addr[a].state == "sent" for a in ("east@players.test", "east@else.test", "west@else.test"))
    if utf8:
        assert (sent, failed) == (4, 0) and by_addr["jörg@spieler.test"].state == "sent"
        assert ["jörg@spieler.test"] in sink.rcpts
        assert not gm_notices(server)
    else:
        assert failed == 1 and by_addr["jörg@spieler.test"].state == "failed"
        assert "SMTPUTF8" in by_addr["jörg@spieler.test"].last_error
        [notice] = gm_notices(server)
        assert notice.state == "sent" and "jörg@spieler.test" in notice.parts_json
        clock.advance(days=1)
        assert deliver(server, transport) == (0, 0)
    assert all("jörg" not in r for rcpts in sink.rcpts for r in rcpts) != utf8


def _unwritable(outbox):
    """The Maildir's tmp folder replaced by a file: every write fails, as on a full or read-only disk."""
    shutil.rmtree(outbox / "tmp")
    (outbox / "tmp").write_text("not a folder")


def _writable(outbox):
    (outbox / "tmp").unlink()
    (outbox / "tmp").mkdir()


def test_an_unwritable_outbox_hands_every_message_back_for_the_next_pass(server, duel_game, caplog):
    queued = rows(server)
    assert len(queued) >= 2
    _unwritable(server.home.outbox)
    assert deliver(server) == (0, 0)  # no traceback
    after = rows(server)
    assert all(r.state == "queued" and r.attempts == 0 and aware(r.not_before) <= server.clock()
               for r in after)
    assert all("outbox" in r.last_error for r in after)
    warnings = [r for r in caplog.records if r.name == "pbem.smtp" and r.levelname == "WARNING"]
    assert len(warnings) == 1  # logged once, not once per message
    _writable(server.home.outbox)
    assert deliver(server) == (len(queued), 0)  # at once: no lease to wait out


def test_a_dead_relay_is_tried_once_per_pass(server, duel_game, caplog):
    dead = SmtpTransport("127.0.0.1", free_port(), starttls=False, timeout=2)
    assert deliver(server, dead) == (0, 0)
    assert len([r for r in caplog.records if r.name == "pbem.smtp"]) == 1
    assert all(r.state == "queued" and r.attempts == 0 for r in rows(server))


class Buggy(MaildirTransport):
    """The Maildir transport with a bug that one address meets (as smtplib met non-ASCII addresses)."""

    def send(self, raw, to, message_id, accepted=None):
        if to.startswith("west@"):
            raise RuntimeError("a bug met by this address")
        super().send(raw, to, message_id, accepted)


@pytest.mark.logs_errors
def test_a_message_the_transport_chokes_on_is_tried_a_few_times_then_reported(server, duel_game, clock):
    with_gm(server)
    transport = Buggy(server.home.outbox)
    [west] = [r for r in rows(server) if r.to_addr.startswith("west@")]
    for attempt in range(1, MAX_ERRORS + 1):
        sent, failed = deliver(server, transport)
        assert sent >= (attempt == 1) and failed == (attempt == MAX_ERRORS)
        got = row(server, west.id)
        assert got.attempts == attempt and "a bug met by this address" in got.last_error
        assert got.state == ("failed" if attempt == MAX_ERRORS else "queued")
        clock.advance(hours=5)
    assert all(r.state == "sent" for r in rows(server) if r.id != west.id)
    assert len(gm_notices(server)) == 1
    assert deliver(server, transport) == (0, 0)


class Killed(BaseException):
    """The process dies while sending (no exception handler runs)."""


class Deadly(MaildirTransport):
    """Dies sending to one address (say, a bug that crashes the interpreter)."""

    deadly = ""

    def send(self, raw, to, message_id, accepted=None):
        if to == self.deadly:
            raise Killed
        super().send(raw, to, message_id, accepted)


def test_a_message_that_kills_the_sender_does_not_come_back_first_forever(server, keys, clock):
    with_gm(server)
    server.new_game("k", "duel", "standard", seed=b"s")
    server.add_player("k", "west", "west@players.test", sshsig.public_key_of(keys["west"]).line())
    server.add_player("k", "east", "east@players.test", sshsig.public_key_of(keys["east"]).line())
    server.new_game("k2", "duel", "standard", seed=b"s")  # more good mail
    server.add_player("k2", "west", "west2@players.test", sshsig.public_key_of(keys["west"]).line())
    server.add_player("k2", "east", "east2@players.test", sshsig.public_key_of(keys["east"]).line())
    west = rows(server)[0]  # the deadly message comes first
    transport = Deadly(server.home.outbox)
    transport.deadly = west.to_addr
    others = [r.id for r in rows(server) if r.id != west.id]
    with pytest.raises(Killed):
        deliver(server, transport)
    assert {row(server, i).state for i in others} == {"sending"}  # claimed with it, stuck behind its lease
    clock.advance(seconds=LEASE.total_seconds() + 1)
    with pytest.raises(Killed):  # in doubt, it is tried again, alone...
        deliver(server, transport)
    assert deliver(server, transport) == (len(others), 0)  # ...and the others go meanwhile
    for _ in range(MAX_INTERRUPTED - 2):
        clock.advance(seconds=LEASE.total_seconds() + 1)
        with pytest.raises(Killed):
            deliver(server, transport)
    clock.advance(seconds=LEASE.total_seconds() + 1)
    sent, failed = deliver(server, transport)  # given up, not tried again
    assert failed == 1 and row(server, west.id).state == "failed"
    assert "interrupted" in row(server, west.id).last_error
    [notice] = gm_notices(server)
    assert notice.state == "sent" and sent == 1


# ---------------------------------------------------------------- pbem ingest, as an MTA runs it

def _cli(home, *args, stdin=b""):
    return CliRunner().invoke(main, ["--home", str(home), *args], input=stdin)


def test_ingest_says_try_later_while_the_database_is_locked(server, duel_game, keys):
    if not server.home.db_url.startswith("sqlite"):
        pytest.skip("a SQLite write lock held by another connection")
    raw = mail("no orders here")  # the command line knows no test ruleset: a message answered with a reply
    locker = sqlite3.connect(server.home.db_url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        locker.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
        result = _cli(server.home.path, "ingest", "-", stdin=raw)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert result.exit_code == 75, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    result = _cli(server.home.path, "ingest", "-", stdin=raw)  # the MTA's retry
    assert result.exit_code == 0 and result.output.startswith("rejected")


def test_ingest_exits_0_once_stored_even_if_sending_then_fails(server, duel_game, keys, caplog):
    # a configuration that breaks sending, not storing: the SMTP password file has gone
    cfg = server.home.config_path
    cfg.write_text(cfg.read_text() + '\n[smtp]\nhost = "127.0.0.1"\nport = 1\npassword_file = "gone.txt"\n')
    result = _cli(server.home.path, "ingest", "-", stdin=mail("no orders here"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("rejected")  # stored, and answered
    assert any("gone.txt" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------- two passes at once on one home

class Overtaken(Server):
    """A server whose first batch is overtaken: another tick, on its own connection and thread, runs whole
    between this one reading the inbox and storing what it read (as a daemon beside a `pbem tick` can)."""

    other = None

    def ingest_many(self, raws, **kw):
        if self.other is not None:
            other, self.other = self.other, None
            reports = []
            t = threading.Thread(target=lambda: reports.append(tick(other)))
            t.start()
            t.join()
            self.other_report = reports[0]
        return super().ingest_many(raws, **kw)


def test_overlapping_ticks_both_finish_resolve_and_send(server, duel_game, keys, clock):
    for seat, n in (("east", 1), ("west", 2)):
        raw = orders_mail(server, duel_game, seat, f"FIRE {n}\n", keys[seat])
        (server.home.inbox / "new" / f"m{seat}").write_bytes(raw)
    first = Overtaken(server.home, clock=clock, extra_rulesets=(DUEL,))
    first.other = Server(server.home, clock=clock, extra_rulesets=(DUEL,))
    try:
        report = tick(first)  # used to fail moving files the other tick had moved
    finally:
        first.engine.dispose()
        first_other = first.other_report
    assert first_other.verdicts == {"accepted": 2} and first_other.resolved >= 1 and first_other.sent >= 1
    assert report.verdicts == {"duplicate": 2}
    assert not list((server.home.inbox / "new").iterdir())
    assert len(list((server.home.inbox / "cur").iterdir())) == 2
    assert all(r.state == "sent" for r in rows(server))


def test_ingest_into_a_home_that_is_not_there_says_try_later(tmp_path):
    """A home moved or not yet mounted is the server's to fix: the MTA keeps the mail, never bounces it."""
    result = _cli(tmp_path / "missing", "ingest", "-", stdin=mail("orders"))
    assert result.exit_code == 75 and "no pbem home" in result.output


class Greylisting(Sink):
    """A relay that defers one address for ever (a mailbox over quota) and takes the rest."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("full@"):
            return "452 4.2.2 mailbox full"
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)


def test_a_message_deferred_for_five_days_is_given_up_and_reported(server, keys, clock):
    sink = Greylisting()
    ctl = Controller(sink, hostname="127.0.0.1", port=free_port())
    ctl.start()
    try:
        with_gm(server)
        server.new_game("q", "duel", "standard", seed=b"s")
        server.add_player("q", "east", "full@players.test", sshsig.public_key_of(keys["east"]).line())
        server.add_player("q", "west", "west@players.test", sshsig.public_key_of(keys["west"]).line())
        transport = SmtpTransport("127.0.0.1", ctl.port, starttls=False)
        assert deliver(server, transport) == (1, 0)  # west's went; full's waits, its address not at fault yet
        [full] = [r for r in rows(server) if r.to_addr == "full@players.test"]
        assert row(server, full.id).state == "queued" and "452" in row(server, full.id).last_error
        assert not gm_notices(server)
        clock.advance(days=5, hours=1)
        assert deliver(server, transport) == (1, 1)  # given up, and the GM's notice sent
        assert row(server, full.id).state == "failed"
        [notice] = gm_notices(server)
        assert "full@players.test" in notice.parts_json and notice.state == "sent"
    finally:
        ctl.stop()
