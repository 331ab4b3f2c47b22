"""The hash-chained journal and the per-seat sitrep context built from it.

Both resolution and ``pbem replay`` build sitreps through these functions
from the same journal data, which is what makes a byte-for-byte replay
check meaningful.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence
from zoneinfo import ZoneInfo

from pbem.core.dice import Roll
from pbem.core.play import canonical_json
from pbem.core.ruleset import Event
from pbem.core.texts import msg_of, render

GENESIS = "0" * 64


#: A game seed's length in bytes: at least 128 bits, so no one can search for it; at most what the game row holds.
SEED_BYTES = (16, 64)
SALT_BYTES = 32


def seed_commitment(seed: bytes, salt: bytes) -> str:
    """What every sitrep shows before the seed is revealed: SHA-256 over the salt, then the seed.

    The random salt (revealed with the seed when the game ends) keeps a seed that someone could guess
    from being confirmed against the commitment.  Games created before salts have an empty one.
    """
    return hashlib.sha256(salt + seed).hexdigest()


def state_hash(dumped: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dumped).encode()).hexdigest()


def entry_hash(prev_hash: str, seq: int, kind: str, turn: int, phase: str, payload: Any, events: Any,
               rolls: Any, st_hash: str) -> str:
    body = canonical_json({"seq": seq, "kind": kind, "turn": turn, "phase": phase, "payload": payload,
                           "events": events, "rolls": rolls, "state": st_hash})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The events as the journal keeps them; a marked text (pbem.core.texts) keeps its message as ``msg`` too."""
    return [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to), "data": dict(e.data),
             **({"msg": msg} if (msg := msg_of(e.text)) is not None else {})}
            for e in events]


def rolls_json(rolls: Sequence[Roll]) -> list[dict[str, Any]]:
    return [{"sides": r.sides, "value": r.value, "why": r.why, "seen_by": sorted(r.seen_by),
             **({"msg": msg} if (msg := msg_of(r.why)) is not None else {})} for r in rolls]


def local_time(when: datetime | None, tz: str) -> str:
    """A deadline as its reader would write it: their own zone, and UTC beside it."""
    if when is None:
        return ""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    try:
        zone = ZoneInfo(tz)
    except Exception:  # an unknown zone name in the seat record: show UTC rather than fail a sitrep
        zone = ZoneInfo("UTC")
    local = when.astimezone(zone)
    utc = when.astimezone(timezone.utc)
    if tz in ("UTC", ""):
        return utc.strftime("%a %d %b %Y %H:%M UTC")
    return f"{local.strftime('%a %d %b %Y %H:%M')} {tz} ({utc.strftime('%H:%M UTC')})"


def sitrep_context(*, game: Mapping[str, Any], seat: Mapping[str, Any], view: Mapping[str, Any],
                   entries: Sequence[Mapping[str, Any]], form: str | None, picture: bool,
                   write: Callable[[Any], str] = render) -> dict[str, Any]:
    """Everything a sitrep template may use, for one seat, from journal data only; an event or roll with a
    message (``msg``) is written by ``write`` (pbem.i18n's, in the reader's language; English by default),
    the others as they were said."""
    name = seat["name"]
    events = [e for entry in entries for e in entry["events"] if name in e["visible_to"]]
    rolls = [r for entry in entries for r in entry["rolls"] if name in r["seen_by"]]
    return {
        "game": dict(game),
        "seat": dict(seat),
        "view": view,
        "events": [{"text": write(e["msg"]) if "msg" in e else e["text"], "kind": e["kind"],
                    "data": e["data"]} for e in events],
        "rolls": [{"sides": r["sides"], "value": r["value"],
                   "why": write(r["msg"]) if "msg" in r else r["why"]} for r in rolls],
        "form": form,
        "picture_cid": "map@pbem" if picture else None,
    }


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def zone_at(seat: str, current: str, later: list[dict[str, Any]]) -> str:
    """The zone a seat's sitrep was written in, given its zone now and the journal payloads after it."""
    for payload in later:
        if payload.get("seat") == seat and "tz_from" in payload:
            return payload["tz_from"]
    return current


def author(kind: str, payload: dict[str, Any]) -> str:
    """Who made a journal entry.

    GM commands (and a player's vacation) have stored ``by`` since they were first written; set-up,
    start and resolutions are the server's own.  Anything else is unknown: "?".
    """
    by = payload.get("by")
    if by:
        return f"side {by}" if str(payload.get("command", "")).startswith("VACATION") else by
    return "the server" if kind in ("setup", "start", "resolve") else "?"
