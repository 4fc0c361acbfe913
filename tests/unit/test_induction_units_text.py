"""A number shown with its unit ("20 mpg", "3.5 L") never refuses rows: a measure's column reads its number
through a regex that names the unit (89dba89: a row in another unit reads null, nothing is converted), and
every row of the page still reads at run time (33b1252: a bare number transform refused all 292 rows)."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms, extract_page, parse_document


def test_values_with_a_unit_read_their_number_and_bare_numbers_are_typed():
    unit = typed_rule(
        "mileage", Candidate(label="Mileage", values=["31 mpg", "27.5 mpg"], rule={"xpath": "./td"})
    )
    assert (
        unit.type == "float"
        and unit.unit == "mpg"
        and any("mpg" in (t.pattern or "") for t in unit.transforms)
    )
    assert [apply_transforms(v, unit.transforms) for v in ["31 mpg", "27.5 mpg", "40 km/l"]] == [
        31,
        27.5,
        None,
    ]
    bare = typed_rule("weight", Candidate(label="Weight", values=["3.5", "12.25"], rule={"xpath": "./td"}))
    assert bare.type == "float"


def _kettles() -> str:
    rows = "".join(
        f"<tr><td>Kettle model {n}</td><td>{1.2 + n / 10:.1f} L</td><td>{1800 + 100 * n} W</td></tr>"
        for n in range(8)
    )
    return (
        "<html><body><h1>Kettles</h1><table border=1><tr><td><b>Kettle</b></td><td><b>Volume</b></td>"
        f"<td><b>Power</b></td></tr>{rows}</table></body></html>"
    )


def test_a_table_of_values_with_units_reads_every_row():
    html = _kettles()
    (best, *_) = induce_page("http://127.0.0.1:9/k", html, ["kettle", "volume", "power"], name="k")
    spec = best.spec
    doc = parse_document("html", html, "http://127.0.0.1:9/k")
    src = spec.sources[0]
    rows = extract_page(doc, src.fields, src.records, {})
    assert len(rows) == 8 and not any("_error" in r for r in rows)
    assert rows[0]["volume"] == 1.2 and rows[7]["power"] == 2500
