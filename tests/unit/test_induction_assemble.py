"""Spec assembly on whole pages: the spec it writes, run by the runtime's extractor, gives the records."""

from __future__ import annotations

import random

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1:9/page"


def _countries(n=12, seed=5):
    rng = random.Random(seed)
    syll = "ka lo mi re su ta ven dor ari bel".split()
    out = []
    for i in range(n):
        name = ("".join(rng.sample(syll, 2)) + f"{i}").title()
        out.append(
            {"name": name, "capital": name[:3] + "ville", "population": f"{rng.randint(10**5, 10**8):,}"}
        )
    return out


def _rows(spec, html):
    src = spec.sources[0]
    doc = parse_document("html", html, URL)
    return extract_page(doc, src.fields, src.records, {})


def test_countries_table_on_a_plain_page():
    recs = _countries()
    body = "".join(
        f"<tr><td>{r['name']}</td><td>{r['capital']}</td><td>{r['population']}</td></tr>" for r in recs
    )
    html = (
        "<html><body><h1>Countries of the world</h1><p>Some prose about countries.</p>"
        f"<table class='wikitable'><tr><th>Country</th><th>Capital</th><th>Population</th></tr>{body}</table></body></html>"
    )
    built = induce_page(URL, html, ["name", "capital", "population"], name="countries", entity="country")
    assert built
    best = max(built, key=lambda b: len(b.matches))
    assert set(best.matches) == {"name", "capital", "population"}
    rows = _rows(best.spec, html)
    assert [r["name"] for r in rows] == [r["name"] for r in recs]
    assert [r["capital"] for r in rows] == [r["capital"] for r in recs]
    assert [r["population"] for r in rows] == [int(r["population"].replace(",", "")) for r in recs]
    assert {c.name: c.type for c in best.spec.columns}["population"] == "integer"


def test_card_grid_with_labels_in_text_user_words_differ_from_labels():
    rng = random.Random(11)
    recs = [
        {
            "t": f"Item {i} {rng.choice(['red', 'blue', 'green'])}",
            "a": rng.choice(["Ann Li", "Bo Ek", "Cy Po"]),
            "p": f"€{rng.randint(1, 99)},{rng.randint(10, 99)}",
        }
        for i in range(9)
    ]
    cards = "".join(
        f"<div class='q{i % 2}z c7'><h2>{r['t']}</h2><p>By: {r['a']}</p><p>Our price: {r['p']}</p><p>Ships in 2 days</p></div>"
        for i, r in enumerate(recs)
    )
    html = f"<html><body><header><a href='/'>Shop</a><a href='/x'>X</a><a href='/y'>Y</a></header><div>{cards}</div></body></html>"
    built = induce_page(URL, html, ["title", "writer", "cost"], name="shop")
    best = max(built, key=lambda b: len(b.matches))
    assert set(best.matches) == {"title", "writer", "cost"}
    rows = _rows(best.spec, html)
    # "€60,67" is an amount with a decimal comma: it lands as the number 60.67
    want = [(r["t"], r["a"], float(r["p"].lstrip("€").replace(",", "."))) for r in recs]
    assert [(r["title"], r["writer"], r["cost"]) for r in rows] == want


def test_fields_the_page_does_not_have_stay_unmatched():
    html = "<html><body><ul>" + "".join(f"<li>Thing {i}</li>" for i in range(6)) + "</ul></body></html>"
    built = induce_page(URL, html, ["name", "price"], name="x")
    assert all("price" not in b.matches for b in built)


def test_request_filter_becomes_a_row_filter_step():
    from types import SimpleNamespace as NS

    recs = _countries(10, seed=2)
    body = "".join(
        f"<tr><td>{r['name']}</td><td>{r['capital']}</td><td>{r['population']}</td></tr>" for r in recs
    )
    html = f"<table><tr><th>Country</th><th>Capital</th><th>Population</th></tr>{body}</table>"
    limit = sorted(int(r["population"].replace(",", "")) for r in recs)[4]
    plan = NS(filters=[NS(field="population", op="le", value=limit)], time_scope=None)
    (best,) = induce_page(URL, html, ["name", "population"], name="c", plan=plan)
    assert best.spec.python is not None
    ns: dict = {}
    exec(compile(best.spec.python.code, "<step>", "exec"), ns)
    kept = ns["transform"](_rows(best.spec, html))
    assert len(kept) == 5 and all(r["population"] <= limit for r in kept)


def test_a_filter_on_a_field_only_detail_pages_show_is_applied_after_the_join():
    """Books "since YEAR" where the year is on the detail pages only: the spec reads the year from
    them and the row filter keeps the rows asked for (it used to be named, not applied: every row landed)."""
    from types import SimpleNamespace as NS

    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    words = "amber birch coral dune ember fern glade heath iris juniper".split()
    books = [
        {
            "title": f"The {rng.choice(words).title()} {rng.choice(words).title()} {i}",
            "author": f"{rng.choice(['Ann', 'Bo', 'Cy', 'Di'])} {rng.choice(['Lund', 'Okafor', 'Reyes'])}",
            "year": rng.randint(1990, 2020),
        }
        for i in range(8)
    ]
    cards = "".join(
        f"<div class='book'><h3><a href='/book/{i}'>{b['title']}</a></h3><span class='by'>{b['author']}</span></div>"
        for i, b in enumerate(books)
    )
    html = f"<html><body><div class='list'>{cards}</div></body></html>"
    bodies = {
        f"http://127.0.0.1:9/book/{i}": (
            f"<html><body><h1>{b['title']}</h1><dl><dt>Author</dt><dd>{b['author']}</dd>"
            f"<dt>Publisher</dt><dd>House {i}</dd><dt>Year</dt><dd>{b['year']}</dd></dl></body></html>"
        )
        for i, b in enumerate(books)
    }
    since = sorted(b["year"] for b in books)[4]
    plan = NS(filters=[NS(field="year", op="ge", value=since)], time_scope=None)
    built = induce_page(URL, html, ["title", "author"], name="b", plan=plan, bodies=dict(bodies))
    with_filter = [
        b
        for b in built
        if b.spec.python is not None and b.spec.sources[0].detail is not None and "year" in b.spec.python.code
    ]
    assert with_filter, seed
    spec = with_filter[0].spec
    src = spec.sources[0]
    assert "year" in {f.name for f in src.detail.fields}, seed
    from prefect_autodata.runtime.extract import extract_field

    rows = _rows(spec, html)
    for r in rows:  # the join the runtime does: each row's detail page read by the detail rules
        link = "http://127.0.0.1:9" + r[src.detail.url_field].split("127.0.0.1:9", 1)[-1]
        page = parse_document("html", bodies[link], link)
        r.update({f.name: extract_field(page.root, f, page_url=link, params={}) for f in src.detail.fields})
    ns: dict = {}
    exec(compile(spec.python.code, "<step>", "exec"), ns)
    kept = ns["transform"](rows)
    assert sorted(r["title"] for r in kept) == sorted(b["title"] for b in books if b["year"] >= since), seed
