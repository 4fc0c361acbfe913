"""JavaScript object literals in inline scripts (unquoted keys, single quotes, trailing commas,
``new Date(...)``, ``undefined``) read as the data they spell out, by the inducer and the runtime
alike; code that is no data literal (a function, a variable, an expression) is skipped whole."""

from __future__ import annotations

import pytest
from lxml import html as lhtml

from prefect_autodata.agents.induction import embedded
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.scriptjson import assignments, js_literal, page_json

STATE = """
  // rendered by the server
  window.__INITIAL_STATE__ = {
    listing: {
      total: 3,
      rows: [
        {sku: 'A-1', label: 'Oak desk', cost: 249.5, added: new Date("2021-03-04"), note: undefined,},
        {sku: 'B-2', label: "Pine 'Nordic' shelf", cost: 89, added: new Date('2020-11-30'), note: null},
        /* a discontinued line */
        {sku: 'C-3', label: `Birch stool`, cost: 35, added: new Date("2019-01-15"), note: 'last ones'},
      ],
    },
    flags: {beta: !0, legacy: !1},
  };
"""


def test_a_js_object_literal_is_read_as_its_data() -> None:
    got = assignments(STATE)["__INITIAL_STATE__"]
    rows = got["listing"]["rows"]
    assert [r["sku"] for r in rows] == ["A-1", "B-2", "C-3"]
    assert rows[1]["label"] == "Pine 'Nordic' shelf" and rows[2]["label"] == "Birch stool"
    assert [r["added"] for r in rows] == ["2021-03-04", "2020-11-30", "2019-01-15"]
    assert rows[0]["note"] is None and rows[2]["note"] == "last ones"
    assert rows[0]["cost"] == 249.5 and rows[1]["cost"] == 89
    assert got["flags"] == {"beta": True, "legacy": False}


@pytest.mark.parametrize(
    "code",
    [
        "var cfg = {onLoad: function () { return 1; }};",
        "var cfg = {rows: someVariable};",
        "var cfg = {rows: [1, 2], total: rows.length};",
        "var n = {a: 1}.a;",
        "var t = {a: `x ${y}`};",
        "var m = {render() { return 1; }};",
    ],
)
def test_code_that_is_no_data_literal_is_skipped(code: str) -> None:
    # the literal after it is still read: one skipped assignment does not stop the reader
    assert assignments(code + "\nvar ok = {a: 'x'};") == {"ok": {"a": "x"}}


def test_js_literal_reports_where_it_ends() -> None:
    value, end = js_literal("[1, 'two', {three: 3,},] tail", 0)
    assert value == [1, "two", {"three": 3}]
    assert end == len("[1, 'two', {three: 3,},]")
    with pytest.raises(ValueError):
        js_literal("{a: b}", 0)


def test_the_inducer_and_the_runtime_read_a_js_literal_state_the_same_way() -> None:
    page = f"<html><body><div id='app'></div><script>{STATE}</script></body></html>"
    root = lhtml.document_fromstring(page)
    assert page_json(root)["__INITIAL_STATE__"]["listing"]["total"] == 3
    built = embedded.induce_page("https://shop.example/", root, ["label", "cost", "added"], name="t")
    assert built, "no spec from a JS object literal state"
    best = max(built, key=lambda b: len(b.matches))
    assert set(best.matches) == {"label", "cost", "added"}
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", page, "https://shop.example/"), src.fields, src.records, {})
    assert [r["label"] for r in rows] == ["Oak desk", "Pine 'Nordic' shelf", "Birch stool"]
    assert [str(r["added"])[:10] for r in rows] == ["2021-03-04", "2020-11-30", "2019-01-15"]
