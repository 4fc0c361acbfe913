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
