"""No silent loss at landing (issue 14): nulls never overwrite stored values, duplicate keys are counted,
a held DuckDB lock is waited for (bounded), and a run never stays ``running`` after its process ended."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from datetime import UTC, datetime

import duckdb
import pandas as pd
import pytest

from prefect_autodata.runtime import landing
from prefect_autodata.runtime.spec import CollectorSpec

FIELDS = [
    {"name": "k", "type": "integer", "jsonpath": "$.k"},
    {"name": "v", "type": "float", "jsonpath": "$.v"},
    {"name": "note", "jsonpath": "$.note"},
]


def spec(**note_rule) -> CollectorSpec:
    fields = [*FIELDS[:2], {**FIELDS[2], **note_rule}]
    return CollectorSpec.parse(
        {
            "name": "trust-land",
            "base_url": "https://example.org",
            "primary_key": ["k"],
            "sources": [{"kind": "json", "request": {"url": "{base_url}/x"}, "fields": fields}],
        }
    )


def batch(rows) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df["_autodata_source_url"] = "https://example.org/x"
    df["_autodata_fetched_at"] = pd.Timestamp(datetime.now(UTC))
    return df


def land(db, sp, rows, run_id, **kw):
    landing.begin_run(db, sp, run_id, flow_run_id=None, started_at=datetime.now(UTC))
    return landing.land_run(
        db, sp, run_id, batch(rows), sources=[], rows_fetched=len(rows), rows_rejected=0, requests=0, **kw
    )


def query(db, sql, params=()):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_a_null_never_replaces_a_stored_value(tmp_path):
    db = str(tmp_path / "n.duckdb")
    sp = spec()
    land(db, sp, [{"k": 1, "v": 1.5, "note": "a"}, {"k": 2, "v": 2.5, "note": "b"}], "r1")
    # the source renamed its field: every value arrives null; k=3 is new
    stats, _, _, warnings = land(
        db, sp, [{"k": 1, "v": None, "note": None}, {"k": 2, "v": 9.0, "note": None}, {"k": 3}], "r2"
    )
    assert query(db, "SELECT k, v, note, _autodata_run_id FROM trust_land ORDER BY k") == [
        (1, 1.5, "a", "r2"),
        (2, 9.0, "b", "r2"),
        (3, None, None, "r2"),
    ]
    assert stats.nulls_kept == {"v": 1, "note": 2}
    assert any("kept 3 stored non-null value(s)" in w and "v (1)" in w for w in warnings)
    assert query(
        db, "SELECT passed, failing_rows FROM _autodata_checks WHERE run_id = 'r2' AND \"check\" = ?",
        ["landing:null_overwrites"],
    ) == [(False, 3)]  # fmt: skip
    stored = json.loads(query(db, "SELECT warnings FROM _autodata_runs WHERE run_id = 'r2'")[0][0])
    assert any("kept 3" in w for w in stored)


def test_a_field_marked_may_become_null_is_cleared(tmp_path):
    db = str(tmp_path / "m.duckdb")
    sp = spec(may_become_null=True)
    land(db, sp, [{"k": 1, "v": 1.5, "note": "a"}], "r1")
    stats, *_ = land(db, sp, [{"k": 1, "v": None, "note": None}], "r2")
    assert query(db, "SELECT k, v, note FROM trust_land") == [(1, 1.5, None)]  # v kept, note cleared
    assert stats.nulls_kept == {"v": 1}


def test_duplicate_keys_are_counted_and_shown_or_fail_by_policy(tmp_path):
    db = str(tmp_path / "d.duckdb")
    sp = spec()
    rows = [{"k": 1, "v": 1.0}, {"k": 1, "v": 2.0}, {"k": 1, "v": 3.0}, {"k": 2, "v": 4.0}]
    stats, _, _, warnings = land(db, sp, rows, "r1")
    assert stats.duplicate_rows == 2 and stats.duplicate_examples == [["1"]]
    assert any(w.startswith("duplicate keys: 2 row(s)") for w in warnings)
    assert query(db, "SELECT passed, failing_rows FROM _autodata_checks WHERE \"check\" = 'landing:duplicate_keys'") == [
        (False, 2)
    ]  # fmt: skip
    before = query(db, "SELECT k, v FROM trust_land ORDER BY k")
    assert before == [(1, 3.0), (2, 4.0)]
    with pytest.raises(landing.LandingError, match="duplicate keys: 1 row"):
        land(db, sp, [{"k": 5, "v": 1.0}, {"k": 5, "v": 2.0}], "r2", on_duplicate_keys="fail")
    assert query(db, "SELECT k, v FROM trust_land ORDER BY k") == before


def _holder(db: str, seconds: float) -> subprocess.Popen:
    """Another process holding the database's write lock; prints 'held' once it has it."""
    code = textwrap.dedent(
        f"""
        import sys, time, duckdb
        con = duckdb.connect({db!r})
        print("held", flush=True)
        time.sleep({seconds})
        con.close()
        """
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "held"
    return child


def test_landing_waits_for_a_lock_that_is_released(tmp_path, monkeypatch):
    db = str(tmp_path / "l.duckdb")
    sp = spec()
    land(db, sp, [{"k": 1, "v": 1.0}], "r1")
    landing.begin_run(db, sp, "r2", flow_run_id=None, started_at=datetime.now(UTC))
    monkeypatch.setenv("AUTODATA_LOCK_WAIT_S", "60")
    child = _holder(db, 1.0)
    try:
        stats, *_ = landing.land_run(
            db, sp, "r2", batch([{"k": 2, "v": 2.0}]), sources=[], rows_fetched=1, rows_rejected=0, requests=0
        )
    finally:
        child.wait(timeout=60)
    assert stats.rows_landed == 1
    assert query(db, "SELECT status FROM _autodata_runs WHERE run_id = 'r2'") == [("succeeded",)]


def test_a_lock_held_past_the_bound_keeps_the_batch_and_the_run_ends_failed(tmp_path, monkeypatch):
    db = str(tmp_path / "h.duckdb")
    sp = spec()
    land(db, sp, [{"k": 1, "v": 1.0}], "r1")
    landing.begin_run(db, sp, "r2", flow_run_id=None, started_at=datetime.now(UTC))
    monkeypatch.setenv("AUTODATA_LOCK_WAIT_S", "0.3")
    child = _holder(db, 120)
    try:
        with pytest.raises(landing.DatabaseLocked, match="locked by another process") as err:
            landing.land_run(
                db,
                sp,
                "r2",
                batch([{"k": 2, "v": 2.0}]),
                sources=[],
                rows_fetched=1,
                rows_rejected=0,
                requests=0,
            )
        kept = sorted((tmp_path / "pending").glob("trust_land-r2.parquet"))
        assert kept and str(kept[0]) in str(err.value)
        assert pd.read_parquet(kept[0])[["k", "v"]].to_dict("records") == [{"k": 2, "v": 2.0}]
        landing.fail_run(db, "r2", str(err.value), sources=[], requests=1)  # cannot reach the db either
        assert list((tmp_path / "pending").glob("r2.failed.json"))
    finally:
        child.kill()
        child.wait(timeout=30)
    # the next run on the database records the failure: r2 is not left 'running'
    landing.begin_run(db, sp, "r3", flow_run_id=None, started_at=datetime.now(UTC))
    status, error = query(db, "SELECT status, error FROM _autodata_runs WHERE run_id = 'r2'")[0]
    assert status == "failed" and "locked by another process" in error
    assert not list((tmp_path / "pending").glob("*.failed.json"))
