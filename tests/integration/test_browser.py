"""Real Chromium through Playwright: the JS-only sandbox source, load more, XHR capture, SSRF guard, cleanup."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from lxml import html as lxml_html

from prefect_autodata.errors import FetchError
from prefect_autodata.runtime.browser import BrowserSession
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy

pytestmark = pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian chromium")

JSONLY = "/www.hoops-explorer.com"

_HOSTILE_PAGE = b"""<!doctype html><html><head><title>hostile</title></head><body>
<p id="x">static</p><img src="http://169.254.169.254/latest/meta-data/pic.png">
<script>fetch('http://10.9.9.9/api').catch(() => {});
fetch('/data.json').then(r => r.json()).then(d => { document.getElementById('x').textContent = d.v; });</script>
</body></html>"""


class _Hostile(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/data.json":
            body, ctype = b'{"v": "from-xhr"}', "application/json"
        else:
            body, ctype = _HOSTILE_PAGE, "text/html"
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def hostile_url():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _procs_with(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if marker.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def browser(sandbox_url):
    fetcher = Fetcher(FetchPolicy(rate_limit_per_host=0), allowed_hosts=[sandbox_url])
    with BrowserSession(fetcher) as session:
        yield session
    fetcher.close()


def test_js_only_page_load_more_and_xhr_capture(browser, sandbox_url):
    url = f"{sandbox_url}{JSONLY}/seasons/2023/players"
    page = browser.render(url, wait_for="tr.player-row", load_more_selector="#load-more", max_clicks=2)
    rows = lxml_html.fromstring(page.html).cssselect("tr.player-row")
    api_calls = [x for x in page.xhr if "/api/players" in x.url and x.status == 200]
    assert page.clicks >= 1 and len(api_calls) >= 2
    assert len(rows) == sum(len(json.loads(x.body_text)["results"]) for x in api_calls)
    assert api_calls[0].content_type == "application/json" and api_calls[0].method == "GET"
    assert '"results"' in api_calls[0].body_text and "season=2023" in api_calls[0].url


def test_plain_fetch_of_the_same_page_has_no_records(sandbox_url):
    with Fetcher(FetchPolicy(rate_limit_per_host=0), allowed_hosts=[sandbox_url]) as f:
        text = f.get(f"{sandbox_url}{JSONLY}/seasons/2023/players", expect="html").text
    assert "player-row" in text and not lxml_html.fromstring(text).cssselect("tr.player-row")


def test_missing_selector_and_http_error_are_clear(browser, sandbox_url):
    with pytest.raises(FetchError, match="never appeared"):
        browser.render(f"{sandbox_url}{JSONLY}/", wait_for="#no-such-thing", timeout_s=2)
    with pytest.raises(FetchError, match="HTTP 404"):
        browser.render(f"{sandbox_url}{JSONLY}/seasons/1066/players")


def test_subrequests_to_private_addresses_are_blocked(hostile_url, tmp_path):
    with (
        Fetcher(FetchPolicy(rate_limit_per_host=0), allowed_hosts=[hostile_url]) as f,
        BrowserSession(f) as b,
    ):
        page = b.render(hostile_url + "/", wait_for="#x")
        shot = b.screenshot(hostile_url + "/", tmp_path / "shot.png")
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert any("169.254.169.254" in x and "link-local" in x for x in page.blocked)
    assert any("10.9.9.9" in x and "private" in x for x in page.blocked)
    assert "from-xhr" in page.html
    assert any(x.url.endswith("/data.json") and '"from-xhr"' in x.body_text for x in page.xhr)


def test_top_level_private_url_refused_before_rendering(browser):
    with pytest.raises(FetchError, match="refused"):
        browser.render("http://10.20.30.40/")


def test_browser_always_closed_even_on_failure(hostile_url):
    marker = None
    with pytest.raises(RuntimeError, match="boom"):
        with BrowserSession(Fetcher(allowed_hosts=[hostile_url])) as b:
            marker = b.marker
            assert _procs_with(f"--autodata-run={marker}")  # this session's chromium is running
            b.render(hostile_url + "/")
            raise RuntimeError("boom")
    assert marker and not _procs_with(f"--autodata-run={marker}")


def test_works_from_a_worker_thread_running_an_asyncio_loop(hostile_url):
    async def flow_body() -> str:
        with BrowserSession(Fetcher(FetchPolicy(rate_limit_per_host=0), allowed_hosts=[hostile_url])) as b:
            page = b.render(hostile_url + "/", wait_for="#x")
            assert b.fetcher.sources[-1].status == 200 and b.fetcher.sources[-1].robots == "allowed"
            return page.title

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, flow_body()).result(timeout=120) == "hostile"
