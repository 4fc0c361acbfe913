"""The validation agent blocks a table only on what the request itself states (issue #13): a season
grid of a known kind over the seasons the request names, every trading day of the tickers it names, a
total a page states for exactly the request's records. Expectations the request did not state (an
open range that ends today, the year of generic records, a listing's total of more records than the
filter keeps, the instruments of an unnamed grid) are soft notes."""

from __future__ import annotations

import datetime as dt

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.agents.validation import design_checks
from prefect_autodata.runtime.spec import CollectorSpec

TODAY = dt.date(2025, 6, 1)


def _spec(pk: list[str], names: list[tuple[str, str]]) -> CollectorSpec:
    fields = [{"name": n, "jsonpath": f"$.{n}", "type": t} for n, t in names]
    source = {"kind": "json", "request": {"url": "http://h/x"}, "params": {}, "fields": fields}
    return CollectorSpec.model_validate({"name": "s", "primary_key": pk, "sources": [source]})


def _checks(text: str, spec: CollectorSpec, page_text: str | None = None):
    plan = make_plan(text, today=TODAY)
    ev = None
    if page_text is not None:
        page = Page(url="u", final_url="u", status=200, cache_id="c", title="listing", text_excerpt=page_text)
        ev = Evidence(plan=plan, candidates=[page])
    return design_checks(plan, spec, ev, today=TODAY).by_name()


SEASONS = _spec(["team", "season"], [("team", "string"), ("season", "integer"), ("w", "integer")])


def test_the_seasons_a_known_kind_names_block_an_open_range_and_generic_years_do_not():
    firm = _checks("Lakers team stats from 2015 to 2018", SEASONS)["completeness:seasons:season"]
    assert firm.severity == "error" and firm.keys["season"].values == [2015, 2016, 2017, 2018]
    open_range = _checks("every MLB team pitching season 2009 or later", SEASONS)
    assert open_range["completeness:seasons:season"].severity == "warn"
    movies = _spec(["title"], [("title", "string"), ("season", "integer")])
    generic = _checks("Movies released in 2021 or 2022 with title and season", movies)
    assert generic["completeness:seasons:season"].severity == "warn"


def test_a_trading_grid_blocks_only_for_the_tickers_the_request_names():
    spec = _spec(["ticker", "date"], [("ticker", "string"), ("date", "date"), ("close", "float")])
    named = [
        c
        for n, c in _checks("daily stock prices of AAPL in Q3 2016", spec).items()
        if n.startswith("complet")
    ]
    unnamed = [
        c for n, c in _checks("daily stock prices in Q3 2016", spec).items() if n.startswith("complet")
    ]
    assert [c.severity for c in named] == ["error"] and [c.severity for c in unnamed] == ["warn"]


def test_a_stated_total_blocks_only_when_it_counts_the_requested_records():
    spec = _spec(["name"], [("name", "string"), ("cuisine", "string")])
    text = "restaurants whose cuisine is Chinese with name and cuisine"
    other = _checks(text, spec, "Our guide: all 447 items, every cuisine")
    assert other["row_count_stated"].severity == "warn" and other["row_count_any"].min == 1
    own = _checks(text, spec, "Chinese restaurants: all 31 items")
    rc = own["row_count_stated"]
    assert rc.severity == "error" and (rc.min, rc.max) == (31, 31)
    top = _checks("the top 10 restaurants with name and cuisine", spec, "all 447 items")
    assert top["row_count_stated"].severity == "warn"
    # a page counter is the source's number, not the request's: reported, never blocking
    counter = _checks("every restaurant with name and cuisine", spec, "Showing 1-20 of 447 results")
    assert counter["row_count_stated"].severity == "warn" and (counter["row_count_stated"].min) == 447
    assert counter["row_count_any"].severity == "error"
