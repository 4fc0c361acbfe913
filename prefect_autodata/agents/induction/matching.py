"""Requested field ↔ candidate value matching, for any field names.

A candidate is something a page offers as a field: a labelled value on a detail page, a table
column under its header, a text slot repeated in every record of a listing, a structured-data
property. The user names fields as they think of them ("writer", "cost", "Title"); a page labels
them its own way ("By", "Our price:", "Auteur"). Matching combines

- names: normalisation (case, punctuation, camelCase, plurals), a small general English thesaurus
  of words people use interchangeably for a column, abbreviations ("Auth." for author) and fuzzy
  similarity (rapidfuzz) for spelling and language variants;
- value types: a field whose name says money, a date, a count, a percentage, a height or a link
  prefers candidates whose values look like that, and avoids those that look like something else;
- cross-record behaviour: a value constant over every record is template text, not a field.

Nothing here knows a site, a record kind or a page layout; the thesaurus holds general words only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

# ------------------------------------------------------------------------------------------ names

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-z]+")

# Words used interchangeably for one column, in general English (not any one site or kind).
_THESAURUS: list[set[str]] = [
    {"title", "name", "heading", "headline"},
    {"author", "writer", "by", "creator", "written by"},
    {"price", "cost", "our price", "sale price", "list price", "amount"},
    {"date", "published", "posted", "released", "date posted", "publication date"},
    {"url", "link", "website", "homepage", "web", "site"},
    {"description", "summary", "abstract", "overview", "about", "details"},
    {"address", "location", "street"},
    {"phone", "telephone", "tel", "phone number"},
    {"email", "e mail", "mail"},
    {"company", "employer", "organization", "organisation", "firm"},
    {"category", "genre", "type", "kind"},
    {"rating", "score", "stars"},
    {"salary", "pay", "compensation", "wage"},
    {"image", "photo", "picture", "thumbnail"},
    {"population", "inhabitants", "people"},
    {"number", "no", "num", "id"},
    {"year", "yr"},
    {"height", "ht"},
    {"weight", "wt"},
]
_STOP = {"the", "a", "an", "of", "our", "your", "its", "their", "s"}
IDENTITY = {"title", "name", "heading", "headline"}


def normalise(name: str) -> str:
    """``"Our Price:"`` → ``"our price"``; ``"datePosted"`` → ``"date posted"``; ``"AUTHORS"`` → ``"author"``."""
    s = _CAMEL.sub(" ", str(name or "")).replace("_", " ").lower()
    words = [w for w in _NON_WORD.split(s) if w]
    return " ".join(_singular(w) for w in words)


def _singular(w: str) -> str:
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def _content(n: str) -> str:
    return " ".join(w for w in n.split() if w not in _STOP) or n


def _synonyms(n: str) -> set[str]:
    out = {n}
    for group in _THESAURUS:
        g = {normalise(x) for x in group}
        if n in g:
            out |= g
    return out


def name_score(requested: str, label: str | None) -> float:
    """0..1: how surely ``label`` (as a page shows it) names the ``requested`` field."""
    if not label:
        return 0.0
    r, lab = _content(normalise(requested)), _content(normalise(label))
    if not r or not lab:
        return 0.0
    if r == lab:
        return 1.0
    if lab in _synonyms(r) or r in _synonyms(lab):
        return 0.9
    rt, lt = r.split(), lab.split()
    # "Auth." for author, "Pop." for population: an abbreviation is a prefix of the word.
    raw = re.sub(r"[^a-z]", "", str(label).lower())
    if len(lt) == 1 and len(rt) == 1 and 3 <= len(raw) < len(rt[0]) and rt[0].startswith(raw):
        return 0.8
    # Multi-word labels that hold the requested word (or a synonym): "Author name", "List price".
    syn_words = {w for s in _synonyms(r) for w in s.split() if w not in _STOP}
    if len(rt) == 1 and rt[0] in lt:
        return 0.85 if len(lt) <= 3 else 0.6
    if len(rt) == 1 and set(lt) & syn_words and len(lt) <= 3:
        return 0.75
    if set(rt) <= set(lt):
        return 0.8
    ratio = fuzz.ratio(r, lab) / 100.0
    if ratio >= 0.85:
        return 0.8
    if ratio >= 0.7 and min(len(r), len(lab)) >= 4:
        return 0.55
    overlap = len(set(rt) & set(lt)) / max(len(set(rt) | set(lt)), 1)
    return round(0.6 * overlap, 3)


# ------------------------------------------------------------------------------------------ values

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_TYPES: list[tuple[str, re.Pattern]] = [
    ("url", re.compile(r"^(?:https?://|/)\S+$", re.I)),
    ("email", re.compile(r"^[\w.+-]+@[\w-]+\.[\w.-]+$")),
    ("percent", re.compile(r"^[-+]?\d+(?:[.,]\d+)?\s?%$")),
    (
        "money",
        re.compile(
            r"^(?:[$£€¥₹]|[A-Z]{3}\s?|US\$|C\$|A\$)\s?\d[\d,.\s]*(?:\s?[kKmM])?$"
            r"|^\d[\d,.\s]*\s?(?:[$£€¥₹]|USD|EUR|GBP|JPY|CHF|CAD|AUD)$"
        ),
    ),
    ("height", re.compile(r"^\d-\d{1,2}$|^\d'\s?\d{1,2}(?:\"|'')?$|^\d+(?:\.\d+)?\s?(?:cm|m|ft|in)$")),
    (
        "date",
        re.compile(
            rf"^\d{{4}}-\d{{1,2}}-\d{{1,2}}(?:[T ]\d.*)?$|^\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}$"
            rf"|^\d{{4}}/\d{{1,2}}/\d{{1,2}}$|^(?:\w+,?\s)?{_MONTH}\s\d{{1,2}}(?:st|nd|rd|th)?,?\s\d{{4}}$"
            rf"|^\d{{1,2}}(?:st|nd|rd|th)?\s{_MONTH},?\s\d{{4}}$|^{_MONTH}\s\d{{4}}$",
            re.I,
        ),
    ),
    ("year", re.compile(r"^(?:1[5-9]|20)\d{2}$")),
    ("integer", re.compile(r"^[-+]?\d{1,3}(?:[,\s.\u202f]\d{3})+$|^[-+]?\d+$")),
    (
        "number",
        re.compile(r"^[-+]?\d{1,3}(?:,\d{3})*\.\d+$|^[-+]?\d*\.\d+$|^[-+]?\d+(?:\.\d+)?[eE][-+]?\d+$"),
    ),
    ("phone", re.compile(r"^\+?[\d\s().-]{7,20}$")),
]
_NUMERIC = {"integer", "number", "year", "money", "percent"}


def value_type(value: Any) -> str:
    """The shape of one value: url, email, percent, money, height, date, year, integer, number, phone, text, empty."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "text"
    if isinstance(value, int):
        return "year" if 1500 <= value <= 2099 else "integer"
    if isinstance(value, float):
        return "number"
    s = str(value).strip()
    if not s:
        return "empty"
    for name, rx in _TYPES:
        if rx.match(s):
            if name == "phone" and sum(c.isdigit() for c in s) < 7:
                continue
            return name
    return "text"


def dominant_type(values: Iterable[Any]) -> tuple[str, float]:
    """The most common non-empty type and its share of the non-empty values (``("empty", 0)`` when none)."""
    kinds = [value_type(v) for v in values]
    kinds = [k for k in kinds if k != "empty"]
    if not kinds:
        return "empty", 0.0
    (k, n), *_ = Counter(kinds).most_common(1)
    return k, n / len(kinds)


# What a field's name says about its values (general words, no record kind).
_EXPECT: list[tuple[str, set[str]]] = [
    ("money", {"price", "cost", "fee", "salary", "pay", "wage", "msrp", "fare", "revenue", "budget"}),
    ("date", {"date", "published", "released", "posted", "born", "birthday", "deadline", "updated"}),
    ("year", {"year", "yr", "season"}),
    ("percent", {"percent", "percentage", "pct"}),
    ("height", {"height"}),
    ("url", {"url", "link", "website", "homepage", "href"}),
    ("email", {"email", "mail"}),
    ("phone", {"phone", "telephone", "tel", "fax"}),
    (
        "integer",
        {"population", "count", "quantity", "qty", "age", "rank", "page", "vote", "review", "point", "total"},
    ),
    ("text", IDENTITY | {"author", "writer", "description", "summary", "address", "city", "capital"}),
]


def expected_type(requested: str) -> str | None:
    """The value type a field name implies (``price`` → money), or None when the name does not say."""
    words = set(normalise(requested).split())
    for kind, names in _EXPECT:
        if words & names:
            return kind
    return None


def type_agreement(requested: str, values: list[Any]) -> float:
    """+1 when the values look like what the name implies, -1 when clearly not, 0 when unknown."""
    want = expected_type(requested)
    have, share = dominant_type(values)
    if want is None or have == "empty" or share < 0.6:
        return 0.0
    if want == have:
        return 1.0
    if want == "text":
        return -1.0 if have in _NUMERIC | {"url", "date", "email"} else 0.5
    if want == "integer" and have in ("number", "year"):
        return 0.7
    if want == "year" and have in ("integer", "date"):
        return 0.3 if have == "integer" else 0.5
    if want == "money" and have in ("number", "integer"):
        return 0.5
    if want == "percent" and have in ("number", "integer"):
        return 0.4
    if want == "url" and have != "url":
        return -1.0
    return -1.0 if have in _NUMERIC | {"text"} else -0.5


def is_template(values: list[Any], *, min_records: int = 3) -> bool:
    """True when every record shows the same value: boilerplate ("Add to cart"), not a field."""
    vals = [str(v).strip() for v in values if v is not None and str(v).strip()]
    return len(values) >= min_records and len(vals) == len(values) and len(set(vals)) == 1


# ------------------------------------------------------------------------------------------ assignment


@dataclass
class Candidate:
    """Something a page offers as a field: its label (if any), sample values, and how to read it.

    ``rule`` is a dict of FieldRule keywords (selector, attr, transforms) without the name;
    ``identity`` marks the record's own name (its heading, its link text, a table's first column);
    ``anchor`` says how stable the selector is (label-anchored beats structural beats positional).
    """

    label: str | None
    values: list[Any]
    rule: dict[str, Any]
    origin: str = "region"
    identity: bool = False
    anchor: float = 0.5
    where: str = "listing"
    notes: list[str] = field(default_factory=list)

    @property
    def fill(self) -> float:
        return sum(1 for v in self.values if v not in (None, "")) / max(len(self.values), 1)


@dataclass
class Match:
    requested: str
    candidate: Candidate
    score: float
    why: str


def score(requested: str, cand: Candidate, *, entity: str | None = None) -> tuple[float, str]:
    """How well ``cand`` serves ``requested`` (0 = not at all) and a short reason."""
    if cand.fill == 0:
        return 0.0, "no values"
    ns = name_score(requested, cand.label)
    why = f"label {cand.label!r}" if cand.label else "unlabelled"
    rn = _content(normalise(requested))
    if entity and cand.label and rn in IDENTITY:
        ent = normalise(entity)
        lab = normalise(cand.label)
        if ent and (lab == ent or ent in lab.split() or lab in (f"{ent} name", f"{ent} title")):
            ns, why = max(ns, 0.85), f"label {cand.label!r} names the {entity}"
    if rn in IDENTITY and cand.identity:
        ns, why = max(ns, 0.7), f"{why}; the record's own name ({cand.origin})"
    ta = type_agreement(requested, cand.values)
    if is_template(cand.values) and ns < 0.9:
        return 0.0, "constant over all records (template text)"
    if cand.label and ns == 0 and ta <= 0:
        return 0.0, why
    s = ns + 0.35 * ta + 0.1 * cand.anchor + 0.1 * cand.fill
    if not cand.label and not cand.identity:
        s = 0.45 * max(ta, 0.0) + 0.05 * cand.fill  # values alone: only a clear type says anything
    return round(s, 4), f"{why}; types {ta:+.1f}"


def assign(
    requested: list[str], candidates: list[Candidate], *, entity: str | None = None, threshold: float = 0.45
) -> dict[str, Match]:
    """Each requested field → its best candidate (each candidate serves one field), greedy by score."""
    pairs: list[tuple[float, int, int, str]] = []
    for i, r in enumerate(requested):
        for j, c in enumerate(candidates):
            s, why = score(r, c, entity=entity)
            if s >= threshold:
                pairs.append((s, i, j, why))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    out: dict[str, Match] = {}
    used: set[int] = set()
    for s, i, j, why in pairs:
        r = requested[i]
        if r in out or j in used:
            continue
        out[r] = Match(requested=r, candidate=candidates[j], score=s, why=why)
        used.add(j)
    # The record's own name (its heading, its link text) answers the first text-like field no
    # label matched: "club", "company", "model" are what a listing shows as each record's name.
    ident = next((j for j, c in enumerate(candidates) if c.identity and j not in used and c.fill), None)
    if ident is not None and not any(m.candidate.identity for m in out.values()):
        for r in requested:
            if (
                r not in out
                and expected_type(r) in (None, "text")
                and type_agreement(r, candidates[ident].values) >= 0
            ):
                out[r] = Match(
                    requested=r, candidate=candidates[ident], score=threshold, why="the record's own name"
                )
                break
    return out


def column_type(values: list[Any]) -> str:
    """The ColumnSpec type values of one shape land as: integers and plain numbers typed, others text."""
    kind, share = dominant_type(values)
    if share < 1.0:
        return "string"
    return {"integer": "integer", "number": "float"}.get(kind, "string")
