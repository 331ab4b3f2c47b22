"""What the GM reads at a glance: the games table, time left, times in the GM's own zone.

Pure functions of the rows :meth:`pbem.services.queries.Queries.overview` and ``players`` return, so the
command line stays a thin shell and the layout can be tested without a database.
"""
from __future__ import annotations

from datetime import datetime, UTC
from typing import Any
from collections.abc import Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo

#: The table's columns: heading, width.  Together with the gaps they fill 100 columns.
COLUMNS = (("GAME", 18), ("RULESET", 8), ("STATUS", 8), ("TURN", 4), ("PHASE", 12), ("OWING", 11),
           ("DEADLINE", 11), ("LEFT", 11), ("LAST", 8))


def time_left(deadline: datetime | None, now: datetime, units: int = 2) -> str:
    """``in 2d 3h``, ``in 40m``, ``overdue 4h``: the ``units`` largest units, rounded down."""
    if deadline is None:
        return ""
    seconds = int((deadline - now).total_seconds())
    span = _span(abs(seconds), units)
    return f"in {span}" if seconds >= 0 else f"overdue {span}"


def ago(when: datetime | None, now: datetime) -> str:
    """``5h ago``: how long since something happened, in its largest unit."""
    if when is None:
        return ""
    seconds = int((now - _aware(when)).total_seconds())
    return "now" if seconds < 60 else f"{_span(seconds, 1)} ago"


def _span(seconds: int, units: int = 2) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (rest // 60, "m")) if n]
    return " ".join(parts[:units]) or "0m"


def short_time(when: datetime | None, zone: str) -> str:
    """``11-25 14:00`` in ``zone``: the table's width has no room for more."""
    if when is None:
        return ""
    return _in_zone(when, zone).strftime("%m-%d %H:%M")


def long_time(when: datetime | None, zone: str) -> str:
    """``2026-11-25 14:00 Europe/Warsaw``."""
    if when is None:
        return ""
    return f"{_in_zone(when, zone).strftime('%Y-%m-%d %H:%M')} {zone}"


def _in_zone(when: datetime, zone: str) -> datetime:
    return _aware(when).astimezone(ZoneInfo(zone))


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def phase_text(row: Mapping[str, Any]) -> str:
    # the phase's key is what order files name; a game that is over has none left
    return "game over" if row["status"] in ("over", "archived") else row["phase"]


def games_table(rows: Sequence[Mapping[str, Any]], zone: str, now: datetime) -> list[str]:
    """The ``pbem games`` lines: a header, one line per game, and an indented line for a held reason.

    A game id is never cut short (the GM types it in the next command): one too long for its
    column gets a line of its own.
    """
    lines = [f"times in {zone}; now {long_time(now, zone)}",
             " ".join(f"{head:<{width}}" for head, width in COLUMNS).rstrip()]
    left_width = COLUMNS[7][1]
    for row in rows:
        left = time_left(row["deadline"], now) if row["status"] == "active" else ""
        if len(left) > left_width:
            left = time_left(row["deadline"], now, units=1)
        game = row["game"]
        if len(game) > COLUMNS[0][1]:
            lines.append(game)
            game = ""
        owing = ",".join(row["owing"])
        if len(owing) > COLUMNS[5][1]:  # a side's name is never cut short either: counted here, named below
            owing = f"{len(row['owing'])} sides"
        cells = (game, row["ruleset"], row["status"], str(row["turn"]), phase_text(row), owing,
                 short_time(row["deadline"], zone), left, ago(row["last_activity"], now))
        lines.append(" ".join(f"{_cell(c, w):<{w}}" for c, (_, w) in zip(cells, COLUMNS, strict=True)).rstrip())
        if owing != ",".join(row["owing"]):
            lines.append(f"    owing: {', '.join(row['owing'])}")
        if row["held_reason"]:
            lines.append(_cell(f"    held: {row['held_reason']}", 100))
    if any(row["waiting_for"] == "players" for row in rows):
        lines.append("(an open game owes players: OWING lists its sides that have none yet)")
    return lines


def games_json(rows: Iterable[Mapping[str, Any]], now: datetime) -> list[dict[str, Any]]:
    """The rows with ISO times, and the time left, for tools."""
    return [{**row, "deadline": _iso(row["deadline"]), "last_activity": _iso(row["last_activity"]),
             "left": time_left(row["deadline"], now) if row["status"] == "active" else ""} for row in rows]


def players_table(players: Iterable[Mapping[str, Any]]) -> list[str]:
    lines = []
    for p in players:
        lines.append(f"{', '.join(p['emails'])}  key {p['fingerprint']}  zone {', '.join(p['zones'])}")
        for seat in p["seats"]:
            lines.append(f"    {seat['game']}/{seat['side']} ({seat['status']})")
    return lines


def _iso(when: datetime | None) -> str | None:
    return _aware(when).isoformat() if when is not None else None
