"""Research + induction for named teams/players on the live sandbox: the requested entity's own page is
followed from a league listing, a tab parameter is switched by probing (batting → pitching), the
season's club name is read from the API, and several requested players share one request template."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.blueprint import choose_blueprint
from prefect_autodata.agents.engineering import induce
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.agents.web import DiscoveryBudget, WebAgent
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.runner import dry_run


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return ArtifactCache(tmp_path_factory.mktemp("cache"))


def _research(sandbox_url, cache, instruction, path, **budget):
    plan = parse_instruction(instruction)
    f = Fetcher(FetchPolicy(read_timeout=15, max_retries=2, rate_limit_per_host=0))
    with WebAgent(fetcher=f, cache=cache, budget=DiscoveryBudget(**budget)) as agent:
        ev = agent.discover(plan, [sandbox_url + path])
    return plan, ev, f, agent


def test_team_page_followed_and_pitching_tab_switched(sandbox_url, cache):
    plan, ev, f, agent = _research(
        sandbox_url,
        cache,
        "Collect all regular-season pitching statistics of MLB Chicago Cubs from 2016 to 2018.",
        "/www.fangraphs.com/leaders/major-league",
    )
    with f:
        titles = [p.title for p in ev.candidates]
        assert any(t.startswith("Cubs") for t in titles), titles  # the team's own page, not the first row's
        ep = choose_blueprint(ev).chosen.endpoint
        assert ep is not None and ep.params["stats"] == "pit", ep.example_url
        assert {"ERA", "SV", "W"} <= set(ep.fields)
        cands = induce(ev, plan, reader=cache, fetcher=f)
        assert cands and not cands[0].missing, cands[0].missing
        rep = dry_run(cands[0].spec, base_url=sandbox_url, fetcher=f)
    rows = {r["YEAR"]: r for r in rep.sample}
    assert sorted(rows) == ["2016", "2017", "2018"]
    assert {r["TEAM_NAME"] for r in rows.values()} == {"Cubs"} and {
        r["TEAM_ABBR"] for r in rows.values()
    } == {"CHC"}


def test_several_players_share_one_request_template_without_helper_columns(sandbox_url, cache):
    plan, ev, f, _ = _research(
        sandbox_url,
        cache,
        "Collect all regular-season statistics of NBA players Michael Jordan and Tim Duncan in 1997.",
        "/www.nba.com/players",
    )
    with f:
        cands = induce(ev, plan, reader=cache, fetcher=f)
    spec = next(c.spec for c in cands if not c.missing)
    src = spec.sources[-1]
    (values,) = [p.values for p in src.params.values() if p.values and len(p.values) == 2]
    assert len(set(values)) == 2  # one id per requested player
    assert src.detail is not None
    url_rule = next(r for r in src.fields if r.name == src.detail.url_field)
    assert url_rule.internal  # used for the join, never landed
    assert src.detail.url_field not in {c.name for c in spec.output_columns()}
    assert set(plan.field_names) <= {c.name for c in spec.output_columns()}
