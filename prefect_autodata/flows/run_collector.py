"""``run_collector``: spec -> fetch -> extract -> (checks) -> land, as a Prefect flow and as plain Python.

``run_spec`` is what the CLI and tests call (no Prefect server needed); the ``run_collector`` flow
runs the same steps as named Prefect tasks, so a scheduled deployment does exactly what a manual
run does, with zero LLM calls. Only transient errors (timeouts, 5xx, 429) are retried.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from prefect import flow

from prefect_autodata.errors import AutoDataError, ConfigError, TerminalError
from prefect_autodata.runtime import landing
from prefect_autodata.runtime.result import RunResult
from prefect_autodata.runtime.runner import LINEAGE_AT, LINEAGE_URL, Collected, Frame
from prefect_autodata.runtime.spec import CollectorSpec


def resolve_spec(spec_or_name: CollectorSpec | str | Path | dict) -> CollectorSpec:
    """A spec object, a YAML path, a dict, a workspace collector name, or a shipped example name."""
    if isinstance(spec_or_name, CollectorSpec):
        return spec_or_name
    if isinstance(spec_or_name, dict):
        return CollectorSpec.parse(spec_or_name)
    text = str(spec_or_name)
    p = Path(text)
    if p.suffix in (".yaml", ".yml") or p.is_file():
        if not p.is_file():
            raise ConfigError(f"spec file {p} does not exist")
        return CollectorSpec.load(p)
    from prefect_autodata.workspace import Workspace

    ws_spec = Workspace.default().root / "collectors" / text / "spec.yaml"
    if ws_spec.is_file():
        return CollectorSpec.load(ws_spec)
    from prefect_autodata.deployments.examples import list_examples, load_example

    if text in list_examples():
        return load_example(text)
    raise ConfigError(
        f"no collector named {text!r}: not a YAML file, not in the workspace ({ws_spec.parent}), "
        f"not a shipped example (autodata run --help lists them)"
    )


@dataclass
class Steps:
    """The four steps; plain functions for ``run_spec``, Prefect tasks inside the flow."""

    fetch: Callable[..., Collected]
    extract: Callable[..., tuple[Frame, int]]
    land: Callable[..., Any]
    validate: Callable[..., Validated] | None = None  # None: ``validate_step``


@dataclass
class Validated:
    """What the validation step hands to landing (and what its task logs)."""

    good: Any
    quarantined: Any
    results: list[dict] | None
    status: str
    checks_status: str | None
    profile: dict | None
    policy: str | None = None
    failed: list[str] | None = None
    docs_path: str | None = None


def fetch_step(
    spec: CollectorSpec, *, base_url: str | None, today: date | None, cursor: Any, fetcher: Any = None
):
    """Fetch every source (pagination, list -> detail) and extract raw records; returns (Collected, sources, requests).

    A mirror named by ``AUTODATA_MIRROR`` (a run-time mapping, never part of the spec) is applied
    by the fetcher: the spec keeps the real hosts.
    """
    from prefect_autodata.runtime.fetch import Fetcher, mirror_from_env
    from prefect_autodata.runtime.runner import allowed_hosts, collect

    own = fetcher is None
    fetcher = fetcher or Fetcher(spec.politeness, allowed_hosts(spec, base_url), mirror=mirror_from_env())
    try:
        try:
            collected = collect(spec, fetcher, base_url=base_url, today=today, cursor=cursor)
        except AutoDataError as exc:
            exc.sources = list(fetcher.sources)  # type: ignore[attr-defined]
            exc.requests = fetcher.stats.requests  # type: ignore[attr-defined]
            raise
        return collected, list(fetcher.sources), fetcher.stats.requests
    finally:
        if own:
            fetcher.close()


def extract_step(spec: CollectorSpec, collected: Collected) -> tuple[Frame, int]:
    """Raw records -> python step (if any) -> typed frame (``runtime.normalize``, as the dry run); (Frame, rows fetched)."""
    from prefect_autodata.runtime.normalize import normalize, require_rows

    norm = normalize(spec, collected)
    require_rows(norm)
    return norm.frame, norm.fetched


def land_step(db_path: str, spec: CollectorSpec, run_id: str, frame: Frame, **kw: Any):
    return landing.land_run(db_path, spec, run_id, frame.good, **kw)


def _execute(
    spec: CollectorSpec,
    db_path: str,
    steps: Steps,
    *,
    base_url: str | None,
    checks: Any,
    today: date | None,
    fetcher: Any,
    flow_run_id: str | None,
    before_commit: Callable[[], None] | None,
) -> RunResult:
    run_id = uuid.uuid4().hex[:16]
    started = datetime.now(UTC)
    base = RunResult(
        run_id=run_id,
        collector=spec.name,
        table=spec.table_name,
        db=str(db_path),
        spec_version=spec.version,
        status="running",
        started_at=started,
        flow_run_id=flow_run_id,
    )
    cursor = landing.begin_run(db_path, spec, run_id, flow_run_id=flow_run_id, started_at=started)
    base.cursor_before = None if cursor is None else str(cursor)
    sources: list = []
    requests = 0
    fetched = 0
    try:
        collected, sources, requests = steps.fetch(
            spec, base_url=base_url, today=today, cursor=cursor, fetcher=fetcher
        )
        frame, fetched = steps.extract(spec, collected)
        issues = [i.model_dump() for i in [*collected.issues, *frame.issues]]
        warnings = [i["message"] for i in issues]
        verdict = Validated(frame.good, None, None, "succeeded", None, None)
        if checks is not None:
            verdict = (steps.validate or validate_step)(spec, frame.good, checks, run_id, db_path)
        good, quarantined, results, status = (
            verdict.good,
            verdict.quarantined,
            verdict.results,
            verdict.status,
        )
        checks_status, profile = verdict.checks_status, verdict.profile
        stats, cursor_after, ended, warnings = steps.land(
            db_path,
            spec,
            run_id,
            Frame(good, frame.rejected, frame.issues),
            sources=sources,
            rows_fetched=fetched,
            rows_rejected=len(frame.rejected),
            requests=requests,
            quarantined=quarantined,
            check_results=results,
            status=status,
            warnings=warnings,
            before_commit=before_commit,
            **({"profile": profile} if profile is not None else {}),
        )
        return base.model_copy(
            update={
                "status": status,
                "rows_fetched": fetched,
                "rows_landed": stats.rows_landed,
                "rows_rejected": len(frame.rejected),
                "rows_quarantined": stats.rows_quarantined,
                "requests": requests,
                "ended_at": ended,
                "cursor_after": None if cursor_after is None else str(cursor_after),
                "checks_status": checks_status,
                "warnings": warnings,
                "issues": issues,
                "error": failed_checks_message(verdict) if status == "failed_checks" else None,
            }
        )
    except AutoDataError as exc:
        sources = getattr(exc, "sources", sources)
        requests = getattr(exc, "requests", requests)
        ended = landing.fail_run(
            db_path, run_id, str(exc), sources=sources, requests=requests, rows_fetched=fetched
        )
        return base.model_copy(
            update={"status": "failed", "error": str(exc), "ended_at": ended, "requests": requests}
        )
    except Exception as exc:  # a bug: record it, then let it surface with its traceback
        landing.fail_run(db_path, run_id, f"internal error: {exc!r}", sources=sources, requests=requests)
        raise


def failed_checks_message(v: Validated) -> str:
    """Why nothing landed, naming the failed checks and the policy that really applied."""
    names = ", ".join(v.failed or []) or "unnamed checks"
    why = (
        "a table-level check cannot blame single rows, so nothing can be quarantined"
        if v.policy == "quarantine"
        else "the whole batch is refused"
    )
    return f"checks failed under policy {v.policy}: {names} ({why}); nothing landed"


def validate_step(
    spec: CollectorSpec, good, checks: Any, run_id: str, db_path: str | None = None
) -> Validated:
    """Run the CheckSpec on the data columns; lineage columns ride along by row position.

    The run's Data Docs page goes to the workspace holding the destination database (its folder).
    """
    from prefect_autodata.expectations.enforce import enforce
    from prefect_autodata.expectations.spec import CheckSpec

    if not isinstance(checks, CheckSpec):
        checks = CheckSpec.model_validate(checks)
    full = good.reset_index(drop=True)
    data_cols = [c.name for c in spec.output_columns()]
    from prefect_autodata.workspace import Workspace

    ws = Workspace(Path(db_path).resolve().parent) if db_path else Workspace.default()
    previous = landing.previous_profile(db_path, spec) if db_path else None
    res = enforce(full[data_cols], checks, run_id=run_id, workspace=ws, previous=previous)
    from prefect_autodata.datadocs import write_site_index

    write_site_index(ws)  # the index across every collector of this workspace
    kept = full.loc[res.good.index]
    quarantined = res.quarantined
    if len(quarantined):
        quarantined = quarantined.join(full[[LINEAGE_URL, LINEAGE_AT]], how="left")
    status = "failed_checks" if res.status == "failed" else "succeeded"
    return Validated(
        good=kept,
        quarantined=quarantined,
        results=res.results,
        status=status,
        checks_status=res.status,
        profile=res.profile,
        policy=res.policy,
        failed=res.failed_names(),
        docs_path=str(res.docs_path) if res.docs_path else None,
    )


def run_spec(
    spec: CollectorSpec | str | Path | dict,
    db_path: str | Path | None = None,
    *,
    base_url: str | None = None,
    checks: Any = None,
    today: date | None = None,
    fetcher: Any = None,
    flow_run_id: str | None = None,
    before_commit: Callable[[], None] | None = None,
) -> RunResult:
    """Run a collector without Prefect. Failures come back as ``status='failed'`` with ``error`` set.

    ``base_url`` overrides the spec's (e.g. a sandbox on a free port); ``today`` pins relative dates
    (schedules, tests); ``before_commit`` is called inside the landing transaction (tests use it to
    kill a run mid-landing).
    """
    spec = resolve_spec(spec)
    if db_path is None:
        from prefect_autodata.workspace import Workspace

        db_path = Workspace.default().ensure().db_path
    steps = Steps(fetch=fetch_step, extract=extract_step, land=land_step)
    return _execute(
        spec,
        str(db_path),
        steps,
        base_url=base_url,
        checks=checks,
        today=today,
        fetcher=fetcher,
        flow_run_id=flow_run_id,
        before_commit=before_commit,
    )


def spec_label(spec: Any) -> str:
    """The collector a ``spec`` parameter names (a dict, a ``.../<name>/spec.yaml`` path, a file, a name)."""
    if isinstance(spec, CollectorSpec):
        return spec.name
    if isinstance(spec, dict):
        return str(spec.get("name") or "collector")
    p = Path(str(spec or "collector"))
    if p.name == "spec.yaml":
        return p.parent.name
    return p.stem if p.suffix in (".yaml", ".yml") else p.name


def _run_name() -> str:
    """``run sp500-daily 2026-12-01``: which collector, for which day (the flow run's name in the UI)."""
    from prefect.runtime import flow_run

    params = flow_run.parameters or {}
    day = params.get("today") or date.today()
    return f"run {spec_label(params.get('spec'))} {day}"


def resolve_destination(destination: str | None, spec: CollectorSpec) -> tuple[str, CollectorSpec]:
    """``destination``: a DuckDB file path, or the name of a saved DuckDBDestination block (its path
    and table prefix apply); None: the workspace database."""
    from prefect_autodata.blocks.duckdb import load_destination

    if not destination:
        from prefect_autodata.workspace import Workspace

        return str(Workspace.default().ensure().db_path), spec
    block = load_destination(destination)
    if block is None:
        return destination, spec
    if block.table_prefix:
        spec = spec.model_copy(update={"table": block.table_prefix + spec.table_name})
    return block.path, spec


def with_crawler(spec: CollectorSpec, crawler: str | None) -> CollectorSpec:
    """Apply a saved CrawlerPolicy block: its politeness to every request, its bounds to crawl sources."""
    if not crawler:
        return spec
    from prefect_autodata.blocks.crawler import load_crawler_policy

    return load_crawler_policy(crawler).apply(spec)


@flow(name="run_collector", flow_run_name=_run_name, log_prints=True)
def run_collector(
    spec: str | dict,
    destination: str | None = None,
    base_url: str | None = None,
    checks: dict | None = None,
    today: date | None = None,
    crawler: str | None = None,
) -> dict:
    """Scheduled entry point: a spec (name, path or dict) and where to land it. Fails the flow run on failure.

    ``destination``: a DuckDB path or a DuckDBDestination block name (default: the workspace database);
    ``crawler``: a CrawlerPolicy block name. A mirror comes from ``AUTODATA_MIRROR`` (a job variable).
    """
    from prefect_autodata.tasks.extract import extract_task
    from prefect_autodata.tasks.fetch import fetch_task
    from prefect_autodata.tasks.land import land_task
    from prefect_autodata.tasks.validate import validate_task

    resolved = with_crawler(resolve_spec(spec), crawler)
    db_path, resolved = resolve_destination(destination, resolved)
    steps = Steps(fetch=fetch_task, extract=extract_task, land=land_task, validate=validate_task)
    return run_in_flow(resolved, db_path, steps, base_url=base_url, checks=checks, today=today)


class RunFailed(TerminalError):
    """A collector run inside a flow that did not succeed; ``result`` is its RunResult."""

    def __init__(self, message: str, result: RunResult) -> None:
        super().__init__(message)
        self.result = result


def run_in_flow(
    spec: CollectorSpec,
    destination: str,
    steps: Steps,
    *,
    base_url: str | None = None,
    checks: dict | None = None,
    today: date | None = None,
) -> dict:
    """One run inside the current flow run (its id recorded as lineage); a failed run fails the flow."""
    from prefect.logging import get_run_logger
    from prefect.runtime import flow_run

    result = _execute(
        spec,
        destination,
        steps,
        base_url=base_url,
        checks=checks,
        today=today,
        fetcher=None,
        flow_run_id=str(flow_run.id) if flow_run.id else None,
        before_commit=None,
    )
    log = get_run_logger()
    if result.status != "succeeded":
        log.error("run %s of %s %s: %s", result.run_id, spec.name, result.status, result.error)
        raise RunFailed(f"collector {spec.name!r} {result.status}: {result.error}", result)
    log.info(
        "run %s of %s: %d rows landed in %s (%s), %d rejected, %d quarantined, %d requests",
        result.run_id,
        spec.name,
        result.rows_landed,
        result.table,
        result.db,
        result.rows_rejected,
        result.rows_quarantined,
        result.requests,
    )
    return result.summary()


def run_collector_flow_run(
    spec: CollectorSpec,
    destination: str | None = None,
    *,
    checks: Any = None,
    today: date | None = None,
    crawler: str | None = None,
) -> RunResult:
    """Run ``spec`` as a ``run_collector`` flow run (a subflow inside a flow) and return its RunResult.

    A failed run comes back as a result with ``status`` and ``error`` (the flow run is Failed too).
    """
    import yaml

    if checks is not None and not isinstance(checks, dict):
        checks = checks.model_dump(mode="json", exclude_none=True)
    if destination:
        from prefect_autodata.blocks.duckdb import looks_like_path

        if looks_like_path(destination):
            destination = str(Path(destination).resolve())
    state = run_collector(
        spec=yaml.safe_load(spec.to_yaml()),
        destination=destination,
        checks=checks,
        today=today,
        crawler=crawler,
        return_state=True,
    )
    if state.is_completed():
        return RunResult.model_validate(state.result())
    exc = state.result(raise_on_failure=False)
    if isinstance(exc, RunFailed):
        return exc.result
    if isinstance(exc, AutoDataError):
        raise exc
    if isinstance(exc, BaseException):
        raise TerminalError(f"run_collector flow run {state.type.value.lower()}: {exc}") from exc
    raise TerminalError(f"run_collector flow run ended {state.type.value.lower()}: {state.message}")
