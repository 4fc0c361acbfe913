"""A <form> is not page chrome by itself: data tables inside ASP.NET / vBulletin forms are records;
a table of entry fields (a login box) inside a form still is chrome. Also a header row of <td> labels."""

from __future__ import annotations

from prefect_autodata.agents.induction import forms, headrows
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.tables import tables

PEOPLE = [
    ("Ada Moss", "03-11-2006", "3,412"),
    ("Bo Tran", "07-04-2005", "27"),
    ("Cy Ruiz", "11-30-2011", "188"),
]


def _data_rows():
    return "".join(
        f"<tr><td><input type='checkbox' name='sel'><a href='/m/{i}'>{n}</a></td><td>{d}</td><td>{p}</td></tr>"
        for i, (n, d, p) in enumerate(PEOPLE)
    )


def test_a_data_table_inside_a_page_wide_form_is_read():
    html = (
        "<html><body><form id='aspnetForm' method='post'><input type='hidden' name='__VIEWSTATE' value='x'>"
        "<table><tr><td><a href='/a'>Home</a></td></tr><tr><td><a href='/b'>Search</a></td></tr></table>"
        f"<table id='grid'><tr><th>Name</th><th>Joined</th><th>Posts</th></tr>{_data_rows()}</table>"
        "</form></body></html>"
    )
    found = tables(parse(html))
    grid = [t for t in found if t.labels == ["Name", "Joined", "Posts"]]
    assert grid and not grid[0].chrome
    assert grid[0].columns[0] == [n for n, _, _ in PEOPLE]


def test_a_login_box_inside_a_form_stays_chrome():
    html = (
        "<html><body><form action='login.php'><table>"
        "<tr><td>User Name</td><td><input type='text' name='u'></td></tr>"
        "<tr><td>Password</td><td><input type='password' name='p'></td></tr></table></form></body></html>"
    )
    root = parse(html)
    table = root.xpath("//table")[0]
    assert forms.in_chrome(table, list(table.iter("tr")))
    assert not forms.in_chrome(root.xpath("//td")[0].getparent().getparent(), [])


def test_a_header_row_of_td_labels_over_typed_columns():
    html = (
        "<html><body><table><tr><td><a href='?sort=name'>User Name</a></td><td><a href='?sort=joined'>Join Date</a>"
        f"</td><td>Posts</td></tr>{_data_rows()}</table></body></html>"
    )
    root = parse(html)
    assert headrows.label_row(root.xpath("//tr"))
    (t,) = tables(root)
    assert t.labels == ["User Name", "Join Date", "Posts"]
    assert t.rows == len(PEOPLE)
    assert t.columns[1] == [d for _, d, _ in PEOPLE]


def test_a_first_record_row_is_no_header_row():
    rows = "".join(f"<tr><td>{n}</td><td>{d}</td><td>{p}</td></tr>" for n, d, p in PEOPLE)
    root = parse(f"<html><body><table>{rows}</table></body></html>")
    assert not headrows.label_row(root.xpath("//tr"))
