"""Records as plain text lines: separator found from the lines, header line as labels, runtime read."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.textlines import blocks, candidates, find_separator
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

LINES = [
    ("Jaleo", "202/628-7949", "480 7th St. NW, Washington, D.C. 20004", "Spanish"),
    ("The Lifesaving Station", "800/701-4111, 252/261-4111", "1461 Duck Rd, Duck, NC", "Coastal, Seafood"),
    ("Mrs. Willis' Restaurant", "252/726-3741", "114 Bridges St, Morehead City", "Southern"),
    ("Kazu", "203/866-7492", "64 North Main St, Norwalk, CT", "Japanese"),
]


def _read(html, block):
    doc = parse_document("html", html, "http://127.0.0.1/")
    rules = [FieldRule.model_validate({"name": f"c{k}", **c.rule}) for k, c in enumerate(candidates(block))]
    return extract_page(doc, rules, Selector(xpath=block.records_xpath), {})


def test_separator_repeats_equally_on_every_line_commas_in_values_do_not():
    lines = [" · ".join(r) for r in LINES]
    assert find_separator(lines) == "·"
    assert find_separator([" | ".join(r) for r in LINES]) == "|"
    assert find_separator(["\t".join(r) for r in LINES]) == "\t"
    assert find_separator(["no separator here", "nor here", "nor there"]) is None


def test_br_lines_without_header_outside_an_aside_copy():
    body = "".join(" · ".join(r).replace("'", "&#x27;") + "<br>\n" for r in LINES)
    featured = "<aside><p>" + " · ".join(LINES[0]) + "<br>\n</p></aside>"
    html = f"<html><body>{featured}<main><p>Showing 1-4 of 4</p><div><p>{body}</p></div></main></body></html>"
    (b,) = blocks(parse(html))
    assert b.labels == [None] * 4 and b.rows == 4
    assert b.columns[1][1] == "800/701-4111, 252/261-4111"
    got = _read(html, b)
    assert [r["c0"] for r in got] == [r[0] for r in LINES]
    assert [r["c2"] for r in got] == [r[2] for r in LINES]
    assert got[2]["c0"] == "Mrs. Willis' Restaurant"
    cands = candidates(b)
    assert cands[0].label is None and cands[1].values[0] == "202/628-7949"


def test_pre_lines_with_a_header_line_name_the_positions():
    head = "Name | Phone | Address | Cuisine"
    text = "\n".join([head, *(" | ".join(r) for r in LINES)])
    html = f"<html><body><main><div><pre>{text}\n</pre></div></main></body></html>"
    (b,) = blocks(parse(html))
    assert b.labels == ["Name", "Phone", "Address", "Cuisine"] and b.rows == 4
    got = _read(html, b)
    assert len(got) == 4  # the header line is not a record
    assert [r["c3"] for r in got] == [r[3] for r in LINES]


def test_empty_value_reads_as_null():
    rows = ["Ana ; 1990 ; Madrid", "Ben ;  ; Lyon", "Cy ; 2001 ; Porto"]
    html = "<html><body><p>" + "<br>".join(rows) + "</p></body></html>"
    (b,) = blocks(parse(html))
    assert [r["c1"] for r in _read(html, b)] == ["1990", None, "2001"]


def test_text_lines_behind_an_index_bar_build_without_pooling_text_nodes():
    """Sub-pages whose records are text nodes: pooling them is skipped, the index spec still builds."""
    from prefect_autodata.agents.induction.assemble import induce_page

    base = "http://127.0.0.1:9/teams/"
    letters = ["a", "b", "c"]
    index = (
        "<html><body><main><p>Browse by letter:</p><p>"
        + " ".join(f"<a href='/teams/{x}/'>{x.upper()}</a>" for x in letters)
        + "</p></main></body></html>"
    )
    bodies = {}
    for n, x in enumerate(letters):
        rows = [f"{x.upper()}team{i} ; {1990 + n * 5 + i} ; {100 + 7 * i + n}" for i in range(4)]
        bodies[f"{base}{x}/"] = "<html><body><main><p>" + "<br>\n".join(rows) + "</p></main></body></html>"
    built = induce_page(base, index, ["team", "year", "wins"], name="teams", bodies=bodies)
    via = [b for b in built if b.why.startswith("index of 3 sub-pages")]
    assert via and "text lines" in via[0].why


FILMS = [
    ("Sea of Love", "Thriller", "Becker", "R"),
    ("Bay of Blood", "Horror", "Bava", "R"),
    ("Ballast", "Drama", "Hammer", "NR"),
    ("Ghost", "Fantasy, Romance", "Zucker", "PG13"),
]


def test_a_header_line_of_field_words_is_found_over_lines_without_digits():
    """No column holds digits: the first line is a header because its pieces are field words that never
    come back as values of their column; a first record of plain words stays a record."""
    head = "Name · Category · Directed by · Rated"
    html = (
        "<html><body><main><p>"
        + "<br>".join([head, *(" · ".join(r) for r in FILMS)])
        + "</p></main></body></html>"
    )
    (b,) = blocks(parse(html))
    assert b.labels == ["Name", "Category", "Directed by", "Rated"] and b.rows == 4
    assert [r["c2"] for r in _read(html, b)] == [r[2] for r in FILMS]
    plain = "<html><body><main><p>" + "<br>".join(" · ".join(r) for r in FILMS) + "</p></main></body></html>"
    (b,) = blocks(parse(plain))
    assert b.labels == [None] * 4 and b.rows == 4


def test_an_empty_field_between_two_separators_keeps_the_line_and_its_positions():
    cars = [
        ("2010 GMC Acadia", "17 mpg City, 24 mpg Hwy", "MSRP: $38,085"),
        ("2010 Chevrolet Suburban", "", "MSRP: $55,625"),
        ("2011 Acura TL", "17 mpg City, 25 mpg Hwy", "MSRP: $43,585"),
        ("2010 Ford F-250", "", "MSRP: $38,965"),
        ("2010 Nissan cube", "28 mpg City, 30 mpg Hwy", "MSRP: $17,450"),
    ]
    body = "".join(" ~ ".join(r) + "<br>\n" for r in cars)
    html = f"<html><body><p>Vehicle ~ Fuel economy ~ Our price<br>\n{body}</p></body></html>"
    (b,) = blocks(parse(html))
    assert b.labels == ["Vehicle", "Fuel economy", "Our price"] and b.rows == 5
    got = _read(html, b)
    assert [(r["c0"], r["c1"] or "", r["c2"]) for r in got] == cars


def test_label_value_pairs_on_each_line_name_the_positions_and_are_read_without_the_labels():
    """ "Name: …; Phone: …; Cuisine: …" on every line: the inner labels are the lines' header."""
    from prefect_autodata.agents.induction.matching import assign

    lines = [f"Name: {n}; Phone: {p}; Cuisine: {c}" for n, p, _, c in LINES]
    html = "<html><body><main><p>" + "<br>\n".join(lines) + "</p></main></body></html>"
    (b,) = blocks(parse(html))
    cands = candidates(b)
    assert [c.label for c in cands] == ["Name", "Phone", "Cuisine"]
    got = _read(html, b)
    assert [r["c1"] for r in got] == [r[1] for r in LINES]
    assert got[0]["c0"] == "Jaleo" and got[3]["c2"] == "Japanese"
    out = assign(["cuisine", "phone"], cands, entity="restaurant")
    assert out["phone"].candidate is cands[1] and out["cuisine"].candidate is cands[2]


def test_one_self_labelled_position_among_bare_ones_is_named_and_read_whole():
    """ "… | Tel: 202/628-7949 | …": a value that names itself is read as the page shows it."""
    lines = [f"{n} | Tel: {p} | {c}" for n, p, _, c in LINES]
    html = "<html><body><main><p>" + "<br>\n".join(lines) + "</p></main></body></html>"
    (b,) = blocks(parse(html))
    cands = candidates(b)
    assert [c.label for c in cands] == [None, "Tel", None]
    assert [r["c1"] for r in _read(html, b)] == [f"Tel: {r[1]}" for r in LINES]
    times = ["Opens 10:30 | Ana", "Opens 11:00 | Ben", "Opens 9:15 | Cy"]
    (t,) = blocks(parse("<html><body><p>" + "<br>".join(times) + "</p></body></html>"))
    assert [c.label for c in candidates(t)] == [None, None]  # a time is no label


def _stanza_page(sep: str, bare_name: bool = False, skip_phone: int | None = None) -> str:
    recs = []
    for i, (n, p, a, c) in enumerate(LINES):
        lines = [n if bare_name else f"Name: {n}", f"Address: {a}"]
        if i != skip_phone:
            lines.append(f"Phone: {p}")
        lines.append(f"Cuisine: {c}")
        recs.append("<br>\n".join(x.replace("'", "&#x27;") for x in lines))
    return f"<html><body><main><h1>Where to eat</h1><div>{sep.join(recs)}</div></main></body></html>"


def _stanza_rows(html: str) -> list[dict]:
    stanza = [b for b in blocks(parse(html)) if b.sep == "blank line"]
    assert len(stanza) == 1
    cands = candidates(stanza[0])
    doc = parse_document("html", html, "http://127.0.0.1/")
    rules = [FieldRule.model_validate({"name": c.label or f"line{k}", **c.rule}) for k, c in enumerate(cands)]
    return extract_page(doc, rules, Selector(xpath=stanza[0].records_xpath), {})


def test_records_of_label_lines_parted_by_blank_lines_one_record_each_a_missing_line_stays_empty():
    rows = _stanza_rows(_stanza_page("<br>\n<br>\n", skip_phone=1))
    assert [r["Name"] for r in rows] == [r[0] for r in LINES]
    assert [r["Phone"] for r in rows] == [LINES[0][1], None, LINES[2][1], LINES[3][1]]  # not the next one's
    assert rows[2]["Address"] == LINES[2][2] and rows[3]["Cuisine"] == "Japanese"


def test_records_parted_by_rules_with_a_bare_name_line_over_labelled_lines():
    rows = _stanza_rows(_stanza_page("<hr>\n", bare_name=True))
    assert [r["line0"] for r in rows] == [r[0] for r in LINES]
    assert [r["Phone"] for r in rows] == [r[1] for r in LINES]
    from prefect_autodata.agents.induction.assemble import induce_page

    (best, *_) = induce_page(
        "http://127.0.0.1:9/r",
        _stanza_page("<hr>\n", bare_name=True),
        ["name", "phone"],
        name="r",
        entity="restaurant",
    )
    assert set(best.matches) == {"name", "phone"} and best.rows == 4
