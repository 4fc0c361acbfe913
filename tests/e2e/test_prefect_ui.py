"""Acceptance: a collector registered from the CLI runs from the Prefect UI (Run -> Quick run) on a
real server + process worker, and its rows and lineage land in DuckDB. The screenshot is kept."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from prefect_autodata.deployments.examples import load_example
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.sandbox.tasks import get_task

AUTODATA = str(Path(sys.executable).with_name("autodata"))
COLLECTOR = "tiingo-aapl-2024"
TASK = "t04-aapl-2024"


@pytest.fixture()
def deployed(prefect_worker, prefect_env, sandbox_url, tmp_path):
    """``autodata deploy`` of the collector, its hosts served by the session sandbox."""
    ws = tmp_path / "ws"
    env = {**prefect_env, "AUTODATA_WORKSPACE": str(ws), "AUTODATA_SECRET_TIINGO_TOKEN": DEMO_TOKEN}
    proc = subprocess.run(
        [
            AUTODATA,
            "deploy",
            COLLECTOR,
            "--mirror",
            sandbox_url,
            "--schedule",
            "every weekday after market close",
            "--json",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["applied"] and out["deployment"] == f"run_collector/{COLLECTOR}"
    return ws, out


def _ui_quick_run(base: str, deployment: str, shot: Path) -> str:
    """Drive the Prefect UI: Deployments -> the deployment -> Run -> Quick run -> wait for Completed."""
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            page.goto(f"{base}/v2/", wait_until="networkidle")
            page.get_by_role("link", name="Deployments").first.click()
            page.get_by_role("link", name=deployment).first.click()
            page.wait_for_url(re.compile(r".*/deployments/deployment/.*"))
            page.get_by_role("button", name="Run").first.click()
            page.get_by_role("menuitem", name="Quick run").click()
            # run_collector has required parameters: the UI confirms them (prefilled from the deployment)
            dialog = page.get_by_role("dialog")
            try:
                dialog.wait_for(timeout=5_000)
                dialog.get_by_role("button", name="Run", exact=True).click()
            except Exception:  # older UIs start the run at once
                pass
            page.get_by_text("Flow run created").first.wait_for()
            page.get_by_role("button", name="View run").first.click()
            page.wait_for_url(re.compile(r".*/runs/flow-run/[0-9a-f-]{36}.*"))
            flow_run_id = re.search(r"/runs/flow-run/([0-9a-f-]{36})", page.url).group(1)
            state = page.get_by_text(re.compile(r"^(Completed|Failed|Crashed)$")).first
            state.wait_for(timeout=180_000)
            final = state.inner_text()
            page.screenshot(path=str(shot), full_page=True)
            assert final == "Completed", f"flow run {flow_run_id} ended {final}"
            return flow_run_id
        finally:
            browser.close()


def test_quick_run_from_the_ui_lands_rows_with_lineage(deployed, prefect_server, artifacts_dir):
    ws, out = deployed
    shot = artifacts_dir / "prefect-ui-quick-run.png"
    base = prefect_server.removesuffix("/api")
    flow_run_id = _ui_quick_run(base, COLLECTOR, shot)
    assert shot.is_file() and shot.stat().st_size > 10_000

    spec = load_example(COLLECTOR)
    truth = get_task(TASK).ground_truth()
    con = duckdb.connect(str(ws / "autodata.duckdb"), read_only=True)
    try:
        runs = con.execute(
            "SELECT run_id, status, rows_landed, spec_hash FROM _autodata_runs WHERE flow_run_id = ?",
            [flow_run_id],
        ).fetchall()
        assert len(runs) == 1, runs
        run_id, status, rows_landed, spec_hash = runs[0]
        assert status == "succeeded"
        assert rows_landed == len(truth)
        landed = con.execute(
            f"SELECT count(*), count(DISTINCT Date), min(_autodata_source_url) FROM {spec.table_name} "
            "WHERE _autodata_run_id = ?",
            [run_id],
        ).fetchall()[0]
        assert landed[0] == landed[1] == len(truth)
        urls = [
            r[0]
            for r in con.execute("SELECT url FROM _autodata_sources WHERE run_id = ?", [run_id]).fetchall()
        ]
    finally:
        con.close()
    # lineage names the API request, with the token redacted (it came from a Prefect Secret block)
    assert urls and any("/tiingo/daily/AAPL/prices" in u for u in urls)
    assert landed[2] in urls
    assert all(DEMO_TOKEN not in u for u in urls) and any("REDACTED" in u for u in urls)
    assert "TIINGO_TOKEN" in out["secrets_stored"]
    assert DEMO_TOKEN not in (ws / "prefect.yaml").read_text()
    # ...and the flow run as Prefect stores it (parameters, logs, artifacts) never holds the token either
    stored = _flow_run_record(flow_run_id)
    assert "run_collector" in stored and DEMO_TOKEN not in stored
    assert DEMO_TOKEN not in (artifacts_dir / "prefect-worker.log").read_text()


def _flow_run_record(flow_run_id: str) -> str:
    """Everything the server keeps about one flow run and its deployment, as one string."""
    from uuid import UUID

    from prefect import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        LogFilter,
        LogFilterFlowRunId,
    )

    fid = UUID(flow_run_id)
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(fid)
        logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[fid])))
        arts = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[fid]))
        )
        deployment = client.read_deployment(run.deployment_id)
    parts = [run.model_dump_json(), deployment.model_dump_json()]
    parts += [log.message for log in logs] + [a.model_dump_json() for a in arts]
    assert logs, "the flow run sent no logs"
    return "\n".join(parts)
