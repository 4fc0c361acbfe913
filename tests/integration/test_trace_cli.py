"""``autodata trace``: a run's trace printed as text, JSON and Mermaid, and the hypergraph as a PNG."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from prefect_autodata.agents.base import AgentRuntime
from prefect_autodata.cli import app
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.messages import FreeText, ManagerMessage, Role
from prefect_autodata.ohcache.trace import Trace


def _run(workspace) -> str:
    trace = Trace.for_run(workspace.traces_dir, "run-abc123")
    rt = AgentRuntime(cache=ArtifactCache(workspace.cache_dir), trace=trace)
    rt.post(Role.MANAGER, ManagerMessage(next=Role.WEB, instruction="look"))
    rt.store(Role.WEB, "<html>page</html>", kind="html", summary="a page")
    rt.post(Role.WEB, FreeText(role=Role.WEB, text="found one page"))
    return "run-abc123"


def test_trace_text_json_mermaid_png(workspace, tmp_path):
    run = _run(workspace)
    cli = CliRunner()
    out = cli.invoke(app, ["trace", "run-abc"])
    assert out.exit_code == 0, out.output
    assert "manager → web" in out.stdout and "cache put c_" in out.stdout and "found one page" in out.stdout

    out = cli.invoke(app, ["trace", run, "--json"])
    events = json.loads(out.stdout)["events"]
    assert [e["event"] for e in events].count("edge") == 3

    out = cli.invoke(app, ["trace", run, "--mermaid"])
    assert out.stdout.startswith("flowchart LR") and "manager -->|1| web" in out.stdout
    assert "web -.->|1| cache" in out.stdout and "web -->|1| blueprint" in out.stdout

    png = tmp_path / "graph.png"
    out = cli.invoke(app, ["trace", run, "--png", str(png)])
    assert out.exit_code == 0, out.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000


def test_unknown_run_is_one_clear_line(workspace):
    out = CliRunner().invoke(app, ["trace", "nope"])
    assert out.exit_code == 2
    assert "no trace for 'nope'" in out.output and "Traceback" not in out.output


def test_trace_by_collect_id_run_id_collector_or_prefix(workspace):
    """A collect id (with or without ``collect-``), a landed run id or its prefix, or the collector name."""
    import duckdb

    trace = Trace.for_run(workspace.traces_dir, "collect-0123abcd99")
    rt = AgentRuntime(cache=ArtifactCache(workspace.cache_dir), trace=trace)
    rt.post(Role.MANAGER, ManagerMessage(next=Role.WEB, instruction="look"))
    workspace.record_run_trace("f00dfeed12345678", "collect-0123abcd99", "aapl-daily-2024")
    con = duckdb.connect(str(workspace.db_path))  # a later `autodata run` of the same collector
    con.execute("CREATE TABLE _autodata_runs (run_id VARCHAR, collector VARCHAR)")
    con.execute("INSERT INTO _autodata_runs VALUES ('beef000011112222', 'aapl-daily-2024')")
    con.close()
    cli = CliRunner()
    for ref in (
        "collect-0123abcd99",
        "0123abcd",
        "f00dfeed12345678",
        "f00dfe",
        "aapl-daily-2024",
        "beef0000",
    ):
        out = cli.invoke(app, ["trace", ref, "--json"])
        assert out.exit_code == 0, (ref, out.output)
        assert json.loads(out.stdout)["run"] == "collect-0123abcd99", ref
