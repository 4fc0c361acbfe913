"""Records over two or more sibling table rows (title row + subtext row + spacer, repeated)."""

from __future__ import annotations

from prefect_autodata.agents.induction import rowgroups
from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1:9/list"
ITEMS = [
    ("Quiet lakes of the north", 131, "ola", 12),
    ("A parser in forty lines", 88, "brenn", 40),
    ("Why my kettle has firmware", 402, "tamsin", 97),
    ("Notes on hand-bound books", 57, "ola", 3),
    ("The last fax machine in town", 219, "quill", 64),
]


def _page(items=ITEMS, spacer=True):
    rows = ""
    for i, (title, pts, user, com) in enumerate(items):
        rows += (
            f"<tr><td>{i + 1}.</td><td><a href='/story/{i}'>{title}</a></td></tr>"
            f"<tr><td colspan='2'><span>{pts} points</span> by <a href='/u/{user}'>{user}</a> | "
            f"<a href='/c/{i}'>{com} comments</a></td></tr>"
        )
        if spacer:
            rows += "<tr style='height:5px'></tr>"
    return f"<html><body><table><tr><td><table>{rows}</table></td></tr></table></body></html>"


def _rows(spec, html):
    src = spec.sources[0]
    return extract_page(parse_document("html", html, URL), src.fields, src.records, {})


def test_period_of_a_repeating_row_pattern():
    root = parse(_page())
    (g,) = rowgroups.find(root, URL)
    assert g.period == 3 and g.count == len(ITEMS)
    (g2,) = rowgroups.find(parse(_page(spacer=False)), URL)
    assert g2.period == 2 and g2.count == len(ITEMS)


def test_a_plain_table_is_no_row_group():
    rows = "".join(f"<tr><td>{t}</td><td>{p}</td></tr>" for t, p, _u, _c in ITEMS)
    assert rowgroups.find(parse(f"<html><body><table>{rows}</table></body></html>"), URL) == []


def test_each_group_is_one_record_with_fields_of_both_rows():
    html = _page()
    built = induce_page(URL, html, ["title", "points", "author"], name="news")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert set(best.matches) == {"title", "points", "author"}
    rows = _rows(best.spec, html)
    assert [r["title"] for r in rows] == [t for t, *_ in ITEMS]
    assert [r["points"] for r in rows] == [p for _, p, *_ in ITEMS]
    assert [r["author"] for r in rows] == [u for *_, u, _c in ITEMS]


def test_rewritten_rules_read_the_following_rows():
    assert rowgroups.rewrite("./tr[2]/td[1]/span", 3) == "following-sibling::tr[1]/td[1]/span"
    assert rowgroups.rewrite("./tr/td[2]/a", 2) == "self::tr/td[2]/a"
    assert (
        rowgroups.rewrite(".//a[@class='u']", 2)
        == "(. | following-sibling::tr[position() < 2])//a[@class='u']"
    )
    assert rowgroups.rewrite("./tr[4]/td", 3) is None


def test_group_headings_over_equal_groups_are_no_row_group():
    rows = ""
    for g in ("East", "West", "North", "South"):
        rows += f"<tr><td colspan='2'>{g}</td></tr>"
        rows += "".join(f"<tr><td>{g} team {k}</td><td>{k * 3}</td></tr>" for k in range(3))
    assert rowgroups.find(parse(f"<html><body><table>{rows}</table></body></html>"), URL) == []
