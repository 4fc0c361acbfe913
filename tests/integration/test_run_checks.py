"""``run_spec(..., checks=...)``: policies at landing, check rows, quarantine with reasons, drift on reruns."""

from __future__ import annotations

import duckdb
import pytest

from prefect_autodata.deployments.examples import load_example
from prefect_autodata.expectations.spec import CheckSpec, DriftCheck, NotNullCheck, RangeCheck
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.sandbox.tasks import get_task


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def aapl(sandbox_url: str, end: str = "2024-12-31") -> CollectorSpec:
    """AAPL 2024 without the incremental cursor, so every run fetches the whole range."""
    data = mirrored(load_example("tiingo-aapl-2024"), sandbox_url).model_dump(mode="json", exclude_none=True)
    data.pop("incremental")
    data["sources"][0]["params"]["end"] = {"date": end}
    return CollectorSpec.parse(data)


def query(db: str, sql: str, params=()):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def tables(db: str) -> set[str]:
    return {r[0] for r in query(db, "SELECT table_name FROM information_schema.tables")}


def test_policy_fail_lands_nothing_and_records_the_checks(sandbox_url, tmp_path):
    db = str(tmp_path / "w.duckdb")
    checks = CheckSpec(name="aapl", policy="fail", checks=[RangeCheck(column="Close", max=100)])
    res = run_spec(aapl(sandbox_url), db, checks=checks)
    assert res.status == "failed_checks" and res.rows_landed == 0 and "nothing landed" in res.error
    assert "aapl_daily_2024" not in tables(db)  # not even an empty table
    assert query(db, "SELECT status, rows_landed FROM _autodata_runs WHERE run_id = ?", [res.run_id]) == [
        ("failed_checks", 0)
    ]
    failed = query(
        db, 'SELECT "check", failing_rows FROM _autodata_checks WHERE run_id = ? AND NOT passed', [res.run_id]
    )
    assert failed and all(n == 252 for _, n in failed)  # every 2024 close was above 100
    assert list(tmp_path.glob(f"data_docs/aapl/{res.run_id}.html"))  # Data Docs beside the database


def test_policy_quarantine_lands_exactly_the_good_rows(sandbox_url, tmp_path):
    db = str(tmp_path / "w.duckdb")
    checks = CheckSpec(
        name="aapl",
        policy="quarantine",
        checks=[RangeCheck(column="Close", max=190), NotNullCheck(column="Date")],
    )
    res = run_spec(aapl(sandbox_url), db, checks=checks)
    truth = get_task("t04-aapl-2024").ground_truth()
    expect_bad = int((truth["Close"] > 190).sum())
    assert 0 < expect_bad < len(truth)
    assert res.status == "succeeded" and res.rows_quarantined == expect_bad
    assert res.rows_landed == len(truth) - expect_bad
    assert query(db, "SELECT count(*), max(Close) FROM aapl_daily_2024")[0][0] == len(truth) - expect_bad
    assert query(db, "SELECT max(Close) FROM aapl_daily_2024")[0][0] <= 190
    bad = query(db, "SELECT * FROM aapl_daily_2024__quarantine")
    cols = [
        r[0]
        for r in query(
            db,
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'aapl_daily_2024__quarantine'",
        )
    ]
    assert len(bad) == expect_bad
    reasons = [r for row in bad for c, r in zip(cols, row, strict=True) if "check" in c.lower()]
    assert reasons and all("Close" in str(r) for r in reasons)
    assert query(
        db, "SELECT rows_quarantined, status FROM _autodata_runs WHERE run_id = ?", [res.run_id]
    ) == [(expect_bad, "succeeded")]
    assert query(db, "SELECT count(*) FROM _autodata_checks WHERE run_id = ?", [res.run_id])[0][0] >= 2


def test_drift_compares_with_the_last_succeeded_run(sandbox_url, tmp_path):
    db = str(tmp_path / "w.duckdb")
    checks = CheckSpec(name="aapl", policy="fail", checks=[DriftCheck(max_row_count_change=0.5)])
    first = run_spec(aapl(sandbox_url), db, checks=checks)
    assert first.status == "succeeded", first.error  # nothing to compare with yet
    assert query(db, "SELECT count(*) FROM _autodata_profiles WHERE run_id = ?", [first.run_id])[0][0] == 1
    same = run_spec(aapl(sandbox_url), db, checks=checks)
    assert same.status == "succeeded", same.error
    shrunk = run_spec(aapl(sandbox_url, end="2024-01-31"), db, checks=checks)  # 21 rows instead of 252
    assert shrunk.status == "failed_checks"
    failed = query(
        db, 'SELECT "check" FROM _autodata_checks WHERE run_id = ? AND NOT passed', [shrunk.run_id]
    )
    assert any("row_count" in c for (c,) in failed)
    assert query(db, "SELECT count(*) FROM aapl_daily_2024")[0][0] == 252  # the good state is kept
