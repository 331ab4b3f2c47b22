"""GM commands (pause, resume, extend, resolve now, roll back, replace a player, resend, end) and the
players' own (vacation).

The command line and signed ``PBEM-COMMAND 1`` mail reach the same methods.
Each command is a journal entry whose notice every side's next sitrep
shows, so nobody can be surprised by what the GM did.
"""
from __future__ import annotations

import email
import email.policy
import json
import logging
import math
import re
from datetime import timedelta
from typing import Any

from sqlmodel import Session, select

from pbem.core.errors import PbemError
from pbem.crypto import sshsig
from pbem.journal import dumps
from pbem.mail.compose import message_id
from pbem.store.models import Game, Journal, Outbox, Seat, Sitrep, Submission

#: Verbs a command file may carry, with how many arguments, and who may send them.
GM_VERBS = {"PAUSE": (0, 0), "RESUME": (0, 0), "EXTEND": (1, 1), "RESOLVE": (0, 0), "ROLLBACK": (1, 1),
            "REPLACE": (3, 99), "RESEND": (1, 1), "END": (0, 99)}
PLAYER_VERBS = {"VACATION": (1, 1)}

#: The most hours one EXTEND or VACATION may add (sixty days), and the largest journal sequence number.
MAX_HOURS = 24 * 60
MAX_SEQ = 2**31 - 1
MAX_TEXT = 2000

log = logging.getLogger("pbem.gm")

_DECIMAL = re.compile(r"^[0-9]{1,9}(\.[0-9]{1,6})?$")
_SEQ = re.compile(r"^[0-9]{1,10}$")
_SIDE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# An address as a GM types one (local@domain), never a display name, a list or a header's line break.
_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")


class ArgumentError(PbemError):
    """A command's argument is malformed; the message says which and what is expected."""


def hours_argument(text: str, verb: str) -> float:
    """A number of hours as a command file writes it: plain decimal, more than 0, at most 1440."""
    if not _DECIMAL.match(text):
        raise ArgumentError(f"{verb} takes a number of hours like 24 or 1.5, not {text[:40]!r}")
    return checked_hours(float(text), verb)


def checked_hours(hours: float, verb: str) -> float:
    if not (math.isfinite(hours) and 0 < hours <= MAX_HOURS):
        raise ArgumentError(f"{verb} {hours:g}: give a number of hours more than 0 and at most {MAX_HOURS}")
    return hours


def seq_argument(text: str) -> int:
    if not _SEQ.match(text) or int(text) > MAX_SEQ:
        raise ArgumentError(f"ROLLBACK takes a journal entry number like 3 (see `pbem gm journal`), "
                            f"not {text[:40]!r}")
    return int(text)


def side_argument(text: str, verb: str) -> str:
    if not _SIDE.match(text):
        raise ArgumentError(f"{verb}: {text[:40]!r} is not a side's name")
    return text


def address_argument(text: str) -> str:
    if len(text) > 254 or not _ADDRESS.match(text):
        raise ArgumentError(f"{text[:80]!r} is not an e-mail address (local@domain)")
    return text


def key_argument(text: str) -> sshsig.PublicKey:
    try:
        return sshsig.PublicKey.parse(text)
    except ValueError as exc:
        raise ArgumentError(f"the public key does not parse: {exc}") from None


def arguments(verb: str, args: list[str]) -> list[Any]:
    """Check and convert one command line's arguments (their form only: which sides and journal entries
    exist is the game's to say).  :raises ArgumentError: naming the argument and what is expected."""
    low, high = {**GM_VERBS, **PLAYER_VERBS}.get(verb, (0, 99))
    if not low <= len(args) <= high:
        raise ArgumentError(f"{verb} takes {low if low == high else f'{low} or more'} argument(s), got {len(args)}")
    if verb in ("EXTEND", "VACATION"):
        return [hours_argument(args[0], verb)]
    if verb == "ROLLBACK":
        return [seq_argument(args[0])]
    if verb == "REPLACE":
        return [side_argument(args[0], verb), address_argument(args[1]), key_argument(" ".join(args[2:])).line()]
    if verb == "RESEND":
        return [side_argument(args[0], verb)]
    if verb == "END":
        text = " ".join(args)
        if len(text) > MAX_TEXT:
            raise ArgumentError(f"END: the text is {len(text):,} characters; at most {MAX_TEXT:,}")
        return [text]
    return []


class GMCommands:
    """Mixed into :class:`pbem.server.Server`."""

    def _gm_entry(self, s: Session, game: Game, command: str, notice: str, by: str, kind: str = "gm",
                  extra: dict[str, Any] | None = None) -> None:
        ruleset, state = self.load_state(game)
        payload = {"command": command, "by": by, "notices": [notice], "deadline": _iso(game.deadline),
                   **(extra or {})}
        self._journal(s, game, kind, payload, ruleset.dump(state), now=self.clock())
        self._remember(game, state)

    def _locked(self, s: Session, game_id: str) -> Game:
        return self._game(s, game_id, lock=True)

    def pause(self, game_id: str, by: str = "the GM") -> str:
        with self.session() as s:
            game = self._locked(s, game_id)
            if game.status != "active":
                raise self.error(f"game {game_id} is {game.status}, not active; only an active game can pause")
            now = self.clock()
            left = (_aware(game.deadline) - now).total_seconds() if game.deadline else 0.0
            game.status, game.paused_remaining, game.deadline = "paused", max(0.0, left), None
            notice = f"{by} paused the game; the clock is stopped"
            self._gm_entry(s, game, "PAUSE", notice, by)
            s.commit()
        return notice

    def resume(self, game_id: str, by: str = "the GM") -> str:
        with self.session() as s:
            game = self._locked(s, game_id)
            if game.status not in ("paused", "held"):
                raise self.error(f"game {game_id} is {game.status}; only a paused or held game resumes")
            now = self.clock()
            ruleset, state = self.load_state(game)
            if game.status == "paused" and game.paused_remaining > 0:
                game.deadline = now + timedelta(seconds=game.paused_remaining)
            else:  # held (breaker, failure) or paused with no time left: a fresh window
                self._enter_phase(game, ruleset, state, now)
            game.status, game.held_reason, game.paused_remaining = "active", "", 0.0
            notice = f"{by} resumed the game; orders are due {_iso(game.deadline) or 'now'}"
            self._gm_entry(s, game, "RESUME", notice, by)
            self._sitreps(s, game, ruleset, state)
            s.commit()
        self.advance(game_id)
        return notice

    def extend(self, game_id: str, hours: float, by: str = "the GM") -> str:
        try:
            hours = checked_hours(hours, "extend by")
        except ArgumentError as exc:
            raise self.error(str(exc)) from None
        with self.session() as s:
            game = self._locked(s, game_id)
            if game.status != "active" or game.deadline is None:
                raise self.error(f"game {game_id} has no running deadline to extend ({game.status})")
            game.deadline = _aware(game.deadline) + timedelta(hours=hours)
            notice = f"{by} extended the deadline by {hours:g} hours"
            self._gm_entry(s, game, f"EXTEND {hours:g}", notice, by)
            ruleset, state = self.load_state(game)
            self._sitreps(s, game, ruleset, state)
            s.commit()
        return notice

    def resolve_now(self, game_id: str, by: str = "the GM") -> str:
        with self.session() as s:
            game = self._locked(s, game_id)
            if game.status not in ("active", "held"):
                raise self.error(f"game {game_id} is {game.status}; cannot resolve")
            game.status, game.held_reason = "active", ""
            notice = f"{by} resolved turn {game.turn} {game.phase_title} without waiting for the deadline"
            self._gm_entry(s, game, "RESOLVE", notice, by)
            count = self._advance(s, game, force=True)
            s.commit()
        return f"{notice} ({count} phase(s) resolved)"

    def rollback(self, game_id: str, to_seq: int, by: str = "the GM") -> str:
        """Return the game to the state right after journal entry ``to_seq`` (a setup, start or resolution)."""
        if not 0 <= to_seq <= MAX_SEQ:  # the database's integer would overflow (and no game has so many)
            raise self.error(f"journal entry {to_seq} of {game_id} is not a resolution to roll back to "
                             "(see `pbem gm journal`)")
        with self.session() as s:
            game = self._locked(s, game_id)
            target = s.exec(select(Journal).where(Journal.game_id == game_id, Journal.seq == to_seq)).first()
            if target is None or target.kind not in ("setup", "start", "resolve"):
                raise self.error(f"journal entry {to_seq} of {game_id} is not a resolution to roll back to "
                                 "(see `pbem gm journal`)")
            ruleset = self.ruleset(game.ruleset)
            state = ruleset.load(json.loads(target.state_json))
            now = self.clock()
            for sub in s.exec(select(Submission).where(Submission.game_id == game_id,
                                                       Submission.current == True)).all():  # noqa: E712
                sub.current = False  # orders for phases that no longer exist (or will be played again)
                s.add(sub)
            game.status, game.held_reason, game.outcome_json = "active", "", ""
            self._enter_phase(game, ruleset, state, now)
            notice = f"{by} rolled the game back to turn {game.turn}, {game.phase_title}; send orders again"
            payload = {"command": f"ROLLBACK {to_seq}", "by": by, "to_seq": to_seq, "notices": [notice],
                       "deadline": _iso(game.deadline)}
            self._journal(s, game, "rollback", payload, ruleset.dump(state), now=now)
            self._remember(game, state)
            self._sitreps(s, game, ruleset, state)
            s.commit()
        return notice

    def replace_player(self, game_id: str, seat: str, email: str, pubkey: str, by: str = "the GM") -> str:
        try:
            key = sshsig.PublicKey.parse(pubkey)
        except ValueError as exc:
            raise self.error(f"public key for {seat}: {exc}") from None
        try:
            address_argument(email)
        except ArgumentError as exc:
            raise self.error(f"replace {seat}: {exc}") from None
        with self.session() as s:
            game = self._locked(s, game_id)
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            if row is None:
                raise self.error(f"game {game_id} has no side {seat!r}")
            row.email, row.pubkey, row.fingerprint, row.vacation_used = email, key.line(), key.fingerprint, 0.0
            s.add(row)
            notice = f"{by} replaced the player of {seat}"
            self._gm_entry(s, game, f"REPLACE {seat}", notice, by)
            ruleset, state = self.load_state(game)
            self._sitreps(s, game, ruleset, state)
            s.commit()
        return notice

    def resend(self, game_id: str, seat: str, by: str = "the GM") -> str:
        """Send the seat's latest sitrep again, to its current address, under a new Message-ID."""
        with self.session() as s:
            game = self._locked(s, game_id)
            row = s.exec(select(Sitrep).where(Sitrep.game_id == game_id, Sitrep.seat == seat)
                         .order_by(Sitrep.id.desc())).first()
            target = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            original = row and s.exec(select(Outbox).where(Outbox.message_id == row.message_id)).first()
            if not original or target is None:
                raise self.error(f"no sitrep of {seat!r} in {game_id} to resend")
            mid = message_id("resend", game_id, seat, game.journal_seq + 1, domain=self._domain)
            msg = email.message_from_bytes(self.outbox_bytes(original), policy=email.policy.default)
            msg.replace_header("Message-ID", mid)
            msg.replace_header("To", target.email)
            s.add(Outbox(created_at=self.clock(), game_id=game_id, kind="sitrep", to_addr=target.email,
                         subject=str(msg["Subject"]), message_id=mid, raw=bytes(msg), not_before=self.clock()))
            self._gm_entry(s, game, f"RESEND {seat}", f"{by} re-sent the latest sitrep of {seat}", by)
            s.commit()
        return f"re-sent the latest sitrep of {seat} to {target.email}"

    def end_game(self, game_id: str, text: str = "", by: str = "the GM") -> str:
        with self.session() as s:
            game = self._locked(s, game_id)
            if game.status == "over":
                raise self.error(f"game {game_id} is already over")
            text = text or f"the game was ended by {by}"
            ruleset, state = self.load_state(game)
            game.status, game.deadline, game.awaiting_json = "over", None, "[]"
            game.phase_title = "game over"
            game.outcome_json = dumps({"winner": None, "text": text, "scores": {}})
            self._gm_entry(s, game, "END", f"{by} ended the game: {text}", by, kind="end", extra={"text": text})
            self._sitreps(s, game, ruleset, state)
            s.commit()
        return f"ended {game_id}: {text}"

    def vacation(self, game_id: str, seat: str, hours: float) -> str:
        """A player's own pause: move the deadline, within the game's allowance per player."""
        with self.session() as s:
            game = self._locked(s, game_id)
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            left = game.vacation_hours - row.vacation_used
            if not 0 < hours <= left:
                raise self.error(f"vacation of {hours:g} hours: you have {left:g} of the game's "
                                 f"{game.vacation_hours:g} left")
            if game.status != "active" or game.deadline is None:
                raise self.error(f"game {game_id} has no running deadline ({game.status})")
            game.deadline = _aware(game.deadline) + timedelta(hours=hours)
            row.vacation_used += hours
            s.add(row)
            notice = f"{seat} took {hours:g} hours of vacation; the deadline moved by as much"
            self._gm_entry(s, game, f"VACATION {hours:g}", notice, seat)
            ruleset, state = self.load_state(game)
            self._sitreps(s, game, ruleset, state)
            s.commit()
        return notice

    def run_command(self, game_id: str, verb: str, args: list[str], *, by: str, seat: str = "") -> str:
        """Carry out one command line from a signed command file (already authorised).

        Raises only :class:`ServerError`: the file was recorded as taken before it runs, so whatever
        goes wrong must come back as an answer for its sender, never out of the intake.
        """
        try:
            parsed = arguments(verb, args)
            return self._run(game_id, verb, parsed, by=by, seat=seat)
        except PbemError as exc:
            raise self.error(str(exc)) from None
        except Exception as exc:  # a bug: the sender is told, the GM finds the traceback in the log
            log.exception("%s: command %s failed", game_id, verb)
            raise self.error(f"{verb} failed with an internal error ({exc.__class__.__name__}); "
                             "nothing of it was applied") from None

    def _run(self, game_id: str, verb: str, args: list[Any], *, by: str, seat: str) -> str:
        if verb == "PAUSE":
            return self.pause(game_id, by)
        if verb == "RESUME":
            return self.resume(game_id, by)
        if verb == "EXTEND":
            return self.extend(game_id, args[0], by)
        if verb == "RESOLVE":
            return self.resolve_now(game_id, by)
        if verb == "ROLLBACK":
            return self.rollback(game_id, args[0], by)
        if verb == "REPLACE":
            return self.replace_player(game_id, args[0], args[1], args[2], by)
        if verb == "RESEND":
            return self.resend(game_id, args[0], by)
        if verb == "END":
            return self.end_game(game_id, args[0], by)
        if verb == "VACATION":
            return self.vacation(game_id, seat, args[0])
        raise self.error(f"unknown command {verb!r}")

    def journal(self, game_id: str) -> list[dict[str, Any]]:
        with self.reader() as s:
            rows = s.exec(select(Journal).where(Journal.game_id == game_id).order_by(Journal.seq)).all()
        return [{"seq": j.seq, "kind": j.kind, "turn": j.turn, "phase": j.phase, "hash": j.hash[:16],
                 "at": j.created_at.isoformat(), "what": json.loads(j.payload_json).get("command", "")}
                for j in rows]


def _aware(when):
    from pbem.server import aware

    return aware(when)


def _iso(when):
    from pbem.server import _iso as iso

    return iso(when)
