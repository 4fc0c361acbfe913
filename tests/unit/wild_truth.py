"""What the wild-page consistency tests share (test-only): the usual renderings of a value and the
page texts of a hand-written site (tests/data/wild2, wild3, wild4), so a typo in a held-out set's
truth is caught against its pages. No product code is imported."""

from __future__ import annotations

import datetime as dt
import html
import re
from pathlib import Path

import yaml

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


_WITH_UNIT = re.compile(
    r"([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?([^\W\d_][^\W\d_/.]{0,7}(?:/[^\W\d_]{1,4})?\.?)"
)


def appears(value: object, haystacks: list[str]) -> bool:
    """Whether one of the usual renderings of ``value`` is in one of the page texts."""
    if isinstance(value, bool):
        value = str(value).lower()
    if isinstance(value, int | float):
        pats = _number_patterns(value)
        return any(p.search(h) for p in pats for h in haystacks)
    s = str(value)
    if m := _WITH_UNIT.fullmatch(_WS.sub(" ", s).strip()):
        # a number with its unit ("20 mpg") is also on a page that writes it "20mpg", "20 MPG", "20.0 mpg"
        unit = rf"\s?(?i:{re.escape(m[2])})(?![^\W\d_])"
        pats = [re.compile(p.pattern + unit) for p in _number_patterns(float(m[1].replace(",", "")))]
        return any(p.search(h) for p in pats for h in haystacks)
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


def site_doc(root: Path, name: str) -> dict:
    """A site's ``expected.yaml``."""
    return yaml.safe_load((root / name / "expected.yaml").read_text(encoding="utf-8"))


def shape_problems(root: Path, name: str) -> list[str]:
    """What is wrong with a site's ``expected.yaml`` as a truth file (empty when nothing)."""
    doc = site_doc(root, name)
    out = []
    if not set(doc) <= {"request", "source", "fields", "style", "implied", "records"}:
        out.append(f"unknown keys {sorted(set(doc))}")
    if not (doc.get("request") and doc.get("style") and doc.get("fields")):
        out.append("request, style and fields are required")
    if not 6 <= len(doc.get("records") or []) <= 15:
        out.append(f"{len(doc.get('records') or [])} records (6-15 wanted)")
    for rec in doc.get("records") or []:
        if not set(rec) <= set(doc["fields"]):
            out.append(f"record with fields outside the list: {rec}")
    # the sentence names every field (a data engineer's wording, not a schema)
    words = set(re.findall(r"[a-z]+", doc["request"].lower()))
    words |= {w[:-1] for w in words if w.endswith("s")}  # "titles" names the field "title"
    for f in doc["fields"]:
        if not set(re.findall(r"[a-z]+", f.lower())) <= words:
            out.append(f"the sentence does not name the field {f!r}")
    if _resolve(root / name, doc["source"]) is None:
        out.append(f"source {doc['source']!r} resolves to no page")
    return out


def missing_values(root: Path, name: str) -> list[tuple[int, str, object]]:
    """The (record, field, value) of the truth that none of the site's pages shows."""
    doc = site_doc(root, name)
    hay = _haystacks(root / name)
    implied = doc.get("implied") or {}
    missing = []
    for i, rec in enumerate(doc["records"]):
        for field, value in rec.items():
            if value is None:
                continue
            word = (implied.get(field) or {}).get(value)
            if not appears(word if word is not None else value, hay):
                missing.append((i, field, value))
    return missing


# --- a value must sit near its own record (wild3 and wild4) ----------------------------------------
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


def far_values(root: Path, name: str) -> list[tuple[int, str, object]]:
    """The values of a site's records that are not near their record's anchor (its first field)."""
    doc = site_doc(root, name)
    pages = _flat_pages(root / name)
    implied = doc.get("implied") or {}
    first = doc["fields"][0]
    far: list[tuple[int, str, object]] = []
    for i, rec in enumerate(doc["records"]):
        anchor = rec.get(first)
        if anchor is None or not near(anchor, str(anchor), pages):
            far.append((i, first, anchor))
            continue
        for field, value in rec.items():
            if value is None or field == first:
                continue
            word = (implied.get(field) or {}).get(value)
            if not near(word if word is not None else value, str(anchor), pages):
                far.append((i, field, value))
    return far
