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
