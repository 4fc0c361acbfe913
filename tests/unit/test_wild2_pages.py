"""The held-out wild2 sites are self-consistent: every expected value is on the site's pages.

tests/data/wild2 holds 12 hand-written 2010s-style sites, each with an ``expected.yaml`` (the
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
from wild_truth import _texts, appears, missing_values, shape_problems  # tests/unit is on sys.path

WILD2 = Path(__file__).resolve().parents[1] / "data" / "wild2"
SITES = sorted(p.parent.name for p in WILD2.glob("*/expected.yaml"))


def test_twelve_sites() -> None:
    assert len(SITES) == 12


@pytest.mark.parametrize("name", SITES)
def test_expected_yaml_shape(name: str) -> None:
    assert shape_problems(WILD2, name) == []


@pytest.mark.parametrize("name", SITES)
def test_every_expected_value_is_on_the_pages(name: str) -> None:
    missing = missing_values(WILD2, name)
    assert not missing, f"{name}: values not on the pages: {missing}"


def test_appears_rejects_what_is_not_there() -> None:
    assert appears(39.99, _texts("<span>$</span>39<span>.</span><span>99</span> (1,395)"))
    hay = ["$39.99 out of 1395 reviews"]
    assert appears(39.99, hay) and appears(1395, hay)
    assert not appears(39, hay) and not appears(139, hay) and not appears(3.5, hay)
    assert not appears("Zyzzyva", hay) and not appears("2011-04-09", hay)
    assert appears("2011-04-09", ["Saturday, April 9th, 7:30pm"])
