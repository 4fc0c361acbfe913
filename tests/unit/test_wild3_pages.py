"""The held-out wild3 sites are self-consistent (a copy of tests/unit/test_wild2_pages.py pointed at tests/data/wild3): every expected value is on the site's pages.

tests/data/wild3 holds 12 hand-written 2010s-style sites, each with an ``expected.yaml`` (the
sentence, the entry page, the fields and the invented records). The truth was written before the
product ever ran on them, so a typo in it would silently cost F1 forever; this test checks the
truth against the pages instead (test-only: no product code is imported). A value counts as present
when one of its usual renderings ("2,318", "$39.99" split over spans, "Sep 3, 2018", "02-11-2006")
is in the page text or in an attribute or script of one of the site's pages; a value the page only
implies ("discuss" for 0 comments) is listed under ``implied`` in the yaml and its word is checked.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

import pytest
import yaml

WILD2 = Path(__file__).resolve().parents[1] / "data" / "wild3"  # the third held-out set
SITES = sorted(p.parent.name for p in WILD2.glob("*/expected.yaml"))
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_TAG = re.compile(r"<[^>]*>")
_WS = re.compile(r"\s+")


def _texts(raw: str) -> list[str]:
    """One page as texts: raw (attributes, scripts) and with its tags cut two ways."""
    return [_WS.sub(" ", html.unescape(raw))] + [
        _WS.sub(" ", html.unescape(_TAG.sub(sep, raw))).strip() for sep in ("", " ")
    ]


def _haystacks(site: Path) -> list[str]:
    """The texts of every page of a site."""
    return [t for page in sorted(site.rglob("*.html")) for t in _texts(page.read_text(encoding="utf-8"))]


def _date_forms(d: dt.date) -> list[str]:
    mon = _MONTHS[d.month - 1]
    sfx = "th" if 11 <= d.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
    return [
        d.isoformat(),
        f"{mon[:3]} {d.day}, {d.year}",
        f"{mon} {d.day}, {d.year}",
        f"{d.day} {mon} {d.year}",
        f"{mon} {d.day}{sfx}",
        f"{d.month}/{d.day}/{d.year}",
        f"{d.month:02d}/{d.day:02d}/{d.year}",
        f"{d.month:02d}-{d.day:02d}-{d.year}",
    ]


def _number_patterns(v: float) -> list[re.Pattern[str]]:
    forms = {f"{v:,.2f}", f"{v:.2f}", f"{v:,.1f}", f"{v:.1f}", f"{v:.2f}".replace(".", ",")}
    if float(v).is_integer():
        forms |= {str(int(v)), f"{int(v):,}"}
    else:
        forms.add(repr(float(v)))
    # the number stands alone: 39 is not found inside 1395 or 39.5
    return [re.compile(rf"(?<![\d.,]){re.escape(f)}(?![\d]|[.,]\d)") for f in forms]


def appears(value: object, haystacks: list[str]) -> bool:
    """Whether one of the usual renderings of ``value`` is in one of the page texts."""
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, int | float):
        pats = _number_patterns(value)
        return any(p.search(h) for p in pats for h in haystacks)
    s = str(value)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        forms = _date_forms(dt.date.fromisoformat(s))
        return any(f in h for f in forms for h in haystacks)
    s = _WS.sub(" ", s).strip()
    return any(s in h for h in haystacks)


def _resolve(site: Path, source: str) -> Path | None:
    """The file the wild benchmark's static server serves for ``source`` (``path@query.html``...)."""
    path, _, query = source.partition("?")
    base = site / path
    cands = []
    if query:
        stem = str(base)[: -len(".html")] if str(base).endswith(".html") else str(base).rstrip("/")
        cands.append(Path(f"{stem}@{query}.html"))
    cands += [base, Path(f"{str(base).rstrip('/')}.html"), base / "index.html"]
    return next((c for c in cands if c.is_file()), None)


def _doc(name: str) -> dict:
    return yaml.safe_load((WILD2 / name / "expected.yaml").read_text(encoding="utf-8"))


def test_twelve_sites() -> None:
    assert len(SITES) == 12


@pytest.mark.parametrize("name", SITES)
def test_expected_yaml_shape(name: str) -> None:
    doc = _doc(name)
    assert set(doc) <= {"request", "source", "fields", "style", "implied", "records"}
    assert doc["request"] and doc["style"] and doc["fields"]
    assert 6 <= len(doc["records"]) <= 15, name
    for rec in doc["records"]:
        assert set(rec) <= set(doc["fields"]), rec
    # the sentence names every field (a data engineer's wording, not a schema)
    words = set(re.findall(r"[a-z]+", doc["request"].lower()))
    words |= {w[:-1] for w in words if w.endswith("s")}  # "titles" names the field "title"
    for f in doc["fields"]:
        assert set(re.findall(r"[a-z]+", f.lower())) <= words, (name, f)
    assert _resolve(WILD2 / name, doc["source"]) is not None, doc["source"]


@pytest.mark.parametrize("name", SITES)
def test_every_expected_value_is_on_the_pages(name: str) -> None:
    doc = _doc(name)
    hay = _haystacks(WILD2 / name)
    implied = doc.get("implied") or {}
    missing = []
    for i, rec in enumerate(doc["records"]):
        for field, value in rec.items():
            if value is None:
                continue
            word = (implied.get(field) or {}).get(value)
            if not appears(word if word is not None else value, hay):
                missing.append((i, field, value))
    assert not missing, f"{name}: values not on the pages: {missing}"


def test_appears_rejects_what_is_not_there() -> None:
    assert appears(39.99, _texts("<span>$</span>39<span>.</span><span>99</span> (1,395)"))
    hay = ["$39.99 out of 1395 reviews"]
    assert appears(39.99, hay) and appears(1395, hay)
    assert not appears(39, hay) and not appears(139, hay) and not appears(3.5, hay)
    assert not appears("Zyzzyva", hay) and not appears("2011-04-09", hay)
    assert appears("2011-04-09", ["Saturday, April 9th, 7:30pm"])


# --- added for wild3 (not in the wild2 copy above): a value must sit near its own record ---------------
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
    doc = _doc(name)
    pages = _flat_pages(WILD2 / name)
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
