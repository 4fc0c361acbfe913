"""Every HTML family of the zoo: the ground truth is reachable and two seeds give different markup.

Sites are walked in-process (Starlette TestClient) by the test-only oracle, which reads each page
the way the family laid it out (``ZooSite.notes``).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from zoo_oracle import getter, site_client, site_records

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.zoo.families import FAMILIES
from prefect_autodata.sandbox.zoo.kinds import KINDS, record_set

HTML_FAMILIES = sorted(n for n in FAMILIES if n.startswith("html_"))
# A spread of kinds (text-heavy, dated, numeric) for each family; each case draws its own records.
CASES = [
    (fam, kind) for fam in HTML_FAMILIES for kind in ("paper", "stock_day", "restaurant", "mlb_team_pitching")
]


def _build(family: str, kind: str, seed: int, n: int = 40):
    rs = record_set(KINDS[kind], random.Random(f"records:{kind}"), n)
    site = FAMILIES[family].build(rs, random.Random(seed), f"www.case-{seed}.test")
    return rs, site


def _multiset(records, field):
    return Counter(normalise(r.get(field)) for r in records if normalise(r.get(field)) != normalise(None))


def test_at_least_eight_html_families():
    assert len(HTML_FAMILIES) >= 8


@pytest.mark.parametrize(("family", "kind"), CASES)
def test_every_record_value_is_reachable(family, kind):
    for seed in (1, 2, 3):
        rs, site = _build(family, kind, seed)
        got = site_records(site)
        assert len(got) == len(rs.records), (seed, site.notes["pagination"])
        for f in site.notes["order"]:
            assert _multiset(got, f) == _multiset(rs.records, f), (seed, f, site.notes)


def _skeleton(text: str) -> str:
    """The markup with the text taken out: tags, attributes, classes."""
    return re.sub(r">[^<]*<", "><", text)


@pytest.mark.parametrize("family", HTML_FAMILIES)
def test_two_seeds_give_different_markup(family):
    pages = []
    facts = []
    for seed in (11, 12):
        _rs, site = _build(family, "job", seed)
        get = getter(site)
        status, text = get(site.entry_path)
        assert status == 200
        pages.append(_skeleton(text))
        n = site.notes
        facts.append((n["labels"], n["order"], n["class_style"]))
    assert pages[0] != pages[1]
    assert facts[0] != facts[1]


@pytest.mark.parametrize("family", HTML_FAMILIES)
def test_unknown_paths_404_and_bad_params_400(family):
    _rs, site = _build(family, "movie", 5, n=120)
    client = site_client(site)
    assert client.get(f"/{site.host}/no/such/page").status_code == 404
    r = client.get(f"/{site.host}{site.entry_path}", params={"page": "abc", "offset": "x"})
    assert r.status_code in (200, 400)  # sites that take no parameters ignore them
    if site.notes["pagination"] in ("page_param", "offset_limit"):
        assert r.status_code == 400
    for path in site.notes["listing_paths"][:3]:
        assert get_ok(site, path)


def get_ok(site, path: str) -> bool:
    status, text = getter(site)(path)
    return status == 200 and text.lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("family", HTML_FAMILIES)
def test_generated_records_are_labelled_in_the_footer(family):
    rs, site = _build(family, "camera", 4)
    rs.generated = True
    site = FAMILIES[family].build(rs, random.Random(4), "www.gen.test")
    _status, text = getter(site)(site.entry_path)
    assert "generated records" in text


ODD_QUERIES = [
    {"page": "0"},
    {"page": "-1"},
    {"page": "99999999999999999999"},
    {"offset": "-5"},
    {"offset": "10", "limit": "100000"},
    {"offset": "1e3"},
    {"id": "abc"},
    {"id": "0"},
    {"id": "99999999"},
]


@pytest.mark.parametrize("family", HTML_FAMILIES)
def test_odd_requests_never_answer_500(family):
    for seed in (1, 2, 3, 4):
        _rs, site = _build(family, "nba_player_season", seed, n=80)
        client = site_client(site)
        paths = [
            site.entry_path,
            "/view",
            "/item/0",
            "/item/99999",
            f"{site.entry_path}page/0/",
            f"{site.entry_path}zz/",
            f"{site.entry_path}nothing.html",
            "/about",
            "/contact",
        ]
        for path in paths:
            for q in [{}, *ODD_QUERIES]:
                r = client.get(f"/{site.host}{path}", params=q)
                assert r.status_code in (200, 400, 404), (seed, path, q, r.status_code)
