"""`autodata demo --json` from an empty folder ends with a dataset in DuckDB, a Data Docs page and a
deployment registered on the Prefect server; `autodata ls` then shows the collector and its last run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb

AUTODATA = str(Path(sys.executable).with_name("autodata"))


def test_demo_then_ls(prefect_worker, prefect_env, sandbox_url, tmp_path):
    # the demo's deployment fetches through a sandbox that outlives the command (here: the session's)
    env = {**prefect_env, "AUTODATA_SANDBOX_URL": sandbox_url}
    proc = subprocess.run(
        [AUTODATA, "demo", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=400
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    for key in ("db", "table", "rows", "report", "deployment"):
        assert out[key], key
    # the default workspace of a fresh folder
    assert Path(out["db"]) == tmp_path / "workspace" / "autodata.duckdb"
    con = duckdb.connect(out["db"], read_only=True)
    try:
        rows = con.execute(f'SELECT count(*) FROM "{out["table"]}"').fetchall()[0][0]
        runs = con.execute(
            "SELECT status, rows_landed FROM _autodata_runs WHERE table_name = ?", [out["table"]]
        ).fetchall()
    finally:
        con.close()
    assert rows == out["rows"] > 0 and runs == [("succeeded", rows)]
    report = Path(out["report"])
    assert report.is_file() and report.suffix == ".html" and out["table"] and "<table" in report.read_text()

    from prefect import get_client

    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name(out["deployment"])
    assert deployment.id.hex == out["deployment_id"].replace("-", "")
    assert deployment.schedules and deployment.work_pool_name == "autodata-process"
    assert deployment.job_variables["env"]["AUTODATA_MIRROR"] == sandbox_url
    assert sandbox_url not in str(deployment.parameters)  # the spec names the real hosts
    assert out["collect_deployment"] == "collect/autodata-collect"

    # what the next scheduled run does: the worker runs the deployment once, and it succeeds
    from prefect.deployments import run_deployment

    run = run_deployment(out["deployment"], timeout=300)
    assert run.state.is_completed(), run.state

    ls = subprocess.run(
        [AUTODATA, "ls", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert ls.returncode == 0, ls.stderr
    (row,) = [r for r in json.loads(ls.stdout)["collectors"] if r["name"] == out["collector"]]
    assert row["last_status"] == "succeeded" and row["rows"] == out["rows"]
    assert row["deployment"] == out["deployment"] and row["schedule"].startswith("cron ")
