"""The research squad (tool, web, blueprint agents) against the live sandbox: one test per site family.

Real sockets on 127.0.0.1, the real search endpoint, a real artifact cache on disk, real Chromium for
the JS-only family. Assertions are on what was observed (records, endpoints, headers), never on timing.
"""

from __future__ import annotations

import json

import pytest

from prefect_autodata.agents.blueprint import blueprint_message, choose_blueprint
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.agents.tool import HTTPSearchProvider, search_provider_from_config
from prefect_autodata.agents.web import (
    DiscoveryBudget,
    WebAgent,
    load_evidence,
    store_evidence,
    tool_message,
    web_message,
)
from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.sandbox.data import is_generated


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return ArtifactCache(tmp_path_factory.mktemp("cache"))


def _discover(sandbox_url, cache, instruction, sources=None, **budget):
    plan = parse_instruction(instruction)
    with Fetcher(FetchPolicy(read_timeout=15, max_retries=2)) as f:
        search = None if sources else HTTPSearchProvider(sandbox_url)
        with WebAgent(fetcher=f, cache=cache, search=search, budget=DiscoveryBudget(**budget)) as agent:
            ev = agent.discover(plan, sources)
            return ev, agent


def test_search_provider_speaks_searxng_json(sandbox_url, monkeypatch):
    monkeypatch.setenv("AUTODATA_SEARCH_URL", sandbox_url)
    provider = search_provider_from_config()
    hits = provider.search("NeurIPS 2017 accepted papers", num=5)
    assert 1 <= len(hits) <= 5
    assert all(h.url.startswith(sandbox_url + "/") for h in hits)  # relative results made absolute
    assert "2017" in hits[0].url


def test_finance_api_found_via_docs_page(sandbox_url, cache):
    ev, agent = _discover(sandbox_url, cache, "Collect the daily stock information of AAPL in 2024.")
    api = [e for e in ev.endpoints if e.kind == "json"]
    assert api, ev.notes
    ep = api[0]
    assert ep.record_count and ep.record_count > 200
    assert {"date", "open", "close", "adjClose", "divCash"} <= set(ep.fields)
    assert "{ticker}" in ep.url_template and ep.params["ticker"].lower() == "aapl"
    start = next(r for r in ep.param_ranges if r.name == "startDate")
    assert "2024-01-01" in start.accepted
    body = json.loads(cache.get_text(ep.sample_cache_id))
    assert isinstance(body, list) and len(body) == ep.record_count
    bp = choose_blueprint(ev)
    assert bp.chosen.kind == "api" and bp.chosen.field_coverage == 1.0
    msg = blueprint_message(bp)
    assert msg.sources[0].kind == "api"
    assert tool_message(agent, ev).observations[0].tool == "web_search"


def test_sp500_finds_constituents_and_price_api(sandbox_url, cache):
    ev, _ = _discover(
        sandbox_url, cache, "Collect the daily stock information of all S&P 500 companies in 2024."
    )
    constituents = [p for p in ev.candidates if (p.record_count or 0) >= 400 and p.kind == "html"]
    assert constituents, [p.final_url for p in ev.candidates]
    assert any(e.kind == "json" and "close" in e.fields for e in ev.endpoints)


def test_sport_api_needs_page_headers(sandbox_url, cache):
    ev, _ = _discover(
        sandbox_url, cache, "Collect all regular-season statistics of NBA Los Angeles Lakers up to 2024."
    )
    assert len(ev.candidates) == 1  # the weaker hits (other teams) are not visited
    ep = ev.endpoints[0]
    assert ep.found_via == "script" and ep.record_path_hint and ep.record_path_hint.endswith("rowSet")
    assert ep.headers["Referer"] == ev.candidates[0].final_url  # refused without them; sent as the page does
    assert "TEAM_NAME" in ep.fields and ep.record_count > 70
    assert choose_blueprint(ev).chosen.kind == "api"


def test_sport_league_wide_season_probe(sandbox_url, cache):
    ev, _ = _discover(sandbox_url, cache, "Collect all NBA regular-season team statistics of 2015.")
    ep = choose_blueprint(ev).chosen.endpoint
    season = next(r for r in ep.param_ranges if r.name == "Season")
    assert "2015-16" in season.accepted  # the plan's season, written the way the API writes seasons
    assert ep.record_count == 30


def test_mlb_leaderboard_api_from_inline_script(sandbox_url, cache):
    ev, _ = _discover(
        sandbox_url,
        cache,
        "Collect all regular-season hitting statistics of MLB New York Yankees up to 2024.",
    )
    bp = choose_blueprint(ev)
    ep = bp.chosen.endpoint
    assert ep is not None and ep.params["stats"] == "bat"
    assert ep.pagination is not None and ep.pagination.total == ep.record_count
    assert {"AB", "HR", "RBI"} <= set(bp.chosen.matched_fields)


def test_academic_listing_with_detail_sample(sandbox_url, cache):
    ev, _ = _discover(sandbox_url, cache, "Collect all accepted papers of NeurIPS 2017.")
    listing = ev.candidates[0]
    many = 50 if is_generated() else 600  # the generated sample has ~100 papers a year, the real 2017 679
    assert "2017" in listing.final_url and listing.record_count > many
    details = [
        p for p in ev.candidates if p.found_via == "link" and p.depth == 1 and "Abstract" in p.final_url
    ]
    assert details and details[0].cache_id
    assert "abstract" in cache.get_text(details[0].cache_id).lower()
    bp = choose_blueprint(ev)
    assert bp.chosen.kind == "html" and bp.chosen.url == listing.final_url
    msg = web_message(ev, store_evidence(ev, lambda c, **kw: cache.put(c, **kw).cache_id))
    assert load_evidence(cache.get_text(msg.artifacts[0])).candidates[0].final_url == listing.final_url


def test_academic_api_behind_js_page(sandbox_url, cache):
    ev, _ = _discover(sandbox_url, cache, "Collect all accepted papers of ICLR 2021.")
    ep = ev.endpoints[0]
    assert ep.record_path_hint == "notes" and "content.title" in ep.fields
    assert ep.pagination.style == "offset" and ep.pagination.total and ep.pagination.total > ep.record_count


def test_js_only_source_rendered_in_browser_captures_xhr(sandbox_url, cache):
    url = f"{sandbox_url}/www.hoops-explorer.com/seasons/2023/players"
    ev, agent = _discover(
        sandbox_url,
        cache,
        "Collect all regular-season statistics of NBA player LeBron James in 2023.",
        sources=[url],
        browser="always",
        max_pages=1,
    )
    rendered = [p for p in ev.candidates if p.rendered]
    assert rendered and rendered[0].xhr, ev.notes
    assert rendered[0].record_count and rendered[0].record_count >= 25  # rows appended by the page's script
    xhr_eps = [e for e in ev.endpoints if e.found_via == "xhr"]
    assert xhr_eps and xhr_eps[0].pagination and xhr_eps[0].pagination.param == "page"
    assert any(o.tool == "browser_render" for o in agent.observations)


def test_bad_source_and_missing_search_are_clear_errors(sandbox_url, cache):
    plan = parse_instruction("Collect all accepted papers of NeurIPS 2017.")
    with Fetcher() as f, WebAgent(fetcher=f, cache=cache) as agent:
        with pytest.raises(ConfigError, match="no --source given and no search provider"):
            agent.discover(plan)
        with pytest.raises(ConfigError, match="ftp://x"):
            agent.discover(plan, ["ftp://x"])
    ev, _ = _discover(sandbox_url, cache, plan.text, sources=[f"{sandbox_url}/no-such-site/page"])
    assert ev.candidates[0].status == 404 and ev.candidates[0].error
    assert choose_blueprint(ev).chosen is None
