"""Alarms: one mail per phase when a set share of a player's time is left and no orders have come.

``PROFILE pref alarm 25`` rings when a quarter of the time is left.  The time is the seat's own: from when
its clock started to its own deadline in a game with a time bank (``Seat.clock_start``/``clock_due``), else
from when the phase opened (the game's latest setup or resolution entry) to the game's deadline.  Once per seat and phase: the
mail's Message-ID is made from the game, turn, phase and seat, and the outbox keeps Message-IDs unique.
"""
from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem import i18n
from pbem.notices import prefs as notice_prefs
from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.store.models import Game, Journal, Outbox, Player, Seat, Submission
from pbem.store.times import aware


def share_left(start: datetime, deadline: datetime, now: datetime) -> float:
    """The percentage of the time from ``start`` to ``deadline`` still left at ``now`` (0 past it)."""
    total = (deadline - start).total_seconds()
    if total <= 0:
        return 0.0
    return max(0.0, (deadline - now).total_seconds()) * 100.0 / total


class Alarms:
    """What the daemon asks each pass: whose alarm rings now."""

    def __init__(self, deps: Deps, outbox: OutboxService) -> None:
        self.deps, self.outbox = deps, outbox

    def run(self) -> int:
        """Queue the alarms due now; return how many were queued.

        A few statements a pass whatever the number of seats: the seats of players who want alarms, when
        their games' phases opened, which alarms are queued already and which orders are in.
        """
        now = self.deps.clock()
        with self.deps.session() as s:
            wanting = {p.fingerprint: pr for p in s.exec(select(Player).where(col(Player.prefs_json).contains("alarm")))
                       if (pr := notice_prefs.of_player(p)).alarm is not None}
            if not wanting:
                return 0
            seats = s.exec(select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id)).where(
                Game.status == "active", Game.window == "orders", col(Seat.fingerprint).in_(list(wanting)),
                Seat.bot == "", Seat.email != "")).all()
            opened = dict(s.exec(select(Journal.game_id, func.max(Journal.created_at)).where(
                col(Journal.game_id).in_(sorted({g.id for _, g in seats})),
                col(Journal.kind).in_(("setup", "resolve"))).group_by(col(Journal.game_id))).all())
            ringing = []
            for seat, game in seats:
                share = wanting[seat.fingerprint].alarm or 0.0
                left = self._left(game, seat, opened.get(game.id), now)
                if left is not None and 0 < left[0] <= share and seat.name in json.loads(game.awaiting_json):
                    mid = self.outbox.message_id("alarm", game.id, game.turn, game.phase, seat.name)
                    ringing.append((seat, game, share, left, mid))
            if not ringing:
                return 0
            queued = set(s.exec(select(Outbox.message_id).where(
                col(Outbox.message_id).in_([r[-1] for r in ringing]))).all())
            ins = {(g, x, t, p) for g, x, t, p in s.exec(select(
                Submission.game_id, Submission.seat, Submission.turn, Submission.phase).where(
                col(Submission.game_id).in_(sorted({r[1].id for r in ringing})),
                Submission.current == True)).all()}  # noqa: E712
            count = sum(self._queue(s, seat, game, share, left, mid, now) for seat, game, share, left, mid in ringing
                        if mid not in queued and (game.id, seat.name, game.turn, game.phase) not in ins)
            s.commit()
        return count

    @staticmethod
    def _left(game: Game, seat: Seat, opened: datetime | None,
              now: datetime) -> tuple[float, datetime] | None:
        """The share of the seat's time left and its deadline (None without a deadline)."""
        if game.clock and seat.clock_due is not None and seat.clock_start is not None:
            start, deadline = aware(seat.clock_start), aware(seat.clock_due)
        elif game.deadline is not None:
            # the phase opened with the game's latest setup or resolution (a GM's entry since does not reopen it)
            deadline = aware(game.deadline)
            start = aware(opened) if opened is not None else now
        else:
            return None
        return share_left(start, deadline, now), deadline

    def _queue(self, s: Session, seat: Seat, game: Game, share: float, left: tuple[float, datetime], mid: str,
               now: datetime) -> int:
        pct, deadline = left
        lang = i18n.effective(seat.lang, i18n.server_default(self.deps))
        _ = i18n.gettext(lang)
        when = i18n.local_time(deadline, seat.tz, lang)
        percent = i18n.number(round(pct), lang)
        text = (_("Alarm: %(pct)s %% of your time is left for game %(game)s, turn %(turn)s, %(phase)s (seat %(seat)s), "
                  "and no orders have come.") % {"pct": percent, "game": game.id, "turn": game.turn,
                                                 "phase": game.phase_title or game.phase, "seat": seat.name} + "\n"
                + _("They are due %(when)s. %(command)s prints a fresh order form.")
                % {"when": when, "command": f"`pbem orders {game.id} {seat.name}`"} + "\n"
                + _("(You asked for this alarm with %(pref)s; %(stop)s with no value stops it.)")
                % {"pref": f"PROFILE pref alarm {share:g}", "stop": "PROFILE pref alarm"} + "\n")
        # once: another daemon's pass may queue the same alarm at the same moment
        # "[GAME] alarm:" stays as it is in every language (mail filters sort on it)
        return int(self.outbox.queue_once(s, kind="notice", to=seat.email,
                                          subject=f"[{game.id}] alarm: "
                                          + _("%(pct)s %% of your time left") % {"pct": percent},
                                          text=text, html=f"<pre>{_escape(text)}</pre>", msg_id=mid, now=now,
                                          game_id=game.id))


def _escape(text: str) -> str:
    from html import escape

    return escape(text)
