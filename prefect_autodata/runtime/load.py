"""Load: staging, merge and lineage in DuckDB. One table per collector, upsert on the primary key, schema
evolution, lineage per row.

A streamed run appends its typed rows batch by batch to a ``Stage`` (a scratch DuckDB file beside the
destination, ``<db folder>/staging/``), so the whole batch is never held in memory; the merge into the
target table reads the stage attached read-only. Everything a run writes to the destination (data rows,
quarantine, sources, checks, the run's final status) happens in ONE transaction at the end: a failed or
killed run leaves the previous state exactly as it was (a stage left by a killed run is removed by the
next run). A DataFrame batch (tests, small callers) takes the same merge through a registered view.
Rows are moved with set-based SQL, never row by row.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from prefect_autodata.errors import TerminalError
from prefect_autodata.runtime.columns import (
    BATCH_VIEW,
    DUCKDB_TYPES,
    KEPT_TABLE,
    LINEAGE_COLUMNS,
    ORDINAL,
    PART,
    QUARANTINE_VIEW,
    RUN_ID,
    STAGE_TABLE,
    STAGED_DB,
    STAGING_DIR,
    quarantine_table,
)
from prefect_autodata.runtime.columns import SOURCE_URL as LINEAGE_URL
from prefect_autodata.runtime.spec import CollectorSpec


class LandingError(TerminalError):
    """The batch cannot land as declared (e.g. a type conflict that would lose values)."""


@dataclass
class LandingStats:
    rows_landed: int = 0
    rows_quarantined: int = 0
    added_columns: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    #: rows of the batch whose primary key an earlier row of the same batch already had
    duplicate_rows: int = 0
    duplicate_examples: list[list] = field(default_factory=list)
    #: column -> stored non-null values the batch held as null (kept, not overwritten)
    nulls_kept: dict[str, int] = field(default_factory=dict)

    def warnings(self) -> list[str]:
        out = [f"type conflict: {c}" for c in self.conflicts]
        if self.duplicate_rows:
            eg = "; ".join(", ".join(str(v) for v in e) for e in self.duplicate_examples)
            out.append(
                f"duplicate keys: {self.duplicate_rows} row(s) of the batch repeat a primary key of an "
                f"earlier row (the last one landed), e.g. {eg}"
            )
        if self.nulls_kept:
            cols = ", ".join(f"{c} ({n})" for c, n in sorted(self.nulls_kept.items()))
            out.append(
                f"kept {sum(self.nulls_kept.values())} stored non-null value(s) the batch had as null: {cols} "
                "(mark a field may_become_null to let a run clear it)"
            )
        return out

    def check_rows(self) -> list[dict]:
        """Landing's own findings as ``_autodata_checks`` rows (engine ``landing``)."""
        dup = {"failing_rows": self.duplicate_rows, "examples": self.duplicate_examples}
        return [
            {"check": "landing:duplicate_keys", "engine": "landing", "passed": not self.duplicate_rows,
             "observed": dup, "failing_rows": self.duplicate_rows},
            {"check": "landing:null_overwrites", "engine": "landing", "passed": not self.nulls_kept,
             "observed": self.nulls_kept, "failing_rows": sum(self.nulls_kept.values())},
        ]  # fmt: skip


#: how long landing waits for a DuckDB file another process holds (env ``AUTODATA_LOCK_WAIT_S``)
LOCK_WAIT_S = 30.0


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


# -- the stage: a streamed run's typed rows ----------------------------------------------------------------

#: DuckDB memory bound of a landing process (env ``AUTODATA_DUCKDB_MEMORY``); past it DuckDB spills to disk
DUCKDB_MEMORY = "128MB"


def duckdb_memory() -> str:
    return os.environ.get("AUTODATA_DUCKDB_MEMORY", DUCKDB_MEMORY)


_lean = False


def lean_allocators() -> None:
    """Once per process, before a streamed run's threads start: Arrow allocates from the system allocator
    (its default mimalloc pool keeps freed batches' memory), and glibc keeps at most two malloc arenas
    (by default up to eight per core: the fetch threads' pages fragment them). Memory only, never results:
    the stock set's 200 tickers peaked at 464 MiB instead of 562. ``AUTODATA_LEAN_MEMORY=0`` leaves both
    allocators as they are."""
    global _lean
    if _lean or os.environ.get("AUTODATA_LEAN_MEMORY", "1") == "0":
        return
    _lean = True
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to bound
        pass


def _bound(con: duckdb.DuckDBPyConnection) -> None:
    """Bound DuckDB's buffer pool and let it spill (big stages and merges stay within a few hundred MiB)."""
    con.execute(f"SET memory_limit = '{duckdb_memory()}'")
    con.execute("SET preserve_insertion_order = false")


def staging_dir(db_path: str) -> Path:
    return Path(db_path).resolve().parent / STAGING_DIR


def _redacted(df: pd.DataFrame) -> pd.DataFrame:
    """Secrets by value: no stored value carries a credential we resolved or sent."""
    from prefect_autodata.redact import redact_column, redact_data_column

    for c in df.columns:
        df[c] = redact_column(df[c]) if c == LINEAGE_URL else redact_data_column(df[c])
    return df


class Stage:
    """A run's typed rows, appended batch by batch to a scratch DuckDB file beside the destination.

    ``append`` takes typed frames (``normalize.to_frame`` output, any order of arrival: ``part`` is the
    page's position in request order, so among repeated keys the last one in request order wins, as in
    a one-frame batch); ``finish`` removes repeated keys (counted); ``land_run`` merges the stage into
    the destination in one transaction; ``discard`` removes the file. Thread-safe.
    """

    def __init__(self, db_path: str, spec: CollectorSpec, run_id: str) -> None:
        self.spec, self.run_id = spec, run_id
        self.path = staging_dir(db_path) / f"{spec.table_name}-{run_id}.duckdb"
        self.declared = _declared(spec)
        self.rows = 0
        self.duplicate_rows = 0
        self.duplicate_examples: list[list] = []
        self.finished = False
        self._lock = threading.Lock()
        self._con: duckdb.DuckDBPyConnection | None = None

    def __len__(self) -> int:
        return self.rows

    @property
    def empty(self) -> bool:
        return self.rows == 0

    @property
    def columns(self) -> list[str]:
        return list(self.declared)

    def _open(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for p in (self.path, Path(f"{self.path}.wal")):
                p.unlink(missing_ok=True)
            self._con = duckdb.connect(str(self.path))
            _bound(self._con)
            cols = ", ".join(f"{q(c)} {t}" for c, t in self.declared.items())
            self._con.execute(f"CREATE TABLE {STAGE_TABLE} ({cols}, {ORDINAL} BIGINT, {PART} BIGINT)")
        return self._con

    def append(self, good: pd.DataFrame, part: int | pd.Series = 0) -> None:
        """Typed rows (output columns + lineage) -> the stage, cast to the declared types."""
        if self.finished:
            raise RuntimeError("stage already finished")
        if not len(good):
            return
        df = pd.DataFrame({c: good[c] for c in self.declared if c in good.columns})
        df = _redacted(df)
        df[RUN_ID] = self.run_id
        with self._lock:
            con = self._open()
            df[ORDINAL] = range(self.rows, self.rows + len(df))
            df[PART] = part
            select = ", ".join(
                f"CAST({q(c)} AS {t})" if c in df.columns else f"CAST(NULL AS {t})"
                for c, t in self.declared.items()
            )
            con.register(BATCH_VIEW, df)
            try:
                con.execute(f"INSERT INTO {STAGE_TABLE} SELECT {select}, {ORDINAL}, {PART} FROM {BATCH_VIEW}")
            finally:
                con.unregister(BATCH_VIEW)
            self.rows += len(df)

    def append_parquet(self, path: str | Path, offset: int = 0) -> int:
        """A fan-out worker's Parquet file (``PartitionFiles``: typed, redacted) -> the stage; its page
        positions are shifted by ``offset`` (the partition's place in request order). Returns its rows."""
        if self.finished:
            raise RuntimeError("stage already finished")
        with self._lock:
            con = self._open()
            src = f"read_parquet('{Path(path).as_posix()}')"
            have = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {src}").fetchall()}
            cols = ", ".join(
                f"CAST({q(c)} AS {t})"
                if c in have and c != RUN_ID
                else ("?" if c == RUN_ID else f"CAST(NULL AS {t})")
                for c, t in self.declared.items()
            )
            n = con.execute(
                f"INSERT INTO {STAGE_TABLE} SELECT {cols}, {self.rows} + row_number() OVER () - 1, "
                f"{PART} + {int(offset)} FROM {src}",
                [self.run_id],
            ).fetchall()[0][0]
            self.rows += n
            return n

    def finish(self) -> Stage:
        """No more rows: repeated primary keys are counted and only the last of each kept; the file is closed."""
        with self._lock:
            if self.finished:
                return self
            con = self._open()
            pk = ", ".join(q(k) for k in self.spec.primary_key)
            distinct = con.execute(
                f"SELECT count(*) FROM (SELECT DISTINCT {pk} FROM {STAGE_TABLE})"
            ).fetchall()
            if distinct[0][0] != self.rows:
                rows = con.execute(
                    f"SELECT {pk}, count(*) AS n FROM {STAGE_TABLE} GROUP BY ALL HAVING count(*) > 1 "
                    "ORDER BY n DESC LIMIT 5"
                ).fetchall()
                self.duplicate_rows = self.rows - distinct[0][0]
                self.duplicate_examples = [[str(v) for v in r[:-1]] for r in rows]
                con.execute(
                    f"CREATE TABLE {STAGE_TABLE}_last AS SELECT * FROM {STAGE_TABLE} QUALIFY row_number() "
                    f"OVER (PARTITION BY {pk} ORDER BY {PART} DESC, {ORDINAL} DESC) = 1"
                )
                con.execute(f"DROP TABLE {STAGE_TABLE}")
                con.execute(f"ALTER TABLE {STAGE_TABLE}_last RENAME TO {STAGE_TABLE}")
            con.execute("CHECKPOINT")
            con.close()
            self._con = None
            self.finished = True
        return self

    def _read_con(self) -> duckdb.DuckDBPyConnection:
        self.finish()
        con = duckdb.connect(str(self.path))
        _bound(con)
        return con

    def read(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The staged rows as one frame (validation: the one time they are materialised), in stage order."""
        con = self._read_con()
        try:
            cols = ", ".join(q(c) for c in [*(columns or self.columns), ORDINAL])
            return con.execute(f"SELECT {cols} FROM {STAGE_TABLE} ORDER BY {ORDINAL}").df()
        finally:
            con.close()

    def drop(self, ordinals: list[int]) -> None:
        """Remove rows (quarantined by the checks) from the stage before it lands."""
        if not ordinals:
            return
        con = self._read_con()
        try:
            con.register(BATCH_VIEW, pd.DataFrame({ORDINAL: list(ordinals)}))
            con.execute(f"DELETE FROM {STAGE_TABLE} WHERE {ORDINAL} IN (SELECT {ORDINAL} FROM {BATCH_VIEW})")
            con.unregister(BATCH_VIEW)
            self.rows = con.execute(f"SELECT count(*) FROM {STAGE_TABLE}").fetchall()[0][0]
        finally:
            con.close()

    def to_parquet(self, dest: Path) -> None:
        con = self._read_con()
        try:
            cols = ", ".join(q(c) for c in self.columns)
            con.execute(f"COPY (SELECT {cols} FROM {STAGE_TABLE}) TO '{dest}' (FORMAT parquet)")
        finally:
            con.close()

    def discard(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None
            for p in (self.path, Path(f"{self.path}.wal")):
                p.unlink(missing_ok=True)
            try:
                self.path.parent.rmdir()
            except OSError:
                pass


class PartitionFiles:
    """A fan-out worker's sink (``StreamNormalizer`` hands it typed batches): each batch is one Parquet file in
    ``folder``, redacted, with its rows' page positions; the single writer stages them (``Stage.append_parquet``).
    A worker never opens the destination database."""

    def __init__(self, folder: str | Path, spec: CollectorSpec, prefix: str) -> None:
        self.folder, self.prefix = Path(folder), prefix
        self.declared = _declared(spec)
        self.files: list[str] = []
        self.rows = 0
        self._lock = threading.Lock()

    def append(self, good: pd.DataFrame, part: int | pd.Series = 0) -> None:
        if not len(good):
            return
        df = _redacted(pd.DataFrame({c: good[c] for c in self.declared if c in good.columns}))
        df[PART] = part
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            dest = self.folder / f"{self.prefix}-{len(self.files):05d}.parquet"
            df.to_parquet(dest, index=False)
            self.files.append(str(dest))
            self.rows += len(df)


def remove_stale_stages(db_path: str, live: set[str]) -> int:
    """Stage files of runs that are not running any more (killed mid-run): removed. Returns how many."""
    d = staging_dir(db_path)
    if not d.is_dir():
        return 0
    n = 0
    for p in d.glob("*.duckdb*"):
        run_id = p.name.split(".duckdb")[0].rsplit("-", 1)[-1]
        if run_id not in live:
            p.unlink(missing_ok=True)
            n += 1
    for p in d.glob("*-chunks-*"):  # a fan-out run's partition files (``deployments.dask``)
        run_id = p.name.split("-chunks-")[0].rsplit("-", 1)[-1]
        if p.is_dir() and run_id not in live:
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    try:
        d.rmdir()
    except OSError:
        pass
    return n


# -- the merge ---------------------------------------------------------------------------------------------


def land_frame(
    con: duckdb.DuckDBPyConnection,
    spec: CollectorSpec,
    good: pd.DataFrame | Stage,
    run_id: str,
    *,
    quarantined: pd.DataFrame | None = None,
    before_commit: Callable[[], None] | None = None,
    on_duplicate_keys: str = "warn",
) -> LandingStats:
    """Upsert ``good`` (a typed frame or a finished ``Stage``) into the collector's table (call inside an open
    transaction; a stage must be attached as ``STAGED_DB``, see ``land_run``).

    Nothing is lost silently: rows repeating a key within the batch are counted (``warn``: the
    last one lands; ``fail``: a LandingError), and a null in the batch never replaces a stored
    non-null value unless the field is ``may_become_null`` (the kept values are counted).
    """
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
    staged = isinstance(good, Stage)
    if staged:
        src, present = f"{STAGED_DB}.main.{STAGE_TABLE}", list(declared)
        stats.duplicate_rows, stats.duplicate_examples = good.duplicate_rows, good.duplicate_examples
    else:
        df = _redacted(good.copy())
        df[RUN_ID] = run_id
        df[ORDINAL] = range(len(df))
        src, present = BATCH_VIEW, [c for c in declared if c in df.columns]
        con.register(BATCH_VIEW, df)
    try:
        for c, t in target.items():
            t_decl = declared[c]
            if c in present and not _same_type(t, t_decl):
                # a conflict lands only if every value survives the round trip; else the run fails
                lost = con.execute(
                    f"SELECT count(*) FROM (SELECT CAST({q(c)} AS {t_decl}) AS v FROM {src}) "
                    f"WHERE v IS NOT NULL AND (TRY_CAST(v AS {t}) IS NULL OR CAST(TRY_CAST(v AS {t}) AS {t_decl}) <> v)"
                ).fetchall()[0][0]
                if lost:
                    raise LandingError(
                        f"type conflict on column {c!r} of table {table!r}: the table has {t} but the spec "
                        f"declares {t_decl} and {lost} value(s) would change; migrate the column or rename it"
                    )
        pk = [q(k) for k in spec.primary_key]
        if not staged:
            _count_duplicates(con, spec, stats)
        if stats.duplicate_rows and on_duplicate_keys == "fail":
            raise LandingError(stats.warnings()[-1] + "; policy fail: nothing landed")
        if not staged:  # typed and deduplicated like a stage, in a temp table
            select = ", ".join(f"CAST({q(c)} AS {declared[c]}) AS {q(c)}" for c in present)
            dedup = (
                f" QUALIFY row_number() OVER (PARTITION BY {', '.join(pk)} ORDER BY {ORDINAL} DESC) = 1"
                if stats.duplicate_rows
                else ""
            )
            con.execute(
                f"CREATE OR REPLACE TEMP TABLE {STAGE_TABLE} AS SELECT {select} FROM {BATCH_VIEW}{dedup}"
            )
            src = STAGE_TABLE
        _merge(con, spec, src, target, present, stats)
        if not staged:
            con.execute(f"DROP TABLE {STAGE_TABLE}")
    finally:
        if not staged:
            con.unregister(BATCH_VIEW)
    if quarantined is not None and len(quarantined):
        _land_quarantine(con, table, quarantined, run_id)
        stats.rows_quarantined = len(quarantined)
    if before_commit is not None:
        before_commit()
    return stats


def _merge(
    con: duckdb.DuckDBPyConnection,
    spec: CollectorSpec,
    src: str,
    target: dict[str, str],
    present: list[str],
    stats: LandingStats,
) -> None:
    """Staged rows (typed, one per key) replace the target's rows of the same key; the rest are appended.

    A null in the stage takes the stored non-null value of the same key (counted per column): a source
    field renamed or dropped upstream yields nulls, and replacing good rows with them would lose data
    without a trace.
    """
    table = q(spec.table_name)
    pk = [q(k) for k in spec.primary_key]
    on = " AND ".join(f"{table}.{k} IS NOT DISTINCT FROM s.{k}" for k in pk)
    candidates = [
        c
        for c in target
        if c in present
        and c not in spec.primary_key
        and c not in LINEAGE_COLUMNS
        and c not in spec.nullable_updates()
    ]
    keep: list[str] = []
    if candidates:  # a column without nulls cannot overwrite anything
        nulls = con.execute(
            "SELECT "
            + ", ".join(f"count(*) FILTER (WHERE {q(c)} IS NULL)" for c in candidates)
            + f" FROM {src}"
        ).fetchall()[0]
        keep = [c for c, n in zip(candidates, nulls, strict=True) if n]
    kept: dict[str, int] = {}
    if keep:
        counts = con.execute(
            "SELECT "
            + ", ".join(
                f"count(*) FILTER (WHERE s.{q(c)} IS NULL AND {table}.{q(c)} IS NOT NULL)" for c in keep
            )
            + f" FROM {src} s JOIN {table} ON {on}"
        ).fetchall()[0]
        kept = {c: int(n) for c, n in zip(keep, counts, strict=True) if n}
    if kept:
        where = " OR ".join(f"(s.{q(c)} IS NULL AND {table}.{q(c)} IS NOT NULL)" for c in kept)
        cols = ", ".join([*(f"{table}.{k}" for k in pk), *(f"{table}.{q(c)}" for c in kept)])
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE {KEPT_TABLE} AS SELECT {cols} FROM {table} JOIN {src} s ON {on} "
            f"WHERE {where}"
        )
        stats.nulls_kept = kept
    con.execute(f"DELETE FROM {table} USING {src} s WHERE {on}")
    cols = [c for c in target if c in present]

    def value(c: str) -> str:
        v = f"CAST(s.{q(c)} AS {target[c]})"
        return f"coalesce({v}, k.{q(c)})" if c in kept else v

    select = ", ".join(value(c) for c in cols)
    join = ""
    if kept:
        join = f" LEFT JOIN {KEPT_TABLE} k ON " + " AND ".join(
            f"k.{k} IS NOT DISTINCT FROM s.{k}" for k in pk
        )
    con.execute(f"INSERT INTO {table} ({', '.join(q(c) for c in cols)}) SELECT {select} FROM {src} s{join}")
    if kept:
        con.execute(f"DROP TABLE {KEPT_TABLE}")
    stats.rows_landed = con.execute(f"SELECT count(*) FROM {src}").fetchall()[0][0]


def _count_duplicates(con: duckdb.DuckDBPyConnection, spec: CollectorSpec, stats: LandingStats) -> None:
    """How many batch rows repeat a primary key, with up to five example keys."""
    pk = ", ".join(q(k) for k in spec.primary_key)
    distinct = con.execute(f"SELECT count(*) FROM (SELECT DISTINCT {pk} FROM {BATCH_VIEW})").fetchall()[0][0]
    if distinct == con.execute(f"SELECT count(*) FROM {BATCH_VIEW}").fetchall()[0][0]:
        return
    rows = con.execute(
        f"SELECT {pk}, count(*) AS n FROM {BATCH_VIEW} GROUP BY ALL HAVING count(*) > 1 ORDER BY n DESC"
    ).fetchall()
    stats.duplicate_rows = int(sum(r[-1] - 1 for r in rows))
    stats.duplicate_examples = [[str(v) for v in r[:-1]] for r in rows[:5]]


def _land_quarantine(con: duckdb.DuckDBPyConnection, table: str, df: pd.DataFrame, run_id: str) -> None:
    """Rows that failed checks go to ``<table>__quarantine`` as text, with the reasons (append-only)."""
    qt = quarantine_table(table)
    data = df.copy()
    data[RUN_ID] = run_id
    data = data.astype(object).where(data.notna(), None)
    from prefect_autodata.redact import redact_text, redact_values

    for c in data.columns:  # text, with secrets redacted by value (URLs and reasons: by name rules too)
        clean = redact_text if c in (LINEAGE_URL, "_error") else redact_values
        data[c] = data[c].map(lambda v, clean=clean: None if v is None else clean(str(v)))
    existing = table_columns(con, qt)
    if not existing:
        con.execute(f"CREATE TABLE {q(qt)} ({', '.join(f'{q(c)} VARCHAR' for c in data.columns)})")
    else:
        for c in data.columns:
            if c not in existing:
                con.execute(f"ALTER TABLE {q(qt)} ADD COLUMN {q(c)} VARCHAR")
    con.register(QUARANTINE_VIEW, data)
    try:
        cols = ", ".join(q(c) for c in data.columns)
        con.execute(f"INSERT INTO {q(qt)} ({cols}) SELECT {cols} FROM {QUARANTINE_VIEW}")
    finally:
        con.unregister(QUARANTINE_VIEW)


# -- one run's transactions --------------------------------------------------------------------------------


class DatabaseLocked(TerminalError):
    """Another process held the DuckDB file for longer than landing waits."""


def lock_wait_s() -> float:
    try:
        return max(0.0, float(os.environ.get("AUTODATA_LOCK_WAIT_S", LOCK_WAIT_S)))
    except ValueError:
        return LOCK_WAIT_S


def connect(db_path: str, *, wait_s: float | None = None) -> duckdb.DuckDBPyConnection:
    """Open the destination; a file another process holds is retried for up to ``wait_s``
    (default ``lock_wait_s()``), then one clear error naming it, as is an unreadable file."""
    from pathlib import Path

    Path(db_path).parent.mkdir(parents=True, exist_ok=True)
    wait_s = lock_wait_s() if wait_s is None else wait_s
    deadline = time.monotonic() + wait_s
    pause = 0.05
    while True:
        try:
            return duckdb.connect(str(db_path))
        except duckdb.Error as exc:
            first = str(exc).splitlines()[0]
            if "lock" not in first.lower():
                raise TerminalError(f"cannot open DuckDB database {db_path}: {first}") from exc
            left = deadline - time.monotonic()
            if left <= 0:
                raise DatabaseLocked(
                    f"DuckDB database {db_path} is locked by another process (waited {wait_s:g} s): {first}"
                ) from exc
            time.sleep(min(pause, left))
            pause = min(pause * 2, 1.0)


def begin_run(db_path: str, spec: CollectorSpec, run_id: str, *, flow_run_id: str | None, started_at):
    """Record the run as ``running`` (committed), mark dead earlier runs ``aborted``, return the stored cursor."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        con.execute("BEGIN")
        lineage.ensure_tables(con)
        lineage.apply_pending(con, db_path)
        lineage.mark_aborted(con, spec.name)
        remove_stale_stages(db_path, lineage.running_runs(con))
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
    good: pd.DataFrame | Stage,
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
    on_duplicate_keys: str = "warn",
):
    """Data, quarantine, sources, checks, the batch profile and the final run status in ONE transaction.

    A database another process holds is waited for (``lock_wait_s``); past that the fetched batch
    is kept in ``<db folder>/pending/`` (named in the error) instead of being discarded. A run
    whose landing kept stored values over nulls is not a good run: its profile is not the next
    drift baseline. ``good`` is a typed frame or a ``Stage`` (finished here, attached read-only for the merge).
    """
    from prefect_autodata.runtime import lineage

    staged = isinstance(good, Stage)
    if staged:
        good.finish()
    try:
        con = connect(db_path)
    except DatabaseLocked as exc:
        kept = _spill(db_path, spec, run_id, good)
        raise DatabaseLocked(f"{exc}; the fetched batch ({len(good)} rows) is kept in {kept}") from exc
    try:
        _bound(con)
        if staged and status != "failed_checks":
            con.execute(f"ATTACH '{good.path}' AS {STAGED_DB} (READ_ONLY)")
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
                    con,
                    spec,
                    good,
                    run_id,
                    quarantined=quarantined,
                    before_commit=before_commit,
                    on_duplicate_keys=on_duplicate_keys,
                )
            lineage.write_sources(con, run_id, sources)
            landing_checks = stats.check_rows() if status != "failed_checks" else []
            lineage.write_checks(con, run_id, (check_results or []) + landing_checks)
            if profile is not None and status == "succeeded" and not stats.nulls_kept:
                lineage.write_profile(con, run_id, spec.name, profile)
            cursor = read_cursor(con, spec)
            all_warnings = list(warnings or []) + stats.warnings()
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
        con.close()  # the attached stage goes with the connection


def _spill(db_path: str, spec: CollectorSpec, run_id: str, good: pd.DataFrame | Stage) -> Path | str:
    """Write a batch that could not land to ``<db folder>/pending/<table>-<run_id>.parquet``."""
    dest = Path(db_path).resolve().parent / "pending" / f"{spec.table_name}-{run_id}.parquet"
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(good, Stage):
            good.to_parquet(dest)
        else:
            good.to_parquet(dest, index=False)
    except (OSError, ValueError, TypeError, ImportError, duckdb.Error) as exc:
        return f"(nowhere: writing {dest} failed: {exc})"
    return dest


def previous_profile(db_path: str, spec: CollectorSpec) -> dict | None:
    """The last succeeded run's batch profile (drift checks on reruns)."""
    from prefect_autodata.runtime import lineage

    con = connect(db_path)
    try:
        return lineage.last_profile(con, spec.name)
    finally:
        con.close()


def fail_run(db_path: str, run_id: str, error: str, *, sources: list, requests: int, rows_fetched: int = 0):
    """Mark the run failed (its sources are kept for diagnosis; no data rows were written).

    If the database stays locked past the wait, the failure is written to
    ``<db folder>/pending/<run_id>.failed.json``; the next run of any collector on the database
    applies it (``lineage.apply_pending``), so no run stays ``running`` after its process ended.
    """
    from prefect_autodata.runtime import lineage

    try:
        con = connect(db_path)
    except DatabaseLocked:
        return lineage.write_pending_failure(
            db_path, run_id, error, requests=requests, rows_fetched=rows_fetched
        )
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
