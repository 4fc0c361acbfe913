"""Real GE and real pandera on sandbox stock data with injected faults; policies; round-trips; reports."""

from __future__ import annotations

import datetime as dt
import json
import re

import duckdb
import pandas as pd
import pytest

from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.enforce import FAILED_CHECKS_COLUMN, enforce, profile
from prefect_autodata.expectations.report import format_summary, latest_summary, markdown_report
from prefect_autodata.expectations.spec import CheckSpec, load_checks
from prefect_autodata.expectations.to_gx import load_suite, save_suite, validate_gx
from prefect_autodata.expectations.to_pandera import load_schema, save_schema, validate_pandera
from tests.unit.test_checkspec import EXAMPLES


@pytest.fixture(scope="session")
def stock_spec() -> CheckSpec:
    return load_checks(EXAMPLES / "stocks.checks.yaml")


@pytest.fixture(scope="session")
def stocks_2024() -> pd.DataFrame:
    """Five tickers x the trading days of 2024 from the sandbox data (full set or vendored subset)."""
    from prefect_autodata.sandbox.data import load_table

    df = load_table("stocks")
    df = df[pd.to_datetime(df["date"]).dt.year == 2024]
    counts = df.groupby("ticker").size()
    tickers = sorted(counts[counts == counts.max()].index)[:5]
    out = df[df["ticker"].isin(tickers)].sort_values(["ticker", "date"]).reset_index(drop=True)
    assert len(tickers) == 5 and len(out) > 1000
    return out


@pytest.fixture(scope="session")
def clean_result(stocks_2024, stock_spec):
    return enforce(stocks_2024.copy(), stock_spec)


def test_clean_data_passes_both_engines(clean_result, stock_spec):
    assert clean_result.status == "passed", clean_result.failed_names()
    engines = {(r["check"], r["engine"]) for r in clean_result.results}
    for c in stock_spec.checks:
        if c.kind != "drift":  # first run: nothing to drift from
            assert (c.check_name, "gx") in engines and (c.check_name, "pandera") in engines


def _weekend(df):
    df.loc[10, "date"] = dt.date(2024, 1, 6)  # a Saturday
    return df


def _missing_days(df):
    first = df["ticker"].iloc[0]
    gone = df[df["ticker"] == first].index[20:23]
    return df.drop(index=gone)


FAULTS = {
    "nulls": ("not_null:close", lambda df: df.assign(close=df["close"].mask(df.index % 97 == 3))),
    "duplicates": ("unique:ticker,date", lambda df: pd.concat([df, df.iloc[[5, 6]]], ignore_index=True)),
    "out_of_range": ("range:volume", lambda df: df.assign(volume=df["volume"].where(df.index != 7, -100))),
    "high_below_low": (
        "compare:high>=low",
        lambda df: df.assign(high=df["high"].where(df.index != 11, df["low"] - 1)),
    ),
    "missing_trading_days": ("completeness:tickerxdate", _missing_days),
    "weekend_dates": ("weekdays:date", _weekend),
    "type_drift": ("column:volume", lambda df: df.assign(volume=df["volume"].astype(str))),
    "dropped_column": ("column:close", lambda df: df.drop(columns=["close"])),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_fault_is_caught_by_both_engines_and_named(fault, stocks_2024, stock_spec):
    check, inject = FAULTS[fault]
    bad = inject(stocks_2024.copy())
    res = enforce(bad, stock_spec, policy="warn")
    for engine in ("gx", "pandera"):
        failed = {r.check for r in res.checks if r.engine == engine and not r.passed}
        assert check in failed, f"{engine} missed {fault}: failed={sorted(failed)}"
    assert res.status == "warned" and len(res.good) == len(bad)
    assert f"| {check} | gx | FAIL" in markdown_report(res, stock_spec)
    assert f"| {check} | pandera | FAIL" in markdown_report(res, stock_spec)


def test_row_level_faults_blame_the_same_rows_on_both_engines(stocks_2024, stock_spec):
    bad = stocks_2024.copy()
    rows = list(range(3, 3 + 2 * 30, 2))  # more rows than GE's first (BASIC) pass lists examples of
    bad.loc[rows, "high"] = bad.loc[rows, "low"] - 1
    res = enforce(bad, stock_spec, policy="quarantine")
    blamed = {r.engine: r.failing_index for r in res.checks if r.check == "compare:high>=low"}
    assert blamed == {"gx": rows, "pandera": rows}
    assert sorted(res.quarantined.index) == rows


def test_profile_of_the_validation_view_matches_the_batch(stocks_2024):
    from prefect_autodata.expectations.custom import for_validation

    bad = stocks_2024.copy()
    bad.loc[[2, 9], "date"] = None
    view = for_validation(bad)
    assert str(view["date"].dtype).startswith("datetime64")
    assert profile(bad, view=view) == profile(bad)
    assert profile(bad)["columns"]["date"]["type"] == "date"


def _land(con, table: str, res, run_id: str) -> None:
    """The landing side of the seam, reduced to what the policy needs (one transaction)."""
    con.execute("BEGIN")
    if res.status != "failed":
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} AS SELECT * FROM good LIMIT 0")
        con.execute(f"INSERT INTO {table} SELECT * FROM good")
    if len(res.quarantined):
        con.execute(f"CREATE TABLE IF NOT EXISTS {table}__quarantine AS SELECT * FROM quarantined LIMIT 0")
        con.execute(f"INSERT INTO {table}__quarantine SELECT * FROM quarantined")
    con.execute(
        'CREATE TABLE IF NOT EXISTS _autodata_checks (run_id VARCHAR, "check" VARCHAR, engine VARCHAR, passed BOOLEAN, observed VARCHAR, failing_rows BIGINT)'
    )
    for r in res.results:
        con.execute(
            "INSERT INTO _autodata_checks VALUES (?, ?, ?, ?, ?, ?)",
            [run_id, r["check"], r["engine"], r["passed"], r["observed"], r["failing_rows"]],
        )
    con.execute("CREATE TABLE IF NOT EXISTS _autodata_runs (run_id VARCHAR, status VARCHAR)")
    con.execute("INSERT INTO _autodata_runs VALUES (?, ?)", [run_id, res.status])
    con.execute("COMMIT")


@pytest.mark.parametrize("policy", ["fail", "quarantine", "warn"])
def test_policies_at_landing(policy, stocks_2024, stock_spec, tmp_path):
    bad = stocks_2024.copy()
    bad.loc[[3, 40], "high"] = bad.loc[[3, 40], "low"] - 1
    bad.loc[50, "volume"] = -1
    res = enforce(bad, stock_spec, policy=policy, run_id=f"r-{policy}")
    con = duckdb.connect(str(tmp_path / "t.duckdb"))
    con.register("good", res.good)
    con.register("quarantined", res.quarantined)
    _land(con, "stocks", res, res.run_id)
    status = con.execute("SELECT status FROM _autodata_runs").fetchall()[0][0]
    tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    if policy == "fail":
        assert status == "failed" and "stocks" not in tables and "stocks__quarantine" not in tables
    elif policy == "quarantine":
        assert status == "quarantined"
        assert con.execute("SELECT count(*) FROM stocks").fetchall()[0][0] == len(bad) - 3
        reasons = con.execute(
            f"SELECT ticker, date, {FAILED_CHECKS_COLUMN} FROM stocks__quarantine ORDER BY ticker, date"
        ).fetchall()
        expected = bad.loc[[3, 40, 50]].sort_values(["ticker", "date"])
        assert [(t, d) for t, d, _ in reasons] == list(zip(expected["ticker"], expected["date"], strict=True))
        by_row = {(t, d): set(r.split(",")) for t, d, r in reasons}
        assert "compare:high>=low" in by_row[(bad.loc[3, "ticker"], bad.loc[3, "date"])]
        assert by_row[(bad.loc[50, "ticker"], bad.loc[50, "date"])] == {"range:volume"}
        landed = con.execute("SELECT count(*) FROM stocks WHERE high < low OR volume < 0").fetchall()[0][0]
        assert landed == 0
    else:
        assert status == "warned" and con.execute("SELECT count(*) FROM stocks").fetchall()[0][0] == len(bad)
    failed = con.execute(
        'SELECT DISTINCT "check" FROM _autodata_checks WHERE NOT passed ORDER BY 1'
    ).fetchall()
    assert ("range:volume",) in failed and ("compare:high>=low",) in failed


def test_table_level_failure_cannot_be_quarantined(stocks_2024, stock_spec):
    res = enforce(stocks_2024.drop(columns=["close"]), stock_spec, policy="quarantine")
    assert res.status == "failed" and res.good.empty


def test_warn_severity_never_blocks(stocks_2024):
    spec = CheckSpec.model_validate(
        {"name": "s", "checks": [{"kind": "range", "column": "volume", "max": 1, "severity": "warn"}]}
    )
    res = enforce(stocks_2024, spec, policy="fail")
    assert res.status == "warned" and len(res.good) == len(stocks_2024)


def test_suite_and_schema_round_trip_from_disk(stocks_2024, stock_spec, workspace):
    bad = stocks_2024.copy()
    bad.loc[[3, 40], "high"] = bad.loc[[3, 40], "low"] - 1
    bad.loc[7, "date"] = dt.date(2024, 1, 6)
    suite_path, schema_path = save_suite(stock_spec, workspace), save_schema(stock_spec, workspace)
    assert (
        suite_path == workspace.suite_path("sp500-daily") and schema_path.name == "sp500-daily.pandera.yaml"
    )
    text = schema_path.read_text()
    assert "autodata_compare" in text and "autodata_completeness" in text and "autodata_weekday" in text

    def key(results):
        return sorted((r.check, r.passed, r.failing_rows, tuple(r.failing_index)) for r in results)

    fresh_gx, _ = validate_gx(bad, stock_spec)
    disk_gx, _ = validate_gx(bad, stock_spec, suite=load_suite(suite_path))
    assert key(fresh_gx) == key(disk_gx)
    fresh_pa = validate_pandera(bad, stock_spec)
    disk_pa = validate_pandera(bad, stock_spec, schema=load_schema(schema_path))
    assert key(fresh_pa) == key(disk_pa)
    assert {r.check for r in disk_pa if not r.passed} >= {"compare:high>=low", "weekdays:date"}
    # the JSON on disk is a GE 1.x suite
    data = json.loads(suite_path.read_text())
    assert data["name"] == "sp500-daily" and all("type" in e and "kwargs" in e for e in data["expectations"])


def test_drift_against_previous_run(stocks_2024, stock_spec):
    prev = profile(stocks_2024)
    same = enforce(stocks_2024, stock_spec, previous=prev)
    assert same.status == "passed"
    drifted = stocks_2024.iloc[: len(stocks_2024) // 3].drop(columns=["divCash"]).assign(extra=1)
    drifted = drifted.assign(adjVolume=drifted["adjVolume"].astype(str))
    drifted.loc[drifted.index[::10], "adjClose"] = None  # 10% nulls where there were none (5% allowed)
    res = enforce(drifted, stock_spec, previous=prev, policy="warn")
    for engine in ("gx", "pandera"):
        failed = {r.check for r in res.checks if r.engine == engine and not r.passed}
        assert {"drift:row_count", "drift:columns", "drift:null_rate:adjClose"} <= failed, (engine, failed)
        assert "drift:null_rate:close" not in failed
    rates = {(r.check, r.engine): r.passed for r in res.checks if r.check.startswith("drift:null_rate:")}
    assert (
        {c for c, _ in rates} == {c for c, e in rates if e == "gx"} == {c for c, e in rates if e == "pandera"}
    )
    over = next(r for r in res.checks if r.check == "drift:null_rate:adjClose" and r.engine == "gx").observed
    assert over == {"null_rate": 0.1, "max": 0.05, "ok": False}
    cols = next(r for r in res.checks if r.check == "drift:columns" and r.engine == "gx").observed
    assert cols["new"] == ["extra"] and cols["missing"] == ["divCash"] and "adjVolume" in cols["retyped"]


def _faulty(df: pd.DataFrame) -> pd.DataFrame:
    bad = df.copy()
    bad.loc[[3, 40], "high"] = bad.loc[[3, 40], "low"] - 1
    bad.loc[50, "volume"] = -1
    bad.loc[61, "close"] = None
    return bad


def _everything(res) -> list:
    return [(json.dumps(c.model_dump(), sort_keys=True, default=str), c.failing_index) for c in res.checks]


def test_parallel_engines_give_the_sequential_result(stocks_2024, stock_spec):
    bad = _faulty(stocks_2024)
    prev = profile(stocks_2024)
    seq = enforce(bad, stock_spec, policy="quarantine", previous=prev, run_id="r", parallel=False)
    par = enforce(bad, stock_spec, policy="quarantine", previous=prev, run_id="r", parallel=True)
    assert seq.status == "quarantined" and sorted(seq.quarantined.index) == [3, 40, 50, 61]
    assert _everything(par) == _everything(seq)
    assert par.status == seq.status and par.profile == seq.profile
    pd.testing.assert_frame_equal(par.good, seq.good)
    pd.testing.assert_frame_equal(par.quarantined, seq.quarantined)


def test_parallel_run_raises_the_sequential_error(stocks_2024, stock_spec, monkeypatch):
    from prefect_autodata.expectations import to_pandera

    def broken(*args, **kwargs):
        raise ConfigError("check 'x': pandera cannot compile this")

    monkeypatch.setattr(to_pandera, "compile_schema", broken)  # the forked child inherits it
    messages = []
    for parallel in (False, True):
        with pytest.raises(ConfigError) as err:
            enforce(stocks_2024, stock_spec, parallel=parallel)
        messages.append(str(err.value))
    assert messages[0] == messages[1] and "pandera cannot compile" in messages[0]


def test_two_compound_keys_blame_the_same_rows_on_both_engines(stocks_2024):
    spec = CheckSpec.model_validate(
        {
            "name": "two-keys",
            "checks": [
                {"kind": "unique", "columns": ["ticker", "date"]},
                {"kind": "unique", "columns": ["ticker", "close"]},
            ],
        }
    )
    bad = pd.concat([stocks_2024, stocks_2024.iloc[[5]]], ignore_index=True)
    bad.loc[7, "close"] = bad.loc[8, "close"]
    bad.loc[7, "ticker"] = bad.loc[8, "ticker"]
    res = enforce(bad, spec, policy="warn")
    by = {(r.check, r.engine): r.failing_index for r in res.checks}
    dup = sorted({5, len(bad) - 1})
    assert by[("unique:ticker,date", "gx")] == by[("unique:ticker,date", "pandera")] == dup
    same_close = sorted(bad.index[bad.duplicated(["ticker", "close"], keep=False)])
    assert 7 in same_close and 8 in same_close
    assert by[("unique:ticker,close", "gx")] == by[("unique:ticker,close", "pandera")] == same_close


def test_ge_result_is_the_same_with_configurations_and_domains_built_once(stocks_2024, stock_spec):
    from prefect_autodata.expectations import to_gx
    from prefect_autodata.expectations.custom import for_validation

    view = for_validation(_faulty(stocks_2024))
    suite = to_gx.suite_from_json(to_gx.compile_suite(stock_spec))
    view.loc[[7, 8], "low"] = None  # rows the column-pair domains drop
    cached = to_gx.run_suite(view, suite, asset="cfg")  # built_once_configurations + domain_records_once
    batch = to_gx._batch_definition("cfg").get_batch(batch_parameters={"dataframe": view})
    plain = batch.validate(suite, result_format=to_gx.COMPLETE_FORMAT)  # GE's own property

    def comparable(res) -> list:
        out = []
        for r in res.to_json_dict()["results"]:
            r["expectation_config"].pop("id", None)
            out.append(json.dumps(r, sort_keys=True, default=str))
        return out

    assert not cached.success and comparable(cached) == comparable(plain)
    from great_expectations.expectations.expectation import Expectation

    assert type(Expectation.__dict__["configuration"]) is property  # restored, not left patched
    assert Expectation.__dict__["configuration"].fget.__qualname__ == "Expectation.configuration"
    from great_expectations.execution_engine import PandasExecutionEngine

    assert PandasExecutionEngine.get_domain_records.__qualname__ == "PandasExecutionEngine.get_domain_records"


def test_optional_typed_column_may_be_missing_on_both_engines(stocks_2024):
    spec = CheckSpec.model_validate(
        {
            "name": "optional",
            "checks": [
                {"kind": "column", "column": "split", "dtype": "float", "required": False},
                {"kind": "column", "column": "close", "dtype": "float"},
            ],
        }
    )
    res = enforce(stocks_2024, spec)
    assert res.status == "passed", res.failed_names()
    res = enforce(stocks_2024.assign(split="x"), spec, policy="warn")
    assert {(r.check, r.engine) for r in res.failed} == {("column:split", "gx"), ("column:split", "pandera")}


def test_data_docs_and_report_for_a_run(stocks_2024, stock_spec, workspace):
    bad = stocks_2024.copy()
    bad.loc[3, "high"] = bad.loc[3, "low"] - 1
    res = enforce(bad, stock_spec, workspace=workspace, run_id="run-docs", policy="fail")
    assert res.docs_path == workspace.data_docs_dir / "sp500-daily" / "run-docs.html"
    page = res.docs_path.read_text()
    assert not re.findall(r"<(?:script|link|img)[^>]+(?:src|href)=\"https?://", page)
    assert "../static/css/bootstrap.min.css" in page
    assert (workspace.data_docs_dir / "static" / "css" / "bootstrap.min.css").exists()
    summary = latest_summary("sp500-daily", workspace)
    assert summary["status"] == "failed" and summary["docs_path"] == str(res.docs_path)
    text = format_summary(summary)
    assert "compare:high>=low" in text and str(res.docs_path) in text


def test_data_docs_render_custom_expectations_as_sentences(stocks_2024, stock_spec, workspace):
    bad = stocks_2024.copy()
    bad.loc[10, "date"] = dt.date(2024, 1, 6)  # a Saturday
    bad = bad.drop(index=[20, 21])
    res = enforce(bad, stock_spec, workspace=workspace, run_id="run-words", policy="warn")
    words = " ".join(re.sub(r"<[^>]+>", " ", res.docs_path.read_text()).split())
    assert "date values must fall on a weekday (Monday to Friday)." in words
    assert "1 unexpected values found." in words
    assert (
        "Every combination of ticker (every value seen) x date (every value seen) must have a row." in words
    )
    m = re.search(r"(\d[\d,]*) of ([\d,]+) combinations present \([^)]*\); (\d+) missing, e\.g\. ", words)
    assert m and int(m.group(2).replace(",", "")) - int(m.group(1).replace(",", "")) == int(m.group(3))
    assert (
        "date must exist and hold values of logical type date . date" in words
    )  # the batch's, not the view's
    assert "date dates must be between 1990-01-01 and 2100-12-31" in words
    assert "np.float64(" not in words and "expect_column_values_to_be_weekdays(**" not in words


def test_cli_report_prints_latest_summary(stocks_2024, stock_spec, workspace):
    import os
    import subprocess
    import sys

    res = enforce(stocks_2024, stock_spec, workspace=workspace, run_id="run-cli")
    env = {**os.environ, "AUTODATA_WORKSPACE": str(workspace.root)}
    cmd = [sys.executable, "-m", "prefect_autodata.cli", "report", "sp500-daily"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "sp500-daily: passed (run run-cli" in out.stdout and str(res.docs_path) in out.stdout
    missing = subprocess.run(
        [*cmd[:-1], "nothing-here"], env=env, capture_output=True, text=True, timeout=120
    )
    assert (
        missing.returncode == 2
        and "no expectation report" in missing.stderr
        and "Traceback" not in missing.stderr
    )


def test_ge_native_expectations_keep_their_names_and_run_our_pandas_kernels(stock_spec):
    from great_expectations.expectations.registry import _registered_metrics

    from prefect_autodata.expectations.to_gx import compile_suite, gx_context

    gx_context()
    providers = {
        name: _registered_metrics[f"{name}.condition"]["providers"]["PandasExecutionEngine"][1].__name__
        for name in ("compound_columns.unique", "column_values.match_regex")
    }
    assert providers == {"compound_columns.unique": "unique_rows", "column_values.match_regex": "match_regex"}
    types = {e["type"] for e in compile_suite(stock_spec)["expectations"]}
    assert {"expect_compound_columns_to_be_unique", "expect_column_values_to_match_regex"} <= types


@pytest.mark.parametrize(("every", "fails"), [(5, True), (20, False)])  # 20% or 5% nulls, 10% tolerated
def test_tolerated_null_fraction_is_judged_alike_by_both_engines(stocks_2024, every, fails):
    spec = CheckSpec.model_validate(
        {"name": "nulls", "checks": [{"kind": "not_null", "column": "close", "max_null_fraction": 0.1}]}
    )
    bad = stocks_2024.copy()
    bad.loc[bad.index[::every], "close"] = None
    res = enforce(bad, spec, policy="warn")
    verdicts = {r.engine: r.passed for r in res.checks if r.check == "not_null:close"}
    assert verdicts == {"gx": not fails, "pandera": not fails}
