"""The honest bar for the fields the user named, and candidates of several sites measured against
each other (agents/ranking.py); the search seeds of several equally good sites (agents/web.py)."""

from __future__ import annotations

import random

from prefect_autodata.agents import ranking
from prefect_autodata.agents.engineering import CandidateSpec
from prefect_autodata.agents.evidence import SearchHit
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.agents.test import Requested, TestReport, requested_names
from prefect_autodata.agents.web import WebAgent
from prefect_autodata.runtime.issues import Issue
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)


def _report(rates: dict[str, float], *, rows: int = 20, missing: tuple[str, ...] = ()) -> TestReport:
    issues = [Issue(kind="missing_field", source="*", field=f, message=f"{f} missing") for f in missing]
    return TestReport(ok=not missing, rows=rows, requests=1, issues=issues, fill_rates=rates)


def _cand(url: str, score: float, tag: str) -> CandidateSpec:
    spec = CollectorSpec.model_validate(
        {
            "name": "t",
            "primary_key": [tag],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": url},
                    "records": {"xpath": "//li"},
                    "fields": [{"name": tag, "xpath": "."}],
                }
            ],
        }
    )
    return CandidateSpec(spec=spec, method="html", source_url=url, score=score)


def test_a_user_named_field_without_a_rule_fails_the_bar_a_kind_default_does_not():
    wanted = ["name", "city", "phone"]
    rep = _report({"name": 1.0, "city": 1.0}, missing=("phone",))
    m = ranking.measure(rep, wanted)
    assert m.coverage >= ranking.HONEST_MIN_COVERAGE and not m.honest
    assert "requested but not landed right: phone" in m.why
    assert ranking.measure(rep, wanted, required=["name", "city"]).honest  # phone only wanted
    many = [f"f{i}" for i in range(RNG.randint(5, 12))]
    absent = RNG.sample(many, 2)
    one = _report({f: 1.0 for f in many if f != absent[0]}, missing=(absent[0],))
    assert ranking.measure(one, many).honest, SEED  # one of five or more: shown as rule null
    two = _report({f: 1.0 for f in many if f not in absent}, missing=tuple(absent))
    assert ranking.measure(two, many).honest == (len(many) >= 9), SEED
    named = requested_names(make_plan("Collect all restaurants: name, city and phone."))
    assert list(named) == named.required == ["name", "city", "phone"]
    default = requested_names(make_plan("Collect all NBA team seasons."))
    assert default and default.required == []  # the kind's defaults: wanted, not required
    assert not default.narrowed and requested_names(make_plan("Collect NBA team seasons of 2015.")).narrowed


def test_site_of_reads_a_host_behind_a_mirror_path():
    assert ranking.site_of(_cand("https://books.example.org/list?p=2", 1, "a")) == "books.example.org"
    mirrored = _cand("http://127.0.0.1:8000/www.shop-one.test/api/items", 1, "a")
    assert ranking.site_of(mirrored) == "127.0.0.1:8000/www.shop-one.test"
    assert ranking.site_of(_cand("http://127.0.0.1:8000/index.html", 1, "a")) == "127.0.0.1:8000"


def test_the_best_of_other_sites_is_measured_after_a_complete_table_and_the_bigger_one_wins():
    wanted = ["x", "y"]
    n_a = RNG.randint(2, 5)  # candidates of site A, in prior order, then one of site B
    cands = [_cand(f"http://a.example/{i}", 10.0 - i, f"a{i}") for i in range(n_a)]
    cands.append(_cand("http://b.example/list", 1.0, "b0"))
    RNG.shuffle(cands)
    rows_b = RNG.randint(40, 400)
    reports = {f"a{i}": _report(dict.fromkeys(wanted, 1.0), rows=RNG.randint(1, 9)) for i in range(n_a)}
    reports["b0"] = _report(dict.fromkeys(wanted, 1.0), rows=rows_b)
    seen: list[str] = []

    def test(c):
        seen.append(c.spec.sources[0].fields[0].name)
        return reports[seen[-1]]

    ranked = ranking.select(cands, test, wanted)
    # site A's first table is complete: no other candidate of A is measured, B's best still is
    assert seen == ["a0", "b0"], SEED
    assert ranked[0].candidate.source_url == "http://b.example/list", SEED
    assert f"where b.example measured {rows_b}" in ranked[1].measure.why, SEED
    # a request that keeps only some records (a team, a year): a smaller table is no partial one
    narrowed = Requested(wanted)
    narrowed.narrowed = True
    seen.clear()
    assert ranking.select(cands, test, narrowed)[0].candidate.source_url == "http://a.example/0", SEED
    # of the same size, the prior order decides
    reports["b0"] = _report(dict.fromkeys(wanted, 1.0), rows=reports["a0"].rows)
    seen.clear()
    assert ranking.select(cands, test, wanted)[0].candidate.source_url == "http://a.example/0", SEED


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


def test_search_seeds_every_site_as_good_as_the_best_and_keeps_the_users_words():
    plan = make_plan("Would you extract all NBA player seasons listed on the site?")
    queries = d.search_queries(plan)
    assert any("player" in q and "season" in q for q in queries), queries
    k = RNG.randint(3, 5)
    same = [
        SearchHit(
            url=f"http://127.0.0.1:9/www.site{i}.test/list/",
            title=f"Site {i} — NBA player seasons",
            snippet="NBA player seasons with player, team, gp, pts.",
            rank=i,
        )
        for i in range(k)
    ]
    other = SearchHit(url="http://127.0.0.1:9/www.x.test/", title="Cameras", snippet="cameras", rank=k)
    hits = same + [other]
    RNG.shuffle(hits)
    agent = WebAgent(fetcher=_Fetcher(), store=lambda *a, **kw: "c", search=_Search(hits))
    from prefect_autodata.agents.evidence import Evidence

    seeds = agent._search(plan, Evidence(plan=plan))
    got = {h.url for h in seeds}
    assert got == {h.url for h in same}, (SEED, got)  # every equally good site; none off topic


def test_other_sites_are_measured_in_order_of_search_agreement_and_a_tie_goes_to_the_best_hit():
    wanted = ["x", "y"]
    n = RNG.randint(4, 7)  # one candidate per site, the prior order unrelated to the search
    cands = [_cand(f"http://127.0.0.1:9/www.s{i}.test/list", 10.0 - i, f"s{i}") for i in range(n)]
    agree = {f"www.s{i}.test": RNG.uniform(0, 20) for i in range(n)}
    rows = RNG.randint(5, 50)
    seen: list[str] = []

    def test(c):
        seen.append(c.spec.sources[0].fields[0].name)
        return _report(dict.fromkeys(wanted, 1.0), rows=rows)  # every site measures alike

    ranked = ranking.select(cands, test, wanted, agreement=agree)
    by_agree = sorted(range(1, n), key=lambda i: -agree[f"www.s{i}.test"])[: ranking.OTHER_SITES]
    first = ["s0"] + [f"s{i}" for i in by_agree]  # then the rest of the prior's first TOP_K
    assert seen[: len(first)] == first, (SEED, seen)
    assert set(seen) == set(first) | {f"s{i}" for i in range(min(n, ranking.TOP_K))}, (SEED, seen)
    best = max(range(n), key=lambda i: agree[f"www.s{i}.test"] if f"s{i}" in seen else -1)
    assert ranked[0].candidate.source_url == f"http://127.0.0.1:9/www.s{best}.test/list", SEED
    assert f"{len(seen)} sites measure alike" in ranked[0].measure.why, SEED
    # what was measured still decides: a site with a field more wins whatever its hit
    worst = min(by_agree, key=lambda i: agree[f"www.s{i}.test"])  # measured, whatever the time
    seen.clear()

    def test2(c):
        tag = c.spec.sources[0].fields[0].name
        seen.append(tag)
        ok = tag == f"s{worst}"
        return _report({"x": 1.0, "y": 1.0 if ok else 0.0}, rows=rows)

    ranked = ranking.select(cands, test2, wanted, agreement=agree)
    assert ranked[0].candidate.source_url == f"http://127.0.0.1:9/www.s{worst}.test/list", SEED
    assert "measure alike" not in ranked[0].measure.why


def test_site_agreement_reads_hits_behind_a_mirror_and_covered_by_site_gates_per_site_after_a_search():
    plan = make_plan("Collect all NBA team seasons: team, season, wins.")
    hits = [
        SearchHit(
            url="http://127.0.0.1:9/www.a.test/", title="A — NBA team seasons", snippet="team, season, wins"
        ),
        SearchHit(url="http://127.0.0.1:9/www.b.test/", title="B — cameras", snippet="cameras"),
    ]
    agree = ranking.site_agreement(hits, plan)
    assert set(agree) == {"www.a.test", "www.b.test"} and agree["www.a.test"] > agree["www.b.test"]
    a = _cand("https://www.a.test/list", 5.0, "a").model_copy(update={"covered": ["team", "season", "wins"]})
    b = _cand("http://127.0.0.1:9/www.b.test/x", 4.0, "b").model_copy(update={"covered": ["team"]})
    from prefect_autodata.agents.evidence import Evidence, Page

    pages = [Page(url=u, final_url=u, status=200, kind="html") for u in (a.source_url, b.source_url)]
    searched = Evidence(plan=plan, candidates=pages, search=hits)
    best = ranking.covered_by_site([a, b], searched)
    assert best(a) == 3 and best(b) == 1 and best(None) == 1  # b's site may still get better candidates
    given = Evidence(plan=plan, candidates=pages)  # the user's sources: the best of all gates all
    best = ranking.covered_by_site([a, b], given)
    assert best(a) == best(b) == best(None) == 3


def test_sites_answering_the_same_fields_are_named_even_when_their_rows_differ():
    wanted = ["x", "y"]
    n = RNG.randint(2, 4)
    cands = [_cand(f"http://127.0.0.1:9/www.s{i}.test/list", 10.0 - i, f"s{i}") for i in range(n)]
    rows = {f"s{i}": RNG.randint(5, 60) for i in range(n)}

    def test(c):  # the others fill y less: no exact tie, but every field good on each site
        tag = c.spec.sources[0].fields[0].name
        return _report({"x": 1.0, "y": 1.0 if tag == "s0" else RNG.uniform(0.3, 0.8)}, rows=rows[tag])

    ranked = ranking.select(cands, test, wanted)
    why = ranked[0].measure.why
    assert f"{n - 1} other site(s) also answer every field" in why and "give --source" in why, (SEED, why)
    # a site lacking a field the chosen table has is no alternative
    ranked = ranking.select(
        cands, lambda c: _report({"x": 1.0, "y": 1.0 if c is cands[0] else 0.0}, rows=30), wanted
    )
    assert "also answer every field" not in ranked[0].measure.why
