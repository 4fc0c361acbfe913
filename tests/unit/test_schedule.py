"""Schedule phrases: the timezone a phrase names is honoured, times are never read inside words, monthly
days work, and every schedule can say itself in words with its next runs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from prefect_autodata.deployments.schedule import parse_schedule, schedule_from_instruction
from prefect_autodata.errors import ConfigError


@pytest.mark.parametrize(
    ("text", "cron", "tz"),
    [
        ("every weekday at 4:30pm", "30 16 * * 1-5", "UTC"),
        ("every weekday at 4:30pm in New York", "30 16 * * 1-5", "America/New_York"),
        ("every weekday after market close", "30 17 * * 1-5", "America/New_York"),
        ("every weekday after market close in London", "30 17 * * 1-5", "Europe/London"),
        ("16:30 America/New_York", "30 16 * * *", "America/New_York"),  # "Am" of America is no "am"
        ("daily at 16:30 America/New_York", "30 16 * * *", "America/New_York"),
        ("daily at 9am ET", "0 9 * * *", "America/New_York"),
        ("on the first of every month at 02:00 UTC", "0 2 1 * *", "UTC"),
        ("on the 15th of every month at 6am", "0 6 15 * *", "UTC"),
        ("every weekday at 6pm London time", "0 18 * * 1-5", "Europe/London"),
        ("every day at noon in Tokyo", "0 12 * * *", "Asia/Tokyo"),
    ],
)
def test_phrases_and_their_timezones(text, cron, tz):
    s = parse_schedule(text)
    assert (s.kind, s.cron, s.timezone) == ("cron", cron, tz)


def test_timezone_option_wins_over_the_default():
    s = parse_schedule("every weekday at 4:30pm", timezone="America/New_York")
    assert (s.cron, s.timezone) == ("30 16 * * 1-5", "America/New_York")
    with pytest.raises(ConfigError, match="timezone"):
        parse_schedule("daily", timezone="Mars/Olympus")


def test_bad_day_of_month_is_one_clear_error():
    with pytest.raises(ConfigError, match="day 40"):
        parse_schedule("on the 40th of every month")


def test_in_words_and_next_three_runs():
    s = parse_schedule("every weekday after market close")
    assert s.in_words() == "At 05:30 PM, Monday through Friday (America/New_York)"
    # Friday 2026-12-04 23:00 UTC is 18:00 in New York, after that day's run
    runs = s.next_runs(3, after=datetime(2026, 12, 4, 23, 0, tzinfo=UTC))
    assert [r.strftime("%a %Y-%m-%d %H:%M %Z") for r in runs] == [
        "Mon 2026-12-07 17:30 EST",
        "Tue 2026-12-08 17:30 EST",
        "Wed 2026-12-09 17:30 EST",
    ]
    monthly = parse_schedule("on the first of every month at 02:00 UTC")
    assert monthly.in_words() == "At 02:00 AM, on day 1 of the month (UTC)"
    assert [r.day for r in monthly.next_runs(3, after=datetime(2026, 12, 1, 3, tzinfo=UTC))] == [1, 1, 1]
    assert parse_schedule("every 15 minutes").in_words() == "Every 15 minutes (UTC)"
    assert parse_schedule("hourly").in_words() == "Every hour (UTC)"


def test_cadence_inside_an_instruction():
    s = schedule_from_instruction(
        "Collect the daily stock data of all S&P 500 companies every weekday after market close"
    )
    assert s is not None and (s.cron, s.timezone) == ("30 17 * * 1-5", "America/New_York")
    s = schedule_from_instruction("Collect the index level on the first of every month at 02:00 UTC")
    assert s is not None and (s.cron, s.timezone) == ("0 2 1 * *", "UTC")
    assert schedule_from_instruction("Collect the daily stock information of AAPL in 2024.") is None
