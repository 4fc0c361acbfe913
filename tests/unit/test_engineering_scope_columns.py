"""A filter on a field the request does not land still reaches the spec: the table and CSV inducers read
the source's column of that field (by its name) and the row filter compares on it."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.engineering import induce_csv, induce_html_table
from prefect_autodata.agents.evidence import Endpoint, Evidence, Page
from prefect_autodata.agents.plan import make_plan

URL = "http://127.0.0.1:9/seasons/"
ROWS = [("Otters", "1995", "40"), ("Otters", "1996", "50"), ("Herons", "1997", "41"), ("Lynx", "1999", "20")]


def _keep(spec, rows):
    ns: dict = {}
    exec(compile(spec.python.code, "<filter>", "exec"), ns)  # the function the runtime's sandbox runs
    return [(r["club"], r["wins"]) for r in ns["transform"](rows)]


def _plan():
    return make_plan("every club season from 1996 to 1997 with club and wins", today=date(2025, 3, 1))


def test_the_table_spec_reads_the_year_column_a_time_scope_is_on():
    body = "".join(f"<tr><td>{c}</td><td>{y}</td><td>{w}</td></tr>" for c, y, w in ROWS)
    html = (
        f"<html><body><table><tr><th>Club</th><th>Season</th><th>Wins</th></tr>{body}</table></body></html>"
    )
    page = Page(url=URL, final_url=URL, status=200, kind="html", cache_id="p")
    cand = induce_html_table(page, _plan(), reader=lambda _id: html)
    assert cand is not None and cand.covered == ["club", "wins"]
    assert [f.name for f in cand.spec.sources[0].fields] == ["club", "wins", "year"]
    rows = [{"club": c, "year": int(y), "wins": w} for c, y, w in ROWS]
    assert _keep(cand.spec, rows) == [("Otters", "50"), ("Herons", "41")]


def test_the_csv_spec_reads_the_year_column_a_time_scope_is_on():
    csv = "club,season,wins\n" + "".join(f"{c},{y},{w}\n" for c, y, w in ROWS)
    ep = Endpoint(url_template=URL + "all.csv", example_url=URL + "all.csv", kind="csv", sample_cache_id="c")
    plan = _plan()
    cand = induce_csv(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: csv)
    assert cand is not None and cand.covered == ["club", "wins"]
    assert {f.name: f.jsonpath for f in cand.spec.sources[0].fields}["year"] == "$['season']"
    rows = [{"club": c, "year": y, "wins": w} for c, y, w in ROWS]
    assert _keep(cand.spec, rows) == [("Otters", "50"), ("Herons", "41")]
