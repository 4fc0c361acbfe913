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


# Every cadence phrasing the request set and the plan parser read (issue #12): ordinal days, every other
# week, twice a day, weekdays with a zone, after market close. (phrase, kind, value, timezone)
CADENCES = [
    ("15th of every month", "cron", "0 0 15 * *", "UTC"),
    ("on the fifteenth of each month at 6am", "cron", "0 6 15 * *", "UTC"),
    ("the 1st and 15th of each month at 02:00 UTC", "cron", "0 2 1,15 * *", "UTC"),
    ("on the twenty-first of every month", "cron", "0 0 21 * *", "UTC"),
    ("on the third of every month", "cron", "0 0 3 * *", "UTC"),
    ("on the last day of the month", "cron", "0 0 L * *", "UTC"),
    ("twice a month", "cron", "0 0 1,15 * *", "UTC"),
    ("every other week", "rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=0;BYMINUTE=0;BYSECOND=0", "UTC"),
    (
        "every two weeks on Friday at 9am",
        "rrule",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        "UTC",
    ),
    ("fortnightly", "rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=0;BYMINUTE=0;BYSECOND=0", "UTC"),
    ("biweekly", "rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=0;BYMINUTE=0;BYSECOND=0", "UTC"),
    ("every other day at 7:15", "rrule", "FREQ=DAILY;INTERVAL=2;BYHOUR=7;BYMINUTE=15;BYSECOND=0", "UTC"),
    (
        "the first Monday of every month",
        "rrule",
        "FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO;BYHOUR=0;BYMINUTE=0;BYSECOND=0",
        "UTC",
    ),
    ("twice a day", "cron", "0 0,12 * * *", "UTC"),
    ("twice daily", "cron", "0 0,12 * * *", "UTC"),
    ("twice a day at 6am and 6pm", "cron", "0 6,18 * * *", "UTC"),
    ("three times a day", "cron", "0 0,8,16 * * *", "UTC"),
    ("twice a week", "cron", "0 0 * * 1,4", "UTC"),
    ("on weekdays at 6pm ET", "cron", "0 18 * * 1-5", "America/New_York"),
    ("weekdays at 6pm ET", "cron", "0 18 * * 1-5", "America/New_York"),
    ("Monday through Friday at 8am", "cron", "0 8 * * 1-5", "UTC"),
    ("on weekends at noon", "cron", "0 12 * * 0,6", "UTC"),
    ("after market close", "cron", "30 17 * * 1-5", "America/New_York"),
    ("after the close", "cron", "30 17 * * 1-5", "America/New_York"),
    ("before market open", "cron", "0 9 * * 1-5", "America/New_York"),
    ("every morning", "cron", "0 6 * * *", "UTC"),
    ("nightly", "cron", "0 2 * * *", "UTC"),
    ("every two hours", "interval", 7200, "UTC"),
    ("every half hour", "interval", 1800, "UTC"),
    ("quarterly", "cron", "0 0 1 1,4,7,10 *", "UTC"),
]


@pytest.mark.parametrize(("text", "kind", "value", "tz"), CADENCES)
def test_every_cadence_phrase_maps_right(text, kind, value, tz):
    s = parse_schedule(text)
    assert (s.kind, getattr(s, kind), s.timezone) == (kind, value, tz)
    s.to_prefect()  # Prefect accepts it
    assert len(s.next_runs(3, after=datetime(2026, 12, 1, 3, tzinfo=UTC))) == 3


@pytest.mark.parametrize(("text", "kind", "value", "tz"), CADENCES)
def test_the_same_cadence_inside_an_instruction(text, kind, value, tz):
    # the deployment reads the cadence from the sentence (or the plan's phrase): the day, the interval and
    # the zone survive ("the 15th of every month" is not the 1st)
    s = schedule_from_instruction(f"Collect the books from books.example.com, {text}.")
    assert s is not None and (s.kind, getattr(s, kind), s.timezone) == (kind, value, tz)


def test_next_runs_of_ordinal_days_and_every_other_week():
    after = datetime(2026, 12, 1, 3, tzinfo=UTC)
    assert [r.day for r in parse_schedule("15th of every month").next_runs(3, after=after)] == [15, 15, 15]
    runs = parse_schedule("every other week on Friday at 9am").next_runs(3, after=after)
    assert {r.strftime("%a %H:%M") for r in runs} == {"Fri 09:00"}
    assert [(b - a).days for a, b in zip(runs, runs[1:], strict=False)] == [14, 14]
    twice = parse_schedule("twice a day").next_runs(4, after=after)
    assert [r.hour for r in twice] == [12, 0, 12, 0]


def test_scopes_and_data_adjectives_are_no_cadence():
    for text in (
        "Collect the daily stock data of AAPL for each trading day in 2024",
        "Get the title of every movie on https://films.example.com/top",
        "NBA team stats for every team in 2019 with wins",
        "the first page of books on books.example.com",
    ):
        assert schedule_from_instruction(text) is None, text


def test_a_day_that_does_not_exist_is_one_clear_error():
    with pytest.raises(ConfigError, match="day 32"):
        parse_schedule("the 32nd of every month")
    with pytest.raises(ConfigError, match="13pm"):
        parse_schedule("twice a day at 13pm")


@pytest.mark.parametrize(
    ("sentence", "cron", "tz"),
    [
        ("Collect books from books.example.com, 15th of every month", "0 0 15 * *", "UTC"),
        ("Collect books from books.example.com on the 1st and 15th of each month", "0 0 1,15 * *", "UTC"),
        ("Collect papers from papers.example.org twice a day", "0 0,12 * * *", "UTC"),
        (
            "Collect AAPL prices from quotes.example.com on weekdays at 6pm ET",
            "0 18 * * 1-5",
            "America/New_York",
        ),
        (
            "Collect AAPL prices from quotes.example.com after market close",
            "30 17 * * 1-5",
            "America/New_York",
        ),
    ],
)
def test_the_plan_phrase_schedules_what_the_sentence_says(sentence, cron, tz):
    # without --schedule the deployment parses the cadence phrase the plan kept (flows.collect.cadence_text)
    from prefect_autodata.agents.offline.instruction import parse_request

    cadence = parse_request(sentence).cadence
    assert cadence is not None and cadence.cron == cron, cadence
    s = schedule_from_instruction(cadence.phrase)
    assert s is not None and (s.cron, s.timezone) == (cron, tz)
