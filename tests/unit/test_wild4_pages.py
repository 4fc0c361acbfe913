"""The held-out wild4 sites are self-consistent (the checks of tests/unit/test_wild3_pages.py, pointed at wild4): every expected value is on the site's pages and near its record.

wild4 holds 12 hand-written 2008-2016-style sites, each with an ``expected.yaml`` (the sentence, the
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

import datetime as dt
import html
import re
from pathlib import Path

import pytest
from wild_truth import (
    _TAG,
    _WS,
    _date_forms,
    appears,
    missing_values,
    shape_problems,
    site_doc,
)

WILD4 = Path(__file__).resolve().parents[1] / "data" / "wild4"  # the fourth held-out set
SITES = sorted(p.parent.name for p in WILD4.glob("*/expected.yaml"))


def test_twelve_sites() -> None:
    assert len(SITES) == 12


@pytest.mark.parametrize("name", SITES)
def test_expected_yaml_shape(name: str) -> None:
    assert shape_problems(WILD4, name) == []


@pytest.mark.parametrize("name", SITES)
def test_every_expected_value_is_on_the_pages(name: str) -> None:
    missing = missing_values(WILD4, name)
    assert not missing, f"{name}: values not on the pages: {missing}"


# --- wild3's own check (copied), with date anchors: a value must sit near its own record ---------------------------------------------
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
_PUNCT = re.compile(r" ([,;:])(?=\s)")


def _flat(raw: str) -> str:
    def rep(m: re.Match[str]) -> str:
        vals = []
        for k, v in _ATTR.findall(m.group(0)):
            v = v.strip("\"'")
            if k.lower() in _KEEP or (k.lower() == "href" and v.startswith("mailto:")):
                vals.append(v)
        return " " + " ".join(vals) + " "

    # a tag boundary before punctuation adds no space: "<a>Anna Kovač</a>, <a>Jun Takeda</a>"
    return _PUNCT.sub(r"\1", _WS.sub(" ", html.unescape(_TAG.sub(rep, raw))).strip())


def _flat_pages(site: Path) -> list[str]:
    return [_flat(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))]


def near(value: object, anchor: str, pages: list[str]) -> bool:
    """Whether ``value`` is on a page within the window around an occurrence of ``anchor``."""
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if numeric or (isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        before, after = NUM_BEFORE, NUM_AFTER
    else:
        before, after = BEFORE, AFTER
    for a in _anchor_forms(anchor):
        for t in pages:
            start = t.find(a)
            while start >= 0:
                win = t[max(0, start - before) : start + len(a) + after]
                if appears(value, [win]):
                    return True
                start = t.find(a, start + 1)
    return False


def _anchor_forms(anchor: str) -> list[str]:
    """The texts an anchor is searched as: itself, or every usual rendering of an ISO date."""
    a = _WS.sub(" ", anchor).strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", a):
        return _date_forms(dt.date.fromisoformat(a))
    return [a]


@pytest.mark.parametrize("name", SITES)
def test_every_value_sits_near_its_record(name: str) -> None:
    doc = site_doc(WILD4, name)
    pages = _flat_pages(WILD4 / name)
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
