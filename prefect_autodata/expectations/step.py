"""The validation step of a run: the CheckSpec on the typed batch, before anything lands.

Called by ``runtime.pipeline.run_steps`` through ``Steps.validate`` (the runtime does not import this layer).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect_autodata.runtime import load as landing
from prefect_autodata.runtime.columns import FETCHED_AT as LINEAGE_AT
from prefect_autodata.runtime.columns import ORDINAL
from prefect_autodata.runtime.columns import SOURCE_URL as LINEAGE_URL
from prefect_autodata.runtime.pipeline import Validated
from prefect_autodata.runtime.spec import CollectorSpec


def validate_step(
    spec: CollectorSpec, good, checks: Any, run_id: str, db_path: str | None = None
) -> Validated:
    """Run the CheckSpec on the data columns; lineage columns ride along by row position.

    The run's Data Docs page goes to the workspace holding the destination database (its folder).
    """
    from prefect_autodata.expectations.enforce import enforce, report_result
    from prefect_autodata.expectations.spec import CheckSpec

    if not isinstance(checks, CheckSpec):
        checks = CheckSpec.model_validate(checks)
    data_cols = [c.name for c in spec.output_columns()]
    staged = isinstance(good, landing.Stage)
    # a streamed run's rows are read from its stage here, the one time they are materialised
    full = good.read([*data_cols, LINEAGE_URL, LINEAGE_AT]) if staged else good.reset_index(drop=True)
    if staged:  # the pandas types normalize gives (nullable integers, naive dates), as for a frame batch
        from prefect_autodata.runtime.normalize import cast_column

        for col in spec.output_columns():
            full[col.name] = cast_column(full[col.name], col)[0]
    from prefect_autodata.workspace import Workspace

    ws = Workspace(Path(db_path).resolve().parent) if db_path else Workspace.default()
    previous = landing.previous_profile(db_path, spec) if db_path else None
    res = enforce(
        full[data_cols], checks, run_id=run_id, previous=previous
    )  # returns a result, writes nothing
    report_result(res, checks, ws)  # the step reports: Data Docs, run record, artifact
    from prefect_autodata.datadocs import write_site_index

    write_site_index(ws)  # the index across every collector of this workspace
    if staged:
        dropped = full.index.difference(res.good.index)
        good.drop(full.loc[dropped, ORDINAL].tolist())
        kept = good
    else:
        kept = full.loc[res.good.index]
    quarantined = res.quarantined
    if len(quarantined):
        quarantined = quarantined.join(full[[LINEAGE_URL, LINEAGE_AT]], how="left")
    status = "failed_checks" if res.status == "failed" else "succeeded"
    return Validated(
        good=kept,
        quarantined=quarantined,
        results=res.results,
        status=status,
        checks_status=res.status,
        profile=res.profile,
        policy=res.policy,
        failed=res.failed_names(),
        docs_path=str(res.docs_path) if res.docs_path else None,
    )
