"""GM commands (pause, resume, extend, resolve now, roll back, replace a player, resend, end, archive)
and the players' own (vacation), as functions over :class:`pbem.services.wiring.Services`.

The command line and signed ``PBEM-COMMAND 1`` mail reach the same functions.
Each command claims its game (:mod:`pbem.store.claim`) and is a journal entry
whose notice every side's next sitrep shows, so nobody can be surprised by
what the GM did.
"""
from __future__ import annotations

import email
import email.policy
import json
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.clocks import seats as clocks
from pbem.clocks.bank import REST_NOTICE, ClockError, ClockSpec, days_of, days_text
from pbem.commands import (GM_VERBS, MAX_HOURS, MAX_SEQ, MAX_TEXT, PLAYER_VERBS, ArgumentError, arguments,
                           checked_hours)
from pbem.contact import ContactError, check_address, check_tz
from pbem.core.errors import PbemError
from pbem.crypto import sshsig
from pbem.i18n import Said, When
from pbem.i18n import said_ as _
from pbem.journal import author, dumps, local_time, zone_at
from pbem.services.records import ServerError, append_entry, enter_phase, found, get_game
from pbem.services.wiring import Services
from pbem.store.claim import claim_game
from pbem.store.models import Game, Journal, Outbox, Seat, Sitrep, Submission
from pbem.store.times import aware, iso

log = logging.getLogger("pbem.gm")

#: Re-exported: the command vocabulary lives in pbem.commands, the journal readers in pbem.journal.
__all__ = ["GM_VERBS", "MAX_HOURS", "MAX_SEQ", "MAX_TEXT", "PLAYER_VERBS", "ArgumentError", "archive", "arguments",
           "author", "end_game", "extend", "pause", "replace_player", "resend", "resolve_now", "resume", "rollback",
           "run_command", "vacation", "zone_at", "rest", "clock_settings"]


def _entry(sv: Services, s: Session, game: Game, command: str, notice: str, by: str, kind: str = "gm",
           extra: dict[str, Any] | None = None) -> None:
    """The command's journal entry: its notice reaches every side with the next sitrep."""
    ruleset, state = sv.states.load(game)
    payload = {"command": command, "by": by, "notices": [notice], "deadline": iso(game.deadline),
               **clocks.clock_payload(s, game, sv.deps.clock()), **(extra or {})}
    append_entry(s, game, kind, payload, ruleset.dump(state), sv.deps.clock())
    sv.states.remember(game, state)


def _claimed(s: Session, game_id: str) -> Game:
    game = found(claim_game(s, game_id), game_id)
    if game.status == "archived":
        # archived means put away for good: no command may bring back deadlines or mail
        raise ServerError(f"game {game_id} is archived; nothing more can be done in it")
    return game


def _seat(s: Session, game_id: str, seat: str) -> Seat | None:
    return s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()


def _sitreps(sv: Services, s: Session, game: Game) -> None:
    ruleset, state = sv.states.load(game)
    sv.sitreps.queue(s, game, ruleset, state)


def pause(sv: Services, game_id: str, by: str = "the GM") -> str:
    """Stop the clock, keeping the time left."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status != "active":
            raise ServerError(f"game {game_id} is {game.status}, not active; only an active game can pause")
        now = sv.deps.clock()
        left = (aware(game.deadline) - now).total_seconds() if game.deadline else 0.0
        game.status, game.paused_remaining, game.deadline = "paused", max(0.0, left), None
        notice = f"{by} paused the game; the clock is stopped"
        _entry(sv, s, game, "PAUSE", notice, by)
        s.commit()
    return notice


def resume(sv: Services, game_id: str, by: str = "the GM") -> str:
    """Start the clock again (the time left, or a fresh window for a held game); resolve what is due."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status not in ("paused", "held"):
            raise ServerError(f"game {game_id} is {game.status}; only a paused or held game resumes")
        now = sv.deps.clock()
        ruleset, state = sv.states.load(game)
        if game.status == "paused" and game.paused_remaining > 0:
            game.deadline = now + timedelta(seconds=game.paused_remaining)
            clocks.paused(s, game, _paused_at(s, game_id) or now, now)  # each seat's clock stood still too
        else:  # held (breaker, failure) or paused with no time left: a fresh window
            enter_phase(game, ruleset, state, now)
            clocks.start_phase(s, game, ruleset.phase(state), now)
        game.status, game.held_reason, game.paused_remaining = "active", "", 0.0
        notice = f"{by} resumed the game; orders are due {iso(game.deadline) or 'now'}"
        _entry(sv, s, game, "RESUME", notice, by)
        sv.sitreps.queue(s, game, ruleset, state)
        s.commit()
    sv.resolution.advance(game_id)
    return notice


def extend(sv: Services, game_id: str, hours: float, by: str = "the GM") -> str:
    """Move the running deadline later."""
    try:
        hours = checked_hours(hours, "extend by")
    except ArgumentError as exc:
        raise ServerError(str(exc)) from None
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status != "active" or game.deadline is None:
            raise ServerError(f"game {game_id} has no running deadline to extend ({game.status})")
        game.deadline = aware(game.deadline) + timedelta(hours=hours)
        clocks.grant(s, game, hours * 3600)  # with a time bank: every running clock, never banked
        notice = f"{by} extended the deadline by {hours:g} hours"
        _entry(sv, s, game, f"EXTEND {hours:g}", notice, by)
        _sitreps(sv, s, game)
        s.commit()
    return notice


def resolve_now(sv: Services, game_id: str, by: str = "the GM") -> str:
    """Resolve the current phase without waiting (missing orders get the rules' default)."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status not in ("active", "held"):
            raise ServerError(f"game {game_id} is {game.status}; cannot resolve")
        game.status, game.held_reason = "active", ""
        notice = f"{by} resolved turn {game.turn} {game.phase_title} without waiting for the deadline"
        _entry(sv, s, game, "RESOLVE", notice, by)
        count = sv.resolution.resolve_due(s, game, force=True)
        s.commit()
    return f"{notice} ({count} phase(s) resolved)"


def rollback(sv: Services, game_id: str, to_seq: int, by: str = "the GM") -> str:
    """Return the game to the state right after journal entry ``to_seq`` (a setup, start or resolution)."""
    if not 0 <= to_seq <= MAX_SEQ:  # the database's integer would overflow (and no game has so many)
        raise ServerError(f"journal entry {to_seq} of {game_id} is not a resolution to roll back to "
                          "(see `pbem gm journal`)")
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        target = s.exec(select(Journal).where(Journal.game_id == game_id, Journal.seq == to_seq)).first()
        if target is None or target.kind not in ("setup", "start", "resolve"):
            raise ServerError(f"journal entry {to_seq} of {game_id} is not a resolution to roll back to "
                              "(see `pbem gm journal`)")
        ruleset = sv.deps.ruleset_for(game)
        state = ruleset.load(json.loads(target.state_json))
        now = sv.deps.clock()
        for sub in s.exec(select(Submission).where(Submission.game_id == game_id,
                                                   Submission.current == True)).all():  # noqa: E712
            sub.current = False  # orders for phases that no longer exist (or will be played again)
            s.add(sub)
        game.status, game.held_reason, game.outcome_json = "active", "", ""
        enter_phase(game, ruleset, state, now)
        clocks.start_phase(s, game, ruleset.phase(state), now)
        notice = f"{by} rolled the game back to turn {game.turn}, {game.phase_title}; send orders again"
        payload = {"command": f"ROLLBACK {to_seq}", "by": by, "to_seq": to_seq, "notices": [notice],
                   "deadline": iso(game.deadline), **clocks.clock_payload(s, game, now)}
        append_entry(s, game, "rollback", payload, ruleset.dump(state), now)
        sv.states.remember(game, state)
        sv.sitreps.queue(s, game, ruleset, state)
        s.commit()
    return notice


def replace_player(sv: Services, game_id: str, seat: str, email: str | None = None, pubkey: str | None = None,
                   by: str = "the GM", *, tz: str | None = None) -> str:
    """Change what is given of SIDE's player: address, key (a new player) or zone; the rest is kept."""
    if email is None and pubkey is None and tz is None:
        raise ServerError(f"replace the player of {seat}: give a new address, key or time zone")
    try:
        email = check_address(email) if email is not None else None
        tz = check_tz(tz) if tz is not None else None
        key = sshsig.PublicKey.parse(pubkey) if pubkey is not None else None
    except ContactError as exc:
        raise ServerError(f"player of {seat}: {exc}") from None
    except ValueError as exc:
        raise ServerError(f"public key for {seat}: {exc}") from None
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        row = _seat(s, game_id, seat)
        if row is None:
            raise ServerError(f"game {game_id} has no side {seat!r}")
        changed = []
        held: dict[str, str] = {}  # whose key held the seat until now: the journal keeps who left a game
        if key is not None:
            held = {"from_fingerprint": row.fingerprint, "to_fingerprint": key.fingerprint}
            clash = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.fingerprint == key.fingerprint,
                                              Seat.name != seat)).first()
            if clash is not None:
                raise ServerError(f"that key is already registered for side {clash.name}; "
                                  "each side needs its own key")
            # a new key is a new player, who starts with the whole vacation allowance
            row.pubkey, row.fingerprint, row.vacation_used = key.line(), key.fingerprint, 0.0
            row.missed, row.bot, row.vacation_balance = 0, "", 0.0  # a new player: plays the seat, earns anew
            clocks.start_seat(s, game, row, sv.deps.clock())
            changed.append("key")
        if email is not None:
            row.email = email
            changed.append("address")
        zone = {}
        if tz is not None:
            # sitreps already sent showed times in the old zone: replay needs it to rebuild them
            zone = {"tz_from": row.tz, "tz_to": tz}
            row.tz = tz
            changed.append("time zone")
        s.add(row)
        # every side reads the notice: it says what changed, never the address itself
        notice = (f"{by} replaced the player of {seat}" if key is not None else
                  f"{by} changed the {' and '.join(changed)} of {seat}'s player")
        _entry(sv, s, game, f"REPLACE {seat} {','.join(changed)}", notice, by,
               extra={"seat": seat, "changed": changed, **zone, **held})
        if key is not None:
            _history(sv, s, game, row)
        _sitreps(sv, s, game)
        s.commit()
    return notice + (f" (new {', '.join(changed)})" if key is not None and len(changed) > 1 else "")


def resend(sv: Services, game_id: str, seat: str, by: str = "the GM") -> str:
    """Send the seat's latest sitrep again, to its current address, under a new Message-ID."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        row = s.exec(select(Sitrep).where(Sitrep.game_id == game_id, Sitrep.seat == seat)
                     .order_by(col(Sitrep.id).desc())).first()
        target = _seat(s, game_id, seat)
        original = row and s.exec(select(Outbox).where(Outbox.message_id == row.message_id)).first()
        if not original or target is None:
            raise ServerError(f"no sitrep of {seat!r} in {game_id} to resend")
        mid = sv.outbox.message_id("resend", game_id, seat, game.journal_seq + 1)
        msg = email.message_from_bytes(sv.outbox.compose(original), policy=email.policy.default)
        msg.replace_header("Message-ID", mid)
        msg.replace_header("To", target.email)
        now = sv.deps.clock()
        s.add(Outbox(created_at=now, game_id=game_id, kind="sitrep", to_addr=target.email,
                     subject=str(msg["Subject"]), message_id=mid, raw=bytes(msg), not_before=now))
        _entry(sv, s, game, f"RESEND {seat}", f"{by} re-sent the latest sitrep of {seat}", by)
        s.commit()
    return f"re-sent the latest sitrep of {seat} to {target.email}"


def end_game(sv: Services, game_id: str, text: str = "", by: str = "the GM") -> str:
    """End the game now, with ``text`` as its outcome; every side gets a final sitrep with the seed."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status == "over":
            raise ServerError(f"game {game_id} is already over")
        started = game.status != "open"
        text = text or f"the game was ended by {by}"
        ruleset, state = sv.states.load(game)
        game.status, game.deadline, game.awaiting_json = "over", None, "[]"
        game.phase_title = "game over"
        game.outcome_json = dumps({"winner": None, "text": text, "scores": {}})
        _entry(sv, s, game, "END", f"{by} ended the game: {text}", by, kind="end", extra={"text": text})
        if started:  # a game that never started has players without a first sitrep, or none at all
            sv.sitreps.queue(s, game, ruleset, state)
        s.commit()
    return f"ended {game_id}: {text}"


def archive(sv: Services, game_id: str, *, force: bool = False, by: str = "the GM") -> str:
    """Put a finished (or mistaken) game away: no deadline, reminder or mail again, hidden from lists.

    A game still running is ended first (its players get the final sitrep with the seed), and
    only with ``force``: archiving is for games that are over.
    """
    with sv.deps.reader() as s:
        game = get_game(s, game_id)
    if game.status == "archived":
        raise ServerError(f"game {game_id} is archived already")
    ended = ""
    if game.status != "over":
        if not force:
            raise ServerError(f"game {game_id} is {game.status}, not over; archiving ends it "
                              "(give --force to end and archive it)")
        ended = end_game(sv, game_id, f"the game was ended by {by} and archived", by) + "; "
    with sv.deps.session() as s:
        game = found(claim_game(s, game_id), game_id)
        # decided again on the claimed row: another command may have changed the game since it was read
        if game.status != "over":
            raise ServerError(f"game {game_id} is {game.status} now, not over; nothing was archived"
                              if game.status != "archived" else f"game {game_id} is archived already")
        game.status, game.deadline, game.held_reason = "archived", None, ""
        _entry(sv, s, game, "ARCHIVE", f"{by} archived the game", by)
        s.commit()
    return f"{ended}archived {game_id}"


def vacation(sv: Services, game_id: str, seat: str, hours: float) -> str:
    """A player's own pause: move the deadline, within the game's allowance per player."""
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        row = _seat(s, game_id, seat)
        if row is None:
            raise ServerError(f"game {game_id} has no side {seat!r}")
        if game.vacation_hours <= 0:
            raise ServerError(_("game %(game)s allows no vacation", game=game_id))
        left = row.vacation_balance if game.vacation_earn else game.vacation_hours - row.vacation_used
        if not 0 < hours <= left:
            raise ServerError(_("vacation of %(hours)s hours: you have earned %(left)s (%(earn)s a day of play, "
                                "at most %(most)s)", hours=f"{hours:g}", left=f"{left:g}",
                                earn=f"{game.vacation_earn:g}", most=f"{game.vacation_hours:g}")
                              if game.vacation_earn else
                              _("vacation of %(hours)s hours: you have %(left)s of the game's %(most)s left",
                                hours=f"{hours:g}", left=f"{left:g}", most=f"{game.vacation_hours:g}"))
        if game.status != "active" or game.deadline is None:
            raise ServerError(_("game %(game)s has no running deadline (%(status)s)", game=game_id,
                                status=game.status))
        game.deadline = aware(game.deadline) + timedelta(hours=hours)
        if game.clock:  # a time bank: only this seat's clock, and the time is never banked
            clocks.grant(s, game, hours * 3600, seat)
        row.vacation_used += hours
        if game.vacation_earn:
            row.vacation_balance -= hours
        s.add(row)
        # the others see that the deadline moved, not why; the journal keeps the command, and who gave it
        notice = (f"{seat}'s deadline moved by {hours:g} hours" if game.clock else
                  f"the deadline moved by {hours:g} hours")
        _entry(sv, s, game, f"VACATION {hours:g}", notice, seat,
               extra={"seat": seat, "vacation_left": round(left - hours, 3)})
        _sitreps(sv, s, game)
        s.commit()
    moved = _("%(seat)s's deadline moved by %(hours)s hours", seat=seat, hours=f"{hours:g}") if game.clock \
        else _("the deadline moved by %(hours)s hours", hours=f"{hours:g}")
    return _("%(seat)s took %(hours)s hours of vacation; %(moved)s", seat=seat, hours=f"{hours:g}", moved=moved)


def run_command(sv: Services, game_id: str, verb: str, args: list[str], *, by: str, seat: str = "") -> str:
    """Carry out one command line from a signed command file (already authorised).

    Raises only :class:`ServerError`: the file was recorded as taken before it runs, so whatever
    goes wrong must come back as an answer for its sender, never out of the intake.
    """
    try:
        return _run(sv, game_id, verb, arguments(verb, args), by=by, seat=seat)
    except PbemError as exc:  # its message kept as it is: a sentence the reply says in its reader's language
        raise ServerError(exc.args[0] if exc.args and isinstance(exc.args[0], Said) else str(exc)) from None
    except Exception as exc:  # a bug: the sender is told, the GM finds the traceback in the log
        log.exception("%s: command %s failed", game_id, verb)
        raise ServerError(f"{verb} failed with an internal error ({exc.__class__.__name__}); "
                          "nothing of it was applied") from None


def _run(sv: Services, game_id: str, verb: str, args: list[Any], *, by: str, seat: str) -> str:
    if verb == "PAUSE":
        return pause(sv, game_id, by)
    if verb == "RESUME":
        return resume(sv, game_id, by)
    if verb == "EXTEND":
        return extend(sv, game_id, args[0], by)
    if verb == "RESOLVE":
        return resolve_now(sv, game_id, by)
    if verb == "ROLLBACK":
        return rollback(sv, game_id, args[0], by)
    if verb == "REPLACE":
        return replace_player(sv, game_id, args[0], args[1], args[2], by)
    if verb == "RESEND":
        return resend(sv, game_id, args[0], by)
    if verb == "END":
        return end_game(sv, game_id, args[0], by)
    if verb == "VACATION":
        return vacation(sv, game_id, seat, args[0])
    if verb == "NEWKEY":  # club play: the player's key, in every game of theirs still running
        from pbem.club.players import new_key  # on use: pbem.club is built over these services

        return new_key(sv, _seat_key(sv, game_id, seat), args[0], f"side {seat} of {game_id}")
    if verb == "PROFILE":
        from pbem.club.players import profile_command

        return profile_command(sv, _seat_key(sv, game_id, seat), args)
    if verb == "REST":
        return rest(sv, game_id, seat, args[0])
    raise ServerError(f"unknown command {verb!r}")


def _seat_key(sv: Services, game_id: str, seat: str) -> str:
    with sv.deps.reader() as s:
        row = _seat(s, game_id, seat)
    if row is None or not row.fingerprint:
        raise ServerError(f"game {game_id} has no player of side {seat!r}")
    return row.fingerprint


def _paused_at(s: Session, game_id: str) -> datetime | None:
    """When the game was last paused (its latest PAUSE entry)."""
    for j in s.exec(select(Journal).where(Journal.game_id == game_id, Journal.kind == "gm")
                    .order_by(col(Journal.seq).desc())).all():
        if json.loads(j.payload_json).get("command") == "PAUSE":
            return aware(j.created_at)
    return None


def _history(sv: Services, s: Session, game: Game, seat: Seat) -> None:
    """A new player of a seat gets the seat's sitreps so far, in one mail: what the seat saw, nothing more."""
    rows = s.exec(select(Sitrep).where(Sitrep.game_id == game.id, Sitrep.seat == seat.name)
                  .order_by(col(Sitrep.seq))).all()
    if not rows or not seat.email:
        return
    rule = "\n\n" + "=" * 72 + "\n\n"
    text = (f"You take over side {seat.name} of game {game.id}. Here is every situation report the side has "
            f"had so far, oldest first; your current one, with the order form, follows in its own mail."
            + rule + rule.join(r.text for r in rows))
    html = "<hr>".join(r.html for r in rows)
    sv.outbox.queue(s, kind="notice", to=seat.email, subject=f"[{game.id}] {seat.name}: the side's sitreps so far",
                    text=text, html=html, msg_id=sv.outbox.message_id("history", game.id, seat.name, game.journal_seq),
                    now=sv.deps.clock(), game_id=game.id)


def clock_settings(sv: Services, game_id: str, *, clock: str | None = None, abandon_after: int | None = None,
                   bots: tuple[str, ...] = (), vacation_earn: float | None = None, by: str = "the GM") -> str:
    """Before a game starts: its time bank (``bank:3d+1d/5d``), after how many missed phases in a row a seat
    is in civil disorder, and the seats the rules' scripted player plays from the start."""
    try:
        spec = ClockSpec.parse(clock) if clock else None
    except ClockError as exc:
        raise ServerError(str(exc)) from None
    if abandon_after is not None and not 0 <= abandon_after <= 100:
        raise ServerError(f"abandon after {abandon_after} missed phases: give 0 (never) to 100")
    if vacation_earn is not None and not 0 <= vacation_earn <= 24:
        raise ServerError(f"vacation earned a day: {vacation_earn:g} hours; give 0 (all at once) to 24")
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        if game.status != "open":
            raise ServerError(f"game {game_id} has started: its clock and seats are set before it starts")
        said = []
        if spec is not None and clock is not None:
            game.clock = clock.strip().lower()
            said.append(f"each side plays on a time bank: {spec.text()}")
        if abandon_after is not None:
            game.abandon_after = abandon_after
            if abandon_after:
                said.append(f"a side that sends no orders for {abandon_after} phases in a row is played by the "
                            "rules' scripted player until a new player takes it")
        if vacation_earn is not None:
            game.vacation_earn = vacation_earn
            said.append(f"each player earns {vacation_earn:g} hours of vacation a day of play, up to "
                        f"{game.vacation_hours:g}" if vacation_earn else "vacation is given all at once")
        seats = {x.name: x for x in clocks.seats_of(s, game)}
        for name in bots:
            row = seats.get(name)
            if row is None:
                raise ServerError(f"game {game_id} has no side {name!r} (its sides: {', '.join(sorted(seats))})")
            if row.fingerprint:
                raise ServerError(f"side {name} has a player already")
            row.bot = "scripted"
            s.add(row)
        if bots and all(x.bot for x in seats.values()):
            raise ServerError("every side would be scripted: leave at least one for a player")
        if bots:
            said.append(f"the rules' scripted player plays {', '.join(sorted(bots))}")
        if not said:
            return "nothing to change"
        notice = "; ".join(said)
        _entry(sv, s, game, "CLOCK", notice[:1].upper() + notice[1:], by,
               extra={"clock": game.clock, "abandon_after": game.abandon_after, "bots": sorted(bots),
                      "vacation_earn": game.vacation_earn})
        s.commit()
    return notice


def rest(sv: Services, game_id: str, seat: str, days: tuple[int, ...]) -> str:
    """A player's rest days: weekdays (in their zone) on which their clock stands still, from a week on.

    They stop the clock and never add to it; the change waits :data:`pbem.clocks.bank.REST_NOTICE`, so
    that a player late with orders cannot rest today.  Opponents see only that the deadline may move.
    """
    with sv.deps.session() as s:
        game = _claimed(s, game_id)
        row = _seat(s, game_id, seat)
        if row is None:
            raise ServerError(f"game {game_id} has no side {seat!r}")
        if not game.clock:
            raise ServerError(_("game %(game)s has no time bank; rest days stop a bank's clock", game=game_id))
        now = sv.deps.clock()
        if row.rest_from is not None and aware(row.rest_from) <= now:
            row.rest_days = row.rest_next  # the change asked for earlier is in force
        row.rest_next, row.rest_from = ",".join(map(str, days)), now + REST_NOTICE
        s.add(row)
        s.flush()
        clocks.grant(s, game, 0.0, seat)  # the deadline of a phase that runs past the change moves with it
        when = When(aware(row.rest_from), local_time(aware(row.rest_from), row.tz))
        _entry(sv, s, game, f"REST {days_text(days)}", f"{seat}'s deadlines may move (a change of its clock's "
               "rest days)", f"side {seat}", extra={"seat": seat, "rest_days": days_text(days_of(row.rest_next)),
                                         "from": iso(row.rest_from)})
        s.commit()
    rests = days_text(days)
    return _("%(seat)s: your clock rests on %(days)s (%(tz)s) from %(when)s", seat=seat,
             days=rests if days else _("none"), tz=row.tz, when=when)
