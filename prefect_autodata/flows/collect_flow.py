"""The ``collect`` Prefect flow: instruction -> squads -> CollectorSpec + CheckSpec -> first full run ->
validation -> landing -> deployment, with the artefacts a reviewer needs attached to the flow run.

Agent turns are task runs (``tasks/agents.py``), the first run is the ``run_collector`` subflow
(exactly what the deployment reruns), and each run gets markdown/table artifacts: plan,
blueprint, spec with its diff against the previous version, validation summary linking the Data
Docs, token/cost per agent, and the OHCache hypergraph as a Mermaid chart.
"""

from __future__ import annotations

import contextvars
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.errors import ConfigError, TerminalError
from prefect_autodata.runtime.specdiff import spec_diff  # noqa: F401 - re-exported (the CLI imports it here)
from prefect_autodata.workspace import Workspace

if TYPE_CHECKING:
    from prefect_autodata.deployments.deploy import DeployResult


def _key(name: str, what: str) -> str:
    import re

    return re.sub(r"[^a-z0-9-]+", "-", f"{name}-{what}".lower()).strip("-")[:100]


def agent_usage(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per agent: turns, context tokens read, LLM tokens and cost, from the OHCache trace."""
    rows: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"turns": 0, "context_tokens": 0, "llm_tokens": 0, "cost_usd": 0.0}
    )

    def num(v: Any) -> float:
        try:
            return float(v)
        except (TypeError, ValueError):
            return 0.0

    for e in events:
        kind = e.get("event")
        role = e.get("role") or e.get("source")
        if not role:
            continue
        if kind == "edge":
            rows[role]["turns"] += 1
        elif kind == "context":
            rows[role]["context_tokens"] += int(num(e.get("tokens")))
        elif kind and kind.startswith("llm"):
            t = num(e.get("tokens")) or num(e.get("prompt_tokens")) + num(e.get("completion_tokens"))
            rows[role]["llm_tokens"] += int(t)
            rows[role]["cost_usd"] += num(e.get("cost_usd") or e.get("cost"))
    return [{"agent": r, **v, "cost_usd": round(v["cost_usd"], 6)} for r, v in sorted(rows.items())]


def _md_model(title: str, obj: Any) -> str:
    import yaml

    data = obj.model_dump(mode="json", exclude_none=True) if hasattr(obj, "model_dump") else obj
    return f"## {title}\n\n```yaml\n{yaml.safe_dump(data, sort_keys=False, allow_unicode=True)}```\n"


@task(name="deploy", cache_policy=NO_CACHE)
def deploy_task(spec: Any, **kwargs: Any) -> Any:
    """Register the collector's run_collector deployment (schedule, next runs and warnings logged)."""
    from prefect_autodata.deployments.deploy import deploy_collector
    from prefect_autodata.tasks.log import run_logger

    result = deploy_collector(spec, **kwargs)
    log = run_logger()
    log.info("deployment %s on work pool %s", result.deployment, result.work_pool)
    if result.schedule:
        log.info("schedule: %s; next runs: %s", result.schedule, "; ".join(result.next_runs))
    for w in result.warnings:
        log.warning("%s", w)
    return result


def _publish(squads: Any, saved: dict[str, Any] | None, run: dict[str, Any] | None, ws: Workspace) -> None:
    """Plan, blueprint, spec (+diff), validation summary, per-agent usage, hypergraph (as a table)."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    name = squads.spec.name if squads.spec is not None else "collect"
    create_markdown_artifact(
        markdown=_md_model("Plan", squads.plan), key=_key(name, "plan"), description="plan agent"
    )
    if squads.blueprint is not None:
        create_markdown_artifact(
            markdown=_md_model("Blueprint", squads.blueprint),
            key=_key(name, "blueprint"),
            description="blueprint agent",
        )
    if squads.spec is not None and saved is not None:
        body = f"## CollectorSpec `{name}` (version {squads.spec.version})\n\n```yaml\n{squads.spec.to_yaml()}```\n"
        if saved["diff"]:
            body += f"\n### Changes against the previous version\n\n```diff\n{saved['diff']}```\n"
        elif not saved["new"]:
            body += "\nUnchanged against the previous version.\n"
        create_markdown_artifact(markdown=body, key=_key(name, "spec"), description="collector spec")
    if run is not None and squads.checks is not None:
        from prefect_autodata.errors import AutoDataError
        from prefect_autodata.expectations.report import latest_summary

        try:
            summary = latest_summary(squads.checks.name, ws)
        except AutoDataError:
            summary = {}
        docs = summary.get("docs_path")
        failed = [c for c in summary.get("checks", []) if not c.get("passed", True)]
        lines = [
            f"## Validation of `{name}`: **{summary.get('status', run.get('checks_status'))}**",
            "",
            f"{run.get('rows_landed', 0)} rows landed in `{run.get('table')}`, "
            f"{summary.get('rows_quarantined', 0)} quarantined, {len(failed)} failing checks.",
        ]
        if failed:
            lines += ["", "| failed check | engine | observed |", "| --- | --- | --- |"]
            lines += [
                f"| {c.get('check')} | {c.get('engine', '')} | {str(c.get('observed', ''))[:80]} |"
                for c in failed[:20]
            ]
        if docs:
            from prefect_autodata.datadocs import page_url

            url = page_url(docs, ws)
            if url:
                lines.append(f"\n[Data Docs]({url}) (served by `autodata docs serve`) — file `{docs}`")
            else:
                lines.append(f"\nData Docs: `{docs}`")
        create_markdown_artifact(
            markdown="\n".join(lines) + "\n", key=_key(name, "validation"), description="validation summary"
        )
    from prefect_autodata.ohcache.trace import Trace, find_trace

    try:
        events = Trace.load(find_trace(ws.traces_dir, squads.trace_id))
    except Exception:  # no trace written: nothing to chart
        events = []
    usage = agent_usage(events)
    if usage:
        create_table_artifact(
            table=usage,
            key=_key(name, "agent-usage"),
            description=f"tokens and cost per agent ({squads.backend})",
        )
    edges = [e for e in events if e.get("event") == "edge"]
    if edges:
        create_table_artifact(
            table=hypergraph_rows(edges),
            key=_key(name, "hypergraph"),
            description=f"OHCache hypergraph of {squads.trace_id}: one row per message between agents",
        )


def hypergraph_rows(edges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hypergraph as a table a person reads: step, from, to, what was said, context read."""
    return [
        {
            "step": e.get("seq"),
            "from": e.get("source", ""),
            "to": ", ".join(e.get("targets") or []),
            "message": str(e.get("headline", ""))[:160],
            "kind": e.get("kind") or e.get("type") or "",
        }
        for e in edges
    ]


#: set by the CLI around a flow call: live progress and the overwrite question (callables are not parameters)
CLI_HOOKS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "autodata_cli_hooks", default=None
)


class CollectFailed(TerminalError):
    """The collect flow ended without a landed collector; ``result`` says why (a CollectResult)."""

    def __init__(self, message: str, result: Any) -> None:
        super().__init__(message)
        self.result = result


def _collect_run_name() -> str:
    """``collect aapl-daily-2024`` once the collector is named; until then the instruction's first words."""
    import re

    from prefect.runtime import flow_run

    params = flow_run.parameters or {}
    if params.get("name"):
        return f"collect {params['name']}"
    words = re.sub(r"[^A-Za-z0-9 &]+", " ", str(params.get("instruction") or "")).split()
    return "collect " + " ".join(words[:8])[:60]


def _rename_flow_run(name: str) -> None:
    from prefect import get_client
    from prefect.runtime import flow_run

    if not flow_run.id:
        return
    try:
        with get_client(sync_client=True) as client:
            client.update_flow_run(flow_run.id, name=f"collect {name}")
    except Exception:  # a cosmetic step: never fail a collection over it
        pass


def _run_as_subflow(spec: Any, db_path: str, *, checks: Any = None, today: Any = None) -> Any:
    """The first run as the ``run_collector`` subflow (what the deployment reruns); back as a RunResult."""
    from prefect_autodata.flows.run_collector import run_collector_flow_run

    return run_collector_flow_run(spec, db_path, checks=checks, today=today)


@flow(name="collect", flow_run_name=_collect_run_name, log_prints=True)
def collect_flow(
    instruction: str,
    sources: list[str] | None = None,
    fields: list[str] | None = None,
    name: str | None = None,
    schedule: str | None = None,
    timezone: str | None = None,
    deploy: bool = True,
    mirror: str | None = None,
    search_url: str | None = None,
    backend: str = "offline",
    db: str | None = None,
    destination: str | None = None,
    llm: str | None = None,
    crawler: str | None = None,
    search: str | None = None,
) -> dict[str, Any]:
    """One sentence in: a landed dataset, its checks and Data Docs, and a scheduled deployment out.

    Agent turns are tasks, the first run is the ``run_collector`` subflow, validation and deployment
    are tasks. ``destination``/``llm``/``crawler``/``search`` name saved autodata blocks.
    """
    from prefect_autodata.flows.collect import collect
    from prefect_autodata.tasks.agents import research_and_develop_task
    from prefect_autodata.tasks.log import run_logger

    hooks = CLI_HOOKS.get() or {}
    # the CLI hands over the originals of credential-bearing inputs out of band (parameters are redacted)
    instruction = hooks.get("instruction", instruction)
    sources = hooks.get("sources", sources)
    log = run_logger()
    cli_progress = hooks.get("progress")

    def say(stage: str, message: str) -> None:
        log.info("%s: %s", stage, message)
        if cli_progress is not None:
            cli_progress(stage, message)

    ws = Workspace.default().ensure()
    seen: dict[str, Any] = {}

    def observe(kind: str, value: Any) -> None:
        seen[kind] = value
        if kind == "squads" and getattr(value, "spec", None) is not None and not name:
            _rename_flow_run(value.spec.name)

    result = collect(
        instruction,
        sources=sources,
        fields=fields,
        name=name,
        db=db,
        backend=backend,
        workspace=ws,
        search_url=search_url,
        mirror=mirror,
        deploy=deploy,
        schedule=schedule,
        timezone=timezone,
        destination=destination,
        crawler=crawler,
        llm=llm,
        search=search,
        prepare=hooks.get("prepare"),
        confirm=hooks.get("confirm"),
        progress=say,
        research=research_and_develop_task,
        runner=_run_as_subflow,
        deployer=deploy_task,
        observe=observe,
    )
    squads = seen.get("squads")
    if squads is not None:
        saved = seen.get("saved")
        if saved is not None and squads.spec is not None:
            from pathlib import Path

            current = Path(saved["spec"]).read_text(encoding="utf-8")
            saved = {
                **saved,
                "diff": spec_diff(saved.get("previous"), current, squads.spec.name),
                "new": saved.get("previous") is None,
            }
        run = seen.get("run")
        _publish(squads, saved, run.summary() if run is not None else None, ws)
    if not result.ok:
        raise CollectFailed(f"collect {result.status}: {result.error or result.detail}", result)
    return result.model_dump(mode="json")


#: the module path a worker imports the collect flow from (the deployment uploads no code)
COLLECT_ENTRYPOINT = "prefect_autodata.flows.collect_flow.collect_flow"


def deploy_collect_flow(
    name: str = "autodata-collect",
    *,
    workspace: Workspace | None = None,
    pool: str | None = None,
    search_url: str | None = None,
    mirror: str | None = None,
    backend: str = "offline",
) -> DeployResult:
    """Register the ``collect`` flow itself, so a new collection starts from the UI (Custom run ->
    instruction): it researches, lands into this workspace and registers the new collector's deployment.

    ``search_url``/``mirror`` (demo, tests): the research searches there and fetches through the mirror
    while collecting; the collector deployments it registers keep the real hosts.
    """
    from prefect.types.entrypoint import EntrypointType

    from prefect_autodata.deployments.deploy import (
        PROCESS_POOL,
        DeploymentPlan,
        DeployResult,
        ensure_work_pool,
        package_version,
        write_entry,
    )
    from prefect_autodata.workspace import validate_name

    validate_name(name)
    if backend not in ("offline", "llm"):
        raise ConfigError(f"backend must be offline or llm, not {backend!r}")
    ws = (workspace or Workspace.default()).ensure()
    root = str(ws.root)
    parameters: dict[str, Any] = {"backend": backend, "deploy": True}
    if search_url:
        parameters["search_url"] = search_url
    env = {"AUTODATA_WORKSPACE": root, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    if mirror:
        from prefect_autodata.runtime.fetch import MIRROR_ENV

        parameters["mirror"] = mirror.rstrip("/")
        env[MIRROR_ENV] = mirror.rstrip("/")  # the collectors it deploys keep fetching through it
    plan = DeploymentPlan(
        name=name,
        collector="collect",
        description="Start a new autodata collection: give the instruction (and optionally fields, sources).",
        version=package_version(),
        parameters=parameters,
        work_pool=pool or PROCESS_POOL,
        job_variables={"env": env, "working_dir": root},
        tags=["autodata", "collect"],
    )
    entry = plan.yaml_entry() | {"entrypoint": COLLECT_ENTRYPOINT}
    path = write_entry(entry, ws.prefect_yaml)
    try:
        ensure_work_pool(plan.work_pool, "process")
        deployment = collect_flow.to_deployment(
            name=plan.name,
            parameters=plan.parameters,
            description=plan.description,
            tags=plan.tags,
            work_pool_name=plan.work_pool,
            job_variables=plan.job_variables,
            entrypoint_type=EntrypointType.MODULE_PATH,
        )
        deployment_id = str(deployment.apply())
    except (ConfigError, TerminalError):
        raise
    except Exception as exc:
        from prefect.settings import PREFECT_API_URL

        where = PREFECT_API_URL.value() or "the ephemeral Prefect server"
        raise TerminalError(
            f"could not register deployment collect/{name} with {where}: {type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else ''}"
        ) from exc
    return DeployResult(
        name=name,
        deployment=f"collect/{name}",
        deployment_id=deployment_id,
        work_pool=plan.work_pool,
        prefect_yaml=str(path),
        applied=True,
    )
