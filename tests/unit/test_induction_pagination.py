"""Pagination kinds and stated totals as a page shows them."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.pagination import detect, stated_total
from prefect_autodata.runtime.extract import find_one, parse_document


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("Showing 1–20 of 447", 447),
        ("Showing 21 - 40 of 1,203 books", 1203),
        ("312 results", 312),
        ("Welcome", None),
    ],
)
def test_stated_total(text, total):
    assert stated_total(f"<p>{text}</p>") == total


@pytest.mark.parametrize(
    "link",
    [
        "<a rel='next' href='/l?page=2'>2</a>",
        "<a href='/l?page=2'>Next »</a>",
        "<a href='/l?page=2' aria-label='Next'></a>",
        "<a href='/l?page=2'>›</a>",
    ],
)
def test_next_link_forms(link):
    html = f"<html><body><ul><li>a</li></ul><div>{link}</div></body></html>"
    p = detect(parse(html), "http://127.0.0.1/l")
    assert p is not None and p.kind == "next_link"
    assert find_one(parse_document("html", html, "http://127.0.0.1/l"), p.next) == "/l?page=2"


def test_numbered_pages_without_next_link():
    html = "<html><body><a href='/l?page=1'>1</a><a href='/l?page=2'>2</a><a href='/l?page=3'>3</a></body></html>"
    p = detect(parse(html), "http://127.0.0.1/l")
    assert p is not None and p.kind == "page" and p.param == "page"


def test_single_page_has_no_pagination():
    assert (
        detect(parse("<html><body><a href='/item/2'>Item 2</a></body></html>"), "http://127.0.0.1/l") is None
    )


def test_offset_links_give_offset_pagination_with_its_size_parameter():
    links = "".join(f"<a href='/l?offset={o}&limit=10'>{o // 10 + 1}</a>" for o in (10, 20, 30))
    p = detect(parse(f"<html><body><span>1</span>{links}</body></html>"), "http://127.0.0.1/l")
    assert p is not None and (p.kind, p.param, p.start, p.size, p.size_param) == (
        "offset",
        "offset",
        0,
        10,
        "limit",
    )


def test_digits_ending_a_name_are_not_a_stated_total():
    from prefect_autodata.agents.induction.pagination import stated_total

    assert stated_total("© Shop Desk58 Records as published by their sources.") is None
    assert stated_total("Found 58 records") == 58


def test_current_page_as_text_then_numbered_links_is_a_next_link_pager():
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.pagination import detect

    for cur, last in ((1, 4), (2, 4), (3, 7)):
        bits = [
            f"<span>{i}</span>" if i == cur else f"<a href='/l/page/{i}/'>{i}</a>" for i in range(1, last + 1)
        ]
        root = parse(
            f"<html><body><ul><li>a</li></ul><nav class='pg'><span>…</span> {' '.join(bits)}</nav></body></html>"
        )
        p = detect(root, "http://127.0.0.1:9/l/")
        assert p is not None and p.kind == "next_link"
        assert root.xpath(p.next.xpath) == [f"/l/page/{cur + 1}/"]
    root = parse("<html><body><nav class='pg'><a href='/l/page/1/'>1</a> <span>2</span></nav></body></html>")
    got = detect(root, "http://127.0.0.1:9/l/page/2/")
    assert got is None or not root.xpath(got.next.xpath)  # the last page: nothing to follow


@pytest.mark.parametrize(
    ("value", "target"),
    [
        (
            '<https://api.example.org/v1/things?page=2>; rel="next", <https://api.example.org/v1/things?page=9>; rel="last"',
            "https://api.example.org/v1/things?page=2",
        ),
        (
            '<https://x.example/a?page=1>; rel="prev", <https://x.example/a?page=3>; rel=next',
            "https://x.example/a?page=3",
        ),
        ('<https://x.example/a?p=5>; title="more"; rel="next last"', "https://x.example/a?p=5"),
        ('<https://x.example/a?page=1>; rel="first"', None),
    ],
)
def test_link_header_next(value, target):
    from prefect_autodata.agents.induction.pagination import link_header_next

    assert link_header_next({"Link": value}) == target
    assert link_header_next({}) is None


def test_a_json_api_paged_by_its_link_header_gets_link_header_pagination():
    import json
    from types import SimpleNamespace

    from prefect_autodata.agents.engineering import induce_json
    from prefect_autodata.agents.evidence import Endpoint, Evidence
    from prefect_autodata.agents.plan import make_plan

    url = "http://127.0.0.1:9/v1/gadgets"
    body = json.dumps([{"gadget": f"Gadget {i}", "weight_kg": 1.5 + i} for i in range(5)])

    class Fetcher:
        def get(self, u, headers=None):
            link = {"Link": f'<{url}?page=2>; rel="next"'} if u == url else {}
            return SimpleNamespace(
                status=200, text=body, headers={"Content-Type": "application/json", **link}
            )

    plan = make_plan("every gadget with its gadget and weight")
    ep = Endpoint(url_template=url, example_url=url, kind="json", sample_cache_id="s")
    cand = induce_json(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: body, fetcher=Fetcher())
    assert cand is not None and cand.spec.sources[0].pagination is not None
    assert cand.spec.sources[0].pagination.kind == "link_header"

    class Plain(Fetcher):
        def get(self, u, headers=None):
            return SimpleNamespace(status=200, text=body, headers={"Content-Type": "application/json"})

    cand = induce_json(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: body, fetcher=Plain())
    assert cand is not None and cand.spec.sources[0].pagination is None  # one page: nothing to follow


def test_the_runtime_follows_the_link_header_the_inducer_chose():
    from prefect_autodata.runtime.pagination import PageRequest, Paginator
    from prefect_autodata.runtime.spec import Pagination

    url = "http://127.0.0.1:9/v1/gadgets"
    pager = Paginator(Pagination(kind="link_header"), PageRequest(url, {"per_page": "100"}))
    req = pager.start()
    doc = parse_document("json", "[1, 2]", url)
    nxt = pager.next(req, doc, 2, "h1", {"link": f'<{url}?page=2&per_page=100>; rel="next"'})
    assert nxt is not None and nxt.url == f"{url}?page=2&per_page=100" and nxt.params == {}
    assert pager.next(nxt, doc, 2, "h2", {}) is None  # the last page names no next one
