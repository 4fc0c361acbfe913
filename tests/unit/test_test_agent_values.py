"""The test agent catches a wrong column without knowing the truth (issue #13, trust): values that
contradict the field's name (its lexicon word role), two fields reading the same values, a table cell
under a header that does not name its field while another column's does; the findings fail the dry
run, the engineering repair drops the wrong rule, and a table with too many wrong fields is not landed.
Right tables stay clean. Layouts and values are drawn from a random seed."""

from __future__ import annotations

import random

from prefect_autodata.agents import ranking
from prefect_autodata.agents.engineering import repair, repair_spec
from prefect_autodata.agents.induction import dom
from prefect_autodata.agents.test import (
    FAILING_FINDINGS,
    Requested,
    TestReport,
    _FetchOnce,
    derive,
    field_findings,
)
from prefect_autodata.runtime.runner import DryRunReport
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)
URL = "http://127.0.0.1:9/index.html"
WORDS = "alpha bravo cedar delta ember fjord grove harbor island jasper kettle lumen".split()
TEAMS = ["MIL", "DEN", "BOS", "NYK", "PHX", "UTA"]


class _Page:
    def __init__(self, text: str) -> None:
        self.text = text


class _Fetcher:
    def __init__(self, html: str) -> None:
        self.html, self.calls = html, 0

    def get(self, url: str, **_kw):
        self.calls += 1
        return _Page(self.html)


def _spec(fields, records="//tr[td]", url=URL, base_url=None, pk=None):
    data = {
        "name": "t",
        "primary_key": pk or [fields[0]["name"]],
        "sources": [
            {"kind": "html", "request": {"url": url}, "records": {"xpath": records}, "fields": fields}
        ],
    }
    if base_url:
        data["base_url"] = base_url
    return CollectorSpec.model_validate(data)


def _rep(rows):
    return DryRunReport(
        ok=True, rows=len(rows), requests=1, issues=[], sample=rows, fill_rates={k: 1.0 for k in rows[0]}
    )


def _kinds(found, kind):
    return sorted(i.field for i in found if i.kind == kind)


def _name() -> str:
    return " ".join(w.capitalize() for w in RNG.sample(WORDS, 2))


# ------------------------------------------------------------------------------------------ values vs names


def test_values_that_contradict_the_name_are_wrong_and_fail(seed=SEED):
    n = RNG.randint(5, 9)
    rows = [
        {
            "year": RNG.randint(10_000, 99_999),  # a count read as the year
            "age": RNG.choice(TEAMS),  # a team read as the age
            "player": str(RNG.randint(1, 99)),  # a jersey number read as the player
            "win_percentage": RNG.randint(150, 900),  # points read as a percentage
            "title": _name(),
        }
        for _ in range(n)
    ]
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    found = field_findings(_spec(fields), _rep(rows), list(rows[0]))
    assert _kinds(found, "wrong_values") == ["age", "player", "win_percentage", "year"], (seed, found)
    assert "wrong_values" in FAILING_FINDINGS


def test_a_date_read_from_the_page_is_one_constant_and_wrong(seed=SEED):
    day = f"2013-0{RNG.randint(1, 9)}-1{RNG.randint(0, 9)}"
    rows = [{"title": _name(), "date": day} for _ in range(6)]
    page = [{"name": "title", "xpath": "./td[1]"}, {"name": "date", "xpath": "//div[@id='updated']"}]
    found = field_findings(_spec(page), _rep(rows), ["title", "date"])
    assert _kinds(found, "wrong_values") == ["date"], (seed, found)
    own = [{"name": "title", "xpath": "./td[1]"}, {"name": "date", "xpath": "./td[2]"}]  # a day's records
    assert not _kinds(field_findings(_spec(own), _rep(rows), ["title", "date"]), "wrong_values"), seed


def test_right_values_stay_clean_and_one_wrong_column_is_named(seed=SEED):
    rows = [
        {
            "season": f"{y}-{(y + 1) % 100:02d}",
            "year": y,
            "age": RNG.randint(19, 38),
            "team": RNG.choice(TEAMS),
            "player": _name(),
            "win_percentage": round(RNG.uniform(0, 100), 1),
            "average_rating": round(RNG.uniform(1, 5), 2),
            "price": f"${RNG.randint(1, 90)}.99",
            "url": f"https://example.org/{RNG.choice(WORDS)}/{y}",
        }
        for y in range(2004, 2004 + RNG.randint(4, 9))
    ]
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    found = field_findings(_spec(fields), _rep(rows), list(rows[0]))
    assert not [i for i in found if i.kind in ("wrong_values", "same_values", "header_mismatch")], (
        seed,
        found,
    )
    # one wrong column among them is the only one reported
    for r in rows:
        r["release_year"] = RNG.randint(10_000, 99_999)
    fields.append({"name": "release_year", "xpath": f"./td[{len(fields) + 1}]"})
    found = field_findings(_spec(fields), _rep(rows), list(rows[0]))
    bad = [i.field for i in found if i.kind in ("wrong_values", "same_values", "header_mismatch")]
    assert bad == ["release_year"], (seed, found)


def test_a_rating_of_counts_is_wrong(seed=SEED):
    rows = [{"title": _name(), "my_rating": RNG.choice([RNG.randint(200, 900), RNG.randint(20_000, 90_000)])}]
    rows += [{"title": _name(), "my_rating": v} for v in (RNG.randint(200, 900), RNG.randint(20_000, 90_000))]
    rows += [{"title": _name(), "my_rating": RNG.randint(200, 90_000)} for _ in range(3)]
    fields = [{"name": "title", "xpath": "./td[1]"}, {"name": "my_rating", "xpath": "./td[2]"}]
    found = field_findings(_spec(fields), _rep(rows), ["title", "my_rating"])
    assert _kinds(found, "wrong_values") == ["my_rating"], (seed, found)


def test_two_fields_reading_the_same_values(seed=SEED):
    rows = []
    for _ in range(RNG.randint(4, 8)):
        name = _name()
        rows.append({"title": name, "directed_by": name, "written_by": _name()})
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    found = field_findings(_spec(fields), _rep(rows), list(rows[0]))
    same = _kinds(found, "same_values")
    assert same and set(same) <= {"title", "directed_by"}, (seed, found)
    assert "written_by" not in same


# ------------------------------------------------------------------------------------------ cells vs headers


def _stats_page(n: int) -> tuple[str, list[dict]]:
    """A stats table whose rows start with a header cell (the season), then the age, team, games."""
    head = "<thead><tr><th>Season</th><th>Age</th><th>Tm</th><th>G</th></tr></thead>"
    rows, body = [], []
    for k in range(n):
        y, age, tm, g = 2004 + k, 20 + k, RNG.choice(TEAMS), RNG.randint(1, 82)
        rows.append((f"{y}-{(y + 1) % 100:02d}", age, tm, g))
        body.append(
            f"<tr><th scope='row'>{y}-{(y + 1) % 100:02d}</th><td>{age}</td><td>{tm}</td><td>{g}</td></tr>"
        )
    html = f"<html><body><table id='s'>{head}<tbody>{''.join(body)}</tbody></table></body></html>"
    return html, rows


def test_cells_under_other_headers_are_found_and_recounted(seed=SEED):
    html, truth = _stats_page(RNG.randint(4, 8))
    # the rules count td cells only: td[1] is the age's cell, read as the season
    fields = [{"name": f, "xpath": f"./td[{i + 1}]"} for i, f in enumerate(["season", "age", "team"])]
    spec = _spec(
        fields,
        records="//table[@id='s']/tbody/tr[td]",
        url="{base_url}/index.html",
        base_url="http://127.0.0.1:9",
    )
    read = [{"season": a, "age": t, "team": "x"} for _, a, t, _ in truth]
    fetcher = _FetchOnce(_Fetcher(html))
    found = field_findings(spec, _rep(read), ["season", "age", "team"], fetcher=fetcher)
    assert _kinds(found, "header_mismatch") == ["age", "season"], (seed, found)
    got = derive(spec, found, _rep(read), fetcher, ["season", "age", "team"])
    assert got, seed
    fixed = got[0][1]
    rules = {f.name: f.expr for f in fixed.sources[0].fields}
    root = dom.parse(html)
    rec = root.xpath("//table[@id='s']/tbody/tr[td]")[0]
    values = {k: dom.text(rec.xpath(e)[0]) for k, e in rules.items()}
    assert values == {"season": truth[0][0], "age": str(truth[0][1]), "team": truth[0][2]}, (seed, rules)
    # the recounted spec's rules sit under their own headers
    again = field_findings(fixed, _rep(read), ["season", "age", "team"], fetcher=_FetchOnce(_Fetcher(html)))
    assert not _kinds(again, "header_mismatch"), (seed, again)
    # the engineering repair takes the recounted spec before dropping rules
    report = TestReport(ok=False, rows=len(read), requests=1, issues=found, derived=got)
    chosen = repair(spec, report, history=[report])
    assert chosen is not None and chosen.spec == fixed, seed


def test_the_first_page_is_parsed_once(monkeypatch, seed=SEED):
    html, truth = _stats_page(5)
    fields = [{"name": "season", "xpath": "./th[1]"}, {"name": "age", "xpath": "./td[1]"}]
    spec = _spec(fields, records="//table[@id='s']/tbody/tr[td]")
    read = [{"season": s, "age": a} for s, a, _, _ in truth]
    calls = []
    real = dom.parse
    monkeypatch.setattr(dom, "parse", lambda text: calls.append(1) or real(text))
    field_findings(spec, _rep(read), ["season", "age"], fetcher=_FetchOnce(_Fetcher(html)))
    assert len(calls) == 1, (seed, len(calls))


# ------------------------------------------------------------------------------------------ repair and landing


def test_repair_drops_the_wrong_rule_and_the_table_is_not_landed_half_right(seed=SEED):
    rows = [
        {"year": RNG.randint(10_000, 99_999), "age": RNG.choice(TEAMS), "title": _name()} for _ in range(5)
    ]
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    spec = _spec(fields, pk=["year", "title"])
    req = Requested(["year", "age", "title"])
    req.required = list(req)
    found = field_findings(spec, _rep(rows), req)
    report = TestReport(ok=False, rows=5, requests=1, issues=found, fill_rates={k: 1.0 for k in rows[0]})
    assert not ranking.measure(report, req).honest, seed
    fixed = repair_spec(spec, found)
    assert fixed is not None, seed
    new, why = fixed
    rules = {f.name for s in new.sources for f in s.fields}
    assert rules == {"title"} and "year" not in new.primary_key, (seed, why)


# ------------------------------------------------------------------------------------------ rows that are no records


def test_summary_and_repeated_header_rows_are_found_and_left_out(seed=SEED):
    n = RNG.randint(6, 10)
    head = "<tr><th>Season</th><th>Team</th><th>Points</th></tr>"
    body, read = [], []
    for k in range(n):
        y, tm, pts = f"{2004 + k}-{(5 + k) % 100:02d}", RNG.choice(TEAMS), str(RNG.randint(100, 2000))
        body.append(f"<tr><td>{y}</td><td>{tm}</td><td>{pts}</td></tr>")
        read.append({"season": y, "team": tm, "points": pts})
        if k == n // 2:  # the header repeated in the middle of a long table
            body.append("<tr><td>Season</td><td>Team</td><td>Points</td></tr>")
            read.append({"season": "Season", "team": "Team", "points": "Points"})
    total = RNG.choice(["Career", "Totals", "Career totals", "Average (3 yrs)"])
    body.append(f"<tr><td>{total}</td><td></td><td>{RNG.randint(3000, 9000)}</td></tr>")
    read.append({"season": total, "team": None, "points": "x"})
    html = (
        f"<html><body><table id='s'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table></body></html>"
    )
    fields = [{"name": f, "xpath": f"./td[{i + 1}]"} for i, f in enumerate(["season", "team", "points"])]
    spec = _spec(fields, records="//table[@id='s']/tbody/tr[td]")
    fetcher = _FetchOnce(_Fetcher(html))
    found = field_findings(spec, _rep(read), ["season", "team", "points"], fetcher=fetcher)
    assert "season" in _kinds(found, "summary_rows"), (seed, found)
    assert set(_kinds(found, "header_rows")) & {"team", "points"}, (seed, found)
    assert {"summary_rows", "header_rows"} <= set(FAILING_FINDINGS)
    got = derive(spec, found, _rep(read), fetcher, ["season", "team", "points"])
    assert got, seed
    recs = dom.parse(html).xpath(got[0][1].sources[0].records.xpath)
    assert [dom.text(r.xpath("./td[1]")[0]) for r in recs] == [
        r["season"] for r in read if r["team"] and r["season"] != "Season"
    ]


def test_titles_that_start_like_a_summary_are_records(seed=SEED):
    titles = [
        "Total Recall",
        "Mean Streets",
        "The Sum of All Fears",
        "Average Joe",
        "Overall Winner",
        _name(),
    ]
    RNG.shuffle(titles)
    rows = [{"title": t, "year": 1980 + k} for k, t in enumerate(titles)]
    fields = [{"name": "title", "xpath": "./td[1]"}, {"name": "year", "xpath": "./td[2]"}]
    found = field_findings(_spec(fields), _rep(rows), ["title", "year"])
    assert not _kinds(found, "summary_rows") and not _kinds(found, "header_rows"), (seed, found)
    # ... while a "Total" row among them is a summary row
    rows.append({"title": "Total", "year": None})
    found = field_findings(_spec(fields), _rep(rows), ["title", "year"])
    assert _kinds(found, "summary_rows") == ["title"], (seed, found)
