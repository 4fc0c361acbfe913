"""A field asked as a year reads the year inside a longer value the page shows for it (a venue with its
year, a date); a season over two years and a value of no single year are read as shown."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms


def _read(name: str, values: list[str]) -> list[str]:
    rule = typed_rule(name, Candidate(label="Year", values=values, rule={"xpath": "./td[3]"}))
    return [apply_transforms(v, rule.transforms) for v in values]


@pytest.mark.parametrize(
    ("values", "want"),
    [
        (["NeurIPS 2019", "ICML 2018", "ACL 2020"], ["2019", "2018", "2020"]),
        (["March 5, 2019", "2018-03-05", "5 juin 2017"], ["2019", "2018", "2017"]),
        (["Proc. of the 31st Conference (2014)", "Proc. of the 30th Conference (2013)"], ["2014", "2013"]),
    ],
)
def test_the_year_inside_a_venue_or_a_date(values, want):
    assert _read("year", values) == want


@pytest.mark.parametrize(
    "values",
    [
        ["2010-11 regular season", "2011-12 regular season"],  # a season spans two years
        ["1999", "2004"],  # already a year
        ["Item 12019", "Order 20195"],  # no year standing alone
        ["Spring", "Autumn 2019"],  # not every value holds one
    ],
)
def test_values_read_as_shown(values):
    assert _read("year", ["NeurIPS 2019", "ICML 2018"]) == ["2019", "2018"]  # a year is read out of a venue,
    assert _read("year", values) == values  # not out of these


def test_only_a_field_asked_as_a_year():
    venues = ["NeurIPS 2019", "ICML 2018"]
    assert _read("venue", venues) == venues
    assert _read("season", venues) == ["2019", "2018"]  # a season is a year too
