"""A transposed table whose every cell is words (S10, zoo 297993/20): rows led by <th scope=row> labels
(job title, loc., organization, date), one posting per column. The coarse types tie (all text); the fine
kinds tell rows of fields (a row of towns) from columns of records (a title, a town, a firm)."""

from __future__ import annotations

from prefect_autodata.agents.induction.assemble import _table_candidates
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.tables import tables, with_parts

JOBS = [
    ("Front End Developer", "Jersey City NJ", "Kestrel Labs", "05/06/2011"),
    ("Drupal Themer", "Herndon VA", "Amber Systems, LLC", "05/12/2011"),
    ("Clarity Administrator", "Arlington VA", "The Birch Group, Ltd.", "05/18/2011"),
    ("Java Weblogic Developer", "Chandler AZ", "Cedar Infotech Inc", "05/20/2011"),
    ("Systems Loader", "Annapolis Junction MD", "Delta Staffing, LLC", "05/20/2011"),
    ("Configuration Specialist", "Tempe AZ", "Ember Education", "05/21/2011"),
    ("Data Analyst", "Denver CO", "Fjord Software Inc", "05/22/2011"),
    ("QA Engineer", "Austin TX", "Grove Partners", "05/23/2011"),
]
LABELS = ["job title", "loc.", "organization", "date"]


def _page():
    rows = "".join(
        f"<tr><th scope='row'>{lab}</th>"
        + "".join(f"<td>{'Date Posted: ' if k == 3 else ''}{j[k]}</td>" for j in JOBS)
        + "</tr>"
        for k, lab in enumerate(LABELS)
    )
    return f"<html><body><main><h1>Jobs</h1><table class='results'>{rows}</table></main></body></html>"


def test_words_only_transposed_table_is_one_record_per_column():
    found = [t for t in tables(parse(_page())) if t.transposed]
    assert found and found[0].rows == len(JOBS)
    t = found[0]
    m = assign(["role", "company", "location"], with_parts(t, _table_candidates(t)))
    assert m["role"].candidate.values == [j[0] for j in JOBS]
    assert m["location"].candidate.values == [j[1] for j in JOBS]
    assert m["company"].candidate.values == [j[2] for j in JOBS]


def test_rows_of_records_stay_rows():
    people = [
        ("Ann Lee", "Denver CO", "Kestrel Labs"),
        ("Bo Ng", "Herndon VA", "Amber Ltd"),
        ("Cy Oda", "Lodi CA", "Birch Inc"),
    ]
    rows = "".join(f"<tr><th>{a}</th><td>{b}</td><td>{c}</td></tr>" for a, b, c in people)
    t = tables(parse(f"<html><body><table>{rows}</table></body></html>"))[0]
    assert not t.transposed and t.rows == 3


def test_film_rating_names_answer_a_german_release_label():
    from prefect_autodata.agents.induction.matching import name_evidence

    assert (
        name_evidence("mpaa", "Freigabe")[0] >= 0.8
    )  # zoo 297993/10: the user's "MPAA", the page's "Freigabe"
    assert name_evidence("movie rating", "Altersfreigabe")[0] >= 0.8
    assert name_evidence("mpaa", "Genre")[0] < 0.3
