"""The held-out wild7 sites are self-consistent (the checks of test_wild6_pages.py, pointed at wild7): every expected value is on the site's pages and near its record.

wild7 holds 10 hand-written 2008-2016-style sites, each with an ``expected.yaml`` (the sentence, the
entry page, the fields and the invented records). The truth was written before the product ever ran
on them, so a typo in it would silently cost F1 forever; this test checks the truth against the pages
instead (test-only: no product code is imported). A value counts as present when one of its usual
renderings is in the page text or in an attribute or script of one of the site's pages; a value the
page only implies (the star count 4 for "really liked it") is listed under ``implied`` in the yaml and
its word is checked.

Two changes from the wild3 copy: a record's anchor (its first field) may be a date (a daily price
row), so the anchor is searched in every usual rendering of the date ("Mar 7, 2014"), not only as the
ISO string; and in the flattened page a space that a closing tag leaves before ", " / "; " / ": " is
dropped, so an author list "<a>A</a>, <a>B</a>" reads "A, B" as it does on screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from wild_truth import (  # tests/unit is on sys.path
    far_values,
    missing_values,
    shape_problems,
)

WILD7 = Path(__file__).resolve().parents[1] / "data" / "wild7"  # the seventh held-out set
SITES = sorted(p.parent.name for p in WILD7.glob("*/expected.yaml"))


def test_ten_sites() -> None:
    assert len(SITES) == 10


@pytest.mark.parametrize("name", SITES)
def test_expected_yaml_shape(name: str) -> None:
    assert shape_problems(WILD7, name) == []


@pytest.mark.parametrize("name", SITES)
def test_every_expected_value_is_on_the_pages(name: str) -> None:
    missing = missing_values(WILD7, name)
    assert not missing, f"{name}: values not on the pages: {missing}"


@pytest.mark.parametrize("name", SITES)
def test_every_value_sits_near_its_record(name: str) -> None:
    far = far_values(WILD7, name)
    assert not far, f"{name}: values not near their record's first field: {far}"
