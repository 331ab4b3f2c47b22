"""The server: the engine's services wired over one home, behind the names the CLI and the tests use.

A thin façade, with no logic of its own: each method hands its call to the service that does the
work (see :mod:`pbem.services`).  Every such call is one or more complete transactions, so a process
killed at any point leaves the database consistent: an accepted order is stored together with its
acknowledgement; a resolution is stored together with its journal entry and the sitreps it produced
(the outbox pattern); sending is a separate, retried step (:mod:`pbem.delivery`).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterable

from sqlmodel import Session

from pbem import gm
from pbem.core.ruleset import Ruleset
from pbem.crypto import sshsig
from pbem.home import Home
from pbem.services.deadlines import Deadlines
from pbem.services.deps import Deps
from pbem.services.ingest import IntakeService, Verdict
from pbem.services.lifecycle import GAME_ID, GameLifecycle
from pbem.services.outbox import OutboxService
from pbem.services.queries import Queries
from pbem.services.records import SETTINGS, ServerError, entry_dict as _entry_dict, seat_dict as _seat_dict
from pbem.services.resolution import ResolutionService
from pbem.services.sitreps import RENDERER, BuiltSitrep, build_sitrep
from pbem.services.wiring import Services
from pbem.store import db as store_db
from pbem.store.models import Game, Outbox, Seat, Sitrep
from pbem.store.times import aware, iso as _iso, utcnow

__all__ = ["GAME_ID", "RENDERER", "SETTINGS", "BuiltSitrep", "Server", "ServerError", "Verdict", "_entry_dict",
           "_iso", "_seat_dict", "aware", "build_sitrep", "utcnow"]


class Server:
    """The pbem server bound to one home folder: the services, wired once, and their entry points."""

    error = ServerError

    def __init__(self, home: Home, *, clock: Callable[[], datetime] = utcnow,
                 extra_rulesets: tuple[Ruleset, ...] = ()) -> None:
        self.deps = Deps.open(home, clock=clock, extra_rulesets=extra_rulesets)
        self.services = Services.build(self.deps)
        self.intake = IntakeService(self.services)
        self.lifecycle = GameLifecycle(self.services)
        self.deadlines = Deadlines(self.deps, self.services.outbox)
        self.queries = Queries(self.deps, self.services.states)
        deps = self.deps  # fixed for the server's life: plain attributes, as they always were
        self.home, self.engine, self.key, self.key_fingerprint = deps.home, deps.engine, deps.key, deps.key_fingerprint
        self.clock, self.extra_rulesets = deps.clock, deps.extra_rulesets

    @classmethod
    def init(cls, home: Home, db_url: str | None = None, **kw: Any) -> "Server":
        """Create the home (config, key, mail folders), migrate its database, and open it."""
        home.create(db_url)
        store_db.migrate(home.db_url)
        return cls(home, **kw)

    # ------------------------------------------------------------ the dependencies, by their old names
    @property
    def gm_key(self) -> sshsig.PublicKey | None:
        return self.deps.gm_key

    @property
    def _domain(self) -> str:
        return self.deps.domain

    @property
    def resolution(self) -> ResolutionService:
        return self.services.resolution

    @property
    def outbox(self) -> OutboxService:
        return self.services.outbox

    def session(self) -> Session:
        return self.deps.session()

    def reader(self) -> Session:
        return self.deps.reader()

    def ruleset(self, name: str) -> Ruleset:
        return self.deps.ruleset(name)

    def load_state(self, game: Game) -> tuple[Ruleset, Any]:
        return self.services.states.load(game)

    def view_of(self, game: Game, seat: str) -> Any:
        return self.services.states.view_of(game, seat)

    # ------------------------------------------------------------ intake, resolution, outbox
    def ingest(self, raw: bytes, *, advance: bool = True) -> Verdict:
        """Take one message (see :meth:`IntakeService.ingest_many`)."""
        return self.ingest_many([raw], advance=advance)[0]

    def ingest_many(self, raws: Iterable[bytes], *, advance: bool = True) -> list[Verdict]:
        return self.intake.ingest_many(raws, advance=advance)

    def advance(self, game_id: str) -> int:
        return self.services.resolution.advance(game_id)

    def outbox_bytes(self, row: Outbox) -> bytes:
        return self.services.outbox.compose(row)

    def report_bounce(self, row: Outbox, error: str, *, hint: str | None = None) -> None:
        self.services.outbox.report_bounce(row, error, hint=hint)

    # ------------------------------------------------------------ life cycle, deadlines
    def new_game(self, game_id: str, ruleset_name: str, scenario: str, options: Any = None, **kw: Any) -> Game:
        return self.lifecycle.new_game(game_id, ruleset_name, scenario, options, **kw)

    def add_player(self, game_id: str, seat: str, email: str, pubkey: str, tz: str = "UTC") -> Seat:
        return self.lifecycle.add_player(game_id, seat, email, pubkey, tz)

    def remind(self) -> int:
        return self.deadlines.remind()

    def next_deadline(self) -> datetime | None:
        return self.deadlines.next_deadline()

    def due_games(self) -> list[str]:
        return self.deadlines.due_games()

    # ------------------------------------------------------------ queries
    def status(self, game_id: str) -> dict[str, Any]:
        return self.queries.status(game_id)

    def held_games(self) -> list[str]:
        return self.queries.held_games()

    def games(self) -> list[Game]:
        return self.queries.games()

    def overview(self, *, archived: bool = False) -> list[dict[str, Any]]:
        return self.queries.overview(archived=archived)

    def players(self) -> list[dict[str, Any]]:
        return self.queries.players()

    def sitrep(self, game_id: str, seat: str, turn: int | None = None) -> Sitrep:
        return self.queries.sitrep(game_id, seat, turn)

    def order_form(self, game_id: str, seat: str) -> str:
        return self.queries.order_form(game_id, seat)

    def journal(self, game_id: str) -> list[dict[str, Any]]:
        return self.queries.journal(game_id)

    # ------------------------------------------------------------ GM commands (functions in pbem.gm)
    def pause(self, game_id: str, by: str = "the GM") -> str:
        return gm.pause(self.services, game_id, by)

    def resume(self, game_id: str, by: str = "the GM") -> str:
        return gm.resume(self.services, game_id, by)

    def extend(self, game_id: str, hours: float, by: str = "the GM") -> str:
        return gm.extend(self.services, game_id, hours, by)

    def resolve_now(self, game_id: str, by: str = "the GM") -> str:
        return gm.resolve_now(self.services, game_id, by)

    def rollback(self, game_id: str, to_seq: int, by: str = "the GM") -> str:
        return gm.rollback(self.services, game_id, to_seq, by)

    def replace_player(self, game_id: str, seat: str, email: str | None = None, pubkey: str | None = None,
                       by: str = "the GM", *, tz: str | None = None) -> str:
        return gm.replace_player(self.services, game_id, seat, email, pubkey, by, tz=tz)

    def resend(self, game_id: str, seat: str, by: str = "the GM") -> str:
        return gm.resend(self.services, game_id, seat, by)

    def end_game(self, game_id: str, text: str = "", by: str = "the GM") -> str:
        return gm.end_game(self.services, game_id, text, by)

    def archive(self, game_id: str, *, force: bool = False, by: str = "the GM") -> str:
        return gm.archive(self.services, game_id, force=force, by=by)

    def vacation(self, game_id: str, seat: str, hours: float) -> str:
        return gm.vacation(self.services, game_id, seat, hours)

    def run_command(self, game_id: str, verb: str, args: list[str], *, by: str, seat: str = "") -> str:
        return gm.run_command(self.services, game_id, verb, args, by=by, seat=seat)
