"""How a script-driven endpoint pages (induction/scripts.probe), against a loopback JSON server whose
parameter names, page base and size limit are drawn at random; the runtime Paginator then walks it."""

from __future__ import annotations

import json
import random
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from prefect_autodata.agents.induction import scripts
from prefect_autodata.runtime.extract import Document
from prefect_autodata.runtime.pagination import PageRequest, Paginator


def _server(style: str, rng: random.Random):
    n = rng.randint(40, 130)
    recs = [{"id": i, "name": f"rec-{i}"} for i in range(n)]
    page_p = rng.choice(["page", "pg", "pageNumber"])
    off_p = rng.choice(["offset", "skip", "start"])
    cur_p = rng.choice(["cursor", "after", "pageToken"])
    size_p = rng.choice(["limit", "per_page", "pageSize"])
    size, cap, base = rng.choice([10, 20, 25]), rng.choice([50, 100]), rng.choice([0, 1])

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet
            pass

        def do_GET(self):
            q = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
            try:
                sz = int(q.get(size_p, size))
                if not 1 <= sz <= cap:
                    raise ValueError
                if style == "page":
                    start = (int(q.get(page_p, base)) - base) * sz
                elif style == "offset":
                    start = int(q.get(off_p, 0))
                else:
                    start = int(q[cur_p][1:]) if cur_p in q else 0
            except (ValueError, KeyError):
                self.send_response(400)
                self.end_headers()
                return
            body = {"items": recs[start : start + sz], "total": n}
            if style == "cursor":
                body["next"] = f"c{start + sz}" if start + sz < n else None
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(data)

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    script = f"const q = new URLSearchParams(); q.set('{size_p}', 20); q.set('{ {'page': page_p, 'offset': off_p, 'cursor': cur_p}[style] }', x);"
    return srv, n, script


def _get(url: str):
    with urllib.request.urlopen(url) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("style", ["page", "offset", "cursor"])
@pytest.mark.parametrize("seed", [3, 17])
def test_probe_finds_the_paging_and_the_runtime_walks_every_record(style: str, seed: int) -> None:
    rng = random.Random(seed * 31 + len(style))
    srv, n, script = _server(style, rng)
    try:
        url = f"http://127.0.0.1:{srv.server_port}/api/list"
        first = _get(url)
        pag, extra, notes = scripts.probe(url, first, "$.items[*]", _get, [script])
        assert pag is not None and pag.kind == style, (seed, notes)
        pager = Paginator(pag, PageRequest(url, dict(extra)))
        req, seen = pager.start(), []
        while req is not None:
            full = req.url + ("?" + "&".join(f"{k}={v}" for k, v in req.params.items()) if req.params else "")
            obj = _get(full)
            recs = obj["items"]
            seen += [r["id"] for r in recs]
            req = pager.next(req, Document("json", obj, full), len(recs), json.dumps(recs), {})
        assert seen == list(range(n)), (seed, notes, pager.stop_reason)
    finally:
        srv.shutdown()


def test_no_paging_when_the_first_answer_holds_everything() -> None:
    first = {"items": [{"a": 1}, {"a": 2}], "total": 2}
    assert scripts.probe("http://127.0.0.1:9/x", first, "$.items[*]", _get, [])[0] is None


def test_param_names_skip_object_keys() -> None:
    names = scripts.param_names(['const C = {"pageParam": "pg", "sizeParam": "rows"}; u + "?offset=" + n'])
    assert names["page"] == ["pg"] and names["size"] == ["rows"] and names["offset"] == ["offset"]


class _UrllibFetcher:
    """The two things refused_sizes uses of a fetcher: get(url, headers=) -> .text, raising on HTTP errors."""

    def get(self, url: str, headers=None):
        with urllib.request.urlopen(url) as r:
            return type("R", (), {"text": r.read().decode()})()


def test_a_raised_size_the_server_refuses_falls_back_to_the_calls_own() -> None:
    srv, _n, _script = _server("page", random.Random(8))
    try:
        url = f"http://127.0.0.1:{srv.server_port}/api/list"
        first = _get(url)
        size_p = next(k for k in ("limit", "per_page", "pageSize") if k in _script)
        ep = type("E", (), {"example_url": f"{url}?{size_p}=10"})()
        back = scripts.refused_sizes(ep, {size_p: "100000"}, _UrllibFetcher(), {})
        assert back == {size_p: "10"}
        assert scripts.refused_sizes(ep, {size_p: "20"}, _UrllibFetcher(), {}) == {}
        assert first["items"]
    finally:
        srv.shutdown()


def test_param_names_take_the_role_their_config_slot_names() -> None:
    # "PageNumber" holds "num" (a size word) yet its slot says page; the answer's "TotalCount" and
    # "NextCursor" (read through *Path slots) are no parameters; "count" is the size
    code = (
        'const C = {"totalPath": "TotalCount", "nextPath": "NextCursor", "pageParam": "PageNumber", '
        '"offsetParam": "start", "cursorParam": "NextToken", "sizeParam": "count"};'
    )
    names = scripts.param_names([code])
    assert names["page"][:1] == ["PageNumber"] and names["size"][:1] == ["count"]
    assert "TotalCount" not in names["size"] and names["cursor"][:1] == ["NextToken"]
    assert scripts.role("pageNumber") == "page" and scripts.role("pageSize") == "size"
    assert scripts.role("total_count") is None


def test_the_column_flagged_as_title_answers_an_unmatched_text_field() -> None:
    from prefect_autodata.agents.induction.recordset import RecordSet

    cfg = {
        "fields": [
            {"path": "maker", "label": "Hersteller", "title": False},
            {"path": "model", "label": "Modell", "title": True},
            {"path": "price", "label": "Preis", "title": False},
        ]
    }
    html = f"<html><body><script>const C = {json.dumps(cfg)};</script></body></html>"
    rows = [
        {"maker": "GE", "model": "J1250 Silver", "price": "$132.99"},
        {"maker": "Canon", "model": "S90", "price": "$395.99"},
    ]
    rs = RecordSet(path="$.items[*]", keys=["maker", "model", "price"], labels={}, rows=rows, count=2)
    assert scripts.title_keys({"C": cfg}) == ["model"]
    matched = {"manufacturer": type("M", (), {"key": "maker"})()}
    got = scripts.title_match(["item", "manufacturer", "price"], rs, matched, html)
    assert got is not None and got[:2] == ("item", "model")
    # two flagged definitions say nothing; a key already matched is not taken twice
    cfg["fields"][0]["title"] = True
    assert scripts.title_keys({"C": cfg}) == []
    cfg["fields"][0]["title"] = False
    html = f"<html><body><script>const C = {json.dumps(cfg)};</script></body></html>"
    assert scripts.title_match(["item"], rs, {"item": type("M", (), {"key": "model"})()}, html) is None
