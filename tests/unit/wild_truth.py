"""What the wild-page consistency tests share (test-only): the usual renderings of a value and the
page texts of a hand-written site (tests/data/wild2, tests/data/wild3), so a typo in a held-out set's
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
