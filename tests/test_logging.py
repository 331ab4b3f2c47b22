"""Operator logging: the daemon says what it runs on and what each pass did, libraries stay quiet."""
import json
import logging
import os
import queue
import signal
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.home import Home
from tests.helpers import mail, orders_mail


@pytest.fixture(autouse=True)
def restore_logging():
    """The CLI sets up logging for the process; give the next test what it had."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    others = {name: logging.getLogger(name).level for name in ("pbem", "apscheduler", "alembic", "sqlalchemy")}
    yield
    root.handlers[:], root.level = handlers, level
    for name, lvl in others.items():
        logging.getLogger(name).setLevel(lvl)


def test_each_verdict_is_one_info_line_starting_with_the_message_id(server, duel_game, keys, caplog):
    caplog.set_level(logging.INFO, logger="pbem.decision")
    ok = server.ingest(orders_mail(server, duel_game, "east", "FIRE 2\n", keys["east"], msg_id="<ok@players.test>"))
    bad = server.ingest(orders_mail(server, duel_game, "west", "FIRE 2\nSECRETPLAN 9\n", keys["west"],
                                    msg_id="<bad@players.test>"))
    assert ok.status == "accepted" and bad.status == "rejected" and "SECRETPLAN" in " ".join(bad.reasons)
    lines = [r for r in caplog.records if r.name == "pbem.decision"]
    assert [r.getMessage() for r in lines] == ["<ok@players.test>: accepted g1/east",
                                                "<bad@players.test>: rejected g1/west"]
    assert all(r.levelno == logging.INFO for r in lines)
    assert lines[1].verdict == "rejected" and lines[1].game == "g1" and lines[1].message_id == "<bad@players.test>"


def test_libraries_are_quiet_at_v_and_speak_at_vv(tmp_path):
    quiet = CliRunner().invoke(main, ["--home", str(tmp_path / "a"), "-v", "init"])
    assert quiet.exit_code == 0, quiet.output
    assert "alembic" not in quiet.stderr and "sqlalchemy" not in quiet.stderr
    loud = CliRunner().invoke(main, ["--home", str(tmp_path / "b"), "-vv", "init"])
    assert loud.exit_code == 0, loud.output
    assert "alembic.runtime.migration INFO" in loud.stderr


def test_json_log_lines_parse(tmp_path):
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "h"), "--log-format", "json", "-vv", "init"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines
    for line in lines:
        record = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(record)


# ---------------------------------------------------------------- the daemon, run for real

@pytest.fixture
def home(tmp_path):
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "init"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    home = Home(tmp_path / "home")
    (home.inbox / "new" / "1.eml").write_bytes(mail("hello", sender="stranger@players.test",
                                                    msg_id="<hello@players.test>"))
    return home


def daemon_lines(home, *options, until):
    """Run `pbem daemon` until a stderr line contains ``until``, stop it with SIGTERM; return all its lines."""
    env = {**os.environ, "PBEM_HOME": str(home.path)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", *options, "daemon", "--interval", "1"],
                            stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stderr] + [lines.put(None)], daemon=True)
    reader.start()
    seen = []
    try:
        while True:
            line = lines.get(timeout=120)  # a guard against a hung daemon, not a measure of speed
            assert line is not None, "".join(seen)
            seen.append(line)
            if until in line:
                break
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    reader.join(timeout=10)
    while not lines.empty():
        x = lines.get()
        if x is not None:
            seen.append(x)
    return [x.rstrip("\n") for x in seen]


def test_the_daemon_says_what_it_runs_on_and_what_each_pass_did(home):
    lines = daemon_lines(home, "-v", until="tick: 1 message(s) in")
    text = "\n".join(lines)
    [banner] = [x for x in lines if "pbem daemon started" in x]
    assert f"home {home.path}" in banner and "database sqlite:///" in banner
    assert f"inbox Maildir {home.inbox}" in banner and f"outbox Maildir {home.outbox}" in banner
    assert "0 game(s)" in banner
    assert any("WARNING" in x and "no GM address" in x for x in lines)
    assert any("pbem.decision INFO <hello@players.test>: " in x for x in lines), text
    assert any("pbem.runner INFO tick: 1 message(s) in" in x and "1 sent" in x for x in lines), text
    # an idle pass says nothing, and the scheduler's own lines stay out even at -v
    assert sum("tick:" in x for x in lines) == 1, text
    assert not any("apscheduler" in x for x in lines), text


def test_the_daemon_logs_json_without_v(home):
    lines = daemon_lines(home, "--log-format", "json", until='"tick: 1 message(s) in')
    records = [json.loads(x) for x in lines]  # every line is one JSON object
    assert any(r["message"].startswith("pbem daemon started") and r["level"] == "INFO" for r in records)
    [decision] = [r for r in records if r["logger"] == "pbem.decision"]
    assert decision["message_id"] == "<hello@players.test>" and decision["verdict"] == decision["message"].split()[1]
    assert any(r["logger"] == "pbem.runner" and r["message"].startswith("tick:") for r in records)
