"""The ``collect`` Prefect flow: instruction -> squads -> CollectorSpec + CheckSpec -> first full run ->
validation -> landing -> deployment, with the artefacts a reviewer needs attached to the flow run.

Agent turns are task runs (``tasks/agents.py``), the first run is the ``run_collector`` subflow
(exactly what the deployment reruns), and each run gets markdown/table artifacts: plan,
blueprint, spec with its diff against the previous version, validation summary linking the Data
Docs, token/cost per agent, and the OHCache hypergraph as a Mermaid chart.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.errors import TerminalError
from prefect_autodata.workspace import Workspace


def _key(name: str, what: str) -> str:
    import re

    return re.sub(r"[^a-z0-9-]+", "-", f"{name}-{what}".lower()).strip("-")[:100]


def spec_diff(previous: str | None, current: str, name: str) -> str:
    """Unified diff of the spec YAML against the version it replaces (empty when unchanged)."""
    if previous is None:
        return ""
    return "".join(
        difflib.unified_diff(
            previous.splitlines(keepends=True),
            current.splitlines(keepends=True),
            fromfile=f"{name} (previous)",
            tofile=f"{name} (new)",
        )
    )


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


@task(name="save-collector", cache_policy=NO_CACHE)
def save_collector(spec_yaml: str, checks: dict | None, root: str) -> dict[str, Any]:
    """Write spec + checks into the workspace; return paths and the spec diff against the previous version.

    Takes plain data (YAML text, a dict, a path): task inputs are shown in the UI.
    """
    from pathlib import Path

    from prefect_autodata.expectations.spec import CheckSpec, save_checks
    from prefect_autodata.runtime.spec import CollectorSpec

    workspace = Workspace(Path(root))
    spec = CollectorSpec.from_yaml(spec_yaml)
    path = workspace.spec_path(spec.name)
    previous = path.read_text(encoding="utf-8") if path.is_file() else None
    spec.save(path)
    checks_path = None
    if checks is not None:
        checks_path = save_checks(CheckSpec.model_validate(checks), workspace.checks_path(spec.name))
    return {
        "spec": str(path),
        "checks": str(checks_path) if checks_path else None,
        "diff": spec_diff(previous, path.read_text(encoding="utf-8"), spec.name),
        "new": previous is None,
    }


@task(name="deploy", cache_policy=NO_CACHE)
def deploy_task(name: str, root: str, **kwargs: Any) -> dict[str, Any]:
    from pathlib import Path

    from prefect_autodata.deployments.deploy import deploy_collector

    return deploy_collector(name, workspace=Workspace(Path(root)), **kwargs).model_dump(mode="json")


def _publish(squads: Any, saved: dict[str, Any] | None, run: dict[str, Any] | None, ws: Workspace) -> None:
    """Plan, blueprint, spec (+diff), validation summary, per-agent usage, hypergraph."""
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
        if docs:
            from pathlib import Path

            lines.append(f"\n[Data Docs]({Path(docs).resolve().as_uri()}) — `{docs}`")
        create_markdown_artifact(
            markdown="\n".join(lines) + "\n", key=_key(name, "validation"), description="validation summary"
        )
    from prefect_autodata.ohcache.render import to_mermaid
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
        create_markdown_artifact(
            markdown=f"## OHCache hypergraph (`{squads.trace_id}`)\n\n```mermaid\n{to_mermaid(edges)}\n```\n",
            key=_key(name, "hypergraph"),
            description="messages between agents",
        )


@flow(name="collect", log_prints=True)
def collect_flow(
    instruction: str,
    sources: list[str] | None = None,
    fields: list[str] | None = None,
    name: str | None = None,
    schedule: str | None = None,
    deploy: bool = True,
    mirror: str | None = None,
    search_url: str | None = None,
    backend: str = "offline",
) -> dict[str, Any]:
    """One sentence in: a landed dataset, its checks and Data Docs, and a scheduled deployment out."""
    from prefect_autodata.agents.squads import runnable
    from prefect_autodata.flows.run_collector import run_collector
    from prefect_autodata.tasks.agents import research_and_develop_task

    ws = Workspace.default().ensure()
    squads = research_and_develop_task(
        instruction,
        sources=sources,
        fields=fields,
        name=name,
        backend=backend,
        workspace=ws,
        search_url=search_url,
        mirror=mirror,
    )
    if not squads.ok:
        _publish(squads, None, None, ws)
        missing = "; ".join(squads.plan.missing) if squads.stop_reason == "unresolvable" else ""
        raise TerminalError(
            f"no collector for this instruction ({squads.stop_reason}): {missing or squads.detail}"
        )
    checks = squads.checks.model_dump(mode="json", exclude_none=True) if squads.checks else None
    saved = save_collector(squads.spec.to_yaml(), checks, str(ws.root))
    spec_param: Any = saved["spec"]
    if mirror:
        import yaml

        spec_param = yaml.safe_load(runnable(squads.spec, mirror).to_yaml())
    run = run_collector(spec=spec_param, destination=str(ws.db_path), checks=checks)
    deployment = None
    if deploy:
        deployment = deploy_task(
            squads.spec.name, str(ws.root), schedule=schedule, instruction=instruction, mirror=mirror
        )
    _publish(squads, saved, run, ws)
    return {
        "name": squads.spec.name,
        "spec": saved["spec"],
        "checks": saved["checks"],
        "db": str(ws.db_path),
        "table": run.get("table"),
        "rows": run.get("rows_landed", 0),
        "deployment": deployment["deployment"] if deployment else None,
        "tokens": squads.tokens,
        "cost_usd": squads.cost_usd,
        "trace_id": squads.trace_id,
    }
