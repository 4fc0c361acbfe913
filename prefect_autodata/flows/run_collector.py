"""``run_collector``: spec -> fetch -> extract -> (checks) -> land, as a Prefect flow and as plain Python.

``run_spec`` is what the CLI and tests call (no Prefect server needed); the ``run_collector`` flow
runs the same steps as named Prefect tasks, so a scheduled deployment does exactly what a manual
run does, with zero LLM calls. Only transient errors (timeouts, 5xx, 429) are retried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from prefect import flow

from prefect_autodata.errors import AutoDataError, ConfigError, TerminalError
from prefect_autodata.expectations.step import validate_step
from prefect_autodata.runtime.pipeline import (  # noqa: F401 - the steps live in runtime.pipeline; re-exported
    Steps,
    Validated,
    extract_step,
    failed_checks_message,
    fetch_step,
    land_step,
    run_steps,
)
from prefect_autodata.runtime.result import RunResult
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


def _execute(spec: CollectorSpec, db_path: str, steps: Steps, **kw: Any) -> RunResult:
    """``run_steps`` with the validation step filled in when a caller left it out."""
    if steps.validate is None:
        steps = replace(steps, validate=validate_step)
    return run_steps(spec, db_path, steps, **kw)


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
