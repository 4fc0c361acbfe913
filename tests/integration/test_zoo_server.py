"""The zoo served over a real loopback socket: sites under /<host>/, found by the sandbox search."""

from __future__ import annotations

import httpx
import pytest

from prefect_autodata.agents.mirror import _unmirror
from prefect_autodata.sandbox.scorer import canonical_url
from prefect_autodata.sandbox.zoo.catalog import draw_tasks
from prefect_autodata.sandbox.zoo.server import ZooServer


@pytest.fixture(scope="module")
def zoo():
    tasks = draw_tasks(21, 6)
    with ZooServer([t.site for t in tasks]) as server:
        yield server, tasks


def test_every_site_answers_under_its_host(zoo):
    server, tasks = zoo
    with httpx.Client(base_url=server.base_url, timeout=30) as c:
        for t in tasks:
            entry = f"/{t.site.host}{t.site.entry_path}"
            r = c.get(entry)
            assert r.status_code == 200, (t.id, t.family, entry)
            assert c.get(f"/{t.site.host}/no-such-page-here").status_code == 404
        assert c.get("/www.not-drawn.test/").status_code == 404
        # the built-in sites are still served beside the zoo
        assert c.get("/").status_code == 200


def test_the_mirror_maps_zoo_urls_to_their_hosts(zoo):
    server, tasks = zoo
    t = tasks[0]
    url = server.base_url + f"/{t.site.host}{t.site.entry_path}"
    assert _unmirror(url, server.base_url) == f"https://{t.site.host}{t.site.entry_path}"
    assert canonical_url(url) == f"https://{t.site.host}{t.site.entry_path}"


def test_the_search_finds_each_zoo_site(zoo):
    server, tasks = zoo
    with httpx.Client(base_url=server.base_url, timeout=60) as c:
        for t in tasks:
            title = t.site.notes["search_title"]
            r = c.get("/search", params={"q": title, "format": "json", "num": 5})
            assert r.status_code == 200
            urls = [hit["url"] for hit in r.json()["results"]]
            assert f"/{t.site.host}{t.site.entry_path}" in urls, (title, urls)
