"""Extraction rules and typed transforms on real parsed documents (lxml, JSON)."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from prefect_autodata.errors import FetchError
from prefect_autodata.runtime.extract import apply_transforms, extract_page, find_one, parse_document
from prefect_autodata.runtime.runner import cast_column
from prefect_autodata.runtime.spec import ColumnSpec, FieldRule, Selector, Transform

HTML = """<html><body><ul>
<li class="p"><a href="/paper/1.html"> Deep  Nets </a><i>Ann Lee, Bo Chen</i><span>1,234</span><em>Mar 5, 2024</em></li>
<li class="p"><a href="/paper/2.html">Graphs</a><i>Cy Dong</i><span>7</span><em>2024-03-06</em></li>
</ul><a rel="next" href="?page=2">next</a></body></html>"""


def rules(*specs):
    return [FieldRule.model_validate(s) for s in specs]


def test_css_text_attr_and_transforms():
    doc = parse_document("html", HTML, "http://h.test/list/")
    rows = extract_page(
        doc,
        rules(
            {"name": "title", "css": "a", "transforms": ["collapse_whitespace"]},
            {"name": "link", "css": "a", "attr": "href", "transforms": ["absolute_url"]},
            {"name": "authors", "css": "i", "transforms": [{"split": ","}, {"join": "; "}]},
            {"name": "n", "css": "span", "transforms": ["number"]},
            {"name": "day", "xpath": ".//em/text()", "transforms": ["parse_date"]},
        ),
        Selector(css="li.p"),
        {},
    )
    assert rows == [
        {
            "title": "Deep Nets",
            "link": "http://h.test/paper/1.html",
            "authors": "Ann Lee; Bo Chen",
            "n": 1234,
            "day": date(2024, 3, 5),
        },
        {
            "title": "Graphs",
            "link": "http://h.test/paper/2.html",
            "authors": "Cy Dong",
            "n": 7,
            "day": date(2024, 3, 6),
        },
    ]
    assert find_one(doc, Selector(css="a[rel=next]")) == "?page=2"


def test_jsonpath_nested_and_regex_and_params():
    doc = parse_document(
        "json", '{"data": {"items": [{"a": {"b": 1}, "t": "id-42"}, {"a": {"b": 2}, "t": "id-7"}]}}', "u"
    )
    rows = extract_page(
        doc,
        rules(
            {"name": "b", "jsonpath": "$.a.b"},
            {"name": "num", "jsonpath": "$.t", "transforms": [{"regex": "id-(\\d+)"}, "integer"]},
            {"name": "year", "from_param": "year"},
        ),
        Selector(jsonpath="$.data.items[*]"),
        {"year": "2024"},
    )
    assert rows == [{"b": 1, "num": 42, "year": "2024"}, {"b": 2, "num": 7, "year": "2024"}]


def test_failed_transform_marks_the_row_not_the_page():
    doc = parse_document("json", '[{"x": "12"}, {"x": "twelve"}]', "u")
    rows = extract_page(
        doc, rules({"name": "x", "jsonpath": "$.x", "transforms": ["number"]}), Selector(), {}
    )
    assert rows[0] == {"x": 12}
    assert rows[1]["x"] is None and "field 'x'" in rows[1]["_error"]


def test_map_is_strict_by_default():
    t = [Transform.model_validate({"map": {"Y": True, "N": False}})]
    assert apply_transforms("Y", t) is True
    with pytest.raises(ValueError, match="not in the map"):
        apply_transforms("maybe", t)


def test_wrong_body_type_is_a_clear_error():
    with pytest.raises(FetchError, match="expected a JSON body"):
        parse_document("json", "<html>oops</html>", "http://h.test/api")
    with pytest.raises(FetchError, match="expected an HTML page"):
        parse_document("html", '{"a": 1}', "http://h.test/page")


def test_cast_rejects_instead_of_coercing():
    s = pd.Series(["1", "2.5", "x", None, "1,000"], dtype=object)
    ints, bad = cast_column(s, ColumnSpec(name="n", type="integer"))
    assert bad.tolist() == [False, True, True, False, False]
    assert ints.iloc[4] == 1000
    days, bad = cast_column(
        pd.Series(["2024-01-02T00:00:00.000Z", "Jan 3, 2024", "nope"]), ColumnSpec(name="d", type="date")
    )
    assert [str(d.date()) if not pd.isna(d) else None for d in days] == ["2024-01-02", "2024-01-03", None]
    assert bad.tolist() == [False, False, True]
