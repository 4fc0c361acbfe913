"""Acceptance: ``autodata collect`` registers a deployment on a real server + process worker; the
Prefect UI runs it (Run -> Quick run) and its rows and lineage land in DuckDB. The screenshot is kept."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from prefect_autodata.sandbox.tasks import get_task

AUTODATA = str(Path(sys.executable).with_name("autodata"))
TASK = get_task("t07-toronto-raptors")  # no API token needed: the UI run hits the live sandbox directly


@pytest.fixture()
def collected(prefect_worker, prefect_env, sandbox_url, tmp_path):
    """``autodata collect`` (sources found through the sandbox's search, no ``--sandbox``): the spec
    names the session sandbox, which outlives the command, so the deployment's runs can fetch."""
    ws = tmp_path / "ws"
    proc = subprocess.run(
        [
            AUTODATA,
            "collect",
            TASK.instruction,
            "--search-url",
            sandbox_url,
            "--fields",
            ",".join(TASK.fields),
            "--json",
        ],
        env={**prefect_env, "AUTODATA_WORKSPACE": str(ws)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout)
    assert out["status"] == "succeeded", out
    assert out["deployed"] is True, out["warnings"]
    assert out["db"] == str(ws / "autodata.duckdb")
    return ws, out


def _ui_quick_run(base: str, deployment: str, shot: Path) -> str:
    """Drive the Prefect UI: Deployments -> the deployment -> Run -> Quick run -> wait for Completed.

    The "Flow run created" toast is transient (on a loaded machine it can come and go between two polls,
    or the dialog's Run click can land while the form still loads), so the new flow run is read from the
    server the UI talks to, and the UI's own flow-run page shows its final state."""
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    before = _flow_run_ids(deployment)
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
            # (older UIs start the run at once); on a loaded machine either can take a while to appear
            dialog = page.get_by_role("dialog")
            new: list[str] = []
            for i in range(480):
                new = [r for r in _flow_run_ids(deployment) if r not in before] if i % 4 == 0 else new
                if new:
                    break
                if dialog.is_visible() and i % 20 == 0:  # (again every 5 s while the dialog stays open)
                    dialog.get_by_role("button", name="Run", exact=True).click()
                page.wait_for_timeout(250)
            assert len(new) == 1, f"Quick run created {len(new)} flow runs of {deployment}"
            flow_run_id = new[0]
            page.goto(f"{base}/v2/runs/flow-run/{flow_run_id}", wait_until="networkidle")
            state = page.get_by_text(re.compile(r"^(Completed|Failed|Crashed)$")).first
            state.wait_for(timeout=180_000)
            final = state.inner_text()
            page.screenshot(path=str(shot), full_page=True)
            assert final == "Completed", f"flow run {flow_run_id} ended {final}"
            return flow_run_id
        finally:
            browser.close()


def _flow_run_ids(deployment: str) -> list[str]:
    """The ids of the flow runs of ``run_collector/<deployment>`` the server knows."""
    from prefect import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterId

    dep = _deployment(f"run_collector/{deployment}")
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[dep.id])))
    return [str(r.id) for r in runs]


def test_collect_then_quick_run_from_the_ui_lands_rows_with_lineage(
    collected, prefect_server, sandbox_url, artifacts_dir
):
    ws, out = collected
    name, table = out["name"], out["table"]
    # the registered deployment runs the saved spec into the workspace DuckDB, against the live sandbox
    params = _deployment(f"run_collector/{name}").parameters
    assert params["destination"] == str(ws / "autodata.duckdb")
    spec = yaml.safe_load((ws / "prefect.yaml").read_text())
    assert any(d["name"] == name for d in spec["deployments"])
    assert sandbox_url in Path(out["spec"]).read_text()

    shot = artifacts_dir / "prefect-ui-quick-run.png"
    base = prefect_server.removesuffix("/api")
    flow_run_id = _ui_quick_run(base, name, shot)
    assert shot.is_file() and shot.stat().st_size > 10_000

    truth = TASK.ground_truth()
    con = duckdb.connect(out["db"], read_only=True)
    try:
        runs = con.execute(
            "SELECT run_id, status, rows_landed FROM _autodata_runs WHERE flow_run_id = ?", [flow_run_id]
        ).fetchall()
        assert len(runs) == 1, runs
        run_id, status, rows_landed = runs[0]
        assert run_id != out["run_id"] and status == "succeeded"
        landed = con.execute(
            f'SELECT count(*), count(DISTINCT "YEAR"), min(_autodata_source_url), '
            f"count(_autodata_fetched_at) FROM {table} WHERE _autodata_run_id = ?",
            [run_id],
        ).fetchall()[0]
        total = con.execute(f'SELECT count(*), count(DISTINCT "YEAR") FROM {table}').fetchall()[0]
        urls = [
            r[0]
            for r in con.execute("SELECT url FROM _autodata_sources WHERE run_id = ?", [run_id]).fetchall()
        ]
    finally:
        con.close()
    assert rows_landed == landed[0] == landed[1] == landed[3] == len(truth)
    assert total == (len(truth), len(truth))  # the rerun replaced the collect run's rows, no duplicates
    # lineage: every landed row names a fetched request, and the requests went to the live sandbox
    assert urls and all(u.startswith(sandbox_url) for u in urls)
    assert landed[2] in urls
    record = _flow_run_record(flow_run_id)
    assert "run_collector" in record and name in record


def _deployment(full_name: str):
    """The deployment as the server stores it."""
    from prefect import get_client

    with get_client(sync_client=True) as client:
        return client.read_deployment_by_name(full_name)


def _flow_run_record(flow_run_id: str) -> str:
    """What the server keeps about one flow run (run, logs, artifacts, deployment), as text."""
    from uuid import UUID

    from prefect import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        LogFilter,
        LogFilterFlowRunId,
    )

    with get_client(sync_client=True) as client:
        fid = UUID(flow_run_id)
        run = client.read_flow_run(fid)
        logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[fid])))
        arts = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[fid]))
        )
        deployment = client.read_deployment(run.deployment_id)
    assert logs, "the flow run sent no logs"
    parts = [run.model_dump_json(), deployment.model_dump_json()]
    parts += [log.message for log in logs] + [a.model_dump_json() for a in arts]
    return "\n".join(parts)


COLLECT_TASK = get_task("t04-aapl-2024")


def _run_started_with(deployment: str, instruction: str) -> str | None:
    """The id of a flow run of ``deployment`` whose instruction parameter is ``instruction``, if any."""
    from prefect import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName

    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[deployment]))
        )
    for run in runs:
        if run.parameters.get("instruction") == instruction:
            return str(run.id)
    return None


def _ui_custom_run(base: str, deployment: str, instruction: str, shot: Path) -> str:
    """Deployments -> the collect deployment -> Run -> Custom run -> instruction -> Submit -> Completed."""
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.set_default_timeout(60_000)
            page.goto(f"{base}/v2/", wait_until="networkidle")
            page.get_by_role("link", name="Deployments").first.click()
            page.get_by_role("link", name=deployment).first.click()
            page.wait_for_url(re.compile(r".*/deployments/deployment/.*"))
            page.get_by_role("button", name="Run").first.click()
            page.get_by_role("menuitem", name="Custom run").click()
            page.wait_for_url(re.compile(r".*/run.*"))
            page.wait_for_load_state("networkidle")
            field = page.get_by_label(re.compile(r"^instruction", re.I))
            if not field.count():  # older/newer forms: the first text box of the parameters section
                field = page.locator("textarea, input[type='text']").first
            field.first.fill(instruction)
            page.screenshot(path=str(shot.with_name(shot.stem + "-form.png")), full_page=True)
            submit = page.get_by_role("button", name="Submit", exact=True)
            submit.click()
            # The UI confirms with a toast (and stays) or opens the run itself; either way the server now
            # holds a flow run of this deployment with the instruction typed above. The server is the
            # witness (a toast can come and go between two looks on a loaded machine).
            flow_run_id = None
            for attempt in range(480):
                if m := re.search(r"/runs/flow-run/([0-9a-f-]{36})", page.url):
                    flow_run_id = m.group(1)
                    break
                if attempt % 8 == 0 and (flow_run_id := _run_started_with(deployment, instruction)):
                    break
                if attempt == 120 and submit.is_visible() and submit.is_enabled():
                    # 30 s on the form and nothing on the server: the first click came before the
                    # form was ready; a second click submits it (nothing is created twice: none exists).
                    page.screenshot(path=str(shot.with_name(shot.stem + "-retry.png")), full_page=True)
                    submit.click()
                page.wait_for_timeout(250)
            else:
                page.screenshot(path=str(shot.with_name(shot.stem + "-nothing.png")), full_page=True)
                raise AssertionError("Submit created no flow run of the deployment within 120 s")
            if not re.search(r"/runs/flow-run/", page.url):
                page.goto(f"{base}/v2/runs/flow-run/{flow_run_id}", wait_until="networkidle")
            state = page.get_by_text(re.compile(r"^(Completed|Failed|Crashed)$")).first
            state.wait_for(timeout=600_000)
            final = state.inner_text()
            page.screenshot(path=str(shot), full_page=True)
            assert final == "Completed", f"flow run {flow_run_id} ended {final}"
            return flow_run_id
        finally:
            browser.close()


@pytest.mark.timeout(1200)  # deploy-collect + a whole research run; minutes on a loaded 2-core machine
def test_a_new_collection_started_from_the_ui_registers_its_collector(
    prefect_worker, prefect_env, prefect_server, sandbox_url, tmp_path, artifacts_dir
):
    """``autodata deploy-collect``: the UI's Custom run of the collect deployment researches, lands the
    rows and registers the new collector's run_collector deployment."""
    ws = tmp_path / "ws"
    proc = subprocess.run(
        [AUTODATA, "deploy-collect", "--search-url", sandbox_url, "--mirror", sandbox_url, "--json"],
        env={**prefect_env, "AUTODATA_WORKSPACE": str(ws)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["deployment"] == "collect/autodata-collect"
    shot = artifacts_dir / "prefect-ui-custom-collect.png"
    base = prefect_server.removesuffix("/api")
    flow_run_id = _ui_custom_run(base, "autodata-collect", COLLECT_TASK.instruction, shot)
    assert shot.is_file()
    from uuid import UUID

    from prefect import get_client

    with get_client(sync_client=True) as client:
        run = client.read_flow_run(UUID(flow_run_id))
        result_name = run.name.removeprefix("collect ")
        deployment = client.read_deployment_by_name(f"run_collector/{result_name}")
    assert run.parameters["instruction"] == COLLECT_TASK.instruction
    assert deployment.parameters["destination"] == str(ws / "autodata.duckdb")
    assert sandbox_url not in json.dumps(deployment.parameters)  # the collector names the real hosts
    con = duckdb.connect(str(ws / "autodata.duckdb"), read_only=True)
    try:
        (n,) = con.execute(
            "SELECT count(*) FROM _autodata_runs WHERE collector = ? AND status = 'succeeded'", [result_name]
        ).fetchall()[0]
    finally:
        con.close()
    assert n == 1
