"""BaRA crawl of the sandbox picture-book library: precision against the site's own reference set, media gates,
the calendar trap, DOM-order width, reflection rounds, and the same crawl under chaos."""

from __future__ import annotations

import pytest

from prefect_autodata.runtime.crawler import bfs_crawl
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.media import MediaItem, verify_media
from prefect_autodata.runtime.policy import CrawlPolicy, FetchPolicy
from prefect_autodata.sandbox.server import SandboxServer
from prefect_autodata.sandbox.sites import bara

REF = bara.reference_set(3)


def _fetcher(base: str, **kw) -> Fetcher:
    opts = dict(rate_limit_per_host=0, concurrency_per_host=8, backoff_base=0.05, backoff_cap=2.0)
    return Fetcher(FetchPolicy(**{**opts, **kw}), allowed_hosts=[base])


def _crawl(base: str, fetcher: Fetcher, **kw):
    policy = CrawlPolicy(**{"site_root": f"{base}{bara.PREFIX}", **kw})
    return bfs_crawl(f"{base}{bara.PREFIX}/", fetcher, policy)


def _rel(base: str, urls) -> set[str]:
    return {u[len(base) :] for u in urls}


@pytest.fixture(scope="module")
def full_crawl(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = _crawl(sandbox_url, f, width=100, depth=3, pages=300)
        media = verify_media(res.media, res.html_by_url, f)
    return res, media


def test_bara_defaults_precision_within_budget(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = _crawl(sandbox_url, f, width=5, depth=3, pages=50)
    found = _rel(sandbox_url, res.links)
    assert len(res.pages) <= 50 and found
    assert found <= REF["pages"], found - REF["pages"]  # precision 1.0
    assert len(res.links) == len(set(res.links))


def test_full_bounds_find_the_whole_reference_set(full_crawl, sandbox_url):
    res, _ = full_crawl
    found = _rel(sandbox_url, res.links)
    assert found == REF["pages"]
    assert res.skipped["robots"] >= 1 and res.skipped["excluded"] > 0 and res.skipped["off-site"] > 0
    assert not any("/private/" in v.url or "/login" in v.url for v in res.pages)
    ok = [v for v in res.pages if v.status == 200 and not v.trap]
    assert set(res.html_by_url) == {v.url for v in ok} and all(v.fetched_at and "<html" in v.html for v in ok)


def test_media_gates(full_crawl, sandbox_url):
    res, media = full_crawl
    ok = [m for m in media if m.ok]
    assert _rel(sandbox_url, (m.url for m in ok)) == REF["media"]
    assert len({m.sha256 for m in ok}) == len(ok)
    rejected = [m for m in media if not m.ok]
    assert any("MIME text/html" in m.reason for m in rejected)  # image URL answering an HTML page
    assert any("HTTP 404" in m.reason for m in rejected)  # broken image
    with _fetcher(sandbox_url) as f:  # everything we return really downloads, with the right type
        for m in ok[:10]:
            r = f.get(m.url)
            assert r.status == 200 and r.content_type.split("/")[0] in ("image", "video")


def test_media_not_in_dom_or_duplicate_is_rejected(full_crawl, sandbox_url):
    res, _ = full_crawl
    home = f"{sandbox_url}{bara.PREFIX}/"
    real = next(m for m in res.media if m.page_url == home)
    invented = MediaItem(url=f"{sandbox_url}{bara.PREFIX}/media/hero-4k.png", page_url=home, kind="image")
    with _fetcher(sandbox_url) as f:
        out = verify_media([real, invented, real], res.html_by_url, f)
    assert out[0].ok and not out[1].ok and "not present in the page's DOM" in out[1].reason
    assert not out[2].ok and "duplicate" in out[2].reason


def test_calendar_trap_does_not_exhaust_budget(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = bfs_crawl(
            f"{sandbox_url}{bara.PREFIX}/events/",
            f,
            CrawlPolicy(
                width=10, depth=50, pages=200, concurrency=2, site_root=f"{sandbox_url}{bara.PREFIX}"
            ),
        )
    calendar = [v for v in res.pages if bara.TRAP in v.url]
    assert res.traps and "calendar" in res.traps[0]
    assert 0 < len(calendar) <= 10 and all(v.trap for v in calendar)
    assert not any(bara.TRAP in u for u in res.links)
    assert len(res.pages) < 200  # the frontier ran dry on real pages; the budget was not eaten by months
    assert _rel(sandbox_url, res.links) <= bara.reference_set(60)["pages"]  # every content page, any depth


def test_width_takes_first_children_in_dom_order(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = _crawl(sandbox_url, f, width=2, depth=1, pages=10, attempts=1)
    kids = [v.url for v in res.pages if v.depth == 1]
    # home links in DOM order: "/", "/books/", "/authors/", ... ("/" is the start page itself)
    assert _rel(sandbox_url, kids) == {f"{bara.PREFIX}/books/", f"{bara.PREFIX}/authors/"}
    assert [v.url for v in res.pages if v.depth == 1] == [
        f"{sandbox_url}{bara.PREFIX}/books/",
        f"{sandbox_url}{bara.PREFIX}/authors/",
    ]


def test_reflection_widens_when_the_frontier_ran_dry(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = _crawl(sandbox_url, f, width=1, depth=1, pages=20, attempts=3)
    assert [r.width for r in res.rounds] == [1, 2, 4]
    assert res.rounds[0].failure and "frontier exhausted" in res.rounds[0].failure
    assert res.rounds[0].action == "double width" and res.pages_ok == 5


def test_failed_start_page_has_no_children_and_is_classified(sandbox_url):
    with _fetcher(sandbox_url) as f:
        res = bfs_crawl(f"{sandbox_url}{bara.PREFIX}/no-such-page", f, CrawlPolicy(attempts=2))
    assert len(res.pages) == 1 and res.pages[0].status == 404 and res.links == []
    assert len(res.rounds) == 1 and "HTTP 404" in res.rounds[0].failure and res.rounds[0].action is None


def test_crawl_under_flaky_chaos_finds_everything_exactly_once():
    with SandboxServer(chaos="flaky", seed=7) as server, _fetcher(server.base_url) as f:
        res = _crawl(server.base_url, f, width=100, depth=3, pages=300)
        retries = f.stats.retries
    assert _rel(server.base_url, res.links) == REF["pages"] and len(res.links) == len(set(res.links))
    assert retries > 0  # chaos really bit, and retries absorbed it


def test_crawl_under_hostile_chaos_keeps_precision_and_crawl_delay():
    with SandboxServer(chaos="hostile", seed=7) as server, _fetcher(server.base_url) as f:
        res = _crawl(server.base_url, f, width=100, depth=2, pages=8)
        gate = f._gate(server.base_url + "/")
    found = _rel(server.base_url, res.links)
    assert found and found <= REF["pages"], found - REF["pages"]
    assert not any("utm_" in u or "ref=" in u or "notice-for-ai" in u for u in res.links)
    assert gate.interval >= 1.0  # hostile robots.txt asks for Crawl-delay: 1
