"""Every name the runtime adds to a user's DuckDB file, and the DuckDB type of each spec column type.

One module so that a system column or table is named once: extract adds the lineage columns, normalize
types them, load writes them and the lineage tables, expectations flags rows. User columns may not
start with ``SYSTEM_PREFIX`` (the spec validator refuses them), so these names never collide.
"""

from __future__ import annotations

SYSTEM_PREFIX = "_autodata"

# -- system columns on every landed row -----------------------------------------------------------------
RUN_ID = "_autodata_run_id"  # the run that last wrote the row
SOURCE_URL = "_autodata_source_url"  # the page or API response the row came from
FETCHED_AT = "_autodata_fetched_at"  # when that page was fetched (UTC)
# -- columns of intermediate frames, never landed -------------------------------------------------------
ERROR = "_error"  # why extract or normalize rejected the row (rejected rows only)
FAILED_CHECKS = "_autodata_failed_checks"  # the row checks a row failed (quarantine reason)
ORDINAL = "_autodata_ord"  # the row's position in its batch (last one wins among duplicate keys)
PART = "_autodata_part"  # the page a staged row came from, in request order (ties of ORDINAL across pages)

# -- lineage tables --------------------------------------------------------------------------------------
RUNS_TABLE = "_autodata_runs"  # one row per run
SOURCES_TABLE = "_autodata_sources"  # every URL fetched
CHECKS_TABLE = "_autodata_checks"  # every expectation evaluated
PROFILES_TABLE = "_autodata_profiles"  # the landed batch's profile (drift checks)
QUARANTINE_SUFFIX = "__quarantine"  # ``<table>__quarantine``: rows that failed checks, as text

# -- names of views and temp tables that live during one landing ------------------------------------------
BATCH_VIEW = "_autodata_batch"  # the typed batch registered with DuckDB
STAGE_TABLE = "_autodata_stage"  # the deduplicated batch, merged into the target in one transaction
QUARANTINE_VIEW = "_autodata_quarantine"
SOURCES_VIEW = "_autodata_sources_df"
STAGED_DB = "_autodata_staged"  # the run's staging file, attached read-only to the destination while merging
KEPT_TABLE = "_autodata_kept"  # stored non-null values a staged null must not overwrite
STAGING_DIR = "staging"  # ``<db folder>/staging/<table>-<run_id>.duckdb``: a streamed run's typed rows

# -- types -----------------------------------------------------------------------------------------------
DUCKDB_TYPES = {
    "string": "VARCHAR",
    "integer": "BIGINT",
    "float": "DOUBLE",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMPTZ",
    "json": "JSON",
}
LINEAGE_COLUMNS = {RUN_ID: "VARCHAR", SOURCE_URL: "VARCHAR", FETCHED_AT: "TIMESTAMPTZ"}


def quarantine_table(table: str) -> str:
    """The quarantine table beside ``table``."""
    return f"{table}{QUARANTINE_SUFFIX}"


def is_system_name(name: str) -> bool:
    """True for a name the runtime reserves (user columns may not use it)."""
    return name.startswith(SYSTEM_PREFIX)
