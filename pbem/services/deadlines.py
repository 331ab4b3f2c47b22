"""Deadlines: which games are due, when the next deadline is, and reminders before it."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlalchemy import select as sa_select
from sqlmodel import SQLModel, col, select

from pbem import i18n
from pbem.notices import prefs as notice_prefs
from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.store.models import Game, Outbox, Seat, Submission
from pbem.store.times import aware, iso


G = SQLModel.metadata.tables["game"].c  # columns, typed as columns (SQLModel types Game.x as values)


class Deadlines:
    """What the daemon asks each pass: what is due, when to wake next, whom to remind."""

    def __init__(self, deps: Deps, outbox: OutboxService) -> None:
        self.deps, self.outbox = deps, outbox

    def remind(self) -> int:
        """Queue one reminder per seat still owing orders when its deadline is near; return how many."""
        now = self.deps.clock()
        count = 0
        with self.deps.session() as s:
            # columns, not rows: a game's row carries its whole state, and a server holds thousands
            games = s.connection().execute(
                sa_select(G.id, G.deadline, G.window, G.remind_hours, G.turn, G.phase, G.phase_title,
                          G.awaiting_json, G.grace_hours, G.clock).where(G.status == "active",
                                                                         G.deadline.is_not(None))).all()
            for game in games:
                latest = aware(game.deadline)  # with a time bank, the latest of the seats' own deadlines
                if game.window != "orders" or latest < now or (
                        not game.clock and latest - timedelta(hours=game.remind_hours) > now):
                    continue
                subs = set(s.exec(select(Submission.seat).where(
                    Submission.game_id == game.id, Submission.turn == game.turn, Submission.phase == game.phase,
                    Submission.current == True)).all())  # noqa: E712
                for seat in s.exec(select(Seat).where(Seat.game_id == game.id)).all():
                    if seat.name not in json.loads(game.awaiting_json) or seat.name in subs or seat.bot:
                        continue
                    if notice_prefs.of_fingerprint(s, seat.fingerprint).digest:
                        continue  # one mail a day, as the player chose; their alarm (pbem.notices) is theirs to set
                    deadline = aware(seat.clock_due) if game.clock and seat.clock_due is not None else latest
                    if deadline - timedelta(hours=game.remind_hours) > now or deadline < now:
                        continue
                    mid = self.outbox.message_id("remind", game.id, game.turn, game.phase, seat.name, iso(deadline))
                    if s.exec(select(Outbox.id).where(Outbox.message_id == mid)).first() is not None:
                        continue  # reminded already for this deadline
                    lang = i18n.effective(seat.lang, i18n.server_default(self.deps))
                    _ = i18n.gettext(lang)
                    when = i18n.local_time(deadline, seat.tz, lang)
                    grace = _(" (and a grace period of %(hours)s h)") % {
                        "hours": i18n.number(game.grace_hours, lang)} if game.grace_hours else ""
                    text = (_("Reminder: your orders for game %(game)s, turn %(turn)s, %(phase)s are due %(when)s%(grace)s.")
                            % {"game": game.id, "turn": game.turn, "phase": game.phase_title, "when": when,
                               "grace": grace} + "\n"
                            + _("Reply to your latest sitrep with the signed order form; "
                                "`%(command)s` prints a fresh one.") % {"command": f"pbem orders {game.id} {seat.name}"}
                            + "\n")
                    # once: another daemon's pass may queue the same reminder at the same moment
                    count += self.outbox.queue_once(s, kind="notice", to=seat.email,
                                                    subject=f"[{game.id}] " + _("orders due %(when)s") % {"when": when},
                                                    text=text,
                                                    html=f"<p>{text}</p>", msg_id=mid, now=now, game_id=game.id)
            s.commit()
        return count

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of an active game, or of a seat's own clock still to come (the daemon
        wakes then)."""
        with self.deps.reader() as s:
            row = s.exec(select(Game.deadline).where(Game.status == "active", col(Game.deadline).is_not(None))
                         .order_by(col(Game.deadline)).limit(1)).first()
            own = s.exec(select(Seat.clock_due).join(Game, col(Game.id) == col(Seat.game_id)).where(
                Game.status == "active", col(Seat.clock_due) > self.deps.clock())
                .order_by(col(Seat.clock_due)).limit(1)).first()
        times = [aware(t) for t in (row, own) if t is not None]
        return min(times) if times else None

    def due_games(self) -> list[str]:
        """Active games whose deadline has passed or whose phase may already be complete."""
        now = self.deps.clock()
        with self.deps.reader() as s:
            rows = s.exec(select(Game.id, Game.deadline, Game.awaiting_json).where(Game.status == "active")).all()
            # Games whose awaited orders are all in: a daemon killed between ingest and advance must not
            # leave a complete phase waiting for its deadline (found by the kill -9 soak, tests/soak/crash.py).
            subs = s.exec(select(Submission.game_id, Submission.seat).join(Game, col(Game.id) == col(Submission.game_id)).where(
                Game.status == "active", Submission.current == True,  # noqa: E712
                Submission.turn == Game.turn, Submission.phase == Game.phase)).all()
            # seats the scripted player plays (never waited for) and seats on their own clocks (pbem.clocks)
            seats = s.exec(select(Seat.game_id, Seat.name, Seat.bot, Seat.clock_due).join(
                Game, col(Game.id) == col(Seat.game_id)).where(
                Game.status == "active", (col(Seat.bot) != "") | col(Seat.clock_due).is_not(None))).all()
        have: dict[str, set[str]] = {}
        for gid, seat in subs:
            have.setdefault(gid, set()).add(seat)
        bots: dict[str, set[str]] = {}
        own: dict[str, dict[str, datetime]] = {}
        for gid, name, bot, clock_due in seats:
            if bot:
                bots.setdefault(gid, set()).add(name)
            elif clock_due is not None:
                own.setdefault(gid, {})[name] = aware(clock_due)
        due = []
        for gid, deadline, awaiting in rows:
            owing = set(json.loads(awaiting)) - have.get(gid, set()) - bots.get(gid, set())
            # grace is applied when resolving; asking early costs one cheap check
            if (deadline is not None and aware(deadline) <= now) or awaiting == "[]" or not owing \
                    or (gid in own and all(own[gid].get(x, now) <= now for x in owing)):
                due.append(gid)
        return due
