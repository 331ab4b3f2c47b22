"""The game record every service writes the same way: look-ups, journal entries, entering a phase."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any
from collections.abc import Mapping, Sequence

from sqlmodel import Session, select

from pbem.core.errors import PbemError
from pbem.core.dice import Roll
from pbem.core.ruleset import Event, Phase, Ruleset, Window
from pbem.journal import GENESIS, dumps, entry_hash, events_json, rolls_json, state_hash
from pbem.schedule import deadline_for
from pbem.store.models import Game, Journal, Seat

#: Per-game settings and their defaults (overridable in the config's [schedule] and per game).
SETTINGS: dict[str, float | int] = {"hours": 48.0, "interrupt_hours": 12.0, "min_hours": 12.0, "grace_hours": 0.0,
                                    "remind_hours": 12.0, "max_missing": 1, "vacation_hours": 72.0}


class ServerError(PbemError):
    """A command the GM gave cannot be carried out; the message says why."""


def get_game(s: Session, game_id: str) -> Game:
    """The game's row, unlocked (to claim it, see :mod:`pbem.store.claim`).  :raises ServerError: if none."""
    game = s.exec(select(Game).where(Game.id == game_id)).first()
    if game is None:
        raise ServerError(f"there is no game {game_id!r}")
    return game


def found(game: Game | None, game_id: str) -> Game:
    """A claimed game that must exist.  :raises ServerError: if it does not."""
    if game is None:
        raise ServerError(f"there is no game {game_id!r}")
    return game


def append_entry(s: Session, game: Game, kind: str, payload: Any, state_dump: Mapping[str, Any], now: datetime,
                 events: Sequence[Event] = (), rolls: Sequence[Roll] = (), phase: Phase | None = None) -> Journal:
    """Chain a journal entry onto the game's journal and make its state the game's."""
    seq = game.journal_seq + 1 if game.journal_head else 0
    prev = game.journal_head or GENESIS
    ev, ro = events_json(events), rolls_json(rolls)
    st_hash = state_hash(state_dump)
    turn, pname = (phase.turn, phase.name) if phase else (game.turn, game.phase)
    h = entry_hash(prev, seq, kind, turn, pname, payload, ev, ro, st_hash)
    row = Journal(game_id=game.id, seq=seq, kind=kind, turn=turn, phase=pname, payload_json=dumps(payload),
                  events_json=dumps(ev), rolls_json=dumps(ro), state_json=dumps(state_dump),
                  state_hash=st_hash, prev_hash=prev, hash=h, created_at=now)
    s.add(row)
    game.journal_seq, game.journal_head = seq, h
    game.state_json = row.state_json
    return row


def enter_phase(game: Game, ruleset: Ruleset, state: Any, now: datetime, deadline: bool = True) -> None:
    """Set the game's phase, who it awaits and (with ``deadline``) when, or its outcome once it is over."""
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


def entry_dict(j: Journal) -> dict[str, Any]:
    """A journal entry as sitreps and replay read it."""
    return {"seq": j.seq, "kind": j.kind, "hash": j.hash, "payload": json.loads(j.payload_json),
            "events": json.loads(j.events_json), "rolls": json.loads(j.rolls_json)}


def seat_dict(seat: Seat) -> dict[str, Any]:
    """A seat's fixed facts as a sitrep names them."""
    return {"name": seat.name, "side": seat.side, "title": seat.title, "tz": seat.tz}
