"""APIs and data files read from what their documentation says, through ``collect`` on 127.0.0.1.

The sites are written here (nowhere in the product), with random sizes and random key names:

- abbreviated keys whose meanings only a "Keys" table gives, a cursor handed out in the body and
  passed back under the parameter the docs name, a page-size limit the docs state, a key sent as a
  query parameter with a name of the site's own;
- zero-based pages and records kept as an object keyed by id;
- a download page linking an NDJSON file, its columns explained in a table.

Every record must land with the right values, and the demo key must stay out of the spec YAML.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen marsh nectar onyx".split()
PEOPLE = ["Ada Byron", "Jane Doe", "Li Wei", "Omar Khan", "Sara Lind", "Tomas Ruiz", "Ivy Chen"]


def _books(n: int, rng: random.Random) -> list[dict]:
    seen: set[str] = set()
    out = []
    while len(out) < n:
        t = " ".join(rng.sample(WORDS, 3)).title()
        if t not in seen:
            seen.add(t)
            out.append({"id": str(1000 + len(out)), "title": t, "author": rng.choice(PEOPLE)})
    return out


def _keys_table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><td><code>{k}</code></td><td>{m}</td><td>text</td></tr>" for k, m in rows)
    return f"<table><thead><tr><th>Key</th><th>Meaning</th><th>Type</th></tr></thead><tbody>{body}</tbody></table>"


def cursor_site(books: list[dict], key: str, rng: random.Random) -> Starlette:
    top = rng.randint(7, 12)
    kp, cp, sp = "zq" + rng.choice("abc"), "nx" + rng.choice("tuv"), "lm" + rng.choice("def")

    def docs(request):
        return HTMLResponse(
            "<html><head><title>Shelf API documentation</title></head><body><h1>Shelf API</h1>"
            f'<pre><code>curl "{request.base_url}v2/shelf?{sp}=5&amp;{kp}={key}"</code></pre>'
            f"<p>Add the query parameter <code>{kp}</code> to every request; demo key <code>{key}</code>.</p>"
            f"<ul><li><code>{cp}</code> — Opaque cursor from the previous response; omit it for the first page.</li>"
            f"<li><code>{sp}</code> — Records per response, 1 to {top} (default 5).</li></ul>"
            + _keys_table([("rid", "Record id"), ("ttl", "Book title"), ("wr", "Written by")])
            + "</body></html>"
        )

    def endpoint(request):
        q = request.query_params
        if q.get(kp) != key:
            return JSONResponse({"error": "bad key"}, status_code=401)
        size = int(q.get(sp, "5"))
        if size > top:
            return JSONResponse({"error": f"{sp} must be 1 to {top}"}, status_code=400)
        start = int(q.get(cp, "0") or 0)
        chunk = books[start : start + size]
        more = start + size < len(books)
        return JSONResponse(
            {
                "out": [{"rid": b["id"], "ttl": b["title"], "wr": b["author"]} for b in chunk],
                "pg": {"tlcnt": len(books), "nxt": str(start + size) if more else None},
            }
        )

    return Starlette(routes=[Route("/dev/docs", docs), Route("/v2/shelf", endpoint)])


def keyed_site(books: list[dict], key: str, rng: random.Random) -> Starlette:
    size = rng.randint(4, 9)

    def docs(request):
        return HTMLResponse(
            "<html><head><title>Books API reference</title></head><body><h1>Books API</h1>"
            f"<p><code>GET {request.base_url}api/books?page=0</code></p>"
            "<p>Send the header <code>X-Shelf-Key: &lt;key&gt;</code>; for trying the API use the demo key "
            f"<code>{key}</code>.</p>"
            "<table><tr><th>Parameter</th><th>Type</th><th>Description</th></tr>"
            "<tr><td><code>page</code></td><td>integer</td><td>Page number (first page is 0).</td></tr></table>"
            + _keys_table([("bookName", "Title"), ("writer", "Author")])
            + "</body></html>"
        )

    def endpoint(request):
        if request.headers.get("x-shelf-key") != key:
            return JSONResponse({"error": "bad key"}, status_code=403)
        page = int(request.query_params.get("page", "0"))
        chunk = books[page * size : (page + 1) * size]
        return JSONResponse(
            {
                "books": {b["id"]: {"bookName": b["title"], "writer": b["author"]} for b in chunk},
                "total": len(books),
            }
        )

    return Starlette(routes=[Route("/docs", docs), Route("/api/books", endpoint)])


def ndjson_site(books: list[dict]) -> Starlette:
    def page(request):
        return HTMLResponse(
            "<html><head><title>Downloads</title></head><body><h1>Download books</h1>"
            f"<p>Every book as JSON Lines; {len(books)} records in all.</p>"
            '<p><a href="/files/books.ndjson">books.ndjson</a></p><h2>Columns</h2>'
            + _keys_table([("nm", "Title"), ("au", "Author")])
            + "</body></html>"
        )

    def file(request):
        text = "".join(json.dumps({"nm": b["title"], "au": b["author"], "k": b["id"]}) + "\n" for b in books)
        return Response(text, media_type="application/x-ndjson")

    return Starlette(routes=[Route("/downloads", page), Route("/files/books.ndjson", file)])


@pytest.fixture
def serve():
    running = []

    def start(app: Starlette) -> str:
        port = free_port()
        running.append(start_in_thread(app, "127.0.0.1", port, name="api-docs-meanings"))
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in running:
        stop_thread(server, thread)


def _landed(res) -> list[tuple[str, str]]:
    con = duckdb.connect(res.db, read_only=True)
    try:
        return sorted(con.execute(f'SELECT title, author FROM "{res.table}"').fetchall())
    finally:
        con.close()


@pytest.mark.parametrize("site", ["cursor", "keyed", "ndjson"])
def test_records_land_from_what_the_docs_say(site, serve, workspace, tmp_path):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    books = _books(rng.randint(23, 47), rng)
    key = f"demo{seed:06d}k{rng.getrandbits(40):x}"
    app, path = {
        "cursor": (lambda: cursor_site(books, key, rng), "/dev/docs"),
        "keyed": (lambda: keyed_site(books, key, rng), "/docs"),
        "ndjson": (lambda: ndjson_site(books), "/downloads"),
    }[site]
    base = serve(app())
    res = collect(
        "Collect every book with title and author",
        sources=[base + path],
        workspace=workspace,
        db=tmp_path / "books.duckdb",
    )
    assert res.status == "succeeded", (seed, res.stop_reason, res.detail, res.error)
    assert _landed(res) == sorted((b["title"], b["author"]) for b in books), seed
    if site != "ndjson":
        spec_text = Path(res.spec).read_text()
        assert key not in spec_text and "{secret:" in spec_text, seed


def filter_site(books: list[dict], seen: list[dict]) -> Starlette:
    """Pages of 4 books; the docs name a parameter that keeps one author's books (the server records asks)."""

    def docs(request):
        return HTMLResponse(
            "<html><head><title>Books API documentation</title></head><body><h1>Books API</h1>"
            f"<p><code>GET {request.base_url}v1/books?pg=1</code> answers JSON.</p><h2>Query parameters</h2>"
            "<ul><li><code>pg</code> — Page number (first page is 1).</li>"
            "<li><code>wrt</code> — Only books by this author.</li></ul>"
            + _keys_table([("ttl", "Book title"), ("who", "Author")])
            + "</body></html>"
        )

    def endpoint(request):
        q = dict(request.query_params)
        seen.append(q)
        chosen = [b for b in books if "wrt" not in q or b["author"] == q["wrt"]]
        page = int(q.get("pg", "1"))
        chunk = chosen[(page - 1) * 4 : page * 4]
        return JSONResponse({"items": [{"ttl": b["title"], "who": b["author"]} for b in chunk]})

    return Starlette(routes=[Route("/docs", docs), Route("/v1/books", endpoint)])


def test_filter_sent_as_the_parameter_the_docs_name(serve, workspace, tmp_path):
    seed = random.randrange(10**6)
    rng = random.Random(seed)
    books = _books(rng.randint(23, 47), rng)
    author = rng.choice(sorted({b["author"] for b in books}))
    seen: list[dict] = []
    base = serve(filter_site(books, seen))
    res = collect(
        f"Collect every book with title and author where author is {author}",
        sources=[base + "/docs"],
        workspace=workspace,
        db=tmp_path / "books.duckdb",
    )
    assert res.status == "succeeded", (seed, res.stop_reason, res.detail, res.error)
    assert _landed(res) == sorted((b["title"], b["author"]) for b in books if b["author"] == author), seed
    assert "wrt:" in Path(res.spec).read_text(), seed
    assert any(q.get("wrt") == author for q in seen), seed  # the server saw the filter as a parameter
