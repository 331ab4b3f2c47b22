"""What the GM reads at a glance: the games table, time left, times in the GM's own zone.

Pure functions of the rows :meth:`pbem.server.Server.overview` and ``players`` return, so the
command line stays a thin shell and the layout can be tested without a database.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Iterable, Mapping
from zoneinfo import ZoneInfo

#: The table's columns: heading, width.  Together with the gaps they fill 100 columns.
COLUMNS = (("GAME", 14), ("RULESET", 8), ("STATUS", 8), ("TURN", 4), ("PHASE", 14), ("OWING", 12),
           ("DEADLINE", 11), ("LEFT", 10), ("LAST", 11))


def time_left(deadline: datetime | None, now: datetime) -> str:
    """``in 2d 3h``, ``in 40m``, ``overdue 4h``: the two largest units, rounded down."""
    if deadline is None:
        return ""
    seconds = int((deadline - now).total_seconds())
    span = _span(abs(seconds))
    return f"in {span}" if seconds >= 0 else f"overdue {span}"


def _span(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m"


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
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(ZoneInfo(zone))


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def owing_text(row: Mapping[str, Any]) -> str:
    if not row["owing"]:
        return ""
    names = ",".join(row["owing"])
    return f"players:{names}" if row["waiting_for"] == "players" else names


def games_table(rows: Iterable[Mapping[str, Any]], zone: str, now: datetime) -> list[str]:
    """The ``pbem games`` lines: a header, one line per game, and an indented line for a held reason."""
    lines = [f"times in {zone}; now {long_time(now, zone)}",
             " ".join(f"{head:<{width}}" for head, width in COLUMNS).rstrip()]
    for row in rows:
        cells = (row["game"], row["ruleset"], row["status"], str(row["turn"]), row["phase_title"] or row["phase"],
                 owing_text(row), short_time(row["deadline"], zone),
                 time_left(row["deadline"], now) if row["status"] == "active" else "",
                 short_time(row["last_activity"], zone))
        lines.append(" ".join(f"{_cell(c, w):<{w}}" for c, (_, w) in zip(cells, COLUMNS)).rstrip())
        if row["held_reason"]:
            lines.append(_cell(f"    held: {row['held_reason']}", 100))
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
    if when is None:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).isoformat()
