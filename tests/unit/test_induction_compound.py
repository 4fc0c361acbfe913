"""Record structure in tables: one record set split over tables of one header, and cells printing
several values (``<br>`` lines, a rank and a year around a title, bar-separated pieces)."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import _table_candidates
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.tables import tables, with_parts
from prefect_autodata.agents.offline.induction import html_tables
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

HEAD = "<tr><th>Club</th><th>W</th><th>L</th></tr>"


def _division(name, rows):
    body = "".join(
        f"<tr><td><a href='/c/{c}'>{c}</a></td><td>{w}</td><td>{lo}</td></tr>" for c, w, lo in rows
    )
    return f"<div class='block'><h4>{name}</h4><table class='grid'>{HEAD}{body}</table></div>"


EAST = [("Ashford", 10, 2), ("Brill", 7, 5), ("Carrow", 3, 9)]
WEST = [("Dunmere", 9, 3), ("Elston", 6, 6), ("Fennick", 2, 10)]


def _read(html, records_xpath, rules):
    doc = parse_document("html", html, "http://127.0.0.1/")
    return extract_page(doc, rules, Selector(xpath=records_xpath), {})


def test_tables_of_one_header_are_one_record_set():
    html = f"<html><body><h1>Standings</h1>{_division('East', EAST)}{_division('West', WEST)}</body></html>"
    (t,) = tables(parse(html))
    assert t.rows == 6 and t.labels == ["Club", "W", "L"]
    rule = FieldRule(name="club", xpath=t.cell_xpath(0), transforms=["collapse_whitespace"])
    assert [r["club"] for r in _read(html, t.records_xpath, [rule])] == [c for c, _, _ in EAST + WEST]
    # a table repeating rows of another (a "top 2" above the full list) stays apart
    html = f"<html><body>{_division('Top', EAST[:2])}{_division('All', EAST + WEST)}</body></html>"
    assert sorted(t.rows for t in tables(parse(html))) == [2, 6]


def test_the_header_table_reader_joins_tables_of_one_header_too():
    html = f"<html><body>{_division('East', EAST)}{_division('West', WEST)}</body></html>"
    (tc,) = html_tables(html)
    assert tc.count == 6
    rule = FieldRule(name="w", xpath=tc.field_xpath(1), transforms=["strip"])
    assert [r["w"] for r in _read(html, tc.records_xpath, [rule])] == ["10", "7", "3", "9", "6", "2"]


HOSPITALS = [
    ("St. Aldric Memorial", "1200 Larkspur Ave., Dunmore, OH 43012", "(740) 555-0142"),
    ("Riverside General", "45 Mill Street, Harlan Falls, OH 43220", "(614) 555-0199"),
    ("Mercy Valley Center", "880 Route 9 North, Pell City, OH 44101", "(216) 555-0177"),
]


def _lines_page():
    rows = "".join(
        f"<tr><td><img src='b.gif'></td><td><font><b><a href='h?id={i}'>{n}</a></b><br>\n{a}<br>\nPhone: {p}</font></td></tr>"
        "<tr><td colspan='2'><img src='spacer.gif'></td></tr>"
        for i, (n, a, p) in enumerate(HOSPITALS)
    )
    return f"<html><body><table>{rows}</table></body></html>"


def test_lines_of_one_cell_are_fields_and_spacer_rows_no_records():
    html = _lines_page()
    (t,) = tables(parse(html))
    assert t.rows == 3
    m = assign(["name", "address", "phone"], with_parts(t, _table_candidates(t)), entity="hospital")
    assert set(m) == {"name", "address", "phone"}
    rules = [FieldRule(name=r, **x.candidate.rule) for r, x in m.items()]
    got = _read(html, t.records_xpath, rules)
    assert [(r["name"], r["address"], r["phone"]) for r in got] == HOSPITALS


def test_rank_and_year_around_a_title_are_pieces_and_the_label_names_the_title():
    films = [
        ("The Glass Orchard", 1994, 9.2),
        ("Nightfall over Kessel", 1972, 9.1),
        ("Paper Moon", 2008, 9.0),
    ]
    rows = "".join(
        f"<tr><td>\n {k}.\n <a href='/t/{k}'>{f}</a>\n <span>({y})</span></td><td>{r}</td></tr>"
        for k, (f, y, r) in enumerate(films, start=1)
    )
    html = f"<table><thead><tr><th>Rank &amp; Title</th><th>Rating</th></tr></thead><tbody>{rows}</tbody></table>"
    (t,) = tables(parse(html))
    cands = with_parts(t, _table_candidates(t))
    m = assign(["title", "rating"], cands)
    assert m["title"].candidate.values == [f for f, _, _ in films]
    pieces = {tuple(c.values) for c in cands}
    assert ("1", "2", "3") in pieces and ("1994", "1972", "2008") in pieces
    rules = [FieldRule(name=r, **x.candidate.rule) for r, x in m.items()]
    assert [r["title"] for r in _read(html, t.records_xpath, rules)] == [f for f, _, _ in films]


def test_bar_separated_pieces_of_a_cell_are_candidates():
    rows = "".join(
        f"<tr><td>{a}</td><td>{b} bd | {c} ba | {d} sqft</td></tr>"
        for a, b, c, d in [
            ("12 Elm St", 3, 2, "1,450"),
            ("4 Oak Rd", 2, 1, "980"),
            ("9 Pine Ct", 4, 3, "2,100"),
        ]
    )
    html = f"<table><tr><th>Address</th><th>Details</th></tr>{rows}</table>"
    (t,) = tables(parse(html))
    cands = with_parts(t, _table_candidates(t))
    pieces = {tuple(c.values) for c in cands}
    assert ("3 bd", "2 bd", "4 bd") in pieces and ("1,450 sqft", "980 sqft", "2,100 sqft") in pieces


def test_a_bare_leading_number_is_no_rank_piece():
    rows = "".join(
        f"<tr><td>{a}</td><td>{p}</td></tr>"
        for a, p in [("12 Elm St", "$389,900"), ("4 Oak Rd", "$224,500"), ("9 Pine Ct", "$615,000")]
    )
    html = f"<table><tr><th>Address</th><th>Price</th></tr>{rows}</table>"
    (t,) = tables(parse(html))
    assert ("12", "4", "9") not in {tuple(c.values) for c in with_parts(t, _table_candidates(t))}
