"""Records grouped under headings: the heading value is carried down as a candidate of every record."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.sections import groups
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

GROUPS = {
    "1956": [("Hawks", "34"), ("Celtics", "44")],
    "1957": [("Knicks", "36"), ("Kings", "31"), ("Suns", "20")],
}


def _read(html, g, idx):
    doc = parse_document("html", html, "http://127.0.0.1/")
    rules = [FieldRule.model_validate({"name": f"c{i}", **g.candidates[i].rule}) for i in idx]
    return extract_page(doc, rules, Selector(xpath=g.records_xpath), {})


def _tables_html(label: str = "") -> str:
    parts = []
    for season, rows in GROUPS.items():
        body = "".join(
            f"<tr><td>{t}</td><td><span>{w[0]}</span><span>{w[1]}</span></td></tr>" for t, w in rows
        )
        parts.append(f"<h3>{label}{season}</h3><table><tr><th>Team</th><th>Won</th></tr>{body}</table>")
    return f"<html><body><main><h1>Seasons</h1><div>{''.join(parts)}</div></main></body></html>"


def test_tables_under_headings_are_one_record_set_with_the_heading_as_a_field():
    html = _tables_html()
    (g,) = groups(parse(html))
    assert g.rows == 5 and g.heading == "h3"
    head = g.candidates[-1]
    assert head.label is None and head.values == ["1956", "1956", "1957", "1957", "1957"]
    got = _read(html, g, [0, 1, 2])
    assert [(r["c0"], r["c1"], r["c2"]) for r in got] == [
        ("Hawks", "34", "1956"),
        ("Celtics", "44", "1956"),
        ("Knicks", "36", "1957"),
        ("Kings", "31", "1957"),
        ("Suns", "20", "1957"),
    ]


def test_labelled_heading_gives_its_label_and_keeps_the_value():
    html = _tables_html("Season: ")
    (g,) = groups(parse(html))
    head = g.candidates[-1]
    assert head.label == "Season" and head.values[0] == "1956"
    assert [r["c2"] for r in _read(html, g, [0, 1, len(g.candidates) - 1])][-1] == "1957"


def test_list_items_under_headings():
    parts = []
    for season, rows in GROUPS.items():
        items = "".join(
            f"<li><span><em>Team</em> <span>{t}</span></span> <span><em>Won</em> <span>{w}</span></span></li>"
            for t, w in rows
        )
        parts.append(f"<h2>{season}</h2><ul>{items}</ul>")
    html = f"<html><body><main><div>{''.join(parts)}</div></main></body></html>"
    (g,) = groups(parse(html))
    assert g.rows == 5
    head = g.candidates[-1]
    assert [
        r["h"]
        for r in extract_page(
            parse_document("html", html, "http://127.0.0.1/"),
            [FieldRule.model_validate({"name": "h", **head.rule})],
            Selector(xpath=g.records_xpath),
            {},
        )
    ] == ["1956", "1956", "1957", "1957", "1957"]
    assert any("Knicks" in (c.values or []) for c in g.candidates)


def test_one_heading_over_one_table_is_not_a_group():
    html = "<html><body><div><h2>Countries</h2><table><tr><th>A</th></tr><tr><td>x</td></tr><tr><td>y</td></tr></table></div></body></html>"
    assert groups(parse(html)) == []


def test_bare_headings_take_the_label_the_page_groups_by():
    html = _tables_html().replace(
        "<html><body>", "<html><head><title>Teams by season — Site</title></head><body>"
    )
    (g,) = groups(parse(html))
    assert g.candidates[-1].label == "season"
    letters = html.replace("<h3>1956</h3>", "<h3>A</h3>").replace("<h3>1957</h3>", "<h3>B</h3>")
    (g,) = groups(parse(letters))
    assert g.candidates[-1].label is None  # a letter index is not a field


def test_a_group_of_one_record_is_part_of_the_set():
    html = _tables_html().replace("<tr><td>Celtics</td><td><span>4</span><span>4</span></td></tr>", "")
    (g,) = groups(parse(html))
    assert g.rows == 4 and g.candidates[-1].values[0] == "1956" and g.candidates[-1].values[1] == "1957"


def test_one_group_is_a_group_when_the_page_says_what_it_groups_by():
    """Page 1 of "Papers by year" shows one year only: its heading is still every record's year."""
    one = {"1956": GROUPS["1956"] + [("Lakers", "19")]}
    parts = "".join(
        f"<h3>{k}</h3><table><tr><th>Team</th><th>Won</th></tr>"
        + "".join(f"<tr><td>{t}</td><td>{w}</td></tr>" for t, w in rows)
        + "</table>"
        for k, rows in one.items()
    )
    body = f"<body><main><h1>Seasons</h1><div>{parts}</div></main></body></html>"
    (g,) = groups(parse(f"<html><head><title>Teams by season — Site</title></head>{body}"))
    assert g.rows == 3 and g.candidates[-1].label == "season"
    assert [r["c2"] for r in _read(f"<html>{body}", g, [0, 1, 2])] == ["1956"] * 3
    assert groups(parse(f"<html><head><title>Teams — Site</title></head>{body}")) == []


def test_a_group_count_in_the_heading_is_cut_off_and_a_remark_heading_is_no_value():
    """Trac-style query groups: "Milestone: 0.9.2 (2 matches)" gives 0.9.2; "(none)" gives no value."""
    html = _tables_html("Milestone: ").replace(
        "<h3>Milestone: 1956</h3>", "<h3>Milestone: 0.9.2 (2 matches)</h3>"
    )
    html = html.replace("<h3>Milestone: 1957</h3>", "<h3>Milestone:\n (none) <span>(3 matches)</span></h3>")
    (g,) = groups(parse(html))
    head = g.candidates[-1]
    assert head.label == "Milestone" and head.values == ["0.9.2", "0.9.2", None, None, None]
    assert [r["c2"] for r in _read(html, g, [0, 1, len(g.candidates) - 1])] == [
        "0.9.2",
        "0.9.2",
        None,
        None,
        None,
    ]
