"""Discovery: a link to another page of the same listing is pagination, not a record link (issue #13).

A pager with more page links than the listing has records used to be the page's largest group of
alike links, so the crawl followed page 2 as a record's detail page and started mid-listing."""

from __future__ import annotations

import random

from prefect_autodata.agents.evidence import Link
from prefect_autodata.agents.offline import discovery as d

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)


def _listing(style: str) -> tuple[str, list[Link], list[Link]]:
    page = "http://h.test/shop/books/"
    n_rec = RNG.randint(5, 8)
    recs = [
        Link(url=f"http://h.test/shop/book/{RNG.randint(100, 99999)}-title-{i}", text=f"Book {i}")
        for i in range(n_rec)
    ]
    pages = range(2, n_rec + RNG.randint(3, 9))
    if style == "query":
        pager = [Link(url=f"{page}?page={p}", text=str(p)) for p in pages]
    elif style == "step":
        pager = [Link(url=f"{page}page/{p}/", text=str(p)) for p in pages]
    else:  # the entry page is sorted; its pager keeps the sort and adds the offset (and a page size)
        size = RNG.choice([10, 20, 25])
        page = f"{page}?sort=title"
        pager = [Link(url=f"{page}&start={p * size}&limit={size}", text=str(p)) for p in pages]
    pager.append(Link(url=pager[0].url, text=RNG.choice(["Next »", "next", "›"])))
    return page, recs, pager


def test_pager_links_are_not_record_links():
    for style in ("query", "step", "offset"):
        page, recs, pager = _listing(style)
        links = RNG.sample(recs + pager, len(recs) + len(pager))
        groups = d.repeated_links(links, page)
        assert groups and {lk.url for lk in groups[0]} == {lk.url for lk in recs}, (SEED, style)
        assert all(d.is_pager_link(lk, page) for lk in pager), (SEED, style)
        assert not any(d.is_pager_link(lk, page) for lk in recs), (SEED, style)


def test_records_numbered_below_the_listing_and_other_years_are_not_pages():
    page = "http://h.test/items/"
    ids = RNG.sample(range(1, 999), 6)
    recs = [Link(url=f"{page}{i}", text=f"Widget {i}") for i in ids]
    assert not any(d.is_pager_link(lk, page) for lk in recs), SEED
    assert len(d.repeated_links(recs, page)[0]) == 6
    year = RNG.randint(2000, 2020)
    assert not d.is_pager_link(
        Link(url=f"http://h.test/y/{year + 1}", text=str(year + 1)), f"http://h.test/y/{year}"
    )
