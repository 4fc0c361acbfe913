"""The ``validate`` task: the CheckSpec on the batch (GE + pandera), its verdict and Data Docs location logged."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.flows.run_collector import validate_step
from prefect_autodata.tasks.log import listed, run_logger


def validate_and_log(spec, good, checks, run_id, db_path=None):
    v = validate_step(spec, good, checks, run_id, db_path)
    log = run_logger()
    results = v.results or []
    passed = sum(1 for r in results if r.get("passed"))
    log.info(
        "checks %s (policy %s): %d of %d passed, %d rows quarantined",
        v.checks_status,
        v.policy,
        passed,
        len(results),
        0 if v.quarantined is None else len(v.quarantined),
    )
    if v.failed:
        log.warning("failed checks: %s", listed(v.failed))
    if v.docs_path:
        log.info("Data Docs: %s", v.docs_path)
    return v


validate_task = task(validate_and_log, name="validate", retries=0, cache_policy=NO_CACHE)
