"""No silent loss in the runtime (issue 14): a listing short of its stated total fails the run, a page cap
and failed crawl/detail pages are warnings with counts. A small real server on 127.0.0.1 serves the pages."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import duckdb
import pytest

from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec

N_ITEMS = 30
PAGE = 10


def _items(query: dict) -> tuple[int, str, bytes]:
    page = int(query.get("page", ["1"])[0])
    items = [
        {"id": i, "name": f"item {i}"} for i in range((page - 1) * PAGE + 1, min(page * PAGE, N_ITEMS) + 1)
    ]
    doc = {"items": items}
    if query.get("stated"):
        doc["total"] = int(query["stated"][0])
    return 200, "application/json", json.dumps(doc).encode()


def _html(body: str) -> bytes:
    return f"<html><head><title>t</title></head><body>{body}</body></html>".encode()


SITE = {  # a crawl: the home page links to six pages, two of them broken
    "/site/": _html("".join(f'<a href="/site/p{i}">p{i}</a>' for i in range(6))),
    **{f"/site/p{i}": _html(f"<main><h1>page {i}</h1></main>") for i in (0, 1, 2, 3)},
}
STATUS = {"/site/p4": 500, "/site/p5": 404, "/detail/3": 404}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path in STATUS:
            status, ctype, body = STATUS[parts.path], "text/html", _html("error")
        elif parts.path == "/robots.txt":
            status, ctype, body = 200, "text/plain", b"User-agent: *\nAllow: /\n"
        elif parts.path == "/items":
            status, ctype, body = _items(query)
        elif parts.path == "/list":
            rows = "".join(f'<li><a href="/detail/{i}">paper {i}</a></li>' for i in (1, 2, 3))
            status, ctype, body = 200, "text/html", _html(f"<ul>{rows}</ul>")
        elif parts.path.startswith("/detail/"):
            status, ctype, body = 200, "text/html", _html(f"<p class='abs'>abstract {parts.path[-1]}</p>")
        elif parts.path in SITE:
            status, ctype, body = 200, "text/html", SITE[parts.path]
        else:
            status, ctype, body = 404, "text/html", _html("nope")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base(loopback):
    return loopback(Handler)


FAST = {"rate_limit_per_host": 0, "max_retries": 0, "backoff_base": 0}


def items_spec(base: str, *, max_pages: int, stated: int | None) -> CollectorSpec:
    params = {"stated": str(stated)} if stated is not None else {}
    pagination = {"kind": "page", "param": "page", "start": 1, "max_pages": max_pages}
    if stated is not None:
        pagination["total"] = {"jsonpath": "$.total"}
    return CollectorSpec.parse(
        {
            "name": "trust-items",
            "base_url": base,
            "primary_key": ["id"],
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "{base_url}/items", "params": params},
                    "pagination": pagination,
                    "records": {"jsonpath": "$.items[*]"},
                    "fields": [
                        {"name": "id", "type": "integer", "jsonpath": "$.id"},
                        {"name": "name", "jsonpath": "$.name"},
                    ],
                }
            ],
            "politeness": FAST,
        }
    )


def tables(db: str) -> set[str]:
    con = duckdb.connect(db, read_only=True)
    try:
        return {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    finally:
        con.close()


def test_page_cap_short_of_the_stated_total_fails_and_lands_nothing(base, tmp_path):
    db = str(tmp_path / "w.duckdb")
    res = run_spec(items_spec(base, max_pages=2, stated=N_ITEMS), db)
    assert res.status == "failed"
    assert "the listing states 30 records" in res.error and "max_pages 2 reached" in res.error
    assert "after 20" in res.error
    assert "trust_items" not in tables(db)


def test_a_listing_that_ends_before_its_stated_total_fails(base, tmp_path):
    res = run_spec(items_spec(base, max_pages=100, stated=N_ITEMS + 5), str(tmp_path / "w.duckdb"))
    assert res.status == "failed" and "states 35 records" in res.error and "after 30" in res.error


def test_page_cap_without_a_stated_total_is_a_warning_with_the_count(base, tmp_path):
    res = run_spec(items_spec(base, max_pages=2, stated=None), str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded" and res.rows_landed == 20
    (w,) = [w for w in res.warnings if "page cap" in w]
    assert "max_pages 2 reached" in w and "after 20 records on 2 pages" in w
    # the stated total reached exactly: no warning at all
    ok = run_spec(items_spec(base, max_pages=100, stated=N_ITEMS), str(tmp_path / "ok.duckdb"))
    assert ok.status == "succeeded" and ok.rows_landed == N_ITEMS and not ok.warnings


def crawl_spec(base: str, pages: int) -> CollectorSpec:
    return CollectorSpec.parse(
        {
            "name": "trust-crawl",
            "base_url": f"{base}/site",
            "primary_key": ["url"],
            "sources": [
                {
                    "name": "pages",
                    "kind": "crawl",
                    "request": {"url": "{base_url}/"},
                    "crawl": {"width": 100, "depth": 2, "pages": pages, "attempts": 1},
                    "fields": [{"name": "url", "from_url": True}, {"name": "title", "css": "main h1"}],
                }
            ],
            "politeness": FAST,
        }
    )


def test_failed_crawl_pages_are_a_warning_with_counts(base, tmp_path):
    res = run_spec(crawl_spec(base, pages=50), str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded"
    (w,) = [w for w in res.warnings if "crawled pages failed" in w]
    assert "2 of 7 crawled pages failed" in w and "HTTP 404: 1" in w and "HTTP 500: 1" in w
    assert not [w for w in res.warnings if "page budget" in w]


def test_a_crawl_stopped_by_its_page_budget_says_how_many_pages_it_left(base, tmp_path):
    res = run_spec(crawl_spec(base, pages=3), str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded"
    (w,) = [w for w in res.warnings if "page budget" in w]
    assert "(3 pages)" in w and "with 4 discovered page(s) not visited" in w


def test_failed_detail_pages_are_counted_and_their_rows_not_landed(base, tmp_path):
    spec = CollectorSpec.parse(
        {
            "name": "trust-detail",
            "base_url": base,
            "primary_key": ["url"],
            "sources": [
                {
                    "name": "papers",
                    "kind": "html",
                    "request": {"url": "{base_url}/list"},
                    "records": {"css": "li"},
                    "fields": [{"name": "url", "css": "a", "attr": "href", "transforms": ["absolute_url"]}],
                    "detail": {
                        "url_field": "url",
                        "kind": "html",
                        "fields": [{"name": "abstract", "css": "p.abs"}],
                    },
                }
            ],
            "politeness": FAST,
        }
    )
    res = run_spec(spec, str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded" and res.rows_landed == 2 and res.rows_rejected == 1
    (w,) = [w for w in res.warnings if "detail pages failed" in w]
    assert "1 of 3 detail pages failed (HTTP 404: 1)" in w and "/detail/3" in w
