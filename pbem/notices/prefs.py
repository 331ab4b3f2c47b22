"""A seat's player's notice preferences, read from the club's player record (``Player.prefs_json``).

Values were typed by players: a value this module cannot read counts as unset, never as an error.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import Session

from pbem.store.models import Player

MODES = ("phase", "digest")
FORMATS = ("discord", "slack", "matrix", "json")


@dataclass(frozen=True)
class NoticePrefs:
    """What one player asked for."""

    mode: str = "phase"
    digest_hour: int | None = None  # local hour; None: the club's [notices] digest_hour
    alarm: float | None = None  # percent of the time left; None: no alarm
    webhook: str = ""
    webhook_format: str = "json"

    @property
    def digest(self) -> bool:
        return self.mode == "digest"


def parse(prefs: dict[str, str]) -> NoticePrefs:
    """The notice preferences among a player's preferences."""
    mode = prefs.get("notices", "phase").strip().lower()
    hour = prefs.get("digest_hour", "").strip()
    alarm = prefs.get("alarm", "").strip().rstrip("%")
    url, _, fmt = prefs.get("webhook", "").strip().partition(" ")
    fmt = fmt.strip().lower() or "json"
    return NoticePrefs(
        mode=mode if mode in MODES else "phase",
        digest_hour=int(hour) if hour.isdigit() and 0 <= int(hour) <= 23 else None,
        alarm=float(alarm) if _number(alarm) and 0 < float(alarm) < 100 else None,
        webhook=url if url.startswith(("http://", "https://")) and len(url) <= 200 else "",
        webhook_format=fmt if fmt in FORMATS else "json")


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def of_player(player: Player | None) -> NoticePrefs:
    return parse(json.loads(player.prefs_json or "{}")) if player is not None else NoticePrefs()


def of_fingerprint(s: Session, fingerprint: str) -> NoticePrefs:
    """The preferences of the player holding the key (the defaults for a key the club has no record of)."""
    return of_player(s.get(Player, fingerprint)) if fingerprint else NoticePrefs()


def check(key: str, value: str) -> str:
    """Why a notice preference's value cannot be read ("" if it can, or if ``key`` is not a notice's)."""
    if not value or key not in ("notices", "digest_hour", "alarm", "webhook"):
        return ""
    p = parse({key: value})
    ok = {"notices": p.mode == value.strip().lower(), "digest_hour": p.digest_hour is not None,
          "alarm": p.alarm is not None,
          "webhook": bool(p.webhook) and (len(value.split()) == 1 or p.webhook_format == value.split()[-1].lower())}
    hint = {"notices": "phase or digest", "digest_hour": "a local hour, 0 to 23",
            "alarm": "the percentage of your time left, e.g. 25",
            "webhook": "an http(s) URL, then discord, slack, matrix or json"}
    return "" if ok[key] else f"preference {key}: {hint[key]}, not {value[:60]!r}"
