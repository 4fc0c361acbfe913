"""The workspace: one folder holding everything a user reviews (DuckDB, specs, suites, reports, prefect.yaml).

Layout (all paths derive from here so every module agrees)::

    <root>/autodata.duckdb            data tables + _autodata_runs/_sources/_checks
    <root>/collectors/<name>/spec.yaml   CollectorSpec (content-hashed)
    <root>/collectors/<name>/checks.yaml CheckSpec
    <root>/expectations/<name>.json      Great Expectations suite
    <root>/schemas/<name>.pandera.yaml   pandera schema
    <root>/data_docs/                    GE Data Docs (offline-readable)
    <root>/cache/                        OHCache local artifact store
    <root>/traces/                       OHCache traces (JSONL)
    <root>/traces/runs.json              run id -> the collect trace that made its collector
    <root>/prefect.yaml                  generated deployments
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from prefect_autodata.errors import ConfigError

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,62}$")


def validate_name(name: str) -> str:
    """Collector names become table names, folder names and deployment names: keep them simple."""
    if not _NAME_RE.match(name or ""):
        raise ConfigError(
            f"collector name {name!r} is invalid: use 1-63 lowercase letters, digits, '_' or '-', starting with a letter or digit"
        )
    return name


def table_name(name: str) -> str:
    return validate_name(name).replace("-", "_")


@dataclass(frozen=True)
class Workspace:
    root: Path

    @classmethod
    def default(cls) -> Workspace:
        return cls(Path(os.environ.get("AUTODATA_WORKSPACE", "workspace")).resolve())

    @property
    def db_path(self) -> Path:
        return self.root / "autodata.duckdb"

    def collector_dir(self, name: str) -> Path:
        return self.root / "collectors" / validate_name(name)

    def spec_path(self, name: str) -> Path:
        return self.collector_dir(name) / "spec.yaml"

    def checks_path(self, name: str) -> Path:
        return self.collector_dir(name) / "checks.yaml"

    def suite_path(self, name: str) -> Path:
        return self.root / "expectations" / f"{validate_name(name)}.json"

    def pandera_path(self, name: str) -> Path:
        return self.root / "schemas" / f"{validate_name(name)}.pandera.yaml"

    @property
    def data_docs_dir(self) -> Path:
        return self.root / "data_docs"

    @property
    def cache_dir(self) -> Path:
        return self.root / "cache"

    @property
    def traces_dir(self) -> Path:
        return self.root / "traces"

    @property
    def prefect_yaml(self) -> Path:
        return self.root / "prefect.yaml"

    @property
    def runs_index(self) -> Path:
        return self.traces_dir / "runs.json"

    def record_run_trace(self, run_id: str, trace_id: str, collector: str) -> None:
        """Remember which collect trace a run belongs to, so ``autodata trace <run id>`` finds it."""
        import json

        index = self.read_runs_index()
        index.setdefault("runs", {})[run_id] = trace_id
        index.setdefault("collectors", {})[collector] = trace_id
        self.traces_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.runs_index.with_suffix(".tmp")
        tmp.write_text(json.dumps(index, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(self.runs_index)

    def read_runs_index(self) -> dict:
        import json

        try:
            data = json.loads(self.runs_index.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def ensure(self) -> Workspace:
        self.root.mkdir(parents=True, exist_ok=True)
        return self
