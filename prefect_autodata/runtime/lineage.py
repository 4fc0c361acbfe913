"""Lineage tables: ``_autodata_runs`` (one row per run), ``_autodata_sources`` (every URL fetched),
``_autodata_checks`` (every expectation evaluated). Data engineers audit runs from SQL alone.

A run's row is inserted with status ``running`` and committed before any fetching, then updated
inside the landing transaction; a process killed mid-run leaves ``running``, which the next run of
the same collector marks ``aborted`` once it sees the recorded process is gone.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

from prefect_autodata.runtime.columns import (
    CHECKS_TABLE,
    PROFILES_TABLE,
    RUNS_TABLE,
    SOURCES_TABLE,
    SOURCES_VIEW,
)

RUNS_DDL = f"""
CREATE TABLE IF NOT EXISTS {RUNS_TABLE} (
    run_id VARCHAR NOT NULL,
    collector VARCHAR NOT NULL,
    table_name VARCHAR,
    spec_hash VARCHAR,
    flow_run_id VARCHAR,
    started_at TIMESTAMPTZ,
    ended_at TIMESTAMPTZ,
    status VARCHAR,
    rows_fetched BIGINT,
    rows_landed BIGINT,
    rows_rejected BIGINT,
    rows_quarantined BIGINT,
    requests BIGINT,
    cursor_value VARCHAR,
    error VARCHAR,
    warnings JSON,
    pid INTEGER,
    host VARCHAR
)"""

SOURCES_DDL = f"""
CREATE TABLE IF NOT EXISTS {SOURCES_TABLE} (
    run_id VARCHAR NOT NULL,
    url VARCHAR,
    http_status INTEGER,
    bytes BIGINT,
    content_hash VARCHAR,
    fetched_at TIMESTAMPTZ,
    robots VARCHAR,
    from_cache BOOLEAN,
    error VARCHAR
)"""

CHECKS_DDL = f"""
CREATE TABLE IF NOT EXISTS {CHECKS_TABLE} (
    run_id VARCHAR NOT NULL,
    "check" VARCHAR,
    engine VARCHAR,
    passed BOOLEAN,
    observed VARCHAR,
    failing_rows BIGINT
)"""


PROFILES_DDL = f"""
CREATE TABLE IF NOT EXISTS {PROFILES_TABLE} (
    run_id VARCHAR NOT NULL,
    collector VARCHAR NOT NULL,
    created_at TIMESTAMPTZ,
    profile JSON
)"""


def ensure_tables(con: duckdb.DuckDBPyConnection) -> None:
    for ddl in (RUNS_DDL, SOURCES_DDL, CHECKS_DDL, PROFILES_DDL):
        con.execute(ddl)


def write_profile(con: duckdb.DuckDBPyConnection, run_id: str, collector: str, profile: dict) -> None:
    """The landed batch's profile: the next run's drift checks compare against it."""
    con.execute(
        f"INSERT INTO {PROFILES_TABLE} VALUES (?, ?, ?, ?)",
        [run_id, collector, datetime.now(UTC), json.dumps(profile, default=str)],
    )


def last_profile(con: duckdb.DuckDBPyConnection, collector: str) -> dict | None:
    """Profile of the collector's latest succeeded run (None before one exists)."""
    ensure_tables(con)
    rows = con.execute(
        f"SELECT p.profile FROM {PROFILES_TABLE} p JOIN {RUNS_TABLE} r USING (run_id) "
        "WHERE p.collector = ? AND r.status = 'succeeded' ORDER BY r.ended_at DESC LIMIT 1",
        [collector],
    ).fetchall()
    return json.loads(rows[0][0]) if rows else None


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def mark_aborted(con: duckdb.DuckDBPyConnection, collector: str) -> int:
    """Runs left ``running`` by a process that no longer exists become ``aborted``."""
    rows = con.execute(
        f"SELECT run_id, pid, host FROM {RUNS_TABLE} WHERE collector = ? AND status = 'running'", [collector]
    ).fetchall()
    here = socket.gethostname()
    dead = [r[0] for r in rows if r[2] != here or not _pid_alive(r[1]) or r[1] == os.getpid()]
    for run_id in dead:
        con.execute(
            f"UPDATE {RUNS_TABLE} SET status = 'aborted', ended_at = ?, "
            "error = coalesce(error, 'process ended before the run finished') WHERE run_id = ?",
            [datetime.now(UTC), run_id],
        )
    return len(dead)


def running_runs(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Ids of the runs (any collector) still recorded ``running``: their stage files are in use."""
    return {r[0] for r in con.execute(f"SELECT run_id FROM {RUNS_TABLE} WHERE status = 'running'").fetchall()}


def _pending_dir(db_path: str) -> Path:
    return Path(db_path).resolve().parent / "pending"


def write_pending_failure(
    db_path: str, run_id: str, error: str, *, requests: int, rows_fetched: int
) -> datetime:
    """A run's failure that could not be written (the database stayed locked), for the next run to apply."""
    ended = datetime.now(UTC)
    path = _pending_dir(db_path) / f"{run_id}.failed.json"
    record = {"run_id": run_id, "error": error, "ended_at": ended.isoformat(), "requests": requests,
              "rows_fetched": rows_fetched}  # fmt: skip
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record), encoding="utf-8")
    except OSError:  # nowhere to write: the next run marks it aborted (its process is gone)
        pass
    return ended


def apply_pending(con: duckdb.DuckDBPyConnection, db_path: str) -> int:
    """Record the failures earlier runs could not write (call inside a transaction)."""
    folder = _pending_dir(db_path)
    if not folder.is_dir():
        return 0
    done = 0
    for path in sorted(folder.glob("*.failed.json")):
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        con.execute(
            f"UPDATE {RUNS_TABLE} SET status = 'failed', ended_at = ?, error = ?, requests = ?, rows_fetched = ? "
            "WHERE run_id = ? AND status = 'running'",
            [datetime.fromisoformat(rec["ended_at"]), rec.get("error"), rec.get("requests") or 0,
             rec.get("rows_fetched") or 0, rec["run_id"]],
        )  # fmt: skip
        path.unlink(missing_ok=True)
        done += 1
    return done


def start_run(
    con: duckdb.DuckDBPyConnection,
    *,
    run_id: str,
    collector: str,
    table: str,
    spec_hash: str,
    flow_run_id: str | None,
    started_at: datetime,
) -> None:
    con.execute(
        f"INSERT INTO {RUNS_TABLE} (run_id, collector, table_name, spec_hash, flow_run_id, started_at, status, "
        "pid, host) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)",
        [run_id, collector, table, spec_hash, flow_run_id, started_at, os.getpid(), socket.gethostname()],
    )


def finish_run(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    *,
    status: str,
    rows_fetched: int = 0,
    rows_landed: int = 0,
    rows_rejected: int = 0,
    rows_quarantined: int = 0,
    requests: int = 0,
    cursor_value: Any = None,
    error: str | None = None,
    warnings: Iterable[str] = (),
) -> datetime:
    from prefect_autodata.redact import redact_text

    ended = datetime.now(UTC)
    error = redact_text(error) if error else error  # secrets by value
    warnings = [redact_text(str(w)) for w in warnings]
    con.execute(
        f"UPDATE {RUNS_TABLE} SET status = ?, ended_at = ?, rows_fetched = ?, rows_landed = ?, rows_rejected = ?, "
        "rows_quarantined = ?, requests = ?, cursor_value = ?, error = ?, warnings = ? WHERE run_id = ?",
        [
            status,
            ended,
            rows_fetched,
            rows_landed,
            rows_rejected,
            rows_quarantined,
            requests,
            _cursor_text(cursor_value),
            error,
            json.dumps(list(warnings)),
            run_id,
        ],
    )
    return ended


def _cursor_text(cursor: Any) -> str | None:
    """A per-partition cursor is stored as JSON ({"AAPL": "2024-12-31", ...}); a single one as text."""
    if cursor is None:
        return None
    if isinstance(cursor, dict):
        return json.dumps({str(k): str(v)[:10] if hasattr(v, "isoformat") else v for k, v in cursor.items()})
    return str(cursor)


def write_sources(con: duckdb.DuckDBPyConnection, run_id: str, sources: list[Any]) -> None:
    """Bulk insert the fetcher's per-request records (URLs already redacted by the fetcher)."""
    if not sources:
        return
    from prefect_autodata.redact import redact_text

    df = pd.DataFrame(
        {
            "run_id": run_id,
            "url": [redact_text(s.url) for s in sources],  # secrets by value (a token in the path...)
            "http_status": pd.array([s.status for s in sources], dtype="Int32"),
            "bytes": [s.bytes for s in sources],
            "content_hash": [s.content_hash for s in sources],
            "fetched_at": pd.to_datetime([s.fetched_at for s in sources], utc=True),
            "robots": [s.robots for s in sources],
            "from_cache": [bool(s.from_cache) for s in sources],
            "error": [redact_text(s.error) if s.error else s.error for s in sources],
        }
    )
    con.register(SOURCES_VIEW, df)
    try:
        con.execute(f"INSERT INTO {SOURCES_TABLE} SELECT * FROM {SOURCES_VIEW}")
    finally:
        con.unregister(SOURCES_VIEW)


def write_checks(con: duckdb.DuckDBPyConnection, run_id: str, results: list[dict]) -> None:
    for r in results:
        observed = r.get("observed")
        con.execute(
            f"INSERT INTO {CHECKS_TABLE} VALUES (?, ?, ?, ?, ?, ?)",
            [
                run_id,
                str(r.get("check")),
                str(r.get("engine")),
                bool(r.get("passed")),
                None
                if observed is None
                else (observed if isinstance(observed, str) else json.dumps(observed, default=str)),
                int(r.get("failing_rows") or 0),
            ],
        )
