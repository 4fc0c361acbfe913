"""CheckSpec: typed construction, YAML round-trip, clear errors, and the pure GE-suite compiler."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pandas as pd
import pytest

from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.custom import completeness, freshness, logical_type, profile, schema_drift
from prefect_autodata.expectations.spec import (
    CheckSpec,
    ColumnCheck,
    CompletenessCheck,
    DriftCheck,
    KeyDomain,
    RangeCheck,
    UniqueCheck,
    between,
    compare,
    load_checks,
    save_checks,
)
from prefect_autodata.expectations.to_gx import compile_suite

EXAMPLES = Path(__file__).resolve().parents[2] / "prefect_autodata" / "deployments" / "examples" / "checks"


def test_typed_construction_and_yaml_round_trip(tmp_path):
    spec = CheckSpec(
        name="sp500-daily",
        policy="quarantine",
        checks=[
            ColumnCheck(column="close", dtype="float"),
            UniqueCheck(columns=["ticker", "date"]),
            compare("high >= low"),
            *between("low", "open", "high"),
            RangeCheck(column="date", min=dt.date(2024, 1, 1), max=dt.date(2024, 12, 31)),
            CompletenessCheck(keys={"ticker": KeyDomain(values=["AAPL"]), "date": KeyDomain()}),
            DriftCheck(max_row_count_change=0.2),
        ],
    )
    path = save_checks(spec, tmp_path / "checks.yaml")
    again = load_checks(path)
    assert again == spec
    names = [c.check_name for c in again.checks]
    assert names[:5] == [
        "column:close",
        "unique:ticker,date",
        "compare:high>=low",
        "compare:open>=low",
        "compare:open<=high",
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("name: x\nchecks:\n  - {kind: compare, left: a, op: '=>', right: b}\n", "checks[0].op"),
        ("name: x\nchecks:\n  - {kind: range, column: v}\n", "range needs min or max"),
        ("name: x\nchecks:\n  - {kind: regex, column: v, pattern: '('}\n", "checks[0].pattern"),
        ("name: Bad Name\nchecks: []\n", "name"),
        ("name: x\nchecks:\n  - {kind: teleport}\n", "checks[0]"),
        ("name: x\npolicy: explode\n", "policy"),
        ("- just a list\n", "must be a mapping"),
    ],
)
def test_bad_specs_name_the_field(text, fragment):
    with pytest.raises(ConfigError) as err:
        CheckSpec.from_yaml(text, source="checks.yaml")
    assert fragment in str(err.value)
    assert str(err.value).startswith("checks.yaml")


def test_duplicate_check_names_are_rejected():
    with pytest.raises(ValueError, match="named 'range:v'"):
        CheckSpec(name="x", checks=[RangeCheck(column="v", min=0), RangeCheck(column="v", max=9)])
    ok = CheckSpec(
        name="x", checks=[RangeCheck(column="v", min=0), RangeCheck(column="v", max=9, name="v-cap")]
    )
    assert len(ok.checks) == 2


def test_shipped_examples_load():
    stocks = load_checks(EXAMPLES / "stocks.checks.yaml")
    kinds = {c.kind for c in stocks.checks}
    assert {"column", "unique", "compare", "range", "weekdays", "completeness", "drift"} <= kinds
    papers = load_checks(EXAMPLES / "papers.checks.yaml")
    assert papers.name and papers.checks


def test_every_kind_compiles_to_a_typed_expectation():
    spec = load_checks(EXAMPLES / "stocks.checks.yaml")
    prev = {"row_count": 100, "columns": {"close": {"type": "float", "null_rate": 0.0}}}
    suite = compile_suite(spec, previous=prev)
    by_check = {}
    for e in suite["expectations"]:
        by_check.setdefault(e["meta"]["autodata_check"], []).append(e["type"])
    # no check silently dropped
    for c in spec.checks:
        if c.kind != "drift":
            assert c.check_name in by_check, c.check_name
    assert by_check["compare:high>=low"] == ["expect_column_pair_values_a_to_be_greater_than_b"]
    assert by_check["unique:ticker,date"] == ["expect_compound_columns_to_be_unique"]
    assert by_check["weekdays:date"] == ["expect_column_values_to_be_weekdays"]
    assert by_check["drift:row_count"] == ["expect_table_row_count_to_be_between"]
    assert by_check["drift:columns"] == ["expect_table_schema_to_match_previous"]
    assert by_check["drift:null_rate"] == ["expect_table_null_rates_to_stay_within"]
    rates = next(e for e in suite["expectations"] if e["meta"]["autodata_check"] == "drift:null_rate")
    assert rates["kwargs"] == {"max_null_rates": {"close": 0.05}}
    row = next(e for e in suite["expectations"] if e["meta"]["autodata_check"] == "drift:row_count")
    assert row["kwargs"] == {"min_value": 50, "max_value": 150}
    # without a previous profile there is nothing to drift from
    assert not [e for e in compile_suite(spec)["expectations"] if e["meta"]["kind"] == "drift"]


def test_logical_types_and_profile():
    df = pd.DataFrame(
        {
            "s": ["a", "b", None],
            "i": [1, 2, 3],
            "f": [1.0, None, 2.5],
            "d": [dt.date(2024, 1, 2), dt.date(2024, 1, 3), None],
            "t": pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03"]),
        }
    )
    assert {c: logical_type(df[c]) for c in df} == {
        "s": "string",
        "i": "integer",
        "f": "float",
        "d": "date",
        "t": "datetime",
    }
    p = profile(df)
    assert p["row_count"] == 3 and p["columns"]["f"] == {"type": "float", "null_rate": round(1 / 3, 6)}
    drift = schema_drift(
        df.drop(columns=["s"]).assign(i=["x", "y", "z"], new=1),
        {c: v["type"] for c, v in p["columns"].items()},
    )
    assert drift == {
        "success": False,
        "new": ["new"],
        "missing": ["s"],
        "retyped": {"i": "integer -> string"},
    }


def test_completeness_against_a_trading_calendar():
    days = pd.bdate_range("2024-01-01", "2024-01-12")  # 10 weekdays
    df = pd.DataFrame([(t, d.date()) for t in ("A", "B") for d in days], columns=["ticker", "date"])
    keys = {
        "ticker": {"values": ["A", "B"]},
        "date": {"start": "2024-01-01", "end": "2024-01-12", "exclude": ["2024-01-01"]},
    }
    assert completeness(df, keys)["success"]
    gap = completeness(df[~((df.ticker == "B") & (df.date == dt.date(2024, 1, 5)))], keys)
    assert gap["missing"] == 1 and gap["missing_examples"] == [["B", "2024-01-05"]]
    assert completeness(df, {"ticker": {"values": ["A", "B", "C"]}, "date": {}})["missing"] == 10


def test_freshness():
    s = pd.Series(["2024-12-30", "2024-12-31"])
    assert freshness(s, 3, "2025-01-02")["success"]
    stale = freshness(s, 1, "2025-01-02")
    assert not stale["success"] and stale["age_days"] == 2


# --------------------------------------------------------------------------- issue 14: request-derived coverage


def _spec(pk: list[str], fields: list[dict], params: dict | None = None, **extra):
    from prefect_autodata.runtime.spec import CollectorSpec

    source = {"kind": "json", "request": {"url": "http://h/x"}, "params": params or {}, "fields": fields}
    return CollectorSpec.model_validate({"name": "s", "primary_key": pk, "sources": [source], **extra})


STOCK_FIELDS = [
    {"name": "Ticker", "from_param": "t"},
    {"name": "Date", "jsonpath": "$.date", "type": "date"},
    {"name": "Close", "jsonpath": "$.close", "type": "float"},
]
TODAY = dt.date(2026, 12, 1)


def test_trading_sessions_skip_exchange_holidays():
    from prefect_autodata.runtime import templates, trading_calendar

    days = trading_calendar.sessions(dt.date(2024, 1, 1), dt.date(2024, 12, 31))
    closed = trading_calendar.closed_weekdays(dt.date(2024, 1, 1), dt.date(2024, 12, 31))
    assert len(days) + len(closed) == len(pd.bdate_range("2024-01-01", "2024-12-31"))
    assert dt.date(2024, 7, 4) in closed and dt.date(2024, 11, 28) in closed and dt.date(2024, 7, 5) in days
    assert templates.last_trading_day(dt.date(2024, 7, 5)) == dt.date(2024, 7, 3)  # July 4th closed
    assert templates.last_trading_day(dt.date(2024, 12, 26)) == dt.date(2024, 12, 24)  # Christmas
    assert templates.resolve_date("last_trading_day", dt.date(2024, 6, 10)) == dt.date(2024, 6, 7)


def test_completeness_names_up_to_20_missing_rows_and_clips_or_spans_the_batch():
    days = pd.bdate_range("2024-01-01", "2024-02-29")
    df = pd.DataFrame({"date": [d.date() for d in days[30:]]})  # the first 30 weekdays are missing
    res = completeness(df, {"date": {"start": "2024-01-01", "end": "2024-02-29"}})
    assert res["missing"] == 30 and len(res["missing_examples"]) == 20
    assert res["missing_examples"][0] == ["2024-01-01"]
    # within_observed: an incremental batch is judged only between its first and last day
    clipped = {"date": {"start": "2024-01-01", "end": "2024-02-29", "within_observed": True}}
    assert completeness(df, clipped)["success"]
    assert not completeness(df.drop(index=[5]), clipped)["success"]
    # contiguous: every integer between the smallest and the largest value (a season gap)
    seasons = pd.DataFrame({"YEAR": [2001, 2002, 2004, 2005]})
    gap = completeness(seasons, {"YEAR": {"contiguous": True}})
    assert gap["missing"] == 1 and gap["missing_examples"] == [[2003]]
    with pytest.raises(ValueError, match="contiguous"):
        KeyDomain(contiguous=True, values=[1])


def test_drift_row_count_bounds():
    from prefect_autodata.expectations.spec import row_count_bounds

    assert row_count_bounds(DriftCheck(), 100) == (50, 150)
    assert row_count_bounds(DriftCheck(max_row_count_decrease=0.02), 100) == (98, 150)
    assert row_count_bounds(DriftCheck(max_row_count_change=None, max_row_count_decrease=0.0), 100) == (
        100,
        None,
    )


def test_design_checks_expects_every_ticker_on_every_nyse_session():
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.validation import design_checks

    plan = parse_instruction("Daily stock prices of AAPL and MSFT in 2024", today=TODAY)
    fields = [{"name": "Ticker", "from_param": "t"}, *STOCK_FIELDS[1:]]
    spec = _spec(["Ticker", "Date"], fields, {"t": {"values": ["AAPL", "MSFT"]}})
    cs = design_checks(plan, spec, today=TODAY)
    by = cs.by_name()
    comp = by["completeness:TickerxDate"]
    assert comp.min_fraction == 1.0 and comp.keys["Ticker"].values == ["AAPL", "MSFT"]
    assert dt.date(2024, 7, 4) in comp.keys["Date"].exclude and not comp.keys["Date"].within_observed
    assert (by["row_count"].min, by["row_count"].max) == (2 * 252, 2 * 252)
    assert by["drift"].max_null_rate_increase == 0.1 and by["drift"].columns
    assert by["drift_shrink"].severity == "warn" and by["drift_shrink"].max_row_count_decrease == 0.0
    # an incremental collector lands deltas: the calendar is clipped, sizes are not compared
    inc = _spec(
        ["Ticker", "Date"],
        fields,
        {"t": {"values": ["AAPL", "MSFT"]}},
        incremental={"cursor": "Date", "param": "t"},
    )
    cs = design_checks(plan, inc, today=TODAY)
    assert cs.by_name()["completeness:TickerxDate"].keys["Date"].within_observed
    assert cs.by_name()["row_count"].min == 1 and cs.by_name()["row_count"].max is None
    assert cs.by_name()["drift"].max_row_count_change is None and "drift_shrink" not in cs.by_name()


def test_design_checks_expects_every_season():
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.validation import design_checks

    fields = [
        {"name": "TEAM_ABBR", "jsonpath": "$.t"},
        {"name": "YEAR", "jsonpath": "$.y", "type": "integer"},
    ]
    plan = parse_instruction("Chicago Cubs team batting totals by season, 2016-2018", today=TODAY)
    cs = design_checks(plan, _spec(["TEAM_ABBR", "YEAR"], fields), today=TODAY)
    seasons = cs.by_name()["completeness:seasons:YEAR"]
    assert list(seasons.keys) == ["YEAR"] and seasons.keys["YEAR"].values == [2016, 2017, 2018]
    # no year range in the request: every season between the first and the last collected one
    plan = parse_instruction("Every regular season of the Toronto Raptors", today=TODAY)
    cs = design_checks(plan, _spec(["YEAR"], fields), today=TODAY)
    assert cs.by_name()["completeness:seasons:YEAR"].keys["YEAR"].contiguous
    assert cs.by_name()["completeness:seasons:YEAR"].severity == "warn"  # a source may keep only some seasons


def test_design_checks_uses_a_listing_total_and_the_plan_size_with_a_tolerance():
    from prefect_autodata.agents.evidence import Evidence, Page
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.validation import Scope, design_checks, stated_count

    plan = parse_instruction("All ICLR 2021 accepted papers", today=TODAY)
    page = Page(url="u", final_url="u", status=200, cache_id="c", title="ICLR 2021 papers",
                text_excerpt="ICLR 2021 Conference. Showing 1-25 of 860 results")  # fmt: skip
    ev = Evidence(plan=plan, candidates=[page])
    assert stated_count(ev, plan) == 860
    spec = _spec(["id"], [{"name": "id", "jsonpath": "$.id"}])
    rc = design_checks(plan, spec, ev, today=TODAY).by_name()["row_count_stated"]
    assert (rc.min, rc.max) == (860, 860)
    # an approximate plan size: bounds with the stated tolerance
    scope = Scope(entity="paper", expected_rows=200, expected_approx=True)
    by = design_checks(scope, spec, today=TODAY, tolerance=0.1).by_name()
    rc = by["row_count"]
    assert (rc.min, rc.max) == (180, 220)
    # an estimate from world knowledge is reported, never blocking; an empty batch still fails
    assert rc.severity == "warn" and by["row_count_any"].min == 1 and by["row_count_any"].severity == "error"


def test_a_range_still_being_filled_ends_at_the_last_completed_session():
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.validation import design_checks

    plan = parse_instruction("Daily stock prices of AAPL in 2026", today=TODAY)
    spec = _spec(["Ticker", "Date"], STOCK_FIELDS, {"t": {"values": ["AAPL"]}})
    by = design_checks(plan, spec, today=TODAY).by_name()  # TODAY is Tuesday 2026-12-01
    assert by["completeness:TickerxDate"].keys["Date"].end == dt.date(2026, 11, 30)
    assert by["range:Date"].max == plan.end_date >= TODAY  # the request's own end, not the grid's
    sessions = len(pd.bdate_range("2026-01-01", "2026-11-30")) - len(
        by["completeness:TickerxDate"].keys["Date"].exclude
    )
    assert by["row_count"].min == sessions and by["row_count"].max is None
