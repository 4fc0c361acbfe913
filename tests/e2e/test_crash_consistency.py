"""A run_collector flow run killed (SIGKILL) mid-fetch by the worker's machine leaves DuckDB consistent,
and the next run marks it aborted and resumes from the stored cursor.

It lives with the e2e tests because it needs the real server + process worker: the victim is the
flow-run process a worker started, found through Prefect's ``infrastructure_pid``.
"""

from __future__ import annotations

import os
import signal
import time
from datetime import date

import duckdb
import pytest

from prefect_autodata.deployments.deploy import deploy_collector
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.workspace import Workspace

TICKERS = ["AAPL", "MSFT", "NVDA", "JPM", "KO", "XOM", "AMZN", "V"]


def crashy_spec(end: str, rate: float = 0) -> CollectorSpec:
    """The AAPL example widened to 8 tickers; at 1 request/s a run spends seconds fetching."""
    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data["name"] = "crashy"
    data["table"] = "crashy"
    data["sources"][0]["params"]["ticker"] = {"values": TICKERS}
    data["sources"][0]["params"]["end"] = {"date": end}
    data["politeness"] = {"rate_limit_per_host": rate, "concurrency_per_host": 1}
    return CollectorSpec.parse(data)


def table_state(db: str) -> tuple[int, int, list]:
    con = duckdb.connect(db, read_only=True)
    try:
        n, distinct = con.execute('SELECT count(*), count(DISTINCT (ticker, "Date")) FROM crashy').fetchall()[
            0
        ]
        runs = con.execute(
            "SELECT run_id, flow_run_id, status, cursor_value FROM _autodata_runs ORDER BY started_at"
        ).fetchall()
    finally:
        con.close()
    return n, distinct, runs


def _wait_fetching(flow_run_id, timeout: float = 180) -> int:
    """Block until the flow run's fetch task is running; return the flow-run process id."""
    from prefect import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    deadline = time.monotonic() + timeout
    with get_client(sync_client=True) as client:
        while time.monotonic() < deadline:
            run = client.read_flow_run(flow_run_id)
            if run.state is not None and run.state.is_final():
                pytest.fail(f"flow run ended before it could be killed: {run.state.type}")
            tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id])))
            if run.infrastructure_pid and any(
                t.name.startswith("fetch") and t.state is not None and t.state.is_running() for t in tasks
            ):
                return int(str(run.infrastructure_pid).rsplit(":", 1)[-1])
            time.sleep(0.2)
    pytest.fail("the flow run never started fetching")


def test_killed_flow_run_leaves_duckdb_consistent_and_next_run_resumes(
    prefect_worker, sandbox_url, tmp_path, monkeypatch
):
    from prefect.deployments import run_deployment

    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    ws = Workspace(tmp_path / "ws").ensure()
    monkeypatch.setenv("AUTODATA_WORKSPACE", str(ws.root))
    db = str(ws.db_path)
    # first half of the year lands normally: the cursor is the last trading day of June
    first = run_spec(mirrored(crashy_spec("2024-06-30"), sandbox_url), db)
    assert first.status == "succeeded" and first.cursor_after == "2024-06-28"
    landed, _, _ = table_state(db)

    full = crashy_spec("2024-12-31")
    slow = crashy_spec("2024-12-31", rate=1)  # the deployed run is slow enough to be caught mid-fetch
    slow.save(ws.spec_path(slow.name))
    dep = deploy_collector(slow.name, workspace=ws, mirror=sandbox_url)
    flow_run = run_deployment(dep.deployment, timeout=0)
    pid = _wait_fetching(flow_run.id)
    os.kill(pid, signal.SIGKILL)

    # consistent: nothing half-landed, no duplicates, the killed run still says running
    n, distinct, runs = table_state(db)
    assert n == distinct == landed
    killed = [r for r in runs if r[1] == str(flow_run.id)]
    assert [r[2] for r in killed] == ["running"]

    # the next run: the dead one is marked aborted, fetching resumes after the stored cursor
    resumed = run_spec(mirrored(full, sandbox_url), db)
    assert resumed.status == "succeeded" and resumed.cursor_before == "2024-06-28"
    n, distinct, runs = table_state(db)
    assert [r[2] for r in runs if r[1] == str(flow_run.id)] == ["aborted"]
    con = duckdb.connect(db, read_only=True)
    try:
        urls = [
            u
            for (u,) in con.execute(
                "SELECT url FROM _autodata_sources WHERE run_id = ?", [resumed.run_id]
            ).fetchall()
        ]
    finally:
        con.close()
    assert urls and all("startDate=2024-06-29" in u for u in urls if "/prices" in u)
    stocks = load_table("stocks")
    days = stocks["date"].astype(str).str[:10]
    want = stocks[stocks["ticker"].isin(TICKERS) & (days >= "2024-01-01") & (days <= "2024-12-31")]
    assert n == distinct == len(want)
    assert resumed.cursor_after == max(days[want.index]) == str(date(2024, 12, 31))
