"""The zoo's API, file, JS and structured-data families: every record reachable, auth as documented,
pagination complete, bad input answered 400/404 with JSON (never a 500), seeds that differ.

Record sets come from a kind built here with values drawn from a seeded generator (no outside
data), plus two of the zoo's real kinds through ``record_set`` (real records when ../shared is
present, generated samples otherwise). Sites are served in-process by Starlette's TestClient,
mounted under /<host> as the zoo server mounts them.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import date, timedelta
from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
from lxml import html as lhtml
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient
from zoo_oracle import site_records

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.zoo.base import FieldDef, KindDef, RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families import FAMILIES
from prefect_autodata.sandbox.zoo.families.api_base import embedded_data
from prefect_autodata.sandbox.zoo.kinds import record_set

MINE = sorted(n for n in FAMILIES if n.startswith(("api_", "js_", "sd_")))
API = [n for n in MINE if FAMILIES[n].__class__.__name__ == "ApiFamily"]
HOST = "www.unit-zoo.test"

EVENT = KindDef(
    name="event",
    domain="testing",
    singular="event",
    plural="events",
    fields=(
        FieldDef("title", "text", ("Title", "Event", "Name"), ("Titel",), ("Título",)),
        FieldDef("day", "date", ("Date", "Day", "When")),
        FieldDef("year", "int", ("Year", "Yr")),
        FieldDef("fee", "money", ("Fee", "Cost", "Price")),
        FieldDef("score", "number", ("Score", "Rating", "Pts.")),
        FieldDef("venue", "text", ("Venue", "Where", "Place"), ("Ort",), ("Lugar",)),
    ),
    title_field="title",
    key=("title",),
    scope_fields=("year", "day", "venue"),
)


def event_set(n: int, seed: int = 0, generated: bool = True) -> RecordSet:
    """Synthetic events: random words, dates in one display format, a missing value here and there."""
    rng = random.Random(seed)
    words = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heath", "iris", "juniper"]
    venues = ["North Hall", "Riverside", "Old Mill", "Dock 4", "Pier 9, East Wing"]
    recs, raws = [], []
    start = date(2015, 1, 1)
    for i in range(n):
        d = start + timedelta(days=rng.randrange(3650))
        raw = {
            "title": f"{rng.choice(words).title()} {rng.choice(words)} meetup #{i + 1}",
            "day": d,
            "year": d.year,
            "fee": rng.randrange(0, 250000) / 100,
            "score": round(rng.random() * 10, rng.choice([1, 2])),
            "venue": rng.choice(venues),
        }
        rec = {
            "title": raw["title"],
            "day": d.strftime("%b %d, %Y"),
            "year": str(d.year),
            "fee": f"${raw['fee']:,.2f}",
            "score": str(raw["score"]),
            "venue": raw["venue"] if i % 11 else None,
        }
        recs.append(rec)
        raws.append(raw)
    return RecordSet(kind=EVENT, records=recs, generated=generated, raw=raws)


SETS = {
    "event47": lambda: event_set(47),
    "event15": lambda: event_set(15, seed=3),
    "paper": lambda: record_set("paper", random.Random(11), 40),
    "stock_day": lambda: record_set("stock_day", random.Random(12), 130),
}


def client_for(site: ZooSite) -> TestClient:
    return TestClient(Starlette(routes=[Mount(f"/{site.host}", routes=list(site.routes))]))


def getter(client: TestClient, host: str):
    def get(path: str, query: dict | None = None, headers: dict | None = None) -> tuple[int, str]:
        if path.startswith(f"/{host}/"):
            path = path[len(host) + 1 :]
        parts = urlsplit(path)
        q = dict(parse_qsl(parts.query)) | dict(query or {})
        r = client.get(f"/{host}{parts.path}", params=q, headers=headers or {})
        return r.status_code, r.text

    return get


def norm_multiset(recs: list[dict], fields: list[str]) -> Counter:
    return Counter(tuple(normalise(r.get(f), field=f) for f in fields) for r in recs)


@pytest.fixture(scope="module")
def record_sets() -> dict[str, RecordSet]:
    return {k: make() for k, make in SETS.items()}


def build(name: str, rs: RecordSet, seed: int) -> ZooSite:
    site = FAMILIES[name].build(rs, random.Random(seed), HOST)
    assert site.family == name and site.host == HOST
    return site


# ------------------------------------------------------------------------------------ reachability


@pytest.mark.parametrize("set_name", list(SETS))
@pytest.mark.parametrize("family", MINE)
def test_every_record_is_reachable_from_the_entry(family, set_name, record_sets):
    rs = record_sets[set_name]
    fields = [f.name for f in rs.kind.fields]
    for seed in (1, 2):
        site = build(family, rs, seed)
        client = client_for(site)
        entry = client.get(f"/{HOST}{site.entry_path}")
        assert entry.status_code == 200 and "<html" in entry.text.lower()
        if rs.generated:
            assert "generated records" in entry.text
        got = site_records(site, getter(client, HOST))
        assert len(got) == len(rs.records)
        assert norm_multiset(got, fields) == norm_multiset(rs.records, fields)


@pytest.mark.parametrize("family", [n for n in MINE if n.startswith("sd_")])
def test_structured_data_pages_show_every_value_visibly_and_in_their_metadata(family, record_sets):
    """Crawling links from the entry (no notes) finds every value in visible text; JSON-LD/microdata agree."""
    rs = record_sets["event47"]
    site = build(family, rs, 5)
    client = client_for(site)
    seen, todo, texts, structured = set(), [f"/{HOST}{site.entry_path}"], [], []
    while todo and len(seen) < 400:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        assert r.status_code == 200, url
        doc = lhtml.fromstring(r.text)
        for s in doc.xpath("//script[@type='application/ld+json']"):
            structured.append(json.loads(s.text))
        for el in doc.xpath("//*[@itemprop]"):
            structured.append({el.get("itemprop"): " ".join(el.text_content().split())})
        for m in doc.xpath("//meta[starts-with(@property, 'og:')]"):
            structured.append({m.get("property"): m.get("content")})
        for s in doc.xpath("//script|//style|//head"):
            s.drop_tree()
        texts.append(" ".join(doc.text_content().split()))
        for href in doc.xpath("//a/@href"):
            nxt = urljoin(url, href).split("#")[0]
            if nxt.startswith(f"/{HOST}/") and nxt not in seen:
                todo.append(nxt)
    visible = "\n".join(texts)
    for rec in rs.records:
        for v in rec.values():
            if v is not None:
                assert str(v) in visible, v
    blob = json.dumps(structured, ensure_ascii=False)
    titles = [r["title"] for r in rs.records]
    assert all(json.dumps(t, ensure_ascii=False)[1:-1] in blob for t in titles)
    assert site.notes["structured"]["jsonld" if family == "sd_jsonld_detail" else "microdata"]


# --------------------------------------------------------------------------------------------- auth


def _api_sites(rs: RecordSet, seeds=range(1, 9)):
    for name in API:
        for seed in seeds:
            yield name, seed, build(name, rs, seed)


def test_auth_is_enforced_as_documented(record_sets):
    rs = record_sets["event47"]
    kinds_seen = set()
    for name, seed, site in _api_sites(rs):
        auth = site.notes["auth"]
        client = client_for(site)
        url = f"/{HOST}{site.notes['endpoint']}"
        docs = client.get(f"/{HOST}{site.notes['docs_path']}").text
        if auth is None:
            assert client.get(url).status_code == 200
            assert "no key is needed" in docs
            continue
        kinds_seen.add(auth["in"])
        assert auth["value"] in docs and (auth["name"] in docs or auth["in"] == "bearer"), (name, seed)
        missing = client.get(url)
        assert missing.status_code == 401 and missing.headers["content-type"].startswith("application/json")
        assert "error" in missing.json() or "detail" in missing.json()
        if auth["in"] == "query":
            good, bad = {"params": {auth["name"]: auth["value"]}}, {"params": {auth["name"]: "nope"}}
            wrong_place = {"headers": {auth["name"]: auth["value"]}}
        elif auth["in"] == "header":
            good, bad = {"headers": {auth["name"]: auth["value"]}}, {"headers": {auth["name"]: "nope"}}
            wrong_place = {"params": {auth["name"]: auth["value"]}}
        else:
            good = {"headers": {"Authorization": f"Bearer {auth['value']}"}}
            bad = {"headers": {"Authorization": "Bearer nope"}}
            wrong_place = {"headers": {"Authorization": f"Token {auth['value']}"}}
        assert client.get(url, **good).status_code == 200
        assert client.get(url, **bad).status_code == 403
        assert client.get(url, **wrong_place).status_code == 401
        if site.notes["openapi_path"]:
            spec = client.get(f"/{HOST}{site.notes['openapi_path']}").json()
            assert spec["openapi"].startswith("3.") and site.notes["endpoint"] in spec["paths"]
            assert spec["components"]["securitySchemes"]
    assert kinds_seen == {"query", "header", "bearer"}


# --------------------------------------------------------------------------------------- pagination


def _auth_kw(notes: dict) -> dict:
    auth = notes.get("auth")
    if not auth:
        return {"params": {}, "headers": {}}
    if auth["in"] == "query":
        return {"params": {auth["name"]: auth["value"]}, "headers": {}}
    if auth["in"] == "header":
        return {"params": {}, "headers": {auth["name"]: auth["value"]}}
    return {"params": {}, "headers": {"Authorization": f"Bearer {auth['value']}"}}


def test_paginated_endpoints_split_the_records_and_walk_to_the_end(record_sets):
    rs = record_sets["stock_day"]
    styles = Counter()
    for name, seed, site in _api_sites(rs, seeds=range(1, 5)):
        p = site.notes["pagination"]
        styles[p["style"]] += 1
        if p["style"] == "none":
            continue
        client = client_for(site)
        kw = _auth_kw(site.notes)
        first = client.get(f"/{HOST}{site.notes['endpoint']}", **kw)
        assert first.status_code == 200
        got = site_records(site, getter(client, HOST))
        assert len(got) == len(rs.records)
        body = first.json()
        cont = body
        for part in site.notes["records_path"].split("."):
            cont = cont[part]
        rows = len(cont) - (1 if site.notes.get("header_in_rows") else 0)
        assert 0 < rows == min(p["page_size"], len(rs.records)) < len(rs.records), (name, seed)
    assert {"page", "offset", "cursor"} <= set(styles)


def test_next_page_urls_in_responses_lead_through_every_record(record_sets):
    rs = record_sets["stock_day"]
    walked = 0
    for _name, _seed, site in _api_sites(rs, seeds=range(1, 9)):
        path = site.notes["pagination"].get("next_url_path")
        if not path:
            continue
        client = client_for(site)
        kw = _auth_kw(site.notes)
        url, pages, count = f"/{HOST}{site.notes['endpoint']}", 0, 0
        params = kw["params"]
        while url:
            assert pages < 200, "the next URLs do not end"
            body = client.get(url, params=params, headers=kw["headers"]).json()
            cont = body
            for part in site.notes["records_path"].split("."):
                cont = cont[part]
            count += len(cont) - (1 if site.notes.get("header_in_rows") else 0)
            nxt = body
            for part in path.split("."):
                nxt = (nxt or {}).get(part)
            url, params, pages = nxt, None, pages + 1  # the next URL carries every parameter
        assert count == len(rs.records) and pages > 1
        walked += 1
    assert walked


# ------------------------------------------------------------------------------------- bad requests


def test_bad_parameters_answer_400_json_and_unknown_paths_404(record_sets):
    rs = record_sets["event47"]
    rng = random.Random(99)
    for name, seed, site in _api_sites(rs, seeds=range(1, 6)):
        client = client_for(site)
        kw = _auth_kw(site.notes)
        url = f"/{HOST}{site.notes['endpoint']}"
        p = site.notes["pagination"]
        bad: list[dict] = []
        if p["style"] == "page":
            bad += [{p["page_param"]: "abc"}, {p["page_param"]: "-3"}]
        if p["style"] == "offset":
            bad += [{p["offset_param"]: "x"}, {p["offset_param"]: "-1"}]
        if p["style"] == "cursor":
            bad += [{p["cursor_param"]: "not-a-cursor"}, {p["cursor_param"]: "MTox"}]
        if p["style"] != "none":
            bad += [{p["size_param"]: "0"}, {p["size_param"]: str(p["max_page_size"] + 1)}]
        for fname, flt in site.notes["filters"].items():
            if fname == "year":
                bad += [{flt["param"]: "twenty-nineteen"}]
            if "start" in flt:
                bad += [
                    {flt["start"]: "yesterday-ish"},
                    {flt["start"]: "2020-05-01", flt["end"]: "2020-01-01"},
                ]
        assert bad
        for q in bad:
            r = client.get(url, params=kw["params"] | q, headers=kw["headers"])
            assert r.status_code == 400, (name, seed, q, r.text)
            assert r.headers["content-type"].startswith("application/json") and r.json()
        missing = client.get(f"{url}/no-such-id", **kw)
        assert missing.status_code == 404 and missing.json()
        assert client.get(f"/{HOST}/no/such/page").status_code == 404
        for _ in range(15):  # junk never breaks the server
            q = {
                rng.choice(["page", "offset", "limit", "cursor", "x", "year", "from"]): rng.choice(
                    ["", "%", "9" * 30, "ü", "-0", "1e9"]
                )
            }
            assert client.get(url, params=kw["params"] | q, headers=kw["headers"]).status_code < 500


def test_other_families_answer_unknown_paths_404_and_never_500(record_sets):
    rs = record_sets["event47"]
    for name in [n for n in MINE if n not in API]:
        site = build(name, rs, 3)
        client = client_for(site)
        assert client.get(f"/{HOST}/definitely/not/here.html").status_code == 404
        for q in (
            {"page": "abc"},
            {"page": "0"},
            {"page": "99999"},
            {"offset": "-1"},
            {"cursor": "zz"},
            {"limit": "0"},
        ):
            assert client.get(f"/{HOST}{site.entry_path}", params=q).status_code < 500
            if site.notes.get("endpoint"):
                assert client.get(f"/{HOST}{site.notes['endpoint']}", params=q).status_code in (200, 400)


# ------------------------------------------------------------------------------------------ filters


def test_documented_filters_keep_exactly_the_matching_records(record_sets):
    rs = record_sets["event47"]
    checked = Counter()
    for name, _seed, site in _api_sites(rs, seeds=range(1, 4)):
        client = client_for(site)
        get = getter(client, HOST)
        docs = client.get(f"/{HOST}{site.notes['docs_path']}").text
        for field, flt in site.notes["filters"].items():
            if "start" in flt:
                days = sorted(normalise(r["day"]) for r in rs.records)
                lo, hi = days[5], days[25]
                params = {flt["start"]: lo, flt["end"]: hi}
                want = [r for r in rs.records if lo <= normalise(r["day"]) <= hi]
                assert flt["start"] in docs and flt["end"] in docs
            else:
                value = next(r[field] for r in rs.records if r.get(field))
                params = {flt["param"]: value}
                want = [r for r in rs.records if normalise(r.get(field)) == normalise(value)]
                assert flt["param"] in docs
            got = site_records(
                site, lambda p, q=None, h=None, get=get, params=params: get(p, (q or {}) | params, h)
            )
            assert 0 < len(want) < len(rs.records)
            assert norm_multiset(got, EVENT.field_names) == norm_multiset(want, EVENT.field_names), (
                name,
                field,
            )
            checked["range" if "start" in flt else "exact"] += 1
    assert checked["range"] and checked["exact"]


def test_an_exact_filter_value_holding_a_comma_matches_whole_and_lists_match_each(record_sets):
    rs = record_sets["event47"]
    site = next(s for _n, _s, s in _api_sites(rs, seeds=range(1, 4)) if "venue" in s.notes["filters"])
    param = site.notes["filters"]["venue"]["param"]
    get = getter(client_for(site), HOST)
    for value, wanted in (
        ("Pier 9, East Wing", {"Pier 9, East Wing"}),
        ("Riverside,Old Mill", {"Riverside", "Old Mill"}),
    ):
        got = site_records(site, lambda p, q=None, h=None, v=value: get(p, (q or {}) | {param: v}, h))
        want = [r for r in rs.records if r.get("venue") in wanted]
        assert want and norm_multiset(got, EVENT.field_names) == norm_multiset(want, EVENT.field_names)


# --------------------------------------------------------------------------------------------- seeds


def _signature(site: ZooSite) -> str:
    n = site.notes
    keys = n.get("fields") or n.get("columns") or {}
    return json.dumps(
        [keys, n.get("endpoint"), n.get("labels"), n.get("dom"), n.get("class_style"), n.get("order")],
        sort_keys=True,
        default=str,
    )


@pytest.mark.parametrize("family", MINE)
def test_seeds_draw_different_key_names_and_markup(family, record_sets):
    rs = record_sets["paper"]
    sites = [build(family, rs, seed) for seed in range(1, 6)]
    assert len({_signature(s) for s in sites}) >= 4
    pages = set()
    for s in sites[:2]:
        pages.add(client_for(s).get(f"/{HOST}{s.entry_path}").text)
    assert len(pages) == 2
    again = build(family, rs, 1)  # a seed reproduces its site
    assert _signature(again) == _signature(sites[0])


def test_key_styles_are_the_documented_ones(record_sets):
    rs = record_sets["paper"]
    camel = build("api_camel_pages", rs, 4).notes["fields"]
    assert all(re.fullmatch(r"[a-z][a-zA-Z0-9]*", k.split(".")[-1]) for k in camel.values())
    snake = build("api_snake_nested", rs, 4).notes["fields"]
    assert all(re.fullmatch(r"[a-z0-9_]+", k.split(".")[-1]) for k in snake.values())
    assert any("." in k for k in snake.values())  # nested objects
    abbrev = build("api_abbrev_cursor", rs, 4).notes["fields"]
    long_words = [w for f in rs.kind.fields for w in f.name.split("_") if len(w) > 4]
    assert not any(w in k for w in long_words for k in abbrev.values())


# ------------------------------------------------------------------------------------------ scripts


@pytest.mark.parametrize("family", [n for n in MINE if n.startswith("js_")])
def test_script_pages_hold_no_record_markup_over_plain_http(family, record_sets):
    rs = record_sets["event47"]
    site = build(family, rs, 2)
    client = client_for(site)
    page = client.get(f"/{HOST}{site.entry_path}").text
    doc = lhtml.fromstring(page)
    item_class = site.notes["dom"]["item"].lstrip(".")
    assert not doc.xpath(f"//*[contains(concat(' ', @class, ' '), ' {item_class} ')]")
    assert item_class in page  # the script names it
    (main,) = doc.xpath("//main")  # noise (featured / related items) sits outside <main>
    for s in main.xpath(".//script"):
        s.drop_tree()
    text = main.text_content()
    assert not any(r["title"] in text for r in rs.records)
    if family == "js_embedded_state":
        data = embedded_data(page, site.notes["embedded"])
        assert data["total"] == len(rs.records)
    else:
        assert site.notes["endpoint"] in page
