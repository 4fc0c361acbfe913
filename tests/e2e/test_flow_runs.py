"""Every run is a flow run on the real server: ``autodata collect`` and ``autodata run`` leave named flow
runs with named tasks and logs that say what happened; a scheduled deployment run by the worker on two
simulated days fetches only the new day through the ``AUTODATA_MIRROR`` job variable; failed checks
trigger the deployment's automation, which posts to a webhook block on a loopback server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb

from prefect_autodata.sandbox.server import free_port

AUTODATA = str(Path(sys.executable).with_name("autodata"))


def _cli(args, env, cwd, timeout=400):
    return subprocess.run(
        [AUTODATA, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def _flow_run(client, flow_run_id):
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId, LogFilter, LogFilterFlowRunId

    run = client.read_flow_run(flow_run_id)
    tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
    logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[flow_run_id])))
    return run, {t.name.rsplit("-", 1)[0] for t in tasks}, "\n".join(entry.message for entry in logs)


def test_cli_collect_and_run_leave_named_flow_runs_with_informative_logs(
    prefect_server, prefect_env, tmp_path
):
    from prefect import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterParentFlowRunId
    from prefect.client.schemas.sorting import FlowRunSort

    env = {**prefect_env, "AUTODATA_WORKSPACE": str(tmp_path / "ws")}
    p = _cli(
        ["collect", "Collect the daily stock information of AAPL in 2024.", "--sandbox", "--json"],
        env,
        tmp_path,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout)
    name = out["name"]
    with get_client(sync_client=True) as client:
        # other tests of the session may have collected the same collector: take this command's run
        collect_run = [
            r
            for r in client.read_flow_runs(sort=FlowRunSort.START_TIME_DESC, limit=50)
            if r.name == f"collect {name}"
        ][0]
        assert collect_run.state.is_completed()
        _, agent_tasks, logs = _flow_run(client, collect_run.id)
        assert {"research-and-develop", "plan", "engineering", "validation", "deploy"} <= agent_tasks
        assert "spec saved to" in logs and "deployment run_collector/" in logs
        (sub,) = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(
                parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[collect_run.id])
            )
        )
        assert sub.name == f"run {name} {date.today()}"
        _, tasks, logs = _flow_run(client, sub.id)
        assert {"fetch", "extract", "validate", "land"} <= tasks
        assert "GET http://127.0.0.1:" in logs and "/api.tiingo.com/" in logs and "token=REDACTED" in logs
        assert f"landed {out['rows']} rows in {out['table']}" in logs
        assert "checks passed (policy" in logs and "Data Docs:" in logs and ".html" in logs
        deployment = client.read_deployment_by_name(f"run_collector/{name}")
    # the deployment names the real hosts: no sandbox port baked in
    assert "127.0.0.1" not in json.dumps(deployment.parameters) + json.dumps(deployment.job_variables or {})

    p = _cli(["run", name, "--sandbox", "--json"], env, tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    res = json.loads(p.stdout)
    assert res["status"] == "succeeded" and res["flow_run_id"]
    with get_client(sync_client=True) as client:
        run, tasks, logs = _flow_run(client, res["flow_run_id"])
    assert run.name == f"run {name} {date.today()}" and run.state.is_completed()
    assert {"fetch", "extract", "validate", "land"} <= tasks and f"run {res['run_id']} of {name}" in logs


def test_scheduled_deployment_fetches_only_the_new_day(
    prefect_worker, prefect_env, sandbox_url, tmp_path, monkeypatch
):
    """The worker runs the deployment twice (two simulated days, the mirror as a job variable)."""
    from prefect.deployments import run_deployment

    from prefect_autodata.deployments.deploy import deploy_collector
    from prefect_autodata.deployments.examples import load_example
    from prefect_autodata.runtime.spec import CollectorSpec
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
    from prefect_autodata.workspace import Workspace

    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data.pop("incremental")
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)  # stored as a Secret block for the worker
    spec = CollectorSpec.model_validate({**data, "name": "aapl-scheduled", "table": "aapl_scheduled"})
    ws = Workspace(tmp_path / "ws").ensure()
    dep = deploy_collector(
        spec, workspace=ws, schedule="every weekday after market close", today=date(2024, 6, 3)
    )
    assert dep.incremental and dep.schedule and len(dep.next_runs) == 3
    days = [date(2024, 6, 3), date(2024, 6, 4)]
    runs = [
        run_deployment(
            dep.deployment,
            parameters={"today": d.isoformat()},
            job_variables={"env": {"AUTODATA_WORKSPACE": str(ws.root), "AUTODATA_MIRROR": sandbox_url}},
            timeout=300,
        )
        for d in days
    ]
    assert all(r.state.is_completed() for r in runs), [r.state for r in runs]
    con = duckdb.connect(str(ws.db_path), read_only=True)
    try:
        per_run = con.execute(
            "SELECT r.flow_run_id, count(*), min(t.Date), max(t.Date) FROM aapl_scheduled t "
            "JOIN _autodata_runs r ON r.run_id = t._autodata_run_id GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    by_flow_run = {row[0]: row[1:] for row in per_run}
    first, second = (by_flow_run[str(r.id)] for r in runs)
    assert first[2] == days[0] and first[0] > 1
    assert second == (1, days[1], days[1])  # only the new day


class _Hook(BaseHTTPRequestHandler):
    bodies: list[str] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        n = int(self.headers.get("content-length") or 0)
        _Hook.bodies.append(self.rfile.read(n).decode("utf-8", "replace"))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_failed_checks_notify_the_webhook_block(
    prefect_worker, prefect_env, sandbox_url, tmp_path, monkeypatch
):
    from prefect.blocks.notifications import CustomWebhookNotificationBlock
    from prefect.deployments import run_deployment

    from prefect_autodata.deployments.deploy import deploy_collector
    from prefect_autodata.deployments.examples import load_example
    from prefect_autodata.expectations.spec import CheckSpec
    from prefect_autodata.runtime.spec import CollectorSpec
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
    from prefect_autodata.workspace import Workspace

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        CustomWebhookNotificationBlock(
            name="e2e-hook", url=url, json_data={"text": "{{subject}}: {{body}}"}
        ).save("e2e-hook", overwrite=True)
        data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
        monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
        spec = CollectorSpec.model_validate({**data, "name": "aapl-hooked", "table": "aapl_hooked"})
        checks = CheckSpec.model_validate(
            {"name": "aapl-hooked", "policy": "warn", "checks": [{"kind": "row_count", "min": 10**6}]}
        )
        ws = Workspace(tmp_path / "ws").ensure()
        dep = deploy_collector(spec, workspace=ws, checks=checks, notify_block="e2e-hook")
        assert dep.automation_id
        run = run_deployment(
            dep.deployment,
            job_variables={"env": {"AUTODATA_WORKSPACE": str(ws.root), "AUTODATA_MIRROR": sandbox_url}},
            timeout=300,
        )
        assert run.state.is_completed()  # policy warn: the rows land, the checks still failed
        deadline = time.monotonic() + 120
        while not _Hook.bodies and time.monotonic() < deadline:
            time.sleep(1)
        assert _Hook.bodies, "the automation did not post to the webhook"
        body = _Hook.bodies[0]
        assert "aapl-hooked failed its checks" in body and "row_count" in body and "policy warn" in body
    finally:
        server.shutdown()


def test_source_credentials_never_reach_the_flow_run_parameters(prefect_server, prefect_env, tmp_path):
    """A token in a --source URL is used by the agents but stored by the Prefect API only as REDACTED."""
    from prefect import get_client
    from prefect.client.schemas.sorting import FlowRunSort

    secret = "zq81-Fm3k-secret-value"
    env = {**prefect_env, "AUTODATA_WORKSPACE": str(tmp_path / "ws")}
    source = f"http://127.0.0.1:{free_port()}/books?api_key={secret}"
    p = _cli(
        ["collect", "Collect every book on this site with title and price", "--source", source], env, tmp_path
    )
    assert secret not in p.stdout + p.stderr
    with get_client(sync_client=True) as client:
        runs = [
            r
            for r in client.read_flow_runs(sort=FlowRunSort.START_TIME_DESC, limit=50)
            if r.name.startswith("collect")
        ]
        assert runs, "the collect command left no flow run"
        stored = json.dumps([r.parameters for r in runs]) + json.dumps([r.name for r in runs])
    assert secret not in stored
    assert "REDACTED" in stored
