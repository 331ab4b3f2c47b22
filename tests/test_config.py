"""config.toml is checked: a typo or a bad value stops every command with a message naming it."""
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import config
from pbem.cli import main
from pbem.home import DEFAULT_CONFIG, Home

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path):
    """A real home made by `pbem init` (SQLite in the folder)."""
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "init"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return Home(tmp_path / "home")


def pbem(home, *args):
    return CliRunner().invoke(main, ["--home", str(home.path), *args])


def append(home, text):
    with open(home.config_path, "a") as fh:
        fh.write("\n" + text + "\n")


def test_a_typo_in_smtp_stops_tick_and_names_key_section_and_file(home):
    append(home, '[smtp]\nhostname = "smtp.example.org"')
    result = pbem(home, "tick")
    assert result.exit_code != 0
    assert str(home.config_path) in result.output
    assert "[smtp] unknown key 'hostname' (did you mean host?)" in result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert not list((home.outbox / "new").iterdir())  # nothing "sent" into the Maildir


def test_an_unknown_section_is_named_with_a_suggestion(home):
    append(home, '[imapp]\nhost = "imap.example.org"')
    result = pbem(home, "games")
    assert result.exit_code != 0
    assert "unknown section [imapp] (did you mean [imap]?)" in result.output


def test_every_problem_is_listed_at_once(home):
    append(home, '[smtp]\nhots = "x"\nport = 0\n[lmtp]\nlisten = "nowhere"')
    out = pbem(home, "config", "check").output
    assert "unknown key 'hots' (did you mean host?)" in out
    assert "[smtp] port = 0" in out
    assert "[lmtp] listen = 'nowhere'" in out


@pytest.mark.parametrize("section, text, expected", [
    ("smtp", 'host = "smtp.example.org"\nport = 70000', "[smtp] port = 70000: Input should be less than or equal to 65535"),
    ("smtp", 'host = "smtp.example.org"\nport = "587"', "[smtp] port = '587': Input should be a valid integer"),
    ("smtp", 'starttls = "yes"', "[smtp] starttls = 'yes': Input should be a valid boolean"),
    ("smtp", 'password_file = "smtp-password"', "[smtp] password_file = 'smtp-password': file 'smtp-password' "
                                                "does not exist"),
    ("smtp", 'password = "s3cret"\npassword_file = "config.toml"', "[smtp] set password or password_file, not both"),
    ("imap", 'host = "imap.example.org"\ncafile = "ca.pem"', "[imap] cafile = 'ca.pem': file 'ca.pem' does not exist"),
    ("lmtp", 'listen = "127.0.0.1:port"', "[lmtp] listen = '127.0.0.1:port': '127.0.0.1:port' is neither host:port"),
    ("server", 'gm = "the gm"', "[server] gm = 'the gm': 'the gm' is not a mail address"),
    ("server", 'gm_key = "gm.pub"', "[server] gm_key = 'gm.pub': file 'gm.pub' does not exist"),
    ("server", 'gm_key = "ssh-ed25519 AAAAnotakey"', "[server] gm_key = 'ssh-ed25519 AAAAnotakey': the key line is "
                                                     "not an OpenSSH public key"),
    ("server", 'gm_key = "server_key"', "[server] gm_key = 'server_key': file 'server_key' is not an OpenSSH public"),
    ("server", 'tz = "Mars/Olympus"', "[server] tz = 'Mars/Olympus': unknown time zone 'Mars/Olympus'"),
    ("server", "max_message_bytes = 10", "[server] max_message_bytes = 10: Input should be greater than or equal to 1024"),
    ("schedule", "hours = 0", "[schedule] hours = 0: Input should be greater than 0"),
    ("schedule", "grace_hours = -1", "[schedule] grace_hours = -1: Input should be greater than or equal to 0"),
    ("schedule", "max_missing = 1.5", "[schedule] max_missing = 1.5: Input should be a valid integer"),
    ("database", 'url = "not a url"', "[database] url = 'not a url': 'not a url' is not a database URL"),
])
def test_bad_values_are_named(home, section, text, expected):
    raw = home.config_path.read_text()
    if f"\n[{section}]\n" in raw:  # the section is written already: put the keys into it
        for key in re.findall(r"^(\w+) =", text, re.M):
            raw = re.sub(rf"^{key} = .*$", "", raw, flags=re.M)
        raw = raw.replace(f"\n[{section}]\n", f"\n[{section}]\n{text}\n")
        home.config_path.write_text(raw)
    else:
        append(home, f"[{section}]\n{text}")
    result = pbem(home, "tick")
    assert result.exit_code != 0
    assert expected in result.output
    assert "Traceback" not in result.output


def test_gm_key_may_be_a_file_or_the_key_line(home):
    pub = (home.path / "server_key.pub").read_text().strip()
    for value in ("server_key.pub", pub):
        text = re.sub(r"^# gm_key = .*$", f'gm_key = "{value}"', DEFAULT_CONFIG, flags=re.M)
        home.config_path.write_text(text)
        result = pbem(home, "config", "check")
        assert result.exit_code == 0, result.output


def test_secrets_are_not_repeated_in_errors(home):
    append(home, '[smtp]\npassword = 12345678')
    out = pbem(home, "config", "check").output
    assert "[smtp] password: Input should be a valid string" in out and "12345678" not in out


def uncommented(text: str) -> str:
    """The default config with every commented-out key (`# key = value`, `# [section]`) switched on."""
    return re.sub(r"^# (\[\w+\]|\w+ = .*)$", r"\1", text, flags=re.M)


def test_the_default_config_writes_every_key_and_each_is_valid():
    everything = tomllib.loads(uncommented(DEFAULT_CONFIG))
    for name, model in config.SECTIONS.items():
        assert set(everything.get(name, {})) == set(model.model_fields), name
    # the example files it names need not exist for the values to be of the right type and range
    config.validate(everything, "default config", check_files=False)
    config.validate(tomllib.loads(DEFAULT_CONFIG), "default config", Path("."))


def test_the_written_config_documents_gm_and_gm_key(home):
    text = home.config_path.read_text()
    assert re.search(r"^# gm = ", text, re.M) and re.search(r"^# gm_key = ", text, re.M)


def test_the_schedule_defaults_are_the_servers():
    from pbem.server import SETTINGS

    assert config.defaults("schedule") == SETTINGS


def test_the_provider_example_in_deploy_is_valid():
    raw = tomllib.loads((ROOT / "deploy" / "config-imap-provider.toml").read_text())
    cfg = config.validate(raw, "deploy/config-imap-provider.toml", check_files=False)
    assert cfg.imap.host and cfg.smtp.host and cfg.server.gm


def test_section_fills_in_defaults_and_keeps_what_the_file_says(home):
    append(home, '[smtp]\nhost = "smtp.example.org"\nport = 465\ntls = true')
    home.load()
    smtp = home.section("smtp")
    assert smtp["host"] == "smtp.example.org" and smtp["port"] == 465 and smtp["tls"] is True
    assert smtp["confirm_by_copy"] is True and smtp["password"] == ""
    assert "port" not in home.section("imap")  # its default depends on tls: left to the reader
    assert home.section("schedule")["vacation_hours"] == 72.0
    assert home.section("no-such-section") == {}


def test_config_check_prints_settings_with_secrets_masked(home):
    append(home, '[smtp]\nhost = "smtp.example.org"\nusername = "pbem"\npassword = "hunter2-secret"')
    result = pbem(home, "config", "check")
    assert result.exit_code == 0, result.output
    assert "hunter2-secret" not in result.output
    assert f'password = "{config.MASK}"' in result.output
    assert 'host = "smtp.example.org"' in result.output
    assert "max_message_bytes = 1048576" in result.output  # defaults shown too


def test_config_check_masks_the_database_password(home):
    text = home.config_path.read_text().replace('url = "sqlite:///{home}/pbem.db"',
                                                'url = "postgresql://pbem:dbsecret@db.example.org:5432/pbem"')
    home.config_path.write_text(text)
    out = pbem(home, "config", "check").output
    assert "dbsecret" not in out and "postgresql://pbem:***@db.example.org:5432/pbem" in out


def test_config_check_shows_the_live_transports(home):
    out = pbem(home, "config", "check").output
    assert f"inbox:       Maildir {home.inbox}" in out
    assert f"outbox:      Maildir {home.outbox}" in out and "[smtp] host is not set" in out
    assert "gm notices:  nobody: set [server] gm" in out

    (home.path / "smtp-password").write_text("pw\n")
    (home.path / "imap-password").write_text("pw\n")
    text = home.config_path.read_text().replace('\nname = "pbem"', '\nname = "pbem"\ngm = "gm@club.test"')
    home.config_path.write_text(text + '\n[smtp]\nhost = "smtp.club.test"\nport = 465\ntls = true\n'
                                'password_file = "smtp-password"\n'
                                '[imap]\nhost = "imap.club.test"\nusername = "games"\npassword_file = "imap-password"\n'
                                '[lmtp]\nlisten = "127.0.0.1:2424"\n')
    out = pbem(home, "config", "check").output
    assert "IMAP games@imap.club.test:993 (TLS), mailbox INBOX" in out
    assert "LMTP listening on 127.0.0.1:2424" in out
    assert "outbox:      SMTP smtp.club.test:465 (TLS), confirmed by a copy" in out
    assert "gm notices:  to gm@club.test" in out


def test_config_check_fails_on_an_invalid_config(home):
    home.config_path.write_text(home.config_path.read_text().replace('inbox = "inbox"', 'inbx = "inbox"'))
    result = pbem(home, "config", "check")
    assert result.exit_code != 0 and "[mail] unknown key 'inbx' (did you mean inbox?)" in result.output


def test_config_check_without_a_home(tmp_path):
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "none"), "config", "check"])
    assert result.exit_code != 0 and "run `pbem init` first" in result.output


def test_tick_warns_when_no_gm_is_set(home):
    result = pbem(home, "tick")
    assert result.exit_code == 0, result.output
    assert "no GM address" in result.stderr and "set [server] gm" in result.stderr

    text = home.config_path.read_text().replace('\nname = "pbem"', '\nname = "pbem"\ngm = "gm@club.test"')
    home.config_path.write_text(text)
    result = pbem(home, "tick")
    assert result.exit_code == 0 and "no GM address" not in result.stderr


def test_version():
    from importlib.metadata import version

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"pbem {version('pbem')}"


def test_the_server_name_line_is_written_once():
    # scripts (tests/trust/load.py) add `gm` by replacing it; a second match would land in another section
    assert DEFAULT_CONFIG.count('name = "pbem"') == 1


def keys_read_by_the_code() -> set[tuple[str, str]]:
    """(section, key) for every `x = ....section("s")` then `x.get("k"` / `x["k"]`, and `section("s").get("k"`."""
    found = set()
    for path in (ROOT / "pbem").rglob("*.py"):
        src = path.read_text()
        found |= set(re.findall(r'section\("(\w+)"\)\.get\("(\w+)"', src))
        for var, section in re.findall(r'(\w+) = [\w.]*section\("(\w+)"\)', src):
            found |= {(section, key) for key in re.findall(rf'\b{var}(?:\.get\(|\[)"(\w+)"', src)}
    return found


def test_every_key_the_code_reads_is_in_the_schema():
    read = keys_read_by_the_code()
    assert ("smtp", "host") in read and ("server", "gm") in read and ("imap", "mailbox") in read  # the scan works
    missing = {(s, k) for s, k in read if k not in config.SECTIONS[s].model_fields}
    assert not missing, f"add these to pbem/config.py and the default config in pbem/home.py: {sorted(missing)}"
