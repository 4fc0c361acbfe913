"""Every reader of a page's records parses it through one function (``runtime.extract.html_root``, via
``induction.dom.parse``), so the legacy table inducer, the legacy listing regions and the generic inducers
see the same table model the runtime reads: a ``rowspan`` cell in every row it covers. And a table whose
rows lead with their own header cell (``<th scope="row">``) that the header row labels too is read cell by
cell, not ``td`` by ``td`` (every label named its right neighbour's values)."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.offline.induction import html_tables
from prefect_autodata.agents.offline.listings.regions import _parse as listings_parse
from prefect_autodata.runtime.extract import extract_field, parse_document
from prefect_autodata.runtime.spec import FieldRule

SPANNED = (
    "<html><body><table><thead><tr><th>Single</th><th>Year</th><th>Chart</th></tr></thead><tbody>"
    "<tr><td>Blue Lake</td><td rowspan='2'>2009</td><td>4</td></tr>"
    "<tr><td>Night Ferry</td><td>11</td></tr>"
    "<tr><td>Cold Harbour</td><td>2011</td><td>2</td></tr>"
    "</tbody></table></body></html>"
)

LED = (
    "<html><body><table id='per_game'><thead><tr><th>Season</th><th>Age</th><th>Tm</th><th>PTS</th></tr>"
    "</thead><tbody>"
    "<tr><th scope='row'><a href='/s/2005'>2004-05</a></th><td>20</td><td>MIL</td><td>5.5</td></tr>"
    "<tr><th scope='row'><a href='/s/2006'>2005-06</a></th><td>21</td><td>MIL</td><td>10.5</td></tr>"
    "<tr><th scope='row'><a href='/s/2007'>2006-07</a></th><td>22</td><td>DEN</td><td>16.3</td></tr>"
    "</tbody></table></body></html>"
)


def _read(html: str, records: str, xpath: str) -> list[str]:
    doc = parse_document("html", html, "https://x.example/")
    rule = FieldRule(name="v", xpath=xpath)
    return [extract_field(n, rule, page_url="", params={}) for n in doc.root.xpath(records)]


def test_the_legacy_table_inducer_reads_a_spanned_cell_in_every_row_it_covers():
    (tc,) = html_tables(SPANNED)
    assert [r[1] for r in tc.rows] == ["2009", "2009", "2011"]
    assert [r[2] for r in tc.rows] == ["4", "11", "2"]  # not the chart position read as the year
    # and the spec's XPath reads what the inducer saw
    assert _read(SPANNED, tc.records_xpath, tc.field_xpath(2)) == ["4", "11", "2"]


def test_the_legacy_listing_parse_and_the_inducers_parse_lay_out_the_same_table():
    a, b = listings_parse(SPANNED), parse(SPANNED)
    rows_a = [[c.text_content() for c in tr] for tr in a.xpath("//tbody/tr")]
    rows_b = [[c.text_content() for c in tr] for tr in b.xpath("//tbody/tr")]
    assert (
        rows_a
        == rows_b
        == [["Blue Lake", "2009", "4"], ["Night Ferry", "2009", "11"], ["Cold Harbour", "2011", "2"]]
    )


def test_rows_led_by_their_own_header_cell_are_read_under_their_labels():
    (tc,) = html_tables(LED)
    assert tc.labels == {0: "Season", 1: "Age", 2: "Tm", 3: "PTS"}
    assert [r[0] for r in tc.rows] == ["2004-05", "2005-06", "2006-07"]
    assert [r[1] for r in tc.rows] == ["20", "21", "22"] and [r[3] for r in tc.rows] == [
        "5.5",
        "10.5",
        "16.3",
    ]
    assert tc.links[0] == ["/s/2005", "/s/2006", "/s/2007"]
    assert _read(LED, tc.records_xpath, tc.field_xpath(0)) == ["2004-05", "2005-06", "2006-07"]
    assert _read(LED, tc.records_xpath, tc.field_xpath(3)) == ["5.5", "10.5", "16.3"]


def test_a_header_labelling_only_the_data_cells_keeps_reading_them_by_td():
    # the row's own header cell has no label above it (no corner cell): the labels name the td's
    html = LED.replace("<th>Season</th>", "")
    (tc,) = html_tables(html)
    assert tc.labels == {0: "Age", 1: "Tm", 2: "PTS"}
    assert [r[0] for r in tc.rows] == ["20", "21", "22"] and tc.field_xpath(0) == "./td[1]"
