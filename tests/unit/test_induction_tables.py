"""HTML tables: header rows, several header rows with colspan, header columns, no header, locators."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.tables import tables
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

ROWS = [
    ("France", "Paris", "68,042,591"),
    ("Peru", "Lima", "34,352,719"),
    ("Chad", "N'Djamena", "18,278,568"),
]


def _body(rows):
    return "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in rows)


def _run(html, t, col):
    doc = parse_document("html", html, "http://127.0.0.1/")
    rule = FieldRule(name="v", xpath=t.cell_xpath(col), transforms=["collapse_whitespace"])
    return [r["v"] for r in extract_page(doc, [rule], Selector(xpath=t.records_xpath), {})]


def test_thead_table_with_a_layout_table_before_it():
    html = (
        "<html><body><table><tr><td>logo</td><td>menu</td></tr></table>"
        f"<table><thead><tr><th>Country</th><th>Capital</th><th>Population</th></tr></thead><tbody>{_body(ROWS)}</tbody></table>"
        "</body></html>"
    )
    (t,) = tables(parse(html))
    assert t.labels == ["Country", "Capital", "Population"]
    assert t.rows == 3
    assert _run(html, t, 1) == ["Paris", "Lima", "N'Djamena"]
    assert "Country" in t.records_xpath or "Capital" in t.records_xpath  # found by a header label


def test_first_row_of_th_without_thead_and_row_header_cells():
    body = "".join(f"<tr><th>{a}</th><td>{b}</td><td>{c}</td></tr>" for a, b, c in ROWS)
    html = f"<table><tr><th>Name</th><th>Capital city</th><th>Inhabitants</th></tr>{body}</table>"
    (t,) = tables(parse(html))
    assert t.labels == ["Name", "Capital city", "Inhabitants"]
    assert _run(html, t, 0) == ["France", "Peru", "Chad"]
    assert _run(html, t, 2)[0] == "68,042,591"


def test_two_header_rows_with_colspan_are_merged():
    html = (
        "<table><thead><tr><th rowspan='1'>Team</th><th colspan='2'>Home</th></tr>"
        "<tr><th></th><th>Won</th><th>Lost</th></tr></thead>"
        "<tbody><tr><td>A</td><td>3</td><td>1</td></tr><tr><td>B</td><td>2</td><td>2</td></tr></tbody></table>"
    )
    (t,) = tables(parse(html))
    assert t.labels == ["Team", "Home Won", "Home Lost"]


def test_header_column_table_is_one_vertical_record():
    html = "<table><tr><th>Author</th><td>Jane</td></tr><tr><th>Price</th><td>£3</td></tr></table>"
    (t,) = tables(parse(html))
    assert t.header_column and t.labels == ["Author", "Price"]


def test_table_without_header_has_unlabelled_columns():
    html = f"<table>{_body(ROWS)}</table>"
    (t,) = tables(parse(html))
    assert t.labels == [None, None, None] and t.rows == 3
    assert _run(html, t, 0) == ["France", "Peru", "Chad"]


def test_links_in_cells_are_reported():
    body = "".join(f"<tr><td><a href='/c/{a}'>{a}</a></td><td>{b}</td></tr>" for a, b, _ in ROWS)
    (t,) = tables(parse(f"<table><tr><th>Country</th><th>Capital</th></tr>{body}</table>"))
    assert t.links[0] == ["/c/France", "/c/Peru", "/c/Chad"]
