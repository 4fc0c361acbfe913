"""S11 E1: HTML tables of 2010s pages (a heading in every row, a header over two columns, labels
under a title row, tied ranks shown once, initials over numbers)."""

from __future__ import annotations

from prefect_autodata.agents.induction import headrows, regions, tables
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import assign, score

QUOTES = """<html><body><table id="q"><thead><tr>
<th>Symbol</th><th>Name</th><th>Last Sale</th><th colspan="2">Change Net / %</th><th>Volume</th></tr></thead>
<tbody>
<tr><td><h3><a href="/s/aaa">AAA</a></h3></td><td>Alpha Corp.</td><td>$ 1.50</td><td>-0.42</td><td>-1.73%</td><td>1,200</td></tr>
<tr><td><h3><a href="/s/bbb">BBB</a></h3></td><td>Beta Inc.</td><td>$ 2.50</td><td>+1.12</td><td>+2.81%</td><td>900</td></tr>
<tr><td><h3><a href="/s/ccc">CCC</a></h3></td><td>Gamma Ltd</td><td>$ 3.50</td><td>+0.07</td><td>+1.12%</td><td>800</td></tr>
</tbody></table></body></html>"""


def test_heading_in_every_row_is_a_data_table() -> None:
    found = tables.tables(parse(QUOTES))
    assert len(found) == 1 and found[0].rows == 3
    assert found[0].columns[0] == ["AAA", "BBB", "CCC"]


def test_a_heading_in_one_cell_still_lays_the_page_out() -> None:
    html = """<table><tr><td><h1>Site</h1></td><td>menu</td></tr>
    <tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr><tr><td>e</td><td>f</td></tr></table>"""
    assert tables.tables(parse(html)) == []


def test_slash_header_over_two_columns_names_each() -> None:
    assert tables.split_spanned("Change Net / %", 2) == ["Net Change", "% Change"]
    assert tables.split_spanned("High / Low", 2) == ["High", "Low"]
    assert tables.split_spanned("High / Low", 3) is None
    assert tables.split_spanned("Change", 2) is None
    t = tables.tables(parse(QUOTES))[0]
    assert t.labels[3:5] == ["Net Change", "% Change"]
    m = assign(["net change", "percent change"], tables.with_parts(t, _cands(t)))
    assert m["net change"].candidate.rule["xpath"].endswith("[4]")
    assert m["percent change"].candidate.rule["xpath"].endswith("[5]")


def _cands(t: tables.Table) -> list:
    return [
        regions.cell_candidate(lab, vals, t.cell_xpath(i), anchor=0.8 if lab else 0.3)
        for i, (lab, vals) in enumerate(zip(t.labels, t.columns, strict=True))
    ]


BATTING = """<html><body><table class="stats">
<tr class="title"><td colspan="6">Sortable Batting - Batting Average</td></tr>
<tr class="colhead"><td>RK</td><td>PLAYER</td><td>TEAM</td><td>2B</td><td>HR</td><td>AVG</td></tr>
<tr><td>1</td><td>Ann Lee</td><td>DET</td><td>30</td><td>21</td><td>.329</td></tr>
<tr><td>2</td><td>Bo Roe</td><td>TB</td><td>28</td><td>17</td><td>.326</td></tr>
<tr><td>3</td><td>Cy Moe</td><td>KC</td><td>25</td><td>12</td><td>.319</td></tr>
<tr><td></td><td>Di Poe</td><td>SEA</td><td>22</td><td>8</td><td>.319</td></tr>
<tr><td>5</td><td>Ed Foe</td><td>BAL</td><td>20</td><td>28</td><td>.314</td></tr>
</table></body></html>"""


def test_labels_under_a_title_row_may_hold_a_digit() -> None:
    t = tables.tables(parse(BATTING))[0]
    assert t.labels == ["RK", "PLAYER", "TEAM", "2B", "HR", "AVG"]
    assert t.rows == 5


def test_a_first_record_row_is_not_labels() -> None:
    root = parse(
        "<table><tr><td>2B</td><td>3B</td><td>12</td></tr><tr><td>a</td><td>b</td><td>1</td></tr>"
        "<tr><td>c</td><td>d</td><td>2</td></tr><tr><td>e</td><td>f</td><td>3</td></tr></table>"
    )
    assert not headrows.label_row(root.xpath("//tr"))


def test_tied_rank_shown_once_reads_the_rank_above() -> None:
    root = parse(BATTING)
    t = tables.tables(root)[0]
    assert t.columns[0] == ["1", "2", "3", "3", "5"]
    rows = root.xpath(t.records_xpath)
    got = [tables.cell_text(r.xpath(t.cell_xpath(0))[0]) for r in rows]
    assert got == ["1", "2", "3", "3", "5"]
    assert t.cell_xpath(1) == "./*[self::td or self::th][2]"  # other columns read as before


def test_blanks_of_a_text_column_are_not_filled() -> None:
    assert tables._same_as_above([["a", "", "b", "c"], ["1", "", "3", "2"], ["1", "2", "", "4"]]) == [2]


def test_initials_of_the_field_over_numbers_match() -> None:
    hr = regions.cell_candidate("HR", ["21", "17", "12", "8"], "./td[5]", anchor=0.8)
    assert score("home runs", hr)[0] > 0
    text = regions.cell_candidate("HR", ["Ann", "Bo", "Cy", "Di"], "./td[5]", anchor=0.8)
    assert score("home runs", text)[0] == 0
    other = regions.cell_candidate("GP", ["21", "17", "12", "8"], "./td[5]", anchor=0.8)
    assert score("home runs", other)[0] == 0
