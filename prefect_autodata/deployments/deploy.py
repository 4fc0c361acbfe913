"""A collector spec becomes a scheduled Prefect deployment of ``run_collector``.

Two artefacts, one source of truth: the deployment entry is written into the workspace's
``prefect.yaml`` (reviewable in git, appliable with ``prefect deploy --all``) and registered with
the Prefect API through ``flow.to_deployment(...).apply()``. The flow is referenced by module path,
so any worker with this package installed runs it (no code upload). Secrets never enter
parameters or the YAML: ``{secret:NAME}`` values found in the deployer's environment are stored as
Prefect Secret blocks (``autodata-<name>``) that the runtime resolves at run time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field

from prefect_autodata.deployments.schedule import ScheduleSpec, parse_schedule
from prefect_autodata.errors import ConfigError, TerminalError
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.workspace import Workspace

FLOW_ENTRYPOINT = "prefect_autodata.flows.run_collector.run_collector"
PROCESS_POOL = "autodata-process"
DOCKER_POOL = "autodata-docker"


class DeploymentPlan(BaseModel):
    """Everything that defines one deployment; renders to prefect.yaml and to the Prefect API."""

    name: str
    collector: str
    description: str | None = None
    version: str
    parameters: dict[str, Any]
    schedule: ScheduleSpec | None = None
    work_pool: str = PROCESS_POOL
    pool_type: Literal["process", "docker"] = "process"
    job_variables: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    secrets: list[str] = Field(default_factory=list, description="Names of {secret:NAME} the spec needs.")
    incremental: bool = False
    warnings: list[str] = Field(default_factory=list)
    build: list[dict[str, Any]] | None = None
    push: list[dict[str, Any]] | None = None

    @property
    def flow_name(self) -> str:
        return "run_collector"

    @property
    def full_name(self) -> str:
        return f"{self.flow_name}/{self.name}"

    def yaml_entry(self) -> dict[str, Any]:
        """The deployment as an item under ``deployments:`` in prefect.yaml."""
        entry: dict[str, Any] = {
            "name": self.name,
            "description": self.description or f"autodata collector {self.collector}",
            "version": self.version,
            "entrypoint": FLOW_ENTRYPOINT,
            "tags": self.tags,
            "parameters": self.parameters,
            "work_pool": {"name": self.work_pool, "job_variables": self.job_variables},
            "schedules": [self.schedule.to_yaml_entry()] if self.schedule else [],
        }
        if self.build is not None:
            entry["build"] = self.build
        if self.push is not None:
            entry["push"] = self.push
        return entry


class DeployResult(BaseModel):
    """What ``autodata deploy --json`` prints."""

    name: str
    deployment: str = Field(description="flow/deployment name as Prefect shows it.")
    deployment_id: str | None = None
    work_pool: str
    schedule: str | None = None
    prefect_yaml: str
    dockerfile: str | None = None
    secrets_stored: list[str] = Field(default_factory=list)
    applied: bool = False
    next_runs: list[str] = Field(default_factory=list, description="The schedule's next three runs.")
    incremental: bool = Field(False, description="Each run resumes from the last landed cursor.")
    warnings: list[str] = Field(default_factory=list)
    automation_id: str | None = Field(None, description="The failed-checks automation (--notify-block).")


def _resolve(spec_or_name: CollectorSpec | str | Path, ws: Workspace) -> tuple[CollectorSpec, Path | None]:
    """The spec and, when it lives in a file, that file (the deployment points at it)."""
    from prefect_autodata.flows.run_collector import resolve_spec

    if isinstance(spec_or_name, CollectorSpec):
        path = ws.spec_path(spec_or_name.name)
        if not path.is_file() or CollectorSpec.load(path).version != spec_or_name.version:
            spec_or_name.save(path)
        return spec_or_name, path
    text = str(spec_or_name)
    spec = resolve_spec(text)
    p = Path(text)
    if p.suffix in (".yaml", ".yml") and p.is_file():
        return spec, p.resolve()
    ws_path = ws.spec_path(spec.name)
    if ws_path.is_file():
        return spec, ws_path.resolve()
    return spec, None  # a shipped example: referenced by name


def _checks_for(spec: CollectorSpec, ws: Workspace) -> dict | None:
    """The collector's CheckSpec from the workspace (``collectors/<name>/checks.yaml``), as data."""
    path = ws.checks_path(spec.name)
    if not path.is_file():
        return None
    from prefect_autodata.expectations.spec import load_checks

    load_checks(path)  # invalid checks fail here, naming the file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))  # as written: compact and reviewable
    return json.loads(json.dumps(data, default=str))  # YAML dates -> ISO strings (JSON parameters)


def plan_deployment(
    spec_or_name: CollectorSpec | str | Path,
    *,
    workspace: Workspace | None = None,
    schedule: str | ScheduleSpec | None = None,
    instruction: str | None = None,
    pool: str | None = None,
    docker: bool = False,
    mirror: str | None = None,
    checks: Any = None,
    name: str | None = None,
    timezone: str | None = None,
    destination: str | None = None,
    today: Any = None,
    reopen_past: bool = False,
) -> DeploymentPlan:
    """Decide the deployment: parameters (spec reference, destination, checks), schedule, pool.

    ``schedule`` wins over a cadence in ``instruction``; ``timezone`` overrides the phrase's. A
    scheduled spec with a fixed date range is opened (``deployments.incremental``); one whose range
    ended in the past is not scheduled from an instruction's cadence, and scheduled with a warning
    when ``schedule`` asks for it explicitly. ``destination``: a DuckDB path or a
    DuckDBDestination block name (default: the workspace database). ``reopen_past``: the spec's range
    was the agents' default (the request named no time scope), so it is opened even when long past.
    ``mirror`` (demo, tests): a
    mirror base URL kept as the ``AUTODATA_MIRROR`` job variable; the spec keeps the real hosts.
    """
    from prefect_autodata.deployments.incremental import open_ended
    from prefect_autodata.deployments.schedule import schedule_from_instruction
    from prefect_autodata.runtime.spec import secret_names

    ws = (workspace or Workspace.default()).ensure()
    spec, path = _resolve(spec_or_name, ws)
    sched: ScheduleSpec | None
    if isinstance(schedule, ScheduleSpec):
        sched = schedule
    elif schedule:
        sched = parse_schedule(schedule, timezone=timezone)
    else:
        sched = schedule_from_instruction(instruction or "") if instruction else None
        if sched is not None and timezone:
            sched = parse_schedule(sched.phrase or "", timezone=timezone)
    warnings: list[str] = []
    incremental = spec.incremental is not None
    if sched is not None:
        opened = open_ended(spec, today, reopen_past=reopen_past)
        if opened.closed_past and not schedule:
            warnings.append(f"not scheduled: {opened.note}")  # the cadence came from the instruction
            sched = None
        elif opened.closed_past:
            warnings.append(f"scheduled as asked, but {opened.note} (reruns upsert the same rows)")
        elif opened.spec.version != spec.version:
            spec = opened.spec
            warnings.append(f"scheduled incrementally ({opened.note})")
            if path is not None and Path(path).resolve() == ws.spec_path(spec.name).resolve():
                spec.save(path)  # the workspace collector is now the open-ended one (reviewable diff)
            else:
                path = None
                spec_or_name = spec
        incremental = opened.incremental
    spec_param: str | dict
    if path is None and isinstance(spec_or_name, CollectorSpec):
        spec_param = yaml.safe_load(spec.to_yaml())
    elif docker:
        spec_param = f"collectors/{spec.name}/spec.yaml" if path is not None else spec.name
    else:
        spec_param = str(path) if path is not None else spec.name
    if checks is not None and not isinstance(checks, dict):
        checks = checks.model_dump(mode="json", exclude_none=True)
    checks = checks if checks is not None else _checks_for(spec, ws)
    root = "/opt/autodata/workspace" if docker else str(ws.root)
    if destination:
        from prefect_autodata.blocks.duckdb import looks_like_path

        if looks_like_path(destination) and not docker:
            destination = str(Path(destination).resolve())
    parameters: dict[str, Any] = {"spec": spec_param, "destination": destination or f"{root}/autodata.duckdb"}
    if checks:
        parameters["checks"] = checks
    env = {"AUTODATA_WORKSPACE": root, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    if mirror:
        from prefect_autodata.runtime.fetch import MIRROR_ENV

        env[MIRROR_ENV] = mirror.rstrip("/")
    plan = DeploymentPlan(
        name=name or spec.name,
        collector=spec.name,
        description=spec.description,
        version=spec.version,
        parameters=parameters,
        schedule=sched,
        work_pool=pool or (DOCKER_POOL if docker else PROCESS_POOL),
        pool_type="docker" if docker else "process",
        job_variables={"env": env} if docker else {"env": env, "working_dir": root},
        tags=["autodata", *spec.tags],
        secrets=sorted(secret_names(spec)),
        incremental=incremental,
        warnings=warnings,
    )
    if docker:
        from prefect_autodata.deployments.docker import docker_steps

        plan.build, plan.push, image_var = docker_steps(spec)
        plan.job_variables["image"] = image_var
    return plan


def write_prefect_yaml(plan: DeploymentPlan, path: Path) -> Path:
    """Insert or replace the plan's entry in ``prefect.yaml`` (other deployments are kept, in order)."""
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(
                f"{path}: not valid YAML, not touching it: {' '.join(str(exc).split())}"
            ) from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: expected a mapping at the top level")
    data.setdefault("name", "autodata-workspace")
    import prefect

    data.setdefault("prefect-version", prefect.__version__)
    data.setdefault("build", None)
    data.setdefault("push", None)
    # the flow is imported by module path: nothing to pull, run from the workspace folder
    data.setdefault(
        "pull",
        [{"prefect.deployments.steps.set_working_directory": {"directory": str(path.parent.resolve())}}],
    )
    entries = [d for d in data.get("deployments") or [] if isinstance(d, dict)]
    entry = plan.yaml_entry()
    for i, d in enumerate(entries):
        if d.get("name") == plan.name:
            entries[i] = entry
            break
    else:
        entries.append(entry)
    data["deployments"] = entries
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(
        "# Generated by `autodata deploy` / `autodata collect`; reviewable, appliable with\n"
        "# `prefect deploy --all --prefect-file <this file>`. Secrets live in Prefect Secret blocks.\n"
        + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    tmp.replace(path)
    return path


def _when(t: Any) -> str:
    """``Tue 2026-12-01 17:30 EST``: a run time as a person reads it."""
    return t.strftime("%a %Y-%m-%d %H:%M %Z").strip()


def ensure_work_pool(name: str, pool_type: Literal["process", "docker"] = "process") -> None:
    """Create the work pool with its worker type's default job template when it does not exist."""
    from prefect import get_client
    from prefect.client.schemas.actions import WorkPoolCreate
    from prefect.exceptions import ObjectAlreadyExists, ObjectNotFound

    if pool_type == "docker":
        from prefect_docker.worker import DockerWorker as Worker
    else:
        from prefect.workers.process import ProcessWorker as Worker

    with get_client(sync_client=True) as client:
        try:
            client.read_work_pool(name)
            return
        except ObjectNotFound:
            pass
        try:
            client.create_work_pool(
                WorkPoolCreate(
                    name=name,
                    type=pool_type,
                    base_job_template=Worker.get_default_base_job_template(),
                    description="autodata collectors",
                )
            )
        except ObjectAlreadyExists:
            pass


def store_secrets(names: list[str]) -> list[str]:
    """Copy ``AUTODATA_SECRET_<NAME>`` values into Prefect Secret blocks so workers can resolve them."""
    import os

    from prefect.blocks.system import Secret

    stored = []
    for n in names:
        value = os.environ.get(f"AUTODATA_SECRET_{n.upper()}")
        if value:
            Secret(value=value).save(f"autodata-{n.lower().replace('_', '-')}", overwrite=True)
            stored.append(n)
    return stored


def apply_plan(plan: DeploymentPlan) -> str:
    """Register (or update) the deployment through the Prefect API; returns its id."""
    from prefect.types.entrypoint import EntrypointType

    from prefect_autodata.flows.run_collector import run_collector

    ensure_work_pool(plan.work_pool, plan.pool_type)
    deployment = run_collector.to_deployment(
        name=plan.name,
        parameters=plan.parameters,
        schedules=[plan.schedule.to_prefect()] if plan.schedule else None,
        description=plan.description,
        tags=plan.tags,
        version=plan.version,
        work_pool_name=plan.work_pool,
        job_variables=plan.job_variables,
        entrypoint_type=EntrypointType.MODULE_PATH,
    )
    return str(deployment.apply())


def deploy_collector(
    spec: CollectorSpec | str | Path,
    *,
    workspace: Workspace | None = None,
    schedule: str | ScheduleSpec | None = None,
    instruction: str | None = None,
    pool: str | None = None,
    docker: bool = False,
    mirror: str | None = None,
    checks: Any = None,
    apply: bool = True,
    timezone: str | None = None,
    destination: str | None = None,
    today: Any = None,
    name: str | None = None,
    notify_block: str | None = None,
    reopen_past: bool = False,
) -> DeployResult:
    """Write the deployment into the workspace's prefect.yaml and register it with Prefect.

    ``apply=False`` only writes the YAML (review first, then ``prefect deploy --all``). A Prefect API
    that cannot be reached is one clear error naming ``PREFECT_API_URL``.
    """
    ws = (workspace or Workspace.default()).ensure()
    plan = plan_deployment(
        spec,
        workspace=ws,
        schedule=schedule,
        instruction=instruction,
        pool=pool,
        docker=docker,
        mirror=mirror,
        checks=checks,
        timezone=timezone,
        destination=destination,
        today=today,
        name=name,
        reopen_past=reopen_past,
    )
    dockerfile = None
    if docker:
        from prefect_autodata.deployments.docker import write_dockerfile

        dockerfile = str(write_dockerfile(ws))
    path = write_prefect_yaml(plan, ws.prefect_yaml)
    result = DeployResult(
        name=plan.name,
        deployment=plan.full_name,
        work_pool=plan.work_pool,
        schedule=plan.schedule.in_words() if plan.schedule else None,
        prefect_yaml=str(path),
        dockerfile=dockerfile,
        next_runs=[_when(t) for t in plan.schedule.next_runs(3)] if plan.schedule else [],
        incremental=plan.incremental,
        warnings=plan.warnings,
    )
    if not apply:
        return result
    try:
        stored = store_secrets(plan.secrets)
        deployment_id = apply_plan(plan)
    except (ConfigError, TerminalError):
        raise
    except Exception as exc:  # httpx / prefect client errors: one line naming the API
        from prefect.settings import PREFECT_API_URL

        where = PREFECT_API_URL.value() or "the ephemeral Prefect server"
        raise TerminalError(
            f"could not register deployment {plan.full_name!r} with {where}: "
            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''} "
            f"(the entry is written in {path}; apply it later with `prefect deploy --all --prefect-file {path}`)"
        ) from exc
    automation_id = None
    if notify_block:
        from prefect_autodata.deployments.automation import ensure_failed_checks_automation

        automation_id = ensure_failed_checks_automation(plan.collector, notify_block)
    return result.model_copy(
        update={
            "deployment_id": deployment_id,
            "applied": True,
            "secrets_stored": stored,
            "automation_id": automation_id,
        }
    )


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("prefect-autodata")
    except PackageNotFoundError:
        return "0"


def write_entry(entry: dict[str, Any], path: Path) -> Path:
    """``write_prefect_yaml`` for an entry that is not a collector plan."""

    class _Entry:
        name = entry["name"]

        @staticmethod
        def yaml_entry() -> dict[str, Any]:
            return entry

    return write_prefect_yaml(_Entry, path)  # type: ignore[arg-type]
