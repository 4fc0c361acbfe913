"""Selection by measurement through the real ``collect`` path, on small sites served here on 127.0.0.1.

A hub page whose only repeated links are the site's navigation and a letter index must end as an
honest ``no_spec`` naming every requested field (it used to pass the dry run, land nothing and end
``failed_checks``); the test agent measures such a spec as navigation records, fields not produced.
"""

from __future__ import annotations

import random

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

SEED = random.randrange(10**6)
RNG = random.Random(SEED)


@pytest.fixture
def serve():
    running = []

    def start(app: Starlette) -> str:
        port = free_port()
        running.append(start_in_thread(app, "127.0.0.1", port, name="select-site"))
        return f"http://127.0.0.1:{port}/"

    yield start
    for server, thread in running:
        stop_thread(server, thread)


def hub() -> Starlette:
    letters = sorted(RNG.sample("ABCDEFGHIJKLMNOPRSTUVW", RNG.randint(8, 14)))
    nav = "".join(f'<a href="/{p}">{p.title()}</a> ' for p in ("home", "about", "contact", "help"))
    index = "".join(f'<a href="/by/{c.lower()}/">{c}</a> ' for c in letters)
    total = RNG.randint(80, 400)

    def page(request):
        return HTMLResponse(
            f"<html><head><title>Catalog</title></head><body><header><nav>{nav}</nav></header>"
            f"<main><h1>Catalog</h1><p>{total} items in all</p><p>Browse by letter:</p>"
            f'<p class="pager">{index}</p></main><footer><nav>{nav}</nav></footer></body></html>'
        )

    def letter(request):  # every letter page is empty: the records are nowhere to be found
        return HTMLResponse("<html><body><header><nav>" + nav + "</nav></header><p>Soon.</p></body></html>")

    return Starlette(routes=[Route("/", page), Route("/by/{c}/", letter), Route("/{p}", letter)])


def test_a_hub_of_navigation_links_ends_no_spec_naming_each_field(serve, workspace, tmp_path):
    url = serve(hub())
    res = collect(
        "Collect all of the cameras on this site with the item, manufacturer, and price of each.",
        sources=[url],
        workspace=workspace,
        db=tmp_path / "hub.duckdb",
    )
    assert res.status == "no_spec", (SEED, res.status, res.detail, res.error)
    assert res.rows == 0
    for f in ("item", "manufacturer", "price"):
        assert f"{f}:" in res.error, (SEED, res.error)


def test_the_test_agent_measures_navigation_records_on_a_dry_run(serve):
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import test_spec
    from prefect_autodata.runtime.fetch import Fetcher
    from prefect_autodata.runtime.policy import FetchPolicy
    from prefect_autodata.runtime.spec import CollectorSpec

    url = serve(hub())
    spec = CollectorSpec.model_validate(
        {
            "name": "nav",
            "primary_key": ["item"],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": url},
                    "records": {"xpath": "/html/body/header/nav/a"},
                    "fields": [{"name": "item", "xpath": "."}],
                }
            ],
        }
    )
    with Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"}) as fetcher:
        rep = test_spec(spec, None, fetcher=fetcher)
    assert rep.rows == 4 and not rep.ok, (SEED, rep.issues)
    assert "navigation_records" in {i.kind for i in rep.issues}
    m = ranking.measure(rep, ["item", "manufacturer", "price"])
    assert not m.honest and m.bad == {"manufacturer": "not_produced", "price": "not_produced"}
