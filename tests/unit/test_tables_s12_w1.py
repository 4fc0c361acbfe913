"""Table cells as their values (S12 w1): a footnote mark on a few cells of a column is no part of the
value; invented records, no site's markup."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import _table_candidates
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.tables import tables, with_parts
from prefect_autodata.runtime.extract import extract_field, parse_document
from prefect_autodata.runtime.spec import FieldRule

TOWERS = ["Amber Spire", "Birch Court", "Cedar Point", "Delta House", "Ember Tower", "Fjord Plaza"]


def _cands(html: str):
    (t,) = tables(parse(html))
    return t, {c.label: c for c in with_parts(t, _table_candidates(t)) if c.label}


def _read(html: str, records: str, rule: dict) -> list[str]:
    doc = parse_document("html", html, "https://x.example/")
    fr = FieldRule(name="v", **rule)
    return [extract_field(n, fr, page_url="", params={}) for n in doc.root.xpath(records)]


def test_a_footnote_mark_on_a_few_cells_is_no_part_of_the_value():
    rows = "".join(
        f"<tr><td>{k + 1}</td><td><a href='/w/{k}'>{n}</a>"
        + (f"<sup class='reference'><a href='#cite-{k}'>[{k + 2}]</a></sup>" if k % 3 == 0 else "")
        + f"</td><td>{300 - 9 * k}</td></tr>"
        for k, n in enumerate(TOWERS)
    )
    html = (
        "<html><body><main><table><tr><th>Rank</th><th>Name</th><th>Height</th></tr>"
        f"{rows}</table></main></body></html>"
    )
    t, by = _cands(html)
    assert by["Name"].values == TOWERS  # two of six cells cite a note: neither "[2]" nor "[5]" is the name
    assert _read(html, t.records_xpath, by["Name"].rule) == TOWERS


PLACES = [
    ("Lumen Bay", "Portugal"),
    ("Iris Falls", "Canada"),
    ("Kelp Harbor", "Chile"),
    ("Grove City", "Canada"),
]


def _towers_in_places() -> str:
    rows = "".join(
        f"<tr><td><a href='/w/{k}'>{TOWERS[k]}</a></td><td><span class='flag'><img alt='' src='f{k}.png'/>"
        f"&#160;</span><a href='/c/{k}'>{c}</a>, <a href='/n/{k}'>{n}</a></td><td>{200 + k}</td></tr>"
        for k, (c, n) in enumerate(PLACES)
    )
    return (
        "<html><body><main><table><tr><th>Name</th><th>City</th><th>Floors</th></tr>"
        f"{rows}</table></main></body></html>"
    )


def test_a_city_and_its_country_in_one_cell_land_apart_when_both_are_asked():
    from prefect_autodata.agents.induction.matching import assign

    html = _towers_in_places()
    (t,) = tables(parse(html))
    cands = with_parts(t, _table_candidates(t))
    m = assign(["name", "city", "country", "floors"], cands)
    assert m["city"].candidate.values == [c for c, _ in PLACES]
    assert m["country"].candidate.values == [n for _, n in PLACES]
    assert _read(html, t.records_xpath, m["country"].candidate.rule) == [n for _, n in PLACES]
    # the city alone is the cell as the page gives it
    m = assign(["name", "city", "floors"], cands)
    assert m["city"].candidate.values == [f"{c}, {n}" for c, n in PLACES]


def test_comma_pieces_of_a_cell_are_not_dates_amounts_or_prose():
    from prefect_autodata.agents.induction.tables import _comma_sep

    assert _comma_sep(["Lumen Bay, Portugal", "Iris Falls, Canada", "Kelp Harbor, Chile"]) is not None
    assert _comma_sep(["Mar 4, 2014", "Mar 5, 2014", "Apr 1, 2014"]) is None
    assert _comma_sep(["Lumen Bay, Portugal", "Iris Falls", "Kelp Harbor, Chile"]) is None
    assert _comma_sep(["a, b, c, d, e", "f, g, h, i, j", "k, l, m, n, o"]) is None


def test_places_take_the_pieces_narrowest_first():
    from prefect_autodata.agents.induction import lexicon as lx

    assert lx.place_rank("town") == lx.PLACE_ORDER["city"] < lx.place_rank("nation")
    assert lx.place_rank("height") is None


CARRIERS = [("Aurora Air", "AU 12", "Lisbon"), ("Boreal", "BO 340", "Oslo"), ("Cirrus", "CI 7", "Quito")]
CARRIERS += [("Aurora Air", "AU 98", "Porto"), ("Dunlin", "DU 5", "Cork")]


def _board(extra: bool = False) -> str:
    rows = "".join(
        f"<tr><td><img src='/l/{n[:2]}.gif' alt='{a}' title='{a}'> {n}</td><td>{d}</td>"
        + (f"<td>{k + 3}</td>" if extra else "")
        + "</tr>"
        for k, (a, n, d) in enumerate(CARRIERS)
    )
    head = "<tr><th>Flight</th><th>Destination</th>" + ("<th>Gate</th>" if extra else "") + "</tr>"
    return f"<html><body><main><table>{head}{rows}</table></main></body></html>"


def _induced(html: str, requested: list[str]) -> dict[str, list]:
    """What the table step of ``assemble.induce_page`` matches: cells, their pieces, attribute values."""
    from prefect_autodata.agents.induction import attrs
    from prefect_autodata.agents.induction.assemble import _last_left
    from prefect_autodata.agents.induction.matching import assign

    (t,) = tables(parse(html))
    cands = with_parts(t, _table_candidates(t)) + attrs.candidates(t.body)
    m = _last_left(requested, cands, assign(requested, cands))
    return {r: x.candidate.values for r, x in m.items()}


def test_the_one_field_no_header_names_is_the_value_a_row_shows_only_in_an_image_alt():
    got = _induced(_board(), ["flight_number", "airline", "destination"])
    assert got["airline"] == [a for a, _, _ in CARRIERS]
    assert got["flight_number"] == [n for _, n, _ in CARRIERS]
    # a column no field takes leaves the alt unplaced: two things left, no evidence which one
    got = _induced(_board(extra=True), ["flight_number", "airline", "destination"])
    assert "airline" not in got


def test_an_icon_beside_a_count_names_it():
    from prefect_autodata.agents.induction.matching import assign
    from prefect_autodata.agents.induction.regions import find_regions, slots

    apps = [("quillpad", 412, 38), ("lanternjs", 1287, 141), ("mossgrid", 233, 17), ("tidepool", 58, 22)]
    items = "".join(
        f"<li class='app'><h3><a href='/a/{n}'>{n}</a></h3><ul class='meta'>"
        f"<li class='likes'><a href='/a/{n}/fans' title='Fans'><span class='ico ico-star'></span> {s:,}</a></li>"
        f"<li class='copies'><a href='/a/{n}/copies' title='Copies'><span class='ico ico-copy'></span> {f}</a></li>"
        "</ul></li>"
        for n, s, f in apps
    )
    root = parse(f"<html><body><ul class='apps'>{items}</ul></body></html>")
    cands = slots(find_regions(root)[0], "http://127.0.0.1:9/apps")
    m = assign(["name", "stars", "copies"], cands)
    assert m["stars"].candidate.values == [f"{s:,}" for _, s, _ in apps]  # "Fans", drawn as a star
    assert m["copies"].candidate.values == [str(f) for _, _, f in apps]
