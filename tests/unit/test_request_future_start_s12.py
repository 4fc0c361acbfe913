"""An open range whose start is still to come ("starting in January 2027" said in December 2026) covers the
period it names; before, it ran "until today" and ended before it began, so the plan was unresolved."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2026, 12, 4)


def test_a_future_month_start_is_that_month() -> None:
    r = parse_request(
        "chess tournaments on chess-results.com starting in January 2027 with name and city", today=TODAY
    )
    assert r.is_resolved, r.unresolved
    assert (r.time_scope.start_date, r.time_scope.end_date) == (date(2027, 1, 1), date(2027, 1, 31))


def test_a_future_year_start_is_that_year() -> None:
    r = parse_request(
        "film releases on boxofficemojo.com starting in 2027 with title and studio", today=TODAY
    )
    assert r.is_resolved, r.unresolved
    assert r.time_scope.years == [2027]


def test_a_past_start_still_runs_until_today() -> None:
    r = parse_request("concerts on songkick.com starting in March 2025 with artist and venue", today=TODAY)
    assert (r.time_scope.start_date, r.time_scope.end_date) == (date(2025, 3, 1), TODAY)
    r = parse_request("papers on arxiv.org since 2020 with title", today=TODAY)
    assert r.time_scope.years == [2020, 2021, 2022, 2023, 2024, 2025, 2026]
