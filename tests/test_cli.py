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


# ------------------------------------------------------------------ sign with a real player's key
@pytest.fixture
def protected_key(tmp_path):
    """A key as most players have one: OpenSSH's own format, passphrase-protected (bcrypt KDF)."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-C", "player", "-f", str(tmp_path / "k")],
                   check=True)
    (tmp_path / "orders.txt").write_text("PBEM-ORDERS 1\nGame: g1\nSide: east\nTurn: 1\nPhase: fire\n\nFIRE 3\n")
    return tmp_path / "k"


def _ssh_verifies(tmp_path, signed: str) -> bool:
    text, sig = signed.split("-----BEGIN SSH SIGNATURE-----")
    (tmp_path / "o.sig").write_text("-----BEGIN SSH SIGNATURE-----" + sig)
    (tmp_path / "allowed").write_text("p@x " + (tmp_path / "k.pub").read_text())
    out = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(tmp_path / "allowed"), "-I", "p@x", "-n", "pbem",
                          "-s", str(tmp_path / "o.sig")], input=text.encode(), capture_output=True)
    return out.returncode == 0


def test_sign_asks_for_the_passphrase_of_a_protected_key(protected_key, tmp_path):
    result = CliRunner().invoke(main, ["sign", str(tmp_path / "orders.txt"), "--key", str(protected_key)],
                                input="secret\n")
    assert result.exit_code == 0, result.output
    assert "Passphrase for" in result.stderr and "secret" not in result.output  # asked on stderr, hidden
    assert result.stdout.startswith("PBEM-ORDERS 1\n") and _ssh_verifies(tmp_path, result.stdout)


def test_sign_reads_the_passphrase_from_a_file_for_scripts(protected_key, tmp_path):
    (tmp_path / "pass").write_text("secret\n")
    result = CliRunner().invoke(main, ["sign", str(tmp_path / "orders.txt"), "--key", str(protected_key),
                                       "--passphrase-file", str(tmp_path / "pass")])
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and _ssh_verifies(tmp_path, result.stdout)


def test_sign_with_a_wrong_passphrase_says_so_in_one_line(protected_key, tmp_path):
    (tmp_path / "pass").write_text("guess\n")
    result = CliRunner().invoke(main, ["sign", str(tmp_path / "orders.txt"), "--key", str(protected_key),
                                       "--passphrase-file", str(tmp_path / "pass")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # no traceback
    assert result.stderr.strip() == f"Error: wrong passphrase for {protected_key}"


@pytest.mark.parametrize("name, content, expected", [
    ("k.pub", None, "is a public key; sign with the private key file, or use "
                    "`ssh-keygen -Y sign -n pbem -f KEY FILE`"),
    ("notes.txt", "my orders for next week\n", "is not a private key"),
])
def test_sign_with_something_that_is_not_a_private_key_is_one_clean_line(protected_key, tmp_path, name, content,
                                                                          expected):
    if content is not None:
        (tmp_path / name).write_text(content)
    result = CliRunner().invoke(main, ["sign", str(tmp_path / "orders.txt"), "--key", str(tmp_path / name)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # no traceback
    assert len(result.stderr.strip().splitlines()) == 1 and expected in result.stderr


# ------------------------------------------------------------------ verify the server's mail
@pytest.fixture
def mailed(cli, tmp_path, keys):
    """A game whose replies and sitreps went out to the home's outbox Maildir."""
    from pbem.crypto import sshsig
    from tests.helpers import mail, signed

    cli("game", "new", "club-1", "--rules", "duel", "--scenario", "standard", "--seed-hex", "00ff" * 8)
    for side in ("east", "west"):
        (tmp_path / f"{side}.pub").write_text(sshsig.public_key_of(keys[side]).line() + "\n")
        cli("player", "add", "club-1", side, "--email", f"{side}@x.test", "--key", str(tmp_path / f"{side}.pub"))
    form = cli("orders", "club-1", "east").output
    (tmp_path / "in.eml").write_bytes(mail(signed(form, keys["east"]), sender="east@x.test"))
    cli("ingest", str(tmp_path / "in.eml"))
    outbox = tmp_path / "home" / "outbox" / "new"
    found = {}
    for path in sorted(outbox.iterdir()):
        kind = next(line for line in path.read_text().splitlines() if line.startswith("X-PBEM-Kind:")).split()[1]
        found[kind] = path
    assert {"ack", "sitrep"} <= found.keys()
    return found


def test_verify_a_sitrep_and_an_ack_as_mailed(cli, mailed, tmp_path):
    from pbem.crypto import sshsig

    server_pub = tmp_path / "home" / "server_key.pub"
    fingerprint = sshsig.PublicKey.parse(server_pub.read_text()).fingerprint
    sitrep = mailed["sitrep"].read_text()
    assert fingerprint in sitrep.replace("=\n", "")  # the footer names the key to expect (text and HTML)
    assert f"Server key (signs this mail; check with `pbem verify`): {fingerprint}" in cli(
        "sitrep", "club-1", "east").output
    assert fingerprint in cli("sitrep", "club-1", "east", "--html").output
    for path in (mailed["sitrep"], mailed["ack"]):
        out = cli("verify", str(path), "--key", str(server_pub)).output
        assert out.strip() == f"{path}: OK, signed by the server key {fingerprint}"
        assert "OK" in cli("verify", str(path)).output  # the home's key, by default
    assert "OK" in cli("replay", "club-1").output  # the footer is reproduced byte for byte


def test_verify_refuses_a_tampered_message(cli, mailed, tmp_path):
    raw = mailed["ack"].read_bytes()
    assert b"FIRE 3" in raw
    (tmp_path / "tampered.eml").write_bytes(raw.replace(b"FIRE 3", b"FIRE 5", 1))
    result = cli("verify", str(tmp_path / "tampered.eml"), ok=False)
    assert result.exit_code == 1
    assert "NOT VERIFIED: the signature does not match the text" in result.output


def test_verify_refuses_another_key(cli, mailed, tmp_path, keys):
    result = cli("verify", str(mailed["sitrep"]), "--key", str(tmp_path / "west.pub"), ok=False)
    assert result.exit_code == 1 and "NOT VERIFIED: signed by SHA256:" in result.output
    assert "not by the server key" in result.output


def test_verify_says_when_there_is_no_signature(cli, tmp_path):
    (tmp_path / "plain.eml").write_text("From: a@b.test\nSubject: hi\n\nhello\n")
    result = cli("verify", str(tmp_path / "plain.eml"), ok=False)
    assert result.exit_code == 1 and "no pbem-server.sig attachment" in result.output


def test_verify_without_a_server_key_names_the_signer_to_compare(mailed, tmp_path):
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "no-home"), "verify", str(mailed["ack"])])
    assert result.exit_code == 0, result.output
    assert "signature OK, by SHA256:" in result.stdout and "compare this fingerprint" in result.stdout


def test_rules_and_placeholders_list_wing_leader():
    """`pbem rules` names Wing Leader with its three scenarios and options; `pbem placeholders` lists its chosen
    values (the lost tables and cards), and `--all` its rulebook and example values too."""
    def cli(*args):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    block = cli("rules", "--provenance").split("wing_leader:", 1)[1]
    for line in ("scenario sweep:", "scenario raid:", "scenario dogfight:", "option cadence='standard'",
                 "option seats_per_side=1", "option escape_reading='rule'"):
        assert line in block, line
    counts = dict(reversed(p.split()) for p in block.split("data values: ", 1)[1].splitlines()[0].split(", "))
    assert set(counts) == {"rulebook", "example", "placeholder"} and all(int(n) > 0 for n in counts.values())
    placeholders = cli("placeholders", "wing_leader").splitlines()
    assert placeholders and all(ln.endswith("(placeholder)") for ln in placeholders)
    assert any("scenarios.toml: " in ln for ln in placeholders) and any("aircraft.toml: " in ln for ln in placeholders)
    every = cli("placeholders", "wing_leader", "--all")
    assert "(rulebook)" in every and "(example)" in every
