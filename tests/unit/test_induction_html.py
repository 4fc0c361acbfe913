"""Listing → detail wrapper induction on small synthetic pages (no network: a dict plays the web).

The pages are invented layouts (not any real site's markup), so the tests exercise induction from
observation: repeated regions, name lists, labelled links, section headings, detail-page rules, year
templates and year scoping. Each induced spec is then *run* through the runtime's extractor on the
same pages, so a wrong selector fails on values, not on selector strings.
"""

from __future__ import annotations

import pytest
from lxml import html as lhtml

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.agents.offline.listings import (
    find_regions,
    induce_listing,
    induce_listings,
    listing_spec,
    names_score,
)
from prefect_autodata.runtime.extract import extract_field, extract_page, parse_document

BASE = "http://example.test"
PAPERS = [
    ("Sparse Widgets for Dense Gadgets", "Ada Lovelace, Alan Turing", True),
    ("On the Hardness of Sorting Socks", "Grace Hopper", False),
    ("Deep Thoughts about Shallow Nets", "Edsger W Dijkstra, Barbara Liskov, John von Neumann", True),
    ("A Theory of Everything Else", "Donald Knuth, Leslie Lamport", True),
]


class Web:
    """Pages by URL; ``get`` answers like the runtime Fetcher (status, text)."""

    def __init__(self, pages: dict[str, str]) -> None:
        self.pages = pages
        self.requests: list[str] = []

    def get(self, url: str, **_kw):
        self.requests.append(url)
        if url not in self.pages:
            raise LookupError(url)

        class R:
            status = 200
            text = self.pages[url]

        return R()


def _detail(i: int, title: str, authors: str, year: int, supp: bool) -> str:
    supp_link = f'<a href="/files/{year}/{i}-supp.zip">Supplementary</a>' if supp else ""
    return f"""<html><head><title>{title}</title></head><body>
    <div class="crumbs"><a href="/proc/{year}">Proceedings of the Widget Conference {year}</a></div>
    <h1 class="headline">{title}</h1><p class="people">{authors}</p>
    <dl><dt>Venue</dt><dd>Widget Conference</dd><dt>Track</dt><dd>Main Conference Track</dd></dl>
    <div class="buttons"><a href="/files/{year}/{i}.pdf">PDF</a> <a href="/files/{year}/{i}.bib">BibTeX</a> {supp_link}</div>
    <section class="summary-box"><h3>Abstract</h3><div class="txt">We study item {i} of {year} in depth.
    Results are promising and long enough to be an abstract of a paper, clearly prose.</div></section>
    </body></html>"""


def _listing(year: int) -> str:
    items = "".join(
        f'<li class="entry"><a class="t" href="/proc/{year}/paper/{i}">{t}</a>'
        f'<span class="by">{a}</span></li>'
        for i, (t, a, _s) in enumerate(PAPERS)
    )
    return f"""<html><head><title>WACV {year}</title></head><body>
    <nav><ul class="menu"><li class="m"><a href="/">Home</a></li><li class="m"><a href="/about">About</a></li></ul></nav>
    <h2>Proceedings of the Widget Conference {year}</h2><p class="badge">Main Conference Track</p>
    <ul class="papers">{items}</ul></body></html>"""


def _site(years=(2016, 2017)) -> dict[str, str]:
    pages = {}
    for y in years:
        pages[f"{BASE}/proc/{y}"] = _listing(y)
        for i, (t, a, s) in enumerate(PAPERS):
            pages[f"{BASE}/proc/{y}/paper/{i}"] = _detail(i, t, a, y, s)
    return pages


PLAN = parse_instruction("Collect all accepted papers of WACV 2017.")


def _plan(text: str):
    p = parse_instruction(text)
    assert p.is_resolved, p.missing
    return p


def _run_listing(spec, pages: dict[str, str], url: str) -> list[dict]:
    """The runtime's own extraction of the spec on ``url`` (+ its detail pages)."""
    src = spec.sources[0]
    rows = extract_page(parse_document("html", pages[url], url), src.fields, src.records, {})
    if src.detail:
        for r in rows:
            durl = r[src.detail.url_field]
            doc = parse_document("html", pages[durl], durl)
            for rule in src.detail.fields:
                r[rule.name] = extract_field(doc.root, rule, page_url=durl, params={})
    return rows


def test_names_score_tells_author_lists_from_titles():
    assert names_score("Ada Lovelace, Alan Turing and Grace Hopper") > 0.9
    assert names_score("John von Neumann | Edsger W. Dijkstra") > 0.9
    assert names_score("On the Hardness of Sorting Socks in 2020") < 0.5
    assert names_score("") == 0.0


def test_find_regions_prefers_the_repeated_records_over_navigation():
    root = lhtml.document_fromstring(_listing(2017))
    regions = find_regions(root, f"{BASE}/proc/2017")
    assert regions[0].xpath == "//ul[@class='papers']/li[@class='entry']"
    assert regions[0].count == len(PAPERS)


def test_listing_plus_detail_spec_extracts_every_field():
    pages = _site()
    web = Web(pages)
    url = f"{BASE}/proc/2017"
    plan = _plan("Collect all accepted papers of WACV 2017.")
    ind = induce_listing(
        Page(url=url, final_url=url, status=200, kind="html"), plan, body=pages[url], fetcher=web
    )
    assert ind is not None
    assert {"TITLE", "AUTHORS", "TRACK"} <= set(ind.listing)
    assert {"ABSTRACT", "PAPER_LINK", "BIBTEX_LINK"} <= set(ind.detail)
    spec = listing_spec(ind, plan, name="wc-2017")
    rows = _run_listing(spec, pages, url.replace("2017", "2017"))
    assert [r["TITLE"] for r in rows] == [p[0] for p in PAPERS]
    assert [r["AUTHORS"] for r in rows] == [p[1] for p in PAPERS]
    assert all(r["TRACK"] == "Main Conference Track" for r in rows)
    assert all(r["ABBR"] == "WACV" for r in rows)
    assert rows[1]["PAPER_LINK"] == f"{BASE}/files/2017/1.pdf"
    assert rows[1]["BIBTEX_LINK"] == f"{BASE}/files/2017/1.bib"
    assert rows[0]["SUPP_LINK"] == f"{BASE}/files/2017/0-supp.zip" and rows[1]["SUPP_LINK"] is None
    assert rows[2]["ABSTRACT"].startswith("We study item 2 of 2017 in depth.")
    assert "Abstract" not in rows[2]["ABSTRACT"]  # the label is not part of the value


def test_year_in_the_listing_url_becomes_a_parameter_over_requested_years():
    pages = _site(years=(2015, 2016, 2017))
    web = Web(pages)
    url = f"{BASE}/proc/2017"  # the research squad may hand over another year's listing
    plan = _plan("Collect all accepted papers of WACV from 2015 to 2016.")
    ind = induce_listing(
        Page(url=url, final_url=url, status=200, kind="html"), plan, body=pages[url], fetcher=web
    )
    spec = listing_spec(ind, plan, name="wc")
    src = spec.sources[0]
    assert src.request.url == f"{BASE}/proc/{{year}}"
    assert src.params["year"].values == [2015, 2016]
    assert f"{BASE}/proc/2015" in web.requests  # each year probed before it is promised


def test_missing_year_is_dropped_after_probing():
    pages = _site(years=(2015, 2017))
    web = Web(pages)
    url = f"{BASE}/proc/2017"
    plan = _plan("Collect all accepted papers of WACV from 2015 to 2017.")
    ind = induce_listing(
        Page(url=url, final_url=url, status=200, kind="html"), plan, body=pages[url], fetcher=web
    )
    assert ind.year_values == [2015, 2017]
    assert any("2016" in n for n in ind.notes)


def _sectioned() -> str:
    """One page, several years, dt/dd record groups under a heading per year (no year in the URL)."""
    out = ["<html><body><h1>Archive</h1>"]
    for y in (2018, 2020, 2022):
        out.append(
            f'<div class="year"><p class="conf">Widget Conference on Vision (WCV), {y} — Main Conference Track</p><dl>'
        )
        for i, (t, a, s) in enumerate(PAPERS):
            supp = f' [<a href="p/{y}/{i}-supp.pdf">supp</a>]' if s else ""
            out.append(
                f'<dt class="ptitle"><a href="p/{y}/{i}.html">{t} ({y})</a></dt><dd>{a}</dd>'
                f'<dd>[<a href="p/{y}/{i}.pdf">pdf</a>]{supp}</dd>'
            )
        out.append("</dl></div>")
    return "".join(out) + "</body></html>"


def test_sections_give_per_record_constants_and_scope_the_requested_years(monkeypatch):
    from prefect_autodata.agents.kinds import paper as vocab

    monkeypatch.setitem(vocab.CONFERENCES, "WCV", ("Widget Conference on Vision", ()))
    monkeypatch.setattr(
        "prefect_autodata.agents.offline.listings.regions.CONFERENCES", vocab.CONFERENCES, raising=True
    )
    plan = _plan("Collect all accepted papers of WACV from 2018 to 2020.")
    plan = plan.model_copy(
        update={"venue": plan.venue.model_copy(update={"abbr": "WCV", "name": "Widget Conference on Vision"})}
    )
    url = f"{BASE}/archive.php"
    pages = {url: _sectioned()}
    ind = induce_listing(
        Page(url=url, final_url=url, status=200, kind="html"), plan, body=pages[url], fetcher=Web(pages)
    )
    spec = listing_spec(ind, plan, name="wcv")
    rows = _run_listing(spec, pages, url)
    assert len(rows) == 2 * len(PAPERS)  # 2022 left out
    assert {r["CONFERENCE"] for r in rows} == {
        "Widget Conference on Vision (WCV), 2018",
        "Widget Conference on Vision (WCV), 2020",
    }
    assert {r["TRACK"] for r in rows} == {"Main Conference Track"}
    assert rows[0]["AUTHORS"] == PAPERS[0][1]
    assert rows[0]["PAPER_LINK"] == f"{BASE}/p/2018/0.pdf" and rows[1]["SUPP_LINK"] is None
    assert rows[0]["SUPP_LINK"] == f"{BASE}/p/2018/0-supp.pdf"
    # no record links a BibTeX file: the column is declared (lands empty), no rule is invented
    assert "BIBTEX_LINK" in {c.name for c in spec.columns}
    assert "BIBTEX_LINK" not in {f.name for f in spec.sources[0].fields}


def test_induce_listings_reads_cached_pages_and_ranks_candidates():
    pages = _site()
    url = f"{BASE}/proc/2017"
    bodies = {"c1": pages[url]}
    ev = Evidence(
        plan=_plan("Collect all accepted papers of WACV 2017."),
        candidates=[
            Page(url=url, final_url=url, status=200, kind="html", cache_id="c1", record_count=4),
        ],
    )
    cands = induce_listings(ev, reader=bodies.get, fetcher=Web(pages))
    assert len(cands) == 1
    c = cands[0]
    assert c.method == "html" and c.sample_rows == len(PAPERS)
    assert c.missing == ["CONFERENCE"]  # the pages never name the requested venue: nothing invented
    assert c.spec.sources[0].detail is not None


@pytest.mark.parametrize("body", ["", '{"json": true}', "<html><body><p>nothing repeated</p></body></html>"])
def test_pages_without_records_give_no_candidate(body):
    url = f"{BASE}/x"
    ind = induce_listing(Page(url=url, final_url=url, status=200, kind="html"), PLAN, body=body)
    assert ind is None
