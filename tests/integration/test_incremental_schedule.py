"""A scheduled collector fetches only what is new: the deployment of a fixed-range spec is open-ended and
incremental, runs through the sandbox as a run-time mirror (``AUTODATA_MIRROR``), and on the second
simulated day requests and lands only that day."""

from __future__ import annotations

from datetime import date

import duckdb

from prefect_autodata.deployments.deploy import plan_deployment
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.deployments.incremental import open_ended
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec

DAY1, DAY2 = date(2024, 6, 3), date(2024, 6, 4)  # a Monday and the Tuesday after it


def _fixed_range_spec() -> CollectorSpec:
    """What an agent writes for "AAPL and MSFT daily prices": a fixed start/end, no incremental block."""
    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data.pop("incremental")
    data["name"] = "two-tickers-daily"
    data["table"] = "two_tickers_daily"
    data["sources"][0]["params"]["ticker"] = {"values": ["AAPL", "MSFT"]}
    return CollectorSpec.model_validate(data)


def test_open_ended_reads_the_spec_shape():
    spec = _fixed_range_spec()
    opened = open_ended(spec, DAY1)
    assert opened.incremental and not opened.closed_past
    inc = opened.spec.incremental
    assert (inc.cursor, inc.param, inc.end_param, inc.partition_by) == ("Date", "start", "end", "ticker")
    assert opened.spec.sources[0].params["end"].date == "today"
    assert open_ended(spec, date(2025, 3, 1)).closed_past  # 2024 ended long before that day
    # the range was the agents' default (the request named no time scope): opened all the same
    assert open_ended(spec, date(2025, 3, 1), reopen_past=True).incremental


def test_literal_dates_in_the_query_are_opened_too():
    """What the engineering agent writes for "every weekday after market close" with no range named:
    fixed dates straight in the query string."""
    data = _fixed_range_spec().model_dump(mode="json", exclude_none=True)
    src = data["sources"][0]
    src["request"]["params"].update(startDate="2024-01-02", endDate="2024-12-31")
    del src["params"]["start"], src["params"]["end"]
    spec = CollectorSpec.model_validate(data)
    closed = open_ended(spec, date(2026, 12, 1))
    assert closed.closed_past and not closed.incremental
    opened = open_ended(spec, date(2026, 12, 1), reopen_past=True)
    query, params = opened.spec.sources[0].request.params, opened.spec.sources[0].params
    assert (query["startDate"], query["endDate"]) == ("{start}", "{end}")
    assert (params["start"].date, params["end"].date) == ("2024-01-02", "today")
    assert opened.spec.incremental.partition_by == "ticker"


def test_scheduled_deployment_on_two_days_fetches_only_the_new_day(workspace, sandbox_url, monkeypatch):
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    plan = plan_deployment(
        _fixed_range_spec(), workspace=workspace, schedule="every weekday after market close", today=DAY1
    )
    assert plan.incremental and plan.schedule is not None and plan.schedule.timezone == "America/New_York"
    saved = CollectorSpec.load(plan.parameters["spec"])
    assert saved.incremental is not None  # the workspace collector is the open-ended one
    assert sandbox_url not in str(plan.parameters) and "127.0.0.1" not in str(plan.parameters)

    monkeypatch.setenv("AUTODATA_MIRROR", sandbox_url)  # the job variable a worker would get
    first = run_spec(plan.parameters["spec"], plan.parameters["destination"], today=DAY1)
    second = run_spec(plan.parameters["spec"], plan.parameters["destination"], today=DAY2)
    assert first.ok and second.ok, (first.error, second.error)

    con = duckdb.connect(plan.parameters["destination"], read_only=True)
    try:
        by_run = dict(
            con.execute("SELECT _autodata_run_id, max(Date) FROM two_tickers_daily GROUP BY 1").fetchall()
        )
        urls = [
            r[0]
            for r in con.execute(
                "SELECT url FROM _autodata_sources WHERE run_id = ? AND url NOT LIKE '%robots.txt'",
                [second.run_id],
            ).fetchall()
        ]
        days2 = con.execute(
            "SELECT DISTINCT Date FROM two_tickers_daily WHERE _autodata_run_id = ?", [second.run_id]
        ).fetchall()
    finally:
        con.close()
    assert by_run[first.run_id] == DAY1 and first.rows_landed > 2
    assert second.rows_landed == 2 and days2 == [(DAY2,)]  # one new row per ticker
    assert len(urls) == 2 and all("startDate=2024-06-04" in u and "endDate=2024-06-04" in u for u in urls)
