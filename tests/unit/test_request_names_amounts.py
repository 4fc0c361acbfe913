"""Session S6 (issue #12): one rule for a field's normalised name (the last word singular, the other
words as written), amounts with a currency or a unit are not years, counted containers on a site are
the records, field lists after a lead-in ("with details on", "such as"), and "before 1900" ends in 1899."""

from __future__ import annotations

from datetime import date

import pytest

from prefect_autodata.agents.offline.instruction import normalize_name, parse_request

TODAY = date(2025, 6, 1)


def parse(text: str):
    return parse_request(text, today=TODAY)


@pytest.mark.parametrize(
    "words,want",
    [
        ("phone numbers", "phone_number"),  # a list's plural falls on the last word
        ("names", "name"),
        ("number of beds", "number_of_bed"),
        ("votes received", "votes_received"),  # a plural inside a name is part of its meaning
        ("years of experience", "years_of_experience"),
        ("goals scored", "goals_scored"),
        ("hours per week", "hours_per_week"),
        ("opening hours", "opening_hours"),  # English keeps "hours" of a schedule as it is
        ("Owner's name", "owner_name"),
    ],
)
def test_a_field_name_is_normalised_on_its_last_word_only(words, want):
    assert normalize_name(words) == want


def test_the_column_keeps_the_users_words_and_filters_use_the_same_rule():
    r = parse("List the candidates in Ohio with party, office and votes received")
    assert [(f.name, f.normalized) for f in r.fields][-1] == ("votes_received", "votes_received")
    assert r.fields[-1].type == "integer"
    r = parse("I need every physician with more than 10 years of experience, with name and hospital")
    assert ("experience", "ge", 10) in [(f.field, f.op, f.value) for f in r.filters]


@pytest.mark.parametrize(
    "text,want",
    [
        (
            "Find every internship with a stipend of at least 2000 dollars, including company",
            ("stipend", "ge", 2000),
        ),
        ("Get every apartment with a deposit under $2000 with address", ("deposit", "le", 2000)),
        ("Find every stadium with a capacity of at least 2000, with name and city", ("capacity", "ge", 2000)),
        (
            "Show me laptops between 1000 and 2000 dollars with brand and price",
            ("price", "range", [1000, 2000]),
        ),
        ("Get every hard drive with a capacity of at least 2000 GB, with brand", ("capacity", "ge", 2000)),
        (
            "List all tenders with an estimated value over EUR 2 million, with title",
            ("estimated_value", "ge", 2_000_000),
        ),
    ],
)
def test_an_amount_with_money_or_a_unit_is_a_filter_not_a_year(text, want):
    r = parse(text)
    assert want in [(f.field, f.op, f.value) for f in r.filters]
    assert r.time_scope is None or not r.time_scope.years


def test_years_stay_years_beside_amounts():
    r = parse("Get every painting sold for more than 2000 dollars since 2010, with title and price")
    assert [(f.field, f.op, f.value) for f in r.filters] == [("price", "ge", 2000)]
    assert r.years == list(range(2010, 2026))
    assert parse("Movies released after 2000 with title").years[0] == 2001


def test_a_metre_is_not_a_million_unless_it_is_money():
    assert [(f.field, f.value) for f in parse("Skyscrapers taller than 300 m with name").filters] == [
        ("height", 300)
    ]
    assert [f.value for f in parse("Companies with revenue over $5m with name").filters] == [5_000_000]


def test_counted_containers_on_a_site_are_the_records():
    r = parse(
        "Get every dataset on https://data.example.gov with a size over 100 MB, including name and license"
    )
    assert r.entity.singular == "dataset" and r.sources == ["https://data.example.gov"]
    assert (
        parse("Get a list of datasets on https://data.example.gov with name and size").entity.singular
        == "dataset"
    )
    assert parse("Get a list of books on https://shop.example.com with title").entity.singular == "book"


@pytest.mark.parametrize(
    "text",
    [
        "Get every ferry route on https://ferries.example.com with details on departure port, duration and fare",
        "Gather the ferry routes, with attributes such as departure port, duration and fare",
        "Get every ferry route with information about departure port, duration and fare",
    ],
)
def test_a_field_list_after_a_lead_in(text):
    assert [f.normalized for f in parse(text).fields] == ["departure_port", "duration", "fare"]


def test_existential_questions_and_irregular_participles_end_the_entity():
    r = parse("What lighthouses are there in Norway? I want their name, height and year built")
    assert r.entity.singular == "lighthouse" and r.field_names == ["name", "height", "year_built"]
    r = parse("Find all bridges built before 1900 with name, river and length")
    assert r.entity.singular == "bridge"
    assert r.time_scope.end_year == 1899  # "before 1900" leaves 1900 out
    assert parse("Collect every bridge up to 1900 with name").time_scope.end_year == 1900


def test_a_bound_on_a_year_is_a_time_range_and_a_place_is_no_field():
    assert parse("Cars with a model year over 2015 with make and price").years == list(range(2016, 2026))
    assert parse("Cars with a model year of at least 2015 with make").years == list(range(2015, 2026))
    r = parse("Houses for rent in Leeds under 1950 a month with address")
    assert [(f.field, f.op) for f in r.filters] == [("location", "eq")] and r.time_scope is None


def test_the_bounds_of_a_range_are_of_one_kind():
    r = parse("Get every concert hall with a capacity between 1200 and 2000 seats, with name and city")
    assert [(f.field, f.op, f.value) for f in r.filters] == [("capacity", "range", [1200, 2000])]
    assert r.time_scope is None
    assert parse("Collect the railway lines opened from 1990 to 1995, with name").years == list(
        range(1990, 1996)
    )
    r = parse("Apartments in Madrid between 2000 and 3000 euros per month, with address and size")
    assert sorted((f.field, f.op, str(f.value)) for f in r.filters) == [
        ("location", "eq", "Madrid"),
        ("price", "range", "[2000, 3000]"),
    ]


@pytest.mark.parametrize(
    "text,entity",
    [
        ("Are there any coworking cafés in Porto? I need name, address and price per hour", "coworking café"),
        (
            "How many vegan restaurants are in Berlin? List each with name, address and rating",
            "vegan restaurant",
        ),
        ("Is there a list of castles in Wales? I need name and age", "castle"),
    ],
)
def test_yes_no_and_how_many_questions_name_the_records(text, entity):
    r = parse(text)
    assert r.entity.singular == entity
    assert [(f.field, f.op) for f in r.filters] == [("location", "eq")]


def test_a_count_of_records_and_a_verb_before_a_comparison_are_no_year_and_no_field():
    assert parse("List the top 2000 companies by revenue with name").time_scope is None
    r = parse("Which players scored over 2000 points in 2019? Give me name and team")
    assert [(f.field, f.op, f.value) for f in r.filters] == [("point", "ge", 2000)] and r.years == [2019]
    assert [(f.field, f.value) for f in parse("Apartments rented under 900 euros with address").filters] == [
        ("price", 900)
    ]


@pytest.mark.parametrize(
    "text,entity,fields",
    [
        (
            "Could you pull together every bakery in Lyon, covering name, address and rating?",
            "bakery",
            ["name", "address", "rating"],
        ),
        ("Provide a table of the oldest trees in England, with species, age and girth", "tree", None),
        (
            "Name every football stadium with a capacity of more than 50,000 seats, plus its city",
            "football stadium",
            None,
        ),
        (
            "Lakes deeper than 100 metres in Finland, name, area and maximum depth",
            "lake",
            ["name", "area", "maximum_depth"],
        ),
        (
            "Hostels in Prague with name, rating and distance to centre",
            "hostel",
            ["name", "rating", "distance_to_centre"],
        ),
        (
            "Retrieve all properties with more than 3 bedrooms and a price below 2000000 euros, with address and price",
            "property",
            ["address", "price"],
        ),
    ],
)
def test_imperatives_closing_lists_and_records_named_like_columns(text, entity, fields):
    r = parse(text)
    assert r.entity.singular.endswith(entity) and r.kind is None and not r.all_fields
    if fields:
        assert [f.normalized for f in r.fields] == fields


def test_heights_units_and_scaled_ranges():
    assert [(f.field, f.value) for f in parse("List the peaks higher than 2000 m, with name").filters] == [
        ("height", 2000)
    ]
    assert [f.field for f in parse("Hotels with a rating higher than 4, with name").filters] == ["rating"]
    r = parse("Harvest all ebooks cheaper than 5 dollars with title and file size in MB")
    assert [(f.field, f.op, f.value) for f in r.filters] == [("price", "le", 5)]
    r = parse("Crypto tokens with a market cap between 1 and 5 billion dollars, including symbol and price")
    assert [(f.field, f.value) for f in r.filters] == [("market_cap", [1_000_000_000, 5_000_000_000])]
    r = parse("All cameras priced between 500 and 1500 dollars including brand and model")
    assert [(f.field, f.value) for f in r.filters] == [("price", [500, 1500])]


@pytest.mark.parametrize(
    "text,want",
    [
        ("Hiking trails over 20 km with name", ("length", "ge", 20)),
        ("Laptops under 2 kg with model", ("weight", "le", 2)),
        ("Apartments over 2000 sq ft with address", ("area", "ge", 2000)),
        ("Trails between 5 and 10 km with name", ("length", "range", [5, 10])),
        ("Hotels with more than 200 rooms with name", ("room", "ge", 200)),
    ],
)
def test_a_unit_after_the_records_names_its_dimension(text, want):
    assert [(f.field, f.op, f.value) for f in parse(text).filters] == [want]


def test_a_wish_after_a_clause_break_lists_fields_but_not_the_records():
    r = parse("For each national park in Canada, I want the name, province, area and year established")
    assert r.field_names == ["name", "province", "area", "year_established"]
    assert [(f.field, f.op, f.value) for f in r.filters] == [("location", "eq", "Canada")]
    r = parse("In the 1993 season, we need the MLB team pitching seasons, giving club, L, IP and WHIP")
    assert r.kind == "mlb_pitching" and r.field_names == ["club", "L", "IP", "WHIP"]


@pytest.mark.parametrize(
    "text,entity,want",
    [
        (
            "A list of podcasts about history with more than 100 episodes: title, host",
            "podcast",
            ("episode", "ge", 100),
        ),
        (
            "Which e-readers weigh less than 200 grams? I need brand and weight",
            "e-reader",
            ("weight", "le", 200),
        ),
        (
            "Every earthquake stronger than magnitude 6 with date and depth",
            "earthquake",
            ("magnitude", "ge", 6),
        ),
        (
            "Every hotel in Lisbon rated 4 stars or more, showing name and address",
            "hotel",
            ("rating", "ge", 4),
        ),
    ],
)
def test_topics_present_tense_verbs_fields_after_than_and_bounds_after_a_unit(text, entity, want):
    r = parse(text)
    assert r.entity.singular == entity
    assert want in [(f.field, f.op, f.value) for f in r.filters]
