"""The home directory: config file, database, server key and mail folders.

Everything pbem keeps lives under one folder (``--home``, ``PBEM_HOME``, or
``./pbem-home``), so a GM can back it up, move it, or run several servers.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# pbem.config (pydantic) and pbem.crypto.sshsig are imported on use: `pbem ingest -` handing a message
# to a running daemon locates the home and reads nothing else (see pbem.pipe).

DEFAULT_CONFIG = """\
# pbem server configuration.  Paths are relative to this folder.
# Every key pbem reads is below; a commented-out key shows its default or an example.
# Unknown keys are errors: `pbem config check` shows what is in force.

[server]
# The game address: the From of everything sent, where players mail orders.
address = "pbem@localhost"
# The name in the From of mail sent.
name = "pbem"
# Larger messages are kept for audit and answered with a rejection.
max_message_bytes = 1048576
# The GM's address: held games, circuit-breaker trips, intake errors and bounces
# are mailed here.  Unset, they reach nobody.
# gm = "gm@example.org"
# The GM's OpenSSH public key (a file in this folder, or the key line itself);
# PBEM-COMMAND mail signed with it runs GM commands.
# gm_key = "gm.pub"
# The GM's time zone: `pbem games` and `pbem gm journal` show times in it.
# tz = "Europe/Warsaw"
# The language of players who chose none (en, ru or pl); each chooses his own with
# `player add --lang`, `gm replace --lang` or a signed `PROFILE lang ru`.
# lang = "ru"

[database]
# SQLite in this folder by default; for PostgreSQL, say
#   url = "postgresql://user@host:5432/dbname"
# (PBEM_DATABASE_URL in the environment overrides it).
url = "sqlite:///{home}/pbem.db"

[mail]
# Incoming mail is read from this Maildir on every tick (an MTA, fetchmail or
# `pbem ingest -` can also deliver).  Outgoing mail goes to the outbox Maildir
# unless [smtp] host is set.
inbox = "inbox"
outbox = "outbox"

[schedule]
# Defaults for new games (`pbem game new --hours ... --set NAME=VALUE` per game).
# Hours a phase stays open for orders, and for a short interrupt window.
hours = 48
interrupt_hours = 12
# With a fixed --schedule (weekdays and times), the next slot that leaves at least
# this many hours to write orders.
# min_hours = 12
# Orders arriving this long after the deadline still count.
# grace_hours = 0
# Players who owe orders are reminded this many hours before the deadline.
# remind_hours = 12
# More sides than this without orders at a deadline hold the game (a mail outage
# looks like this) and tell the GM.
# max_missing = 1
# Longest vacation a player may take.
# vacation_hours = 72

# Outgoing mail over SMTP (without host: the outbox Maildir).
# [smtp]
# host = "smtp.example.org"
# port = 587
# starttls = true
# # implicit TLS (port 465) instead of STARTTLS:
# tls = false
# username = "games@example.org"
# # the password: a file in this folder holding it (mode 600), or the password itself (not both)
# password_file = "smtp-password"
# password = ""
# # trust this CA file (a club's own mail server) instead of the system's
# cafile = "ca.pem"
# # each message also goes to the game address in the same SMTP transaction; the copy coming
# # back proves delivery, so a daemon killed mid-send never sends a message twice
# confirm_by_copy = true

# Incoming mail from an IMAP mailbox (IDLE wakes the daemon when mail arrives).
# [imap]
# host = "imap.example.org"
# # 993 with tls, 143 without
# port = 993
# tls = true
# starttls = false
# username = "games@example.org"
# password_file = "imap-password"
# password = ""
# cafile = "ca.pem"
# mailbox = "INBOX"
# # handled mail is moved here; "" keeps it in the mailbox, marked seen
# processed = "pbem-processed"

# The daemon takes mail from an MTA (Postfix) over LMTP: host:port or unix:/path.
# [lmtp]
# listen = "127.0.0.1:2424"

# `pbem web`: read-only pages beside the mail.  With url set, every sitrep carries its seat's private
# link; `pbem web rotate` revokes every link at once.
# [web]
# url = "https://pbem.example.org"
# listen = "127.0.0.1:8080"
# link_days = 30.0
# cookie_minutes = 60.0
# # a running game's turns become public this many turns behind (0: only after the end)
# archive_delay_turns = 0
# rate_per_minute = 120

# Notices beside the sitrep per phase: each player picks with PROFILE pref notices phase|digest, digest_hour,
# alarm and webhook.  The club's own hook hears every seat's "your move" (discord, slack, matrix or json).
# [notices]
# webhook_url = "https://discord.com/api/webhooks/ID/TOKEN"
# webhook_format = "discord"
# # allow hooks to loopback and private addresses (players name the URLs: keep it off on a club server)
# webhook_private = false
# webhook_timeout = 10.0
# webhook_attempts = 6
# # the local hour a digest goes when the player names none
# digest_hour = 7
"""


class HomeError(Exception):
    """The home folder is missing or its config is wrong."""


@dataclass
class Home:
    path: Path
    config: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.path = Path(self.path)

    @classmethod
    def locate(cls, path: str | os.PathLike | None) -> "Home":
        return cls(Path(path or os.environ.get("PBEM_HOME") or "pbem-home").resolve())

    @property
    def config_path(self) -> Path:
        return self.path / "config.toml"

    def exists(self) -> bool:
        return self.config_path.exists()

    def load(self) -> "Home":
        from pbem import config

        if not self.exists():
            raise HomeError(f"no pbem home at {self.path} (run `pbem init` first, or pass --home)")
        try:
            raw = tomllib.loads(self.config_path.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise HomeError(f"{self.config_path}: {exc}") from None
        try:
            config.validate(raw, self.config_path, self.path)
        except config.ConfigError as exc:
            raise HomeError(str(exc)) from None
        self.config = raw
        return self

    def section(self, name: str) -> dict[str, Any]:
        """The section as a plain dict, defaults filled in for the keys the file leaves out."""
        from pbem import config

        return {**config.defaults(name), **self.config.get(name, {})}

    @property
    def db_url(self) -> str:
        url = os.environ.get("PBEM_DATABASE_URL") or self.section("database").get("url", "sqlite:///{home}/pbem.db")
        return url.replace("{home}", str(self.path))

    def folder(self, key: str, default: str) -> Path:
        return self.path / self.section("mail").get(key, default)

    @property
    def inbox(self) -> Path:
        return self.folder("inbox", "inbox")

    @property
    def outbox(self) -> Path:
        return self.folder("outbox", "outbox")

    @property
    def address(self) -> str:
        return self.section("server").get("address", "pbem@localhost")

    @property
    def max_message_bytes(self) -> int:
        return int(self.section("server").get("max_message_bytes", 1 << 20))

    @property
    def key_path(self) -> Path:
        return self.path / "server_key"

    def server_key(self):
        from pbem.crypto import sshsig

        return sshsig.load_private_key(self.key_path.read_bytes())

    def create(self, db_url: str | None = None) -> None:
        """Make the folder, config, server key and Maildirs (keeping any that exist)."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.config_path.exists():
            text = DEFAULT_CONFIG
            if db_url:
                text = text.replace('url = "sqlite:///{home}/pbem.db"', f'url = "{db_url}"')
            self.config_path.write_text(text)
        self.load()
        if not self.key_path.exists():
            from pbem.crypto import sshsig

            key = sshsig.generate_private_key()
            self.key_path.write_bytes(sshsig.private_key_pem(key))
            self.key_path.chmod(0o600)
            self.key_path.with_suffix(".pub").write_text(sshsig.public_key_of(key, self.address).line() + "\n")
        for box in (self.inbox, self.outbox):
            for sub in ("tmp", "new", "cur"):
                (box / sub).mkdir(parents=True, exist_ok=True)
