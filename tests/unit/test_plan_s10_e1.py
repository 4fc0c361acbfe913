"""S10 (E1): plan reading of field words, site names and filter values (each failed before its fix)."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2026, 12, 3)


def test_stock_number_field_does_not_make_a_stock_request() -> None:
    # a field word ("stock number") names an attribute of the records asked for, not the stock kind
    r = parse_request(
        "For each used vehicle in this inventory, open its detail page and collect the stock number, year, "
        "make, model, price, mileage, exterior color, transmission and VIN.",
        today=TODAY,
    )
    assert r.kind is None
    assert r.entity is not None and r.entity.singular == "used vehicle"
    assert [f.normalized for f in r.fields] == [
        "stock_number", "year", "make", "model", "price", "mileage", "exterior_color", "transmission", "vin",
    ]  # fmt: skip


def test_in_stock_is_an_attribute_too() -> None:
    r = parse_request(
        "every laptop on pixelmart.com with name, price and whether it is in stock", today=TODAY
    )
    assert r.kind is None


def test_stock_words_still_claim_stock_requests() -> None:
    for s in (
        "Collect the daily stock data of AAPL in 2024",
        "Give me a CSV of daily stock prices for the period 2024-02-20 to 2024-03-27.",
        "daily share prices of MSFT for March 2024",
    ):
        assert parse_request(s, today=TODAY).kind == "stock", s


def test_possessive_name_of_several_words_is_the_site() -> None:
    r = parse_request(
        "Please collect Cobalt Point's job postings: job title, organization, city, date.", today=TODAY
    )
    assert r.sources == ["Cobalt Point"]
    assert r.entity is not None and r.entity.singular == "job posting"
    assert [f.normalized for f in r.fields] == ["job_title", "organization", "city", "date"]
    r = parse_request("Please pull all of Summit Base's job postings.", today=TODAY)
    assert r.sources == ["Summit Base"] and r.entity is not None and r.entity.singular == "job posting"


def test_possessive_owner_that_is_no_site_stays() -> None:
    # one word, a surname's capital, or a name a record kind reads as its subject: no site
    r = parse_request("all of Shakespeare's plays with title and year", today=TODAY)
    assert r.sources == []
    r = parse_request("McDonald's restaurants in Ohio with address", today=TODAY)
    assert r.sources == []
    r = parse_request("I need LeBron James's NBA seasons with points and assists", today=TODAY)
    assert r.sources == [] and r.kind == "nba_player"
    assert any(f.field == "player" and f.value == ["LeBron James"] for f in r.filters)


def test_abbreviation_dots_end_no_field_list() -> None:
    r = parse_request(
        "I need every episode of Harbor Point from this list: title, season, original air date and "
        "U.S. viewers (millions).",
        today=TODAY,
    )
    assert [f.name for f in r.fields] == ["title", "season", "original_air_date", "u_s_viewers"]
    r = parse_request("every town in the U.K. with name, county and population", today=TODAY)
    assert [f.normalized for f in r.fields] == ["name", "county", "population"]


def test_only_value_shown_with_its_label() -> None:
    from prefect_autodata.agents.request import Filter

    r = parse_request(
        "I'd like all of the restaurants published on Data Lab, only the Cuisines: Steakhouse cuisine.",
        today=TODAY,
    )
    assert Filter(field="cuisine", op="eq", value="Cuisines: Steakhouse") in r.filters
