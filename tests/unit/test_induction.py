"""Wrapper induction as pure functions: record arrays, field mapping, URL templates, keys, tables."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.induction.jsonsets import json_record_sets
from prefect_autodata.agents.offline.induction import (
    choose_primary_key,
    generalise_url,
    html_tables,
    match_fields,
    name_score,
    next_link_selector,
    value_kind,
    year_filter_code,
)
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.agents.test import TestReport, to_message
from prefect_autodata.agents.validation import design_checks, stated_count
from prefect_autodata.runtime.extract import compile_jsonpath
from prefect_autodata.runtime.runner import Issue
from prefect_autodata.runtime.spec import CollectorSpec

TODAY = date(2025, 6, 1)


def test_record_sets_find_list_of_dicts_and_rowset_tables():
    body = {
        "meta": {"n": 2},
        "resultSets": [
            {"name": "Career", "headers": ["SEASON_ID", "PTS"], "rowSet": [["2019-20", 1698]]},
            {
                "name": "Seasons",
                "headers": ["SEASON_ID", "PTS"],
                "rowSet": [["2018-19", 1505], ["2019-20", 1698]],
            },
        ],
        "data": [{"a": 1}, {"a": 2}, {"a": 3}],
    }
    sets = json_record_sets(body)
    paths = {s.path: s for s in sets}
    assert paths["$.data[*]"].count == 3
    table = paths["$.resultSets[1].rowSet[*]"]
    assert table.positional and table.labels == {0: "SEASON_ID", 1: "PTS"} and table.count == 2
    # the JSONPath the spec will carry selects exactly those records, and $[1] the PTS cell
    recs = compile_jsonpath(table.path)(body)
    assert recs == [["2018-19", 1505], ["2019-20", 1698]]
    assert compile_jsonpath(table.jsonpath_for(1))(recs[0]) == [1505]


def test_name_scores_rank_exact_synonym_prefix_and_reject_unrelated():
    assert name_score("Close", "close") > name_score("W", "WINS") > 0
    assert name_score("COUNTRY", "PLAYER_COUNTRY") > 0
    assert name_score("TEAM_ABBR", "TEAM_ABBREVIATION") > 0
    assert name_score("PTS", "AST") == 0


def test_match_fields_uses_values_and_types():
    rows = [
        {
            "date": "2024-01-02T00:00:00.000Z",
            "close": 1.5,
            "volume": 10,
            "SEASON": "2019-20",
            "who": "LeBron James",
        },
        {
            "date": "2024-01-03T00:00:00.000Z",
            "close": 2.5,
            "volume": 11,
            "SEASON": "2020-21",
            "who": "LeBron James",
        },
    ]
    plan = parse_instruction(
        "Collect all regular-season statistics of NBA player LeBron James from 2019 to 2020."
    )
    m = match_fields(["Date", "Close", "Volume", "YEAR", "PLAYER_NAME"], list(rows[0]), rows, plan)
    assert m["Date"].key == "date" and m["Date"].type == "date"
    assert m["Close"].type == "float" and m["Volume"].type == "integer"
    assert m["YEAR"].key == "SEASON" and [t.op for t in m["YEAR"].transforms] == ["regex", "integer"]
    assert m["PLAYER_NAME"].key == "who"  # no name match: the plan's player is among the values


def test_value_kinds():
    assert value_kind(["2019-20", "2020-21"]) == "season"
    assert value_kind(["2024-01-02", "2024-01-03T00:00:00Z"]) == "date"
    assert value_kind([1, 2.5]) == "float"
    assert value_kind(["12", "7"]) == "integer"
    assert value_kind([None, ""]) == "empty"
    assert value_kind(['<a href="/x">NYY</a>']) == "html"


def test_generalise_binds_ticker_dates_and_keeps_constants():
    plan = parse_instruction(
        "Collect the daily stock information of MSFT and KO between 2019-06-03 and 2019-12-31."
    )
    gr = generalise_url(
        ["http://h:1/api/daily/msft/prices?startDate=2024-01-02&endDate=2024-12-31&token=abc"], plan
    )
    assert gr.path == "/api/daily/{ticker}/prices"
    assert gr.params["ticker"].values == ["MSFT", "KO"]
    assert gr.query["token"] == "abc"
    start = next(k for k, r in gr.roles.items() if r == "start_date")
    end = next(k for k, r in gr.roles.items() if r == "end_date")
    assert gr.params[start].date == "2019-06-03" and gr.params[end].date == "2019-12-31"


def test_generalise_seasons_year_pairs_entities_and_pages():
    plan = parse_instruction(
        "Collect all regular-season hitting statistics of MLB Boston Red Sox from 2015 to 2019."
    )
    gr = generalise_url(
        ["http://h/api/data?season=2001&season1=2003&team=3,ts&pageitems=30&pagenum=1"],
        plan,
        page_size=1000,
        total_key="totalCount",
    )
    assert {gr.roles[k] for k in gr.roles} == {"start_year", "end_year"}
    assert sorted(v.values[0] for v in gr.params.values()) == [2015, 2019]
    assert gr.pagination.kind == "page" and gr.pagination.param == "pagenum"
    assert gr.query["pageitems"] == "1000" and gr.pagination.total.jsonpath == "$.totalCount"
    nba = parse_instruction("Collect all NBA regular-season team statistics of 2015.")
    g2 = generalise_url(["http://h/stats/x?Season=2023-24&Kind=Base"], nba)
    assert list(g2.params.values())[0].values == ["2015-16"] and g2.query["Kind"] == "Base"
    players = parse_instruction(
        "Collect all regular-season statistics of NBA players Joel Embiid and Tim Duncan in 2022."
    )
    g3 = generalise_url(["http://h/stats/p?PlayerID=1&Per=T", "http://h/stats/p?PlayerID=2&Per=T"], players)
    assert list(g3.params.values())[0].values == ["1", "2"]
    assert "year" not in g3.server_filters and g3.notes  # rows must be filtered to 2022


def test_year_filter_code_runs_and_keeps_only_requested_years():
    plan = parse_instruction("Collect all regular-season statistics of NBA Chicago Bulls from 1995 to 1998.")
    code = year_filter_code("YEAR", plan)
    ns: dict = {}
    exec(compile(code, "step", "exec"), ns)
    rows = [{"YEAR": "1994-95"}, {"YEAR": 1995}, {"YEAR": "1998-99"}, {"YEAR": "1999-00"}, {"YEAR": None}]
    assert ns["transform"](rows) == [{"YEAR": 1995}, {"YEAR": "1998-99"}]


def test_primary_key_is_broad_and_time_first():
    rows = [{"PTS": 1, "YEAR": 2019, "TEAM_ABBR": "LAL"}, {"PTS": 2, "YEAR": 2020, "TEAM_ABBR": "LAL"}]
    assert choose_primary_key(["PTS", "TEAM_ABBR", "YEAR"], rows, extra=["PLAYER_NAME"]) == [
        "YEAR",
        "TEAM_ABBR",
        "PLAYER_NAME",
    ]


HTML = """<html><body><table id="t"><thead><tr><th>Date</th><th>Close</th></tr></thead><tbody>
<tr><td>2024-01-02</td><td>1,234.5</td></tr><tr><td>2024-01-03</td><td>7</td></tr></tbody></table>
<div class="pagination"><a class="prev" href="?p=0">Prev</a><a class="next" href="?p=2">Next</a></div></body></html>"""


def test_html_tables_and_next_link():
    (tc,) = html_tables(HTML)
    assert tc.labels == {0: "Date", 1: "Close"} and tc.count == 2 and "@id='t'" in tc.records_xpath
    assert tc.rows[0][1] == "1,234.5"
    assert next_link_selector(HTML) == "a.next"


def _stock_spec() -> CollectorSpec:
    return CollectorSpec.model_validate(
        {
            "name": "s",
            "primary_key": ["Ticker", "Date"],
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "http://h/{ticker}"},
                    "params": {"ticker": {"values": ["AAPL"]}},
                    "fields": [
                        {"name": "Ticker", "from_param": "ticker"},
                        {"name": "Date", "jsonpath": "$.date", "type": "date"},
                        {"name": "High", "jsonpath": "$.high", "type": "float"},
                        {"name": "Low", "jsonpath": "$.low", "type": "float"},
                        {"name": "Volume", "jsonpath": "$.volume", "type": "integer"},
                    ],
                }
            ],
        }
    )


def test_validation_designs_checks_from_request():
    plan = parse_instruction(
        "Collect the daily stock information of AAPL and MSFT on 2024-03-15.", today=TODAY
    )
    cs = design_checks(plan, _stock_spec(), today=TODAY)
    kinds = {c.kind for c in cs.checks}
    assert {
        "column",
        "not_null",
        "unique",
        "compare",
        "weekdays",
        "completeness",
        "range",
        "allowed",
    } <= kinds
    comp = next(c for c in cs.checks if c.kind == "completeness")
    assert comp.keys["Ticker"].values == ["AAPL", "MSFT"]
    rng = next(c for c in cs.checks if c.kind == "range" and c.column == "Date")
    assert rng.min == rng.max == date(2024, 3, 15)


def test_stated_count_from_pages():
    plan = parse_instruction("Collect all accepted papers of NeurIPS 2017.")
    page = Page(
        url="u",
        final_url="u",
        status=200,
        cache_id="c",
        title="NeurIPS 2017 proceedings",
        text_excerpt="All 679 accepted papers of NeurIPS 2017.",
    )
    assert stated_count(Evidence(plan=plan, candidates=[page]), plan) == 679
    other = page.model_copy(update={"text_excerpt": "All 94 accepted papers of NeurIPS 1988."})
    assert stated_count(Evidence(plan=plan, candidates=[other]), plan) is None


def test_test_message_reports_each_issue():
    rep = TestReport(
        ok=False,
        rows=3,
        requests=1,
        fill_rates={"a": 0.5},
        issues=[
            Issue(kind="empty_field", source="*", field="a", message="field 'a' is empty in 50% of 3 rows")
        ],
    )
    msg = to_message(rep)
    assert msg.verdict == "fail" and msg.results[0].name == "empty_field:a" and "50%" in msg.repair_hint


def test_repair_keeps_an_uncastable_column_as_text_once():
    from prefect_autodata.agents.engineering import repair

    spec = _stock_spec()
    issue = Issue(
        kind="type_mismatch",
        source="*",
        field="Volume",
        message="column 'Volume': 2 value(s) are not integer (e.g. '1.2M')",
    )
    report = TestReport(ok=False, rows=2, requests=1, issues=[issue])
    fixed = repair(spec, report, history=[report])
    assert fixed is not None and "Volume" in fixed.rationale
    vol = next(f for f in fixed.spec.sources[0].fields if f.name == "Volume")
    assert vol.type == "string"
    # the same failure seen before: no second local repair (the manager moves to the next candidate)
    assert repair(fixed.spec, report, history=[report, report]) is None
    # failures that are not local (no records) are not repaired here
    nothing = TestReport(
        ok=False, rows=0, requests=1, issues=[Issue(kind="no_records", source="*", message="x")]
    )
    assert repair(spec, nothing, history=[nothing]) is None
