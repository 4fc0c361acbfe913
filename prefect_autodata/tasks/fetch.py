"""The ``fetch`` task: run a spec's requests (retried by Prefect only for transient errors) and log each URL."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.errors import TransientError
from prefect_autodata.runtime.pipeline import fetch_step
from prefect_autodata.tasks.log import MAX_LISTED, run_logger


def transient_only(task, task_run, state) -> bool:
    """Retry policy: timeouts, 5xx and 429 are worth another try; bad specs and 4xx are not."""
    exc = state.data if isinstance(state.data, BaseException) else None
    if exc is None:
        try:
            exc = state.result(raise_on_failure=False)
        except Exception:
            return False
    return isinstance(exc, TransientError)


def fetch_and_log(spec, **kwargs):
    """``fetch_step`` plus one log line per URL fetched (the first ``MAX_LISTED``) and a total."""
    log = run_logger()
    try:
        collected, sources, requests = fetch_step(spec, **kwargs)
    except Exception as exc:
        failed = [s for s in getattr(exc, "sources", []) if getattr(s, "error", None)]
        for s in failed[:MAX_LISTED]:
            log.warning("failed %s: %s", s.url, s.error)
        raise
    if kwargs.get("cursor") is not None:
        log.info("incremental: resuming after cursor %s", kwargs["cursor"])
    for s in sources[:MAX_LISTED]:
        log.info("GET %s -> %s (%d bytes)%s", s.url, s.status, s.bytes, f" {s.error}" if s.error else "")
    if len(sources) > MAX_LISTED:
        log.info("... and %d more URLs", len(sources) - MAX_LISTED)
    errors = sum(1 for s in sources if s.error)
    log.info("fetched %d URLs in %d requests (%d failed) for %s", len(sources), requests, errors, spec.name)
    return collected, sources, requests


fetch_task = task(
    fetch_and_log,
    name="fetch",
    retries=2,
    retry_delay_seconds=[5, 30],
    retry_condition_fn=transient_only,
    cache_policy=NO_CACHE,
)
