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
