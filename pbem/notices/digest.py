"""Digests: one mail a day, at the player's own local hour, for players who chose ``PROFILE pref notices digest``.

A digest lists every game where the player owes orders, with the time left in the player's zone, attaches each
such game's order form (``orders-GAME-SEAT.txt``, to sign and send back as ever), and carries below the list the
text of every sitrep the player's seats were sent since the previous digest: read top to bottom on a phone, with
nothing to open but the forms.  (The maps stay on the web pages and in `pbem replay`; one mail of several games
has no single map.)  The per-phase sitrep mails are not sent to such a player (:mod:`pbem.services.sitreps`
stores the sitreps as ever, so replay and the web pages are unchanged).

It goes at the first daemon pass at or after ``digest_hour`` (the player's ``PROFILE pref digest_hour``, else
``[notices] digest_hour``) in the player's zone, once a local day, and only when there is something to say.
Exactly once: its Message-ID is made from the player's key and the local date, and the outbox keeps them unique.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from pbem import i18n
from pbem.notices import prefs as notice_prefs
from pbem.notices.webhooks import unshown_failures
from pbem.render import render_reply
from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.store.models import Game, NoticeMark, Outbox, Player, Seat, Sitrep, Submission
from pbem.store.times import aware

#: what a first digest covers when the player has had none
FIRST = timedelta(days=1)


def zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except Exception:  # a zone name the system does not know: the player reads UTC rather than nothing
        return ZoneInfo("UTC")


def left_text(seconds: float, lang: str = i18n.SOURCE) -> str:
    """Time left as a player says it: "2 d 5 h", "3 h 20 min", "overdue" (in his language)."""
    _ = i18n.gettext(lang)
    if seconds <= 0:
        return _("overdue")
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    d, h, m = (_("%(num)d d") % {"num": days}, _("%(num)d h") % {"num": hours}, _("%(num)d min") % {"num": mins})
    if days:
        return f"{d} {h}"
    return f"{h} {m}" if hours else m


@dataclass
class Owed:
    game: str
    title: str
    seat: str
    turn: int
    phase: str
    due: str
    left: str
    form_name: str


class Digests:
    """What the daemon asks each pass: whose digest is due now."""

    def __init__(self, deps: Deps, outbox: OutboxService, order_form: Callable[[str, str], str]) -> None:
        self.deps, self.outbox, self.order_form = deps, outbox, order_form

    def run(self) -> int:
        """Queue the digests due now; return how many were queued."""
        now = self.deps.clock()
        default_hour = int(self.deps.home.section("notices")["digest_hour"])
        with self.deps.reader() as s:
            due = []
            for player in s.exec(select(Player).where(col(Player.prefs_json).contains("digest"),
                                                      Player.replaced_by == "")).all():
                prefs = notice_prefs.of_player(player)
                if not prefs.digest:
                    continue
                local = now.astimezone(zone(player.tz))
                hour = prefs.digest_hour if prefs.digest_hour is not None else default_hour
                if local.hour < hour:
                    continue
                mid = self.outbox.message_id("digest", player.fingerprint, local.date().isoformat())
                if s.exec(select(Outbox.id).where(Outbox.message_id == mid)).first() is None:
                    due.append((player, local.date(), mid))
        return sum(self._one(player, day, mid, now) for player, day, mid in due)

    def _one(self, player: Player, day: date, mid: str, now: datetime) -> int:
        with self.deps.reader() as s:
            mark = s.get(NoticeMark, (player.fingerprint, "digest"))
            since = aware(mark.at) if mark is not None else now - FIRST
            seats = s.exec(select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id)).where(
                Seat.fingerprint == player.fingerprint).order_by(col(Game.id), col(Seat.name))).all()
            lang = i18n.player_lang(player, self.deps)
            owed = [o for seat, game in seats if (o := self._owed(s, game, seat, player.tz, now, lang)) is not None]
            ours = {(game.id, seat.name) for seat, game in seats}
            reports = [r for r in s.exec(select(Sitrep).where(
                col(Sitrep.game_id).in_(sorted({g for g, _ in ours})), Sitrep.created_at > since,
                Sitrep.created_at <= now).order_by(col(Sitrep.game_id), col(Sitrep.seat), col(Sitrep.seq))).all()
                if (r.game_id, r.seat) in ours]
        if not owed and not reports:
            return 0
        forms = [[o.form_name, self.order_form(o.game, o.seat)] for o in owed]
        address = player.email or next((seat.email for seat, _ in seats if seat.email), "")
        if not address:
            return 0
        with self.deps.session() as s:
            failures = unshown_failures(s, player.fingerprint, lang)
            ctx: dict[str, Any] = {
                "name": player.name, "day": _day(day, lang), "tz": player.tz, "owed": owed,
                "sitreps": [{"game": r.game_id, "seat": r.seat, "turn": r.turn, "phase": r.phase, "text": r.text}
                            for r in reports],
                "failures": failures}
            text, html = render_reply("digest", ctx, lang=lang)
            # "pbem digest DATE:" stays as it is in every language (mail filters sort on it)
            _, ngettext = i18n.gettext(lang), i18n.ngettext(lang)
            subject = f"pbem digest {day.isoformat()}: " + (
                ngettext("orders owed in %(num)d game", "orders owed in %(num)d games", len(owed)) % {"num": len(owed)}
                if owed else _("news from your games"))
            queued = self.outbox.queue_once(s, kind="digest", to=address, subject=subject, text=text, html=html,
                                            msg_id=mid, now=now, forms=forms)
            if queued:
                mark = s.get(NoticeMark, (player.fingerprint, "digest"))
                if mark is None:
                    s.add(NoticeMark(fingerprint=player.fingerprint, kind="digest", at=now))
                else:
                    mark.at = now
                    s.add(mark)
                s.commit()
            else:
                s.rollback()  # another daemon's digest: the failures stay untold until it is read
        return int(queued)

    def _owed(self, s: Session, game: Game, seat: Seat, tz: str, now: datetime, lang: str) -> Owed | None:
        if game.status != "active" or seat.bot or seat.name not in json.loads(game.awaiting_json):
            return None
        if s.exec(select(Submission.id).where(Submission.game_id == game.id, Submission.seat == seat.name,
                                              Submission.turn == game.turn, Submission.phase == game.phase,
                                              Submission.current == True)).first() is not None:  # noqa: E712
            return None
        _ = i18n.gettext(lang)
        deadline = aware(seat.clock_due) if game.clock and seat.clock_due is not None else \
            aware(game.deadline) if game.deadline is not None else None
        return Owed(game=game.id, title=game.title, seat=seat.name, turn=game.turn,
                    phase=game.phase_title or game.phase,
                    due=i18n.local_time(deadline, tz, lang) if deadline else _("no deadline"),
                    left=left_text((deadline - now).total_seconds(), lang) if deadline else "",
                    form_name=f"orders-{game.id}-{seat.name}.txt")


def _day(day: date, lang: str) -> str:
    """The digest's day: ISO in English (as it always was), the reader's own long form in another language."""
    if lang == i18n.SOURCE:
        return day.isoformat()
    from babel.dates import format_date

    return format_date(day, "long", locale=lang)
