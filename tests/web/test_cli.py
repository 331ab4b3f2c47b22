"""`pbem web` as a GM runs it: the command serves the pages with uvicorn; `pbem web rotate` needs a home."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

from click.testing import CliRunner

from pbem.cli import main
from tests.web.test_browser import _free_port


def test_pbem_web_serves_with_the_security_headers(tmp_path):
    home = tmp_path / "home"
    assert CliRunner().invoke(main, ["--home", str(home), "init"]).exit_code == 0
    port = _free_port()
    env = {**os.environ, "PBEM_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "web", "--listen", f"127.0.0.1:{port}"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/archive/", timeout=2) as r:
                    body, headers = r.read().decode(), r.headers
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read().decode()
                time.sleep(0.2)
        assert "<h1>Archive</h1>" in body and "No game is public yet." in body
        assert headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert headers["Referrer-Policy"] == "no-referrer"
        assert (home / "web_secret").exists()
    finally:
        proc.terminate()
        proc.wait(10)


def test_rotate_needs_a_home(tmp_path):
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "none"), "web", "rotate"])
    assert result.exit_code != 0 and "no pbem home" in result.output
