"""Checks that catch what is missing (issue 14), through real GE + pandera and real runs on the sandbox:
request-derived completeness names the missing rows, drift catches a renamed source field, and a
rename never overwrites good rows with nulls (with or without checks)."""

from __future__ import annotations

from datetime import date

import duckdb
import pandas as pd
import pytest

from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.agents.validation import design_checks
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.expectations import report
from prefect_autodata.expectations.enforce import enforce
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime import trading_calendar
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.sandbox.tasks import get_task
from prefect_autodata.workspace import Workspace

TODAY = date(2026, 12, 1)


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def aapl(base: str | None = None, close_path: str = "$.close") -> CollectorSpec:
    spec = load_example("tiingo-aapl-2024")
    if base:
        spec = mirrored(spec, base)
    data = spec.model_dump(mode="json", exclude_none=True)
    data.pop("incremental")
    for f in data["sources"][0]["fields"]:
        if f["name"] == "Close":
            f["jsonpath"] = close_path
    return CollectorSpec.parse(data)


def aapl_checks(spec: CollectorSpec):
    plan = parse_instruction("Daily stock information of AAPL in 2024", today=TODAY)
    return design_checks(plan, spec, today=TODAY)


def truth() -> pd.DataFrame:
    df = get_task("t04-aapl-2024").ground_truth().copy()
    df.insert(0, "ticker", "AAPL")
    df["Date"] = pd.to_datetime(df["Date"]).dt.date
    return df


def test_months_missing_are_counted_and_named(tmp_path):
    spec = aapl()
    checks = aapl_checks(spec)
    full = truth()
    assert enforce(full, checks, engines="both").status == "passed"  # the clean year: every session
    cut = full[~pd.to_datetime(full["Date"]).dt.month.isin([3, 4, 5])]
    expected_missing = len(trading_calendar.sessions(date(2024, 3, 1), date(2024, 5, 31)))
    ws = Workspace(tmp_path)
    res = enforce(cut, checks, engines="both", workspace=ws)
    assert res.status == "failed" and {"completeness:tickerxDate", "row_count"} <= set(res.failed_names())
    (gx,) = [c for c in res.failed if c.check == "completeness:tickerxDate" and c.engine == "gx"]
    assert gx.observed["missing"] == expected_missing and len(gx.observed["missing_examples"]) == 20
    assert gx.message.startswith(
        f"{expected_missing} of {len(full)} expected rows missing, first 20: AAPL 2024-03-01"
    )
    text = report.format_summary(report.latest_summary(spec.name, ws))
    assert f"completeness:tickerxDate: {expected_missing} of {len(full)} expected rows missing" in text


def test_half_the_sp500_is_caught_by_the_plan_size():
    plan = parse_instruction("Daily stock information of every S&P 500 company in 2024", today=TODAY)
    assert plan.all_sp500
    spec = aapl()
    checks = design_checks(plan, spec, today=TODAY)
    days = trading_calendar.sessions(date(2024, 1, 1), date(2024, 12, 31))
    rows = [(f"T{i:03d}", d) for i in range(253) for d in days]  # 253 made-up tickers of ~503
    df = pd.DataFrame(rows, columns=["ticker", "Date"])
    for c in spec.output_columns():
        if c.name not in df:
            df[c.name] = 1.0 if c.type == "float" else 1 if c.type == "integer" else None
    res = enforce(df, checks, engines="pandera")
    assert res.status == "failed" and "row_count" in res.failed_names()
    assert "completeness:tickerxDate" not in res.failed_names()  # each ticker has every session


def query(db: str, sql: str):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_a_renamed_source_field_never_overwrites_good_rows(sandbox_url, tmp_path):
    db = str(tmp_path / "w.duckdb")
    good = aapl(sandbox_url)
    checks = aapl_checks(good)
    first = run_spec(good, db, checks=checks, today=TODAY)
    assert first.status == "succeeded" and first.checks_status == "passed", first.error
    before = query(db, "SELECT Date, Close FROM aapl_daily_2024 ORDER BY Date")
    assert len(before) == 252 and all(c is not None for _, c in before)
    # upstream renamed close -> closePrice: with the designed checks, drift stops the batch
    renamed = aapl(sandbox_url, close_path="$.closePrice")
    second = run_spec(renamed, db, checks=checks, today=TODAY)
    assert second.status == "failed_checks" and "drift:null_rate:Close" in second.error
    assert query(db, "SELECT Date, Close FROM aapl_daily_2024 ORDER BY Date") == before
    # without any checks the batch lands, but no stored Close is replaced by a null
    third = run_spec(renamed, db, today=TODAY)
    assert third.status == "succeeded" and third.rows_landed == 252
    assert any("kept 252 stored non-null value(s)" in w and "Close (252)" in w for w in third.warnings)
    assert query(db, "SELECT Date, Close FROM aapl_daily_2024 ORDER BY Date") == before
