"""A number shown with its unit ("20 mpg", "3.5 L") lands as the page shows it: the number transform
cannot read it, and a column typed as a number would refuse every row at run time."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms, extract_page, parse_document


def test_values_with_a_unit_stay_text_and_bare_numbers_are_typed():
    unit = typed_rule(
        "mileage", Candidate(label="Mileage", values=["31 mpg", "27.5 mpg"], rule={"xpath": "./td"})
    )
    assert unit.type == "string"
    assert [apply_transforms(v, unit.transforms) for v in ["31 mpg", "27.5 mpg"]] == ["31 mpg", "27.5 mpg"]
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
    assert rows[0]["volume"] == "1.2 L" and rows[7]["power"] == "2500 W"
