"""Time as the store keeps it: every time pbem stores is UTC."""
from __future__ import annotations

from datetime import datetime, UTC
from typing import overload


def utcnow() -> datetime:
    """The real clock; services take a clock so that tests can set it."""
    return datetime.now(UTC)


@overload
def aware(when: datetime) -> datetime: ...
@overload
def aware(when: None) -> None: ...
def aware(when: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; every time pbem stores is UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


def iso(when: datetime | None) -> str | None:
    """A stored time as ISO 8601 with its zone, or None."""
    return aware(when).isoformat() if when is not None else None
