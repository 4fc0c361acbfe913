"""Generic induction through the real ``collect`` path, on small sites served here on 127.0.0.1.

The records are generated in the test (seeded), the sites are written here and nowhere in the
product: a bookshop (listing → detail pages with ``<dt>/<dd>`` labels, a "next" link, a stated total,
navigation and a cookie banner) and a plain page with a table of countries among prose. Every
requested field must land, with the values the pages show.
"""

from __future__ import annotations

import random

import duckdb
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen marsh nectar onyx".split()
PEOPLE = ["Ada Byron", "Jane Doe", "Li Wei", "Omar Khan", "Sara Lind", "Tomas Ruiz", "Ivy Chen"]
PER_PAGE = 20


def _books(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    titles: set[str] = set()
    out = []
    while len(out) < n:
        t = " ".join(rng.sample(WORDS, 3)).title()
        if t in titles:
            continue
        titles.add(t)
        out.append(
            {
                "title": t,
                "author": rng.choice(PEOPLE),
                "price": f"£{rng.randint(3, 60)}.{rng.randint(0, 99):02d}",
            }
        )
    return out


def _page(title: str, body: str) -> HTMLResponse:
    chrome = (
        "<nav><ul><li><a href='/'>Home</a></li><li><a href='/about'>About us</a></li>"
        "<li><a href='/contact'>Contact</a></li></ul></nav>"
        "<div class='cookie'>We use cookies to improve your visit. <button>Accept</button></div>"
    )
    return HTMLResponse(
        f"<html><head><title>{title}</title></head><body>{chrome}{body}<footer>© The Shop</footer></body></html>"
    )


def bookshop(books: list[dict]) -> Starlette:
    def listing(request):
        page = int(request.query_params.get("page", "1"))
        items = books[(page - 1) * PER_PAGE : page * PER_PAGE]
        lis = "".join(
            f"<li class='b{(page + i) % 3}'><a href='/book/{(page - 1) * PER_PAGE + i + 1}'>{b['title']}</a></li>"
            for i, b in enumerate(items)
        )
        first = (page - 1) * PER_PAGE + 1
        nxt = f"<a href='/?page={page + 1}'>Next</a>" if page * PER_PAGE < len(books) else ""
        return _page(
            "All books | The Shop",
            f"<h1>All books</h1><p>Showing {first}–{first + len(items) - 1} of {len(books)}</p><ul class='list'>{lis}</ul>{nxt}",
        )

    def detail(request):
        i = int(request.path_params["i"])
        if not 1 <= i <= len(books):
            return HTMLResponse("<html><body>not found</body></html>", status_code=404)
        b = books[i - 1]
        return _page(
            f"{b['title']} | The Shop",
            f"<h1>{b['title']}</h1><dl><dt>Format</dt><dd>Paperback</dd><dt>Author</dt><dd>{b['author']}</dd>"
            f"<dt>Price</dt><dd>{b['price']}</dd></dl><button>Add to basket</button>",
        )

    return Starlette(routes=[Route("/", listing), Route("/book/{i:int}", detail)])


def _countries(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    syll = ["ka", "lo", "mi", "re", "su", "ta", "ven", "dor", "ari", "bel", "nor", "zan"]
    names: set[str] = set()
    out = []
    while len(out) < n:
        name = "".join(rng.sample(syll, 3)).title()
        if name in names:
            continue
        names.add(name)
        out.append(
            {
                "name": name,
                "capital": name[:4] + rng.choice(["ville", "grad", " City"]),
                "population": rng.randint(10**5, 2 * 10**8),
            }
        )
    return out


def countries_site(rows: list[dict]) -> Starlette:
    def page(request):
        body = "".join(
            f"<tr><td>{r['name']}</td><td>{r['capital']}</td><td>{r['population']:,}</td></tr>" for r in rows
        )
        return HTMLResponse(
            "<html><head><title>Countries</title></head><body><h1>Countries of the world</h1>"
            "<p>This page lists the countries, with their capital city and population.</p>"
            "<table><tr><td><a href='/'>Home</a></td><td><a href='/map'>Map</a></td></tr></table>"
            f"<table class='data'><thead><tr><th>Country</th><th>Capital</th><th>Population</th></tr></thead><tbody>{body}</tbody></table>"
            "<p>Figures are estimates.</p></body></html>"
        )

    return Starlette(routes=[Route("/", page)])


@pytest.fixture
def serve():
    running = []

    def start(app: Starlette) -> str:
        port = free_port()
        running.append(start_in_thread(app, "127.0.0.1", port, name="generic-site"))
        return f"http://127.0.0.1:{port}/"

    yield start
    for server, thread in running:
        stop_thread(server, thread)


def _landed(db: str, table: str) -> list[dict]:
    con = duckdb.connect(db, read_only=True)
    try:
        cur = con.execute(f'SELECT * FROM "{table}"')
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()


def test_bookshop_listing_to_detail_lands_title_author_price(serve, workspace, tmp_path):
    seed = random.randrange(10**6)
    books = _books(45, seed=seed)
    url = serve(bookshop(books))
    res = collect(
        "Collect every book listed on this site with title, author and price",
        sources=[url],
        workspace=workspace,
        db=tmp_path / "books.duckdb",
    )
    assert res.status == "succeeded", (seed, res.stop_reason, res.detail, res.error)
    assert res.tokens == 0
    assert set(res.fields) == {"title", "author", "price"}
    assert all(f["rule"] and f["fill_rate"] == 1.0 for f in res.fields.values()), (seed, res.fields)
    rows = _landed(res.db, res.table)
    got = sorted((r["title"], r["author"], r["price"]) for r in rows)
    # "£27.94" is an amount: it lands as the number 27.94
    assert got == sorted((b["title"], b["author"], float(b["price"].lstrip("£"))) for b in books)


def test_countries_table_on_a_plain_page(serve, workspace, tmp_path):
    rows = _countries(40, seed=random.randrange(10**6))
    url = serve(countries_site(rows))
    res = collect(
        "the countries in the table on this page with name, capital and population",
        sources=[url],
        workspace=workspace,
        db=tmp_path / "countries.duckdb",
    )
    assert res.status == "succeeded", (res.stop_reason, res.detail, res.error)
    landed = _landed(res.db, res.table)
    got = sorted((r["name"], r["capital"], int(r["population"])) for r in landed)
    assert got == sorted((r["name"], r["capital"], r["population"]) for r in rows)
    assert res.fields["population"]["fill_rate"] == 1.0


def test_nothing_matching_ends_no_spec_naming_each_field(serve, workspace, tmp_path):
    def page(request):
        return HTMLResponse("<html><body><h1>Welcome</h1><p>Nothing to see here.</p></body></html>")

    url = serve(Starlette(routes=[Route("/", page)]))
    res = collect(
        "Collect every book listed on this site with title, author and price",
        sources=[url],
        workspace=workspace,
        db=tmp_path / "none.duckdb",
    )
    assert res.status == "no_spec"
    assert res.rows == 0
    for f in ("title", "author", "price"):
        assert f"{f}:" in res.error


def test_a_listing_read_short_of_its_stated_total_fails_the_dry_run(serve):
    from prefect_autodata.agents.test import test_spec
    from prefect_autodata.runtime.fetch import Fetcher
    from prefect_autodata.runtime.policy import FetchPolicy
    from prefect_autodata.runtime.spec import CollectorSpec

    books = _books(10, seed=3)

    def page(request):
        lis = "".join(f"<li>{b['title']}</li>" for b in books)
        return HTMLResponse(f"<html><body><p>Showing 1–10 of 87 books</p><ul>{lis}</ul></body></html>")

    url = serve(Starlette(routes=[Route("/", page)]))
    spec = CollectorSpec.model_validate(
        {
            "name": "short",
            "primary_key": ["title"],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": url},
                    "records": {"xpath": "//li"},
                    "fields": [{"name": "title", "xpath": "."}],
                }
            ],
        }
    )
    with Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"}) as fetcher:
        rep = test_spec(spec, None, fetcher=fetcher)
    assert rep.rows == 10 and not rep.ok
    assert [i.kind for i in rep.issues if i.kind == "short_of_total"] == ["short_of_total"]
