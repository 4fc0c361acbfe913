"""Rows of a table that are not records: rows of another shape among the records (a cell across
several columns: a dividend or a split between trading days) and the header shown again inside a long
table; and cells read as shown, without footnote marks and hidden text. The sample values and what the
spec's XPath reads at run time agree."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.tables import tables
from prefect_autodata.runtime.extract import extract_field, parse_document
from prefect_autodata.runtime.spec import FieldRule

DAYS = [
    ("Mar 14, 2014", "27.62", "27.95", "1,184,300"),
    ("Mar 13, 2014", "28.10", "28.24", "1,460,200"),
    ("Mar 12, 2014", "27.85", "28.31", "982,700"),
    ("Mar 10, 2014", "28.05", "28.66", "2,310,400"),
    ("Mar 7, 2014", "41.90", "42.35", "874,100"),
    ("Mar 4, 2014", "39.95", "41.02", "1,388,500"),
    ("Mar 3, 2014", "40.72", "40.80", "1,655,000"),
]


def _day(d: tuple[str, ...]) -> str:
    return "<tr>" + "".join(f"<td>{x}</td>" for x in d) + "</tr>"


def _event(date: str, what: str) -> str:
    return f"<tr><td>{date}</td><td colspan='3'>{what}</td></tr>"


def _prices() -> str:
    rows = [_day(d) for d in DAYS[:4]] + [_event("Mar 10, 2014", "3:2 Stock Split")]
    rows += [_day(DAYS[4]), _event("Mar 4, 2014", "0.135 Dividend"), *(_day(d) for d in DAYS[5:])]
    rows.append("<tr><td colspan='4'>* Close price adjusted for dividends and splits.</td></tr>")
    head = "<tr><th>Date</th><th>Open</th><th>High</th><th>Volume</th></tr>"
    return f"<html><body><main><table>{head}{''.join(rows)}</table></main></body></html>"


def _run(html: str, records: str, xpath: str) -> list[str]:
    doc = parse_document("html", html, "https://x.example/")
    rule = FieldRule(name="v", xpath=xpath)
    return [extract_field(n, rule, page_url="", params={}) for n in doc.root.xpath(records)]


def test_rows_of_another_shape_between_the_records_are_no_records():
    html = _prices()
    (t,) = tables(parse(html))
    assert t.labels == ["Date", "Open", "High", "Volume"]
    assert t.columns[0] == [d[0] for d in DAYS]  # each trading day once
    assert t.columns[1] == [d[1] for d in DAYS]  # no empty price of a dividend row
    assert _run(html, t.records_xpath, t.cell_xpath(0)) == [d[0] for d in DAYS]
    assert _run(html, t.records_xpath, t.cell_xpath(3)) == [d[3] for d in DAYS]


def test_records_that_span_columns_themselves_stay_records():
    # most rows span (a merged cell is how these records are laid out): no row of "another" shape
    rows = "".join(
        f"<tr><td>{d[0]}</td><td colspan='2'>{d[1]}</td><td>{d[3]}</td></tr>" for d in DAYS[:4]
    ) + _day(DAYS[4])
    html = (
        "<html><body><main><table><tr><th>Date</th><th colspan='2'>Open</th><th>Volume</th></tr>"
        f"{rows}</table></main></body></html>"
    )
    (t,) = tables(parse(html))
    assert t.columns[0] == [d[0] for d in DAYS[:5]]
    assert len(_run(html, t.records_xpath, t.cell_xpath(0))) == 5


def _seasons(again: str) -> str:
    rows = [f"<tr><td>{2000 + i}-{i + 1:02d}</td><td>{20 + i}</td><td>{50 + i}</td></tr>" for i in range(12)]
    rows.insert(10, again)
    return (
        "<html><body><main><table><thead><tr><th>Season</th><th>Age</th><th>G</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></main></body></html>"
    )


def test_the_header_repeated_inside_a_long_table_is_no_record():
    for again in (
        "<tr class='thead'><th>Season</th><th>Age</th><th>G</th></tr>",
        "<tr><td>Season</td><td>Age</td><td>G</td></tr>",
    ):
        html = _seasons(again)
        (t,) = tables(parse(html))
        assert t.rows == 12 and "Age" not in t.columns[1]
        assert t.columns[1] == [str(20 + i) for i in range(12)]
        assert _run(html, t.records_xpath, t.cell_xpath(1)) == [str(20 + i) for i in range(12)]


PEAKS = [("Qullai Zarak", "7,128", "1959"), ("Pik Osmod", "7,011", "1962"), ("Ak-Tash Dome", "6,954", "1974")]


def _peaks() -> str:
    rows = "".join(
        f"<tr><td>{n}</td><td><span style='display:none'>70{h.replace(',', '')}000000000&#9824;</span>"
        f"{h}&#160;m<sup class='reference'><a href='#cite_note-{k}'>[{k}]</a></sup></td>"
        f"<td>{y}<sup><a href='#cite_note-{k}'>[{k}]</a></sup></td>"
        f"<td>{y[:2]}<sup>2</sup></td></tr>"
        for k, (n, h, y) in enumerate(PEAKS)
    )
    head = "<tr><th>Mountain</th><th>Height</th><th>First ascent</th><th>Area</th></tr>"
    return f"<html><body><main><table>{head}{rows}</table></main></body></html>"


def test_a_column_is_read_as_shown_without_footnote_marks_and_hidden_text():
    from prefect_autodata.agents.induction.assemble import _table_candidates
    from prefect_autodata.agents.induction.tables import with_parts

    html = _peaks()
    (t,) = tables(parse(html))
    cands = with_parts(t, _table_candidates(t))
    by = {c.label: c for c in cands if c.label}
    assert by["Height"].values == [f"{h} m" for _, h, _ in PEAKS]  # no sort key, no [n]
    assert by["First ascent"].values == [y for _, _, y in PEAKS]
    assert by["Area"].values == [f"{y[:2]}2" for _, _, y in PEAKS]  # an exponent is no footnote mark
    doc = parse_document("html", html, "https://x.example/")
    rule = FieldRule(name="v", **by["Height"].rule)
    got = [extract_field(n, rule, page_url="", params={}) for n in doc.root.xpath(t.records_xpath)]
    assert got == [f"{h} m" for _, h, _ in PEAKS]


def test_pieces_the_runtime_would_join_otherwise_than_shown_keep_the_whole_cell():
    from prefect_autodata.agents.induction.assemble import _table_candidates
    from prefect_autodata.agents.induction.tables import with_parts

    rows = "".join(
        f"<tr><td>{n}</td><td><span>PG</span><span>-1{k}</span><sup><a href='#n{k}'>[{k}]</a></sup></td></tr>"
        for k, n in enumerate(["Alpha", "Bravo", "Charlie"])
    )
    html = (
        f"<html><body><main><table><tr><th>Title</th><th>Rating</th></tr>{rows}</table></main></body></html>"
    )
    (t,) = tables(parse(html))
    by = {c.label: c for c in with_parts(t, _table_candidates(t)) if c.label}
    assert by["Rating"].rule["xpath"] == t.cell_xpath(1)  # "PG -10" is not what the page shows
