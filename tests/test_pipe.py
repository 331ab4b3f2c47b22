"""`pbem ingest -` as an MTA runs it: a real process per message, handed to a running daemon over LMTP
when one listens, taken in directly when none does, and exit 75 (the MTA keeps the mail) when neither works."""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import select

from pbem import pipe
from pbem.core.play import bot_dice
from pbem.core.orders import parse_order_file
from pbem.core.ruleset import Phase
from pbem.crypto import sshsig
from pbem.home import Home
from pbem.mail.inbound import Capped
from pbem.server import Server
from pbem.store import db as store_db
from pbem.store.models import Inbound

ROOT = Path(__file__).resolve().parents[1]

#: Runs the `pbem` program (its entry point) in a fresh interpreter and writes the names of the modules it
#: imported to a file.
RUN_AND_LIST_MODULES = """
import json, sys
out = sys.argv.pop(1)
from pbem.launch import main
try:
    main()
finally:
    with open(out, "w") as fh:
        json.dump(sorted(sys.modules), fh)
"""

#: What the pipe must never load, whichever way it goes: these are for sitreps and migrations.
NEVER = ("PIL", "pbem.pictures", "alembic", "apscheduler", "aiosmtpd", "uvicorn")
#: What handing a message to the daemon must not load either: the engine itself.
ENGINE = ("click", "pbem.cli", "logging", "jinja2", "sqlalchemy", "sqlmodel", "pydantic", "cryptography", "pbem.rules", "pbem.server",
          "pbem.intake", "smtplib", "email")


def loaded(modules: list[str], roots: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == r or m.startswith(r + ".") for r in roots)]


def run_pipe(home: Path, raw: bytes, tmp: Path, env: dict[str, str] | None = None):
    """`pbem --home HOME ingest -` with ``raw`` on stdin: (exit status, stdout, stderr, modules loaded)."""
    listing = tmp / f"modules-{time.monotonic_ns()}.json"
    proc = subprocess.run([sys.executable, "-c", RUN_AND_LIST_MODULES, str(listing), "--home", str(home),
                           "ingest", "-"], input=raw, capture_output=True, cwd=tmp, timeout=300,
                          env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode(), json.loads(listing.read_text())


def order_mail(server: Server, game_id: str, seat: str, key, n: int) -> bytes:
    """A bot's signed orders for ``seat``'s current phase, as a player's mail client sends them."""
    ruleset = server.ruleset("bismarck")
    st = server.status(game_id)
    view = json.loads(server.sitrep(game_id, seat).view_json)
    head = server.order_form(game_id, seat).split("\n\n", 1)[0]
    body = ruleset.bot_orders(view, seat, bot_dice(b"pipe test", Phase(st["turn"], st["phase"], frozenset()), seat))
    signed = parse_order_file(f"{head}\n\n{body}")[0].text
    signed += sshsig.sign(key, signed.encode())
    return (f"From: {seat}@players.test\nTo: pbem@localhost\nSubject: orders\n"
            f"Message-ID: <pipe-{n}@players.test>\n\n{signed}").encode()


@pytest.fixture
def game_home(db_url):
    """A home (in a short temp path: a Unix socket path is at most 107 bytes) with a Bismarck game whose
    German side owes orders; its key in ``keys``."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-pipe-"))
    server = Server.init(Home(folder / "home"), db_url)
    server.new_game("g", "bismarck", "last-dash", seed=b"the pipe test's game seed")
    keys = {}
    for seat in ("german", "allied"):
        keys[seat] = sshsig.generate_private_key()
        server.add_player("g", seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    yield server, keys, folder
    server.engine.dispose()
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def stored(server: Server) -> dict[str, str]:
    with server.reader() as s:
        return {row.message_id: row.status for row in s.exec(select(Inbound)).all()}


def set_listen(server: Server, listen: str) -> None:
    server.home.config_path.write_text(server.home.config_path.read_text() + f'\n[lmtp]\nlisten = "{listen}"\n')


def test_without_a_daemon_the_pipe_takes_the_message_in_without_pictures_or_migrations(game_home, tmp_path):
    server, keys, _ = game_home
    owing = server.status("g")["owing"]
    raw = order_mail(server, "g", owing[0], keys[owing[0]], 1)
    status, out, err, modules = run_pipe(server.home.path, b"From: a@b.test\n\nhello\n", tmp_path)
    assert status == 0, err
    assert "rejected" in out and "no order file" in out
    assert loaded(modules, NEVER) == []
    assert loaded(modules, ("pbem.rules.lew_morski", "pbem.rules.sky_ww2")) == []  # only the game's ruleset
    status, out, err, _ = run_pipe(server.home.path, raw, tmp_path)
    assert status == 0, err
    assert out.startswith("accepted <pipe-1@players.test> g/"), out
    assert stored(server)["<pipe-1@players.test>"] == "accepted"


def test_a_stale_socket_in_the_config_falls_back_to_direct_intake(game_home, tmp_path):
    server, _, folder = game_home
    set_listen(server, f"unix:{folder}/nobody-listens.sock")
    status, out, err, _ = run_pipe(server.home.path, b"From: a@b.test\nMessage-ID: <x@b.test>\n\nhello\n", tmp_path)
    assert status == 0, err
    assert "no daemon answers" in err and "taking it in directly" in err
    assert out.startswith("rejected <x@b.test>")
    assert stored(server) == {"<x@b.test>": "rejected"}


def test_an_old_schema_is_refused_with_exit_75_and_the_fix(game_home, tmp_path):
    server, _, _ = game_home
    with server.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    status, out, err, modules = run_pipe(server.home.path, b"From: a@b.test\nMessage-ID: <y@b.test>\n\nhi\n",
                                         tmp_path)
    assert status == pipe.EX_TEMPFAIL
    assert "revision 0001" in err and f"needs revision {store_db.schema_head()}" in err and "pbem init" in err
    assert "alembic" not in modules
    assert stored(server) == {}  # kept by the MTA, not written to a schema this pbem does not know


def test_no_daemon_and_no_database_is_exit_75(game_home, tmp_path):
    server, _, folder = game_home
    set_listen(server, f"unix:{folder}/nobody-listens.sock")
    cfg = server.home.config_path.read_text()
    server.home.config_path.write_text(cfg.replace("[database]\n", '[database]\nurl = "sqlite:////nonexistent/dir/pbem.db"\n#'))
    status, _, err, _ = run_pipe(server.home.path, b"From: a@b.test\n\nhello\n", tmp_path)
    assert status == pipe.EX_TEMPFAIL, err
    assert "failed" in err


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_with_a_daemon_listening_the_pipe_hands_the_message_over_and_loads_no_engine(game_home, tmp_path):
    server, keys, folder = game_home
    sock = folder / "lmtp.sock"
    set_listen(server, f"unix:{sock}")
    log = open(folder / "daemon.log", "wb")
    daemon = subprocess.Popen([sys.executable, "-m", "pbem.cli", "--home", str(server.home.path), "daemon",
                               "--interval", "600"], stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        wait_for_socket(sock, daemon)
        owing = server.status("g")["owing"]
        raw = order_mail(server, "g", owing[0], keys[owing[0]], 2)
        status, out, err, modules = run_pipe(server.home.path, raw, tmp_path, env={"SENDER": "german@players.test"})
        assert status == 0, err
        assert out.startswith(f"accepted handed to the daemon on unix:{sock}"), out
        assert err == ""
        assert loaded(modules, NEVER + ENGINE) == []
        assert stored(server)["<pipe-2@players.test>"] == "accepted"  # stored before the daemon answered 250
        # the same message again: the daemon knows it (an MTA retrying after a lost answer loses nothing)
        status, out, _, _ = run_pipe(server.home.path, raw, tmp_path)
        assert status == 0 and out.startswith("duplicate handed to the daemon")
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)
        log.close()


def wait_for_socket(sock: Path, daemon: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert daemon.poll() is None, "the daemon ended"
        try:
            with socket.socket(socket.AF_UNIX) as probe:
                probe.connect(str(sock))
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"no daemon listened on {sock} within {seconds} s")


@pytest.mark.logs_errors  # the listener logs its failure to store, as it should
def test_a_daemon_that_cannot_store_makes_the_pipe_take_the_message_itself(server, tmp_path):
    # a listener whose storage fails answers 451: not stored there, so the message is taken in here
    from pbem.mail.lmtp import start_lmtp

    def broken(raws):
        raise OSError("disk full")

    folder = Path(tempfile.mkdtemp(prefix="pbem-pipe-"))
    listener = start_lmtp(f"unix:{folder}/lmtp.sock", broken)
    try:
        set_listen(server, f"unix:{folder}/lmtp.sock")
        status, out, err, _ = run_pipe(server.home.path, b"From: a@b.test\nMessage-ID: <z@b.test>\n\nhello\n",
                                       tmp_path)
    finally:
        listener.stop()
        subprocess.run(["rm", "-rf", str(folder)], check=False)
    assert status == 0, err
    assert "451" in err and out.startswith("rejected <z@b.test>")
    assert stored(server) == {"<z@b.test>": "rejected"}


def test_data_is_sent_with_crlf_line_ends_and_leading_dots_doubled():
    assert pipe.wire_data(b"a\n.b\r\n..c\rd") == b"a\r\n..b\r\n...c\r\nd\r\n.\r\n"
    assert pipe.wire_data(b"") == b".\r\n"


def test_the_pipe_reads_an_oversize_message_as_the_intake_expects_it():
    raw, within = pipe.read_message(io.BytesIO(b"x" * 100), 100)
    assert within and raw == b"x" * 100
    raw, within = pipe.read_message(io.BytesIO(b"From: a@b.test\n\n" + b"y" * 5000), 1024)
    assert not within and isinstance(raw, Capped) and raw.size == 5016 and len(raw) == 1025


def test_only_the_pipe_command_line_takes_the_shortcut(monkeypatch, tmp_path):
    from pbem.launch import pipe_home

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_HOME", raising=False)
    assert pipe_home(["ingest", "-"]) == tmp_path / "pbem-home"
    assert pipe_home(["--home", "h", "-v", "ingest"]) == tmp_path / "h"
    assert pipe_home(["--home=h", "ingest", "-"]) == tmp_path / "h"
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "env"))
    assert pipe_home(["ingest", "-"]) == tmp_path / "env"
    for other in (["ingest", "a.eml"], ["ingest", "-", "-"], ["--log-format", "json", "ingest", "-"], ["tick"],
                  ["--help"], ["ingest", "--help"], []):
        assert pipe_home(other) is None, other


def test_the_config_is_read_without_checking_it(tmp_path):
    cfg = tmp_path / "config.toml"
    assert pipe.read_config(cfg) == pipe.PipeConfig()  # none: the direct path says what is wrong
    cfg.write_text('[server]\naddress = "g@club.test"\nmax_message_bytes = 4096\n[lmtp]\nlisten = "unix:/x"\n')
    assert pipe.read_config(cfg) == pipe.PipeConfig("unix:/x", 4096, "g@club.test")
    cfg.write_text("[server\n")
    assert pipe.read_config(cfg) == pipe.PipeConfig()


def test_the_schema_head_is_alembics_head():
    from alembic.script import ScriptDirectory

    assert store_db.schema_head() == ScriptDirectory.from_config(store_db.alembic_config("sqlite://")).get_current_head()
