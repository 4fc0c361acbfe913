"""The run pipeline: fetch -> extract/normalize -> validate -> land, in that order, one-way.

Plain functions. ``flows/run_collector.py`` wraps each step as a Prefect task and runs the same
``run_steps``; ``run_spec`` calls it without Prefect. The validate step lives above the runtime
(``expectations.step.validate_step``) and is handed in through ``Steps``, so the runtime never imports
the expectations layer.

Streaming: when the fetch step takes a ``sink`` (``fetch_step`` and its task do), records flow page by
page from extract through ``normalize.StreamNormalizer`` (typed in batches on one thread of its own,
``BackgroundNormalizer``, fed through a bounded queue) into a ``load.Stage`` (a
scratch DuckDB file); the extract step finishes the stream and hands the stage on as ``Frame.good``;
validation reads the staged rows once; the load step merges the stage in one transaction. A spec with
a ``python`` step normalizes its whole record set at once (the step sees every record, as in the dry run).
A failing step is a ``StepFailed`` naming the step, the run and what was done so far.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from prefect_autodata.errors import AutoDataError, ConfigError, TransientError
from prefect_autodata.runtime import load as landing
from prefect_autodata.runtime.normalize import Frame
from prefect_autodata.runtime.result import RunResult
from prefect_autodata.runtime.runner import Collected
from prefect_autodata.runtime.spec import CollectorSpec


@dataclass
class Steps:
    """The four steps; plain functions for ``run_spec``, Prefect tasks inside the flow."""

    fetch: Callable[..., Collected]
    extract: Callable[..., tuple[Frame, int]]
    land: Callable[..., Any]
    validate: Callable[..., Validated] | None = None  # None: ``validate_step``


class StepFailed(AutoDataError):
    """A step of a run failed: ``step`` (fetch, extract, validate, land), the ``run_id``, the run's ``stats``
    so far (requests, rows fetched...) and the step's own error as ``cause`` (its message is this one's)."""

    def __init__(self, step: str, run_id: str, stats: dict[str, Any], cause: AutoDataError) -> None:
        super().__init__(str(cause))
        self.step, self.run_id, self.stats, self.cause = step, run_id, dict(stats), cause
        self.retryable = isinstance(cause, TransientError)


def accepts_sink(fn: Callable[..., Any]) -> bool:
    """Whether a fetch step (a function or a Prefect task) takes ``sink=``: then the run streams."""
    import inspect

    try:
        params = inspect.signature(getattr(fn, "fn", fn)).parameters
    except (TypeError, ValueError):
        return False
    return "sink" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


#: raw rows a streamed run lets wait for the normalizer thread before a fetch thread blocks (backpressure)
QUEUE_ROWS = 25_000


class BackgroundNormalizer:
    """A ``StreamNormalizer`` fed through a bounded queue by fetch threads, typed on ONE thread of its own.

    ``add`` hands a page on and returns (blocking only while ``max_rows`` raw rows wait), so fetching
    goes on while a batch is typed and staged, and no fetch thread holds a parsed page meanwhile. The
    normalizer sees the pages as before (same ``part``s, same batches), so the stage holds the same rows.
    ``finish``/``tally`` drain the queue first; an error on the normalizer thread is raised by the next
    ``add`` or by ``finish``. ``close`` stops the thread (``run_steps`` calls it however the run ends).
    Anything else (``absorb``, ``sink``, ``fetched``...) is the wrapped normalizer's.
    """

    def __init__(self, inner: Any, *, max_rows: int = QUEUE_ROWS) -> None:
        import queue
        import threading

        self.inner, self.max_rows = inner, max_rows
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._room = threading.Condition()
        self._waiting = 0
        self._error: BaseException | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="autodata-normalize", daemon=True)
        self._thread.start()

    def __getattr__(self, name: str) -> Any:
        if name == "inner" or name.startswith("__"):  # not set yet (a copy), or a protocol lookup
            raise AttributeError(name)
        return getattr(self.inner, name)

    def add(self, part: int, page: Any) -> None:
        if self._error is not None:
            raise self._error
        if not len(page):
            return
        if self._closed:  # drained (``tally``) and still fed: type on the caller's thread
            self.inner.add(part, page)
            return
        with self._room:
            while self._waiting >= self.max_rows and self._error is None:
                self._room.wait()
            self._waiting += len(page)
        self._queue.put((part, page))

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            part, page = item
            try:
                if self._error is None:
                    self.inner.add(part, page)
            except BaseException as exc:  # noqa: BLE001 - handed to the producers and to ``finish``
                self._error = exc
            finally:
                del item
                with self._room:
                    self._waiting -= len(page)
                    self._room.notify_all()
                del page

    def close(self) -> None:
        """Stop the thread once the queued pages are typed (idempotent)."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join()

    def _drain(self) -> None:
        self.close()
        if self._error is not None:
            raise self._error

    def tally(self) -> dict[str, Any]:
        self._drain()
        return self.inner.tally()

    def finish(self) -> Any:
        self._drain()
        return self.inner.finish()


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
    spec: CollectorSpec,
    *,
    base_url: str | None,
    today: date | None,
    cursor: Any,
    fetcher: Any = None,
    sink: Any = None,
):
    """Fetch every source (pagination, list -> detail) and extract raw records; returns (Collected, sources, requests).

    A mirror named by ``AUTODATA_MIRROR`` (a run-time mapping, never part of the spec) is applied
    by the fetcher: the spec keeps the real hosts. With a ``sink`` (a ``StreamNormalizer``) the pages
    go to it as they arrive (``Collected.stream``); a spec with a ``python`` step ignores it.
    """
    from prefect_autodata.runtime.fetch import Fetcher, mirror_from_env
    from prefect_autodata.runtime.runner import allowed_hosts, collect

    own = fetcher is None
    fetcher = fetcher or Fetcher(spec.politeness, allowed_hosts(spec, base_url), mirror=mirror_from_env())
    try:
        try:
            sink = sink if spec.python is None else None
            collected = collect(spec, fetcher, base_url=base_url, today=today, cursor=cursor, sink=sink)
        except AutoDataError as exc:
            exc.sources = list(fetcher.sources)  # type: ignore[attr-defined]
            exc.requests = fetcher.stats.requests  # type: ignore[attr-defined]
            raise
        return collected, list(fetcher.sources), fetcher.stats.requests
    finally:
        if own:
            fetcher.close()


def extract_partition(
    spec: CollectorSpec,
    folder: str,
    prefix: str,
    *,
    base_url: str | None = None,
    today: date | None = None,
    cursor: Any = None,
) -> dict[str, Any]:
    """Fan-out worker: fetch and normalize one partition (a spec reduced to a chunk of its parameter values)
    into Parquet files in ``folder`` (``load.PartitionFiles``); it never opens the destination. One writer
    stages the files in partition order and merges them (``load.Stage.append_parquet``, ``land_run``)."""
    from prefect_autodata.runtime.normalize import StreamNormalizer

    if spec.python is not None:
        raise ConfigError(f"spec {spec.name!r} has a python step (it sees every record): it cannot fan out")
    files = landing.PartitionFiles(folder, spec, prefix)
    stream = BackgroundNormalizer(StreamNormalizer(spec, files))
    try:
        collected, sources, requests = fetch_step(
            spec, base_url=base_url, today=today, cursor=cursor, sink=stream
        )
        tally = stream.tally()
        norm = stream.finish()
    finally:
        stream.close()
    return {
        "files": files.files,
        "rows": files.rows,
        "fetched": norm.fetched,
        "rejected": norm.frame.n_rejected,
        "requests": requests,
        "sources": sources,
        "issues": [i.model_dump() for i in norm.frame.issues],
        # for the writer: the fetch's own issues and log, and the normalizer's counts (``StreamNormalizer.absorb``)
        "fetch_issues": collected.issues,
        "request_log": collected.request_log,
        "tally": tally,
    }


def extract_step(spec: CollectorSpec, collected: Collected) -> tuple[Frame, int]:
    """Raw records -> python step (if any) -> typed frame (``runtime.normalize``, as the dry run); (Frame, rows fetched).

    A streamed run's records were typed as they arrived: the stream is finished and ``Frame.good`` is its stage.
    """
    from prefect_autodata.runtime.normalize import normalize, require_rows

    norm = collected.stream.finish() if collected.stream is not None else normalize(spec, collected)
    require_rows(norm)
    return norm.frame, norm.fetched


def land_step(db_path: str, spec: CollectorSpec, run_id: str, frame: Frame, **kw: Any):
    return landing.land_run(db_path, spec, run_id, frame.good, **kw)


def run_steps(
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
    step = "fetch"
    stage = None
    stream: dict[str, Any] = {}
    try:
        try:
            if accepts_sink(steps.fetch) and spec.python is None:
                from prefect_autodata.runtime.normalize import StreamNormalizer

                landing.lean_allocators()
                stage = landing.Stage(db_path, spec, run_id)
                stream["sink"] = BackgroundNormalizer(StreamNormalizer(spec, stage))
            collected, sources, requests = steps.fetch(
                spec, base_url=base_url, today=today, cursor=cursor, fetcher=fetcher, **stream
            )
            step = "extract"
            frame, fetched = steps.extract(spec, collected)
        except AutoDataError as exc:
            so_far = {"requests": getattr(exc, "requests", requests), "rows_fetched": fetched}
            raise StepFailed(step, run_id, so_far, exc) from exc
        issues = [i.model_dump() for i in [*collected.issues, *frame.issues]]
        warnings = [i["message"] for i in issues]
        verdict = Validated(frame.good, None, None, "succeeded", None, None)
        if checks is not None:
            if steps.validate is None:
                raise ConfigError("checks were given but the pipeline has no validate step")
            step = "validate"
            try:
                verdict = steps.validate(spec, frame.good, checks, run_id, db_path)
            except AutoDataError as exc:
                raise StepFailed(step, run_id, {"requests": requests, "rows_fetched": fetched}, exc) from exc
        good, quarantined, results, status = (
            verdict.good,
            verdict.quarantined,
            verdict.results,
            verdict.status,
        )
        checks_status, profile = verdict.checks_status, verdict.profile
        step = "land"
        try:
            stats, cursor_after, ended, warnings = steps.land(
                db_path,
                spec,
                run_id,
                Frame(good, frame.rejected, frame.issues, frame.rejected_total),
                sources=sources,
                rows_fetched=fetched,
                rows_rejected=frame.n_rejected,
                requests=requests,
                quarantined=quarantined,
                check_results=results,
                status=status,
                warnings=warnings,
                before_commit=before_commit,
                **({"profile": profile} if profile is not None else {}),
            )
        except AutoDataError as exc:
            raise StepFailed(step, run_id, {"requests": requests, "rows_fetched": fetched}, exc) from exc
        return base.model_copy(
            update={
                "status": status,
                "rows_fetched": fetched,
                "rows_landed": stats.rows_landed,
                "rows_rejected": frame.n_rejected,
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
        cause = exc.cause if isinstance(exc, StepFailed) else exc
        sources = getattr(cause, "sources", sources)
        requests = getattr(cause, "requests", requests)
        ended = landing.fail_run(
            db_path, run_id, str(exc), sources=sources, requests=requests, rows_fetched=fetched
        )
        failed_step = exc.step if isinstance(exc, StepFailed) else step
        return base.model_copy(
            update={
                "status": "failed",
                "error": str(exc),
                "ended_at": ended,
                "requests": requests,
                "failed_step": failed_step,
            }
        )
    except Exception as exc:  # a bug: record it, then let it surface with its traceback
        landing.fail_run(db_path, run_id, f"internal error: {exc!r}", sources=sources, requests=requests)
        raise
    finally:
        if "sink" in stream:
            stream["sink"].close()
        if stage is not None:
            stage.discard()


def failed_checks_message(v: Validated) -> str:
    """Why nothing landed, naming the failed checks and the policy that really applied."""
    names = ", ".join(v.failed or []) or "unnamed checks"
    why = (
        "a table-level check cannot blame single rows, so nothing can be quarantined"
        if v.policy == "quarantine"
        else "the whole batch is refused"
    )
    return f"checks failed under policy {v.policy}: {names} ({why}); nothing landed"
