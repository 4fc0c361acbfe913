"""Parser causes found on unseen phrasings (session S10 P): each test's sentences are its own."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2025, 6, 1)


def _p(text: str):
    return parse_request(text, today=TODAY)


def _filters(r):
    return [(f.field, f.op, f.value) for f in r.filters]


def test_a_cadence_or_purpose_opening_comes_before_the_records():
    assert _p(
        "Every Tuesday I want to collect flights on the site with price and airline"
    ).entity.singular == ("flight")
    assert _p("Every 30 minutes, fetch the parking garages in Leeds with free spaces").entity.singular == (
        "parking garage"
    )
    assert (
        _p("Each morning, scrape all wind turbines with height and capacity").entity.singular
        == "wind turbine"
    )
    r = _p("To compare our salaries I want every job posting in Lyon with title and salary")
    assert r.entity.singular == "job posting"
    r = _p("We're organising a reunion, so we need restaurants in Porto with name and phone")
    assert r.entity.singular == "restaurant" and ("location", "eq", "Porto") in _filters(r)


def test_a_comparison_compares_the_requested_field_its_words_name():
    r = _p("campsites in Wales with at least 40 pitches, with name, address and number of pitches")
    assert ("number_of_pitch", "ge", 40) in _filters(r)
    r = _p("apps with more than 2000 reviews: name, developer, review count")
    assert ("review_count", "ge", 2000) in _filters(r)
    r = _p("parking garages with fewer than 10 spaces available - name, address, spaces available")
    assert ("spaces_available", "le", 10) in _filters(r)
    r = _p("gyms in Oslo with a day pass price under 20 euros: name, day pass price, opening hours")
    assert ("day_pass_price", "le", 20) in _filters(r)
    # a field of the filter's own name, or two fields its words name, leave it as written
    r = _p("hotels with a price under 200: name, price, price per child")
    assert ("price", "le", 200) in _filters(r)
    r = _p("libraries with more than 5000 books, with name, number of books and books available")
    assert ("book", "ge", 5000) in _filters(r)


def test_a_gerund_naming_the_last_field_is_no_list_verb():
    r = _p(
        "Get every car for sale on the site with a mileage under 50000, with make, model, price and listing date"
    )
    assert [f.normalized for f in r.fields] == ["make", "model", "price", "listing_date"]
    assert [f for f in r.filters if f.value is True] == []


def test_the_next_days_and_a_day_range_inside_one_month():
    ts = _p("festivals in Spain for the next 14 days with name and city").time_scope
    assert (ts.start_date, ts.end_date) == (date(2025, 6, 1), date(2025, 6, 15))
    ts = _p("every court ruling published between 3 and 17 March 2025 with case number").time_scope
    assert (ts.start_date, ts.end_date) == (date(2025, 3, 3), date(2025, 3, 17)) and ts.years == [2025]


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_parser_accuracy.py"
    spec = importlib.util.spec_from_file_location("bench_parser_accuracy_s10", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_scorer_reads_one_predicate_in_either_form():
    b = _bench()
    # a range is its two bounds
    assert b._filters_match(
        [("rent", "range", (900, 1400))], [("rent", "ge", 900), ("rent", "le", 1400)], set()
    )
    # a comparison's field named by the counted noun or by the requested field that counts it
    assert b._filters_match([("number_of_seat", "ge", 5)], [("seat", "ge", 5)], {"number_of_seat"})
    assert b._filters_match([("seats", "ge", 5)], [("seat", "ge", 5)], set())
    assert not b._filters_match([("number_of_seat", "ge", 5)], [("seat", "ge", 5)], set())
    assert not b._filters_match([("seat_price", "ge", 5)], [("seat", "ge", 5)], {"seat_price"})
    assert not b._filters_match([("rent", "ge", 900)], [("rent", "ge", 900), ("rent", "le", 1400)], set())


def test_named_values_with_a_number_a_slug_or_lower_case_words():
    # a noun and its number before the records; a name holding a number is no filter
    assert ("stage", "eq", 4) in _filters(_p("stage 4 cycling races from 2019 with winner and distance"))
    r = _p("Find every support group for type 1 diabetes in Leeds with name and phone")
    assert not [f for f in r.filters if f.field == "type"] and ("location", "eq", "Leeds") in _filters(r)
    # an attribute noun with a lower-case value or a slug
    r = _p("open issues with the label good-first-issue and over 20 comments: title, author, comments")
    assert ("label", "eq", "good-first-issue") in _filters(r) and ("comment", "ge", 20) in _filters(r)
    assert [f.normalized for f in r.fields] == ["title", "author", "comment"]
    r = _p("all permits with status pending in Denver, with permit number and address")
    assert ("status", "eq", "pending") in _filters(r)
    assert [f.normalized for f in r.fields] == ["permit_number", "address"]
    # capitalised words, then lower-case ones, before the field word; no place read from them
    r = _p("grants in the AI research category with an amount above 10000: title, amount")
    assert ("category", "eq", "AI research") in _filters(r)
    assert not [f for f in r.filters if f.field == "location"]


def test_a_common_noun_giving_a_name_and_a_duration_value():
    r = _p("Collect comments on the videos of the channel Veritasium with author and likes")
    assert ("channel", "eq", "Veritasium") in _filters(r)
    r = _p("I want ratings of the podcast Serial with stars and date")
    assert r.entity.singular == "rating" and ("podcast", "eq", "Serial") in _filters(r)
    r = _p("half marathon runners with a finish time under 1:45:00: name, finish time")
    assert ("finish_time", "le", "1:45:00") in _filters(r)
