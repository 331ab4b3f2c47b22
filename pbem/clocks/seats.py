"""Each seat's clock in the database, and the seats the scripted player plays.

A phase that awaits orders starts the clock of each awaited seat (in a game with a time bank): its
deadline is when its bank runs out, counting only the hours its clock runs (rest days stop it).  The
game's own deadline is the latest of these; the phase resolves early once every seat still owing
orders is past its own deadline.  When the phase resolves, each clock is settled: the time it ran
(less what was granted beside the bank: a GM's extension, a pause, a vacation) comes off the bank,
the phase's increment goes on, up to the cap.  The resolution's journal entry records every seat's
bank before and after and its next deadline, so a dispute can be settled from the journal.

In every game, a seat that owed orders and sent none counts a missed phase; after the game's
``abandon_after`` in a row it is in civil disorder and the ruleset's ``bot_orders`` (seeing only that
seat's view) writes its orders until a player sends orders again or the GM seats a new one.
A seat may also be scripted from the start (``--bot SEAT``).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.clocks.bank import ClockSpec, Rest, days_of, running, runs_out, span
from pbem.core.orders import parse_order_file
from pbem.core.play import bot_dice, orders_text
from pbem.core.ruleset import Phase, Ruleset, Window
from pbem.store.models import Game, Seat, Submission
from pbem.store.times import aware, iso

log = logging.getLogger("pbem.clocks")


def spec_of(game: Game) -> ClockSpec | None:
    return ClockSpec.parse(game.clock) if game.clock else None


def rest_of(seat: Seat) -> Rest:
    return Rest(seat.tz or "UTC", days_of(seat.rest_days), days_of(seat.rest_next), aware(seat.rest_from))


def seats_of(s: Session, game: Game) -> list[Seat]:
    return list(s.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.name))).all())


def bot_seats(s: Session, game: Game) -> set[str]:
    """The seats the scripted player plays (abandoned, or scripted from the start)."""
    return set(s.exec(select(Seat.name).where(Seat.game_id == game.id, Seat.bot != "")).all())


def banked(phase: Phase | None) -> bool:
    """Whether a phase runs on the seats' banks: an ordinary orders window; an interrupt (one small
    decision, a short fixed window) and a phase with its own length keep their windows."""
    return phase is not None and bool(phase.awaiting) and phase.window != Window.INTERRUPT and not phase.hours


def start_phase(s: Session, game: Game, phase: Phase | None, now: datetime) -> None:
    """Start the clock of every seat the phase awaits (in a game with a bank); the game's deadline is
    the latest of theirs.  Seats not awaited have no clock running."""
    spec = spec_of(game)
    if spec is None:
        return
    for seat in seats_of(s, game):
        seat.clock_start = seat.clock_due = None
        seat.clock_grant = 0.0
        if banked(phase) and phase is not None and seat.name in phase.awaiting and not seat.bot:
            if seat.bank is None:
                seat.bank = spec.initial
            seat.clock_start = now
            seat.clock_due = runs_out(now, seat.bank, rest_of(seat))
        s.add(seat)
    _game_deadline(s, game)


def start_seat(s: Session, game: Game, seat: Seat, now: datetime) -> None:
    """A seat a player takes over mid-phase (it had no clock running, the scripted player had it):
    its clock starts now, on the seat's bank."""
    spec = spec_of(game)
    if spec is None or seat.clock_start is not None or seat.bot or game.window != Window.ORDERS.value \
            or seat.name not in json.loads(game.awaiting_json) or game.status != "active":
        return
    seat.bank = spec.initial if seat.bank is None else seat.bank
    seat.clock_start, seat.clock_grant = now, 0.0
    seat.clock_due = runs_out(now, seat.bank, rest_of(seat))
    s.add(seat)
    s.flush()
    _game_deadline(s, game)


def _game_deadline(s: Session, game: Game) -> None:
    dues = [aware(x.clock_due) for x in seats_of(s, game) if x.clock_due is not None]
    if dues:
        game.deadline = max(d for d in dues if d is not None)


def grant(s: Session, game: Game, seconds: float, seat: str | None = None) -> None:
    """Time beside the bank for this phase (every running seat, or one): it moves the deadline and is
    never banked."""
    for row in seats_of(s, game):
        if row.clock_start is not None and (seat is None or row.name == seat):
            row.clock_grant += seconds
            row.clock_due = runs_out(aware(row.clock_start), (row.bank or 0.0) + row.clock_grant, rest_of(row))
            s.add(row)
    _game_deadline(s, game)


def paused(s: Session, game: Game, since: datetime, now: datetime) -> None:
    """A pause from ``since`` to ``now``: each running seat is granted the clock time it spanned."""
    for row in seats_of(s, game):
        if row.clock_start is not None:
            grant(s, game, running(since, now, rest_of(row)), row.name)


def overdue(s: Session, game: Game, missing: Iterable[str], now: datetime) -> bool:
    """In a game with a bank: every seat still owing orders is past its own deadline (and the grace)."""
    if not game.clock:
        return False
    owing = set(missing)
    rows = [x for x in seats_of(s, game) if x.name in owing]
    grace = timedelta(hours=game.grace_hours)
    return bool(rows) and all(x.clock_due is not None and now >= aware(x.clock_due) + grace for x in rows)


def settle(s: Session, game: Game, phase: Phase, subs: Mapping[str, Submission], missing: Iterable[str],
           played: Iterable[str], now: datetime, forced: bool) -> tuple[dict[str, Any], list[str], list[str]]:
    """End the phase for every seat: banks, missed phases, civil disorder.

    Returns the journal's record of the clocks, the notices for every side and those for the GM.
    """
    spec, missing, played = spec_of(game), set(missing), set(played)
    record: dict[str, Any] = {}
    notices: list[str] = []
    days = max(0.0, (now - aware(game.updated_at)).total_seconds() / 86400)  # the phase began when the game moved
    for seat in seats_of(s, game):
        name = seat.name
        if game.vacation_earn and seat.fingerprint and not seat.bot:
            # earned with each day of play, whether or not the seat acted; never more than the game's cap
            seat.vacation_balance = min(game.vacation_hours, seat.vacation_balance + game.vacation_earn * days)
            s.add(seat)
        if name not in phase.awaiting or name in played:
            continue
        late = name in missing
        due = aware(seat.clock_due) or aware(game.deadline)
        if late and not (forced and due is not None and now < due):
            seat.missed += 1
        elif not late:
            seat.missed = 0
            if seat.bot == "disorder":
                seat.bot = ""
                notices.append(f"{name} is played by its player again")
        if spec is not None and seat.clock_start is not None and seat.bank is not None:
            start, before = aware(seat.clock_start), seat.bank
            end = min(now, aware(subs[name].created_at)) if name in subs else now
            ran = running(start, end, rest_of(seat))
            used = before + seat.clock_grant if late and not forced else max(0.0, ran - seat.clock_grant)
            seat.bank = spec.after(before, used)
            record[name] = {"bank_before": round(before), "ran": round(ran), "granted": round(seat.clock_grant),
                            "bank_after": round(seat.bank), "late": late}
        if game.abandon_after and seat.missed >= game.abandon_after and not seat.bot:
            seat.bot = "disorder"
            notices.append(f"{name} has sent no orders for {seat.missed} phases in a row: the seat is in civil "
                           "disorder, and the rules' scripted player gives its orders until its player "
                           "writes again or the GM seats a new one")
        s.add(seat)
    gm = [n for n in notices if "civil disorder" in n]
    return record, notices, gm


def bot_texts(ruleset: Ruleset, state: Any, game: Game, phase: Phase, seats: Iterable[str]) -> dict[str, str]:
    """The scripted player's orders for each seat, as complete order files (so that replay reads them as
    any stored orders); a seat whose bot writes orders its own rules refuse gets the rules' default."""
    texts = {}
    seed = bytes.fromhex(game.seed_hex)
    for seat in sorted(seats):
        view = ruleset.view(state, seat)
        body = ruleset.bot_orders(view, seat, bot_dice(seed, phase, seat))
        f, problems = parse_order_file(orders_text(game.id, seat, phase, body))
        checked = ruleset.check_orders(view, seat, f.lines) if f is not None else None
        if f is None or checked is None or checked.problems:
            log.warning("%s: the scripted player's orders for %s were refused; the default is used: %s",
                        game.id, seat, problems or (checked.problems if checked else ""))
            continue
        texts[seat] = f.text
    return texts


def clock_payload(s: Session, game: Game, now: datetime) -> dict[str, Any]:
    """What a journal entry records of the running clocks: each awaited seat's deadline and the time left
    on its clock now (seconds)."""
    if not game.clock:
        return {}
    deadlines, banks = {}, {}
    for seat in seats_of(s, game):
        if seat.clock_due is not None and seat.clock_start is not None:
            deadlines[seat.name] = iso(seat.clock_due)
            banks[seat.name] = round((seat.bank or 0.0) + seat.clock_grant
                                     - running(aware(seat.clock_start), now, rest_of(seat)))
    return {"deadlines": deadlines, "banks": banks}


def clock_line(seconds: float | None, lang: str = "en") -> str:
    """The line of a sitrep that says how much time the reader's clock has left, in his language."""
    from pbem.i18n import gettext

    if seconds is None:
        return ""
    _ = gettext(lang)
    return _("your clock: %(left)s left") % {"left": span(seconds, lang)}
