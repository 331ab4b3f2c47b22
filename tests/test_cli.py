"""The command line as a GM and a player use it, with real OpenSSH keys."""
import json
import subprocess

import pytest
from click.testing import CliRunner

from pbem.cli import main
from tests.fixtures.duel import RULESET as DUEL


@pytest.fixture
def cli(tmp_path, monkeypatch, db_url):
    # the CLI finds rulesets through pbem.rules; add the test fixture beside the real ones
    from pbem import rules

    monkeypatch.setattr(rules, "RULESETS", (*rules.RULESETS, DUEL))
    runner = CliRunner()
    home = str(tmp_path / "home")

    def run(*args, input=None, ok=True):
        result = runner.invoke(main, ["--home", home, *args], input=input, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    run("init", "--database", db_url)
    return run


def test_gm_and_players_from_the_command_line(cli, tmp_path):
    out = cli("game", "new", "club-1", "--rules", "duel", "--scenario", "standard", "--seed-hex", "00ff" * 8).output
    assert "created club-1" in out and "east, west" in out
    # east uses OpenSSH's own key and signer, west uses pbem's
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "east")], check=True)
    cli("keygen", str(tmp_path / "west"))
    cli("player", "add", "club-1", "east", "--email", "e@x.test", "--key", str(tmp_path / "east.pub"))
    out = cli("player", "add", "club-1", "west", "--email", "w@x.test", "--key", str(tmp_path / "west.pub"),
              "--tz", "Europe/Warsaw").output
    assert "started" in out

    form = cli("orders", "club-1", "east").output
    assert form.startswith("PBEM-ORDERS 1\nGame: club-1\nSide: east\nTurn: 1\nPhase: fire")
    (tmp_path / "east.txt").write_text(form.replace("FIRE 3", "FIRE 2"))
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem", "-f", str(tmp_path / "east"),
                    str(tmp_path / "east.txt")], check=True, capture_output=True)
    message = (tmp_path / "east.txt").read_text() + (tmp_path / "east.txt.sig").read_text()
    assert "accepted" in cli("ingest", "-", input=message).output

    (tmp_path / "west.txt").write_text(cli("orders", "club-1", "west").output)
    signed = cli("sign", str(tmp_path / "west.txt"), "--key", str(tmp_path / "west")).output
    (tmp_path / "west.eml").write_text(f"From: w@x.test\nSubject: orders\n\n{signed}")
    assert "accepted" in cli("ingest", str(tmp_path / "west.eml")).output

    status = json.loads(cli("status", "club-1", "--json").output)
    assert status["turn"] >= 1 and status["status"] == "active"
    assert "SITUATION REPORT" in cli("sitrep", "club-1", "west").output
    view = json.loads(cli("sitrep", "club-1", "west", "--json").output)
    assert view["seat"] == "west" and "post" in view
    assert "club-1" in cli("games").output
    assert "OK" in cli("replay", "club-1").output
    assert "tick:" in cli("tick").output


def test_rejections_do_not_fail_the_mta_pipe(cli, tmp_path):
    cli("game", "new", "g", "--rules", "duel", "--scenario", "standard")
    result = cli("ingest", "-", input="From: a@b.test\n\nhello\n")
    assert result.exit_code == 0 and "rejected" in result.output and "no order file" in result.output


def test_gm_errors_are_clear(cli):
    result = cli("game", "new", "g", "--rules", "nope", "--scenario", "x", ok=False)
    assert result.exit_code != 0 and "unknown ruleset 'nope'" in result.output and "duel" in result.output
    result = cli("game", "new", "Bad Id", "--rules", "duel", "--scenario", "standard", ok=False)
    assert "lower-case" in result.output
    result = cli("status", "missing", ok=False)
    assert "no game 'missing'" in result.output


def test_keygen_refuses_to_overwrite(cli, tmp_path):
    cli("keygen", str(tmp_path / "k"))
    assert "not overwriting" in cli("keygen", str(tmp_path / "k"), ok=False).output


def test_gm_template_override_for_one_game(cli, tmp_path):
    """A GM's folder of templates replaces the shipped ones for that game only."""
    override = tmp_path / "tpl" / "duel"
    override.mkdir(parents=True)
    (override / "sitrep.txt.j2").write_text('{% extends "common/sitrep.txt.j2" %}'
                                            "{% block situation %}HOUSE STYLE: post {{ view.post }}{% endblock %}")
    cli("game", "new", "custom", "--rules", "duel", "--scenario", "standard", "--templates", str(tmp_path / "tpl"))
    cli("game", "new", "plain", "--rules", "duel", "--scenario", "standard")
    for gid in ("custom", "plain"):
        for seat in ("east", "west"):
            cli("keygen", str(tmp_path / f"{gid}-{seat}"))
            cli("player", "add", gid, seat, "--email", f"{seat}@x.test", "--key", str(tmp_path / f"{gid}-{seat}.pub"))
    assert "HOUSE STYLE: post" in cli("sitrep", "custom", "east").output
    assert "HOUSE STYLE" not in cli("sitrep", "plain", "east").output
    assert "OK" in cli("replay", "custom").output


def test_demo_plays_a_seed_game_through_the_mail_path(tmp_path):
    """`pbem demo` on a fresh home: a real ruleset, signed mail in, sitreps out, replay exact."""
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "demo-home"), "demo", "--turns", "2"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "signed order mails went through the inbox" in result.output
    assert "replay: OK" in result.output
    files = list((tmp_path / "demo-home" / "outbox" / "new").iterdir())
    assert len(files) >= 6
    out = tmp_path / "demo-home" / "demo" / "demo"
    assert {p.suffix for p in out.iterdir()} == {".txt", ".html", ".png"}
