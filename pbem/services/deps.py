"""What every service is given: the home, the database, the clock, the rulesets and the server's key."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from collections.abc import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session

from pbem import rules
from pbem.core.ruleset import Ruleset
from pbem.crypto import sshsig
from pbem.gamedata import bind, overrides_of
from pbem.home import Home
from pbem.store import db as store_db
from pbem.store.models import Game
from pbem.store.times import utcnow


@dataclass
class Deps:
    """The explicit dependencies of the services (never a global): built once per home and process."""

    home: Home
    engine: Engine
    key: Any  # the server's private key (see pbem.crypto.sshsig)
    clock: Callable[[], datetime] = utcnow
    extra_rulesets: tuple[Ruleset, ...] = ()
    key_fingerprint: str = field(init=False)

    def __post_init__(self) -> None:
        self.key_fingerprint = sshsig.public_key_of(self.key).fingerprint

    @classmethod
    def open(cls, home: Home, *, clock: Callable[[], datetime] = utcnow,
             extra_rulesets: tuple[Ruleset, ...] = ()) -> Deps:
        """The dependencies of a loaded home: its database engine and server key."""
        home = home if home.config else home.load()
        return cls(home, store_db.make_engine(home.db_url), home.server_key(), clock, extra_rulesets)

    def session(self) -> Session:
        """A session for one transaction; rows stay usable after the commit."""
        return Session(self.engine, expire_on_commit=False)

    def reader(self) -> Session:
        """A session that only reads (on SQLite it takes no write lock)."""
        return Session(self.engine.execution_options(readonly=True), expire_on_commit=False)

    def ruleset(self, name: str) -> Ruleset:
        """The registered ruleset called ``name`` (the test rulesets given at start included)."""
        return rules.find_ruleset(name, self.extra_rulesets)

    def ruleset_for(self, game: Game) -> Ruleset:
        """The game's ruleset, each call made under the game's own data corrections (if it has any)."""
        return bind(self.ruleset(game.ruleset), overrides_of(game))

    @property
    def domain(self) -> str:
        """The domain of the server's Message-IDs."""
        return self.home.address.split("@")[-1] or "pbem.invalid"

    @property
    def gm_address(self) -> str:
        """Where notices for the GM go ("" when nobody is set)."""
        return str(self.home.section("server").get("gm", ""))

    @property
    def gm_key(self) -> sshsig.PublicKey | None:
        """The GM's public key from the config (a file name in the home, or the key line itself)."""
        ref = self.home.section("server").get("gm_key", "")
        if not ref:
            return None
        path = self.home.path / ref
        return sshsig.PublicKey.parse(path.read_text() if path.exists() else ref)
