"""``autodata ls``: the workspace's collectors, their last run (from DuckDB lineage) and deployment.

Read-only and offline: specs from ``collectors/``, runs from ``_autodata_runs``, deployments from
the workspace ``prefect.yaml`` (what is reviewed in git), so it works with no Prefect server up.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel

from prefect_autodata.errors import AutoDataError, ConfigError
from prefect_autodata.runtime.columns import RUNS_TABLE
from prefect_autodata.workspace import Workspace


class CollectorRow(BaseModel):
    name: str
    table: str | None = None
    spec: str | None = None
    rows: int | None = None
    last_run_id: str | None = None
    last_run_at: str | None = None
    last_status: str | None = None
    last_error: str | None = None
    runs: int = 0
    deployment: str | None = None
    schedule: str | None = None


def _deployments(path: Path) -> dict[str, dict]:
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from exc
    out = {}
    for d in data.get("deployments") or []:
        if isinstance(d, dict) and d.get("name"):
            out[d["name"]] = d
    return out


def _schedule_text(entry: dict) -> str | None:
    items = entry.get("schedules") or []
    if not items:
        return None
    s = items[0]
    for kind in ("cron", "interval", "rrule"):
        if kind in s:
            return f"{kind} {s[kind]} ({s.get('timezone', 'UTC')})"
    return None


def _runs(db: Path) -> tuple[dict[str, tuple], dict[str, int]]:
    """Latest run per collector and run counts; an absent database means no runs yet."""
    if not db.is_file():
        return {}, {}
    import duckdb

    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        raise AutoDataError(f"cannot read {db}: {str(exc).splitlines()[0]}") from exc
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        if RUNS_TABLE not in tables:
            return {}, {}
        latest = con.execute(
            "SELECT collector, run_id, coalesce(ended_at, started_at), status, error, table_name "
            f"FROM {RUNS_TABLE} QUALIFY row_number() OVER (PARTITION BY collector ORDER BY started_at DESC) = 1"
        ).fetchall()
        counts = dict(con.execute(f"SELECT collector, count(*) FROM {RUNS_TABLE} GROUP BY 1").fetchall())
        sizes = {}
        for row in latest:
            if row[5] in tables:
                sizes[row[0]] = con.execute(f'SELECT count(*) FROM "{row[5]}"').fetchall()[0][0]
    finally:
        con.close()
    return {r[0]: (*r[1:], sizes.get(r[0])) for r in latest}, counts


def list_collectors(workspace: Workspace | None = None) -> list[CollectorRow]:
    """Every collector with a spec in the workspace, a run in its database or a deployment, by name."""
    ws = workspace or Workspace.default()
    specs = {p.parent.name: p for p in sorted((ws.root / "collectors").glob("*/spec.yaml"))}
    latest, counts = _runs(ws.db_path)
    deps = _deployments(ws.prefect_yaml)
    rows = []
    deployed = {c for c in (_collector_of(d) for d in deps.values()) if c}
    for name in sorted(set(specs) | set(latest) | deployed):
        row = CollectorRow(
            name=name, spec=str(specs[name]) if name in specs else None, runs=counts.get(name, 0)
        )
        if name in latest:
            run_id, at, status, error, table, size = latest[name]
            row.last_run_id, row.last_run_at, row.last_status = run_id, str(at) if at else None, status
            row.last_error, row.table, row.rows = error, table, size
        elif name in specs:
            from prefect_autodata.runtime.spec import CollectorSpec

            try:
                row.table = CollectorSpec.load(specs[name]).table_name
            except ConfigError as exc:
                row.last_error = str(exc)
        else:  # deployed by name: a shipped example
            from prefect_autodata.deployments.examples import list_examples, load_example

            if name in list_examples():
                row.table = load_example(name).table_name
        entry = next((d for d in deps.values() if _collector_of(d) == name), deps.get(name))
        if entry:
            row.deployment = f"run_collector/{entry['name']}"
            row.schedule = _schedule_text(entry)
        rows.append(row)
    return rows


def _collector_of(entry: dict) -> str | None:
    spec = (entry.get("parameters") or {}).get("spec")
    if isinstance(spec, dict):
        return spec.get("name")
    if isinstance(spec, str):
        p = Path(spec)
        return p.parent.name if p.name == "spec.yaml" else spec
    return None
