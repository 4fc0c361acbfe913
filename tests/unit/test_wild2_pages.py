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

import datetime as dt
import html
import re
from pathlib import Path

import pytest
import yaml

WILD2 = Path(__file__).resolve().parents[1] / "data" / "wild2"
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
