"""Time banks and rest days as pure arithmetic: specs, the cap, rest days in a zone, daylight saving."""
from datetime import UTC, datetime, timedelta

import pytest

from pbem.clocks.bank import (MAX_REST_DAYS, ClockError, ClockSpec, Rest, parse_rest_days, running, runs_out,
                              span)

DAY = 86400.0
# Friday 23 October 2026, 14:00 in Warsaw (CEST); the clocks go back on Sunday the 25th at 03:00
FRIDAY = datetime(2026, 10, 23, 12, 0, tzinfo=UTC)
WEEKEND = Rest("Europe/Warsaw", (5, 6))


def test_a_spec_reads_start_increment_and_cap():
    spec = ClockSpec.parse("bank:3d+1d/5d")
    assert (spec.initial, spec.increment, spec.cap) == (3 * DAY, DAY, 5 * DAY)
    assert ClockSpec.parse(" BANK: 36h + 12h / 72h ").initial == 36 * 3600
    assert spec.text() == "3 d to start, 1 d added each phase, at most 5 d"


@pytest.mark.parametrize("text", ["3d+1d/5d", "bank:3d", "bank:6d+1d/5d", "bank:3d+6d/5d", "bank:0d+0d/5d",
                                  "bank:100d+1d/100d", "bank:10m+10m/1d", "bank:3x+1d/5d"])
def test_a_spec_that_cannot_work_is_refused(text):
    with pytest.raises(ClockError):
        ClockSpec.parse(text)


def test_a_fast_answer_banks_time_up_to_the_cap_and_a_miss_leaves_only_the_increment():
    spec = ClockSpec.parse("bank:3d+1d/5d")
    assert spec.after(3 * DAY, 3600) == 4 * DAY - 3600
    assert spec.after(4.5 * DAY, 600) == 5 * DAY  # never past the cap
    assert spec.after(3 * DAY, 3 * DAY) == DAY
    assert spec.after(3 * DAY, 10 * DAY) == DAY  # an overrun costs nothing more than the bank


def test_without_rest_days_the_clock_is_real_time_even_across_the_change_of_clocks():
    rest = Rest("Europe/Warsaw")
    due = runs_out(FRIDAY, 3 * DAY, rest)
    assert due == FRIDAY + timedelta(days=3)  # 72 real hours, though Sunday was 25 hours long in Warsaw
    assert running(FRIDAY, due, rest) == 3 * DAY


def test_rest_days_stop_the_clock_from_midnight_to_midnight_in_the_players_zone():
    due = runs_out(FRIDAY, 3 * DAY, WEEKEND)
    # Friday 14:00-24:00 CEST is 10 h; Saturday and Sunday (25 h, the clocks went back) rest;
    # Monday and Tuesday are 48 h; the last 14 h run out on Wednesday at 14:00 CET, 13:00 UTC
    assert due == datetime(2026, 10, 28, 13, 0, tzinfo=UTC)
    assert running(FRIDAY, due, WEEKEND) == 3 * DAY
    saturday_noon = datetime(2026, 10, 24, 10, 0, tzinfo=UTC)
    assert running(FRIDAY, saturday_noon, WEEKEND) == 10 * 3600


def test_rest_days_follow_the_players_zone_not_utc():
    tokyo = Rest("Asia/Tokyo", (5, 6))
    # Friday 23 Oct 15:00 UTC is already Saturday midnight in Tokyo: the clock stands still from then
    friday_evening = datetime(2026, 10, 23, 15, 0, tzinfo=UTC)
    assert running(friday_evening, friday_evening + timedelta(days=2), tokyo) == 0.0
    assert running(friday_evening, friday_evening + timedelta(days=2), WEEKEND) > 0.0


def test_rest_days_never_add_time():
    """A clock that rests runs out later, but the time that ran is the time the bank had: not a second more."""
    for start in (FRIDAY + timedelta(hours=h) for h in range(0, 24 * 7, 5)):
        for bank in (3600.0, DAY, 2.5 * DAY, 5 * DAY):
            due = runs_out(start, bank, WEEKEND)
            assert due >= start + timedelta(seconds=bank)
            assert running(start, due, WEEKEND) == pytest.approx(bank)
            # at most two rest days a week: a clock never stands still for more than 2 days in 7
            assert (due - start).total_seconds() <= bank + 2 * DAY * (bank // (5 * DAY) + 1) + 3600


def test_a_change_of_rest_days_applies_from_the_first_local_day_after_it():
    change = datetime(2026, 10, 24, 5, 0, tzinfo=UTC)  # Saturday morning in Warsaw
    rest = Rest("Europe/Warsaw", (), (5, 6), change)
    # Saturday had begun when the change came into force: it still runs; Sunday rests
    assert running(FRIDAY, FRIDAY + timedelta(days=3), rest) == 3 * DAY - 25 * 3600


def test_rest_day_lists():
    assert parse_rest_days(["sat", "sun"]) == (5, 6)
    assert parse_rest_days(["sun,sat"]) == (5, 6)
    assert parse_rest_days(["none"]) == ()
    with pytest.raises(ClockError, match="at most 2"):
        parse_rest_days(["fri", "sat", "sun"])
    with pytest.raises(ClockError, match="unknown day"):
        parse_rest_days(["caturday"])
    assert MAX_REST_DAYS == 2


def test_spans_as_a_sitrep_shows_them():
    assert span(2 * DAY + 5 * 3600 + 59) == "2 d 5 h"
    assert span(5.5 * 3600) == "5 h 30 min"
    assert span(-5) == "0 min"
