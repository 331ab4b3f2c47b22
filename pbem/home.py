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

from pbem.crypto import sshsig

DEFAULT_CONFIG = """\
# pbem server configuration.  Paths are relative to this folder.
[server]
# The game address: the From of everything sent, where players mail orders.
address = "pbem@localhost"
name = "pbem"
# Larger messages are kept for audit and answered with a rejection.
max_message_bytes = 1048576

[database]
# SQLite in this folder by default; for PostgreSQL:
# url = "postgresql://user@host:5432/dbname"
url = "sqlite:///{home}/pbem.db"

[mail]
# Incoming mail is read from this Maildir on every tick (an MTA, fetchmail or
# `pbem ingest -` can also deliver).  Outgoing mail goes to the outbox Maildir
# unless [smtp] is set.
inbox = "inbox"
outbox = "outbox"

[schedule]
# Hours a phase stays open for orders, and for a short interrupt window.
hours = 48
interrupt_hours = 12

# [smtp]
# host = "smtp.example.org"
# port = 587
# starttls = true
# username = "pbem"
# password_file = "smtp-password"
# # each message also goes to the game address in the same SMTP transaction; the copy coming
# # back proves delivery, so a daemon killed mid-send never sends a message twice
# confirm_by_copy = true
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
        if not self.exists():
            raise HomeError(f"no pbem home at {self.path} (run `pbem init` first, or pass --home)")
        try:
            self.config = tomllib.loads(self.config_path.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise HomeError(f"{self.config_path}: {exc}") from None
        return self

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.config.get(name, {}))

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
            key = sshsig.generate_private_key()
            self.key_path.write_bytes(sshsig.private_key_pem(key))
            self.key_path.chmod(0o600)
            self.key_path.with_suffix(".pub").write_text(sshsig.public_key_of(key, self.address).line() + "\n")
        for box in (self.inbox, self.outbox):
            for sub in ("tmp", "new", "cur"):
                (box / sub).mkdir(parents=True, exist_ok=True)
