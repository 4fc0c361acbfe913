"""The ``fetch`` task: run a spec's requests (the fetcher retries each request; the task is not retried) and log each URL."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.runtime.pipeline import fetch_step
from prefect_autodata.tasks.log import MAX_LISTED, run_logger


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


# One retry layer: the fetcher retries each request (FetchPolicy.max_retries, backoff, Retry-After, the
# run's fetch budget); a Prefect retry of this task would re-run every request of the run on top of
# that (4 attempts x 3 task runs on one URL, plus a re-crawl), so the task itself is never retried.
fetch_task = task(
    fetch_and_log,
    name="fetch",
    retries=0,
    cache_policy=NO_CACHE,
)
