"""Game results as the journals prove them: the inputs of the ratings.

Each game's journal is read in order and its hash chain checked; the outcome is the ruleset's own
verdict on the state of the last entry (not the ``outcome_json`` column, which is only a copy), so a
result can be traced to entries that every player's sitreps were built from.

A game is rated (:data:`MIN_PHASES` and the rest in :func:`rated_or_why`) when it ended by its rules
(not by the GM's ``END``, not voided), was long enough, and every seat was held by a human player's key.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, col, select

from pbem.campaign.record import chain_problems, entries as entries_of
from pbem.club.players import identities, sync
from pbem.core.errors import PbemError
from pbem.journal import GENESIS, entry_hash, state_hash
from pbem.services.deps import Deps
from pbem.store.models import Campaign, Game, Journal, Player, Seat
from pbem.store.times import aware

#: The fewest resolved phases a game needs to be rated: a game conceded at once says little.
MIN_PHASES = 3


@dataclass
class Result:
    """One finished game, as rated: who held which seat of which side, and how the sides ranked."""

    game: str
    ruleset: str
    scenario: str
    ended_at: str  # ISO time of the entry that ended it
    phases: int
    seats: list[dict[str, str]]  # {"seat", "side", "player"}: the player's current fingerprint
    winner: str | None  # a side, or None for a draw
    journal_head: str  # the hash of the last entry read: anyone holding the journal can match it
    rated: bool = True
    why: str = ""  # why not rated
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        out = {"game": self.game, "ruleset": self.ruleset, "scenario": self.scenario, "ended_at": self.ended_at,
               "phases": self.phases, "seats": self.seats, "winner": self.winner, "journal_head": self.journal_head}
        return out if self.rated else {**out, "unrated": self.why}


class JournalError(PbemError):
    """A journal whose chain does not hold: its results cannot be trusted."""


def entries(s: Session, game_id: str) -> list[Journal]:
    """The game's journal in order, its hash chain checked.  :raises JournalError: where it breaks."""
    rows = s.exec(select(Journal).where(Journal.game_id == game_id).order_by(col(Journal.seq))).all()
    prev = GENESIS
    for row in rows:
        st = state_hash(json.loads(row.state_json))
        h = entry_hash(prev, row.seq, row.kind, row.turn, row.phase, json.loads(row.payload_json),
                       json.loads(row.events_json), json.loads(row.rolls_json), st)
        if row.prev_hash != prev or row.state_hash != st or row.hash != h:
            raise JournalError(f"game {game_id}: journal entry {row.seq} does not match its hash chain")
        prev = row.hash
    return list(rows)


def collect(deps: Deps) -> tuple[list[Result], list[Result]]:
    """Every finished game's result from its journal: (rated ones in the order they are rated, the others)."""
    rated: list[Result] = []
    unrated: list[Result] = []
    with deps.session() as s:
        sync(s, deps.clock())
        s.commit()
        ids = identities(s)
        kinds = {p.fingerprint: p.kind for p in s.exec(select(Player)).all()}
        games = s.exec(select(Game).where(col(Game.status).in_(("over", "archived"))).order_by(col(Game.id))).all()
        for game in games:
            result = _result(deps, s, game, ids, kinds)
            if result is not None:
                (rated if result.rated else unrated).append(result)
        for result in _campaign_results(s, ids, kinds):  # a finished campaign is rated like one game
            (rated if result.rated else unrated).append(result)
    rated.sort(key=lambda r: (r.ended_at, r.game))
    return rated, unrated


def _result(deps: Deps, s: Session, game: Game, ids: dict[str, str], kinds: dict[str, str]) -> Result | None:
    rows = entries(s, game.id)
    if not rows:
        return None
    setup = json.loads(rows[0].payload_json)
    seats = s.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.name))).all()
    ruleset = deps.ruleset_for(game)
    state = ruleset.load(json.loads(rows[-1].state_json))
    outcome = ruleset.outcome(state)
    resolves = [r for r in rows if r.kind == "resolve"]
    end = next((r for r in reversed(rows) if r.kind == "resolve"), rows[-1])
    result = Result(
        game=game.id, ruleset=setup.get("ruleset", game.ruleset), scenario=setup.get("scenario", game.scenario),
        ended_at=aware(end.created_at).isoformat(), phases=len(resolves),
        seats=[{"seat": x.name, "side": x.side, "player": ids.get(x.fingerprint, x.fingerprint)} for x in seats],
        winner=outcome.winner if outcome else None, journal_head=rows[-1].hash)
    why = rated_or_why(rows, outcome is not None, result, seats, kinds)
    if why:
        result.rated, result.why = False, why
    return result


def _campaign_results(s: Session, ids: dict[str, str], kinds: dict[str, str]) -> list[Result]:
    """Finished campaigns (pbem.campaign) as results: the winner on campaign VP, its games counted as phases,
    its scenario ``campaign:<name>``; rated by the same rules as a game (so a campaign of three games or more)."""
    out = []
    for c in s.exec(select(Campaign).where(Campaign.status == "over").order_by(col(Campaign.id))).all():
        standing, players = json.loads(c.standing_json), json.loads(c.players_json)["players"]
        name = json.loads(c.definition_json)["data"]["campaign"]["name"]
        seats = [Seat(game_id=c.id, name=seat, side=p["side"], fingerprint=p["fingerprint"])
                 for seat, p in sorted(players.items())]
        result = Result(game=f"campaign:{c.id}", ruleset=c.ruleset, scenario=f"campaign:{name}",
                        ended_at=aware(c.updated_at).isoformat(), phases=len(standing["games"]),
                        seats=[{"seat": x.name, "side": x.side, "player": ids.get(x.fingerprint, x.fingerprint)}
                               for x in seats],
                        winner=(standing["result"] or {}).get("winner"), journal_head=c.head)
        why = "its record does not match its hash chain" if chain_problems(entries_of(s, c.id)) else \
            rated_or_why([], True, result, seats, kinds)
        if why:
            result.rated, result.why = False, why
        out.append(result)
    return out


def rated_or_why(rows: list[Journal], ended_by_rules: bool, result: Result, seats: Sequence[Seat],
                 kinds: dict[str, str]) -> str:
    """Why a finished game is not rated, or "" when it is."""
    commands = [json.loads(r.payload_json).get("command", "") for r in rows if r.kind in ("gm", "end")]
    if any(c == "VOID" for c in commands):
        return "voided by the GM"
    if any(r.kind == "end" for r in rows) or not ended_by_rules:
        return "ended by the GM, not by the rules"
    if result.phases < MIN_PHASES:
        return f"{result.phases} phase(s) resolved; a rated game has at least {MIN_PHASES}"
    if any(not x.fingerprint for x in seats):
        return "a seat had no player"
    if any(kinds.get(x.fingerprint, "human") != "human" for x in seats):
        return "not every seat was held by a human player"
    sides = {x.side for x in seats}
    if len(sides) < 2:
        return "fewer than two sides"
    if result.winner is not None and result.winner not in sides:
        return f"the winner {result.winner!r} is not a side of the game"
    player_sides: dict[str, set[str]] = {}
    for x in result.seats:
        player_sides.setdefault(x["player"], set()).add(x["side"])
    if any(len(v) > 1 for v in player_sides.values()):
        return "one player held seats on more than one side"
    return ""
