"""``autodata bench``: the sandbox task catalog through ``collect``, scored against ground truth.

One sandbox (optionally under a chaos profile) serves every task; each task collects into its own
workspace, the landed table is scored with the sandbox scorer on the task's fields, and results are
aggregated per domain and per template (mean F1/P/R), with the median agent time (instruction →
spec ready). This is a benchmark harness: it is the one product module that imports the sandbox.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from prefect_autodata.errors import ConfigError


class TaskScore(BaseModel):
    id: str
    template: str
    domain: str
    repeat: int = 0
    status: str
    stop_reason: str = ""
    f1: float = 0.0
    precision: float = 0.0
    recall: float = 0.0
    rows: int = 0
    expected_rows: int = 0
    agent_seconds: float = 0.0
    seconds: float = 0.0
    tokens: int = 0
    error: str | None = None


class Aggregate(BaseModel):
    f1: float
    precision: float
    recall: float
    tasks: int


class BenchReport(BaseModel):
    per_domain: dict[str, Aggregate]
    per_template: dict[str, Aggregate]
    tasks: list[TaskScore]
    median_agent_seconds: float
    mean_f1: float
    chaos: str = "none"
    no_source: bool = False
    repeat: int = 1
    backend: str = "offline"
    seconds: float = 0.0
    command: str = Field(default="", description="The command line that produced this report.")


def _aggregate(scores: list[TaskScore], key: str) -> dict[str, Aggregate]:
    groups: dict[str, list[TaskScore]] = {}
    for s in scores:
        groups.setdefault(getattr(s, key), []).append(s)

    def order(k: str) -> tuple[int, str]:
        return (int(k[1:]), k) if key == "template" and k[1:].isdigit() else (0, k)

    return {
        k: Aggregate(
            f1=round(statistics.fmean(s.f1 for s in v), 4),
            precision=round(statistics.fmean(s.precision for s in v), 4),
            recall=round(statistics.fmean(s.recall for s in v), 4),
            tasks=len(v),
        )
        for k, v in sorted(groups.items(), key=lambda kv: order(kv[0]))
    }


def _table(db: str, table: str):
    import duckdb

    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f'SELECT * FROM "{table}"').df()
    finally:
        con.close()


def run_bench(
    task_ids: list[str] | None = None,
    *,
    no_source: bool = False,
    chaos: str = "none",
    repeat: int = 1,
    backend: str = "offline",
    seed: int = 0,
    root: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> BenchReport:
    """Collect and score each task (``repeat`` times); tasks that fail score 0 with their error."""
    from prefect_autodata.flows.collect import collect
    from prefect_autodata.sandbox.scorer import score
    from prefect_autodata.sandbox.server import SandboxServer, sandbox_secrets
    from prefect_autodata.sandbox.task_sources import source_paths
    from prefect_autodata.sandbox.tasks import catalog, get_task
    from prefect_autodata.workspace import Workspace

    if chaos not in ("none", "flaky", "hostile"):
        raise ConfigError(f"--chaos must be none, flaky or hostile, not {chaos!r}")
    if repeat < 1:
        raise ConfigError("--repeat must be at least 1")
    if task_ids:
        unknown = [t for t in task_ids if t not in {c.id for c in catalog()}]
        if unknown:
            raise ConfigError(
                f"--tasks: unknown task id(s) {', '.join(unknown)} (see `autodata bench --help`; "
                f"ids look like {catalog()[0].id})"
            )
    tasks = [get_task(t) for t in task_ids] if task_ids else catalog()
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    root_dir = Path(root) if root else Path(tempfile.mkdtemp(prefix="autodata-bench-"))
    scores: list[TaskScore] = []
    with SandboxServer(chaos=chaos, seed=seed) as server:
        base = server.base_url
        for r in range(repeat):
            for task in tasks:
                ws = Workspace(root_dir / f"r{r}" / task.id).ensure()
                sources = None if no_source else [base + p for p in source_paths(task)]
                try:
                    res = collect(
                        task.instruction,
                        sources=sources,
                        fields=list(task.fields),
                        workspace=ws,
                        backend=backend,
                        search_url=base,
                        mirror=base,
                        deploy=False,
                        prepare=sandbox_secrets,
                    )
                except Exception as exc:  # a bug in one task must not lose the others' figures
                    scores.append(
                        TaskScore(
                            id=task.id,
                            template=task.template,
                            domain=task.domain,
                            repeat=r,
                            status="error",
                            error=f"{type(exc).__name__}: {exc}",
                        )
                    )
                    say(f"{task.id}: error {exc}")
                    continue
                ts = TaskScore(
                    id=task.id,
                    template=task.template,
                    domain=task.domain,
                    repeat=r,
                    status=res.status,
                    stop_reason=res.stop_reason,
                    rows=res.rows,
                    agent_seconds=res.agent_seconds,
                    seconds=res.seconds,
                    tokens=res.tokens,
                    error=res.error,
                )
                truth = task.ground_truth()
                ts.expected_rows = len(truth)
                if res.table and res.status in ("succeeded", "failed_checks") and res.rows:
                    pred = _table(res.db, res.table)
                    s = score(pred, truth, fields=list(task.fields))
                    ts.f1, ts.precision, ts.recall = round(s.f1, 4), round(s.precision, 4), round(s.recall, 4)
                scores.append(ts)
                say(
                    f"{task.id}: {ts.status} F1={ts.f1:.3f} rows={ts.rows}/{ts.expected_rows} "
                    f"agent={ts.agent_seconds:.1f}s total={ts.seconds:.1f}s"
                )
    agent_times = [s.agent_seconds for s in scores if s.agent_seconds]
    return BenchReport(
        per_domain=_aggregate(scores, "domain"),
        per_template=_aggregate(scores, "template"),
        tasks=scores,
        median_agent_seconds=round(statistics.median(agent_times), 3) if agent_times else 0.0,
        mean_f1=round(statistics.fmean(s.f1 for s in scores), 4) if scores else 0.0,
        chaos=chaos,
        no_source=no_source,
        repeat=repeat,
        backend=backend,
        seconds=round(time.monotonic() - t0, 1),
    )


def to_markdown(report: BenchReport, *, title: str = "Agent squads on the sandbox catalog") -> str:
    """Per-domain, per-template and per-task tables (what ``docs/bench/squads.md`` holds)."""
    lines = [
        f"## {title}",
        "",
        f"Command: `{report.command or 'autodata bench'}` — backend {report.backend}, chaos {report.chaos}, "
        f"sources {'found through search' if report.no_source else 'given (site entry page)'}, "
        f"repeat {report.repeat}; machine: 2 cores. Mean F1 {report.mean_f1:.3f}; median agent time "
        f"(instruction → spec ready) {report.median_agent_seconds:.1f} s; whole run {report.seconds:.0f} s.",
        "",
        "| domain | tasks | F1 | P | R |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {k} | {a.tasks} | {a.f1:.3f} | {a.precision:.3f} | {a.recall:.3f} |"
        for k, a in report.per_domain.items()
    ]
    lines += ["", "| template | tasks | F1 | P | R |", "| --- | ---: | ---: | ---: | ---: |"]
    lines += [
        f"| {k} | {a.tasks} | {a.f1:.3f} | {a.precision:.3f} | {a.recall:.3f} |"
        for k, a in report.per_template.items()
    ]
    lines += [
        "",
        "| task | status | F1 | P | R | rows | expected | agent s | total s | tokens |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for t in report.tasks:
        status = t.status if t.status == "succeeded" else f"{t.status} ({t.stop_reason})"
        lines.append(
            f"| {t.id} | {status} | {t.f1:.3f} | {t.precision:.3f} | {t.recall:.3f} | {t.rows} | "
            f"{t.expected_rows} | {t.agent_seconds:.1f} | {t.seconds:.1f} | {t.tokens} |"
        )
    return "\n".join(lines) + "\n"


def summary_json(report: BenchReport) -> dict[str, Any]:
    """The ``--json`` object: ``per_domain``, ``per_template``, ``tasks``, ``median_agent_seconds``."""
    return report.model_dump(mode="json")
