"""Two regressions of wrapper induction (issue #13): a money column whose slot is named by a class word
("price_color") was read as a property of the price and answered no field; an unnamed compound cell
("Fancy Pants (1950)") was dropped for its text piece even when no field took its year."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import _table_candidates
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import Candidate, assign, name_evidence
from prefect_autodata.agents.induction.tables import tables, with_parts

_BOOKS = ["The Lantern Keeper", "Salt and Cedar", "A Winter in Halden", "Quiet Harbour"]
_PRICES = ["£12.99", "£8.50", "£15.00", "£9.99"]


def _slot(label, values, **kw):
    return Candidate(
        label=label, values=values, rule={"xpath": f"./p[{label!r}][{values[0]!r}]"}, origin="slot", **kw
    )


def test_a_money_slot_named_by_a_style_class_word_is_the_price():
    cands = [
        _slot(None, _BOOKS, identity=True),
        _slot("author", ["Mara Ellison", "Tomas Varga", "June Okafor", "Ada Brook"]),
        _slot("price_color", _PRICES),
    ]
    got = assign(["title", "author", "price"], cands, entity="book")
    assert got["price"].candidate.label == "price_color"
    # the property reading stays where the values do not refute it (1bb982b)
    assert name_evidence("institution", "institution type")[1] == "property"
    cats = [_slot("institution type", ["Public", "Private", "Public", "Private"])]
    assert "price" not in assign(["price"], [_slot("price type", ["Retail", "Sale", "Retail", "Net"])])
    assert "institution" not in assign(["institution"], cats)


def _films_page(marked: bool) -> str:
    films = [("Fancy Pants", 1950), ("Dead Space: Downfall", 2008), ("The Rose", 1979), ("Humpday", 2009)]
    cell = "<a href='/t/{k}'>{f}</a> <span>({y})</span>" if marked else "<font>\xa0{f} ({y})\xa0</font>"
    rows = "".join(
        f"<tr><td>{cell.format(k=k, f=f, y=y)}</td><td>Director {k}</td><td>Comedy</td><td>{g}</td></tr>"
        for k, ((f, y), g) in enumerate(zip(films, ["R", "PG", "R", "Not Rated"], strict=True))
    )
    head = "<tr><th>Name</th><th>Director</th><th>Category</th><th>Certificate</th></tr>"
    return f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>"


def test_a_compound_cell_no_field_takes_the_pieces_of_is_read_whole():
    (t,) = tables(parse(_films_page(marked=False)))
    m = assign(["title", "director", "certificate"], with_parts(t, _table_candidates(t)), entity="movie")
    assert m["title"].candidate.values[:2] == ["Fancy Pants (1950)", "Dead Space: Downfall (2008)"]
    # a field that takes the year leaves the title its text piece (090d4c1/b830936)
    m = assign(["title", "year", "director"], with_parts(t, _table_candidates(t)), entity="movie")
    assert m["title"].candidate.values[:2] == ["Fancy Pants", "Dead Space: Downfall"]
    assert m["year"].candidate.values[:2] == ["1950", "2008"]
    # a title the page sets apart in an element of its own stays the piece
    (t,) = tables(parse(_films_page(marked=True)))
    m = assign(["title", "director", "certificate"], with_parts(t, _table_candidates(t)), entity="movie")
    assert m["title"].candidate.values[:2] == ["Fancy Pants", "Dead Space: Downfall"]
