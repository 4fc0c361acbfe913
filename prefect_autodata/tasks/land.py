"""The ``land`` task: one DuckDB transaction for data, quarantine, lineage and the run's status."""

from __future__ import annotations

from prefect import task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.runtime.pipeline import land_step
from prefect_autodata.tasks.log import run_logger


def land_and_log(db_path, spec, run_id, frame, **kw):
    stats, cursor_after, ended, warnings = land_step(db_path, spec, run_id, frame, **kw)
    log = run_logger()
    log.info(
        "landed %d rows in %s (%s), %d quarantined in %s__quarantine, %d rejected; run %s",
        stats.rows_landed,
        spec.table_name,
        db_path,
        stats.rows_quarantined,
        spec.table_name,
        kw.get("rows_rejected", 0),
        run_id,
    )
    if cursor_after is not None:
        log.info("incremental cursor now %s", cursor_after)
    for w in (warnings or [])[:5]:
        log.warning("%s", w)
    return stats, cursor_after, ended, warnings


land_task = task(land_and_log, name="land", retries=0, cache_policy=NO_CACHE)
