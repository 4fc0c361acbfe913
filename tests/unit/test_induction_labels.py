"""Label/value pairs in many layouts; each rule, run by the runtime, reads the value again."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.labels import pairs
from prefect_autodata.runtime.extract import extract_field
from prefect_autodata.runtime.spec import FieldRule

LAYOUTS = {
    "dl": "<dl><dt>Author</dt><dd>Jane <b>Doe</b></dd><dt>Price</dt><dd>£12.99</dd></dl>",
    "th-td": "<table><tr><th>Author</th><td>Jane Doe</td></tr><tr><th>Price</th><td>£12.99</td></tr></table>",
    "td-td": "<table><tr><td>Author</td><td>Jane Doe</td></tr><tr><td>Price</td><td>£12.99</td></tr></table>",
    "text": "<div class='x9'>Author: Jane Doe<br>Price: £12.99</div>",
    "p-text": "<p>Author: Jane Doe</p><p>Price: £12.99</p>",
    "bold-tail": "<ul><li><b>Author:</b> Jane Doe</li><li><strong>Price:</strong> £12.99</li></ul>",
    "spans": "<div><span>Author</span><span>Jane Doe</span></div><div><span>Price</span><span>£12.99</span></div>",
    "label-link": "<p>Author: <a href='/a/1'>Jane Doe</a></p><p><em>Price:</em> <span>£12.99</span></p>",
    "pieces": "<p><b>Author:</b> <span>Jane</span> <span>Doe</span></p><p><b>Price:</b> <span>£12</span><span>.99</span></p>",
    "icon-pieces": "<p><span aria-label='Author'>✎</span> <span>Jane</span> <span>Doe</span></p>"
    "<p><i title='Price' aria-hidden='true'>$</i> <span>£1</span><span>2.99</span></p>",
    "text-pieces": "<p>Author: <span>Jane</span> <span>Doe</span></p><p>Price: <span>£12</span><span>.99</span></p>",
    "split": "<dl><dt>Author:</dt><dd><span>Jane</span> <span>Doe</span></dd><dt>Price:</dt><dd>£<i>12</i>.99</dd></dl>",
}


def _read(root, p):
    rule = FieldRule.model_validate(
        {"name": "v", "xpath": p.xpath, "transforms": [*p.transforms, "collapse_whitespace"]}
    )
    return extract_field(root, rule, page_url="http://127.0.0.1/", params={})


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_pairs_found_and_rules_read_them_back(layout):
    html = f"<html><body><h1>Some book</h1>{LAYOUTS[layout]}<footer>Contact: shop</footer></body></html>"
    root = parse(html)
    got = {p.label: p for p in pairs(root)}
    assert "Author" in got and "Price" in got, (layout, list(got))
    assert _read(root, got["Author"]) == "Jane Doe"
    assert _read(root, got["Price"]).replace(" ", "") == "£12.99"


def test_rule_is_anchored_on_the_label_not_the_position():
    a = parse("<dl><dt>Author</dt><dd>Jane</dd><dt>Price</dt><dd>£1</dd></dl>")
    b = parse("<dl><dt>Format</dt><dd>Paperback</dd><dt>Price</dt><dd>£2</dd><dt>Author</dt><dd>Li</dd></dl>")
    rule = {p.label: p for p in pairs(a)}["Author"]
    assert _read(b, rule) == "Li"
    assert _read(parse("<dl><dt>Price</dt><dd>£3</dd></dl>"), rule) is None  # no label, no value


def test_inside_a_record_scope():
    root = parse(
        "<div><article><span>By:</span> <span>Ann</span></article><article><span>By:</span> <span>Bo</span></article></div>"
    )
    arts = root.xpath("//article")
    p = {p.label: p for p in pairs(arts[1], scope=".//")}["By"]
    assert _read(arts[1], p) == "Bo"
    assert _read(arts[0], p) == "Ann"


def test_values_and_urls_are_not_labels():
    root = parse("<p>12:30</p><p>see http://x.org/a</p><p>2019: a good year</p>")
    assert [p.label for p in pairs(root)] == []


def test_icons_standing_for_labels():
    root = parse("<p><span aria-label='Games'>☰</span> 72</p><p><i title='Author'></i><b>Jane Doe</b></p>")
    got = {p.label: p for p in pairs(root)}
    assert _read(root, got["Games"]) == "72"
    assert _read(root, got["Author"]) == "Jane Doe"
