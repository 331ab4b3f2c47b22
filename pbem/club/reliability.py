"""Reliability from the record: phases missed (excused or not), lateness, games abandoned and completed.

Everything counted is evidence the server holds: each resolution's journal entry names the sides whose
orders were used and those that sent none by the deadline (``missing``), the entries before it carry the
deadline in force and any vacation or GM command, and each order's stored submission (linked to the raw
mail it came in) carries the time it arrived.  The journals are read with their hash chains checked.

Per player (their current key, across key changes):

* ``phases``: phases in which they owed orders (or sent optional ones);
* ``missed``: phases resolved without their orders; ``excused`` of those when, in that phase, they had
  announced a VACATION, or the GM resolved the phase early (RESOLVE) or paused the game;
* ``late``: orders that arrived after the deadline in force (within the game's grace time), and
  ``hours_late`` in all;
* ``abandoned``: games whose seat the GM gave to another player while theirs (REPLACE with a new key;
  entries written before the journal recorded the outgoing key cannot say whose it was and count nothing);
* ``completed``: games that ended by their rules with them in a seat;
* ``completed_since``: of those, the games that ended after their first abandonment (all of them when
  they never abandoned one);
* ``owed``: the sanction for abandonment: while a player has abandoned more games than they completed
  since, they may not join a ladder nor be drawn into a tournament; ``owed`` is how many more games they must
  complete (``abandoned - completed_since``, 0 when none);
* ``score``: the share of owed phases not missed without excuse, in percent (100 with no phases yet).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem.club.players import identities, sync
from pbem.club.results import entries
from pbem.services.deps import Deps
from pbem.store.models import Game, Journal, Seat, Submission
from pbem.store.times import aware

#: GM commands in a phase that excuse a missed phase: the player was not given the whole window.
EXCUSING = ("RESOLVE", "PAUSE")
WINDOW_OPENS = ("setup", "start", "resolve", "rollback")


def blank() -> dict[str, Any]:
    return {"phases": 0, "missed": 0, "excused": 0, "late": 0, "hours_late": 0.0, "abandoned": 0, "completed": 0,
            "completed_since": 0, "owed": 0, "games": 0}


def sanction(rec: Mapping[str, Any], who: str = "you") -> str:
    """Why a player under the abandonment sanction may not join a ladder or tournament ("" when they may)."""
    if not rec.get("owed"):
        return ""
    has = "have" if who == "you" else "has"
    return (f"{who} abandoned {rec['abandoned']} game(s) and {has} completed {rec['completed_since']} since: "
            f"{rec['owed']} more game(s) to complete before joining a ladder or tournament")


def reliability(deps: Deps) -> dict[str, dict[str, Any]]:
    """Every player's record, keyed by their current fingerprint."""
    out: dict[str, dict[str, Any]] = {}
    with deps.session() as s:
        sync(s, deps.clock())
        s.commit()
        ids = identities(s)
        for game in s.exec(select(Game).order_by(col(Game.id))).all():
            _game(s, game, ids, out)
    for rec in out.values():
        left, ended = rec.pop("_left", []), rec.pop("_ended", [])
        rec["completed_since"] = sum(1 for t in ended if t > min(left)) if left else rec["completed"]
        rec["owed"] = max(0, rec["abandoned"] - rec["completed_since"])
        rec["hours_late"] = round(rec["hours_late"], 1)
        unexcused = rec["missed"] - rec["excused"]
        rec["score"] = round(100.0 * (rec["phases"] - unexcused) / rec["phases"], 1) if rec["phases"] else 100.0
    return out


def _holders(rows: list[Journal], seats: Iterable[Seat]) -> dict[int, dict[str, str]]:
    """Who held each seat when each entry was written: today's keys, walked back over the GM's replacements."""
    holder = {x.name: x.fingerprint for x in seats}
    at: dict[int, dict[str, str]] = {}
    for row in reversed(rows):
        at[row.seq] = dict(holder)
        payload = json.loads(row.payload_json)
        if str(payload.get("command", "")).startswith("REPLACE") and payload.get("from_fingerprint"):
            holder[payload["seat"]] = payload["from_fingerprint"]
        elif payload.get("command") == "NEWKEY":
            for name in payload.get("seats", []):
                holder[name] = payload["from_fingerprint"]
    return at


def _game(s: Session, game: Game, ids: Mapping[str, str], out: dict[str, dict[str, Any]]) -> None:
    rows = entries(s, game.id)
    if not rows:
        return
    seats = s.exec(select(Seat).where(Seat.game_id == game.id)).all()
    holders = _holders(rows, seats)
    subs: dict[tuple[str, int, str], list[Submission]] = {}
    for sub in s.exec(select(Submission).where(Submission.game_id == game.id, Submission.phase != "command")
                      .order_by(col(Submission.created_at), col(Submission.id))).all():
        subs.setdefault((sub.seat, sub.turn, sub.phase), []).append(sub)

    def rec(seq: int, seat: str) -> dict[str, Any] | None:
        fp = holders[seq].get(seat, "")
        return out.setdefault(ids.get(fp, fp), blank()) if fp else None

    played: set[str] = set()
    deadline: str | None = None
    excused_seats: set[str] = set()
    excused_all = False
    for row in rows:
        payload = json.loads(row.payload_json)
        command = str(payload.get("command", ""))
        if row.kind == "resolve":
            _phase(row, payload, deadline, excused_seats, excused_all, subs, rec, played, ids, holders)
        elif command.startswith("VACATION"):
            excused_seats.add(str(payload.get("by", "")))
        elif command.split(" ")[0] in EXCUSING:
            excused_all = True
        elif command.startswith("REPLACE") and payload.get("from_fingerprint"):
            gone = payload["from_fingerprint"]  # the GM gave the seat to another key: its player left the game
            quitter = out.setdefault(ids.get(gone, gone), blank())
            quitter["abandoned"] += 1
            quitter.setdefault("_left", []).append(aware(row.created_at))
            played.add(ids.get(gone, gone))
        if row.kind in WINDOW_OPENS:
            excused_seats, excused_all = set(), False
        if "deadline" in payload:
            deadline = payload["deadline"]
    last = rows[-1].seq
    for x in seats:
        if x.fingerprint:
            played.add(ids.get(x.fingerprint, x.fingerprint))
    for fp in played:
        out.setdefault(fp, blank())["games"] += 1
    if game.status in ("over", "archived") and not any(r.kind == "end" for r in rows):
        end = next((r for r in reversed(rows) if r.kind == "resolve"), rows[-1])  # not a later VOID or archive
        for name in {x.name for x in seats}:
            r = rec(last, name)
            if r is not None:
                r["completed"] += 1
                r.setdefault("_ended", []).append(aware(end.created_at))


def _phase(row: Journal, payload: Mapping[str, Any], deadline: str | None, excused_seats: set[str],
           excused_all: bool, subs: Mapping[tuple[str, int, str], list[Submission]], rec: Any, played: set[str],
           ids: Mapping[str, str], holders: Mapping[int, Mapping[str, str]]) -> None:
    """One resolved phase: who owed orders, who missed (excused or not), who was late."""
    due = datetime.fromisoformat(deadline) if deadline else None
    for seat in sorted(set(payload.get("orders", {})) | set(payload.get("missing", []))):
        r = rec(row.seq, seat)
        if r is None:
            continue
        fp = holders[row.seq].get(seat, "")
        played.add(ids.get(fp, fp))
        r["phases"] += 1
        if seat in payload.get("missing", []):
            r["missed"] += 1
            if excused_all or seat in excused_seats:
                r["excused"] += 1
            continue
        if due is None:
            continue
        sent = [x for x in subs.get((seat, row.turn, row.phase), []) if aware(x.created_at) <= aware(row.created_at)]
        if sent and aware(sent[-1].created_at) > due:
            r["late"] += 1
            r["hours_late"] += (aware(sent[-1].created_at) - due).total_seconds() / 3600.0
