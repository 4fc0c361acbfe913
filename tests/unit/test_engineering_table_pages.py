"""The table inducer's spec reads every page of a table the page numbers (``?page=2``), not only the first."""

from __future__ import annotations

import random

from prefect_autodata.agents.engineering import induce_html_table
from prefect_autodata.agents.evidence import Page
from prefect_autodata.agents.offline.instruction import parse_instruction

URL = "http://127.0.0.1:9/films/"


def _page(pager: str, seed: int = 3) -> str:
    rng = random.Random(seed)
    rows = "".join(
        f"<tr><td>Film {rng.randint(100, 999)}</td><td>{rng.choice(['Drama', 'Comedy'])}</td>"
        f"<td>{rng.randint(1950, 2020)}</td></tr>"
        for _ in range(12)
    )
    return (
        "<html><body><main><table><tr><th>Title</th><th>Genre</th><th>Year</th></tr>"
        f"{rows}</table><nav>{pager}</nav></main></body></html>"
    )


def _spec(html: str):
    plan = parse_instruction(
        "Collect every film with title, genre and year.", fields=["title", "genre", "year"]
    )
    page = Page(url=URL, final_url=URL, status=200, kind="html", cache_id="p")
    cand = induce_html_table(page, plan, reader=lambda _id: html)
    assert cand is not None and set(cand.covered) == {"title", "genre", "year"}
    return cand.spec.sources[0].pagination


def test_numbered_pages_without_a_next_link_are_page_pagination():
    pg = _spec(_page('<span>1</span> <a href="/films/?page=2">2</a> <a href="/films/?page=3">3</a>'))
    assert pg is not None and pg.kind == "page" and pg.param == "page"


def test_a_next_link_stays_next_link_and_no_pager_is_no_pagination():
    pg = _spec(_page('<a class="nx" href="/films/?page=2">Next</a>'))
    assert pg is not None and pg.kind == "next_link"
    assert _spec(_page("")) is None


def test_a_filter_of_the_request_is_a_row_filter_of_the_table_spec():
    plan = parse_instruction(
        "Collect every film with genre Drama, with title, genre and year.", fields=["title", "genre", "year"]
    )
    page = Page(url=URL, final_url=URL, status=200, kind="html", cache_id="p")
    cand = induce_html_table(page, plan, reader=lambda _id: _page(""))
    assert plan.filters and cand is not None
    assert cand.spec.python is not None and "Drama" in cand.spec.python.code
