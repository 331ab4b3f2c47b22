"""The server: games, intake, resolution, sitreps and the outbox, over one database.

Every public method is one or more complete transactions, so a process
killed at any point leaves the database consistent: an accepted order is
stored together with its acknowledgement; a resolution is stored together
with its journal entry and the sitreps it produced (the outbox pattern);
sending is a separate, retried step.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from pbem.core.errors import Code, PbemError
from pbem.core.orders import parse_order_file
from pbem.core.play import MAX_AUTOMATIC_PHASES, orders_text, phase_dice, setup_dice
from pbem.core.ruleset import Phase, Ruleset, Window
from pbem.crypto import sshsig
from pbem.gm import GMCommands
from pbem.home import Home
from pbem.intake import Confirmed, Discard, IntakeContext, Message, Reject, run_pipeline
from pbem.journal import (GENESIS, SALT_BYTES, SEED_BYTES, dumps, entry_hash, events_json, local_time, rolls_json,
                          seed_commitment, sitrep_context, state_hash)
from pbem.mail.compose import as_bytes, compose, message_id
from pbem.mail.inbound import LINE_CAP, header_block, one_line, sha256_of
from pbem.pictures import render_png
from pbem.render import render_reply, render_sitrep, renderer_stamp
from pbem.schedule import Schedule, ScheduleError, deadline_for
from pbem.store import db as store_db
from pbem.store import writes as store_writes
from pbem.store.models import Game, Journal, Outbox, Seat, Sitrep, Submission


log = logging.getLogger("pbem.server")
decision_log = logging.getLogger("pbem.decision")

RENDERER = renderer_stamp()

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")

#: Per-game settings and their defaults (overridable in the config's [schedule] and per game).
SETTINGS: dict[str, float | int] = {"hours": 48.0, "interrupt_hours": 12.0, "min_hours": 12.0, "grace_hours": 0.0,
                                    "remind_hours": 12.0, "max_missing": 1, "vacation_hours": 72.0}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def aware(when: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; every time pbem stores is UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=timezone.utc)
    return when


class _WriteFailed(Exception):
    """A write of the fast intake path failed; the batch is taken again, more carefully."""


def _inbound_values(raw: bytes, sha: str, now: datetime, *, status: str, verdict: str, message_id: str = "",
                    sender: str = "", game_id: str = "", seat: str = "", size: int | None = None) -> dict[str, Any]:
    return {"received_at": now, "sha256": sha, "raw": raw, "size": len(raw) if size is None else size, "status": status,
            "verdict": verdict, "message_id": message_id[:998], "sender": sender, "game_id": game_id, "seat": seat}


def _headers(raw: bytes) -> bytes:
    """A message's header block, up to and including the blank line (at most HEADER_CAP bytes)."""
    return header_block(raw)


def _kept(msg: Message) -> bytes:
    """What is stored of a message: all of it, or only its headers when it is over the size limit
    (with its size and hash, for audit), so a stranger cannot grow the database by a message's size."""
    return _headers(msg.raw) if msg.oversize else msg.raw


def _submission_values(msg: Message, now: datetime, *, seat: str, turn: int, phase: str, current: bool
                       ) -> dict[str, Any]:
    return {"game_id": msg.game.id, "seat": seat, "turn": turn, "phase": phase, "text": msg.file.text,
            "signed_sha256": msg.signed_sha256, "signature": msg.signed.signature or "", "current": current,
            "created_at": now}


def _duplicate(message_id: str) -> "Verdict":
    return Verdict("duplicate", message_id, reasons=["this exact message was processed before"])


class ServerError(PbemError):
    """A command the GM gave cannot be carried out; the message says why."""


@dataclass
class Verdict:
    """The outcome of one ingested message, as `pbem ingest` prints it."""

    status: str  # accepted | rejected | discarded | duplicate | failed
    message_id: str
    game: str = ""
    seat: str = ""
    reasons: list[str] = field(default_factory=list)
    resolved: int = 0

    def line(self) -> str:
        who = f" {self.game}/{self.seat}" if self.game else ""
        why = ": " + "; ".join(self.reasons) if self.reasons else ""
        return f"{self.status} {self.message_id or '(no Message-ID)'}{who}{why}"


class Server(GMCommands):
    """The pbem server bound to one home folder."""

    def __init__(self, home: Home, *, clock: Callable[[], datetime] = utcnow,
                 extra_rulesets: tuple[Ruleset, ...] = ()) -> None:
        self.home = home if home.config else home.load()
        self.engine = store_db.make_engine(self.home.db_url)
        self.key = self.home.server_key()
        self.clock = clock
        self.extra_rulesets = extra_rulesets
        self._states: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._views: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
        self._cache_lock = threading.Lock()  # the daemon's LMTP and scheduler threads share the caches

    @classmethod
    def init(cls, home: Home, db_url: str | None = None, **kw) -> "Server":
        home.create(db_url)
        store_db.migrate(home.db_url)
        return cls(home, **kw)

    error = ServerError

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def reader(self) -> Session:
        """A session that only reads (on SQLite it takes no write lock)."""
        return Session(self.engine.execution_options(readonly=True), expire_on_commit=False)

    def ruleset(self, name: str) -> Ruleset:
        from pbem import rules  # imported here: the rulesets import pbem.core, never the server

        return rules.find_ruleset(name, self.extra_rulesets)

    # ------------------------------------------------------------------ state
    def load_state(self, game: Game) -> tuple[Ruleset, Any]:
        """The game's ruleset and current state (cached by journal head: a state is a value)."""
        ruleset = self.ruleset(game.ruleset)
        key = (game.id, game.journal_head)
        with self._cache_lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
                return ruleset, state
        state = ruleset.load(json.loads(game.state_json))
        self._remember(game, state)
        return ruleset, state

    def view_of(self, game: Game, seat: str) -> Any:
        """A seat's view of the game's current state, cached: a view is a value of (state, seat)."""
        key = (game.id, game.journal_head, seat)
        with self._cache_lock:
            view = self._views.get(key)
        if view is None:
            ruleset, state = self.load_state(game)
            view = ruleset.view(state, seat)
            with self._cache_lock:
                self._views[key] = view
                while len(self._views) > 512:
                    self._views.popitem(last=False)
        return view

    def _remember(self, game: Game, state: Any) -> None:
        with self._cache_lock:
            self._states[(game.id, game.journal_head)] = state
            while len(self._states) > 256:  # bounded: a server with 10,000 games must not hold them all
                self._states.popitem(last=False)

    def _journal(self, s: Session, game: Game, kind: str, payload: Any, state_dump: Mapping[str, Any],
                 events=(), rolls=(), phase: Phase | None = None, now: datetime | None = None) -> Journal:
        seq = game.journal_seq + 1 if game.journal_head else 0
        prev = game.journal_head or GENESIS
        ev, ro = events_json(events), rolls_json(rolls)
        st_hash = state_hash(state_dump)
        turn, pname = (phase.turn, phase.name) if phase else (game.turn, game.phase)
        h = entry_hash(prev, seq, kind, turn, pname, payload, ev, ro, st_hash)
        row = Journal(game_id=game.id, seq=seq, kind=kind, turn=turn, phase=pname, payload_json=dumps(payload),
                      events_json=dumps(ev), rolls_json=dumps(ro), state_json=dumps(state_dump),
                      state_hash=st_hash, prev_hash=prev, hash=h, created_at=now or self.clock())
        s.add(row)
        game.journal_seq, game.journal_head = seq, h
        game.state_json = row.state_json
        return row

    # ------------------------------------------------------------------ games
    def new_game(self, game_id: str, ruleset_name: str, scenario: str, options: Mapping[str, Any] | None = None,
                 *, seed: bytes | None = None, hours: float | None = None, interrupt_hours: float | None = None,
                 title: str = "", wait_for_deadline: bool = False, schedule: str = "",
                 settings: Mapping[str, Any] | None = None, templates_dir: str = "") -> Game:
        """Create a game; it starts (the clock runs) once every seat has a player.

        ``settings`` may set ``min_hours``, ``grace_hours``, ``remind_hours``, ``max_missing`` and
        ``vacation_hours`` (defaults from the config's [schedule]).
        """
        if not GAME_ID.match(game_id):
            raise ServerError(f"game id {game_id!r} must be lower-case letters, digits and '-', at most 63")
        ruleset = self.ruleset(ruleset_name)
        try:
            ruleset.info.scenario(scenario)
            opts = ruleset.info.resolve_options(options or {})
        except PbemError as exc:
            raise ServerError(str(exc)) from None
        if schedule:
            try:
                Schedule.parse(schedule)
            except ScheduleError as exc:
                raise ServerError(str(exc)) from None
        sched = {**self.home.section("schedule"), **(settings or {})}
        if hours is not None:
            sched["hours"] = hours
        if interrupt_hours is not None:
            sched["interrupt_hours"] = interrupt_hours
        unknown = set(settings or {}) - set(SETTINGS)
        if unknown:
            raise ServerError(f"unknown setting(s) {', '.join(sorted(unknown))} (known: {', '.join(SETTINGS)})")
        if seed is not None and not SEED_BYTES[0] <= len(seed) <= SEED_BYTES[1]:
            raise ServerError(f"a game seed must be {SEED_BYTES[0]} to {SEED_BYTES[1]} bytes ({SEED_BYTES[0] * 8} bits "
                              f"or more, so that nobody can guess it); this one is {len(seed)}")
        seed = seed if seed is not None else secrets.token_bytes(32)
        salt = secrets.token_bytes(SALT_BYTES)
        dice = setup_dice(seed)
        state = ruleset.setup(scenario, opts, dice)
        now = self.clock()
        with self.session() as s:
            if s.get(Game, game_id) is not None:
                raise ServerError(f"a game {game_id!r} exists already")
            game = Game(id=game_id, ruleset=ruleset_name, scenario=scenario, options_json=dumps(opts),
                        title=title or f"{ruleset.info.title} — {ruleset.info.scenario(scenario).title}",
                        seed_hex=seed.hex(), seed_salt=salt.hex(),
                        seed_commitment=seed_commitment(seed, salt), status="open",
                        wait_for_deadline=wait_for_deadline, schedule=schedule,
                        templates_dir=str(Path(templates_dir).resolve()) if templates_dir else "",
                        **{k: type(SETTINGS[k])(sched.get(k, v)) for k, v in SETTINGS.items()},
                        created_at=now, updated_at=now)
            s.add(game)
            for seat in ruleset.seats(state):
                s.add(Seat(game_id=game_id, name=seat.name, side=seat.side, title=seat.title))
            self._journal(s, game, "setup", {"ruleset": ruleset_name, "scenario": scenario, "options": opts},
                          ruleset.dump(state), rolls=dice.rolls, phase=ruleset.phase(state), now=now)
            self._enter_phase(game, ruleset, state, now, deadline=False)
            s.commit()
            self._remember(game, state)
            return game

    def add_player(self, game_id: str, seat: str, email: str, pubkey: str, tz: str = "UTC") -> Seat:
        """Register a seat's player (address and public key); the last one starts the game."""
        try:
            key = sshsig.PublicKey.parse(pubkey)
        except ValueError as exc:
            raise ServerError(f"public key for {seat}: {exc}") from None
        with self.session() as s:
            game = self._game(s, game_id)
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            if row is None:
                names = s.exec(select(Seat.name).where(Seat.game_id == game_id)).all()
                raise ServerError(f"game {game_id} has no side {seat!r} (its sides: {', '.join(sorted(names))})")
            clash = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.fingerprint == key.fingerprint,
                                              Seat.name != seat)).first()
            if clash is not None:
                raise ServerError(f"that key is already registered for side {clash.name}; "
                                  "each side needs its own key")
            row.email, row.pubkey, row.fingerprint, row.tz = email, key.line(), key.fingerprint, tz
            s.add(row)
            s.flush()
            seats = s.exec(select(Seat).where(Seat.game_id == game_id)).all()
            started = game.status == "open" and all(x.fingerprint for x in seats)
            if started:
                self._start(s, game)
            s.commit()
        if started:
            self.advance(game_id)  # a first phase nobody acts in (weather, set-up rolls) runs at once
        return row

    def _start(self, s: Session, game: Game) -> None:
        now = self.clock()
        ruleset, state = self.load_state(game)
        game.status = "active"
        self._enter_phase(game, ruleset, state, now)
        self._journal(s, game, "start", {"deadline": _iso(game.deadline)}, ruleset.dump(state), now=now)
        self._remember(game, state)
        self._sitreps(s, game, ruleset, state)

    def _enter_phase(self, game: Game, ruleset: Ruleset, state: Any, now: datetime, deadline: bool = True) -> None:
        phase = ruleset.phase(state)
        game.updated_at = now
        if phase is None:
            outcome = ruleset.outcome(state)
            game.status, game.deadline, game.awaiting_json = "over", None, "[]"
            game.phase, game.phase_title = "over", "game over"
            game.outcome_json = dumps({"winner": outcome.winner, "text": outcome.text,
                                       "scores": dict(outcome.scores)} if outcome else
                                      {"winner": None, "text": "the game is over", "scores": {}})
            return
        game.turn, game.phase = phase.turn, phase.name
        game.phase_title = phase.title or phase.name
        game.window, game.prompt = phase.window.value, phase.prompt
        game.awaiting_json = dumps(sorted(phase.awaiting))
        if deadline and phase.awaiting:
            if phase.window == Window.INTERRUPT or phase.hours:
                # an interrupt is one small decision: a short window, never a weekly slot
                game.deadline = now + timedelta(hours=phase.hours or game.interrupt_hours)
            else:
                game.deadline = deadline_for(now, hours=game.hours, schedule=game.schedule,
                                             min_hours=game.min_hours)
        elif not phase.awaiting:
            game.deadline = None

    def _game(self, s: Session, game_id: str, *, lock: bool = False) -> Game:
        query = select(Game).where(Game.id == game_id)
        if lock:
            query = query.with_for_update()
        game = s.exec(query).first()
        if game is None:
            raise ServerError(f"there is no game {game_id!r}")
        return game

    # ------------------------------------------------------------------ intake
    def ingest(self, raw: bytes, *, advance: bool = True) -> Verdict:
        """Take one message: store it, check it, answer it; then resolve its game if it completed a phase."""
        return self.ingest_many([raw], advance=advance)[0]

    def ingest_many(self, raws: Iterable[bytes], *, advance: bool = True) -> list[Verdict]:
        """Take a batch of messages (a Maildir or IMAP poll) in one transaction.

        Each message is checked against what is stored and what the messages before it in the
        batch were found to be; nothing is written until the batch's checks are done, and then its
        rows go in with one statement per table.  A message whose checks fail in any way (a bug
        included) is kept with an error verdict and the rest go on.  Should the writing fail (say
        another daemon stored one of the messages meanwhile), the batch is rolled back and taken
        again with a savepoint per message, so that one message's failure is rolled back alone.
        The batch commits together, and only after the commit are the sources told the messages
        are taken (a crash before it leaves them to be read again).  Commands run, and phases
        resolve, after the commit.
        """
        raws = list(raws)
        now = self.clock()
        try:
            results = self._ingest_batch(raws, now, careful=False)
        except _WriteFailed as exc:
            log.warning("a write failed in a batch of %d; taking it again one savepoint per message: %s",
                        len(raws), exc.__cause__)
            results = self._ingest_batch(raws, now, careful=True)
        verdicts = []
        for verdict, msg, sha in results:
            decision_log.info("%s", verdict.line())
            if verdict.status == "accepted" and msg is not None and msg.commands:
                verdict.reasons = self._run_commands(msg, sha)
            verdicts.append(verdict)
        if advance:
            for game_id in sorted({v.game for v, m, _ in results if v.status == "accepted" and not (m and m.commands)}):
                resolved = self.advance(game_id)
                for v in verdicts:
                    if v.game == game_id and v.status == "accepted":
                        v.resolved = resolved
                        break
        return verdicts

    def _ingest_batch(self, raws: list[bytes], now: datetime, *, careful: bool
                      ) -> list[tuple[Verdict, Message | None, str]]:
        results: list[tuple[Verdict, Message | None, str]] = []
        with self.session() as s:
            ctx = IntakeContext(s, self.load_state, self.gm_key, self.view_of)
            conn = s.connection()
            shas = [sha256_of(raw) for raw in raws]  # of the whole message, when a reader kept only its start
            seen = set() if careful else store_writes.stored(conn, shas)
            batch: list[store_writes.Writes] = []  # the fast path's rows, written together at the end
            for raw, sha in zip(raws, shas):
                if sha in seen:  # stored before, here or by another daemon, or twice in this batch
                    results.append((_duplicate(""), None, sha))
                    continue
                if careful:
                    try:
                        with s.begin_nested():
                            verdict, msg, writes = self._check_one(ctx, raw, sha, now)
                            verdict = self._write(conn, writes, verdict)
                    except Exception as exc:
                        log.exception("intake failed on message %s; kept for the GM", sha[:12])
                        ctx.locked.clear()  # rolling back to a savepoint releases the row locks taken after it
                        with s.begin_nested():
                            verdict, msg, writes = self._check_failed(raw, sha, exc, now)
                            verdict = self._write(conn, writes, verdict)
                else:
                    seen.add(sha)
                    try:
                        verdict, msg, writes = self._check_one(ctx, raw, sha, now)
                    except Exception as exc:  # a bug met by one message: keep it, say so, go on with the rest
                        log.exception("intake failed on message %s; kept for the GM", sha[:12])
                        verdict, msg, writes = self._check_failed(raw, sha, exc, now)
                    ctx.taken(writes.submissions, writes.retire)
                    batch.append(writes)
                results.append((verdict, msg if verdict.status != "duplicate" else None, sha))
            try:
                store_writes.write_batch(conn, batch)
            except Exception as exc:
                raise _WriteFailed(f"{len(batch)} message(s)") from exc
            s.commit()
        return results

    @staticmethod
    def _write(conn, writes: store_writes.Writes, verdict: Verdict) -> Verdict:
        # the unique sha256 refuses a message seen before, here or by another daemon
        return verdict if store_writes.write(conn, writes) else _duplicate(verdict.message_id)

    def _check_failed(self, raw: bytes, sha: str, exc: Exception, now: datetime
                      ) -> tuple[Verdict, None, store_writes.Writes]:
        """Keep a message that made the intake fail, answer its sender, and tell the GM."""
        from pbem.mail.inbound import read_message

        whole = Message(raw=raw, max_bytes=self.home.max_message_bytes)
        try:
            mail = read_message(header_block(raw) if whole.oversize else raw)
            sender, mid = ("" if mail.automatic or mail.from_server else mail.sender), mail.message_id
        except Exception:
            sender, mid = "", ""
        why = one_line(f"{exc.__class__.__name__}: {exc}", 500)  # may quote the message: one line, in a signed text
        writes = store_writes.Writes(_inbound_values(_kept(whole), sha, now, size=whole.size, status="error",
                                                     message_id=mid, sender=sender, verdict=f"internal error: {why}"))
        text = ("pbem could not process your message because of an internal error. The message is kept, "
                "nothing in it was applied, and the GM has been told. Please wait for the GM before resending.\n")
        if sender:
            writes.outbox.append(self._outbox_row(
                kind="reject", to=sender, subject="pbem: internal error", text=text, html=f"<p>{text}</p>",
                msg_id=message_id("error", sha, domain=self._domain), now=now, in_reply_to=mid))
        gm = self.home.section("server").get("gm", "")
        if gm:
            note = f"Intake failed on message {mid or sha[:12]} from {sender or 'unknown'}:\n{why}\n"
            writes.outbox.append(self._outbox_row(
                kind="notice", to=gm, subject="pbem: intake error", text=note, html=f"<pre>{note}</pre>",
                msg_id=message_id("error-gm", sha, domain=self._domain), now=now))
        return Verdict("failed", mid, reasons=[f"internal error, message kept: {why}"]), None, writes

    def _check_one(self, ctx: IntakeContext, raw: bytes, sha: str, now: datetime
                   ) -> tuple[Verdict, Message, store_writes.Writes]:
        """Run the pipeline on one message and say what to store; nothing is written here."""
        msg = Message(raw=raw, max_bytes=self.home.max_message_bytes)
        writes = store_writes.Writes({})
        kept = _kept(msg)
        verdict: Verdict
        try:
            run_pipeline(msg, ctx)
        except Reject as rej:
            status, why = "rejected", "; ".join(str(p) for p in rej.problems)
            verdict = self._rejected(msg, rej, sha, now, writes)
        except Discard as dis:
            status, why = "discarded", dis.reason
            verdict = Verdict("discarded", msg.mail.message_id if msg.mail else "", reasons=[dis.reason])
        except Confirmed as conf:
            status, why, writes.confirm = "confirmed", conf.reason, conf.outbox_id
            verdict = Verdict("confirmed", msg.mail.message_id, reasons=[conf.reason])
            kept = _headers(raw)  # the outbox keeps the bytes; the copy adds the relays' header lines
        else:
            status = "accepted"
            if msg.commands:
                # recorded before it runs: a signed command is carried out once, whatever happens next
                writes.submissions.append(_submission_values(msg, now, seat=msg.seat.name if msg.seat else "gm",
                                                             turn=0, phase="command", current=False))
                why = "command"
                verdict = Verdict("accepted", msg.mail.message_id, msg.game.id,
                                  msg.seat.name if msg.seat else "gm", ["command"])
            else:
                why = f"{len(msg.file.lines)} order line(s) for turn {msg.file.turn} {msg.file.phase}"
                verdict = self._accepted(msg, sha, now, writes)
        writes.inbound = _inbound_values(
            kept, sha, now, size=msg.size, status=status, verdict=why, message_id=msg.mail.message_id if msg.mail else "",
            sender=msg.mail.sender if msg.mail else "", game_id=msg.game.id if msg.game else "",
            seat=msg.seat.name if msg.seat else "")
        return verdict, msg, writes

    def _rejected(self, msg: Message, rej: Reject, sha: str, now: datetime, writes: store_writes.Writes) -> Verdict:
        mid = msg.mail.message_id if msg.mail else ""
        to = msg.reply_to
        if to:
            # Before the signer is known, the reply says nothing about the game's state (no leak to forgers).
            # What the sender wrote (Subject, Message-ID, names quoted in problems) goes into the signed text
            # on one line each: he can place no line of his own in it.
            ctx = {"game_id": msg.game.id if msg.game and msg.key else "",
                   "seat": msg.seat.name if msg.seat and msg.key else "",
                   "message_id": one_line(mid, LINE_CAP),
                   "subject": one_line(msg.mail.subject, LINE_CAP) if msg.mail else "", "hint": rej.hint,
                   "problems": [{"where": f"line {p.line_no}: {p.text!r}: " if p.line_no and p.text else
                                 (f"line {p.line_no}: " if p.line_no else ""),
                                 "message": one_line(p.message), "rule": p.rule, "code": p.code.value}
                                for p in rej.problems]}
            text, html = render_reply("reject", ctx)
            subject = f"Re: {msg.mail.subject}" if msg.mail and msg.mail.subject else "pbem: orders not accepted"
            writes.outbox.append(self._outbox_row(kind="reject", to=to, subject=subject, text=text, html=html,
                                                  msg_id=message_id("reject", sha, domain=self._domain), now=now,
                                                  game_id=ctx["game_id"], in_reply_to=mid))
        return Verdict("rejected", mid, msg.game.id if msg.game and msg.key else "",
                       msg.seat.name if msg.seat and msg.key else "", [str(p) for p in rej.problems])

    def _accepted(self, msg: Message, sha: str, now: datetime, writes: store_writes.Writes) -> Verdict:
        assert msg.game and msg.seat and msg.file and msg.checked is not None and msg.mail is not None
        game, seat, f = msg.game, msg.seat, msg.file
        replaced_at = ""
        if msg.replaced is not None and not msg.unchanged:
            writes.retire = msg.replaced
            replaced_at = local_time(aware(msg.replaced.created_at), seat.tz)
        if not msg.unchanged:
            writes.submissions.append(_submission_values(msg, now, seat=seat.name, turn=f.turn, phase=f.phase,
                                                         current=True))
        ctx = {"game_id": game.id, "seat": seat.name, "turn": f.turn, "phase": f.phase,
               "lines": [{"line_no": ln.line_no, "text": ln.text} for ln in f.lines],
               "notes": list(msg.checked.notes) + msg.notes, "replaced": replaced_at, "unchanged": msg.unchanged,
               "fingerprint": msg.key.fingerprint if msg.key else "",
               "deadline": local_time(aware(game.deadline), seat.tz), "message_id": msg.mail.message_id}
        text, html = render_reply("ack", ctx)
        writes.outbox.append(self._outbox_row(
            kind="ack", to=seat.email, subject=f"[{game.id}] accepted: {seat.name} turn {f.turn} {f.phase}",
            text=text, html=html, msg_id=message_id("ack", sha, domain=self._domain), now=now,
            game_id=game.id, in_reply_to=msg.mail.message_id))
        return Verdict("accepted", msg.mail.message_id, game.id, seat.name,
                       [f"{len(f.lines)} order line(s) for turn {f.turn} {f.phase}"
                        + (", replacing earlier orders" if replaced_at else "")
                        + (", unchanged" if msg.unchanged else "")])

    def _run_commands(self, msg: Message, sha: str) -> list[str]:
        """Carry out the lines of a command file in order; reply with what each did (or why it failed)."""
        by = "the GM" if msg.by_gm else msg.seat.name
        results, problems = [], []
        for n, (verb, args) in enumerate(msg.commands):
            try:
                results.append(self.run_command(msg.game.id, verb, args, by=by,
                                                seat=msg.seat.name if msg.seat else ""))
            except PbemError as exc:
                line = msg.file.lines[n]
                problems.append({"where": f"line {line.line_no}: {line.text!r}: ", "message": str(exc),
                                 "rule": "", "code": Code.COMMAND_FORBIDDEN.value})
        to = self.home.section("server").get("gm", "") if msg.by_gm else msg.seat.email
        with self.session() as s:
            if problems:
                ctx = {"game_id": msg.game.id, "seat": by, "message_id": msg.mail.message_id, "subject": "",
                       "hint": f"Carried out before the problem: {'; '.join(results) or 'nothing'}.",
                       "problems": problems}
                text, html = render_reply("reject", ctx)
            else:
                text = "COMMANDS CARRIED OUT\n\n" + "\n".join(f"- {r}" for r in results) + "\n"
                html = "<ul>" + "".join(f"<li>{r}</li>" for r in results) + "</ul>"
            if to:
                self._queue(s, kind="ack", to=to, subject=f"[{msg.game.id}] commands", text=text, html=html,
                            msg_id=message_id("command", sha, domain=self._domain), now=self.clock(),
                            game_id=msg.game.id, in_reply_to=msg.mail.message_id)
            s.commit()
        return results + [f"failed: {p['where']}{p['message']}" for p in problems]

    @property
    def gm_key(self) -> sshsig.PublicKey | None:
        """The GM's public key from the config (a file name in the home, or the key line itself)."""
        ref = self.home.section("server").get("gm_key", "")
        if not ref:
            return None
        path = self.home.path / ref
        return sshsig.PublicKey.parse(path.read_text() if path.exists() else ref)

    @property
    def _domain(self) -> str:
        return self.home.address.split("@")[-1] or "pbem.invalid"

    def _queue(self, s: Session, **row: Any) -> None:
        store_writes.insert_outbox(s.connection(), [self._outbox_row(**row)])

    @staticmethod
    def _outbox_row(*, kind: str, to: str, subject: str, text: str, html: str, msg_id: str, now: datetime,
                    game_id: str = "", in_reply_to: str = "", png: bytes | None = None,
                    form: str | None = None) -> dict[str, Any]:
        parts = {"text": text, "html": html, "form": form, "in_reply_to": in_reply_to}
        return {"created_at": now, "game_id": game_id, "kind": kind, "to_addr": to, "subject": subject,
                "message_id": msg_id, "parts_json": json.dumps(parts, ensure_ascii=False), "png": png, "raw": None,
                "state": "queued", "attempts": 0, "not_before": now, "sent_at": None, "last_error": ""}

    def outbox_bytes(self, row: Outbox) -> bytes:
        """The message as it was (or will be) sent: composed from its parts, signed by the server."""
        if row.raw is not None:
            return row.raw
        parts = json.loads(row.parts_json)
        mail = compose(server_name=self.home.section("server").get("name", "pbem"),
                       server_address=self.home.address, to=row.to_addr, subject=row.subject,
                       text=parts["text"], html=parts["html"], msg_id=row.message_id,
                       now=aware(row.created_at), game_id=row.game_id, kind=row.kind,
                       in_reply_to=parts.get("in_reply_to", ""), png=row.png, form=parts.get("form"), key=self.key)
        return as_bytes(mail)

    # ------------------------------------------------------------------ resolution
    def advance(self, game_id: str, *, _retries: int = 3) -> int:
        """Resolve every phase of the game that is due; return how many were resolved.

        A ruleset error holds the game (and tells the GM) without touching any other game.
        """
        try:
            with self.session() as s:
                game = self._game(s, game_id, lock=True)
                if game.status != "active":
                    return 0
                count = self._advance(s, game)
                s.commit()
                return count
        except IntegrityError:
            # Two processes completed the same phase at once (SQLite ignores FOR UPDATE): the journal's
            # unique (game, seq) refused the second resolution.  Start again from what is stored rather
            # than hold a healthy game (found by tests/trust/test_load.py).
            if _retries > 0:
                log.info("%s: advanced by another process at the same moment; reloading", game_id)
                return self.advance(game_id, _retries=_retries - 1)
            log.exception("%s: resolution failed; game held", game_id)
            self._hold(game_id, "resolution failed: the journal refused the entry several times")
            return 0
        except Exception as exc:  # a broken ruleset must not stop the daemon or other games
            log.exception("%s: resolution failed; game held", game_id)
            self._hold(game_id, f"resolution failed: {exc.__class__.__name__}: {exc}")
            return 0

    def _advance(self, s: Session, game: Game, force: bool = False) -> int:
        """Resolve while phases are complete or due; ``force`` resolves the current phase now (GM)."""
        ruleset, state = self.load_state(game)
        now = self.clock()
        count = automatic = 0
        while True:
            phase = ruleset.phase(state)
            if phase is None:
                break
            subs = {row.seat: row for row in s.exec(select(Submission).where(
                Submission.game_id == game.id, Submission.turn == phase.turn, Submission.phase == phase.name,
                Submission.current == True)).all()}  # noqa: E712
            missing = sorted(phase.awaiting - subs.keys())
            deadline = aware(game.deadline)
            due = force or (deadline is not None and now >= deadline + timedelta(hours=game.grace_hours))
            if phase.awaiting and (missing or game.wait_for_deadline) and not due:
                break
            if missing and len(missing) > game.max_missing and not force:
                # Many sides silent at once looks like a mail outage, not a decision: hold, tell the GM.
                self._breaker(s, game, missing, now)
                break
            force = False
            automatic = automatic + 1 if not phase.awaiting else 0
            if automatic > MAX_AUTOMATIC_PHASES:
                raise PbemError(f"{automatic} phases in a row await nobody; the ruleset seems to loop")
            texts = {seat: row.text for seat, row in sorted(subs.items())
                     if seat in phase.awaiting or seat in phase.optional}
            state = self._resolve_one(s, game, ruleset, state, phase, texts, missing, now)
            count += 1
        if count:
            s.add(game)
            self._remember(game, state)
            self._sitreps(s, game, ruleset, state)
        return count

    def _resolve_one(self, s: Session, game: Game, ruleset: Ruleset, state: Any, phase: Phase,
                     texts: Mapping[str, str], missing: list[str], now: datetime) -> Any:
        orders = self._orders(ruleset, state, phase, texts, missing)
        dice = phase_dice(bytes.fromhex(game.seed_hex), phase)
        result = ruleset.resolve(state, orders, dice)
        self._enter_phase(game, ruleset, result.state, now)
        notices = [f"{seat} sent no orders by the deadline; the rules' default for missing orders was used"
                   for seat in missing]
        payload = {"phase": phase.key, "orders": dict(texts), "missing": missing, "notices": notices,
                   "deadline": _iso(game.deadline)}
        self._journal(s, game, "resolve", payload, ruleset.dump(result.state), result.events, dice.rolls, phase, now)
        return result.state

    @staticmethod
    def _orders(ruleset: Ruleset, state: Any, phase: Phase, texts: Mapping[str, str],
                missing: Iterable[str]) -> dict[str, Any]:
        orders: dict[str, Any] = {}
        for seat, text in texts.items():
            f, problems = parse_order_file(text)
            if f is None:
                raise PbemError(f"stored orders of {seat} no longer parse: {problems}")
            checked = ruleset.check_orders(ruleset.view(state, seat), seat, f.lines)
            if checked.problems:
                raise PbemError(f"stored orders of {seat} no longer validate: "
                                + "; ".join(map(str, checked.problems)))
            orders[seat] = checked.orders
        for seat in missing:
            orders[seat] = ruleset.default_orders(state, seat)
        return orders

    def _hold(self, game_id: str, reason: str) -> None:
        with self.session() as s:
            game = s.get(Game, game_id)
            if game is None:
                return
            game.status, game.held_reason = "held", reason[:2000]
            s.add(game)
            self._notify_gm(s, game, "game held", f"Game {game_id} is held.\n\n{reason}\n\nFix the cause, "
                            f"then `pbem gm resume {game_id}`.", self.clock())
            s.commit()

    # ------------------------------------------------------------------ sitreps
    def _sitreps(self, s: Session, game: Game, ruleset: Ruleset, state: Any, *, force: bool = False) -> None:
        """Queue a sitrep for every seat that owes orders, saw something, or should hear the game ended.

        Each seat's sitrep covers the journal since its previous one, so a GM action or a notice
        between two resolutions is never missed.
        """
        phase = ruleset.phase(state)
        over = game.status == "over"
        for seat in s.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.name)).all():
            last = s.exec(select(Sitrep.seq).where(Sitrep.game_id == game.id, Sitrep.seat == seat.name)
                          .order_by(Sitrep.seq.desc())).first()
            from_seq = 0 if last is None else last + 1
            if from_seq > game.journal_seq:
                continue
            entries = [_entry_dict(j) for j in s.exec(select(Journal).where(
                Journal.game_id == game.id, Journal.seq >= from_seq).order_by(Journal.seq)).all()]
            owes = phase is not None and not over and (seat.name in phase.awaiting or seat.name in phase.optional)
            saw = any(seat.name in e["visible_to"] for en in entries for e in en["events"])
            told = any(en["payload"].get("notices") for en in entries)
            if not (owes or saw or told or over or last is None or force):
                continue
            built = build_sitrep(ruleset, game, _seat_dict(seat), state, entries)
            mid = message_id("sitrep", game.id, seat.name, game.journal_head, domain=self._domain)
            s.add(Sitrep(game_id=game.id, seat=seat.name, seq=game.journal_seq, from_seq=from_seq, turn=game.turn,
                         phase=game.phase, view_json=built.view_json, text=built.text, html=built.html,
                         png=built.png, message_id=mid, renderer=RENDERER, created_at=self.clock()))
            what = "final report" if over else f"turn {game.turn} {game.phase_title}"
            self._queue(s, kind="sitrep", to=seat.email, subject=f"[{game.id}] {seat.name}: {what}",
                        text=built.text, html=built.html, msg_id=mid, now=self.clock(), game_id=game.id,
                        png=built.png, form=built.form)

    def report_bounce(self, row: Outbox, error: str, *, hint: str | None = None) -> None:
        """Tell the GM, once per message, that it fails for good (the player may have changed address).

        ``hint`` replaces the advice to fix the address, for a failure that is not the address's.
        """
        from html import escape  # the error is the relay's or an exception's text, not ours

        with self.session() as s:
            game = s.get(Game, row.game_id) if row.game_id else None
            gm = self.home.section("server").get("gm", "")
            if not gm:
                return
            hint = hint or "Fix the address with `pbem gm replace`, then `pbem gm resend`."
            text = f"Mail to {row.to_addr} ({row.kind} {row.message_id}) failed permanently:\n{error}\n\n{hint}"
            mid = message_id("bounce", row.message_id, domain=self._domain)
            if s.exec(select(Outbox.id).where(Outbox.message_id == mid)).first() is None:
                self._queue(s, kind="notice", to=gm, subject=f"[{row.game_id or 'pbem'}] undeliverable: "
                            f"{row.to_addr}", text=text, html=f"<pre>{escape(text)}</pre>", msg_id=mid, now=self.clock(),
                            game_id=game.id if game else "")
                s.commit()

    def _breaker(self, s: Session, game: Game, missing: list[str], now: datetime) -> None:
        game.status = "held"
        game.held_reason = (f"circuit breaker: {len(missing)} sides sent no orders by the deadline "
                            f"({', '.join(missing)}), more than the {game.max_missing} allowed; a mail outage "
                            "looks like this. Check mail, then `pbem gm resume` (new window) or `pbem gm resolve`.")
        s.add(game)
        self._notify_gm(s, game, "turn held by the circuit breaker", game.held_reason, now)

    def _notify_gm(self, s: Session, game: Game, subject: str, text: str, now: datetime) -> None:
        gm = self.home.section("server").get("gm", "")
        if gm:
            self._queue(s, kind="notice", to=gm, subject=f"[{game.id}] {subject}", text=text + "\n",
                        html=f"<pre>{text}</pre>", msg_id=message_id("gm", game.id, game.journal_head, subject,
                                                                     domain=self._domain), now=now, game_id=game.id)

    # ------------------------------------------------------------------ queries
    def status(self, game_id: str) -> dict[str, Any]:
        with self.reader() as s:
            game = self._game(s, game_id)
            awaiting = json.loads(game.awaiting_json)
            subs = set(s.exec(select(Submission.seat).where(
                Submission.game_id == game_id, Submission.turn == game.turn, Submission.phase == game.phase,
                Submission.current == True)).all())  # noqa: E712
            seats = s.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.name)).all()
            return {"game": game.id, "ruleset": game.ruleset, "scenario": game.scenario, "title": game.title,
                    "status": game.status, "turn": game.turn, "phase": game.phase, "phase_title": game.phase_title,
                    "window": game.window, "deadline": _iso(aware(game.deadline)),
                    "owing": sorted(set(awaiting) - subs), "in": sorted(set(awaiting) & subs),
                    "seats": [{"name": x.name, "side": x.side, "email": x.email, "key": x.fingerprint}
                              for x in seats],
                    "held_reason": game.held_reason, "journal_head": game.journal_head,
                    "seed_commitment": game.seed_commitment,
                    "outcome": json.loads(game.outcome_json) if game.outcome_json else None}

    def held_games(self) -> list[str]:
        with self.reader() as s:
            return list(s.exec(select(Game.id).where(Game.status == "held").order_by(Game.id)).all())

    def games(self) -> list[Game]:
        with self.reader() as s:
            return list(s.exec(select(Game).order_by(Game.id)).all())

    def sitrep(self, game_id: str, seat: str, turn: int | None = None) -> Sitrep:
        with self.reader() as s:
            q = select(Sitrep).where(Sitrep.game_id == game_id, Sitrep.seat == seat)
            if turn is not None:
                q = q.where(Sitrep.turn == turn)
            row = s.exec(q.order_by(Sitrep.id.desc())).first()
            if row is None:
                raise ServerError(f"no sitrep for {seat} in game {game_id}"
                                  + (f" at turn {turn}" if turn is not None else ""))
            return row

    def order_form(self, game_id: str, seat: str) -> str:
        with self.reader() as s:
            game = self._game(s, game_id)
            ruleset, state = self.load_state(game)
            phase = ruleset.phase(state)
            if phase is None:
                raise ServerError(f"game {game_id} is over")
            if seat not in {x.name for x in ruleset.seats(state)}:
                raise ServerError(f"game {game_id} has no side {seat!r}")
            return orders_text(game_id, seat, phase, ruleset.order_form(ruleset.view(state, seat), seat))

    def remind(self) -> int:
        """Queue one reminder per seat still owing orders when its deadline is near; return how many."""
        now = self.clock()
        count = 0
        with self.session() as s:
            # columns, not rows: a game's row carries its whole state, and a server holds thousands
            games = s.exec(select(Game.id, Game.deadline, Game.window, Game.remind_hours, Game.turn, Game.phase,
                                  Game.phase_title, Game.awaiting_json, Game.grace_hours)
                           .where(Game.status == "active", Game.deadline != None)).all()  # noqa: E711
            for game in games:
                deadline = aware(game.deadline)
                if game.window != "orders" or deadline - timedelta(hours=game.remind_hours) > now or deadline < now:
                    continue
                subs = set(s.exec(select(Submission.seat).where(
                    Submission.game_id == game.id, Submission.turn == game.turn, Submission.phase == game.phase,
                    Submission.current == True)).all())  # noqa: E712
                for seat in s.exec(select(Seat).where(Seat.game_id == game.id)).all():
                    if seat.name not in json.loads(game.awaiting_json) or seat.name in subs:
                        continue
                    mid = message_id("remind", game.id, game.turn, game.phase, seat.name, _iso(deadline),
                                     domain=self._domain)
                    if s.exec(select(Outbox.id).where(Outbox.message_id == mid)).first() is not None:
                        continue  # reminded already for this deadline
                    when = local_time(deadline, seat.tz)
                    grace = f" (and a grace period of {game.grace_hours:g} h)" if game.grace_hours else ""
                    text = (f"Reminder: your orders for game {game.id}, turn {game.turn}, {game.phase_title} "
                            f"are due {when}{grace}.\nReply to your latest sitrep with the signed order form; "
                            f"`pbem orders {game.id} {seat.name}` prints a fresh one.\n")
                    self._queue(s, kind="notice", to=seat.email, subject=f"[{game.id}] orders due {when}",
                                text=text, html=f"<p>{text}</p>", msg_id=mid, now=now, game_id=game.id)
                    count += 1
            s.commit()
        return count

    def next_deadline(self) -> datetime | None:
        with self.reader() as s:
            row = s.exec(select(Game.deadline).where(Game.status == "active", Game.deadline != None)  # noqa: E711
                         .order_by(Game.deadline).limit(1)).first()
        return aware(row)

    def due_games(self) -> list[str]:
        """Active games whose deadline has passed or whose phase may already be complete."""
        now = self.clock()
        with self.reader() as s:
            rows = s.exec(select(Game.id, Game.deadline, Game.awaiting_json).where(Game.status == "active")).all()
            # Games whose awaited orders are all in: a daemon killed between ingest and advance must not
            # leave a complete phase waiting for its deadline (found by the kill -9 soak, tests/soak/crash.py).
            subs = s.exec(select(Submission.game_id, Submission.seat).join(Game, Game.id == Submission.game_id).where(
                Game.status == "active", Submission.current == True,  # noqa: E712
                Submission.turn == Game.turn, Submission.phase == Game.phase)).all()
        have: dict[str, set[str]] = {}
        for gid, seat in subs:
            have.setdefault(gid, set()).add(seat)
        due = []
        for gid, deadline, awaiting in rows:
            # grace is applied inside advance(); asking early costs one cheap check
            if (deadline is not None and aware(deadline) <= now) or awaiting == "[]" \
                    or set(json.loads(awaiting)) <= have.get(gid, set()):
                due.append(gid)
        return due


@dataclass
class BuiltSitrep:
    text: str
    html: str
    png: bytes | None
    view_json: str
    form: str | None


def build_sitrep(ruleset: Ruleset, game: Game, seat: Mapping[str, Any], state: Any,
                 entries: list[dict[str, Any]]) -> BuiltSitrep:
    """Render one seat's sitrep from its view and the journal entries it covers.

    Uses nothing but the state after the last entry, the entries and the game's fixed facts,
    so ``pbem replay`` can rebuild it byte for byte.
    """
    deadline = next((datetime.fromisoformat(e["payload"]["deadline"]) for e in reversed(entries)
                     if e["payload"].get("deadline")), None)
    view = ruleset.view(state, seat["name"])
    phase = ruleset.phase(state)
    owes = phase is not None and (seat["name"] in phase.awaiting or seat["name"] in phase.optional)
    form = orders_text(game.id, seat["name"], phase, ruleset.order_form(view, seat["name"])) if owes else None
    picture = ruleset.picture(view)
    png = render_png(picture) if picture is not None else None
    ended = next((e["payload"] for e in entries if e["kind"] == "end"), None)
    over = phase is None or ended is not None
    if ended is not None:
        phase = None
        owes = False
        form = None
    outcome = ruleset.outcome(state) if phase is None and ended is None else None
    meta = {"id": game.id, "title": game.title, "ruleset": game.ruleset, "scenario": game.scenario,
            "turn": phase.turn if phase else game.turn, "phase": phase.name if phase else "over",
            "phase_title": (phase.title or phase.name) if phase else "game over",
            "prompt": phase.prompt if phase and owes else "",
            "deadline": local_time(deadline, seat.get("tz", "UTC")) if owes else "",
            "seed_commitment": game.seed_commitment, "seed": game.seed_hex if over else None,
            "seed_salt": game.seed_salt if over else None,
            "journal_head": entries[-1]["hash"] if entries else game.journal_head,
            "notices": [n for e in entries for n in e["payload"].get("notices", [])],
            "outcome": ({"winner": outcome.winner, "text": outcome.text} if outcome else
                        {"winner": None, "text": ended["text"]} if ended else None)}
    ctx = sitrep_context(game=meta, seat=seat, view=view, entries=entries, form=form, picture=png is not None)
    text, html = render_sitrep(game.ruleset, ctx, game.templates_dir)
    return BuiltSitrep(text, html, png, dumps(view), form)


def _entry_dict(j: Journal) -> dict[str, Any]:
    return {"seq": j.seq, "kind": j.kind, "hash": j.hash, "payload": json.loads(j.payload_json),
            "events": json.loads(j.events_json), "rolls": json.loads(j.rolls_json)}


def _seat_dict(seat: Seat) -> dict[str, Any]:
    return {"name": seat.name, "side": seat.side, "title": seat.title, "tz": seat.tz}


def _iso(when: datetime | None) -> str | None:
    return aware(when).isoformat() if when is not None else None
