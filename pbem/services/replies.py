"""What intake stores and answers for one message: its inbound row, its submission, and the reply
(acknowledgement, rejection or internal-error notice) queued in the same transaction."""
from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any


from pbem.intake import IntakeContext, Message, Reject
from pbem import i18n
from pbem.mail.inbound import LINE_CAP, header_block, one_line
from pbem.render import render_reply
from pbem.services.outbox import OutboxService, outbox_row
from pbem.store import writes as store_writes
from pbem.store.times import aware

_PHASE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


def inbound_values(raw: bytes, sha: str, now: datetime, *, status: str, verdict: str, message_id: str = "",
                   sender: str = "", game_id: str = "", seat: str = "", size: int | None = None) -> dict[str, Any]:
    """The values of a message's inbound row."""
    return {"received_at": now, "sha256": sha, "raw": raw, "size": len(raw) if size is None else size, "status": status,
            "verdict": verdict, "message_id": message_id[:998], "sender": sender, "game_id": game_id, "seat": seat}


def kept(msg: Message) -> bytes:
    """What is stored of a message: all of it, or only its headers when it is over the size limit
    (with its size and hash, for audit), so a stranger cannot grow the database by a message's size."""
    return header_block(msg.raw) if msg.oversize else msg.raw


def submission_values(msg: Message, now: datetime, *, seat: str, turn: int, phase: str, current: bool
                      ) -> dict[str, Any]:
    """The values of a submission row (orders, or a command file recorded before it runs)."""
    assert msg.game is not None and msg.file is not None and msg.signed is not None
    return {"game_id": msg.game.id, "seat": seat, "turn": turn, "phase": phase, "text": msg.file.text,
            "signed_sha256": msg.signed_sha256, "signature": msg.signed.signature or "", "current": current,
            "created_at": now}


def failure_rows(outbox: OutboxService, sha: str, mid: str, sender: str, why: str, now: datetime
                 ) -> list[dict[str, Any]]:
    """The sender's and the GM's notices that intake failed on a message (kept, nothing applied)."""
    rows = []
    # the sender is not known to be a player yet: the server's language
    _ = i18n.gettext(i18n.effective(None, i18n.server_default(outbox.deps)))
    text = _("pbem could not process your message because of an internal error. The message is kept, "
             "nothing in it was applied, and the GM has been told. Please wait for the GM before resending.") + "\n"
    if sender:
        rows.append(outbox_row(kind="reject", to=sender, subject=_("pbem: internal error"), text=text,
                               html=f"<p>{text}</p>", msg_id=outbox.message_id("error", sha), now=now,
                               in_reply_to=mid))
    gm = outbox.deps.gm_address
    if gm:
        note = f"Intake failed on message {mid or sha[:12]} from {sender or 'unknown'}:\n{why}\n"
        rows.append(outbox_row(kind="notice", to=gm, subject="pbem: intake error", text=note,
                               html=f"<pre>{note}</pre>", msg_id=outbox.message_id("error-gm", sha), now=now))
    return rows


def reject_rows(outbox: OutboxService, msg: Message, rej: Reject, sha: str, now: datetime) -> list[dict[str, Any]]:
    """The rejection to send, if there is anyone to send it to."""
    to = msg.reply_to
    if not to:
        return []
    mid = msg.mail.message_id if msg.mail else ""
    # Before the signer is known, the reply says nothing about the game's state (no leak to forgers).
    # What the sender wrote (Subject, Message-ID, names quoted in problems) goes into the signed text
    # on one line each: he can place no line of his own in it.
    lang = reply_lang(outbox, msg)
    ctx: dict[str, Any] = {"game_id": msg.game.id if msg.game and msg.key else "",
           "seat": msg.seat.name if msg.seat and msg.key else "",
           **({"game_id": msg.campaign.id, "seat": msg.file.side[:40]} if msg.campaign and msg.key and msg.file
              else {}),
           "message_id": one_line(mid, LINE_CAP),
           "subject": one_line(msg.mail.subject, LINE_CAP) if msg.mail else "", "hint": rej.hint,
           "problems": [{"where": f"line {p.line_no}: {p.text!r}: " if p.line_no and p.text else
                         (f"line {p.line_no}: " if p.line_no else ""),
                         "message": one_line(i18n.local(p.message, lang)), "rule": i18n.local(p.rule, lang), "code": p.code.value}
                        for p in rej.problems]}
    text, html = render_reply("reject", ctx, lang=lang)
    return [outbox_row(kind="reject", to=to, subject=reject_subject(msg, len(rej.problems), lang), text=text, html=html,
                       msg_id=outbox.message_id("reject", sha), now=now,
                       game_id=ctx["game_id"] if msg.campaign is None else "", in_reply_to=mid)]


def reply_lang(outbox: OutboxService, msg: Message) -> str:
    """The language of a reply: the seat's once the signature has shown who sent it, else the server's
    (a forger learns nothing of a player, not even his language)."""
    own = msg.seat.lang if msg.seat is not None and msg.key is not None else None
    return i18n.effective(own, i18n.server_default(outbox.deps))


def reject_subject(msg: Message, problems: int, lang: str = i18n.SOURCE) -> str:
    """A rejection's subject, in our own words only (never the sender's Subject).

    Only once the signature has shown who sent it does it name the game and side, so a stranger or a
    forger learns nothing from it; before that it is neutral.  ``[GAME] REJECTED:``, the side and the
    turn and phase stay as they are in every language (mail filters sort on them); the rest is translated.
    """
    _, ngettext = i18n.gettext(lang), i18n.ngettext(lang)
    count = ngettext("%(num)d problem", "%(num)d problems", problems) % {"num": problems}
    if msg.campaign is not None and msg.key is not None and msg.file is not None:  # administrative orders
        return f"[{msg.campaign.id}] REJECTED: {msg.file.side[:40]} admin orders — {count}"
    if msg.game is None or msg.key is None or msg.file is None:
        return _("pbem: message not accepted — %(count)s") % {"count": count}
    who = msg.seat.name if msg.seat is not None else "GM"
    what = _("commands")
    if msg.file.kind == "orders":
        # turn and phase come from the sender's header: named only when they look like ours
        plain = _PHASE_NAME.match(msg.file.phase) and msg.file.turn < 1_000_000
        what = f"turn {msg.file.turn} {msg.file.phase}" if plain else _("orders")
    return f"[{msg.game.id}] REJECTED: {who} {what} — {count}"


def accept(outbox: OutboxService, msg: Message, ctx: IntakeContext, sha: str, now: datetime,
           writes: store_writes.Writes) -> str:
    """Store accepted orders (retiring those they replace) and queue their acknowledgement; return the reason."""
    assert msg.game and msg.seat and msg.file and msg.checked is not None and msg.mail is not None
    game, seat, f = msg.game, msg.seat, msg.file
    replaced_at = ""
    lang = reply_lang(outbox, msg)
    if msg.replaced is not None and not msg.unchanged:
        writes.retire = msg.replaced
        replaced_at = i18n.local_time(aware(msg.replaced.created_at), seat.tz, lang)
    if not msg.unchanged:
        writes.submissions.append(submission_values(msg, now, seat=seat.name, turn=f.turn, phase=f.phase,
                                                    current=True))
    # Orders that complete the phase cannot be replaced in practice: it resolves in this pass or
    # the next.  The ack says so instead of offering a window; once the phase has resolved,
    # the resolution rewrites it (if still unsent) to say it was.
    completes = completes_phase(ctx, msg)
    reply = {"game_id": game.id, "seat": seat.name, "turn": f.turn, "phase": f.phase,
             "lines": [{"line_no": ln.line_no, "text": ln.text} for ln in f.lines],
             "notes": [i18n.local(n, lang) for n in (*msg.checked.notes, *msg.notes)], "replaced": replaced_at, "unchanged": msg.unchanged,
             "fingerprint": msg.key.fingerprint if msg.key else "", "completes": completes, "resolved": False,
             # a game with a time bank: the side's own deadline (pbem.clocks)
             "deadline": "" if completes else i18n.local_time(aware(seat.clock_due or game.deadline), seat.tz, lang),
             "message_id": msg.mail.message_id,
             "lang": lang}  # the resolution re-renders it (resolved) in the same language
    text, html = render_reply("ack", reply, lang=lang)
    writes.outbox.append(outbox_row(
        kind="ack", to=seat.email, subject=f"[{game.id}] accepted: {seat.name} turn {f.turn} {f.phase}",
        text=text, html=html, msg_id=outbox.message_id("ack", sha), now=now,
        game_id=game.id, in_reply_to=msg.mail.message_id, ack=reply))
    return (f"{len(f.lines)} order line(s) for turn {f.turn} {f.phase}"
            + (", replacing earlier orders" if replaced_at else "")
            + (", unchanged" if msg.unchanged else ""))


def completes_phase(ctx: IntakeContext, msg: Message) -> bool:
    """Whether these orders are the last ones the phase awaited, so it resolves without waiting."""
    assert msg.game is not None and msg.seat is not None and msg.file is not None
    game, seat, f = msg.game, msg.seat.name, msg.file
    awaiting = set(json.loads(game.awaiting_json))
    if game.status != "active" or game.wait_for_deadline or seat not in awaiting:
        return False
    others = awaiting - {seat}
    if not others:
        return True
    have = ctx.current_seats(game.id, f.turn, f.phase, others)
    for other in others - have:  # taken earlier in this batch, not yet written
        if any(v["current"] for v in ctx.pending.get((game.id, other, f.turn, f.phase), ())):
            have.add(other)
    return others <= have
