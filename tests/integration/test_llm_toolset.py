"""The LLM agents' tool surface (``agents/toolset.py``) on a small loopback site: every tool answers
plain JSON from the offline machinery (page classes, induced candidates, labelled values, measured
dry runs), and a tool that cannot answer says why, naming the URL."""

from __future__ import annotations

import json

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from prefect_autodata.agents.base import ToolError
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.agents.squads import SquadContext
from prefect_autodata.agents.toolset import PAGE_CLASSES, ToolSurface
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

PEAKS = [
    {"peak": f"Mount {n}", "range": r, "elevation_m": e}
    for n, r, e in [("Arlo", "North", 3120), ("Brisk", "North", 2875), ("Cinder", "West", 4012), ("Dunmore", "East", 1988), ("Elk", "West", 3555), ("Fable", "East", 2210)]
]  # fmt: skip


def _detail(request) -> HTMLResponse:
    p = PEAKS[int(request.path_params["i"])]
    return HTMLResponse(
        f"<html><head><title>{p['peak']}</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<h1>{p['peak']}</h1><table><tr><th>Range</th><td>{p['range']}</td></tr>"
        f"<tr><th>Elevation</th><td>{p['elevation_m']} m</td></tr><tr><th>Country</th><td>Nowhere</td></tr>"
        "</table></body></html>"
    )


def _docs(request) -> HTMLResponse:
    return HTMLResponse(
        "<html><head><title>Peaks API documentation</title></head><body><h1>API</h1><p>The JSON endpoint "
        "<code>GET /api/peaks</code> returns every peak. Parameters: none. Requests are free.</p></body></html>"
    )


ROUTES = [
    Route("/api/peaks", lambda r: JSONResponse({"count": len(PEAKS), "results": PEAKS})),
    Route("/peak/{i:int}", _detail),
    Route("/docs", _docs),
]


@pytest.fixture(scope="module")
def site():
    port = free_port()
    server, thread = start_in_thread(Starlette(routes=ROUTES), "127.0.0.1", port, name="peaks")
    yield f"http://127.0.0.1:{port}"
    stop_thread(server, thread)


@pytest.fixture()
def surface(site, tmp_path):
    sentence = "every mountain peak with its peak, range and elevation_m"
    fetcher = Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"})
    ctx = SquadContext(
        instruction=sentence, fields=["peak", "range", "elevation_m"], sources=[site], fetcher=fetcher,
        search=None, today=None, progress=lambda *_: None,
        parsed=make_plan(sentence, fields=["peak", "range", "elevation_m"], sources=[site]),
    )  # fmt: skip
    yield ToolSurface(ctx, ArtifactCache(tmp_path / "cache"))
    fetcher.close()


def test_pages_are_classified_from_what_they_show(site, surface):
    got = {
        p: surface.classify_page(f"{site}{p}")["class"] for p in ("/api/peaks", "/peak/2", "/docs", "/nope")
    }
    assert got == {"/api/peaks": "data_file", "/peak/2": "detail", "/docs": "api_docs", "/nope": "error"}
    assert set(got.values()) <= set(PAGE_CLASSES)


def test_fetch_reports_the_page_and_caches_its_body(site, surface):
    out = surface.fetch(f"{site}/peak/0")
    assert out["status"] == 200 and out["kind"] == "html" and out["title"] == "Mount Arlo"
    assert "Elevation" in surface.cache.get_text(out["cache_id"])
    json.dumps(out)  # plain JSON for the model


def test_induce_json_reads_the_endpoint_into_a_spec_that_measures_honest(site, surface):
    out = surface.induce_json(f"{site}/api/peaks")
    assert out["record_count"] == len(PEAKS) and "elevation_m" in out["keys"]
    best = out["candidates"][0]
    assert best["covered"] == ["peak", "range", "elevation_m"] and not best["missing"]
    run = surface.dry_run(best["spec"])
    assert run["verdict"] == "pass" and run["honest"] and run["rows"] == len(PEAKS)
    assert surface.dry_run(json.dumps(best["spec"])) == run  # the spec as text reads the same
    assert '"results"' in surface.fetch(f"{site}/api/peaks")["excerpt"]  # a data page shows its body
    assert {f: v["fill_rate"] for f, v in run["fields"].items()} == {
        "peak": 1.0,
        "range": 1.0,
        "elevation_m": 1.0,
    }


def test_induce_detail_reads_labelled_values(site, surface):
    out = surface.induce_detail(f"{site}/peak/4")
    assert out["fields"]["range"]["value"] == "West" and out["fields"]["range"]["label"] == "Range"
    assert out["fields"]["elevation_m"]["value"].startswith("3555")
    assert "peak" in out["missing"] or out["fields"]["peak"] is not None


def test_a_tool_that_cannot_answer_names_the_url(site, surface):
    with pytest.raises(ToolError, match="/api/peaks: not an HTML page"):
        surface.induce_listing(f"{site}/api/peaks")
    with pytest.raises(ToolError, match="not an http"):
        surface.fetch("file:///etc/passwd")
