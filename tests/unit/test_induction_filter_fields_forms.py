"""Filter fields read by every inducer, one rule for a label shown in two forms, the dry run's fill rates
under a row filter (issue 13, session 9): small hand-written pages, records drawn from a seeded RNG."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from types import SimpleNamespace as NS

from lxml import html as lhtml

from prefect_autodata.agents.induction import embedded, selectors
from prefect_autodata.runtime.extract import extract_field, extract_page, parse_document
from prefect_autodata.runtime.fetch import FetchResponse, FetchStats

RNG = random.Random(20261202)
WORDS = [
    "Harbor",
    "Cedar",
    "Lantern",
    "Copper",
    "Willow",
    "Granite",
    "Juniper",
    "Saffron",
    "Falcon",
    "Meadow",
]


def _plan(filters):
    return NS(filters=[NS(field=f, op=o, value=v) for f, o, v in filters], time_scope=None)


def _run_filter(code, rows):
    ns: dict = {}
    exec(compile(code, "<filter>", "exec"), ns)  # the function the runtime runs in its sandbox
    return ns["transform"](rows)


def test_script_json_records_read_the_filtered_field_the_request_does_not_land() -> None:
    """ "Restaurants where the food is X, with name and phone": the cuisine is read too (its key names
    the filter's field), so the row filter keeps only the rows asked for; it is not a requested column
    the candidate claims to cover."""
    kinds = ["Seafood", "Italian", "Steak, Seafood", "Korean"]
    recs = [
        {
            "venue": f"{RNG.choice(WORDS)} {RNG.choice(WORDS)} {i}",
            "cuisine": RNG.choice(kinds),
            "phone": f"(555) {RNG.randint(100, 999)}-{RNG.randint(1000, 9999)}",
        }
        for i in range(RNG.randint(12, 30))
    ]
    recs[0]["cuisine"] = "Steak, Seafood"
    page = (
        "<html><body><main><div id='list'></div><script>window.APP = "
        + json.dumps({"props": {"data": recs}})
        + ";</script></main></body></html>"
    )
    plan = _plan([("food", "eq", "Steak, Seafood")])
    built = embedded.induce_page(
        "https://eat.example/browse",
        lhtml.document_fromstring(page),
        ["restaurant", "phone"],
        name="t",
        plan=plan,
    )
    assert built
    best = built[0]
    assert set(best.matches) == {"restaurant", "phone"}  # coverage: the requested fields only
    src = best.spec.sources[0]
    assert "food" in {f.name for f in src.fields}
    assert best.spec.python is not None and "not applied" not in best.why
    rows = extract_page(
        parse_document("html", page, "https://eat.example/browse"), src.fields, src.records, {}
    )
    kept = _run_filter(best.spec.python.code, rows)
    assert [r["restaurant"] for r in kept] == [r["venue"] for r in recs if r["cuisine"] == "Steak, Seafood"]


def _detail(title: str, value: str, split: bool) -> str:
    shown = " ".join(f"<span>{p}</span>" for p in value.split(" ", 1)) if split else value
    return (
        f"<html><head><title>{title} | Lot</title></head><body><main><h1>{title}</h1>"
        f"<section><p>Colour: {RNG.choice(WORDS)}</p><p>Fuel economy: {shown}</p></section></main></body></html>"
    )


def test_a_label_shown_in_two_forms_over_the_pages_reads_every_page() -> None:
    """ "Fuel economy: 17" in one text node on some pages, "Fuel economy: <span>21</span> <span>- 22</span>"
    on others: one rule (the element holding the label's text, without the label) reads every page."""
    n = 4
    split = [False, True, False, True]
    values = [
        (f"{RNG.randint(20, 29)} - {RNG.randint(30, 39)}" if s else str(RNG.randint(10, 40))) for s in split
    ]
    pages = []
    for i in range(n):
        html = _detail(f"Car {i}", values[i], split[i])
        pages.append((f"https://lot.example/{i}.html", lhtml.document_fromstring(html), html))
    cands = [c for c in selectors.detail_candidates(pages) if c.label == "Fuel economy"]
    assert len(cands) == 1, [(c.label, c.rule, c.values) for c in cands]
    assert cands[0].values == values
    for (url, _root, html), want in zip(pages, values, strict=True):
        doc = parse_document("html", html, url)
        assert extract_field(doc.root, _rule(cands[0]), page_url=url, params={}) == want
    # Lines split by <br> in one paragraph: the paragraph holds other fields, so the forms stay.
    pages = []
    for i, two in enumerate([False, True, False]):
        shown = "<span>12</span> <span>- 14</span>" if two else "12"
        html = f"<html><body><h1>Car {i}</h1><p>Colour: Red<br>Fuel economy: {shown}<br>Doors: {i + 2}</p></body></html>"
        pages.append((f"https://lot.example/{i}.html", lhtml.document_fromstring(html), html))
    cands = [c for c in selectors.detail_candidates(pages) if c.label == "Fuel economy"]
    assert all(not str(c.rule["xpath"]).startswith("//*[text()[starts-with(") for c in cands)


def _rule(c):
    from prefect_autodata.runtime.spec import FieldRule

    tr = list(c.rule.get("transforms", []))
    return FieldRule(name="v", xpath=c.rule["xpath"], transforms=tr)


class _Site:
    """A fetcher serving fixed pages (what the dry run needs of one: ``get`` and ``stats``)."""

    def __init__(self, pages: dict[str, str]):
        self.pages, self.stats = pages, FetchStats()

    def get(self, url, params=None, headers=None, method="GET", expect=None, **_kw):
        self.stats.requests += 1
        body = self.pages[url]
        return FetchResponse(
            url=url,
            final_url=url,
            status=200,
            headers={"content-type": "text/html"},
            content=body.encode(),
            text=body,
            encoding="utf-8",
            content_type="text/html",
            content_hash=str(hash(body)),
            fetched_at=datetime.now(UTC),
            elapsed=0.0,
            robots="not-checked",
        )

    def close(self) -> None:
        pass


def test_dry_run_rates_detail_fields_on_the_pages_it_read_when_the_filter_keeps_unread_rows() -> None:
    """A listing filtered on a listing field keeps a record far down the page; the dry run's request
    limit read the first detail pages only. The detail field's fill rate is measured on the records
    whose detail page was read, not reported empty (which failed a right spec)."""
    from prefect_autodata.runtime.runner import dry_run
    from prefect_autodata.runtime.spec import (
        CollectorSpec,
        ColumnSpec,
        DetailSpec,
        FieldRule,
        PythonStep,
        RequestTemplate,
        Selector,
        Source,
    )

    base = "https://films.example"
    n = RNG.randint(12, 20)
    wanted = RNG.randint(8, n - 1)  # far past what the limit reads
    genres = ["Drama" if i != wanted else "Action" for i in range(n)]
    items = "".join(
        f"<li><a href='{base}/f/{i}'>Film {i}</a> <span class='g'>{g}</span></li>"
        for i, g in enumerate(genres)
    )
    pages = {f"{base}/list": f"<html><body><ul>{items}</ul></body></html>"}
    for i in range(n):
        pages[f"{base}/f/{i}"] = f"<html><body><h1>Film {i}</h1><p>Rated: PG{i}</p></body></html>"
    spec = CollectorSpec(
        name="films",
        primary_key=["title"],
        columns=[ColumnSpec(name="title"), ColumnSpec(name="genre"), ColumnSpec(name="rating")],
        sources=[
            Source(
                name="records",
                kind="html",
                request=RequestTemplate(url=f"{base}/list"),
                records=Selector(xpath="//li"),
                fields=[
                    FieldRule(name="genre", xpath="./span[@class='g']"),
                    FieldRule(name="detail_url", xpath="./a", attr="href", internal=True),
                ],
                detail=DetailSpec(
                    url_field="detail_url",
                    kind="html",
                    fields=[
                        FieldRule(name="title", xpath="//h1"),
                        FieldRule(
                            name="rating",
                            xpath="//p",
                            transforms=[{"op": "regex", "pattern": r"Rated: (.*)"}],
                        ),
                    ],
                ),
            )
        ],
        python=PythonStep(
            code="def transform(rows):\n    return [r for r in rows if r.get('genre') == 'Action']\n"
        ),
    )
    rep = dry_run(spec, max_pages=1, max_requests=5, fetcher=_Site(pages))
    assert rep.fill_rates.get("title") == 1.0 and rep.fill_rates.get("rating") == 1.0, rep.fill_rates
    assert not [i for i in rep.issues if i.kind == "empty_field"], rep.issues
