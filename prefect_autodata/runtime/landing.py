"""Landing in DuckDB: one table per collector, upsert on the primary key, schema evolution, lineage per row.

Everything a run writes (data rows, quarantine, sources, checks, the run's final status) happens in
one transaction: a failed or killed run leaves the previous state exactly as it was. Batches are
registered as DataFrames and moved with set-based SQL, never row by row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import duckdb
import pandas as pd

from prefect_autodata.errors import TerminalError
from prefect_autodata.runtime.runner import DUCKDB_TYPES, LINEAGE_AT, LINEAGE_URL
from prefect_autodata.runtime.spec import CollectorSpec

RUN_ID = "_autodata_run_id"
LINEAGE_COLUMNS = {RUN_ID: "VARCHAR", LINEAGE_URL: "VARCHAR", LINEAGE_AT: "TIMESTAMPTZ"}


class LandingError(TerminalError):
    """The batch cannot land as declared (e.g. a type conflict that would lose values)."""


@dataclass
class LandingStats:
    rows_landed: int = 0
    rows_quarantined: int = 0
    added_columns: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)


def q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_columns(con: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    rows = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' "
        "AND table_name = ? ORDER BY ordinal_position",
        [table],
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def read_cursor(con: duckdb.DuckDBPyConnection, spec: CollectorSpec):
    """The stored incremental cursor: the max landed value of the cursor column (None before the first run).

    With ``incremental.partition_by`` it is a dict ``{partition value: max}`` (None when nothing landed).
    """
    inc = spec.incremental
    if inc is None:
        return None
    cols = table_columns(con, spec.table_name)
    if inc.cursor not in cols:
        return None
    if inc.partition_by is not None and inc.partition_by in cols:
        rows = con.execute(
            f"SELECT {q(inc.partition_by)}, max({q(inc.cursor)}) FROM {q(spec.table_name)} "
            f"WHERE {q(inc.partition_by)} IS NOT NULL GROUP BY 1"
        ).fetchall()
        return {str(k): v for k, v in rows if v is not None} or None
    return con.execute(f"SELECT max({q(inc.cursor)}) FROM {q(spec.table_name)}").fetchall()[0][0]


def _declared(spec: CollectorSpec) -> dict[str, str]:
    out = {c.name: DUCKDB_TYPES[c.type] for c in spec.output_columns()}
    out.update(LINEAGE_COLUMNS)
    return out


def _same_type(existing: str, declared: str) -> bool:
    norm = {
        "TIMESTAMP WITH TIME ZONE": "TIMESTAMPTZ",
        "INTEGER": "BIGINT",
        "INT64": "BIGINT",
        "FLOAT8": "DOUBLE",
    }
    return norm.get(existing.upper(), existing.upper()) == norm.get(declared.upper(), declared.upper())


def land_frame(
    con: duckdb.DuckDBPyConnection,
    spec: CollectorSpec,
    good: pd.DataFrame,
    run_id: str,
    *,
    quarantined: pd.DataFrame | None = None,
    before_commit: Callable[[], None] | None = None,
) -> LandingStats:
    """Upsert ``good`` into the collector's table (call inside an open transaction)."""
    stats = LandingStats()
    table = spec.table_name
    declared = _declared(spec)
    existing = table_columns(con, table)
    if not existing:
        cols_sql = ", ".join(f"{q(c)} {t}" for c, t in declared.items())
        con.execute(f"CREATE TABLE {q(table)} ({cols_sql})")
        existing = dict(declared)
    target: dict[str, str] = {}
    for c, t in declared.items():
        if c not in existing:
            con.execute(f"ALTER TABLE {q(table)} ADD COLUMN {q(c)} {t}")
            stats.added_columns.append(c)
            target[c] = t
        elif not _same_type(existing[c], t):
            stats.conflicts.append(f"column {c!r}: table has {existing[c]}, spec declares {t}")
            target[c] = existing[c]
        else:
            target[c] = t
    df = good.copy()
    if LINEAGE_URL in df.columns:  # secrets by value: a stored URL never carries a credential
        from prefect_autodata.runtime.redact import redact_column

        df[LINEAGE_URL] = redact_column(df[LINEAGE_URL])
    df[RUN_ID] = run_id
    df["_autodata_ord"] = range(len(df))
    con.register("_autodata_batch", df)
    try:
        for c, t in target.items():
            t_decl = declared[c]
            if not _same_type(t, t_decl):
                # a conflict lands only if every value survives the round trip; else the run fails
                lost = con.execute(
                    f"SELECT count(*) FROM (SELECT CAST({q(c)} AS {t_decl}) AS v FROM _autodata_batch) "
                    f"WHERE v IS NOT NULL AND (TRY_CAST(v AS {t}) IS NULL OR CAST(TRY_CAST(v AS {t}) AS {t_decl}) <> v)"
                ).fetchall()[0][0]
                if lost:
                    raise LandingError(
                        f"type conflict on column {c!r} of table {table!r}: the table has {t} but the spec "
                        f"declares {t_decl} and {lost} value(s) would change; migrate the column or rename it"
                    )
        select = ", ".join(f"CAST({q(c)} AS {t}) AS {q(c)}" for c, t in target.items() if c in df.columns)
        pk = [q(k) for k in spec.primary_key]
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE _autodata_stage AS SELECT {select} FROM _autodata_batch "
            f"QUALIFY row_number() OVER (PARTITION BY {', '.join(pk)} ORDER BY _autodata_ord DESC) = 1"
        )
        on = " AND ".join(f"{q(table)}.{k} IS NOT DISTINCT FROM s.{k}" for k in pk)
        con.execute(f"DELETE FROM {q(table)} USING _autodata_stage s WHERE {on}")
        cols = ", ".join(q(c) for c in target if c in df.columns)
        con.execute(f"INSERT INTO {q(table)} ({cols}) SELECT {cols} FROM _autodata_stage")
        stats.rows_landed = con.execute("SELECT count(*) FROM _autodata_stage").fetchall()[0][0]
        con.execute("DROP TABLE _autodata_stage")
    finally:
        con.unregister("_autodata_batch")
    if quarantined is not None and len(quarantined):
        _land_quarantine(con, table, quarantined, run_id)
        stats.rows_quarantined = len(quarantined)
    if before_commit is not None:
        before_commit()
    return stats


def _land_quarantine(con: duckdb.DuckDBPyConnection, table: str, df: pd.DataFrame, run_id: str) -> None:
    """Rows that failed checks go to ``<table>__quarantine`` as text, with the reasons (append-only)."""
    qt = f"{table}__quarantine"
    data = df.copy()
    data[RUN_ID] = run_id
    data = data.astype(object).where(data.notna(), None)
    from prefect_autodata.runtime.redact import redact_text

    for c in data.columns:  # text, with secrets redacted by value
        data[c] = data[c].map(lambda v: None if v is None else redact_text(str(v)))
    existing = table_columns(con, qt)
    if not existing:
        con.execute(f"CREATE TABLE {q(qt)} ({', '.join(f'{q(c)} VARCHAR' for c in data.columns)})")
    else:
        for c in data.columns:
            if c not in existing:
                con.execute(f"ALTER TABLE {q(qt)} ADD COLUMN {q(c)} VARCHAR")
    con.register("_autodata_quarantine", data)
    try:
        cols = ", ".join(q(c) for c in data.columns)
        con.execute(f"INSERT INTO {q(qt)} ({cols}) SELECT {cols} FROM _autodata_quarantine")
    finally:
        con.unregister("_autodata_quarantine")


# -- one run's transactions --------------------------------------------------------------------------------


def connect(db_path: str) -> duckdb.DuckDBPyConnection:
    """Open the destination; a locked or unreadable file is one clear error naming it."""
    from pathlib import Path

    Path(db_path).parent.mkdir(parents=True, exist_ok=True)
    try:
        return duckdb.connect(str(db_path))
    except duckdb.Error as exc:
        raise TerminalError(f"cannot open DuckDB database {db_path}: {str(exc).splitlines()[0]}") from exc


def begin_run(db_path: str, spec: CollectorSpec, run_id: str, *, flow_run_id: str | None, started_at):
    """Record the run as ``running`` (committed), mark dead earlier runs ``aborted``, return the stored cursor."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        con.execute("BEGIN")
        lineage.ensure_tables(con)
        lineage.mark_aborted(con, spec.name)
        lineage.start_run(
            con,
            run_id=run_id,
            collector=spec.name,
            table=spec.table_name,
            spec_hash=spec.version,
            flow_run_id=flow_run_id,
            started_at=started_at,
        )
        cursor = read_cursor(con, spec)
        con.execute("COMMIT")
        return cursor
    finally:
        con.close()


def land_run(
    db_path: str,
    spec: CollectorSpec,
    run_id: str,
    good: pd.DataFrame,
    *,
    sources: list,
    rows_fetched: int,
    rows_rejected: int,
    requests: int,
    quarantined: pd.DataFrame | None = None,
    check_results: list[dict] | None = None,
    status: str = "succeeded",
    warnings: list[str] | None = None,
    before_commit: Callable[[], None] | None = None,
    profile: dict | None = None,
):
    """Data, quarantine, sources, checks, the batch profile and the final run status in ONE transaction."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        con.execute("BEGIN")
        try:
            if status == "failed_checks":
                stats = LandingStats(rows_quarantined=len(quarantined) if quarantined is not None else 0)
                if quarantined is not None and len(quarantined):
                    _land_quarantine(con, spec.table_name, quarantined, run_id)
                if before_commit is not None:
                    before_commit()
            else:
                stats = land_frame(
                    con, spec, good, run_id, quarantined=quarantined, before_commit=before_commit
                )
            lineage.write_sources(con, run_id, sources)
            lineage.write_checks(con, run_id, check_results or [])
            if profile is not None and status == "succeeded":
                lineage.write_profile(con, run_id, spec.name, profile)
            cursor = read_cursor(con, spec)
            all_warnings = list(warnings or []) + [f"type conflict: {c}" for c in stats.conflicts]
            ended = lineage.finish_run(
                con,
                run_id,
                status=status,
                rows_fetched=rows_fetched,
                rows_landed=stats.rows_landed,
                rows_rejected=rows_rejected,
                rows_quarantined=stats.rows_quarantined,
                requests=requests,
                cursor_value=cursor,
                warnings=all_warnings,
                error="checks failed (policy fail): nothing landed" if status == "failed_checks" else None,
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return stats, cursor, ended, all_warnings
    finally:
        con.close()


def previous_profile(db_path: str, spec: CollectorSpec) -> dict | None:
    """The last succeeded run's batch profile (drift checks on reruns)."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        return lineage.last_profile(con, spec.name)
    finally:
        con.close()


def fail_run(db_path: str, run_id: str, error: str, *, sources: list, requests: int, rows_fetched: int = 0):
    """Mark the run failed (its sources are kept for diagnosis; no data rows were written)."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        con.execute("BEGIN")
        lineage.write_sources(con, run_id, sources)
        ended = lineage.finish_run(
            con, run_id, status="failed", error=error, requests=requests, rows_fetched=rows_fetched
        )
        con.execute("COMMIT")
        return ended
    finally:
        con.close()
