"""Schedules in named time zones, across daylight-saving changes."""
from datetime import datetime, timezone

import pytest

from pbem.schedule import Schedule, ScheduleError, deadline_for

UTC = timezone.utc


def test_fixed_window():
    now = datetime(2026, 3, 1, 10, tzinfo=UTC)
    assert deadline_for(now, hours=48) == datetime(2026, 3, 3, 10, tzinfo=UTC)


def test_next_weekday_slot_in_zone():
    # Sunday 1 March 2026 10:00 UTC; Warsaw is UTC+1 in winter; Monday 20:00 Warsaw = 19:00 UTC
    now = datetime(2026, 3, 1, 10, tzinfo=UTC)
    assert deadline_for(now, hours=0, schedule="mon,thu 20:00 Europe/Warsaw", min_hours=12) == \
        datetime(2026, 3, 2, 19, tzinfo=UTC)


def test_min_hours_skips_a_slot_too_close():
    now = datetime(2026, 3, 2, 12, tzinfo=UTC)  # Monday noon: 7 hours to the Monday slot, less than 12
    assert deadline_for(now, hours=0, schedule="mon,thu 20:00 Europe/Warsaw", min_hours=12) == \
        datetime(2026, 3, 5, 19, tzinfo=UTC)


def test_daylight_saving_keeps_local_clock_time():
    # Warsaw moves to UTC+2 on 29 March 2026: Thursday 2 April 20:00 local = 18:00 UTC
    now = datetime(2026, 3, 31, 0, tzinfo=UTC)
    assert deadline_for(now, hours=0, schedule="thu 20:00 Europe/Warsaw", min_hours=1) == \
        datetime(2026, 4, 2, 18, tzinfo=UTC)


@pytest.mark.parametrize("text, fragment", [
    ("every day", "should look like"), ("mon,fri 25:00 UTC", "not a clock time"),
    ("mon 20:00 Mars/Base", "unknown time zone"), ("mun 20:00 UTC", "unknown day 'mun'"),
])
def test_bad_schedules_are_named(text, fragment):
    with pytest.raises(ScheduleError, match=fragment):
        Schedule.parse(text)


def test_daily_and_several_times():
    s = Schedule.parse("daily 08:00,20:00 UTC")
    assert s.next_after(datetime(2026, 1, 1, 9, tzinfo=UTC)) == datetime(2026, 1, 1, 20, tzinfo=UTC)
