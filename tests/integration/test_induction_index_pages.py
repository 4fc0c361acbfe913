"""Listings split over an index bar ("Browse by letter: A B C") and listings paged by path numbers
(``/page/2/``, the current page shown as plain text): the induced spec, run by the real runtime over a
real loopback server, lands every record. Site content, class names, field order and sizes come from
a random seed (printed in failure messages)."""

from __future__ import annotations

import os
import random
import string
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy

SEED = int(os.environ.get("INDEX_PAGES_SEED") or random.randrange(1_000_000))  # set it to replay a seed
RNG = random.Random(SEED)
FAST = {"rate_limit_per_host": 0, "max_retries": 0, "backoff_base": 0}


def _cls() -> str:
    return "c" + "".join(RNG.choices(string.ascii_lowercase + string.digits, k=6))


def _records(n: int) -> list[dict[str, str]]:
    firsts = ["Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    return [
        {
            "name": f"{RNG.choice(string.ascii_uppercase)}{''.join(RNG.choices(string.ascii_lowercase, k=5))} {i}",
            "maker": f"{RNG.choice(firsts)} {RNG.choice(['Ray', 'Lund', 'Okafor', 'Pike'])}",
            "price": f"${RNG.randint(3, 400)}.{RNG.randint(0, 99):02d}",
        }
        for i in range(n)
    ]


RECORDS = _records(RNG.randint(14, 30))
LETTERS = sorted({r["name"][0] for r in RECORDS})
ITEM, LIST, PAGE = _cls(), _cls(), 6
LABELS = {"maker": "Maker", "price": "Price"}


def _page(main: str) -> bytes:
    nav = (
        "<header><nav><a href='/'>Home</a> <a href='/about'>About</a> <a href='/help'>Help</a></nav></header>"
    )
    cookie = "<div id='cookie-consent' role='dialog'><p>We use cookies.</p><button>OK</button></div>"
    side = f"<aside><h2>Featured</h2><div class='{ITEM}'><h2>{RECORDS[0]['name']}</h2></div></aside>"
    return f"<html><head><title>Shop</title></head><body>{nav}{cookie}{side}<main>{main}</main><footer><p>(c) Shop 2024</p></footer></body></html>".encode()


def _cards(recs: list[dict[str, str]]) -> str:
    out = []
    for r in recs:
        pairs = [(LABELS[k], r[k]) for k in ("maker", "price")]
        RNG.shuffle(pairs)
        dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs)
        out.append(f"<div class='{ITEM}'><h2>{r['name']}</h2><dl>{dl}</dl></div>")
    return f"<div class='{LIST}'>{''.join(out)}</div>"


def _pager(current: int, last: int) -> str:
    bits = [
        f"<span>{i}</span>" if i == current else f"<a href='/paged/page/{i}/'>{i}</a>"
        for i in range(1, last + 1)
    ]
    return f"<nav class='pagination'>{' '.join(bits)}</nav>"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        path, status, ctype = self.path.split("?")[0], 200, "text/html"
        last = (len(RECORDS) + PAGE - 1) // PAGE
        if path == "/robots.txt":
            body, ctype = b"User-agent: *\nAllow: /\n", "text/plain"
        elif path == "/browse/":
            bar = " ".join(f"<a href='/browse/{x.lower()}/'>{x}</a>" for x in LETTERS)
            body = _page(
                f"<h1>All items</h1><p>{len(RECORDS)} items in all</p><p>Browse by letter:</p><p>{bar}</p>"
            )
        elif path.startswith("/browse/") and path.count("/") == 3:
            x = path.split("/")[2].upper()
            body = _page(f"<h1>Items: {x}</h1>" + _cards([r for r in RECORDS if r["name"][0] == x]))
        elif path in ("/paged/", *(f"/paged/page/{i}/" for i in range(2, last + 1))):
            n = 1 if path == "/paged/" else int(path.split("/")[3])
            recs = RECORDS[(n - 1) * PAGE : n * PAGE]
            body = _page(f"<h1>Items</h1>{_cards(recs)}{_pager(n, last)}")
        else:
            status, body = 404, b"<html><body>not found</body></html>"
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join(timeout=10)


def _best(base: str, path: str):
    fetcher = Fetcher(FetchPolicy(**FAST), ["127.0.0.1"])
    url = base + path
    html = fetcher.get(url).text
    built = induce_page(url, html, ["title", "maker", "price"], name="items", fetcher=fetcher)
    assert built, (SEED, path)
    return max(built, key=lambda b: (len(b.matches), b.rows))


def _landed(spec, tmp_path) -> list[tuple]:
    import duckdb

    spec = spec.model_copy(update={"politeness": FetchPolicy(**FAST)})
    res = run_spec(spec, str(tmp_path / "w.duckdb"))
    assert res.status == "succeeded", (SEED, res.error)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    return sorted(con.execute(f'SELECT title, maker, price FROM "{res.table}"').fetchall())


def test_records_behind_an_index_bar_are_all_collected(base, tmp_path):
    b = _best(base, "/browse/")
    names = [s.name for s in b.spec.sources]
    assert names[0] == "index" and not b.spec.sources[0].emit, (SEED, names)
    assert "{part}" in b.spec.sources[1].request.url, SEED
    want = sorted((r["name"], r["maker"], float(r["price"].lstrip("$"))) for r in RECORDS)
    assert _landed(b.spec, tmp_path) == want, SEED


def test_a_pager_by_path_numbers_is_followed_from_the_current_page(base, tmp_path):
    b = _best(base, "/paged/")
    src = b.spec.sources[0]
    assert src.pagination is not None and src.pagination.kind == "next_link", SEED
    want = sorted((r["name"], r["maker"], float(r["price"].lstrip("$"))) for r in RECORDS)
    assert _landed(b.spec, tmp_path) == want, SEED
