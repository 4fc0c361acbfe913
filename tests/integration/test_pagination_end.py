"""The end of a listing (issue 13): a page after the first that answers HTTP 4xx or an empty body ends the
walk and keeps the records read; the first page failing, or a listing short of its stated total, still
fails. A small real server on 127.0.0.1 serves the listings."""

from __future__ import annotations

import json
import random
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import pytest

from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.runner import dry_run
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)
N = RNG.randint(21, 39)  # never a multiple of the page size 10
SIZE = 10


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        q = {k: v[0] for k, v in parse_qs(parts.query).items()}
        status, ctype, body = 200, "application/json", b""
        if parts.path == "/robots.txt":
            ctype, body = "text/plain", b"User-agent: *\nAllow: /\n"
        elif parts.path == "/offset":  # an offset past the last record is a client error
            off = int(q.get("offset", "0"))
            if off >= N or q.get("broken"):
                status, body = 400, b'{"error": "offset out of range"}'
            else:
                items = [{"id": i, "name": f"n{i}"} for i in range(off, min(off + SIZE, N))]
                doc: dict = {"items": items}
                if q.get("stated"):
                    doc["total"] = int(q["stated"])
                body = json.dumps(doc).encode()
        elif parts.path == "/pages":  # HTML pages numbered from 1; past the end: 404 or an empty body
            page = int(q.get("page", "1"))
            lo = (page - 1) * SIZE
            if lo >= N:
                status = 404 if q.get("end") == "404" else 200
                ctype, body = "text/html", b"" if status == 200 else b"<html><body>no</body></html>"
            else:
                lis = "".join(f"<li>n{i}</li>" for i in range(lo, min(lo + SIZE, N)))
                ctype, body = "text/html", f"<html><body><ul>{lis}</ul></body></html>".encode()
        else:
            status, body = 404, b"{}"
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base(loopback):
    return loopback(Handler)


FAST = {"rate_limit_per_host": 0, "max_retries": 0, "backoff_base": 0}


def offset_spec(base: str, **params: str) -> CollectorSpec:
    pagination = {"kind": "offset", "param": "offset", "start": 0, "size": SIZE, "max_pages": 100}
    if "stated" in params:
        pagination["total"] = {"jsonpath": "$.total"}
    return CollectorSpec.parse(
        {
            "name": "offset-items",
            "base_url": base,
            "primary_key": ["id"],
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "{base_url}/offset", "params": params},
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


def pages_spec(base: str, end: str) -> CollectorSpec:
    return CollectorSpec.parse(
        {
            "name": "paged-items",
            "base_url": base,
            "primary_key": ["name"],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": "{base_url}/pages", "params": {"end": end}},
                    "pagination": {"kind": "page", "param": "page", "start": 1, "max_pages": 100},
                    "records": {"xpath": "//li"},
                    "fields": [{"name": "name", "xpath": "."}],
                }
            ],
            "politeness": FAST,
        }
    )


def test_an_offset_past_the_end_answering_400_ends_the_listing(base, tmp_path):
    res = run_spec(offset_spec(base), str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded", (SEED, res.error)
    assert res.rows_landed == N, SEED


@pytest.mark.parametrize("end", ["404", "empty"])
def test_a_page_number_past_the_end_ends_the_listing(base, tmp_path, end):
    res = run_spec(pages_spec(base, end), str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded", (SEED, end, res.error)
    assert res.rows_landed == N, (SEED, end)


def test_the_dry_run_notes_the_end_and_reports_no_fetch_error(base):
    rep = dry_run(offset_spec(base), max_pages=10, max_requests=10)
    assert rep.ok and rep.rows == N, (SEED, rep.issues)
    (note,) = [i for i in rep.issues if i.kind == "pagination_ended"]
    assert "HTTP 400" in note.message and f"page {(N + SIZE - 1) // SIZE + 1}" in note.message


def test_the_first_page_failing_still_fails_the_run(base, tmp_path):
    res = run_spec(offset_spec(base, broken="1"), str(tmp_path / "w.duckdb"))
    assert res.status == "failed" and "HTTP 400" in res.error, res.error


def test_a_listing_ended_by_a_400_short_of_its_stated_total_still_fails(base, tmp_path):
    res = run_spec(offset_spec(base, stated=str(N + 7)), str(tmp_path / "w.duckdb"))
    assert res.status == "failed", (SEED, res.status)
    assert f"states {N + 7} records" in res.error and "HTTP 400" in res.error, res.error
