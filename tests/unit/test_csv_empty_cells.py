"""A CSV's empty cell is a missing value: it must not reject the row when the column is typed."""

from __future__ import annotations

from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

CSV = "ID,YEAR,NOTE\nA-1,2004,\nA-2,,unknown year\n"


def test_an_empty_csv_cell_reads_none_and_keeps_the_row():
    doc = parse_document("csv", CSV, "http://h.test/data.csv")
    rules = [
        FieldRule.model_validate({"name": "id", "jsonpath": "$['ID']", "transforms": ["strip"]}),
        FieldRule.model_validate(
            {"name": "year", "jsonpath": "$['YEAR']", "transforms": ["strip", "integer"]}
        ),
        FieldRule.model_validate({"name": "note", "jsonpath": "$['NOTE']", "transforms": ["strip"]}),
    ]
    rows = extract_page(doc, rules, Selector(), {})
    assert [r.get("_error") for r in rows] == [None, None]
    assert [(r["id"], r["year"], r["note"]) for r in rows] == [
        ("A-1", 2004, None),
        ("A-2", None, "unknown year"),
    ]
