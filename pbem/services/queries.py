"""What the command line shows: a game's status, the games, the players, sitreps, order forms, the journal."""
from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func
from sqlalchemy import select as sa_select
from sqlmodel import SQLModel, col, select

from pbem.core.play import orders_text
from pbem.journal import author
from pbem.services.deps import Deps
from pbem.services.records import ServerError, get_game
from pbem.services.states import StateCache
from pbem.store.models import Game, Inbound, Journal, Seat, Sitrep, Submission
from pbem.store.times import aware, iso


G = SQLModel.metadata.tables["game"].c  # columns, typed as columns (SQLModel types Game.x as values)


class Queries:
    """Read-only questions, each in one reading transaction."""

    def __init__(self, deps: Deps, states: StateCache) -> None:
        self.deps, self.states = deps, states

    def status(self, game_id: str) -> dict[str, Any]:
        """One game: where it stands, who owes orders, its seats."""
        with self.deps.reader() as s:
            game = get_game(s, game_id)
            awaiting = json.loads(game.awaiting_json)
            subs = set(s.exec(select(Submission.seat).where(
                Submission.game_id == game_id, Submission.turn == game.turn, Submission.phase == game.phase,
                Submission.current == True)).all())  # noqa: E712
            seats = s.exec(select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.name))).all()
            return {"game": game.id, "ruleset": game.ruleset, "scenario": game.scenario, "title": game.title,
                    "status": game.status, "turn": game.turn, "phase": game.phase, "phase_title": game.phase_title,
                    "window": game.window, "deadline": iso(aware(game.deadline)),
                    "owing": sorted(set(awaiting) - subs), "in": sorted(set(awaiting) & subs),
                    "seats": [{"name": x.name, "side": x.side, "email": x.email, "key": x.fingerprint}
                              for x in seats],
                    "held_reason": game.held_reason, "journal_head": game.journal_head,
                    "seed_commitment": game.seed_commitment,
                    "outcome": json.loads(game.outcome_json) if game.outcome_json else None}

    def held_games(self) -> list[str]:
        with self.deps.reader() as s:
            return list(s.exec(select(Game.id).where(Game.status == "held").order_by(col(Game.id))).all())

    def games(self) -> list[Game]:
        with self.deps.reader() as s:
            return list(s.exec(select(Game).order_by(col(Game.id))).all())

    def overview(self, *, archived: bool = False) -> list[dict[str, Any]]:
        """Every game with what a GM looks at first (archived games only when asked).

        ``owing`` is who the game waits for: sides owing orders, or, before it starts, sides
        without a player (``waiting_for`` says which).  ``last_activity`` is the latest mail in
        or journal entry.  Times are UTC-aware datetimes.
        """
        with self.deps.reader() as s:
            # columns, not rows: a game's row carries its whole state
            query = sa_select(G.id, G.ruleset, G.title, G.status, G.turn, G.phase, G.phase_title,
                              G.awaiting_json, G.deadline, G.held_reason).order_by(G.id)
            if not archived:
                query = query.where(G.status != "archived")
            games = s.connection().execute(query).all()
            subs = s.exec(select(Submission.game_id, Submission.seat).join(Game, col(Game.id) == col(Submission.game_id)).where(
                Submission.current == True, Submission.turn == Game.turn,  # noqa: E712
                Submission.phase == Game.phase)).all()
            unseated = s.exec(select(Seat.game_id, Seat.name).where(Seat.fingerprint == "")).all()
            mail_in = dict(s.exec(select(Inbound.game_id, func.max(Inbound.received_at))
                                  .where(Inbound.game_id != "").group_by(col(Inbound.game_id))).all())
            journal = dict(s.exec(select(Journal.game_id, func.max(Journal.created_at))
                                  .group_by(col(Journal.game_id))).all())
        have: dict[str, set[str]] = {}
        for gid, seat in subs:
            have.setdefault(gid, set()).add(seat)
        empty: dict[str, list[str]] = {}
        for gid, seat in unseated:
            empty.setdefault(gid, []).append(seat)
        out = []
        for g in games:
            if g.status == "open":
                waiting_for, owing = "players", sorted(empty.get(g.id, []))
            elif g.status in ("active", "paused", "held"):
                waiting_for, owing = "orders", sorted(set(json.loads(g.awaiting_json)) - have.get(g.id, set()))
            else:
                waiting_for, owing = "", []
            last = max((aware(t) for t in (mail_in.get(g.id), journal.get(g.id)) if t is not None), default=None)
            out.append({"game": g.id, "ruleset": g.ruleset, "title": g.title, "status": g.status, "turn": g.turn,
                        "phase": g.phase, "phase_title": g.phase_title, "waiting_for": waiting_for if owing else "",
                        "owing": owing, "deadline": aware(g.deadline), "held_reason": g.held_reason,
                        "last_activity": last})
        return out

    def players(self) -> list[dict[str, Any]]:
        """Every registered player, one per key (a player is their key), with the sides they hold."""
        with self.deps.reader() as s:
            seat = SQLModel.metadata.tables["seat"].c
            rows = s.connection().execute(
                sa_select(seat.fingerprint, seat.email, seat.tz, seat.game_id, seat.name, G.status)
                .join_from(SQLModel.metadata.tables["seat"], SQLModel.metadata.tables["game"], G.id == seat.game_id)
                .where(seat.fingerprint != "").order_by(seat.game_id, seat.name)).all()
        by_key: dict[str, dict[str, Any]] = {}
        for fingerprint, email, tz, game_id, seat, status in rows:
            p = by_key.setdefault(fingerprint, {"fingerprint": fingerprint, "emails": [], "zones": [], "seats": []})
            p["emails"] += [email] if email not in p["emails"] else []
            p["zones"] += [tz] if tz not in p["zones"] else []
            p["seats"].append({"game": game_id, "side": seat, "status": status})
        return sorted(by_key.values(), key=lambda p: (p["emails"][0].lower(), p["fingerprint"]))

    def sitrep(self, game_id: str, seat: str, turn: int | None = None) -> Sitrep:
        """A seat's latest sitrep (of ``turn``, if given)."""
        with self.deps.reader() as s:
            q = select(Sitrep).where(Sitrep.game_id == game_id, Sitrep.seat == seat)
            if turn is not None:
                q = q.where(Sitrep.turn == turn)
            row = s.exec(q.order_by(col(Sitrep.id).desc())).first()
            if row is None:
                raise ServerError(f"no sitrep for {seat} in game {game_id}"
                                  + (f" at turn {turn}" if turn is not None else ""))
            return row

    def order_form(self, game_id: str, seat: str) -> str:
        """A fresh order form for the seat in the current phase."""
        with self.deps.reader() as s:
            game = get_game(s, game_id)
            ruleset, state = self.states.load(game)
            phase = ruleset.phase(state)
            if phase is None:
                raise ServerError(f"game {game_id} is over")
            if seat not in {x.name for x in ruleset.seats(state)}:
                raise ServerError(f"game {game_id} has no side {seat!r}")
            return orders_text(game_id, seat, phase, ruleset.order_form(ruleset.view(state, seat), seat))

    def journal(self, game_id: str) -> list[dict[str, Any]]:
        """The entries, oldest first, each with when (UTC, ISO) and by whom it was made."""
        with self.deps.reader() as s:
            get_game(s, game_id)
            rows = s.exec(select(Journal).where(Journal.game_id == game_id).order_by(col(Journal.seq))).all()
        out = []
        for j in rows:
            payload = json.loads(j.payload_json)
            out.append({"seq": j.seq, "kind": j.kind, "turn": j.turn, "phase": j.phase, "hash": j.hash[:16],
                        "at": iso(j.created_at), "by": author(j.kind, payload),
                        "what": payload.get("command", "")})
        return out
