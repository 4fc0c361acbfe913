"""``collect``: one sentence → squads → CollectorSpec + CheckSpec saved in the workspace → run → checks → DuckDB.

A plain function (no Prefect server needed) used by ``autodata collect``, ``autodata bench`` and the
tests; the Prefect flow wrapper imports it. Progress is reported through ``progress(stage, message)``.
An instruction the plan agent cannot resolve produces no dataset: the result says what is missing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.naming import default_name  # re-exported (the squads import it from agents)
from prefect_autodata.errors import AutoDataError, ConfigError
from prefect_autodata.workspace import Workspace, validate_name

CollectStatus = Literal["succeeded", "failed", "failed_checks", "unresolvable", "no_spec", "kept"]


class CollectResult(BaseModel):
    """What ``autodata collect --json`` prints (``status``, ``name``, ``db``, ``table``, ``rows``, ``spec``, ...)."""

    status: CollectStatus
    name: str | None = None
    db: str | None = None
    table: str | None = None
    rows: int = 0
    spec: str | None = Field(default=None, description="Path of the saved CollectorSpec YAML.")
    checks: str | None = Field(default=None, description="Path of the saved CheckSpec YAML.")
    seconds: float = 0.0
    agent_seconds: float = 0.0
    tokens: int = 0
    cost_usd: float = 0.0
    backend: str = "offline"
    stop_reason: str = ""
    detail: str = ""
    missing: list[str] = Field(default_factory=list)
    error: str | None = None
    run_id: str | None = None
    trace_id: str | None = None
    checks_status: str | None = None
    rows_quarantined: int = 0
    rows_rejected: int = 0
    spec_version: str | None = None
    deployed: bool = False
    deployment: str | None = Field(default=None, description="flow/deployment name on Prefect.")
    schedule: str | None = Field(default=None, description="The deployment's schedule, in words.")
    next_runs: list[str] = Field(default_factory=list, description="The schedule's next three runs.")
    incremental: bool = Field(default=False, description="The deployment resumes from the landed cursor.")
    warnings: list[str] = Field(default_factory=list)
    fields: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Per requested field: the rule that fills it (null when none) and its dry-run fill_rate.",
    )

    @property
    def ok(self) -> bool:
        return self.status == "succeeded"


_OBSERVED: dict[str, str] = {}  # AUTODATA_SECRET_* values this process took from a spec it externalized


def collect(
    instruction: str,
    *,
    sources: list[str] | None = None,
    fields: list[str] | None = None,
    name: str | None = None,
    db: str | Path | None = None,
    backend: Literal["offline", "llm"] | Any = "offline",
    workspace: Workspace | None = None,
    search_url: str | None = None,
    mirror: str | None = None,
    today: date | None = None,
    deploy: bool = False,
    llm_settings: Any = None,
    budget: Any = None,
    max_repairs: int = 4,
    prepare: Callable[[Any], None] | None = None,
    progress: Callable[[str, str], None] | None = None,
    schedule: str | None = None,
    timezone: str | None = None,
    destination: str | None = None,
    crawler: str | None = None,
    llm: str | None = None,
    search: str | None = None,
    confirm: Callable[[str, str, str], bool] | None = None,
    research: Callable[..., Any] | None = None,
    runner: Callable[..., Any] | None = None,
    deployer: Callable[..., Any] | None = None,
    observe: Callable[[str, Any], None] | None = None,
) -> CollectResult:
    """Research, write the spec and checks, run the collector, validate, land the rows.

    ``mirror``: a local mirror base URL (``--sandbox``); the saved spec names the real hosts and the
    run goes through the mirror. ``prepare(spec)`` runs before the collector (e.g. to provide
    secrets). Agent-level failures come back as a result with ``status`` and ``detail``, never raised.

    Blocks by document name: ``destination`` (DuckDBDestination, wins over ``db``), ``crawler``
    (CrawlerPolicy), ``llm`` (LLMEndpointCredentials, implies the llm backend), ``search``
    (SearchProviderCredentials). ``schedule``/``timezone``: the deployment's schedule (else the
    cadence in the instruction). ``confirm(name, old_yaml, new_yaml)`` is asked before an existing
    collector's spec is replaced (False keeps it and stops). ``research``/``runner``/``observe`` let the
    collect flow run the steps as Prefect tasks and subflows and publish what it saw.
    """
    from prefect_autodata.agents.squads import research_and_develop, runnable
    from prefect_autodata.expectations.spec import save_checks
    from prefect_autodata.runtime.spec import externalize_secrets, secret_names

    t0 = time.monotonic()
    say = progress or (lambda _s, _m: None)
    seen = observe or (lambda _k, _v: None)
    if name is not None:
        validate_name(name)
    ws = (workspace or Workspace.default()).ensure()
    db_path, table_prefix = _destination(destination, db, ws)
    if schedule:
        from prefect_autodata.deployments.schedule import parse_schedule

        parse_schedule(schedule, timezone=timezone)  # a bad phrase fails before any research
    extra: dict[str, Any] = {}
    if crawler:
        from prefect_autodata.blocks.crawler import load_crawler_policy

        extra["fetch_policy"] = load_crawler_policy(crawler).fetch_policy()
    if llm:
        from prefect_autodata.blocks.llm import load_llm

        llm_settings, backend = load_llm(llm).settings(), "llm"
    if search:
        from prefect_autodata.agents.tool import search_provider_from_config
        from prefect_autodata.blocks.search import load_search

        block = load_search(search)
        key = block.api_key.get_secret_value() if block.api_key else None
        extra["search"] = search_provider_from_config(block.base_url, api_key=key)
    squads = (research or research_and_develop)(
        instruction,
        sources=sources,
        fields=fields,
        name=name,
        backend=backend,
        workspace=ws,
        search_url=search_url,
        mirror=mirror,
        today=today,
        budget=budget,
        llm_settings=llm_settings,
        max_repairs=max_repairs,
        progress=say,
        **extra,
    )
    seen("squads", squads)
    base = dict(
        db=db_path,
        seconds=0.0,
        agent_seconds=squads.agent_seconds,
        tokens=squads.tokens,
        cost_usd=squads.cost_usd,
        backend=squads.backend,
        stop_reason=squads.stop_reason,
        detail=squads.detail,
        trace_id=squads.trace_id,
        warnings=list(squads.notes),
        fields=dict(squads.fields),
    )
    if squads.stop_reason == "unresolvable":
        return CollectResult(
            status="unresolvable",
            missing=list(squads.plan.missing),
            error="cannot collect this yet: " + "; ".join(squads.plan.missing),
            **{**base, "seconds": round(time.monotonic() - t0, 3)},
        )
    spec = squads.spec
    if spec is None or not squads.ok:
        return CollectResult(
            status="no_spec",
            name=spec.name if spec else name,
            error=f"the agents stopped ({squads.stop_reason}) without a working collector: {squads.detail}",
            **{**base, "seconds": round(time.monotonic() - t0, 3)},
        )
    if fields:
        have = [c.name for c in spec.output_columns()]
        if have != list(fields):
            base["warnings"].append(f"data columns are {have}, --fields asked for {list(fields)}")
    spec, observed_secrets = externalize_secrets(spec)
    for secret_name, value in observed_secrets.items():
        # the run (and deploy_collector, which stores env secrets as Prefect Secret blocks) reads them here
        # a value this process observed for an earlier collect of the same name is replaced (another
        # site's demo key); one the user set is kept
        env = f"AUTODATA_SECRET_{secret_name}"
        if os.environ.get(env) in (None, "", _OBSERVED.get(env)):
            os.environ[env] = value
            _OBSERVED[env] = value
    if observed_secrets:
        say(
            "collect",
            "credentials kept out of the spec: " + ", ".join(f"{{secret:{n}}}" for n in observed_secrets),
        )
    if crawler:
        from prefect_autodata.blocks.crawler import load_crawler_policy

        spec = load_crawler_policy(crawler).apply(spec)
    target = ws.spec_path(spec.name)
    previous = target.read_text(encoding="utf-8") if target.is_file() else None
    if previous is not None and confirm is not None:
        from prefect_autodata.runtime.specdiff import spec_diff

        new_yaml = spec.to_yaml()
        if spec_diff(previous, new_yaml, spec.name) and not confirm(spec.name, previous, new_yaml):
            return CollectResult(
                status="kept",
                name=spec.name,
                spec=str(target),
                error=f"collector {spec.name!r} exists and was kept (use --force to replace it, "
                "or --name to make a new one)",
                **{**base, "seconds": round(time.monotonic() - t0, 3)},
            )
    spec_path = spec.save(target)
    checks_path = save_checks(squads.checks, ws.checks_path(spec.name)) if squads.checks else None
    if squads.checks is not None:
        _save_suites(squads.checks, ws, base["warnings"])
    seen(
        "saved",
        {"spec": str(spec_path), "checks": str(checks_path) if checks_path else None, "previous": previous},
    )
    say("collect", f"spec saved to {spec_path}; running the collector")
    if prepare is not None:
        prepare(spec)
    missing_secrets = [
        n for n in sorted(secret_names(spec)) if not os.environ.get(f"AUTODATA_SECRET_{n.upper()}")
    ]
    if missing_secrets:
        return CollectResult(
            status="failed",
            name=spec.name,
            table=spec.table_name,
            spec=str(spec_path),
            checks=str(checks_path) if checks_path else None,
            spec_version=spec.version,
            error="the collector needs secrets: set "
            + ", ".join(f"AUTODATA_SECRET_{n.upper()}" for n in missing_secrets),
            **{**base, "seconds": round(time.monotonic() - t0, 3)},
        )
    from prefect_autodata.flows.run_collector import run_spec  # imports Prefect (seconds): only when needed

    to_run = runnable(spec, mirror)
    if table_prefix:
        to_run = to_run.model_copy(update={"table": table_prefix + to_run.table_name})
    try:
        run = (runner or run_spec)(to_run, db_path, checks=squads.checks, today=today)
    except AutoDataError as exc:
        return CollectResult(
            status="failed",
            name=spec.name,
            table=spec.table_name,
            spec=str(spec_path),
            spec_version=spec.version,
            error=str(exc),
            **{**base, "seconds": round(time.monotonic() - t0, 3)},
        )
    seen("run", run)
    if squads.trace_id:
        ws.record_run_trace(run.run_id, squads.trace_id, spec.name)
    deployed = None
    if deploy and run.ok:
        deployed = _deploy(
            spec,
            ws,
            say,
            base["warnings"],
            instruction=cadence_text(squads.plan, instruction),
            schedule=schedule,
            timezone=timezone,
            destination=destination or (str(db) if db else None),
            today=today,
            deployer=deployer,
            reopen_past=getattr(squads.plan, "time_scope", "unknown") is None,
        )
    say("collect", f"{run.status}: {run.rows_landed} rows in {run.table}")
    status: CollectStatus = run.status if run.status in ("succeeded", "failed_checks") else "failed"  # type: ignore[assignment]
    return CollectResult(
        status=status,
        name=spec.name,
        table=run.table,
        rows=run.rows_landed,
        spec=str(spec_path),
        checks=str(checks_path) if checks_path else None,
        run_id=run.run_id,
        error=run.error,
        checks_status=run.checks_status,
        rows_quarantined=run.rows_quarantined,
        rows_rejected=run.rows_rejected,
        spec_version=spec.version,
        deployed=deployed is not None,
        deployment=deployed.deployment if deployed else None,
        schedule=deployed.schedule if deployed else None,
        next_runs=deployed.next_runs if deployed else [],
        incremental=deployed.incremental if deployed else False,
        **{
            **base,
            "seconds": round(time.monotonic() - t0, 3),
            "warnings": base["warnings"] + run.warnings[:20],
        },
    )


def _save_suites(checks: Any, ws: Workspace, warnings: list[str]) -> None:
    """The CheckSpec as a reviewer's engines read it: ``expectations/<name>.json`` (GE suite) and
    ``schemas/<name>.pandera.yaml`` (pandera), beside ``collectors/<name>/checks.yaml``."""
    from prefect_autodata.expectations.to_gx import save_suite
    from prefect_autodata.expectations.to_pandera import save_schema

    for what, save in (("GE suite", save_suite), ("pandera schema", save_schema)):
        try:
            save(checks, ws)
        except Exception as exc:  # a compiler gap must not cost the dataset; say it
            warnings.append(f"{what} for {checks.name} not written: {type(exc).__name__}: {exc}")


def _destination(destination: str | None, db: str | Path | None, ws: Workspace) -> tuple[str, str]:
    """(DuckDB path, table prefix): a DuckDBDestination block by name, else ``db``, else the workspace's."""
    if destination:
        from prefect_autodata.blocks.duckdb import load_destination

        block = load_destination(destination)
        if block is None:
            return destination, ""
        return block.path, block.table_prefix
    return (str(db) if db else str(ws.db_path)), ""


def cadence_text(plan: Any, instruction: str | None) -> str | None:
    """What the deployment's schedule is read from when ``--schedule`` is absent: the cadence the
    plan read in the request ("every weekday after market close"), not the whole sentence (a
    "daily" data adjective or an "each team" scope is no schedule); None when the request states
    none. A plan without a cadence attribute leaves the instruction as it was."""
    if not hasattr(plan, "cadence"):
        return instruction
    cadence = plan.cadence
    return cadence.phrase if cadence is not None else None


def _deploy(
    spec: Any,
    ws: Workspace,
    say: Callable[[str, str], None],
    warnings: list[str],
    *,
    instruction: str | None = None,
    schedule: str | None = None,
    timezone: str | None = None,
    destination: str | None = None,
    today: date | None = None,
    deployer: Callable[..., Any] | None = None,
    reopen_past: bool = False,
) -> Any:
    """Register the spec as a scheduled deployment (``schedule``, else the cadence in the instruction).

    The deployment runs against the real hosts (a mirror is a run-time mapping, never part of it) and
    writes where this collection wrote. A deployment failure (e.g. no reachable Prefect API) does not
    undo the landed data: it is a warning (None comes back).
    """
    from prefect_autodata.deployments.deploy import deploy_collector
    from prefect_autodata.runtime.fetch import mirror_from_env

    try:
        result = (deployer or deploy_collector)(
            spec,
            mirror=mirror_from_env(),  # a mirror this process runs with (a job variable) carries over
            workspace=ws,
            instruction=instruction,
            schedule=schedule,
            timezone=timezone,
            destination=destination,
            today=today,
            reopen_past=reopen_past,
        )
    except AutoDataError as exc:
        warnings.append(f"deployment failed: {exc}")
        return None
    warnings.extend(result.warnings)
    say("collect", f"deployed {result.deployment}")
    return result


__all__ = ["CollectResult", "ConfigError", "collect", "default_name"]
