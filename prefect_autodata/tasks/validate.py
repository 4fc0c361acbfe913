"""The ``validate`` task: the CheckSpec on the batch (GE + pandera), its verdict and Data Docs location logged."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.expectations.step import validate_step
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
        from pathlib import Path

        from prefect_autodata.datadocs import page_url
        from prefect_autodata.workspace import Workspace

        ws = Workspace(Path(db_path).resolve().parent) if db_path else Workspace.default()
        url = page_url(v.docs_path, ws)
        log.info(
            "Data Docs: %s%s", v.docs_path, f" (served at {url} by `autodata docs serve`)" if url else ""
        )
    if v.failed:
        from prefect_autodata.tasks.events import emit_failed_checks

        try:
            emit_failed_checks(
                spec.name, run_id=run_id, policy=v.policy, status=v.checks_status, failed=list(v.failed)
            )
        except Exception as exc:  # events are a notification path, never a reason to fail the run
            log.warning("could not emit the failed-checks event: %s", exc)
    return v


validate_task = task(validate_and_log, name="validate", retries=0, cache_policy=NO_CACHE)
