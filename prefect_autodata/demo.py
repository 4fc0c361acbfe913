"""``autodata demo``: the whole product on one machine with no network, keys or servers to set up.

It starts the sandbox web, lets the offline agents turn one sentence into a collector, runs it
(DuckDB + lineage + expectations with a Data Docs page) and registers the collector as a
scheduled deployment on Prefect (the configured API, else Prefect's ephemeral local server).
If the agents cannot produce a collector, the demo says so and falls back to the shipped
``sp500-daily`` example so the rest of the path is still shown, never silently.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from prefect_autodata.errors import AutoDataError
from prefect_autodata.workspace import Workspace

DEFAULT_INSTRUCTION = "Collect the daily stock information of AAPL in 2024."
DEFAULT_SCHEDULE = "every weekday after market close"
#: where the demo's scheduled runs find the imitation web: ``autodata sandbox serve`` on its default port
#: (override with AUTODATA_SANDBOX_URL); a job variable of the deployment, never part of the spec
PERSISTENT_SANDBOX = "http://127.0.0.1:8765"


def persistent_sandbox_url() -> str:
    import os

    return (os.environ.get("AUTODATA_SANDBOX_URL") or PERSISTENT_SANDBOX).rstrip("/")


FALLBACK_EXAMPLE = "sp500-daily"


class DemoResult(BaseModel):
    """What ``autodata demo --json`` prints."""

    status: Literal["succeeded", "failed"]
    db: str
    table: str | None = None
    rows: int = 0
    report: str | None = Field(None, description="Path of the run's Data Docs page.")
    deployment: str | None = Field(None, description="flow/deployment name on Prefect.")
    deployment_id: str | None = None
    prefect_api: str | None = None
    prefect_yaml: str | None = None
    schedule: str | None = None
    next_runs: list[str] = Field(default_factory=list)
    mirror: str | None = Field(None, description="The AUTODATA_MIRROR job variable of the deployment.")
    collect_deployment: str | None = Field(None, description="The collect flow's deployment (UI runs).")
    collector: str | None = None
    spec: str | None = None
    instruction: str
    agents: Literal["offline", "fallback-example"] = "offline"
    records: str | None = Field(
        None, description="Which records the sandbox served (real or generated samples)."
    )
    seconds: float = 0.0
    warnings: list[str] = Field(default_factory=list)
    error: str | None = None


def _fallback(ws: Workspace, mirror: str, say: Callable[[str, str], None]):
    """Run the shipped example (with its checks) through the same runtime as a generated collector."""
    from prefect_autodata.deployments.examples import EXAMPLES_DIR, load_example
    from prefect_autodata.expectations.spec import load_checks, save_checks
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.spec import mirrored
    from prefect_autodata.sandbox.server import sandbox_secrets

    spec = load_example(FALLBACK_EXAMPLE)
    checks = load_checks(EXAMPLES_DIR / "checks" / "stocks.checks.yaml")
    spec.save(ws.spec_path(spec.name))
    save_checks(checks, ws.checks_path(spec.name))
    sandbox_secrets(spec)
    say("run", f"running the shipped {spec.name} collector on the sandbox")
    return spec, checks, run_spec(mirrored(spec, mirror), ws.db_path, checks=checks)


def _report_path(ws: Workspace, checks_name: str | None, run_id: str | None) -> str | None:
    if not checks_name:
        return None
    from prefect_autodata.expectations.report import latest_summary

    try:
        summary = latest_summary(checks_name, ws)
    except AutoDataError:
        return None
    if run_id and summary.get("run_id") != run_id:
        return None
    return summary.get("docs_path")


def run_demo(
    instruction: str = DEFAULT_INSTRUCTION,
    *,
    workspace: Workspace | None = None,
    schedule: str = DEFAULT_SCHEDULE,
    progress: Callable[[str, str], None] | None = None,
) -> DemoResult:
    """Sandbox up -> collect -> land + checks + Data Docs -> deployment; returns where each result is."""
    from prefect_autodata.deployments.deploy import deploy_collector
    from prefect_autodata.expectations.spec import load_checks
    from prefect_autodata.flows.collect import collect
    from prefect_autodata.sandbox.data import describe as sandbox_records
    from prefect_autodata.sandbox.server import SandboxServer, sandbox_secrets

    t0 = time.monotonic()
    say = progress or (lambda _s, _m: None)
    ws = (workspace or Workspace.default()).ensure()
    out = DemoResult(status="failed", db=str(ws.db_path), instruction=instruction, records=sandbox_records())
    with SandboxServer() as server:
        say("sandbox", f"local imitation web on {server.base_url}")
        try:
            res = collect(
                instruction,
                workspace=ws,
                search_url=server.base_url,
                mirror=server.base_url,
                deploy=False,
                prepare=sandbox_secrets,
                progress=say,
            )
        except AutoDataError as exc:
            res = None
            out.warnings.append(f"the agents failed: {exc}")
        if res is not None and res.ok and res.name:
            name, run_id, table, rows = res.name, res.run_id, res.table, res.rows
            out.spec = res.spec
            checks_name = load_checks(res.checks).name if res.checks else None
            out.warnings += res.warnings
        else:
            if res is not None:
                out.warnings.append(
                    f"the agents did not produce a working collector ({res.status}: {res.error}); "
                    f"showing the shipped {FALLBACK_EXAMPLE} collector instead"
                )
            out.agents = "fallback-example"
            spec, checks, run = _fallback(ws, server.base_url, say)
            if not run.ok:
                out.error = f"the collector run {run.status}: {run.error}"
                out.seconds = round(time.monotonic() - t0, 2)
                return out
            name, run_id, table, rows = spec.name, run.run_id, run.table, run.rows_landed
            out.spec = str(ws.spec_path(spec.name))
            checks_name = checks.name
        out.collector, out.table, out.rows = name, table, rows
        out.report = _report_path(ws, checks_name, run_id)
        say("deploy", f"registering {name} on Prefect ({schedule})")
        try:
            # the scheduled runs fetch through a sandbox that outlives this command (a job variable)
            dep = deploy_collector(name, workspace=ws, schedule=schedule, mirror=persistent_sandbox_url())
            # and the collect flow itself, so the next collection can start from the UI
            from prefect_autodata.flows.collect_flow import deploy_collect_flow

            sandbox = persistent_sandbox_url()
            out.collect_deployment = deploy_collect_flow(
                workspace=ws, search_url=sandbox, mirror=sandbox
            ).deployment
        except AutoDataError as exc:
            out.error = str(exc)
            out.seconds = round(time.monotonic() - t0, 2)
            return out
    from prefect.settings import PREFECT_API_URL

    out.deployment, out.deployment_id = dep.deployment, dep.deployment_id
    out.prefect_yaml, out.schedule = dep.prefect_yaml, dep.schedule
    out.next_runs, out.mirror = dep.next_runs, persistent_sandbox_url()
    out.warnings += dep.warnings
    out.prefect_api = (
        PREFECT_API_URL.value() or "ephemeral (Prefect's local database; `prefect server start` shows it)"
    )
    out.status = "succeeded" if out.report and out.rows else "failed"
    if out.report is None:
        out.error = "no Data Docs page was written for this run"
    out.seconds = round(time.monotonic() - t0, 2)
    return out


def demo_summary_items(r: DemoResult) -> list[tuple[str, object]]:
    """Label -> value rows of the closing summary."""
    return [
        ("instruction", r.instruction),
        ("agents", r.agents),
        ("records", r.records),
        ("dataset", f"{r.rows} rows in table {r.table}" if r.table else None),
        ("DuckDB", r.db),
        ("spec", r.spec),
        ("Data Docs", Path(r.report).resolve().as_uri() if r.report else None),
        ("deployment", r.deployment),
        ("schedule", r.schedule),
        ("next runs", "; ".join(r.next_runs) if r.next_runs else None),
        (
            "scheduled runs",
            f"fetch through {r.mirror}: keep `autodata sandbox serve` running" if r.mirror else None,
        ),
        ("Prefect API", r.prefect_api),
        ("prefect.yaml", r.prefect_yaml),
        (
            "new collections",
            f"{r.collect_deployment}: Run -> Custom run in the UI" if r.collect_deployment else None,
        ),
        ("seconds", r.seconds),
    ]
