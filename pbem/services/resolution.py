"""Resolution: the phases that are due become journal entries, and the seats their sitreps."""
from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from typing import Any
from collections.abc import Iterable, Mapping

from sqlmodel import Session, col, select

from pbem.clocks import seats as clocks
from pbem.core.errors import PbemError
from pbem.core.orders import parse_order_file
from pbem.core.play import MAX_AUTOMATIC_PHASES, phase_dice
from pbem.core.ruleset import Phase, Ruleset
from pbem.render import render_reply
from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.services.records import append_entry, enter_phase, found
from pbem.services.sitreps import SitrepService
from pbem.services.states import StateCache
from pbem.store.claim import ClaimLost, run_claimed
from pbem.store.models import Game, Outbox, Submission
from pbem.store.times import aware, iso

# The logger keeps the name it had when this lived in the server: operators filter on it.
log = logging.getLogger("pbem.server")


class ResolutionService:
    """Resolve what is due, game by game; a failing ruleset holds its game, never the others."""

    def __init__(self, deps: Deps, states: StateCache, sitreps: SitrepService, outbox: OutboxService) -> None:
        self.deps, self.states, self.sitreps, self.outbox = deps, states, sitreps, outbox

    def advance(self, game_id: str) -> int:
        """Resolve every phase of the game that is due; return how many were resolved.

        A ruleset error holds the game (and tells the GM) without touching any other game.
        """
        def work(s: Session, game: Game | None) -> int:
            if found(game, game_id).status != "active":
                return 0
            return self.resolve_due(s, found(game, game_id))

        try:
            return run_claimed(self.deps.session, game_id, work)
        except ClaimLost:
            log.exception("%s: resolution failed; game held", game_id)
            self.hold(game_id, "resolution failed: the journal refused the entry several times")
            return 0
        except Exception as exc:  # a broken ruleset must not stop the daemon or other games
            log.exception("%s: resolution failed; game held", game_id)
            self.hold(game_id, f"resolution failed: {exc.__class__.__name__}: {exc}")
            return 0

    def resolve_due(self, s: Session, game: Game, force: bool = False) -> int:
        """Resolve while phases are complete or due, in the caller's transaction with the game claimed;
        ``force`` resolves the current phase now (the GM's RESOLVE)."""
        ruleset, state = self.states.load(game)
        now = self.deps.clock()
        count = automatic = 0
        resolved: set[tuple[int, str]] = set()
        while True:
            phase = ruleset.phase(state)
            if phase is None:
                break
            subs = {row.seat: row for row in s.exec(select(Submission).where(
                Submission.game_id == game.id, Submission.turn == phase.turn, Submission.phase == phase.name,
                Submission.current == True)).all()}  # noqa: E712
            # seats the scripted player plays are never waited for; orders their player sent still count
            bots = clocks.bot_seats(s, game) & (phase.awaiting - subs.keys())
            missing = sorted(phase.awaiting - subs.keys() - bots)
            deadline = aware(game.deadline)
            due = force or (deadline is not None and now >= deadline + timedelta(hours=game.grace_hours)) \
                or clocks.overdue(s, game, missing, now)
            if phase.awaiting and (missing or game.wait_for_deadline) and not due:
                break
            if missing and len(missing) > game.max_missing and not force:
                # Many sides silent at once looks like a mail outage, not a decision: hold, tell the GM.
                self._breaker(s, game, missing, now)
                break
            if (phase.turn, phase.name) in resolved:
                # The same key means the same stored orders (still current) and the same dice: resolving
                # it again would replay one set of orders until the game moved on.  A ruleset bug: hold.
                raise PbemError(f"phase {phase.key} came round again after it was resolved; a phase key "
                                "must never repeat (advance the turn before a phase comes back)")
            forced, force = force, False
            automatic = automatic + 1 if not phase.awaiting else 0
            if automatic > MAX_AUTOMATIC_PHASES:
                raise PbemError(f"{automatic} phases in a row await nobody; the ruleset seems to loop")
            texts = {seat: row.text for seat, row in sorted(subs.items())
                     if seat in phase.awaiting or seat in phase.optional}
            played = clocks.bot_texts(ruleset, state, game, phase, bots)
            missing = sorted({*missing, *(bots - played.keys())})
            state = self._resolve_one(s, game, ruleset, state, phase, {**texts, **played}, missing, now,
                                      subs=subs, played=sorted(played), forced=forced)
            resolved.add((phase.turn, phase.name))
            count += 1
        if count:
            self._resolved_acks(s, game, resolved)
            s.add(game)
            self.states.remember(game, state)
            self.sitreps.queue(s, game, ruleset, state)
        return count

    def _resolve_one(self, s: Session, game: Game, ruleset: Ruleset, state: Any, phase: Phase,
                     texts: Mapping[str, str], missing: list[str], now: datetime, *,
                     subs: Mapping[str, Submission], played: list[str], forced: bool) -> Any:
        orders = stored_orders(ruleset, state, texts, missing)
        dice = phase_dice(bytes.fromhex(game.seed_hex), phase)
        result = ruleset.resolve(state, orders, dice)
        bank, told, gm = clocks.settle(s, game, phase, subs, missing, played, now, forced)
        enter_phase(game, ruleset, result.state, now)
        clocks.start_phase(s, game, ruleset.phase(result.state), now)
        notices = [f"{seat} sent no orders by the deadline; the rules' default for missing orders was used"
                   for seat in missing]
        notices += [f"{seat}'s orders were written by the scripted player" for seat in played] + told
        payload: dict[str, Any] = {"phase": phase.key, "orders": dict(texts), "missing": missing,
                                   "notices": notices, "deadline": iso(game.deadline)}
        if played:
            payload["bots"] = played
        if bank:
            payload["clocks"] = bank
        payload.update(clocks.clock_payload(s, game, now))
        if gm:
            self.outbox.notify_gm(s, game, "civil disorder", f"Game {game.id}:\n" + "\n".join(gm) + "\n\nSeat a "
                                  f"new player with `pbem gm replace {game.id} SIDE --email ADDRESS --key KEYFILE` "
                                  "(they get the seat's sitreps so far, and nothing more).", now)
        append_entry(s, game, "resolve", payload, ruleset.dump(result.state), now, result.events, dice.rolls, phase)
        return result.state

    def _resolved_acks(self, s: Session, game: Game, phases: set[tuple[int, str]]) -> None:
        """Acks still waiting to go for phases that have just resolved: say so, offer no window."""
        rows = s.exec(select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "ack",
                                           Outbox.state == "queued", col(Outbox.raw).is_(None))).all()
        for row in rows:
            parts = json.loads(row.parts_json)
            ack = parts.get("ack")
            if not ack or ack["resolved"] or (ack["turn"], ack["phase"]) not in phases:
                continue
            ack.update(resolved=True, completes=True, deadline="")
            parts["text"], parts["html"] = render_reply("ack", ack, lang=ack.get("lang", "en"))
            row.parts_json = json.dumps(parts, ensure_ascii=False)
            s.add(row)

    def hold(self, game_id: str, reason: str) -> None:
        """Hold the game (no deadline runs) and tell the GM why."""
        with self.deps.session() as s:
            game = s.get(Game, game_id)
            if game is None:
                return
            game.status, game.held_reason = "held", reason[:2000]
            s.add(game)
            self.outbox.notify_gm(s, game, "game held", f"Game {game_id} is held.\n\n{reason}\n\nFix the cause, "
                                  f"then `pbem gm resume {game_id}`.", self.deps.clock())
            s.commit()

    def _breaker(self, s: Session, game: Game, missing: list[str], now: datetime) -> None:
        game.status = "held"
        game.held_reason = (f"circuit breaker: {len(missing)} sides sent no orders by the deadline "
                            f"({', '.join(missing)}), more than the {game.max_missing} allowed; a mail outage "
                            "looks like this. Check mail, then `pbem gm resume` (new window) or `pbem gm resolve`.")
        s.add(game)
        self.outbox.notify_gm(s, game, "turn held by the circuit breaker", game.held_reason, now)


def stored_orders(ruleset: Ruleset, state: Any, texts: Mapping[str, str], missing: Iterable[str]) -> dict[str, Any]:
    """The stored orders, parsed and checked again (they were when taken), and the default for the missing;
    resolution and ``pbem replay`` both take a phase's orders through this."""
    orders: dict[str, Any] = {}
    for seat, text in texts.items():
        f, problems = parse_order_file(text)
        if f is None:
            raise PbemError(f"stored orders of {seat} no longer parse: {problems}")
        checked = ruleset.check_orders(ruleset.view(state, seat), seat, f.lines)
        if checked.problems:
            raise PbemError(f"stored orders of {seat} no longer validate: "
                            + "; ".join(map(str, checked.problems)))
        orders[seat] = checked.orders
    for seat in missing:
        orders[seat] = ruleset.default_orders(state, seat)
    return orders
