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
    assert t.labels == ["Team", "Won", "Lost"]  # the lowest row names the column
    assert t.aliases == {1: ["Home Won"], 2: ["Home Lost"]}  # the group above it is a further name


def test_a_group_header_row_does_not_hide_the_column_label_from_the_matcher():
    from prefect_autodata.agents.induction.assemble import _table_candidates
    from prefect_autodata.agents.induction.matching import assign

    html = (
        "<table><tr><th colspan='2'>Job posting</th><th>Details</th></tr>"
        "<tr><th>position</th><th>location</th><th>listed on</th></tr>"
        "<tr><td>Analyst</td><td>Denver, CO</td><td>Posted: December 2, 2010</td></tr>"
        "<tr><td>Engineer</td><td>Eagan, MN</td><td>Posted: December 3, 2010</td></tr>"
        "<tr><td>Developer</td><td>Tucson, AZ</td><td>Posted: December 5, 2010</td></tr></table>"
    )
    (t,) = tables(parse(html))
    m = assign(["title", "location", "date_posted"], _table_candidates(t))
    assert {r: x.candidate.label for r, x in m.items()} == {
        "title": "position",
        "location": "location",
        "date_posted": "listed on",
    }


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


def _extract(html, t, cols):
    doc = parse_document("html", html, "http://127.0.0.1/")
    rules = [FieldRule(name=f"c{i}", xpath=t.cell_xpath(i), transforms=["collapse_whitespace"]) for i in cols]
    return extract_page(doc, rules, Selector(xpath=t.records_xpath), {})


def test_cells_split_into_spans_read_as_the_page_shows_them():
    rows = [
        "<tr><td><span>Legal</span> <span>Eagles</span></td><td><span>PG</span><span>-13</span></td></tr>",
        "<tr><td><span>X-</span><span>Men</span></td><td>R</td></tr>",
        "<tr><td>Old<br>Glory</td><td>PG</td></tr>",
    ]
    html = f"<main><table><tr><th>Title</th><th>Rating</th></tr>{''.join(rows)}</table></main>"
    (t,) = tables(parse(html))
    assert t.columns == [["Legal Eagles", "X-Men", "Old Glory"], ["PG-13", "R", "PG"]]
    got = _extract(html, t, [0, 1])
    assert [(r["c0"], r["c1"]) for r in got] == [
        ("Legal Eagles", "PG-13"),
        ("X-Men", "R"),
        ("Old Glory", "PG"),
    ]


def test_a_featured_copy_in_an_aside_gives_way_to_the_content_table():
    head = "<tr><th>Country</th><th>Capital</th></tr>"
    aside = f"<aside><h2>Featured</h2><table>{head}<tr><td>Peru</td><td>Lima</td></tr><tr><td>Chad</td><td>X</td></tr></table></aside>"
    main = f"<main><table>{head}{''.join(f'<tr><td>{a}</td><td>{b}</td></tr>' for a, b, _ in ROWS)}</table></main>"
    html = f"<html><body>{aside}{main}</body></html>"
    (t,) = tables(parse(html))
    assert t.columns[0] == ["France", "Peru", "Chad"]
    assert [r["c0"] for r in _extract(html, t, [0])] == ["France", "Peru", "Chad"]


def test_legacy_layout_table_with_a_bold_td_header_row():
    data = "".join(
        f"<TR><TD><FONT SIZE=2>&nbsp;{a}&nbsp;</FONT><TD><FONT SIZE=2>{b}</FONT><TD>{c}" for a, b, c in ROWS
    )
    inner = f"<TABLE BORDER=1><TR BGCOLOR=#EEEEEE><TD><B>Land</B><TD><B>Hauptstadt</B><TD><B>Einwohner</B>{data}</TABLE>"
    html = (
        "<HTML><BODY><TABLE WIDTH=760><TR><TD COLSPAN=2><H2>Site</H2>"
        f"<TR><TD><A HREF='/a'>About</A><BR><A HREF='/b'>Home</A><TD>{inner}</TABLE></BODY></HTML>"
    )
    (t,) = tables(parse(html))  # the layout table is not a record set
    assert t.labels == ["Land", "Hauptstadt", "Einwohner"] and t.rows == 3
    got = _extract(html, t, [0, 1, 2])
    assert [r["c0"] for r in got] == ["France", "Peru", "Chad"]  # the header row is not a record
    assert got[2]["c2"] == "18,278,568"


def _transposed_html(corner: bool) -> str:
    recs = [("Ana", "1990", "$5"), ("Ben", "1985", "$7"), ("Cy", "2001", "$9")]
    rows = [
        f"<tr><th scope='row'>{lab}</th>" + "".join(f"<td>{r[k]}</td>" for r in recs) + "</tr>"
        for k, lab in enumerate(["Name", "Born", "Fee"])
    ]
    if corner:
        rows.insert(0, "<tr><th></th>" + "".join(f"<th>#{i + 1}</th>" for i in range(3)) + "</tr>")
    return f"<html><body><main><table>{''.join(rows)}</table></main></body></html>"


def test_transposed_table_is_one_record_per_column():
    for corner in (False, True):
        html = _transposed_html(corner)
        (t,) = tables(parse(html))
        assert t.transposed and t.labels == ["Name", "Born", "Fee"] and t.rows == 3
        assert t.columns[1] == ["1990", "1985", "2001"]
        got = _extract(html, t, [0, 1, 2])
        assert [(r["c0"], r["c1"], r["c2"]) for r in got] == [
            ("Ana", "1990", "$5"),
            ("Ben", "1985", "$7"),
            ("Cy", "2001", "$9"),
        ], corner


def test_rows_led_by_a_name_cell_are_records_not_a_transposed_table():
    body = "".join(f"<tr><th>{a}</th><td>{b}</td><td>{c}</td></tr>" for a, b, c in ROWS)
    (t,) = tables(parse(f"<table>{body}</table>"))
    assert not t.transposed and t.rows == 3 and t.columns[2][0] == "68,042,591"


def _seasons_page(n: int) -> str:
    teams = [f"T{chr(65 + i)}{chr(70 + i)}" for i in range(n)]
    cols = "".join(f"<td>{t}</td>" for t in teams)
    years = "".join(f"<td>{1990 + i % 3}</td>" for i in range(n))
    wins = "".join(f"<td>{60 + 3 * i}</td>" for i in range(n))
    return (
        "<html><body><main><table><tr><th>Club</th>"
        f"{cols}</tr><tr><th>Year</th>{years}</tr><tr><th>Wins</th>{wins}</tr></table></main></body></html>"
    )


def test_a_name_unique_on_one_short_page_is_not_the_key_a_longer_sample_makes_it_one():
    """Six distinct clubs on page 1 say little (page 2 repeats them): the key is the whole record."""
    from prefect_autodata.agents.induction.assemble import induce_page

    fields = ["club", "year", "wins"]
    (short,) = induce_page("http://127.0.0.1:9/t", _seasons_page(6), fields, name="t")
    assert short.spec.sources[0].records.xpath.endswith("/*[position()>1]")  # one record per column
    assert short.spec.primary_key == fields
    (long,) = induce_page("http://127.0.0.1:9/t", _seasons_page(12), fields, name="t")
    assert long.spec.primary_key == ["club"]


def test_a_name_unique_on_one_page_of_a_paged_listing_is_not_the_key():
    """Twelve distinct clubs on page 1 of a paged listing: page 2 repeats them, so no name key."""
    from prefect_autodata.agents.induction.assemble import induce_page

    fields = ["club", "year", "wins"]
    html = _seasons_page(12).replace("</main>", "<p><a href='/t?page=2'>Next &gt;&gt;</a></p></main>")
    (paged,) = induce_page("http://127.0.0.1:9/t", html, fields, name="t")
    assert paged.spec.sources[0].pagination is not None
    assert paged.spec.primary_key == fields


def test_a_layout_table_of_banner_navigation_and_content_cells_is_no_record_set():
    """The page shell of an older site: a title row (a heading), a navigation cell, a content cell."""
    shell = (
        "<table width=760><tr><td colspan=2><h2>Old Site</h2></td></tr>"
        "<tr><td><a href='/a'>About</a><br><a href='/c'>Contact</a><hr><small>Visitors: 01234</small></td>"
        "<td><p>Browse: <a href='?l=a'>A</a> | <a href='?l=b'>B</a></p></td></tr></table>"
    )
    assert tables(parse(f"<html><body>{shell}</body></html>")) == []


def _population_table(last: str, tfoot: str = "") -> str:
    rows = [("Avaria", "1,000"), ("Belmor", "2,500"), ("Corvin", "500"), ("Dunmere", "4,200")]
    body = "".join(f"<tr><td>{a}</td><td>{b}</td><td>2020</td></tr>" for a, b in rows)
    return (
        "<html><body><table><tr><th>Country</th><th>Population</th><th>Year</th></tr>"
        f"{body}{last}{tfoot}</table></body></html>"
    )


def test_a_totals_row_is_not_a_record_by_sum_by_word_or_by_being_unlike_the_rows():
    by_sum = "<tr><td>Everyone</td><td>8,200</td><td>2020</td></tr>"
    by_word = "<tr><td>Total</td><td>9,999</td><td>2020</td></tr>"
    unlike = "<tr class='bottom'><td><b>Earth</b></td><td><b>7,000</b></td><td></td></tr>"
    for last in (by_sum, by_word, unlike):
        html = _population_table(last)
        (t,) = tables(parse(html))
        assert t.rows == 4 and t.columns[0] == ["Avaria", "Belmor", "Corvin", "Dunmere"], last
        assert _run(html, t, 0) == t.columns[0]
    html = _population_table("", "<tfoot><tr><td>All</td><td>8,200</td><td></td></tr></tfoot>")
    (t,) = tables(parse(html))
    assert t.rows == 4 and _run(html, t, 0) == t.columns[0]


def test_a_last_row_like_the_others_stays_a_record():
    html = _population_table("<tr><td>Esker</td><td>7,000</td><td>2020</td></tr>")
    (t,) = tables(parse(html))
    assert t.rows == 5 and t.columns[0][-1] == "Esker"


def test_a_row_of_names_over_numbers_in_a_transposed_table_is_its_first_field_not_a_header():
    players = [
        ("Andy Phillip", 168, 67),
        ("Forest Able", 1, 1),
        ("Ed Kalafat", 105, 65),
        ("Ken Sears", 126, 72),
    ]
    head = "<tr><th></th>" + "".join(f"<th>#{k}</th>" for k in range(1, 5)) + "</tr>"
    rows = [
        ("Name", [p[0] for p in players]),
        ("AST", [p[1] for p in players]),
        ("Games", [p[2] for p in players]),
    ]
    body = "".join(
        f"<tr><th scope='row'>{lab}</th>" + "".join(f"<td>{v}</td>" for v in vs) + "</tr>" for lab, vs in rows
    )
    (t,) = tables(parse(f"<html><body><main><table>{head}{body}</table></main></body></html>"))
    assert t.transposed and t.labels == ["Name", "AST", "Games"] and t.rows == 4
