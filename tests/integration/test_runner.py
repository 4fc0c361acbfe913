"""The runner against the live sandbox over real HTTP: incremental reruns, failures recorded, nothing half-landed."""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.runner import dry_run
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN


@pytest.fixture()
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def daily_spec(sandbox_url) -> CollectorSpec:
    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data["name"] = "aapl-daily"
    data["sources"][0]["params"]["end"] = {"date": "today"}
    return mirrored(CollectorSpec.parse(data), sandbox_url)


def price_requests(db, run_id):
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT url FROM _autodata_sources WHERE run_id = ? AND url LIKE '%/prices%'", [run_id]
        )
        return [r[0] for r in rows.fetchall()]
    finally:
        con.close()


def test_unchanged_daily_spec_fetches_only_new_dates(sandbox_url, tmp_path, token):
    db = str(tmp_path / "d.duckdb")
    spec = daily_spec(sandbox_url)
    first = run_spec(spec, db, today=date(2024, 6, 3))
    assert first.status == "succeeded" and first.cursor_after == "2024-06-03"
    assert len(price_requests(db, first.run_id)) == 1

    same_day = run_spec(spec, db, today=date(2024, 6, 3))
    assert same_day.status == "succeeded"
    assert price_requests(db, same_day.run_id) == []  # nothing new: no request at all
    assert same_day.rows_landed == 0

    two_days_later = run_spec(spec, db, today=date(2024, 6, 5))
    urls = price_requests(db, two_days_later.run_id)
    assert len(urls) == 1 and "startDate=2024-06-04" in urls[0] and "endDate=2024-06-05" in urls[0]
    assert "token=REDACTED" in urls[0] and DEMO_TOKEN not in urls[0]
    assert two_days_later.rows_landed == 2
    con = duckdb.connect(db, read_only=True)
    n, distinct = con.execute('SELECT count(*), count(DISTINCT "Date") FROM aapl_daily_2024').fetchall()[0]
    con.close()
    assert n == distinct == first.rows_landed + 2


def failing(sandbox_url, **source_changes) -> CollectorSpec:
    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data["sources"][0].update(source_changes)
    return mirrored(CollectorSpec.parse(data), sandbox_url)


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"records": {"jsonpath": "$.nothing[*]"}}, "no records"),
        ({"request": {"url": "{base_url}/tiingo/daily/{ticker}/nope"}}, "HTTP 404"),
        (
            {"request": {"url": "{base_url}/tiingo/daily/{ticker}/prices", "params": {"token": "wrong"}}},
            "HTTP 401",
        ),
    ],
)
def test_failures_are_recorded_and_nothing_lands(sandbox_url, tmp_path, token, changes, needle):
    db = str(tmp_path / "f.duckdb")
    result = run_spec(failing(sandbox_url, **changes), db)
    assert result.status == "failed"
    assert needle in result.error and "\n" not in result.error
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT status, error FROM _autodata_runs").fetchall() == [("failed", result.error)]
    tables = con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_name = 'aapl_daily_2024'"
    )
    assert tables.fetchall() == []
    con.close()


def test_html_body_where_json_expected(sandbox_url, tmp_path, token):
    spec = failing(sandbox_url, request={"url": "{base_url}/documentation/end-of-day"})
    result = run_spec(spec, str(tmp_path / "h.duckdb"))
    assert result.status == "failed" and "expected json" in result.error.lower()


def test_dry_run_reports_structured_issues(sandbox_url, token):
    ok = dry_run(mirrored(load_example("tiingo-aapl-2024"), sandbox_url))
    assert ok.ok and ok.rows == 252 and ok.fill_rates["Close"] == 1.0
    broken = failing(
        sandbox_url,
        fields=[
            {"name": "Date", "type": "date", "jsonpath": "$.date"},
            {"name": "ticker", "from_param": "ticker"},
            {"name": "Close", "type": "float", "jsonpath": "$.closing"},
        ],
    )
    report = dry_run(broken)
    assert not report.ok
    assert any(i.kind == "empty_field" and i.field == "Close" and i.ratio == 1.0 for i in report.issues)
