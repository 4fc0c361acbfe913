"""The sandbox's hostile-web pieces on the shared session sandbox: robots.txt, the JS-only explorer (real
Chromium), the BaRA picture-book site and its reference set, and the search engine."""

from __future__ import annotations

import importlib.util
from collections import deque
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from lxml import html as lxml_html

from prefect_autodata.runtime.robots import RobotsRules
from prefect_autodata.sandbox.sites import bara, jsonly

LIB = bara.PREFIX


@pytest.fixture(scope="module")
def client(sandbox_url):
    with httpx.Client(base_url=sandbox_url, timeout=30) as c:
        yield c


# -- robots.txt --------------------------------------------------------------------------------------
def test_robots_txt_is_permissive_but_realistic(client):
    r = client.get("/robots.txt")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    rules = RobotsRules(r.text)
    assert not rules.allowed(f"{client.base_url}{LIB}/private/staff", "autodata")
    assert not rules.allowed(f"{client.base_url}/search?q=x", "autodata")
    assert rules.allowed(f"{client.base_url}{LIB}/books/", "autodata")
    assert rules.allowed(f"{client.base_url}{jsonly.PREFIX}/api/players?season=2000", "autodata")


# -- JS-only source ----------------------------------------------------------------------------------
def test_jsonly_html_has_no_records_and_api_pages_through_the_season(client):
    season = jsonly.seasons()[0]
    expected = jsonly.season_records(season)
    shell = client.get(f"{jsonly.PREFIX}/seasons/{season}/players")
    assert shell.status_code == 200
    assert not any(rec["player_name"] in shell.text for rec in expected[:50])
    got, page = [], 1
    while True:
        data = client.get(f"{jsonly.PREFIX}/api/players", params={"season": season, "page": page}).json()
        got += data["results"]
        if not data["has_more"]:
            break
        page += 1
    assert data["total"] == len(expected) == len(got)
    assert len({(g["player_id"], g["team"]) for g in got}) == len(got)


@pytest.mark.parametrize(
    "query,param",
    [
        ("season=abc", "season"),
        ("season=1800", "season"),
        ("season=2000&page=0", "page"),
        ("season=2000&per_page=500", "per_page"),
        ("season=2000&x=1", "x"),
    ],
)
def test_jsonly_bad_params_are_400_json(client, query, param):
    if 2000 not in jsonly.seasons():
        query = query.replace("2000", str(jsonly.seasons()[0]))
    r = client.get(f"{jsonly.PREFIX}/api/players?{query}")
    assert r.status_code == 400 and r.json()["error"]["param"] == param


def test_jsonly_unknown_season_page_is_404_html(client):
    r = client.get(f"{jsonly.PREFIX}/seasons/1800/players")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian chromium")
def test_jsonly_renders_in_chromium_with_load_more_and_infinite_scroll(sandbox_url):
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    season = jsonly.seasons()[0]
    expected = jsonly.season_records(season)
    per = jsonly.DEFAULT_PER_PAGE
    assert len(expected) > 3 * per, "the season must need several pages"
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            xhr: list[str] = []
            page.on(
                "request", lambda req: xhr.append(req.url) if req.resource_type in ("xhr", "fetch") else None
            )
            page.goto(f"{sandbox_url}{jsonly.PREFIX}/seasons/{season}/players")
            rows = page.locator("tr.player-row")
            page.wait_for_function(f"document.querySelectorAll('tr.player-row').length >= {per}")
            before = rows.count()
            page.click("#load-more")
            page.wait_for_function(f"document.querySelectorAll('tr.player-row').length >= {before + per}")
            before = rows.count()
            page.mouse.wheel(0, 100_000)
            page.wait_for_function(f"document.querySelectorAll('tr.player-row').length > {before}")
            names = rows.locator("td.col-player_name").all_inner_texts()
        finally:
            browser.close()
    assert names == [r["player_name"] for r in expected[: len(names)]]
    assert any(urlsplit(u).path == f"{jsonly.PREFIX}/api/players" for u in xhr)


# -- BaRA picture-book library ---------------------------------------------------------------------------
def _crawl(client: httpx.Client, max_depth: int) -> tuple[set[str], set[str], set[str]]:
    """A small independent BFS over the served HTML: internal pages, media URLs, and off-site links."""
    start = f"{LIB}/"
    queue, seen = deque([(start, 0)]), {start}
    pages, media, offsite = set(), set(), set()
    while queue:
        path, depth = queue.popleft()
        r = client.get(path)
        if r.status_code >= 400:
            continue
        pages.add(path)
        doc = lxml_html.fromstring(r.text)
        for el in doc.xpath("//img|//video/source"):
            src = el.get("data-src") or el.get("src") or ""
            if src.startswith("/"):
                media.add(src)
        if depth >= max_depth:
            continue
        for a in doc.xpath("//a[@href]"):
            href = a.get("href")
            if href.startswith("http"):
                offsite.add(href)
                continue
            href = urlsplit(urljoin(f"http://x{path}", href)).path
            rel = href[len(LIB) :]
            if not href.startswith(LIB + "/") or href in seen or bara._excluded(rel):
                continue
            seen.add(href)
            queue.append((href, depth + 1))
    return pages, media, offsite


def test_bara_reference_set_matches_what_the_site_serves(client):
    pages, media, offsite = _crawl(client, 2)
    ref = bara.reference_set(2)
    assert pages == ref["pages"]
    valid = set()
    for m in media:
        r = client.get(m)
        kind = r.headers.get("content-type", "").split(";")[0]
        ext = m.rsplit(".", 1)[-1]
        if (
            r.status_code == 200
            and kind == {"png": "image/png", "jpg": "image/jpeg", "mp4": "video/mp4"}[ext]
        ):
            valid.add(m)
    assert valid == ref["media"]
    assert media - valid, "some media must be broken (404 or wrong MIME)"
    assert offsite and all(not u.startswith(str(client.base_url)) for u in offsite)


def test_bara_reference_set_grows_with_depth_and_skips_traps():
    sizes = [len(bara.reference_set(d)["pages"]) for d in range(6)]
    assert (
        sizes[0] == 1 and all(a <= b for a, b in zip(sizes, sizes[1:], strict=False)) and sizes[3] > sizes[1]
    )
    everything = bara.reference_set(50)["pages"]
    for bad in ("/login", "/privacy", "/terms", "/private/", "/events/calendar/", "/stacks/"):
        assert not any(p.startswith(LIB + bad) for p in everything)


def test_bara_lazy_media_calendar_trap_and_login_pages(client):
    home = client.get(f"{LIB}/").text
    assert 'data-src="' in home and 'loading="lazy"' in home
    book = bara.books()[0]
    assert "<video" in client.get(f"{LIB}/books/{book['slug']}").text and book["video"]
    path, months = f"{LIB}/events/calendar/2025/01", set()
    for _ in range(30):  # the calendar never ends
        r = client.get(path)
        assert r.status_code == 200
        months.add(path)
        path = lxml_html.fromstring(r.text).xpath("//a[text()='Next month']/@href")[0]
    assert len(months) == 30
    for p in ("/login", "/privacy", "/terms", "/private/staff"):
        assert client.get(f"{LIB}{p}").status_code == 200
    assert client.get(f"{LIB}/events/calendar/2025/13").status_code == 404
    assert client.get(f"{LIB}/books/no-such-book").status_code == 404


def test_bara_stacks_section_is_one_connected_site_of_stacks_pages(client):
    seen, queue = {0}, deque([0])
    while queue:  # the page model, which the route renders
        n = queue.popleft()
        for href, _ in bara.page(f"/stacks/{n}").links:
            k = int(href.rsplit("/", 1)[-1])
            if k not in seen:
                seen.add(k)
                queue.append(k)
    assert len(seen) == bara.STACKS_PAGES >= 2000
    last = client.get(f"{LIB}/stacks/{bara.STACKS_PAGES - 1}")
    assert last.status_code == 200 and f"{LIB}/stacks/0" in last.text
    assert client.get(f"{LIB}/stacks/{bara.STACKS_PAGES}").status_code == 404


# -- search ---------------------------------------------------------------------------------------------
def _has_site(name: str) -> bool:
    return importlib.util.find_spec(f"prefect_autodata.sandbox.sites.{name}") is not None


@pytest.mark.parametrize(
    "query,site,expect",
    [
        ("NeurIPS 2017 accepted papers", "nips", "/papers.nips.cc/paper_files/paper/2017"),
        ("AAPL daily stock prices api", "tiingo", "aapl"),
        ("Boston Celtics team statistics", "nba", "celtics|1610612738"),
        (
            "MLB team batting leaderboard 2021",
            "fangraphs",
            "/www.fangraphs.com/leaders/major-league?stats=bat",
        ),
        ("List of S&P 500 companies", "wiki", "list_of_s%26p_500_companies|list_of_s&p_500_companies"),
        ("NBA players 2023-24 season stats", "jsonly", "/www.hoops-explorer.com/seasons/2023/players"),
        ("children's picture books with read-aloud videos", "bara", "/www.picturebook-library.org/"),
    ],
)
def test_search_ranks_the_landing_page_first_or_second(client, query, site, expect):
    if not _has_site(site):
        pytest.skip(f"site module {site!r} not present yet")
    r = client.get("/search", params={"q": query, "format": "json"})
    assert r.status_code == 200
    results = r.json()["results"]
    assert results and set(results[0]) == {"title", "url", "snippet"}
    top = [res["url"].lower() for res in results[:2]]
    assert any(any(e in u for e in expect.lower().split("|")) for u in top), (query, top)


def test_search_results_are_deterministic_and_resolve(client):
    q = {"q": "NeurIPS 2017 accepted papers", "format": "json"}
    first = client.get("/search", params=q).json()["results"]
    assert first == client.get("/search", params=q).json()["results"]
    for res in first[:5]:
        assert client.get(res["url"]).status_code == 200, res["url"]


def test_search_html_page_and_bad_params(client):
    r = client.get("/search", params={"q": "picture books"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    links = lxml_html.fromstring(r.text).xpath("//div[@class='result']//a/@href")
    assert f"{LIB}/" in links
    for params, field in (
        ({}, "q"),
        ({"q": " "}, "q"),
        ({"q": "x", "format": "xml"}, "format"),
        ({"q": "x", "num": "0"}, "num"),
    ):
        bad = client.get("/search", params=params)
        assert bad.status_code == 400 and bad.json()["error"]["param"] == field
    none = client.get("/search", params={"q": "zzqqxx", "format": "json"}).json()
    assert none["results"] == []


@pytest.mark.parametrize(
    "path",
    [
        f"{LIB}/books/page/0",
        f"{LIB}/books/page/99999999999999999999",
        f"{LIB}/stacks/-1",
        f"{LIB}/stacks/007",
        f"{LIB}/events/calendar/0000/00",
        f"{LIB}/media/covers/..%2F..%2Fetc%2Fpasswd.png",
        f"{LIB}/collections/animals/shelves/3",
        f"{jsonly.PREFIX}/seasons/abc/players",
        f"{jsonly.PREFIX}/api/players?season=2000&page=99999",
        f"{jsonly.PREFIX}/api/players?season=%00",
        "/search?q=%00%ff&format=json",
        "/search?q=" + "a+" * 200 + "&format=json",
        "/search?q=x&num=abc",
    ],
)
def test_odd_requests_never_cause_a_server_error(client, path):
    r = client.get(path)
    assert r.status_code < 500, (path, r.status_code, r.text[:200])
    if r.status_code == 404:
        assert r.headers["content-type"].startswith("text/html")
    if r.status_code == 400:
        assert r.json()["error"]
