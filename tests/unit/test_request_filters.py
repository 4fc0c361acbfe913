"""Request filters read from the sentence become the spec's row filter (agents/induction/filters.py):
real parsed requests, the generated step run as the runtime runs it, text compared case-insensitively."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.induction.filters import row_filter
from prefect_autodata.agents.plan import make_plan

TODAY = date(2025, 3, 1)


def _kept(instruction: str, rows: list[dict], key: str, **kw) -> list:
    plan = make_plan(instruction, today=TODAY, **kw)
    code, notes = row_filter(plan, list(rows[0]))
    assert code is not None, (plan.filters, plan.time_scope, notes)
    assert not [n for n in notes if "not applied" in n], notes
    ns: dict = {}
    exec(compile(code, "<filter>", "exec"), ns)
    return [r[key] for r in ns["transform"](rows)]


def test_a_value_only_keeps_rows_showing_it_in_any_column():
    rows = [
        {"model": "D750", "brand": "Nikon", "price": "$900"},
        {"model": "EOS R", "brand": "Canon", "price": "$1,200"},
        {"model": "Z6", "brand": "NIKON", "price": "$1,100"},
    ]
    got = _kept("Could you build a table of cameras, Nikon only, with model, brand and price?", rows, "model")
    assert got == ["D750", "Z6"]


def test_a_capitalised_league_names_its_field():
    rows = [
        {"name": "Arsenal", "league": "Premier League"},
        {"name": "Celtic", "league": "Scottish Premiership"},
        {"name": "Chelsea", "league": "premier league"},
    ]
    got = _kept("Collect all football clubs in the Premier League with name and league", rows, "name")
    assert got == ["Arsenal", "Chelsea"]


def test_a_team_filter_keeps_its_abbreviation_under_the_users_column_word():
    # the user calls the team "club"; the page shows abbreviations or full names
    rows = [
        {"club": "STL", "era": "3.10", "so": "1200"},
        {"club": "St. Louis Cardinals", "era": "3.50", "so": "1100"},
        {"club": "CHC", "era": "4.00", "so": "1300"},
    ]
    got = _kept(
        "We need every MLB team pitching season you can find, only the STL club, listing club, ERA and SO.",
        rows,
        "club",
        sources=["https://stats.example.org/pitching"],
    )
    assert got == ["STL", "St. Louis Cardinals"]


def test_open_ranges_and_their_first_year():
    rows = [{"team": "A", "season": "2001"}, {"team": "B", "season": "2002"}, {"team": "C", "season": "2019"}]
    assert _kept(
        "Every club season on https://x.example.org 2002 or later with team and season", rows, "team"
    ) == [
        "B",
        "C",
    ]
    assert _kept(
        "Every club season on https://x.example.org after 2002 with team and season", rows, "team"
    ) == ["C"]


def test_a_time_scope_finds_the_date_column_by_the_plans_field_types():
    rows = [
        {"ticker": "AAPL", "trading_day": "2023-05-12", "close": "1"},
        {"ticker": "AAPL", "trading_day": "May 16, 2023", "close": "2"},
        {"ticker": "AAPL", "trading_day": "2023-05-26", "close": "3"},
    ]
    got = _kept(
        "Would you extract every daily stock price on this site from 2023-05-15 through 2023-05-25?",
        rows,
        "close",
        fields=["ticker", "trading_day", "close"],
        sources=["https://prices.example.com"],
    )
    assert got == ["2"]


def test_a_value_for_closing_its_clause_and_slash_dates():
    rows = [
        {"film": "Heat", "type": "Drama", "released": "1995/12/15"},
        {"film": "Up", "type": "Animation", "released": "2009/05/29"},
    ]
    assert _kept("Compile a list of movies for Drama with film, type and released", rows, "film") == ["Heat"]
    # "win PCT" names a field (an abbreviation), not a filter "win = PCT"
    plan = make_plan("NBA team seasons on https://x.example.org listing team, win PCT and PTS", today=TODAY)
    assert not [f for f in plan.filters if f.field == "win"]
    rows = [
        {"day": "2020/06/18", "close": "1"},
        {"day": "2020/06/19", "close": "2"},
        {"day": "19.06.2021", "close": "3"},
    ]
    got = _kept(
        "From 2020-06-19 through 2020-07-02, can I get a dataset of daily stock prices with day and close?",
        rows,
        "close",
        sources=["https://prices.example.com"],
    )
    assert got == ["2"]


def test_filter_values_with_commas_hyphens_and_ampersands_are_read_whole():
    cases = {
        "Could you build a table of schools where the sector is 4-year, Private not-for-profit "
        "(name, phone, sector, website)?": ("sector", "4-year, Private not-for-profit"),
        "Please extract every college whose type is < 2-year, Private for-profit.": (
            "type",
            "< 2-year, Private for-profit",
        ),
        "Is it possible to get a list of films for Science Fiction & Fantasy (title, director, genre)?": (
            "*",
            "Science Fiction & Fantasy",
        ),
        "Scrape all hospitals listed on the site for Private (name, phone, type, website).": ("*", "Private"),
        "Please gather all of the books with genre Mystery with the title, author, genre and price of each.": (
            "genre",
            "Mystery",
        ),
        "Can you please collect each school, only the Public Research institution type: name, phone, "
        "institution type, website?": ("institution type", "Public Research"),
        "For Categories: Blues, i'd like the albums you can find, giving title, artist and year.": (
            "*",
            "Categories: Blues",
        ),
    }
    for sentence, (field, value) in cases.items():
        plan = make_plan(sentence, today=TODAY)
        assert [(f.field, f.op, f.value) for f in plan.filters] == [(field, "eq", value)], sentence


def test_the_fields_after_a_feature_are_still_fields():
    plan = make_plan(
        "Please gather all of the books with genre Mystery with the title, author and price.", today=TODAY
    )
    assert plan.field_names == ["title", "author", "price"]
