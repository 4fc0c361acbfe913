"""The ``extract`` task: raw records -> python step -> typed columns (deterministic, never retried)."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.runtime.pipeline import extract_step
from prefect_autodata.tasks.log import run_logger


def extract_and_log(spec, collected):
    frame, fetched = extract_step(spec, collected)
    log = run_logger()
    log.info("extracted %d records -> %d typed rows, %d rejected", fetched, len(frame.good), frame.n_rejected)
    if len(frame.rejected) and "_error" in frame.rejected.columns:
        for reason, n in frame.rejected["_error"].astype(str).value_counts().head(5).items():
            log.warning("rejected %d row(s): %s", n, reason)
    for issue in frame.issues[:5]:
        log.warning("%s", getattr(issue, "message", issue))
    return frame, fetched


extract_task = task(extract_and_log, name="extract", retries=0, cache_policy=NO_CACHE)
