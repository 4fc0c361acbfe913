"""The request's filters matched to the query parameters a documentation page names for them."""

from __future__ import annotations

from types import SimpleNamespace

from prefect_autodata.agents.induction.filters import param_filters
from prefect_autodata.agents.request import Filter

NAMES = {
    "start": "Number of records to skip (default 0).",
    "lim": "Records per response, 1 to 500 (default 10).",
    "yr": "Only seasons with this season (comma-separate several).",
    "club": "Only seasons with this team (comma-separate several).",
    "tm": "Team abbreviation",  # a response key: it restricts nothing
}


def _plan(*filters: Filter) -> SimpleNamespace:
    return SimpleNamespace(filters=list(filters))


def test_filter_goes_to_the_parameter_whose_description_names_its_field():
    plan = _plan(Filter(field="team", op="eq", value="St. Louis Cardinals", aliases=["STL"]))
    assert param_filters(plan, NAMES, {"start", "lim"}) == [("club", ["St. Louis Cardinals", "STL"])]


def test_no_parameter_for_ranges_unknown_fields_or_taken_names():
    plan = _plan(
        Filter(field="era", op="le", value=3.5),
        Filter(field="manufacturer", op="eq", value="Nikon"),
    )
    assert param_filters(plan, NAMES) == []
    plan = _plan(Filter(field="team", op="eq", value="STL"))
    assert param_filters(plan, NAMES, {"club"}) == []


def test_a_parameter_also_listed_as_a_response_key_keeps_its_restricting_sentence():
    from prefect_autodata.agents.induction.apidocs import documented_names

    # the same name is a query parameter (a sentence) and a key of the records (a table row)
    html = (
        "<html><body><p>Parameters: <code>club</code> (string): Only seasons with this team name "
        "(comma-separate several). <code>pg</code> (integer): Page number.</p>"
        "<table><tr><th>Key</th><th>Meaning</th></tr><tr><td><code>club</code></td><td>Club</td></tr>"
        "</table></body></html>"
    )
    plan = _plan(Filter(field="team", op="eq", value="Utah Jazz"))
    assert documented_names(html)["club"] == "Club"  # what the key means, for matching fields
    assert param_filters(plan, documented_names(html, prefer="sentence"), {"pg"}) == [("club", ["Utah Jazz"])]
