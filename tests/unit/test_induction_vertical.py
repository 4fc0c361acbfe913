"""One vertical label/value table per record (labels in <td>), repeated over a result page."""

from __future__ import annotations

from prefect_autodata.agents.induction import vertical
from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1:9/results"
BOOKS = [
    ("Hollow Reed Songs", "Amsel, Kora", "821.9 AMS"),
    ("The Salt Road", "Brun, Teo", "FIC BRUN"),
    ("Counting Owls", "Celik, Ada", "598.97 CEL"),
    ("Winter Pantry", "Dahl, Ivo", "641.5 DAH"),
]


def _page():
    recs = "".join(
        f"<tr class='hit'><td>{i + 1}</td><td>"
        f"<table class='det'><tr><td class='lab'>Title</td><td>{t}</td></tr>"
        f"<tr><td class='lab'>Author</td><td>{a}</td></tr></table>"
        f"<table class='hold'><tr><th>LOCATION</th><th>CALL #</th></tr><tr><td>Main</td><td>{c}</td></tr></table>"
        "</td></tr>"
        for i, (t, a, c) in enumerate(BOOKS)
    )
    return f"<html><body><h1>Results</h1><table class='outer'>{recs}</table></body></html>"


def test_labels_of_a_vertical_table():
    root = parse(_page())
    t = root.xpath("//table[@class='det']")[0]
    assert vertical.labels_of(t) == ("Title", "Author")
    assert vertical.labels_of(root.xpath("//table[@class='hold']")[0]) is None


def test_each_vertical_table_is_one_record():
    (v,) = vertical.find(parse(_page()), URL)
    assert v.count == len(BOOKS)
    assert all(it.tag == "tr" for it in v.items)  # the block around each table, holdings included


def test_records_read_by_label_and_by_the_inner_header():
    html = _page()
    built = induce_page(URL, html, ["title", "author", "call number"], name="books")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert set(best.matches) == {"title", "author", "call number"}
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, URL), src.fields, src.records, {})
    assert [r["title"] for r in rows] == [t for t, _, _ in BOOKS]
    assert [r["author"] for r in rows] == [a for _, a, _ in BOOKS]
    assert [r["call number"] for r in rows] == [c for _, _, c in BOOKS]
