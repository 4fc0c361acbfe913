"""S12 P2: parser cuts found on the wild sets (issue #12)."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2026, 3, 15)


def _names(text: str) -> list[str]:
    return [f.normalized for f in parse_request(text, today=TODAY).fields]


def test_two_modifiers_joined_by_and_share_the_head_noun_after_them():
    names = _names(
        "For each departure give the flight number, airline, destination, scheduled and estimated time, "
        "gate and status."
    )
    assert "scheduled_time" in names and "estimated_time" in names and "scheduled" not in names
    assert _names("Collect every book with title and author names, price and isbn.")[0] == "title"


def test_a_time_phrase_opening_a_listed_field_name_is_that_field_not_the_time_scope():
    r = parse_request(
        "Top ten at the box office this weekend: movie title, this week rank, last week rank (NEW if just "
        "opened), Tomatometer, weeks released, weekend gross and total gross.",
        today=TODAY,
    )
    names = [f.normalized for f in r.fields]
    assert "last_week_rank" in names and "this_week_rank" in names
    assert r.time_scope is None or "week" not in (r.time_scope.phrase or "")
    # a time phrase of its own still scopes the records
    r = parse_request(
        "Collect every job posted in the last week with title, company and salary.", today=TODAY
    )
    assert r.time_scope is not None and r.time_scope.phrase == "last week"


def test_a_gerund_word_inside_a_field_list_is_a_word_of_its_field_not_a_list_verb():
    names = _names(
        "Pull the apartment ads from this craigslist page: posted date, listing title, monthly rent, "
        "bedrooms and the neighborhood."
    )
    assert names[:3] == ["posted_date", "listing_title", "monthly_rent"]
    # a list verb after the records still opens the list
    assert _names("Get all cars on this page, listing price, mileage and colour.") == [
        "price",
        "mileage",
        "colour",
    ]
