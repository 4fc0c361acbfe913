"""Candidate ranking by measured findings (agents/ranking.py) and the test agent's table findings."""

from __future__ import annotations

import random

from prefect_autodata.agents import ranking
from prefect_autodata.agents.engineering import CandidateSpec
from prefect_autodata.agents.test import Requested, TestReport, field_findings, table_findings
from prefect_autodata.runtime.issues import Issue
from prefect_autodata.runtime.runner import LINEAGE_URL, DryRunReport
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)


def _spec(fields, *, records="//li", pk=None, python=None):
    data = {
        "name": "t",
        "primary_key": pk or [fields[0]["name"]],
        "sources": [
            {
                "kind": "html",
                "request": {"url": "http://127.0.0.1:9/"},
                "records": {"xpath": records},
                "fields": fields,
            }
        ],
    }
    if python:
        data["python"] = {"code": python}
    return CollectorSpec.model_validate(data)


def _report(rates: dict[str, float], *, rows: int = 20, issues: list[Issue] | None = None) -> TestReport:
    return TestReport(ok=True, rows=rows, requests=1, issues=issues or [], fill_rates=rates)


def _missing(f: str) -> Issue:
    return Issue(kind="missing_field", source="*", field=f, message=f"{f} missing")


def test_coverage_of_requested_fields_decides_and_fill_counts_in_bands():
    wanted = ["title", "director", "year", "rating"]
    full = ranking.measure(_report(dict.fromkeys(wanted, 1.0)), wanted)
    part = ranking.measure(
        _report({"title": 1.0, "director": 1.0}, issues=[_missing("year"), _missing("rating")]), wanted
    )
    assert full.honest and full.coverage == 1.0
    assert not part.honest and part.coverage == 0.5
    assert part.bad == {"year": "missing_field", "rating": "missing_field"}
    assert full.score > part.score
    near = ranking.measure(_report({**dict.fromkeys(wanted, 1.0), "rating": 0.98}), wanted)
    assert near.score == full.score  # within a band the prior order decides (rank)
    sparse = ranking.measure(_report({**dict.fromkeys(wanted, 1.0), "rating": 0.2}), wanted)
    assert sparse.score < full.score


def test_a_whole_read_far_below_the_expected_size_ranks_lower():
    wanted = ["a", "b"]
    one = _report(dict.fromkeys(wanted, 1.0), rows=1)
    small = ranking.measure(one, wanted, expected_rows=16, whole=True)
    assert small.score < ranking.measure(one, wanted, expected_rows=16, whole=False).score
    assert small.honest  # a small table is not dishonest, only less likely the one asked for


def test_null_and_label_fields_are_bad_mistyped_ones_doubtful_and_hard_issues_rank_last():
    wanted = ["name", "price", "city"]
    label = [Issue(kind="label_text", source="*", field="price", message="Price:")]
    m = ranking.measure(_report({"name": 1.0, "price": 1.0, "city": 0.0}, issues=label), wanted)
    assert m.bad == {"price": "label_text", "city": "null_field"} and m.good == ["name"] and not m.honest
    rates = dict.fromkeys(wanted, 1.0)
    typed = [Issue(kind="type_conformity", source="*", field="price", message="names in a price")]
    doubtful = ranking.measure(_report(rates, issues=typed), wanted)
    # a name's expected type is a guess: doubt is reported, it neither fails nor reorders
    assert doubtful.honest and "type doubtful: price" in doubtful.why
    assert doubtful.score == ranking.measure(_report(rates), wanted).score
    dead = ranking.measure(
        TestReport(ok=False, rows=0, requests=1, issues=[Issue(kind="no_records", source="*", message="x")]),
        wanted,
    )
    assert dead.score < m.score and not dead.honest


def test_table_findings_fail_the_honest_bar():
    wanted = ["a", "b"]
    for kind in ranking.TABLE_BAD_KINDS:
        m = ranking.measure(
            _report({"a": 1.0, "b": 1.0}, issues=[Issue(kind=kind, source="*", message=kind)]), wanted
        )
        assert not m.honest and kind in m.table, kind


def _cand(score: float, name: str) -> CandidateSpec:
    return CandidateSpec(
        spec=_spec([{"name": name, "xpath": "."}]), method="html", source_url="u", score=score
    )


def test_select_measures_the_top_k_and_ranks_by_measurement():
    wanted = ["x", "y", "z"]
    n = RNG.randint(3, 6)
    good_at = RNG.randrange(1, n)  # never the prior's first
    cands = [_cand(10.0 - i, f"c{i}") for i in range(n)]
    RNG.shuffle(cands)  # select orders by the prior itself
    reports = {
        f"c{i}": _report(dict.fromkeys(wanted, 1.0))
        if i == good_at
        else _report({"x": 1.0}, issues=[_missing("y"), _missing("z")])
        for i in range(n)
    }
    seen: list[str] = []

    def test(c):
        seen.append(c.spec.sources[0].fields[0].name)
        return reports[seen[-1]]

    ranked = ranking.select(cands, test, wanted, k=n)
    assert ranked[0].candidate.spec.sources[0].fields[0].name == f"c{good_at}", SEED
    assert seen == [f"c{i}" for i in range(good_at + 1)], SEED  # stops once every field measured good
    assert [m.index for m in ranked[1:]] == list(range(good_at)), SEED
    few = ranking.select(cands, test, wanted, k=1)
    assert len(few) == 1 and few[0].index == 0


def test_best_honest_is_none_when_nothing_reaches_the_bar():
    wanted = ["a", "b", "c"]
    spec = _spec([{"name": "a", "xpath": "."}])
    bad = _report({"a": 1.0}, issues=[_missing("b"), _missing("c")])
    assert ranking.best_honest([(spec, bad)], wanted) is None
    ok = _report({"a": 1.0, "b": 0.9, "c": 0.0})  # 2 of 3 good, c a sparse field (null in the sample)
    got = ranking.best_honest([(spec, bad), (spec, ok)], wanted)
    assert got is not None and got[1] is ok
    no_rule = _report({"a": 1.0, "b": 0.9}, issues=[_missing("c")])
    assert ranking.best_honest([(spec, bad), (spec, no_rule)], wanted) is None  # the user named c
    defaults = Requested(wanted)
    defaults.required = ["a", "b"]  # c is a kind's default field: wanted, not required
    got = ranking.best_honest([(spec, bad), (spec, no_rule)], defaults)
    assert got is not None and got[1] is no_rule


def _rows(n: int, **extra):
    return [
        {"title": f"t{i}", "price": f"${i}.00", LINEAGE_URL: "http://127.0.0.1:9/", **extra} for i in range(n)
    ]


def test_navigation_records_duplicates_and_filter_kept_none():
    fields = [{"name": "title", "xpath": "."}, {"name": "price", "xpath": "./b"}]
    nav = _spec(fields, records="/html/body/header/nav/a")
    rep = DryRunReport(
        ok=True, issues=[], rows=3, requests=1, sample=_rows(3), fill_rates={"title": 1, "price": 1}
    )
    assert [i.kind for i in table_findings(nav, rep)] == ["navigation_records"]
    assert table_findings(_spec(fields, records="//div[@class='navbar-item header']"), rep) == []
    n = RNG.randint(4, 12)
    rows = _rows(n)
    dup_rows = rows + rows[:2]
    rep = DryRunReport(
        ok=True, issues=[], rows=len(dup_rows), requests=1, sample=dup_rows, fill_rates={"title": 1}
    )
    (dup,) = table_findings(_spec(fields), rep)
    assert dup.kind == "duplicate_rows" and dup.ratio == round(2 / (n + 2), 4), SEED
    same_key = [{**r, "title": "same"} for r in rows]
    rep = DryRunReport(ok=True, issues=[], rows=n, requests=1, sample=same_key, fill_rates={"title": 1})
    assert [i.kind for i in table_findings(_spec(fields), rep)] == ["duplicate_key"]
    filt = _spec(fields, python="def transform(rows):\n    return []\n")
    rep = DryRunReport(ok=True, issues=[], rows=n, requests=1, sample=[], fill_rates={"title": 1})
    assert [i.kind for i in table_findings(filt, rep)] == ["filter_kept_none"]


def test_label_text_values_are_found():
    spec = _spec([{"name": "title", "xpath": "."}, {"name": "director", "xpath": "./b"}])
    rows = [{"title": f"t{i}", "director": RNG.choice(["Director:", "Director"])} for i in range(5)]
    found = field_findings(
        spec,
        DryRunReport(ok=True, issues=[], rows=5, requests=1, sample=rows, fill_rates={}),
        ["title", "director"],
    )
    assert [(i.kind, i.field) for i in found] == [("label_text", "director")]
