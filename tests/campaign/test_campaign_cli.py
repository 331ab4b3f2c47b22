"""`pbem campaign` on the command line: new, status, form, orders, advance, edit and their refusals."""
from click.testing import CliRunner

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.cli import main
from pbem.crypto import sshsig
from pbem.home import Home
from pbem.server import Server

from .play import signed


def test_campaign_commands(tmp_path, db_url):
    server = Server.init(Home(tmp_path / "home"), db_url)
    server.engine.dispose()
    keys = {}
    for seat in ("de", "gb"):
        keys[seat] = sshsig.generate_private_key()
        (tmp_path / f"{seat}.pub").write_text(sshsig.public_key_of(keys[seat]).line() + "\n")
    home = ["--home", str(tmp_path / "home")]
    run = CliRunner().invoke
    out = run(main, [*home, "campaign", "new", "lew_morski/raid", "r1", "--seat", f"de=de@x.test:{tmp_path}/de.pub",
                     "--seat", f"gb=gb@x.test:{tmp_path}/gb.pub:Europe/London"])
    assert out.exit_code == 0 and "game 1 of r1 (The probe (Wariant 1)) is r1-1" in out.output, out.output
    out = run(main, [*home, "campaign", "status", "r1"])
    assert out.exit_code == 0 and "r1: Lew Morski: the course of a raid (lew_morski) — playing" in out.output
    assert "still in play (active)" in run(main, [*home, "campaign", "advance", "r1"]).output
    form = run(main, [*home, "campaign", "form", "r1", "gb"]).output
    assert form.startswith("PBEM-ORDERS 1\nGame: r1\nSide: gb\nTurn: 1\nPhase: admin")
    (tmp_path / "orders.txt").write_text(signed(form.split("\n\n")[0] + "\n\nCHOOSE Spit-1\n", keys["gb"]))
    out = run(main, [*home, "campaign", "orders", "r1", str(tmp_path / "orders.txt")])
    assert out.exit_code == 1 and "is not between games (it is playing)" in out.output
    out = run(main, [*home, "campaign", "edit", "r1", "gb", "VP", "3"])
    assert out.exit_code == 1 and "edits the standing between games only" in out.output
    out = run(main, [*home, "campaign", "new", "duel/nothing", "r2", "--seat", f"de=de@x.test:{tmp_path}/de.pub"])
    assert out.exit_code == 1 and "no campaign 'duel/nothing'" in out.output
    out = run(main, [*home, "campaign", "status", "r9"])
    assert out.exit_code == 1 and "no campaign 'r9' (campaigns: r1)" in out.output
