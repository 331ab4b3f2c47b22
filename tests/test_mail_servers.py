"""Mail in through a real Dovecot IMAP server (started here) and a real LMTP session (aiosmtpd)."""
import imaplib
import os
import re
import shutil
import smtplib
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from pbem.daemon import tick
from pbem.mail.imap import ImapSource
from pbem.mail.lmtp import start_lmtp
from tests.helpers import orders_mail

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CONF = """\
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain
mail_location = maildir:{d}/mail/%u
first_valid_uid = 1
first_valid_gid = 1
passdb {{
  driver = static
  args = password=secret
}}
userdb {{
  driver = static
  args = uid=mail gid=mail home={d}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


@pytest.fixture(scope="module")
def dovecot_port():
    """A private Dovecot instance on a free port, its mail owned by the unprivileged 'mail' user."""
    if not os.path.exists(DOVECOT):
        pytest.fail("Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does this)")
    d = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    d.chmod(0o755)
    (d / "mail").mkdir()
    shutil.chown(d / "mail", "mail", "mail")
    port = free_port()
    (d / "dovecot.conf").write_text(CONF.format(d=d, port=port))
    subprocess.run([DOVECOT, "-c", str(d / "dovecot.conf")], check=True)
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port
    subprocess.run(["doveadm", "-c", str(d / "dovecot.conf"), "stop"], check=False)
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def dovecot(dovecot_port):
    """A fresh mailbox per test: the static passdb lets any user name log in with the password."""
    import uuid

    return ImapSource(host="127.0.0.1", port=dovecot_port, tls=False, username=f"u{uuid.uuid4().hex[:10]}",
                      password="secret")


def deliver_to_imap(source, raw):
    conn = imaplib.IMAP4(source.host, source.port)
    conn.login(source.username, source.password)
    conn.append(source.mailbox, None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    conn.logout()


def test_imap_poll_ingests_marks_and_moves(server, duel_game, keys, dovecot):
    deliver_to_imap(dovecot, orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]))
    deliver_to_imap(dovecot, b"From: x@y.test\r\nSubject: hi\r\n\r\nno orders\r\n")
    verdicts = dovecot.poll(server.ingest_many)
    assert sorted(v.status for v in verdicts) == ["accepted", "rejected"]
    assert dovecot.poll(server.ingest_many) == []  # nothing left unseen
    conn = dovecot.connect()
    conn.select(dovecot.processed)
    assert len(conn.uid("SEARCH", None, "ALL")[1][0].split()) == 2
    conn.logout()


def test_imap_poll_is_safe_to_repeat_after_a_crash(server, duel_game, keys, dovecot):
    """A crash between storing and flagging: the next poll sees the mail again and calls it a duplicate."""
    raw = orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"])
    deliver_to_imap(dovecot, raw)
    first = server.ingest(raw.replace(b"\n", b"\r\n"))  # stored, then "crashed" before the flag
    assert first.status == "accepted"
    [again] = dovecot.poll(server.ingest_many)
    assert again.status == "duplicate"


def test_a_copy_of_our_own_mail_confirms_its_row_and_is_deleted(server, duel_game, keys, dovecot):
    from sqlmodel import select

    from pbem.store.models import Outbox

    with server.session() as s:  # a sitrep claimed and sent, then the daemon died before recording it
        row = s.exec(select(Outbox).where(Outbox.kind == "sitrep")).first()
        row.raw, row.state, row.attempts = server.outbox_bytes(row), "sending", 1
        s.add(row)
        s.commit()
    deliver_to_imap(dovecot, b"Received: by mx.club.test; Sun, 22 Nov 2026 10:00:00 +0000\r\n" + row.raw)
    [verdict] = dovecot.poll(server.ingest_many)
    assert verdict.status == "confirmed"
    with server.session() as s:
        assert s.get(Outbox, row.id).state == "sent"
    conn = dovecot.connect()
    for box in (dovecot.mailbox, dovecot.processed):  # a receipt, recorded: kept nowhere
        conn.select(box)
        assert conn.uid("SEARCH", None, "ALL")[1][0].split() == []
    conn.logout()


def _mailbox(source, box=None):
    """UID -> flags of every message in a mailbox, as another mail client sees it."""
    conn = imaplib.IMAP4(source.host, source.port)
    conn.login(source.username, source.password)
    conn.select(box or source.mailbox, readonly=True)
    typ, data = conn.uid("FETCH", "1:*", "(FLAGS)")
    conn.logout()
    found = {}
    for line in data:
        if line:
            m = re.search(rb"UID (\d+)", line), re.search(rb"FLAGS \(([^)]*)\)", line)
            found[int(m[0].group(1))] = set(m[1].group(1).decode().split())
    return found


def _append(source, raw, flags):
    conn = imaplib.IMAP4(source.host, source.port)
    conn.login(source.username, source.password)
    conn.append(source.mailbox, flags, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    conn.logout()


@pytest.mark.parametrize("move", [True, False], ids=["UID MOVE", "UID EXPUNGE"])
def test_imap_takes_read_mail_and_leaves_others_deleted_mail_alone(server, duel_game, keys, dovecot, move):
    """The GM read the orders on a phone (\\Seen) and deleted some spam without purging it (\\Deleted)."""
    _append(dovecot, orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]), r"(\Seen)")
    _append(dovecot, b"From: spam@y.test\r\nSubject: offer\r\n\r\nbuy\r\n", r"(\Deleted)")
    conn = dovecot.connect()
    assert {"MOVE", "UIDPLUS"} <= set(conn.capabilities)
    if not move:  # a server without MOVE: COPY, then UID STORE and UID EXPUNGE of our own UIDs only
        conn.capabilities = tuple(c for c in conn.capabilities if c != "MOVE")
    try:
        verdicts = dovecot.poll(server.ingest_many, conn=conn)
    finally:
        conn.logout()
    assert [v.status for v in verdicts] == ["accepted"]
    assert list(_mailbox(dovecot).values()) == [{"\\Deleted"}]  # the spam: still there, still the GM's
    assert len(_mailbox(dovecot, dovecot.processed)) == 1
    assert dovecot.poll(server.ingest_many) == []


def test_imap_without_a_processed_folder_takes_each_message_once(server, duel_game, keys, dovecot):
    dovecot.processed = ""
    _append(dovecot, orders_mail(server, duel_game, "east", "FIRE 1\n", keys["east"]), r"(\Seen)")
    assert [v.status for v in dovecot.poll(server.ingest_many)] == ["accepted"]
    assert dovecot.poll(server.ingest_many) == []  # kept, marked taken: not read again
    [flags] = _mailbox(dovecot).values()
    assert {"\\Seen", "$PbemTaken"} <= flags


def test_tick_reads_the_configured_mailbox(server, duel_game, keys, dovecot):
    server.home.config["imap"] = {"host": dovecot.host, "port": dovecot.port, "tls": False,
                                  "username": dovecot.username, "password": "secret"}
    deliver_to_imap(dovecot, orders_mail(server, duel_game, "west", "FIRE 3\n", keys["west"]))
    report = tick(server)
    assert report.verdicts == {"accepted": 1}


def test_idle_wakes_on_new_mail(dovecot):
    conn = dovecot.connect()
    assert dovecot.idle(conn, 0.3) is False  # nothing arrives: times out
    threading.Timer(0.3, deliver_to_imap, (dovecot, b"From: a@b.test\r\n\r\nx\r\n")).start()
    assert dovecot.idle(conn, 10) is True
    conn.logout()


def test_lmtp_delivery_stores_and_answers(server, duel_game, keys):
    port = free_port()
    ctl = start_lmtp(f"127.0.0.1:{port}", server.ingest_many)
    try:
        with smtplib.LMTP("127.0.0.1", port) as client:
            raw = orders_mail(server, duel_game, "east", "FIRE 4\n", keys["east"])
            refused = client.sendmail("east@players.test", ["pbem@localhost"], raw)
            assert refused == {}
            client.sendmail("x@y.test", ["pbem@localhost"], b"Subject: junk\r\n\r\nnothing\r\n")
    finally:
        ctl.stop()
    assert server.status(duel_game)["in"] == ["east"]


@pytest.mark.logs_errors
def test_lmtp_says_try_later_when_storage_fails():
    def broken(raws):
        raise OSError("database is down")

    port = free_port()
    ctl = start_lmtp(f"127.0.0.1:{port}", broken)
    try:
        with smtplib.LMTP("127.0.0.1", port) as client:
            with pytest.raises(smtplib.SMTPDataError) as err:
                client.sendmail("a@b.test", ["pbem@localhost"], b"Subject: x\r\n\r\ny\r\n")
            assert err.value.smtp_code == 451
    finally:
        ctl.stop()


def test_lmtp_deliveries_that_arrive_together_are_stored_together(server, duel_game, keys):
    """Group commit: while one batch is being stored, the deliveries that arrive wait and go in one
    transaction; each still gets its own verdict and 250 only once stored."""
    calls = []

    def ingest_many(raws):
        calls.append(len(raws))
        if len(calls) == 1:
            time.sleep(0.3)  # a slow first store: the other deliveries arrive meanwhile
        return server.ingest_many(raws, advance=False)

    port = free_port()
    ctl = start_lmtp(f"127.0.0.1:{port}", ingest_many)
    raws = [orders_mail(server, duel_game, "east" if k % 2 else "west", f"FIRE {k % 5 + 1}\n# {k}\n",
                        keys["east" if k % 2 else "west"]) for k in range(20)]
    replies = []

    def send(raw):
        with smtplib.LMTP("127.0.0.1", port) as client:
            client.ehlo()
            client.mail("p@players.test")
            client.rcpt("pbem@localhost")
            replies.append(client.data(raw))

    try:
        threads = [threading.Thread(target=send, args=(raw,)) for raw in raws]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        ctl.stop()
    assert sum(calls) == 20 and len(calls) <= 3, calls
    assert len(replies) == 20 and all(code == 250 and b"stored (accepted)" in text for code, text in replies)
    from sqlmodel import select

    from pbem.store.models import Inbound
    with server.session() as s:
        assert len(s.exec(select(Inbound)).all()) == 20


def test_a_refused_imap_login_does_not_stop_the_pass(server, duel_game, dovecot, caplog):
    """IMAP errors are not OSErrors: a changed password must not stop sitreps and deadlines."""
    server.home.config["imap"] = {"host": dovecot.host, "port": dovecot.port, "tls": False,
                                  "username": dovecot.username, "password": "changed"}
    report = tick(server)
    assert report.sent >= 2  # the sitreps of the start went out all the same
    assert any("IMAP poll failed" in r.getMessage() for r in caplog.records)
