"""The ``collect`` flow on the real server: agent turns are named task runs, the first run is the
``run_collector`` subflow, the per-run artifacts exist, and the collector ends up deployed."""

from __future__ import annotations

import json

import duckdb

from prefect_autodata.flows.collect_flow import collect_flow
from prefect_autodata.sandbox.tasks import get_task


def test_collect_flow_tasks_artifacts_and_deployment(prefect_server, sandbox_url, tmp_path, monkeypatch):
    from prefect import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        FlowRunFilter,
        FlowRunFilterId,
        FlowRunFilterParentFlowRunId,
    )

    monkeypatch.setenv("AUTODATA_WORKSPACE", str(tmp_path / "ws"))
    task = get_task("t04-aapl-2024")
    state = collect_flow(
        task.instruction,
        mirror=sandbox_url,
        search_url=sandbox_url,
        schedule="every weekday after market close",
        return_state=True,
    )
    assert state.is_completed(), state.message
    out = state.result()
    assert out["rows"] == len(task.ground_truth()) and out["deployment"] == f"run_collector/{out['name']}"
    con = duckdb.connect(out["db"], read_only=True)
    try:
        n = con.execute(f'SELECT count(*) FROM "{out["table"]}"').fetchall()[0][0]
    finally:
        con.close()
    assert n == out["rows"]

    flow_run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
        names = {t.name.rsplit("-", 1)[0] if t.name[-4:-3] == "-" else t.name for t in tasks}
        subflows = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[flow_run_id]))
        )
        arts = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]))
        )
        deployment = client.read_deployment_by_name(out["deployment"])
    # every agent turn is a task run named after its role
    assert {"plan", "web", "blueprint", "engineering", "test", "validation", "manager"} <= names, names
    assert {"research-and-develop", "deploy"} <= names
    # the first full run is the run_collector subflow, named after what it runs
    assert [f.name.rsplit(" ", 1)[0] for f in subflows] == [f"run {out['name']}"]
    keys = {a.key for a in arts if a.key}
    for what in ("plan", "blueprint", "spec", "validation", "agent-usage", "hypergraph"):
        assert f"{out['name']}-{what}" in keys, (what, keys)
    validation = next(a for a in arts if a.key == f"{out['name']}-validation")
    assert "Data Docs" in validation.data and ".html" in validation.data
    hyper = next(a for a in arts if a.key == f"{out['name']}-hypergraph")
    rows = json.loads(hyper.data)  # a table: one row per message between agents
    assert rows and {"step", "from", "to", "message"} <= set(rows[0])
    assert {r["from"] for r in rows} >= {"manager", "plan", "engineering"}
    assert deployment.schedules
