"""Records kept in an object by a value (``{"2024-01-02": {...}, ...}``, ``{"AAPL": {...}}``): the key
is a field of each record. The walker offers it as a column named by what the keys are (dates, years,
else an id) and the runtime hands it to each record under ``@key``, so it lands."""

from __future__ import annotations

import json

from prefect_autodata.agents.engineering import match_records
from prefect_autodata.agents.induction.jsonrec import record_sets
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

DAYS = {
    "meta": {"symbol": "ZZZ"},
    "prices": {
        "2024-01-02": {"o": 10.5, "c": 11.0},
        "2024-01-03": {"o": 11.1, "c": 10.2},
        "2024-01-04": {"o": 10.0, "c": 10.9},
        "2024-01-05": {"o": 10.8, "c": 12.3},
    },
}
STOCKS = {
    "stocks": {
        "ACME": {"name": "Acme Corp", "last": 12.5},
        "BOLT": {"name": "Bolt Inc", "last": 7.25},
        "CRUX": {"name": "Crux Ltd", "last": 30.0},
    }
}


def _land(body: dict, targets: list[str]) -> list[dict]:
    rs = next(r for r in record_sets(body) if r.path.endswith(".*"))
    m = match_records(targets, rs, None)
    assert set(m) == set(targets), m
    rules = [FieldRule(name=t, jsonpath=rs.jsonpath_for(x.key)) for t, x in m.items()]
    doc = parse_document("json", json.dumps(body), "https://api.example/x")
    return extract_page(doc, rules, Selector(jsonpath=rs.path), {})


def test_a_date_key_lands_as_the_date() -> None:
    rows = _land(DAYS, ["date", "close"])
    assert [r["date"] for r in rows] == ["2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"]
    assert [r["close"] for r in rows] == [11.0, 10.2, 10.9, 12.3]


def test_another_key_lands_as_the_id() -> None:
    rows = _land(STOCKS, ["id", "name", "last"])
    assert [(r["id"], r["name"]) for r in rows] == [
        ("ACME", "Acme Corp"),
        ("BOLT", "Bolt Inc"),
        ("CRUX", "Crux Ltd"),
    ]


def test_a_record_that_names_its_own_key_keeps_it() -> None:
    body = {"items": {"a": {"@key": "own", "v": 1}, "b": {"v": 2}, "c": {"v": 3}}}
    doc = parse_document("json", json.dumps(body), "https://api.example/x")
    rows = extract_page(doc, [FieldRule(name="k", jsonpath="$['@key']")], Selector(jsonpath="$.items.*"), {})
    assert [r["k"] for r in rows] == ["own", "b", "c"]
