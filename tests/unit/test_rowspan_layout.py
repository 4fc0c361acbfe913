"""A table whose body cells span rows (a year over the singles of that year) reads, at induction and
when the spec runs, as the page shows it: the spanned value in every row it covers, each later cell
in its own column. Tables without ``rowspan`` keep their parsed tree as it was."""

from __future__ import annotations

from lxml import etree
from lxml import html as lhtml

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1/discography"

# (year, title, chart position, album); the year and the album each cover the singles of one year
SINGLES = [
    ("2009", "Paper Lanterns", "4", "Northern Lights"),
    ("2009", "Slow River", "17", "Northern Lights"),
    ("2009", "Glass Harbour", "9", "Northern Lights"),
    ("2011", "Copper Sky", "2", "Evening Trains"),
    ("2011", "Late Ferry", "31", "Evening Trains"),
    ("2013", "Salt and Cedar", "12", "Open Water"),
]


def _page() -> str:
    rows = []
    i = 0
    while i < len(SINGLES):
        year = SINGLES[i][0]
        n = sum(1 for s in SINGLES if s[0] == year)
        for k in range(n):
            _, title, pos, album = SINGLES[i + k]
            lead = (
                f"<td rowspan='{n}'>{year}</td>"
                if k == 0 and n > 1
                else (f"<td>{year}</td>" if n == 1 else "")
            )
            tail = (
                f"<td rowspan='{n}'>{album}</td>"
                if k == 0 and n > 1
                else (f"<td>{album}</td>" if n == 1 else "")
            )
            rows.append(f"<tr>{lead}<th scope='row'>{title}</th><td>{pos}</td>{tail}</tr>")
        i += n
    return (
        "<html><body><main><h1>Singles</h1><table class='wikitable'>"
        "<tr><th>Year</th><th>Title</th><th>Chart position</th><th>Album</th></tr>"
        f"{''.join(rows)}</table></main></body></html>"
    )


def test_induced_spec_reads_the_spanned_year_and_album_in_every_row_at_run_time():
    html = _page()
    built = induce_page(URL, html, ["year", "title", "chart position", "album"], name="singles")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert {"year", "title", "chart position", "album"} <= set(best.matches)
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, URL), src.fields, src.records, {})
    got = [(str(r["year"]), r["title"], str(r["chart position"]), r["album"]) for r in rows]
    assert got == SINGLES


def test_cells_are_copied_into_the_rows_they_cover_and_marked():
    html = (
        "<table><tbody><tr><td rowspan='3'>A</td><td>1</td><td rowspan='2' colspan='2'>W</td></tr>"
        "<tr><td>2</td></tr><tr><td>3</td><td>x</td><td>y</td></tr></tbody>"
        "<tbody><tr><td rowspan='0'>B</td><td>4</td></tr><tr><td>5</td></tr></tbody></table>"
    )
    root = parse(f"<html><body>{html}</body></html>")
    rows = [[c.text_content() for c in tr] for tr in root.iter("tr")]
    assert rows == [["A", "1", "W"], ["A", "2", "W"], ["A", "3", "x", "y"], ["B", "4"], ["B", "5"]]
    assert not root.xpath("//@rowspan")
    assert len(root.xpath("//td[@data-spanned]")) == 4  # the copies, not the cells they copy
    assert root.xpath("//tr[2]/td[3]/@colspan") == ["2"]


def test_a_page_without_row_spans_keeps_its_tree():
    from prefect_autodata.runtime.extract import lay_out_row_spans

    html = (
        "<html><body><table><tr><th colspan='2'>Name</th><th rowspan='1'>Age</th></tr>"
        "<tr><td>Ann</td><td>Lee</td><td>41</td></tr></table></body></html>"
    )
    before = etree.tostring(lhtml.document_fromstring(html))
    assert etree.tostring(lay_out_row_spans(lhtml.document_fromstring(html))) == before
    assert etree.tostring(parse(html)) == before
    assert etree.tostring(parse_document("html", html, URL).root) == before


def test_a_note_row_across_the_table_under_the_records_is_no_record():
    html = _page().replace(
        "</table>", "<tr><td colspan='4'>\"—\" denotes a single that did not chart.</td></tr></table>"
    )
    built = induce_page(URL, html, ["year", "title", "chart position", "album"], name="singles")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, URL), src.fields, src.records, {})
    assert [r["title"] for r in rows] == [s[1] for s in SINGLES]


def test_a_grid_cell_over_two_time_slots_is_one_record():
    from prefect_autodata.agents.induction import grid

    def talk(t: str, who: str, down: int = 1) -> str:
        span = f" rowspan='{down}'" if down > 1 else ""
        return f"<td{span}><a href='/t/{t[:4]}'>{t}</a><span>{who}</span></td>"

    html = (
        "<html><body><main><table><tr><th>Time</th><th>Room A</th><th>Room B</th></tr>"
        f"<tr><th>09:00</th>{talk('Parsing old pages', 'Ines Moro', 2)}{talk('Row spans', 'Ola Berg')}</tr>"
        f"<tr><th>09:45</th>{talk('Table models', 'Kai Lund')}</tr>"
        f"<tr><th>10:30</th>{talk('Late binding', 'Ana Ruiz')}{talk('Wrappers', 'Tom Hale')}</tr>"
        "</table></main></body></html>"
    )
    root = parse(html)
    (found,) = grid.find(root, URL)
    got = [c.xpath("string(.//a)") for c in root.xpath(found.records_xpath)]
    assert got == ["Parsing old pages", "Row spans", "Table models", "Late binding", "Wrappers"]
