"""The generic Request: entity, fields, filters, time scope, coverage, cadence and sources read from
one sentence for any kind of record; --fields/--schema win; unresolved only when nothing can be
collected, as a question; bad input refused in one line."""

from __future__ import annotations

from datetime import date

import pytest

from prefect_autodata.agents.fields import schema_from_file
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.agents.request import MAX_INSTRUCTION_CHARS, check_instruction
from prefect_autodata.errors import ConfigError

TODAY = date(2025, 6, 1)


def plan(text: str, **kw):
    return make_plan(text, today=TODAY, **kw)


def test_the_bookshop_sentence_is_a_request_not_a_refusal():
    r = plan("Collect every book listed on http://127.0.0.1:8000/shop with title, author and price")
    assert r.is_resolved and r.kind is None
    assert r.entity.singular == "book" and r.entity.plural == "books"
    assert [(f.name, f.normalized, f.type, f.origin) for f in r.fields] == [
        ("title", "title", "string", "sentence"),
        ("author", "author", "string", "sentence"),
        ("price", "price", "decimal", "sentence"),
    ]
    assert r.sources == ["http://127.0.0.1:8000/shop"]


def test_a_table_of_countries_on_a_url_has_an_entity_and_a_source():
    r = plan("the table of countries on https://en.example.org/wiki/List_of_countries")
    assert r.is_resolved and r.entity.singular == "country" and r.sources
    assert "cannot tell" not in " ".join(r.unresolved)
    r = plan("Scrape the countries table from data.example.gov, all columns")
    assert r.entity.singular == "country" and r.all_fields and r.sources == ["data.example.gov"]


def test_teams_without_a_season_are_understood():
    r = plan("the teams with their city")
    assert r.is_resolved and r.entity.singular == "team" and r.field_names == ["city"]


def test_fields_written_before_the_entity_and_possessive_lists():
    r = plan("name, team, height and weight of every NBA player in 2019")
    # The columns and normalised names keep the user's words; the kind's columns are the first aliases
    # they are matched by.
    assert r.kind == "nba_player" and r.field_names == ["name", "team", "height", "weight"]
    assert [f.normalized for f in r.fields] == ["name", "team", "height", "weight"]
    assert [f.aliases[0] for f in r.fields] == ["PLAYER_NAME", "TEAM_ABBR", "HEIGHT", "WEIGHT"]
    assert r.is_resolved  # "every player" is a scope, not a missing name
    r = plan("Get all restaurants in Berlin with their addresses and phone numbers")
    assert [f.normalized for f in r.fields] == ["address", "phone_number"]
    assert [(f.field, f.op, f.value) for f in r.filters] == [("location", "eq", "Berlin")]


@pytest.mark.parametrize(
    "text,want",
    [
        ("Get all books priced under $20 with title", [("price", "le", 20)]),
        ("every product in the Kitchen category with price", [("category", "eq", "Kitchen")]),
        ("cameras priced between 500 and 1500 dollars with model", [("price", "range", [500, 1500])]),
        ("countries with a population over 100 million", [("population", "ge", 100_000_000)]),
        ("hospitals with more than 500 beds, including name", [("bed", "ge", 500)]),
        ("bus stops on route 42 with name", [("route", "eq", 42)]),
        ("schools whose name contains Saint, with address", [("name", "contains", "Saint")]),
        ("bridges in Germany or Austria with name", [("location", "in", ["Germany", "Austria"])]),
        ("albums with a rating of 4 or more, with title", [("rating", "ge", 4)]),
        ("hospitals with 200 or fewer beds, with name", [("bed", "le", 200)]),
        ("bridges with a span between 100 and 500 metres, with name", [("span", "range", [100, 500])]),
    ],
)
def test_generic_filters(text, want):
    got = sorted((f.field, f.op, f.value) for f in plan(text).filters)
    assert got == sorted(want)


@pytest.mark.parametrize(
    "text,start,end,kind",
    [
        ("job postings posted in the last 30 days", date(2025, 5, 3), TODAY, "relative"),
        ("Tesla share prices year to date", date(2025, 1, 1), TODAY, "relative"),
        ("court judgments published this year", date(2025, 1, 1), TODAY, "relative"),
        ("bird sightings reported yesterday", date(2025, 5, 31), date(2025, 5, 31), "relative"),
        ("bird reports from May 2025", date(2025, 5, 1), date(2025, 5, 31), "absolute"),
        ("teaching jobs since March 2025", date(2025, 3, 1), TODAY, "relative"),
    ],
)
def test_time_scope_absolute_and_relative(text, start, end, kind):
    ts = plan(text).time_scope
    assert (ts.start_date, ts.end_date, ts.kind) == (start, end, kind)


def test_years_since_and_past_n_years():
    assert plan("software releases since 2021").years == [2021, 2022, 2023, 2024, 2025]
    assert plan("patent applications from the past 3 years").years == [2023, 2024, 2025]
    assert plan("every movie on the site").time_scope is None


@pytest.mark.parametrize(
    "text,phrase,cron,tz",
    [
        (
            "Collect NVDA's daily prices every weekday after market close",
            "every weekday after market close",
            "30 17 * * 1-5",
            "America/New_York",
        ),
        ("refresh the bus stops on the first of every month at 02:00 UTC", None, "0 2 1 * *", "UTC"),
        ("Track the price of every product on https://deals.example.com daily", "daily", "0 0 * * *", None),
        ("scrape wait times every 15 minutes", "every 15 minutes", "*/15 * * * *", None),
    ],
)
def test_cadence_is_kept_verbatim_and_parsed(text, phrase, cron, tz):
    c = plan(text).cadence
    assert c is not None and c.cron == cron and c.timezone == tz
    if phrase:
        assert c.phrase == phrase


def test_daily_data_is_not_a_schedule():
    assert plan("Daily stock prices of AAPL in 2024").cadence is None
    assert plan("hourly weather observations in Oslo with temperature").cadence is None


@pytest.mark.parametrize(
    "text,coverage",
    [
        ("the top 100 products with price", "top 100"),
        ("jobs, first page only", "first page"),
        ("all movies", "all"),
    ],
)
def test_coverage(text, coverage):
    assert plan(text).coverage == coverage


@pytest.mark.parametrize(
    "text,entity,fields",
    [
        (
            "Which charities on https://give.example.org have an income over 1 million pounds? "
            "I need their name, cause and website",
            "charity",
            ["name", "cause", "website"],
        ),
        (
            "What are the subway stations in Tokyo? I want their name and line",
            "subway station",
            ["name", "line"],
        ),
        ("Which vaccines cost less than 50 dollars? Give name and price", "vaccine", ["name", "price"]),
        ("Collect every registered charity in Scotland with name", "charity", ["name"]),
        ("Collect every dog breed with breed name and origin", "dog breed", ["breed_name", "origin"]),
        ("Collect the restaurants, first page only, with name and rating", "restaurant", ["name", "rating"]),
        ("first page only of the restaurants with name and rating", "restaurant", ["name", "rating"]),
    ],
)
def test_questions_modifiers_and_coverage_leave_the_entity_and_fields(text, entity, fields):
    r = plan(text)
    assert r.entity.singular == entity and [f.normalized for f in r.fields] == fields and r.is_resolved


def test_all_columns_written_before_the_entity():
    r = plan("All columns for every hospital in Texas")
    assert r.entity.singular == "hospital" and r.all_fields
    r = plan("Scrape every column of the airport table on https://airports.example.com")
    assert r.entity.singular == "airport" and r.all_fields and r.is_resolved


def test_fields_and_schema_win_over_the_sentence(tmp_path):
    r = plan("every book with title, author and price", fields=["isbn", "title"])
    assert r.field_names == ["isbn", "title"] and {f.origin for f in r.fields} == {"fields"}
    f = tmp_path / "schema.yaml"
    f.write_text("price: decimal\ndate_posted: date\ntitle: string\n")
    pairs = schema_from_file(f)
    assert pairs == [("price", "decimal"), ("date_posted", "date"), ("title", "string")]
    r = plan("every book with title, author and price", schema=pairs)
    assert [(x.name, x.type, x.origin) for x in r.fields] == [
        ("price", "decimal", "schema"),
        ("date_posted", "date", "schema"),
        ("title", "string", "schema"),
    ]
    bad = tmp_path / "bad.yaml"
    bad.write_text("price: money-ish\n")
    with pytest.raises(ConfigError, match="unknown type"):
        schema_from_file(bad)


def test_unresolved_only_when_nothing_can_be_collected_and_as_a_question():
    for text in ("Collect stats", "Chicago stats 2020", ""):
        r = plan(text)
        assert not r.is_resolved and r.expected_size is None
    assert all(q.endswith("?") for q in plan("Collect stats").unresolved)
    # A kind is never required: its missing subject is searched for, and the question is kept.
    r = plan("Give me stock prices")
    assert r.is_resolved and any("which tickers" in a for a in r.assumptions)
    # A missing year is not a refusal: the plan says what it will do instead.
    r = plan("Collect the daily stock information of AAPL")
    assert r.is_resolved and any("every trading day" in a for a in r.assumptions)
    r = plan("Find papers of NeurIPS")
    assert r.is_resolved and any("every year" in a for a in r.assumptions)
    # With a source, a kind's missing scope is what the source has.
    assert plan("Give me stock prices from https://quotes.example.com/daily").is_resolved
    assert plan("Give me stock prices", sources=["http://127.0.0.1:9/quotes"]).is_resolved
    assert plan("Give me stock prices", sources=["http://127.0.0.1:9/quotes"]).sources == [
        "http://127.0.0.1:9/quotes"
    ]


def test_json_shape_is_fixed():
    out = plan("Collect every book on https://b.example.com with title and price under $20").to_json()
    assert list(out) == [
        "entity",
        "fields",
        "filters",
        "time_scope",
        "coverage",
        "cadence",
        "sources",
        "kind",
        "unresolved",
    ]
    assert all(list(f) == ["name", "normalized", "type"] for f in out["fields"])
    assert out["filters"] == [{"field": "price", "op": "le", "value": 20}]


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("book " * (MAX_INSTRUCTION_CHARS // 4), "characters long"),
        ("books\x00 with price", "control characters"),
        ("books\u200b with price", "control characters"),
        ("Sammle alle Bücher mit Titel und Preis von der Seite", "English"),
        ("Recopila todos los libros con título y precio", "English"),
        ("收集所有书籍的标题和价格", "English"),
    ],
)
def test_bad_input_is_refused_in_one_line(text, fragment):
    with pytest.raises(ConfigError) as e:
        check_instruction(text)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_plain_english_passes_the_input_check():
    for t in (
        "Collect all accepted papers of NeurIPS 2017.",
        "Get all restaurants in Berlin",
        "AAPL in 2024",
    ):
        assert check_instruction(t) == t


@pytest.mark.parametrize(
    "text,sources",
    [
        ("movies listed on IMDb with title and year", ["IMDb"]),
        ("jobs posted on LinkedIn in Berlin with title", ["LinkedIn"]),
        ("repositories on GitHub with name and stars", ["GitHub"]),
        ("papers on Machine Learning with title", []),  # a topic, not a site
        ("papers from ICML 2022 listed on ICML with title", []),  # an acronym names a conference
        ("bird sightings on Monday with species", []),
    ],
)
def test_a_site_named_in_the_sentence_is_a_source(text, sources):
    assert plan(text).sources == sources
