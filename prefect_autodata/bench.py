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


def error_text(exc: BaseException, frames: int = 6) -> str:
    """``Type: message`` and the innermost frames (``file:line fn``), so a task's error can be traced."""
    import traceback

    tb = traceback.extract_tb(exc.__traceback__)[-frames:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(tb))
    return f"{type(exc).__name__}: {exc}" + (f" (at {where})" if where else "")


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
                            error=error_text(exc),
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


# ----------------------------------------------------------------------------- the layout zoo suite


class ZooTaskScore(BaseModel):
    id: str
    family: str
    kind: str
    domain: str
    status: str
    stop_reason: str = ""
    instruction: str = ""
    fields: list[str] | None = None
    source: str | None = None
    f1: float = 0.0
    precision: float = 0.0
    recall: float = 0.0
    row_precision: float = 0.0
    row_recall: float = 0.0
    rows: int = 0
    expected_rows: int = 0
    agent_seconds: float = 0.0
    seconds: float = 0.0
    tokens: int = 0
    error: str | None = None


class ZooAggregate(Aggregate):
    row_precision: float
    row_recall: float


class ZooBenchReport(BaseModel):
    suite: str = "zoo"
    seed: int
    per_family: dict[str, ZooAggregate]
    per_kind: dict[str, ZooAggregate]
    per_domain: dict[str, ZooAggregate]
    tasks: list[ZooTaskScore]
    f1: float
    precision: float
    recall: float
    row_precision: float
    row_recall: float
    median_agent_seconds: float
    backend: str = "offline"
    seconds: float = 0.0
    command: str = Field(default="", description="The command line that produced this report.")
    anonymous_search: bool = Field(
        default=False, description="Searched tasks worded as before site names (no name: '... on this site')."
    )
    only: str | None = Field(default=None, description="'searched' / 'sourced': the tasks kept, or all.")


def _zoo_mean(scores: list[ZooTaskScore]) -> ZooAggregate:
    def m(attr: str) -> float:
        return round(statistics.fmean(getattr(s, attr) for s in scores), 4) if scores else 0.0

    return ZooAggregate(
        f1=m("f1"),
        precision=m("precision"),
        recall=m("recall"),
        row_precision=m("row_precision"),
        row_recall=m("row_recall"),
        tasks=len(scores),
    )


def _zoo_groups(scores: list[ZooTaskScore], key: str) -> dict[str, ZooAggregate]:
    groups: dict[str, list[ZooTaskScore]] = {}
    for s in scores:
        groups.setdefault(getattr(s, key), []).append(s)
    return {k: _zoo_mean(v) for k, v in sorted(groups.items())}


def zoo_indices(
    seed: int, tasks: int, *, families: list[str] | None = None, kinds: list[str] | None = None
) -> list[int]:
    """The draw indices a zoo run scores: ``0..tasks-1``, or the first ``tasks`` of those families/kinds."""
    want_f, want_k = set(families or ()), set(kinds or ())
    if not (want_f or want_k):
        return list(range(tasks))
    from prefect_autodata.sandbox.zoo.catalog import draw_choice
    from prefect_autodata.sandbox.zoo.families import FAMILIES
    from prefect_autodata.sandbox.zoo.kinds import KINDS

    unknown = sorted((want_f - set(FAMILIES)) | (want_k - set(KINDS)))
    if unknown:
        raise ConfigError(
            f"--family/--kind: unknown {', '.join(unknown)} (families: {', '.join(sorted(FAMILIES))}; "
            f"kinds: {', '.join(sorted(KINDS))})"
        )
    indices: list[int] = []
    i = 0
    while len(indices) < tasks and i < 1000 * tasks:
        kind, family = draw_choice(seed, i)
        if (not want_f or family in want_f) and (not want_k or kind in want_k):
            indices.append(i)
        i += 1
    return indices


def run_zoo_bench(
    *,
    seed: int,
    tasks: int = 60,
    backend: str = "offline",
    root: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    families: list[str] | None = None,
    kinds: list[str] | None = None,
    anonymous_search: bool = False,
    only: str | None = None,
) -> ZooBenchReport:
    """Draw ``tasks`` zoo tasks from ``seed``, serve every site in one sandbox, collect and score each.

    ``families`` / ``kinds`` keep only the draws of those families / kinds (task i of the seed keeps its
    id, so a filtered run is a subset of the unfiltered draws, reproducible with the same seed).
    ``anonymous_search`` words the tasks given no source as before site names were added (the figures
    of earlier sessions); ``only`` ("searched" / "sourced") scores only the tasks without / with a source,
    while every drawn site is still served (and searchable).
    A task that cannot be drawn, collected or scored scores 0 with its error; the run goes on.
    """
    from prefect_autodata.flows.collect import collect
    from prefect_autodata.sandbox.scorer import score, spec_units
    from prefect_autodata.sandbox.server import sandbox_secrets
    from prefect_autodata.sandbox.zoo.catalog import draw_task
    from prefect_autodata.sandbox.zoo.server import ZooServer
    from prefect_autodata.workspace import Workspace

    if tasks < 1:
        raise ConfigError("--tasks must be at least 1 for the zoo suite")
    if only not in (None, "searched", "sourced"):
        raise ConfigError(f"--only must be searched or sourced, not {only!r}")
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    root_dir = Path(root) if root else Path(tempfile.mkdtemp(prefix="autodata-zoo-"))
    scores: list[ZooTaskScore] = []
    drawn = []
    indices = zoo_indices(seed, tasks, families=families, kinds=kinds)
    for i in indices:
        try:
            drawn.append(draw_task(seed, i, anonymous_search=anonymous_search))
        except Exception as exc:  # a generator bug in one task must not lose the others' figures
            scores.append(
                ZooTaskScore(
                    id=f"z{seed}-{i:03d}",
                    family="?",
                    kind="?",
                    domain="?",
                    status="error",
                    error=f"draw failed: {type(exc).__name__}: {exc}",
                )
            )
            say(f"z{seed}-{i:03d}: draw failed {exc}")
    with ZooServer([t.site for t in drawn], seed=seed) as server:
        base = server.base_url
        for task in drawn:
            if only and (task.source is None) != (only == "searched"):
                continue
            ts = ZooTaskScore(
                id=task.id,
                family=task.family,
                kind=task.kind,
                domain=task.domain,
                status="error",
                instruction=task.instruction,
                fields=task.fields,
                source=task.source,
                expected_rows=len(task.truth),
            )
            ws = Workspace(root_dir / task.id).ensure()
            try:
                res = collect(
                    task.instruction,
                    sources=[base + task.source] if task.source else None,
                    fields=list(task.fields) if task.fields else None,
                    workspace=ws,
                    backend=backend,
                    search_url=base,
                    mirror=base,
                    today=task.today,
                    deploy=False,
                    prepare=sandbox_secrets,
                )
                ts.status, ts.stop_reason, ts.rows = res.status, res.stop_reason, res.rows
                ts.agent_seconds, ts.seconds, ts.tokens, ts.error = (
                    res.agent_seconds,
                    res.seconds,
                    res.tokens,
                    res.error,
                )
                if res.table and res.status in ("succeeded", "failed_checks") and res.rows:
                    s = score(
                        _table(res.db, res.table),
                        task.truth,
                        fields=task.scored_fields,
                        units=spec_units(res.spec),
                    )
                    ts.f1, ts.precision, ts.recall = round(s.f1, 4), round(s.precision, 4), round(s.recall, 4)
                    ts.row_precision, ts.row_recall = round(s.row_precision, 4), round(s.row_recall, 4)
            except Exception as exc:  # one task's failure scores 0 with its error
                ts.status = "error"
                ts.error = error_text(exc)
            scores.append(ts)
            say(
                f"{ts.id} ({ts.family}): {ts.status} F1={ts.f1:.3f} rows={ts.rows}/{ts.expected_rows} "
                f"agent={ts.agent_seconds:.1f}s"
            )
    overall = _zoo_mean(scores)
    agent_times = [s.agent_seconds for s in scores if s.agent_seconds]
    return ZooBenchReport(
        seed=seed,
        per_family=_zoo_groups(scores, "family"),
        per_kind=_zoo_groups(scores, "kind"),
        per_domain=_zoo_groups(scores, "domain"),
        tasks=scores,
        f1=overall.f1,
        precision=overall.precision,
        recall=overall.recall,
        row_precision=overall.row_precision,
        row_recall=overall.row_recall,
        median_agent_seconds=round(statistics.median(agent_times), 3) if agent_times else 0.0,
        backend=backend,
        seconds=round(time.monotonic() - t0, 1),
        anonymous_search=anonymous_search,
        only=only,
    )


def zoo_markdown(report: ZooBenchReport) -> str:
    """Overall, per-family, per-kind and per-task tables of a zoo run."""

    def table(title: str, groups: dict[str, ZooAggregate]) -> list[str]:
        out = [
            "",
            f"| {title} | tasks | F1 | P | R | row P | row R |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        out += [
            f"| {k} | {a.tasks} | {a.f1:.3f} | {a.precision:.3f} | {a.recall:.3f} | {a.row_precision:.3f} | "
            f"{a.row_recall:.3f} |"
            for k, a in groups.items()
        ]
        return out

    lines = [
        f"## The layout zoo (seed {report.seed}, {len(report.tasks)} tasks)",
        "",
        f"Command: `{report.command or f'autodata bench --suite zoo --seed {report.seed}'}` — backend "
        f"{report.backend}. F1 {report.f1:.3f} (P {report.precision:.3f}, R {report.recall:.3f}), row P "
        f"{report.row_precision:.3f}, row R {report.row_recall:.3f}; median agent time "
        f"{report.median_agent_seconds:.1f} s; whole run {report.seconds:.0f} s.",
        "",
        "Searched tasks (no --source): "
        + (
            "worded as before site names (`--anonymous-search`: no site named)."
            if report.anonymous_search
            else "the sentence names the site by the name its pages show."
        )
        + (f" Only the {report.only} tasks are scored (`--only {report.only}`)." if report.only else ""),
    ]
    statuses: dict[str, int] = {}
    for t in report.tasks:
        statuses[t.status] = statuses.get(t.status, 0) + 1
    lines.append("")
    lines.append(
        "Task outcomes: "
        + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items(), key=lambda kv: -kv[1]))
        + "."
    )
    lines += table("family", report.per_family)
    lines += table("kind", report.per_kind)
    lines += table("domain", report.per_domain)
    lines += [
        "",
        "| task | family | status | F1 | rows | expected | agent s |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for t in report.tasks:
        status = (
            t.status if t.status == "succeeded" else f"{t.status} ({t.stop_reason or (t.error or '')[:60]})"
        )
        lines.append(
            f"| {t.id} | {t.family} | {status} | {t.f1:.3f} | {t.rows} | {t.expected_rows} | {t.agent_seconds:.1f} |"
        )
    return "\n".join(lines) + "\n"
