"""The held-out wild3 sites are self-consistent (the wild2 checks of tests/unit/wild_truth.py, plus one of its own): every expected value is on the site's pages.

tests/data/wild3 holds 12 hand-written 2010s-style sites, each with an ``expected.yaml`` (the
sentence, the entry page, the fields and the invented records). The truth was written before the
product ever ran on them, so a typo in it would silently cost F1 forever; this test checks the
truth against the pages instead (test-only: no product code is imported). A value counts as present
when one of its usual renderings ("2,318", "$39.99" split over spans, "Sep 3, 2018", "02-11-2006")
is in the page text or in an attribute or script of one of the site's pages; a value the page only
implies ("discuss" for 0 comments) is listed under ``implied`` in the yaml and its word is checked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from wild_truth import (  # tests/unit is on sys.path
    _flat,
    far_values,
    missing_values,
    near,
    shape_problems,
)

WILD3 = Path(__file__).resolve().parents[1] / "data" / "wild3"  # the third held-out set
SITES = sorted(p.parent.name for p in WILD3.glob("*/expected.yaml"))


def test_twelve_sites() -> None:
    assert len(SITES) == 12


@pytest.mark.parametrize("name", SITES)
def test_expected_yaml_shape(name: str) -> None:
    assert shape_problems(WILD3, name) == []


@pytest.mark.parametrize("name", SITES)
def test_every_expected_value_is_on_the_pages(name: str) -> None:
    missing = missing_values(WILD3, name)
    assert not missing, f"{name}: values not on the pages: {missing}"


@pytest.mark.parametrize("name", SITES)
def test_every_value_sits_near_its_record(name: str) -> None:
    far = far_values(WILD3, name)
    assert not far, f"{name}: values not near their record's first field: {far}"


def test_near_rejects_a_value_of_another_record() -> None:
    pages = [
        "Alpha 3 votes 12 answers Group-A " + "x" * 600 + " Beta 4 votes 7 answers " + "y" * 3000 + " Gamma"
    ]
    assert near(3, "Alpha", pages) and near(7, "Beta", pages) and near("Group-A", "Beta", pages)
    assert not near(7, "Alpha", pages) and not near(3, "Beta", pages) and not near("Group-A", "Gamma", pages)
    assert not near("2011-04-09", "Alpha", pages)
    assert _flat('<a title="1,204 views" href="q/1">1.2k</a><a href="mailto:a@b.org">Email</a>') == (
        "1,204 views 1.2k mailto:a@b.org Email"
    )
