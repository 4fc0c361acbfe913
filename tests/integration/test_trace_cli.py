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
    assert "no trace for run 'nope'" in out.output and "Traceback" not in out.output
