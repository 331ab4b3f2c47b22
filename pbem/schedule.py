"""Game schedules: when a phase's orders are due.

Either a fixed window (``hours``), or fixed weekdays and clock times in a
named time zone: ``"mon,thu 20:00 Europe/Warsaw"`` means orders are due at
the next Monday or Thursday 20:00 Warsaw time that leaves at least
``min_hours`` to write them.  Daylight-saving changes are the zone's
business: 20:00 stays 20:00 local time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_RE = re.compile(r"^\s*([a-z,]+)\s+((?:\d{1,2}:\d{2},?)+)\s+(\S+)\s*$", re.I)


class ScheduleError(ValueError):
    pass


@dataclass(frozen=True)
class Schedule:
    days: tuple[int, ...]  # 0 = Monday
    times: tuple[time, ...]
    zone: str

    @classmethod
    def parse(cls, text: str) -> "Schedule":
        """Parse ``"DAYS HH:MM[,HH:MM] ZONE"``; days are ``mon,...,sun``, ``daily`` or ``weekdays``.

        :raises ScheduleError: naming the part that is wrong.
        """
        m = _RE.match(text)
        if not m:
            raise ScheduleError(f"schedule {text!r} should look like 'mon,thu 20:00 Europe/Warsaw'")
        days_text, times_text, zone = m.groups()
        names = {"daily": DAYS, "weekdays": DAYS[:5]}.get(days_text.lower(), days_text.lower().split(","))
        bad = [d for d in names if d not in DAYS]
        if bad:
            raise ScheduleError(f"unknown day {bad[0]!r} (use {', '.join(DAYS)}, daily or weekdays)")
        check_zone(zone)
        times = []
        for t in filter(None, times_text.split(",")):
            hh, mm = map(int, t.split(":"))
            if hh > 23 or mm > 59:
                raise ScheduleError(f"{t!r} is not a clock time")
            times.append(time(hh, mm))
        return cls(tuple(sorted(DAYS.index(d) for d in set(names))), tuple(sorted(times)), zone)

    def next_after(self, when: datetime) -> datetime:
        """The first slot strictly after ``when`` (a UTC-aware datetime), in UTC."""
        zone = ZoneInfo(self.zone)
        local = when.astimezone(zone)
        for offset in range(8):
            day = (local + timedelta(days=offset)).date()
            if day.weekday() not in self.days:
                continue
            for t in self.times:
                slot = datetime.combine(day, t, tzinfo=zone)
                if slot > local:
                    return slot.astimezone(timezone.utc)
        raise AssertionError("a weekly schedule always has a slot within 8 days")


def check_zone(name: str) -> ZoneInfo:
    """The zone of an IANA name (``Europe/Warsaw``, ``UTC``); :class:`ScheduleError` naming it otherwise."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"unknown time zone {name!r} (use a name like Europe/Warsaw or UTC)") from None


def deadline_for(now: datetime, *, hours: float, schedule: str = "", min_hours: float = 12.0) -> datetime:
    """When orders for a phase starting ``now`` are due."""
    if not schedule:
        return now + timedelta(hours=hours)
    return Schedule.parse(schedule).next_after(now + timedelta(hours=min_hours))
