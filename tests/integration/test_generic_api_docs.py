"""An API found from its documentation page, through the real ``collect`` path on 127.0.0.1.

The site is written here (nowhere in the product): a documentation page that shows the endpoint only
in a ``curl`` example and says in prose that requests need a bearer token, with a demo token; the
endpoint answers rows with the header list kept beside them and the URL of the next page. Every record
must land, and the spec must keep the token out of its YAML (``{secret:NAME}``).
"""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from prefect_autodata.flows.collect import collect

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen marsh nectar onyx".split()
PEOPLE = ["Ada Byron", "Jane Doe", "Li Wei", "Omar Khan", "Sara Lind", "Tomas Ruiz", "Ivy Chen"]
SIZE = 10


def _books(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    seen: set[str] = set()
    out = []
    while len(out) < n:
        t = " ".join(rng.sample(WORDS, 3)).title()
        if t not in seen:
            seen.add(t)
            out.append([t, rng.choice(PEOPLE), f"{rng.randint(3, 60)}.{rng.randint(0, 99):02d}"])
    return out


def api_site(books: list[list[str]], token: str) -> Starlette:
    def docs(request):
        base = str(request.base_url).rstrip("/")
        return HTMLResponse(
            "<html><head><title>Book catalogue API documentation</title></head><body>"
            "<h1>Book catalogue API</h1><p>Every book of the catalogue as JSON.</p>"
            f'<pre><code>curl -H "Authorization: Bearer $KEY" "{base}/v1/books?size={SIZE}"</code></pre>'
            "<p>Requests need a key, sent as a bearer token in the Authorization header. "
            f"To try the API use the demo key <code>{token}</code>.</p>"
            "<p>Each response holds a slice of the catalogue and the URL of the next slice.</p>"
            "</body></html>"
        )

    def endpoint(request):
        if request.headers.get("authorization") != f"Bearer {token}":
            return JSONResponse({"error": "missing or wrong key"}, status_code=401)
        page = int(request.query_params.get("page", "1"))
        size = int(request.query_params.get("size", str(SIZE)))
        rows = books[(page - 1) * size : page * size]
        more = page * size < len(books)
        return JSONResponse(
            {
                "columns": ["title", "author", "price"],
                "result": {"rows": rows, "total": len(books)},
                "links": {"next": f"/v1/books?size={size}&page={page + 1}" if more else None},
            }
        )

    return Starlette(routes=[Route("/docs", docs), Route("/v1/books", endpoint)])


def test_api_from_its_docs_page_with_bearer_key_and_next_links(serve, workspace, tmp_path):
    seed = random.randrange(10**6)
    books = _books(35, seed)
    token = f"demo{seed:06d}k{random.Random(seed).getrandbits(40):x}"
    base = serve(api_site(books, token))
    res = collect(
        "Collect every book in this catalogue with title, author and price",
        sources=[base + "/docs"],
        workspace=workspace,
        db=tmp_path / "books.duckdb",
    )
    assert res.status == "succeeded", (seed, res.stop_reason, res.detail, res.error)
    con = duckdb.connect(res.db, read_only=True)
    try:
        got = con.execute(f'SELECT title, author, price FROM "{res.table}"').fetchall()
    finally:
        con.close()
    assert sorted((t, a, float(p)) for t, a, p in got) == sorted((t, a, float(p)) for t, a, p in books)
    spec_text = Path(res.spec).read_text()
    assert token not in spec_text and "{secret:" in spec_text
