"""Intake: a batch of raw messages becomes verdicts and stored writes, in one transaction.

The pipeline of :mod:`pbem.intake` checks each message and says nothing to the database; this
service decides what each verdict stores and queues (the message, the submission, the reply), writes
the batch, and then runs command files and resolves the games the batch completed.
"""
from __future__ import annotations

import logging
from html import escape
from dataclasses import dataclass, field
from datetime import datetime
from collections.abc import Iterable

from sqlalchemy.engine import Connection

from pbem import gm, i18n
from pbem.core.errors import Code, PbemError
from pbem.intake import Confirmed, Discard, IntakeContext, Message, Reject, run_pipeline
from pbem.mail.inbound import header_block, one_line, read_message, sha256_of
from pbem.render import render_reply
from pbem.services import replies
from pbem.services.wiring import Services
from pbem.store import writes as store_writes
from pbem.store.models import ClubCommand, Player, Seat

# The loggers keep the names they had when this lived in the server: operators filter on them.
log = logging.getLogger("pbem.server")
decision_log = logging.getLogger("pbem.decision")


class _WriteFailed(Exception):
    """A write of the fast intake path failed; the batch is taken again, more carefully."""


@dataclass
class Verdict:
    """The outcome of one ingested message, as `pbem ingest` prints it."""

    status: str  # accepted | rejected | discarded | duplicate | failed | confirmed
    message_id: str
    game: str = ""
    seat: str = ""
    reasons: list[str] = field(default_factory=list)
    resolved: int = 0

    def line(self) -> str:
        who = f" {self.game}/{self.seat}" if self.game else ""
        why = ": " + "; ".join(self.reasons) if self.reasons else ""
        return f"{self.status} {self.message_id or '(no Message-ID)'}{who}{why}"


def _duplicate(message_id: str) -> Verdict:
    return Verdict("duplicate", message_id, reasons=["this exact message was processed before"])


def _log_decision(verdict: Verdict) -> None:
    """One operator line per message: Message-ID, verdict, game/seat; never the reasons (they may quote orders)."""
    where = f" {verdict.game}/{verdict.seat}" if verdict.game else ""
    decision_log.info("%s: %s%s", verdict.message_id or "(no Message-ID)", verdict.status, where,
                      extra={"message_id": verdict.message_id, "verdict": verdict.status,
                             "game": verdict.game, "seat": verdict.seat})


_Result = tuple[Verdict, Message | None, str]


class IntakeService:
    """Take batches of messages: check, store and answer each; then run commands and resolve."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.deps = services.deps

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
        now = self.deps.clock()
        try:
            results = self._batch(raws, now, careful=False)
        except _WriteFailed as exc:
            log.warning("a write failed in a batch of %d; taking it again one savepoint per message: %s",
                        len(raws), exc.__cause__)
            results = self._batch(raws, now, careful=True)
        verdicts = []
        for verdict, msg, sha in results:
            _log_decision(verdict)
            if verdict.status == "accepted" and msg is not None and msg.ladder:
                verdict.reasons = self._run_club(msg, sha)
            elif verdict.status == "accepted" and msg is not None and msg.campaign is not None:
                verdict = self._run_campaign(verdict, msg, sha)
            elif verdict.status == "accepted" and msg is not None and msg.commands:
                verdict.reasons = self._run_commands(msg, sha)
            verdicts.append(verdict)
        if advance:
            for game_id in sorted({v.game for v, m, _ in results
                                  if v.status == "accepted" and v.game and not (m and m.commands)}):
                resolved = self.services.resolution.advance(game_id)
                for v in verdicts:
                    if v.game == game_id and v.status == "accepted":
                        v.resolved = resolved
                        break
        return verdicts

    def _batch(self, raws: list[bytes], now: datetime, *, careful: bool) -> list[_Result]:
        results: list[_Result] = []
        states = self.services.states
        with self.deps.session() as s:
            ctx = IntakeContext(s, states.load, self.deps.gm_key, states.view_of, now=now, cache_phases=not careful)
            conn = s.connection()
            shas = [sha256_of(raw) for raw in raws]  # of the whole message, when a reader kept only its start
            seen = set() if careful else store_writes.stored(conn, shas)
            batch: list[store_writes.Writes] = []  # the fast path's rows, written together at the end
            for raw, sha in zip(raws, shas, strict=True):
                if sha in seen:  # stored before, here or by another daemon, or twice in this batch
                    results.append((_duplicate(""), None, sha))
                    continue
                if careful:
                    verdict, msg = self._one_carefully(ctx, conn, raw, sha, now)
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

    def _one_carefully(self, ctx: IntakeContext, conn: Connection, raw: bytes, sha: str, now: datetime
                       ) -> tuple[Verdict, Message | None]:
        """Check and write one message under its own savepoint, so that its failure is rolled back alone."""
        s = ctx.session
        try:
            with s.begin_nested():
                verdict, msg, writes = self._check_one(ctx, raw, sha, now)
                return _written(conn, writes, verdict), msg
        except Exception as exc:
            log.exception("intake failed on message %s; kept for the GM", sha[:12])
            ctx.locked.clear()  # rolling back to a savepoint releases the row locks taken after it
            with s.begin_nested():
                verdict, _, writes = self._check_failed(raw, sha, exc, now)
                return _written(conn, writes, verdict), None

    def _check_failed(self, raw: bytes, sha: str, exc: Exception, now: datetime
                      ) -> tuple[Verdict, None, store_writes.Writes]:
        """Keep a message that made the intake fail, answer its sender, and tell the GM."""
        whole = Message(raw=raw, max_bytes=self.deps.home.max_message_bytes)
        try:
            mail = read_message(header_block(raw) if whole.oversize else raw)
            sender, mid = ("" if mail.automatic or mail.from_server else mail.sender), mail.message_id
        except Exception:
            sender, mid = "", ""
        why = one_line(f"{exc.__class__.__name__}: {exc}", 500)  # may quote the message: one line, in a signed text
        writes = store_writes.Writes(replies.inbound_values(replies.kept(whole), sha, now, size=whole.size,
                                                            status="error", message_id=mid, sender=sender,
                                                            verdict=f"internal error: {why}"))
        writes.outbox += replies.failure_rows(self.services.outbox, sha, mid, sender, why, now)
        return Verdict("failed", mid, reasons=[f"internal error, message kept: {why}"]), None, writes

    def _check_one(self, ctx: IntakeContext, raw: bytes, sha: str, now: datetime
                   ) -> tuple[Verdict, Message, store_writes.Writes]:
        """Run the pipeline on one message and say what to store; nothing is written here."""
        msg = Message(raw=raw, max_bytes=self.deps.home.max_message_bytes)
        writes = store_writes.Writes({})
        kept = replies.kept(msg)
        outbox = self.services.outbox
        verdict: Verdict
        try:
            run_pipeline(msg, ctx)
        except Reject as rej:
            status, why = "rejected", "; ".join(str(p) for p in rej.problems)
            writes.outbox += replies.reject_rows(outbox, msg, rej, sha, now)
            verdict = Verdict("rejected", msg.mail.message_id if msg.mail else "",
                              msg.game.id if msg.game and msg.key else "",
                              msg.seat.name if msg.seat and msg.key else "", [str(p) for p in rej.problems])
        except Discard as dis:
            status, why = "discarded", dis.reason
            verdict = Verdict("discarded", msg.mail.message_id if msg.mail else "", reasons=[dis.reason])
        except Confirmed as conf:
            status, why, writes.confirm = "confirmed", conf.reason, conf.outbox_id
            verdict = Verdict("confirmed", msg.mail.message_id if msg.mail else "", reasons=[conf.reason])
            kept = header_block(raw)  # the outbox keeps the bytes; the copy adds the relays' header lines
        else:
            status = "accepted"
            assert msg.mail is not None and msg.file is not None
            if msg.campaign is not None:
                why = "campaign administrative orders"
                verdict = Verdict("accepted", msg.mail.message_id, reasons=[why])
            elif msg.ladder:
                why = "club command"
                self._club_recorded(ctx, msg, now)
                verdict = Verdict("accepted", msg.mail.message_id, reasons=["club command"])
            elif msg.commands:
                assert msg.game is not None
                # recorded before it runs: a signed command is carried out once, whatever happens next
                writes.submissions.append(replies.submission_values(
                    msg, now, seat=msg.seat.name if msg.seat else "gm", turn=0, phase="command", current=False))
                why = "command"
                verdict = Verdict("accepted", msg.mail.message_id, msg.game.id,
                                  msg.seat.name if msg.seat else "gm", ["command"])
            else:
                assert msg.game is not None
                why = f"{len(msg.file.lines)} order line(s) for turn {msg.file.turn} {msg.file.phase}"
                reason = replies.accept(outbox, msg, ctx, sha, now, writes)
                verdict = Verdict("accepted", msg.mail.message_id, msg.game.id,
                                  msg.seat.name if msg.seat else "", [reason])
        writes.inbound = replies.inbound_values(
            kept, sha, now, size=msg.size, status=status, verdict=why, message_id=msg.mail.message_id if msg.mail else "",
            sender=msg.mail.sender if msg.mail else "", game_id=msg.game.id if msg.game else "",
            seat=msg.seat.name if msg.seat else "")
        return verdict, msg, writes


    @staticmethod
    def _club_recorded(ctx: IntakeContext, msg: Message, now: datetime) -> None:
        """A club command file is recorded before it runs (its own replay table): carried out once."""
        assert msg.file is not None and msg.player is not None
        assert msg.key is not None
        ctx.session.add(ClubCommand(signed_sha256=msg.signed_sha256, fingerprint=msg.key.fingerprint,
                                    ladder=msg.ladder, text=msg.file.text, created_at=now))
        ctx.session.flush()
        ctx.pending_signed.add((msg.key.fingerprint, msg.signed_sha256))

    def _run_club(self, msg: Message, sha: str) -> list[str]:
        """Carry out a club command file's lines in order; answer the player at their club address."""
        from pbem.club import ladder

        assert msg.file is not None and msg.mail is not None and msg.player is not None
        results, problems = [], []
        for n, (verb, args) in enumerate(msg.commands):
            try:
                results.append(ladder.run_command(self.services, msg.ladder, msg.player.fingerprint, verb, args))
            except PbemError as exc:
                problems.append(_problem(msg.file.lines[n], exc))
        with self.deps.reader() as r:
            player = r.get(Player, msg.player.fingerprint) or msg.player
        self._answer(msg, sha, results, problems, to=msg.player.email, where=f"ladder {msg.ladder}",
                     by=msg.player.name or msg.player.fingerprint, game_id="", lang=i18n.player_lang(player, self.deps),
                     tz=player.tz or "UTC")
        return [str(r) for r in results] + [f"failed: {p['where']}{p['message']}" for p in problems]

    def _run_campaign(self, verdict: Verdict, msg: Message, sha: str) -> Verdict:
        """Take a campaign's administrative orders (checked again, in the batch's order) and answer the seat."""
        from pbem.campaign import orders  # on use: the campaign package reads the club's results

        assert msg.campaign is not None and msg.file is not None and msg.signed is not None
        assert msg.signed.signature is not None  # the intake let only a verified signed file through
        assert msg.mail is not None
        cid, now = msg.campaign.id, self.deps.clock()
        with self.deps.session() as s:
            c = s.get(type(msg.campaign), cid)
            if c is None:  # the campaign was there when the file was checked; nothing removes one
                raise PbemError(f"campaign {cid} is gone")
            got = orders.take(s, c, msg.file, msg.signed.signature, now, signer_checked=True)
            seat = got.seat or msg.file.side[:40]
            if got.problems:
                ctx = {"game_id": cid, "seat": seat, "message_id": msg.mail.message_id, "subject": "",
                       "hint": "Fix every line listed, sign again and resend; until then your earlier "
                               "administrative orders (if any) stand.",
                       "problems": [{"where": f"line {p.line_no}: {p.text!r}: " if p.line_no else "",
                                     "message": p.message, "rule": p.rule, "code": p.code.value}
                                    for p in got.problems]}
                text, html = render_reply("reject", ctx)
                n = len(got.problems)
                subject = f"[{cid}] REJECTED: {seat} admin orders — {n} problem{'' if n == 1 else 's'}"
                kind = "reject"
            else:
                text = orders.answer(c, msg.file, got)
                html = f"<pre>{escape(text)}</pre>"
                subject, kind = f"[{cid}] accepted: {seat} admin orders", "ack"
            self.services.outbox.queue(s, kind=kind, to=msg.reply_to, subject=subject, text=text, html=html,
                                       msg_id=self.services.outbox.message_id("campaign", sha), now=now,
                                       game_id="", in_reply_to=msg.mail.message_id)
            s.commit()
        if got.problems:
            return Verdict("rejected", verdict.message_id, reasons=[orders.refusal(got)])
        return Verdict("accepted", verdict.message_id, reasons=[f"campaign {cid}: admin orders of {seat} taken"])

    def _answer(self, msg: Message, sha: str, results: list[str], problems: list[dict[str, str]], *, to: str,
                where: str, by: str, game_id: str, lang: str, tz: str) -> None:
        """Answer a command file in its sender's language: what each line did, or why one was refused."""
        assert msg.mail is not None
        _, ngettext = i18n.gettext(lang), i18n.ngettext(lang)
        said = [i18n.say(r, lang, tz) for r in results]
        with self.deps.session() as s:
            if problems:
                told = [{**p, "message": i18n.say(p["message"], lang, tz)} for p in problems]
                ctx = {"game_id": game_id or where, "seat": by, "message_id": msg.mail.message_id, "subject": "",
                       "hint": _("Carried out before the problem: %(done)s.")
                       % {"done": "; ".join(said) or _("nothing")}, "problems": told}
                text, html = render_reply("reject", ctx, lang=lang)
            else:
                text = _("COMMANDS CARRIED OUT") + "\n\n" + "\n".join(f"- {r}" for r in said) + "\n"
                html = "<ul>" + "".join(f"<li>{escape(r)}</li>" for r in said) + "</ul>"
            if to:
                done = ngettext("%(num)d carried out", "%(num)d carried out", len(results)) % {"num": len(results)}
                what = ngettext("%(num)d problem", "%(num)d problems", len(problems)) % {"num": len(problems)} \
                    + f", {done}" if problems else done
                # "[GAME] commands:" stays as it is in every language (mail filters sort on it)
                self.services.outbox.queue(s, kind="ack", to=to, subject=f"[{game_id or where}] commands: {by} — {what}",
                                           text=text, html=html, msg_id=self.services.outbox.message_id("command", sha),
                                           now=self.deps.clock(), game_id=game_id,
                                           in_reply_to=msg.mail.message_id)
            s.commit()

    def _run_commands(self, msg: Message, sha: str) -> list[str]:
        """Carry out the lines of a command file in order; reply with what each did (or why it failed)."""
        assert msg.game is not None and msg.file is not None and msg.mail is not None
        by = "the GM" if msg.by_gm or msg.seat is None else msg.seat.name
        results, problems = [], []
        for n, (verb, args) in enumerate(msg.commands):
            try:
                results.append(gm.run_command(self.services, msg.game.id, verb, args, by=by,
                                              seat=msg.seat.name if msg.seat else ""))
            except PbemError as exc:
                problems.append(_problem(msg.file.lines[n], exc))
        to = self.deps.gm_address if msg.by_gm or msg.seat is None else msg.seat.email
        own, tz = None, "UTC"  # the GM reads the server's language
        if not (msg.by_gm or msg.seat is None):
            with self.deps.reader() as r:  # read after the lines ran: a PROFILE lang is answered in the new one
                seat = r.get(Seat, msg.seat.id)
            own, tz = (seat.lang, seat.tz) if seat is not None else (msg.seat.lang, msg.seat.tz)
        lang = i18n.effective(own, i18n.server_default(self.deps))
        self._answer(msg, sha, results, problems, to=to, where=msg.game.id, by=by, game_id=msg.game.id, lang=lang,
                     tz=tz or "UTC")
        return [str(r) for r in results] + [f"failed: {p['where']}{p['message']}" for p in problems]


def _problem(line, exc: PbemError) -> dict:
    """A refused command line as the reply lists it; its message may be a sentence the reply translates."""
    message = exc.args[0] if exc.args and isinstance(exc.args[0], i18n.Said) else str(exc)
    return {"where": f"line {line.line_no}: {line.text!r}: ", "message": message, "rule": "",
            "code": Code.COMMAND_FORBIDDEN.value}


def _written(conn: Connection, writes: store_writes.Writes, verdict: Verdict) -> Verdict:
    # the unique sha256 refuses a message seen before, here or by another daemon
    return verdict if store_writes.write(conn, writes) else _duplicate(verdict.message_id)


__all__ = ["IntakeService", "Verdict"]
