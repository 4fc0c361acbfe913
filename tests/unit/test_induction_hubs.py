"""Index bars: links to the parts of a listing (letters, years, numbers), read by path or by query."""

from __future__ import annotations

import random
import re
import string

import pytest

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.hubs import find


@pytest.mark.parametrize("seed", [4, 55, 606])
def test_path_and_query_index_bars_read_back_every_part(seed):
    rng = random.Random(seed)
    letters = sorted(rng.sample(string.ascii_uppercase, rng.randint(3, 9)))
    years = sorted(rng.sample(range(1990, 2025), rng.randint(2, 6)))
    seg = "".join(rng.choices(string.ascii_lowercase, k=6))
    by_path = " ".join(f"<a href='/{seg}/{x.lower()}/'>{x}</a>" for x in letters)
    by_query = "".join(f"<li><a href='/{seg}/list?year={y}&sort=name'>{y}</a></li>" for y in years)
    html = (
        "<html><body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav>"
        f"<main><p>By letter:</p><p class='x{seed}'>{by_path}</p><ul>{by_query}</ul></main></body></html>"
    )
    root = parse(html)
    hubs = find(root, f"http://127.0.0.1:9/{seg}/")
    assert len(hubs) == 2
    path_hub = next(h for h in hubs if h.param is None)
    query_hub = next(h for h in hubs if h.param == "year")
    assert path_hub.parts == [x.lower() for x in letters]
    assert query_hub.parts == [str(y) for y in years]
    for h in hubs:
        hrefs = [a.get("href") for a in root.xpath(h.links_xpath)]
        assert [re.search(h.pattern, u).group(1) for u in hrefs] == h.parts
    assert path_hub.template.endswith(f"/{seg}/{{part}}/")


def test_navigation_and_pagers_are_not_index_bars():
    html = (
        "<html><body><nav><a href='/l/a/'>A</a> <a href='/l/b/'>B</a></nav>"
        "<main><p><a href='/l/?page=1'>‹</a> <a href='/l/?page=2'>›</a></p>"
        "<p><a href='/x/one'>One thing</a> <a href='/x/two'>Another thing</a></p></main></body></html>"
    )
    assert find(parse(html), "http://127.0.0.1:9/l/") == []


def test_an_index_of_a_single_part_is_an_index_a_lone_page_link_is_not():
    """Every record under "0-9": the one link adds a query key to this page's path; "2" is a pager."""
    page = "http://127.0.0.1:9/cars/"
    one = "<html><body><table><tr><td><p>Browse: <a href='/cars/?letter=09'>0-9</a></p></td></tr></table></body></html>"
    (hub,) = find(parse(one), page)
    assert hub.param == "letter" and hub.parts == ["09"]
    pager = "<html><body><main><p>Page 1 of 2 <a href='/cars/?page=2'>2</a></p></main></body></html>"
    assert find(parse(pager), page) == []
    elsewhere = "<html><body><main><p><a href='/trucks/?letter=a'>A</a></p></main></body></html>"
    assert find(parse(elsewhere), page) == []


@pytest.mark.parametrize("seed", [3, 41])
def test_parts_holding_one_record_each_are_pooled_into_one_listing(seed):
    from prefect_autodata.agents.induction.hubs import pool_singletons
    from prefect_autodata.agents.induction.regions import find_regions

    rng = random.Random(seed)
    item, box = (f"c{''.join(rng.choices(string.ascii_lowercase, k=5))}" for _ in range(2))
    letters = sorted(rng.sample(string.ascii_uppercase, rng.randint(3, 6)))
    wrap = rng.random() < 0.5  # an extra wrapper of one child around the list on every part

    def part(x: str, i: int) -> str:
        rec = f"<div class='{item}'><h2>{x}{''.join(rng.choices(string.ascii_lowercase, k=5))}</h2><dl><dt>Maker</dt><dd>Ann {i}</dd><dt>Price</dt><dd>${i}.50</dd></dl></div>"
        inner = f"<div class='{box}'>{rec}</div>"
        inner = f"<section>{inner}</section>" if wrap else inner
        return f"<html><body><nav><a href='/'>Home</a></nav><main><h1>Items: {x}</h1>{inner}</main></body></html>"

    pages = [part(x, i) for i, x in enumerate(letters)]
    assert find_regions(parse(pages[0]), min_items=2) == []  # one record: no repeated structure
    regions = find_regions(parse(pool_singletons(pages)), min_items=2)
    assert regions and regions[0].count == len(letters), seed
    assert regions[0].records_xpath.count(item) == 1, (seed, regions[0].records_xpath)
    assert all(parse(p).xpath(regions[0].records_xpath) for p in pages)  # the rule holds on each part
