"""Tables with ``rowspan``: a header cell over two header rows names its column (the lower row's cells
fill the slots it leaves free); a body cell over several rows shifts the cells beside it in the rows
it covers, and is read in each of them (the parse lays tables out as the page shows them)."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.tables import tables


def _page(body: str) -> str:
    head = (
        "<tr><th rowspan='2'>Station</th><th colspan='2'>Rainfall (mm)</th><th rowspan='2'>Region</th></tr>"
        "<tr><th>March</th><th>April</th></tr>"
    )
    return f"<html><body><main><table>{head}{body}</table></main></body></html>"


ROWS = [("Aldmoor", "41", "38", "North"), ("Brisk Hill", "12", "30", "East"), ("Carrow", "55", "9", "West")]


def test_header_cells_over_two_rows_name_their_columns_beside_a_group_header():
    body = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td><td>{d}</td></tr>" for a, b, c, d in ROWS)
    (t,) = tables(parse(_page(body)))
    assert t.labels == ["Station", "March", "April", "Region"]
    assert t.aliases[1] == ["Rainfall (mm) March"] and t.aliases[2] == ["Rainfall (mm) April"]
    assert t.columns[3] == ["North", "East", "West"]


def test_a_body_cell_over_two_rows_is_read_in_each_row_it_covers():
    body = (
        "<tr><td>Aldmoor</td><td rowspan='2'>41</td><td>38</td><td>North</td></tr>"
        "<tr><td>Brisk Hill</td><td>30</td><td>East</td></tr>"
        "<tr><td>Carrow</td><td>55</td><td>9</td><td>West</td></tr>"
    )
    (t,) = tables(parse(_page(body)))
    assert t.columns[0] == ["Aldmoor", "Brisk Hill", "Carrow"]
    assert t.columns[1] == ["41", "41", "55"]  # the page lays the tall cell out in both rows
    assert t.columns[2] == ["38", "30", "9"] and t.columns[3] == ["North", "East", "West"]
    last = (
        "<tr><td>Aldmoor</td><td>41</td><td>38</td><td rowspan='2'>North</td></tr>"
        "<tr><td>Brisk Hill</td><td>12</td><td>30</td></tr>"
        "<tr><td>Carrow</td><td>55</td><td>9</td><td>West</td></tr>"
    )
    (u,) = tables(parse(_page(last)))
    assert u.columns[1] == ["41", "12", "55"] and u.columns[3] == ["North", "North", "West"]
