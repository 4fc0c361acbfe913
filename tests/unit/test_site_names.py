"""Sites a request names by name (agents/sites.py): read into ``Request.sources``, never a filter; a
sentence pointing at an unnamed site asks which; discovery keeps the results that carry the name."""

from __future__ import annotations

import random

import pytest

from prefect_autodata.agents import sites
from prefect_autodata.agents.evidence import Evidence, SearchHit
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.offline.instruction import parse_request
from prefect_autodata.agents.web import WebAgent

RNG = random.Random()
SEED = RNG.randrange(10**6)
RNG.seed(SEED)


def _name() -> str:
    a = RNG.choice(["Pixel", "Harbor", "Quill", "Nimbus", "Cedar", "Orbit"])
    b = RNG.choice(["Mart", "Works", "House", "Point", "Stack", "Desk"])
    return RNG.choice([f"{a}{b}", f"{a} {b}", f"{a} {b}{RNG.randint(1, 60)}"])


@pytest.mark.parametrize(
    "form",
    [
        "List all cameras from the {x} site with brand, model and price",
        "List all cameras on {x} with brand, model and price",
        "List all cameras listed on {x}, with brand, model and price",
        "List all cameras available at {x} with brand, model and price",
        "On {x}, list all cameras with brand, model and price",
        'List all cameras on "{x}" with brand, model and price',
        "List all cameras on the {x} website with brand, model and price",
    ],
)
def test_a_named_site_is_a_source_and_no_filter(form: str):
    x = _name()
    req = parse_request(form.format(x=x))
    assert req.sources == [x], (SEED, x, req.sources)
    assert req.filters == [], (SEED, x, req.filters)
    assert req.entity is not None and req.entity.singular == "camera"
    assert [f.normalized for f in req.fields] == ["brand", "model", "price"]
    assert req.is_resolved


def test_a_possessive_of_a_brand_form_names_the_site_and_a_persons_does_not():
    req = parse_request("Collect all of PixelMart's cameras with brand and price")
    assert req.sources == ["PixelMart"] and req.entity.singular == "camera"
    assert sites.find_site_names("Collect Kobe Bryant's season stats")[0] == []


def test_urls_and_domains_stay_addresses_and_topics_are_no_sites():
    req = parse_request("Collect every book on https://books.example.com/catalog with title and price")
    assert req.sources == ["https://books.example.com/catalog"]
    req = parse_request("Collect every camera on pixelmart.com with brand and price")
    assert req.sources == ["pixelmart.com"] and sites.site_names(req) == []
    assert sites.site_hosts(req) == ["pixelmart.com"]
    for text in (
        "Collect all books on History with title",
        "Papers of the International Conference on Machine Learning 2021",
        "Every game on Monday with the score",
        "Grandmasters from Norway with their rating",
    ):
        assert sites.find_site_names(text)[0] == [], text


def test_an_unnamed_site_asks_which_only_without_a_source():
    req = parse_request("I want all of the movies on this site with title and year")
    assert "which site? (give --source URL)" in req.unresolved
    req = parse_request(
        "I want all of the movies on this site with title and year", sources=["https://m.example/"]
    )
    assert not any("which site" in q for q in req.unresolved)
    req = parse_request("I want all of the movies on MovieBase with title and year")
    assert req.is_resolved and req.sources == ["MovieBase"]
    req = parse_request("I want all of the movies with title and year")
    assert req.is_resolved and req.sources == []


def test_name_match_reads_titles_and_hosts():
    assert sites.name_match("PixelMart", "PixelMart — cameras") == 1.0
    assert sites.name_match("PixelMart", sites.host_words("http://127.0.0.1:9/www.pixel-mart.test/x/")) == 1.0
    assert sites.name_match("Harbor Works", "Harbor Works — cameras") == 1.0
    assert sites.name_match("Harbor Works", "Harbor Base — cameras") < d.NAME_MIN
    assert sites.name_match("Pixel Mart", "Pixel Mrat cameras") < 1.0


class _Search:
    base_url = "http://127.0.0.1:9"

    def __init__(self, hits: list[SearchHit]) -> None:
        self.hits = hits
        self.queries: list[str] = []

    def search(self, query: str, *, num: int = 10) -> list[SearchHit]:
        self.queries.append(query)
        return list(self.hits)


class _Fetcher:
    def allow_host(self, url: str) -> None:
        pass


def _hits(names: list[str]) -> list[SearchHit]:
    return [
        SearchHit(
            url=f"http://127.0.0.1:9/www.site{i}.test/cameras/",
            title=f"{n} — cameras",
            snippet="40 cameras with model, brand, price.",
            rank=i,
        )
        for i, n in enumerate(names)
    ]


def test_discovery_searches_the_name_and_visits_only_the_named_site():
    x = _name()
    others = [o for o in ("Atlas Line", "Cobalt Base", "Summit Feed", "Open Index") if o != x]
    hits = _hits([*others, x])
    RNG.shuffle(hits)
    plan = parse_request(f"Please collect all of the cameras on {x} with model, brand and price")
    assert d.search_queries(plan)[0].startswith(x), d.search_queries(plan)
    search = _Search(hits)
    agent = WebAgent(fetcher=_Fetcher(), store=lambda *a, **kw: "c", search=search)
    ev = Evidence(plan=plan)
    seeds = agent._search(plan, ev)
    assert [h.title for h in seeds] == [f"{x} — cameras"], (SEED, x, seeds)
    assert any(x in n and "left out" in n for n in ev.notes), ev.notes
    assert x in search.queries[0]
    # unnamed: every equally good site is seeded and the tie is said
    plan = parse_request("Please collect all of the cameras with model, brand and price")
    ev = Evidence(plan=plan)
    seeds = WebAgent(fetcher=_Fetcher(), store=lambda *a, **kw: "c", search=_Search(hits))._search(plan, ev)
    assert len(seeds) > 1
    assert any("agree equally" in n and "names no site" in n for n in ev.notes), ev.notes


def test_a_name_no_result_carries_falls_back_to_the_kind_with_a_note():
    hits = _hits(["Atlas Line", "Cobalt Base"])
    plan = parse_request("Please collect all of the cameras on QuillHouse with model, brand and price")
    ev = Evidence(plan=plan)
    seeds = WebAgent(fetcher=_Fetcher(), store=lambda *a, **kw: "c", search=_Search(hits))._search(plan, ev)
    assert seeds
    assert any("no result's title or host names 'QuillHouse'" in n for n in ev.notes), ev.notes
