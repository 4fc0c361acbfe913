"""``collect`` and ``autodata collect`` end to end on the live sandbox: instruction → squads → spec +
checks → run → DuckDB, scored against the task's ground truth with the sandbox scorer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.scorer import score
from prefect_autodata.sandbox.server import sandbox_secrets
from prefect_autodata.sandbox.tasks import get_task

LINEAGE = {"_autodata_run_id", "_autodata_source_url", "_autodata_fetched_at"}
JPM_Q1 = get_task("t05-jpm-2024-01-02-2024-03-29")


def _table(db: str, table: str):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f'SELECT * FROM "{table}"').df(), con.execute(
            'SELECT "check", passed FROM _autodata_checks'
        ).fetchall()
    finally:
        con.close()


def _collect(instruction: str, sandbox_url: str, workspace, **kw):
    kw.setdefault("sources", [sandbox_url + "/api.tiingo.com/documentation/end-of-day"])
    return collect(
        instruction,
        workspace=workspace,
        mirror=sandbox_url,
        search_url=sandbox_url,
        prepare=sandbox_secrets,
        **kw,
    )


def test_fields_name_exactly_the_data_columns(sandbox_url, workspace):
    res = _collect(JPM_Q1.instruction, sandbox_url, workspace, fields=["Date", "Close"], name="jpm-close")
    assert res.status == "succeeded", res.error
    df, _ = _table(res.db, res.table)
    assert [c for c in df.columns if c not in LINEAGE] == ["Date", "Close"]
    assert score(df, JPM_Q1.ground_truth()[["Date", "Close"]], fields=["Date", "Close"]).f1 >= 0.95


def test_paraphrase_reaches_the_same_f1(sandbox_url, workspace):
    res = _collect(
        "Get JPMorgan (JPM) daily prices from Jan 2nd 2024 to March 29, 2024", sandbox_url, workspace
    )
    assert res.status == "succeeded", res.error
    df, _ = _table(res.db, res.table)
    assert score(df, JPM_Q1.ground_truth(), fields=JPM_Q1.fields).f1 >= 0.95


def test_sources_found_through_search(sandbox_url, workspace):
    task = get_task("t06-aapl-msft-googl-2024-03-15")
    res = _collect(task.instruction, sandbox_url, workspace, sources=None)
    assert res.status == "succeeded", res.error
    df, _ = _table(res.db, res.table)
    assert score(df, task.ground_truth(), fields=task.fields).f1 >= 0.95


def test_unresolvable_instruction_explains_and_collects_nothing(sandbox_url, workspace):
    # A kind lacking its subject is searched for (plan gate, b7994e6; a --source names it, 4a455b7): a
    # range that ends before it starts is still unresolvable.
    res = _collect("Collect the daily stock prices of MSFT from 2020 to 2018", sandbox_url, workspace)
    assert res.status == "unresolvable" and res.stop_reason == "unresolvable"
    assert any("before it starts" in m for m in res.missing)
    assert res.spec is None and res.rows == 0
    assert not workspace.db_path.exists()


def _cli(args: list[str], ws: Path, api: str | None = None) -> subprocess.CompletedProcess:
    """``autodata ARGS``; a command that runs a flow gets ``api`` (the session's Prefect API) as
    PREFECT_API_URL instead of starting an ephemeral server of its own."""
    env = {**os.environ, "AUTODATA_WORKSPACE": str(ws)}
    if api:
        env["PREFECT_API_URL"] = api
    exe = str(Path(sys.executable).parent / "autodata")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=300)


def test_cli_collect_sandbox_json(tmp_path, prefect_api_url):
    p = _cli(
        ["collect", "Collect the daily stock data of AAPL in 2024", "--sandbox", "--json", "--no-deploy"],
        tmp_path,
        prefect_api_url,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    for key in ("status", "name", "db", "table", "rows", "spec", "seconds", "tokens", "cost_usd"):
        assert key in out
    assert out["status"] == "succeeded" and out["tokens"] == 0
    df, _ = _table(out["db"], out["table"])
    task = get_task("t04-aapl-2024")
    assert out["rows"] == len(df) == len(task.ground_truth())
    assert score(df, task.ground_truth(), fields=task.fields).f1 >= 0.95


def test_cli_unresolvable_is_one_explanation_not_a_traceback(tmp_path, prefect_api_url):
    p = _cli(["collect", "Collect some data please", "--json", "--no-deploy"], tmp_path, prefect_api_url)
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["status"] == "unresolvable" and out["missing"]
    assert "Traceback" not in p.stderr
    assert f"collect flow run on {prefect_api_url}" in p.stderr  # the session's server, not one of its own


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--backend", "gpt"], "--backend"),
        (["--fields", " , "], "--fields"),
        (["--name", "Bad Name!"], "collector name"),
        (["--schedule", "sometimes"], "not understood"),
        (["--schedule", "daily", "--timezone", "Mars/Olympus"], "unknown timezone"),
    ],
)
def test_cli_bad_arguments_are_one_line(tmp_path, args, needle):
    p = _cli(["collect", "Collect the daily stock data of AAPL in 2024", "--no-deploy", *args], tmp_path)
    assert p.returncode == 2
    assert needle in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("instruction", ["", "   ", "collect a\x01b", "x" * 10_001])
def test_cli_unreadable_instruction_is_one_line_before_any_flow_run(tmp_path, instruction):
    """Empty, blank, control characters, too long: exit 2 with one line, and no flow run is started."""
    p = _cli(["collect", instruction, "--no-deploy"], tmp_path)
    assert p.returncode == 2
    assert "instruction" in p.stderr and "Traceback" not in p.stderr
    assert "collect flow run" not in p.stderr  # refused before Prefect or any fetch


def test_collect_lands_scored_rows_with_checks_and_what_a_data_engineer_reads(sandbox_url, workspace):
    """One collect lands the scored rows with passing checks and a reusable spec (real hosts, its trace
    passes through every squad); GE suite and pandera schema beside the checks, one Data Docs index across
    collectors, served on loopback; a second collect of the same collector asks before replacing a changed
    spec. (One test: each collect of this task is a full research run.)"""
    import threading
    import urllib.request

    from prefect_autodata.datadocs import serve
    from prefect_autodata.sandbox.server import free_port

    res = _collect(JPM_Q1.instruction, sandbox_url, workspace, name="jpm-q1")
    assert res.ok, res.error
    assert res.stop_reason == "success" and res.tokens == 0 and res.cost_usd == 0.0
    df, checks = _table(res.db, res.table)
    truth = JPM_Q1.ground_truth()
    assert len(df) == len(truth)
    assert score(df, truth, fields=JPM_Q1.fields).f1 >= 0.95
    assert checks and all(ok for _name, ok in checks)
    spec = yaml.safe_load(Path(res.spec).read_text())
    urls = [s["request"]["url"] for s in spec["sources"]]
    assert all(not u.startswith(sandbox_url) for u in urls), urls  # saved with the real host
    assert Path(res.checks).is_file()
    trace = workspace.traces_dir / f"{res.trace_id}.jsonl"
    events = [json.loads(x) for x in trace.read_text().splitlines()]
    sent = {e["source"] for e in events if e["event"] == "edge"}
    assert {"plan", "web", "blueprint", "engineering", "test", "validation", "manager"} <= sent
    suite = json.loads(workspace.suite_path("jpm-q1").read_text())
    assert suite["expectations"] and suite["name"]
    assert "columns" in yaml.safe_load(workspace.pandera_path("jpm-q1").read_text())
    index = workspace.data_docs_dir / "index.html"
    assert "jpm-q1" in index.read_text() and f"jpm-q1/{res.run_id}.html" in index.read_text()

    server = serve(workspace, port=free_port())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        with urllib.request.urlopen(f"{base}/index.html", timeout=10) as r:
            assert r.status == 200 and "jpm-q1" in r.read().decode()
        with urllib.request.urlopen(f"{base}/jpm-q1/{res.run_id}.html", timeout=10) as r:
            assert r.status == 200 and "<table" in r.read().decode()
    finally:
        server.shutdown()
        server.server_close()

    spec_path = workspace.spec_path("jpm-q1")
    spec_path.write_text(
        spec_path.read_text().replace("primary_key:", "description: edited\nprimary_key:", 1)
    )
    edited = spec_path.read_text()
    asked = []
    kept = _collect(
        JPM_Q1.instruction, sandbox_url, workspace, name="jpm-q1", confirm=lambda *a: asked.append(a) or False
    )
    assert kept.status == "kept" and "--force" in kept.error and spec_path.read_text() == edited
    name, old, new = asked[0]
    assert name == "jpm-q1" and old == edited and "description: edited" not in new
    replaced = _collect(JPM_Q1.instruction, sandbox_url, workspace, name="jpm-q1", confirm=lambda *a: True)
    assert replaced.ok and "description: edited" not in spec_path.read_text()
