"""A time bank per seat, chess-style at correspondence pace, and the weekdays a seat's clock rests.

``bank:3d+1d/5d``: each seat starts with 3 days; each phase it acts in adds 1 day to what it had
left, never past 5 days.  A seat that answers in an hour keeps almost all of its bank (plus the day
added); a seat that lets its bank run out gets only the day added next time.

Rest days stop a seat's clock on the weekdays its player named, from midnight to midnight in the
player's own zone.  They only stop the clock: the bank never grows while it rests, at most
:data:`MAX_REST_DAYS` a week may rest, and a change takes effect :data:`REST_NOTICE` after it was
asked for (so a player late with orders cannot declare today a rest day).
Outside rest days the clock runs in real time: a day when the clocks change is 23 or 25 hours long.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pbem.schedule import DAYS, ScheduleError

_SPEC = re.compile(r"^\s*bank\s*:\s*(\d+(?:\.\d+)?[dhm])\s*\+\s*(\d+(?:\.\d+)?[dhm])\s*/\s*(\d+(?:\.\d+)?[dhm])\s*$",
                   re.I)
_UNIT = {"d": 86400, "h": 3600, "m": 60}

#: The most weekdays a seat may rest; with more, a week would hold little play.
MAX_REST_DAYS = 2
#: How long after it is asked for a change of rest days takes effect.
REST_NOTICE = timedelta(days=7)
#: The longest any bank may be (90 days): a clock is for a game that moves.
MAX_BANK = 90 * 86400
#: Walking a clock day by day never goes further than this (rest days are at most 2 of 7).
_MAX_DAYS = 4000


class ClockError(ScheduleError):
    """A clock spec or rest-day list that cannot be used; the message says why."""


def _seconds(text: str) -> float:
    return float(text[:-1]) * _UNIT[text[-1].lower()]


@dataclass(frozen=True)
class ClockSpec:
    """Seconds: what a seat starts with, what each phase adds, the most its bank may hold."""

    initial: float
    increment: float
    cap: float

    @classmethod
    def parse(cls, text: str) -> ClockSpec:
        """``bank:START+ADDED/CAP`` with each in ``d``, ``h`` or ``m``, e.g. ``bank:3d+1d/5d``."""
        m = _SPEC.match(text or "")
        if not m:
            raise ClockError(f"clock {text!r} should look like 'bank:3d+1d/5d' (start, added each phase, "
                             "most it holds; in d, h or m)")
        spec = cls(*(_seconds(g) for g in m.groups()))
        if not 0 < spec.initial <= spec.cap <= MAX_BANK or spec.increment < 0 or spec.increment > spec.cap:
            raise ClockError(f"clock {text!r}: the start must be more than 0 and at most the cap, the time "
                             f"added at most the cap, and the cap at most {MAX_BANK // 86400} days")
        if spec.initial + spec.increment < 3600:
            raise ClockError(f"clock {text!r}: a phase must leave at least an hour to write orders")
        return spec

    def text(self) -> str:
        return f"{span(self.initial)} to start, {span(self.increment)} added each phase, at most {span(self.cap)}"

    def after(self, bank: float, used: float) -> float:
        """The bank for the next phase, after a phase that used ``used`` seconds of it."""
        return min(self.cap, max(0.0, bank - used) + self.increment)


def span(seconds: float, lang: str = "en") -> str:
    """``2 d 5 h``, ``5 h 30 min``, ``40 min``: a length of time as a sitrep shows it (units in ``lang``)."""
    from pbem.i18n import gettext

    _ = gettext(lang)
    minutes = int(max(0.0, seconds) // 60)
    d, rest = divmod(minutes, 1440)
    h, m = divmod(rest, 60)
    parts = [_("%(num)d d") % {"num": d} if d else "", _("%(num)d h") % {"num": h} if h else "",
             _("%(num)d min") % {"num": m} if m and not d else ""]
    return " ".join(p for p in parts if p) or _("%(num)d min") % {"num": 0}


def parse_rest_days(words: list[str]) -> tuple[int, ...]:
    """``sat sun`` (or ``sat,sun``; ``none`` for no rest day) as weekday numbers, Monday 0."""
    names = [w for word in words for w in word.lower().split(",") if w]
    if names in ([], ["none"]):
        return ()
    bad = [n for n in names if n not in DAYS]
    if bad:
        raise ClockError(f"REST: unknown day {bad[0][:20]!r} (use {', '.join(DAYS)}, or none)")
    days = tuple(sorted({DAYS.index(n) for n in names}))
    if len(days) > MAX_REST_DAYS:
        raise ClockError(f"REST: at most {MAX_REST_DAYS} days a week may rest, not {len(days)}")
    return days


def days_text(days: tuple[int, ...]) -> str:
    return " ".join(DAYS[d] for d in days) or "none"


def days_of(text: str) -> tuple[int, ...]:
    """Stored rest days (``"5,6"``) as weekday numbers."""
    return tuple(int(x) for x in text.split(",") if x)


@dataclass(frozen=True)
class Rest:
    """A seat's rest days in its zone: ``days`` until ``change_at``, ``then`` from the first local day
    that starts at or after it."""

    zone: str = "UTC"
    days: tuple[int, ...] = ()
    then: tuple[int, ...] = ()
    change_at: datetime | None = None

    def resting(self, day: date, day_start: datetime) -> bool:
        current = self.then if self.change_at is not None and day_start >= self.change_at else self.days
        return day.weekday() in current

    def days_between(self, start: datetime):
        """Local days from the one holding ``start``: (day, its start, its end) in UTC, clipped to start."""
        zone = ZoneInfo(self.zone)
        day = start.astimezone(zone).date()
        for _ in range(_MAX_DAYS):
            begin = datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)
            end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)
            yield day, begin, max(begin, start), end
            day += timedelta(days=1)


def running(start: datetime, end: datetime, rest: Rest) -> float:
    """Seconds the seat's clock ran from ``start`` to ``end`` (rest days do not count)."""
    total = 0.0
    if end <= start:
        return total
    for day, begin, lo, hi in rest.days_between(start):
        if lo >= end:
            break
        if not rest.resting(day, begin):
            total += (min(hi, end) - lo).total_seconds()
    return total


def runs_out(start: datetime, seconds: float, rest: Rest) -> datetime:
    """When a clock started at ``start`` with ``seconds`` on it reaches zero."""
    left = max(0.0, seconds)
    for day, begin, lo, hi in rest.days_between(start):
        if rest.resting(day, begin):
            continue
        length = (hi - lo).total_seconds()
        if left <= length:
            return lo + timedelta(seconds=left)
        left -= length
    raise ClockError("a clock that never runs out: too many rest days")  # not reachable with MAX_REST_DAYS
