"""Records that are the cells of a grid table: the column's header and the row's header are fields."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.runtime.extract import extract_page, parse_document

ROOMS = ["Hall A", "Hall B", "Hall C"]


def _talk(title: str, who: str | None) -> str:
    speaker = f"<br><span class='speaker'>{who}</span>" if who else ""
    return f"<td class='slot'><a class='t' href='/talks/{title.lower().replace(' ', '-')}'>{title}</a>{speaker}</td>"


def _page() -> str:
    head = "<tr><th></th>" + "".join(f"<th class='room'>{r}</th>" for r in ROOMS) + "</tr>"
    rows = [
        ("09:00", "<td colspan='3' class='slot'><a class='t' href='/talks/opening'>Opening Keynote</a>"
                  "<br><span class='speaker'>Ada Brandt</span></td>"),
        ("09:45", _talk("Streams", "Rahul Menon") + _talk("Fuzzing", "Ewa Kowal") + _talk("Pandas", "Thandi Dube")),
        ("10:30", "<td colspan='3'>Coffee break</td>"),
        ("11:00", _talk("Parquet", "Jonas Bruck") + "<td>&nbsp;</td>" + _talk("Postgis", "Mateus Olive")),
    ]  # fmt: skip
    body = "".join(f"<tr><th class='time'>{t}</th>{cells}</tr>" for t, cells in rows)
    return f"<html><body><h1>Saturday</h1><table class='schedule'><thead>{head}</thead><tbody>{body}</tbody></table></body></html>"


def test_each_cell_is_a_record_with_its_room_and_start_time():
    html = _page()
    url = "http://127.0.0.1:9/schedule/saturday.html"
    built = induce_page(url, html, ["title", "speaker", "room", "time"], name="talks")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert set(best.matches) == {"title", "speaker", "room", "time"} and best.rows == 6
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, url), src.fields, src.records, {})
    got = [(r["title"], r["speaker"], r["room"], r["time"]) for r in rows]
    assert got == [
        ("Opening Keynote", "Ada Brandt", "Hall A", "09:00"),
        ("Streams", "Rahul Menon", "Hall A", "09:45"),
        ("Fuzzing", "Ewa Kowal", "Hall B", "09:45"),
        ("Pandas", "Thandi Dube", "Hall C", "09:45"),
        ("Parquet", "Jonas Bruck", "Hall A", "11:00"),
        ("Postgis", "Mateus Olive", "Hall C", "11:00"),
    ]


def test_a_table_of_one_value_per_cell_is_no_grid():
    from prefect_autodata.agents.induction import grid
    from prefect_autodata.agents.induction.dom import parse

    head = "<tr><th></th>" + "".join(f"<th>{r}</th>" for r in ROOMS) + "</tr>"
    body = "".join(
        f"<tr><th>{y}</th><td>{y % 7}</td><td>{y % 5}</td><td>{y % 3}</td></tr>" for y in range(2001, 2006)
    )
    assert grid.find(parse(f"<html><body><table>{head}{body}</table></body></html>")) == []
