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

import html
import re
from pathlib import Path

import pytest
from wild_truth import (  # tests/unit is on sys.path
    _TAG,
    _WS,
    appears,
    missing_values,
    shape_problems,
    site_doc,
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


# --- wild3's own check: a value must sit near its own record ---------------------------------------------
# "Somewhere on the site" lets a small number (3 votes, ward 2, 14th place) pass anywhere. Here each
# record's first field (its name/title/id) is the anchor: every other value of that record, in one of
# its renderings, must be on the same page within BEFORE characters before or AFTER characters after an
# occurrence of the anchor, in a rendering of the page where each tag is replaced by its title, alt,
# content and datetime attributes and its mailto: href (a column header or a group heading counts as
# before its rows; a detail page's <title>/h1 is its anchor). A number or a date must be closer
# (NUM_BEFORE/NUM_AFTER): the stacked counters of a question come before its title, a rowspan year a
# row or two before its single.
BEFORE, AFTER = 2500, 1500
NUM_BEFORE, NUM_AFTER = 250, 400
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""")
_KEEP = {"title", "alt", "content", "datetime"}


def _flat(raw: str) -> str:
    def rep(m: re.Match[str]) -> str:
        vals = []
        for k, v in _ATTR.findall(m.group(0)):
            v = v.strip("\"'")
            if k.lower() in _KEEP or (k.lower() == "href" and v.startswith("mailto:")):
                vals.append(v)
        return " " + " ".join(vals) + " "

    return _WS.sub(" ", html.unescape(_TAG.sub(rep, raw))).strip()


def _flat_pages(site: Path) -> list[str]:
    return [_flat(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))]


def near(value: object, anchor: str, pages: list[str]) -> bool:
    """Whether ``value`` is on a page within the window around an occurrence of ``anchor``."""
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if numeric or (isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        before, after = NUM_BEFORE, NUM_AFTER
    else:
        before, after = BEFORE, AFTER
    a = _WS.sub(" ", anchor).strip()
    for t in pages:
        start = t.find(a)
        while start >= 0:
            win = t[max(0, start - before) : start + len(a) + after]
            if appears(value, [win]):
                return True
            start = t.find(a, start + 1)
    return False


@pytest.mark.parametrize("name", SITES)
def test_every_value_sits_near_its_record(name: str) -> None:
    doc = site_doc(WILD3, name)
    pages = _flat_pages(WILD3 / name)
    implied = doc.get("implied") or {}
    first = doc["fields"][0]
    far = []
    for i, rec in enumerate(doc["records"]):
        anchor = rec.get(first)
        assert anchor is not None and near(anchor, str(anchor), pages), (name, i, anchor)
        for field, value in rec.items():
            if value is None or field == first:
                continue
            word = (implied.get(field) or {}).get(value)
            if not near(word if word is not None else value, str(anchor), pages):
                far.append((i, field, value))
    assert not far, f"{name}: values not near their record's {first!r}: {far}"


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
