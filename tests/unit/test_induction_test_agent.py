"""The test agent's per-field findings on dry-run reports: not produced, null, type, pages, totals."""

from __future__ import annotations

from prefect_autodata.agents.test import FAILING_FINDINGS, field_findings, fields_report, tried_summary
from prefect_autodata.runtime.runner import LINEAGE_URL, DryRunReport
from prefect_autodata.runtime.spec import CollectorSpec


def _spec(fields, columns=None):
    return CollectorSpec.model_validate(
        {
            "name": "t",
            "primary_key": [fields[0]["name"]],
            "columns": columns or [{"name": f["name"]} for f in fields],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": "http://127.0.0.1:9/"},
                    "records": {"xpath": "//li"},
                    "fields": fields,
                }
            ],
        }
    )


def _rep(rows, fill):
    return DryRunReport(ok=True, rows=len(rows), requests=1, issues=[], sample=rows, fill_rates=fill)


def test_declared_column_without_rule_is_not_produced():
    spec = _spec([{"name": "title", "xpath": "./a"}], columns=[{"name": "title"}, {"name": "author"}])
    found = field_findings(spec, _rep([{"title": "x"}], {"title": 1.0, "author": 0.0}), ["title", "author"])
    assert [(i.kind, i.field) for i in found] == [("not_produced", "author")]
    # not produced fails the dry run; the ranking may still land the table when the rest measures good
    assert "not_produced" in FAILING_FINDINGS


def test_field_null_in_every_row_fails():
    spec = _spec([{"name": "title", "xpath": "./a"}, {"name": "price", "xpath": "./b"}])
    rows = [{"title": "a", "price": None}, {"title": "b", "price": None}]
    found = field_findings(spec, _rep(rows, {"title": 1.0, "price": 0.0}), ["title", "price"])
    assert [(i.kind, i.field) for i in found] == [("null_field", "price")]


def test_type_conformity_and_consistency_across_pages():
    spec = _spec([{"name": "title", "xpath": "./a"}, {"name": "price", "xpath": "./b"}])
    rows = [
        {"title": "a", "price": "Jane", LINEAGE_URL: "http://127.0.0.1:9/?p=1"},
        {"title": "b", "price": "John", LINEAGE_URL: "http://127.0.0.1:9/?p=1"},
        {"title": "c", "price": "Ann", LINEAGE_URL: "http://127.0.0.1:9/?p=1"},
        {"title": None, "price": "Bo", LINEAGE_URL: "http://127.0.0.1:9/?p=2"},
    ]
    found = field_findings(spec, _rep(rows, {"title": 0.75, "price": 1.0}), ["title", "price"])
    kinds = {(i.kind, i.field) for i in found}
    assert ("type_conformity", "price") in kinds  # a price that holds names
    assert ("inconsistent_field", "title") in kinds  # filled on page 1, empty on page 2
    # a doubtful type alone fails nothing; a price of names without a digit contradicts its name outright
    assert ("wrong_values", "price") in kinds
    assert not kinds & {(k, f) for k in FAILING_FINDINGS if k != "wrong_values" for f in ("title", "price")}


def test_fields_report_and_tried_summary():
    spec = _spec([{"name": "title", "xpath": "./a"}])
    rep = _rep([{"title": "x"}], {"title": 1.0})
    assert fields_report(spec, rep, ["title", "author"]) == {
        "title": {"rule": "xpath ./a", "fill_rate": 1.0},
        "author": {"rule": None, "fill_rate": 0.0},
    }
    text = tried_summary([(spec, rep)], ["title", "author"])
    assert "title: xpath ./a (100% filled)" in text and "author: no rule found on any source" in text
