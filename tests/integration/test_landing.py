"""DuckDB landing on a real file: upsert, schema evolution, type conflicts, atomicity under kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime

import duckdb
import pandas as pd
import pytest

from prefect_autodata.runtime import landing, lineage
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

SPEC = {
    "name": "land-demo",
    "base_url": "https://example.org",
    "primary_key": ["k"],
    "sources": [
        {
            "kind": "json",
            "request": {"url": "{base_url}/x"},
            "fields": [
                {"name": "k", "type": "integer", "jsonpath": "$.k"},
                {"name": "v", "type": "float", "jsonpath": "$.v"},
            ],
        }
    ],
}


def batch(rows):
    df = pd.DataFrame(rows)
    df["_autodata_source_url"] = "https://example.org/x"
    df["_autodata_fetched_at"] = pd.Timestamp(datetime.now(UTC))
    return df


def land(db, spec, rows, run_id):
    landing.begin_run(db, spec, run_id, flow_run_id=None, started_at=datetime.now(UTC))
    return landing.land_run(
        db, spec, run_id, batch(rows), sources=[], rows_fetched=len(rows), rows_rejected=0, requests=0
    )


def table(db, name, order="k", cols="* EXCLUDE (_autodata_fetched_at)"):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f"SELECT {cols} FROM {name} ORDER BY {order}").fetchall()
    finally:
        con.close()


def test_upsert_on_primary_key_last_wins(tmp_path):
    db = str(tmp_path / "a.duckdb")
    spec = CollectorSpec.parse(SPEC)
    land(db, spec, [{"k": 1, "v": 1.0}, {"k": 2, "v": 2.0}], "r1")
    stats, *_ = land(db, spec, [{"k": 2, "v": 20.0}, {"k": 3, "v": 3.0}, {"k": 3, "v": 30.0}], "r2")
    assert stats.rows_landed == 2
    assert [(r[0], r[1], r[2]) for r in table(db, "land_demo")] == [
        (1, 1.0, "r1"),
        (2, 20.0, "r2"),
        (3, 30.0, "r2"),
    ]


def test_new_columns_are_added_and_conflicts_recorded(tmp_path):
    db = str(tmp_path / "b.duckdb")
    spec = CollectorSpec.parse(SPEC)
    land(db, spec, [{"k": 1, "v": 1.0}], "r1")
    wider = dict(
        SPEC,
        sources=[
            dict(
                SPEC["sources"][0],
                fields=[*SPEC["sources"][0]["fields"], {"name": "note", "jsonpath": "$.n"}],
            )
        ],
    )
    stats, *_ = land(db, CollectorSpec.parse(wider), [{"k": 2, "v": 2.0, "note": "hi"}], "r2")
    assert stats.added_columns == ["note"]
    assert table(db, "land_demo", cols="k, v, note") == [(1, 1.0, None), (2, 2.0, "hi")]

    # v declared integer now: values that survive the round trip land (with a recorded warning) ...
    as_int = dict(
        SPEC,
        sources=[
            dict(
                SPEC["sources"][0],
                fields=[SPEC["sources"][0]["fields"][0], {"name": "v", "type": "integer", "jsonpath": "$.v"}],
            )
        ],
    )
    stats, _, _, warnings = land(db, CollectorSpec.parse(as_int), [{"k": 3, "v": 3}], "r3")
    assert any("column 'v'" in w and "DOUBLE" in w for w in warnings)
    # ... and a conflict that would change values fails the run, leaving the table as it was
    as_text = dict(
        SPEC,
        sources=[
            dict(
                SPEC["sources"][0], fields=[SPEC["sources"][0]["fields"][0], {"name": "v", "jsonpath": "$.v"}]
            )
        ],
    )
    before = table(db, "land_demo")
    with pytest.raises(landing.LandingError, match="type conflict on column 'v'"):
        land(db, CollectorSpec.parse(as_text), [{"k": 4, "v": "four"}], "r4")
    assert table(db, "land_demo") == before


def test_aborted_runs_are_marked_by_the_next_run(tmp_path):
    db = str(tmp_path / "c.duckdb")
    spec = CollectorSpec.parse(SPEC)
    con = duckdb.connect(db)
    lineage.ensure_tables(con)
    lineage.start_run(
        con,
        run_id="dead",
        collector=spec.name,
        table=spec.table_name,
        spec_hash="x",
        flow_run_id=None,
        started_at=datetime.now(UTC),
    )
    con.execute("UPDATE _autodata_runs SET pid = 2147483646")  # a pid that cannot exist
    con.close()
    land(db, spec, [{"k": 1, "v": 1.0}], "r1")
    con = duckdb.connect(db, read_only=True)
    assert dict(con.execute("SELECT run_id, status FROM _autodata_runs").fetchall()) == {
        "dead": "aborted",
        "r1": "succeeded",
    }
    con.close()


KILL_CHILD = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.deployments.examples import load_example
    from prefect_autodata.runtime.spec import mirrored
    spec = mirrored(load_example("tiingo-aapl-2024"), sys.argv[1])
    marker = Path(sys.argv[3])
    def hang():
        marker.write_text("landing")
        time.sleep(600)
    run_spec(spec, sys.argv[2], before_commit=hang)
    """
)


def test_kill_9_during_landing_then_rerun_equals_clean_run(sandbox_url, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    from prefect_autodata.deployments.examples import load_example
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.spec import mirrored

    spec = mirrored(load_example("tiingo-aapl-2024"), sandbox_url)
    killed_db, clean_db, marker = (
        str(tmp_path / "killed.duckdb"),
        str(tmp_path / "clean.duckdb"),
        tmp_path / "m",
    )
    env = dict(os.environ, AUTODATA_SECRET_TIINGO_TOKEN=DEMO_TOKEN)
    child = subprocess.Popen([sys.executable, "-c", KILL_CHILD, sandbox_url, killed_db, str(marker)], env=env)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, "the run ended before reaching the landing step"
            assert time.monotonic() < deadline, "the run never reached the landing step"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    con = duckdb.connect(killed_db, read_only=True)
    assert con.execute("SELECT status FROM _autodata_runs").fetchall() == [("running",)]
    assert con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'aapl_daily_2024'"
    ).fetchall() == [(0,)]
    con.close()

    rerun = run_spec(spec, killed_db)
    clean = run_spec(spec, clean_db)
    assert rerun.status == clean.status == "succeeded"
    cols = "* EXCLUDE (_autodata_run_id, _autodata_fetched_at)"
    got = duckdb.connect(killed_db, read_only=True)
    want = duckdb.connect(clean_db, read_only=True)
    q = f"SELECT {cols} FROM aapl_daily_2024 ORDER BY 2"
    assert got.execute(q).fetchall() == want.execute(q).fetchall()
    assert len(got.execute(q).fetchall()) == 252
    statuses = dict(got.execute("SELECT status, count(*) FROM _autodata_runs GROUP BY 1").fetchall())
    assert statuses == {"aborted": 1, "succeeded": 1}
