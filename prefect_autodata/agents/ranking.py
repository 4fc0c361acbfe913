"""Candidate ranking by measurement: the ONE place candidate specs are scored against each other.

Inducers propose candidates in a prior order (their own guess of coverage); the engineering loop
dry-runs the first few (``select``), and this module turns each test agent report into a score from
what the dry run *measured*: per requested field whether it is produced, filled and of the type its
name implies, the rows against the listing's stated total, duplicate rows and keys, records read from
site navigation. ``honest`` is the bar a table must reach to be landed at all (the rest ends as a
``no_spec`` that names per field what was tried): the fields the user named have rules that do not
read label text (under a quarter of them may be absent from the source); a record kind's default fields
(the user named none) are wanted, not required. The prior only breaks ties.

Candidates of several sites (a search finds more than one) are measured against each other: the
best candidates of other sites are dry-run too before one is chosen, and a table far smaller than
what another site measured with the same fields ranks lower.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: issues that make a candidate unusable whatever its fields (no rows, an unreachable source)
HARD_KINDS = ("no_records", "fetch_error", "python_error")
#: findings that make one requested field bad (it is in the table but carries nothing usable)
FIELD_BAD_KINDS = (
    "missing_field",
    "not_produced",
    "null_field",
    "label_text",
    "merged_fields",
    "swapped_fields",
    "wrong_values",
    "same_values",
    "header_mismatch",
)
#: findings on a field the user named that keep a table from being landed at all: no rule reads the
#: field, or what it reads is label text. A rule null in the whole sample is a sparse field (few papers
#: have supplementary material), and a mistyped one is doubtful: a name's type is a guess ("mpg" reads
#: "22 city / 30 hwy")
UNMET_KINDS = (
    "missing_field",
    "not_produced",
    "label_text",
    "merged_fields",
    "swapped_fields",
    *("wrong_values", "same_values", "header_mismatch"),  # values that contradict the field (agents.test)
)
#: a landed table has under this share of the user-named fields unmet: one of five or more requested
#: fields, two of nine, that the source does not have at all (a catalog without bibtex or
#: supplementary-material links) are shown as ``rule: null`` in ``collect --json``; one of three or
#: four is a half-right table, never landed
MAX_UNMET_SHARE = 0.25
#: findings that make a field doubtful: it counts, at a cost (a name's expected type is a guess)
FIELD_DOUBT_KINDS = ("type_conformity", "inconsistent_field", "template_values", "merged_values")
#: findings that cost a field a little: it is usable, and a candidate without the finding (the one the
#: test derived: the number read out of its text) is the better of two that measure alike otherwise
FIELD_COST_KINDS = ("number_in_text", "footnote_marks", "date_text")
FIELD_COST = 0.25
#: findings that make the whole table untrustworthy (records that are groups of records included: each
#: row mixes the first members of a list, and the page's other records are never read)
TABLE_BAD_KINDS = ("short_of_total", "navigation_records", "nested_records", "duplicate_key")
#: share of the requested fields that must be measured good for a table to be landed at all (two thirds:
#: a table with half its fields missing or wrong is a half-right table, which is never landed)
HONEST_MIN_COVERAGE = 0.66
#: candidates dry-run before one is chosen, and the wall-clock budget of that measuring
TOP_K = 4
MEASURE_SECONDS = 25.0
#: candidates derived from test findings (``agents.test.derive``) measured in one selection
MAX_DERIVED = 4
#: other sites whose best candidate is measured too (after the prior's top ``TOP_K``)
OTHER_SITES = 3
#: a table with under a quarter of the rows another site's table of the same fields measured is smaller
#: than what was asked for ("all the cameras")
SITE_ROWS_RATIO = 4


@dataclass
class Measure:
    """What the dry run of one candidate measured, as a score (higher is better) and a verdict."""

    score: float
    honest: bool
    coverage: float  # share of requested fields produced, filled and of the right type
    good: list[str] = field(default_factory=list)
    bad: dict[str, str] = field(default_factory=dict)  # field -> the finding that makes it bad
    table: list[str] = field(default_factory=list)  # table-level findings
    why: str = ""


def _kinds(report: Any) -> list[Any]:
    return list(getattr(report, "issues", []) or [])


def read_whole(spec: Any) -> bool:
    """Whether a dry run of ``spec`` reads all it would read for real (one request, no pages to follow)."""
    srcs = [s for s in getattr(spec, "sources", []) if getattr(s, "emit", True)]
    return bool(srcs) and all(
        s.pagination is None and not s.params and "{" not in s.request.url for s in srcs
    )


def required_of(requested: list[str]) -> list[str]:
    """The fields a landed table must have: those the user named (``requested.required`` when the
    list says which, ``agents.test.requested_names``); a plain list requires all of them."""
    req = getattr(requested, "required", None)
    return list(requested) if req is None else [f for f in req if f in requested]


def measure(
    report: Any,
    requested: list[str],
    *,
    expected_rows: int | None = None,
    whole: bool = False,
    required: list[str] | None = None,
) -> Measure:
    """Score one test report (``agents.test.TestReport``) for the ``requested`` fields.

    ``required`` (default ``required_of(requested)``) are the fields without which nothing is landed:
    more than ``MAX_UNMET_SHARE`` of them with no rule or reading label text (``UNMET_KINDS``) fails
    the honest bar whatever the coverage.

    Coverage (fields produced, filled, not label text) dominates, then the fill rate in bands of 0.1,
    then table findings; ``expected_rows`` (the plan's size) counts against a table that read all it
    would read (``whole``) and holds under a quarter of it. Within a band the prior order decides
    (``rank``), so a measurement never trades the inducers' choice for noise."""
    issues = _kinds(report)
    rows = int(getattr(report, "rows", 0) or 0)
    rates = dict(getattr(report, "fill_rates", {}) or {})
    hard = [i for i in issues if i.kind in HARD_KINDS]
    bad: dict[str, str] = {}
    for i in issues:
        if i.kind in FIELD_BAD_KINDS and i.field and i.field not in bad:
            bad[i.field] = i.kind
    wanted = list(requested) or list(rates)
    for f in wanted:
        if f not in bad and f not in rates:
            bad[f] = "not_produced"
        elif f not in bad and not rates.get(f):
            bad[f] = "null_field"
    good = [f for f in wanted if f not in bad]
    coverage = len(good) / len(wanted) if wanted else (1.0 if rows else 0.0)
    fill = sum(rates.get(f, 0.0) for f in good) / len(wanted) if wanted else 0.0
    table = sorted({i.kind for i in issues if i.kind in TABLE_BAD_KINDS})
    dup = next((i.ratio or 0.0 for i in issues if i.kind == "duplicate_rows"), 0.0)
    filtered_out = any(i.kind == "filter_kept_none" for i in issues)
    if hard or rows == 0:
        produced = sum(1 for f in wanted if f in rates) / max(1, len(wanted))
        return Measure(
            score=round(-2.0 + 0.1 * produced, 4),
            honest=False,
            coverage=0.0,
            bad={f: (hard[0].kind if hard else "no_records") for f in wanted},
            table=[i.kind for i in hard] or ["no_records"],
            why=(hard[0].message if hard else "no rows")[:200],
        )
    doubt = sorted({i.field for i in issues if i.kind in FIELD_DOUBT_KINDS and i.field in good})
    small = bool(expected_rows and whole and rows * 4 < expected_rows)
    score = 3.0 * coverage + round(fill, 1)
    score -= 1.0 * ("short_of_total" in table) + 2.0 * ("navigation_records" in table)
    score -= 2.0 * ("nested_records" in table)
    score -= 0.5 * ("duplicate_key" in table) + round(dup, 1) + 0.3 * filtered_out + 0.5 * small
    costly = sorted({i.field for i in issues if i.kind in FIELD_COST_KINDS and i.field in good})
    score -= FIELD_COST * len(costly)
    must = required_of(requested) if required is None else [f for f in required if f in wanted]
    unmet = [f for f in must if bad.get(f) in UNMET_KINDS]
    too_many = bool(unmet) and len(unmet) >= MAX_UNMET_SHARE * len(must)
    honest = bool(good) and coverage >= HONEST_MIN_COVERAGE and not table and not too_many
    why = f"{len(good)}/{len(wanted)} fields good, fill {fill:.2f}" + (
        "; bad " + ", ".join(f"{f} ({k})" for f, k in bad.items()) if bad else ""
    )
    if doubt:
        why += "; type doubtful: " + ", ".join(doubt)
    if costly:
        why += "; values to clean: " + ", ".join(costly)
    if unmet:
        why += "; requested but not landed right: " + ", ".join(unmet)
        why += " (too many to land)" if too_many else ""
    if small:
        why += f"; {rows} rows where about {expected_rows} are expected"
    if table:
        why += "; table: " + ", ".join(table)
    return Measure(
        score=round(score, 4),
        honest=honest,
        coverage=round(coverage, 4),
        good=good,
        bad=bad,
        table=table,
        why=why,
    )


@dataclass
class Measured:
    """A candidate with its test report and measure; ``index`` is its place in the prior order."""

    index: int
    candidate: Any
    report: Any
    measure: Measure


_HOSTLIKE = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$")
_FILE_END = re.compile(r"\.(?:html?|php|aspx?|jsp|cgi|json|csv|xml|txt|js|ndjson|jsonl|xlsx?)$")


def site_of(candidate: Any) -> str:
    """The site a candidate reads: its source URL's host; behind a mirror (``<mirror>/<host>/path``,
    see ``agents.mirror``) the first path segment when it names a host."""
    from urllib.parse import urlsplit

    url = str(getattr(candidate, "source_url", "") or "")
    if not url:
        spec = getattr(candidate, "spec", candidate)
        srcs = list(getattr(spec, "sources", []) or [])
        url = str(srcs[-1].request.url) if srcs else ""
    parts = urlsplit(url)
    first = parts.path.lstrip("/").split("/", 1)[0].lower()
    if _HOSTLIKE.match(first) and not _FILE_END.search(first):
        return f"{parts.netloc}/{first}"
    return parts.netloc


def prior_order(candidates: list[Any]) -> list[Any]:
    """The inducers' own order (their ``score``, higher first): which candidates are measured first."""
    return sorted(candidates, key=lambda c: -float(getattr(c, "score", 0.0) or 0.0))


def rank(measured: list[Measured], agreement: dict[str, float] | None = None) -> list[Measured]:
    """Honest tables first, then by measured score, then (tables of several sites measuring the same)
    by how well the site's search hit agrees with the request (``site_agreement``), then by prior
    order."""
    agree = agreement or {}
    return sorted(
        measured,
        key=lambda m: (not m.measure.honest, -m.measure.score, -agree_of(agree, m.candidate), m.index),
    )


def site_key(site: str) -> str:
    """A site as a host name, whether it is read directly or behind a mirror (``<mirror>/<host>``)."""
    return site.rsplit("/", 1)[-1].lower()


def agree_of(agreement: dict[str, float], candidate: Any) -> float:
    """The search agreement of a candidate's site (0 for a site no hit named)."""
    return agreement.get(site_key(site_of(candidate)), 0.0) if agreement else 0.0


def site_agreement(hits: list[Any], plan: Any) -> dict[str, float]:
    """Per site (``site_key``), the best agreement of its search hits with the request
    (``discovery.hit_score``: the request's entity and filter words, its own phrase, the requested
    fields a title/snippet names, its years). The measured tables decide; this only orders sites whose
    tables measure alike, and which other sites are measured first."""
    from prefect_autodata.agents.offline import discovery as d

    out: dict[str, float] = {}
    for h in hits or []:
        url = str(getattr(h, "url", "") or "")
        if not url:
            continue
        key = site_key(site_of(_Hit(url)))
        sc = d.hit_score(h, plan)
        out[key] = max(out.get(key, sc), sc)
    return out


def covered_by_site(candidates: list[Any], evidence: Any) -> Callable[[Any], int]:
    """``best(c)``: the most requested fields a candidate of ``c``'s site covers (``c=None``: the
    fewest any site's best covers, over the sites the pages are of), when the evidence comes from a
    search (several sites may answer); with the user's sources, the best of all candidates (one
    site: a weaker candidate of another host of it is not worth a dry run)."""
    best_all = max((len(c.covered) for c in candidates), default=0)
    if not getattr(evidence, "search", None):
        return lambda _c: best_all
    per: dict[str, int] = {}
    for c in candidates:
        k = site_key(site_of(c))
        per[k] = max(per.get(k, 0), len(c.covered))
    sites = {site_key(site_of(_Hit(p.final_url))) for p in evidence.ok_pages()} or set(per)

    def best(c: Any) -> int:
        if c is None:
            return min((per.get(s, 0) for s in sites), default=best_all)
        return per.get(site_key(site_of(c)), 0)

    return best


@dataclass(frozen=True)
class _Hit:
    """A search hit's URL dressed as a candidate for ``site_of``."""

    source_url: str


def compare_sites(measured: list[Measured]) -> None:
    """A table far smaller (``SITE_ROWS_RATIO``) than an honest table of another site with at least its
    coverage ranks lower: both answer the request's fields, the other holds what was asked for. Only
    for a request that keeps every record (``select`` skips it for a ``narrowed`` one: a team's four
    seasons are no part of a league table)."""
    for m in measured:
        rows = int(getattr(m.report, "rows", 0) or 0)
        site = site_of(m.candidate)
        bigger = [
            o
            for o in measured
            if o is not m
            and o.measure.honest
            and o.measure.coverage >= m.measure.coverage
            and site_of(o.candidate) != site
            and int(getattr(o.report, "rows", 0) or 0) >= SITE_ROWS_RATIO * max(1, rows)
        ]
        if rows and bigger:
            o = bigger[0]
            m.measure.score = round(m.measure.score - 0.5, 4)
            m.measure.why += (
                f"; {rows} rows where {site_of(o.candidate)} measured {int(getattr(o.report, 'rows', 0))}"
            )


def _measuring_order(ordered: list[Any], k: int, agreement: dict[str, float]) -> list[int]:
    """Indices (into the prior order) in the order they are dry-run: the prior's first, then the best
    candidate of each other site (the sites by search agreement when a search found several, else by
    prior), then the rest of the prior's first ``k``."""
    first_of: dict[str, int] = {}
    for i, c in enumerate(ordered):
        first_of.setdefault(site_of(c), i)
    top = list(range(min(max(1, k), len(ordered))))
    if not ordered:
        return []
    own = site_of(ordered[0])
    others = [s for s in first_of if s != own]
    if agreement:
        others.sort(key=lambda s: (-agree_of(agreement, ordered[first_of[s]]), first_of[s]))
    out = [0] + [first_of[s] for s in others[:OTHER_SITES]]
    out += [i for i in top if i not in out]
    return out


def select(
    candidates: list[Any],
    test: Callable[[Any], Any],
    requested: list[str],
    *,
    expected_rows: int | None = None,
    k: int = TOP_K,
    seconds: float = MEASURE_SECONDS,
    log: Callable[[str], None] | None = None,
    agreement: dict[str, float] | None = None,
) -> list[Measured]:
    """Dry-run the first ``k`` candidates of the prior order (``test(candidate) -> report``) and the best
    candidate of up to ``OTHER_SITES`` other sites within ``seconds``, and return them ranked by what
    was measured (best first). The first candidate is always measured, then the other sites' best
    (in order of their search ``agreement``, ``site_agreement``, when given), then the rest of the
    first ``k``; once a candidate has every requested field good, no further candidate of its site is
    measured (the first such table is its site's), but the other sites' best still are: a search may
    have found several. Tables of several sites that measure alike are ordered by their agreement."""
    ordered = prior_order(candidates)
    agree = agreement or {}
    t0 = time.monotonic()
    out: list[Measured] = []
    done: set[str] = set()  # sites whose table measured complete
    sites: list[str] = []  # sites measured, in order
    queue = [(idx, ordered[idx]) for idx in _measuring_order(ordered, k, agree)]
    n_derived = 0
    while queue:
        idx, cand = queue.pop(0)
        site = site_of(cand)
        if site in done:
            continue
        if out and time.monotonic() - t0 > seconds:
            break
        rep = test(cand)
        spec = getattr(cand, "spec", cand)
        m = measure(rep, requested, expected_rows=expected_rows, whole=read_whole(spec))
        out.append(Measured(idx, cand, rep, m))
        # what the findings say how to build (records that were groups read as their members, merged
        # values split by their units) is measured next, once per way of deriving
        if hasattr(cand, "model_copy") and n_derived < MAX_DERIVED:
            for why, derived in reversed(getattr(rep, "derived", None) or []):
                if why not in str(getattr(cand, "rationale", "")):
                    n_derived += 1
                    update = {
                        "spec": derived,
                        "rationale": f"{getattr(cand, 'rationale', '')}; {why}".lstrip("; "),
                    }
                    queue.insert(0, (idx, cand.model_copy(update=update)))
        if site not in sites:
            sites.append(site)
        if log:
            log(
                f"candidate {idx + 1}/{len(ordered)} ({getattr(cand, 'method', '?')}, {site}, "
                f"{int(getattr(rep, 'rows', 0) or 0)} rows): score {m.score:.2f}; {m.why}"
            )
        if m.honest and m.coverage >= 1.0 and not any(i.kind == "duplicate_rows" for i in _kinds(rep)):
            done.add(site)
    if len(sites) > 1 and not getattr(requested, "narrowed", False):
        compare_sites(out)  # "all the cameras": of two sites with the same fields, the one with them all
    ranked = rank(out, agree if len(sites) > 1 else None)
    tied = ties_of(ranked)
    if tied:
        note = (
            f"; {len(tied) + 1} sites measure alike ({', '.join(site_of(m.candidate) for m in ranked[:1] + tied)}): "
            "the one whose search hit agrees best with the request is taken; give --source to choose"
        )
        ranked[0].measure.why += note
        if log:
            log(note[2:])
    also = alike_of(ranked, tied)
    if also:
        note = (
            f"; {len(also)} other site(s) also answer every field this table does "
            f"({', '.join(site_of(m.candidate) for m in also)}): nothing the request states tells them "
            "apart; give --source to choose"
        )
        ranked[0].measure.why += note
        if log:
            log(note[2:])
    return ranked


def alike_of(ranked: list[Measured], tied: list[Measured] | None = None) -> list[Measured]:
    """The best table of each other site that is honest too and has every field the first one has good
    (its rows or fill differ, so it is no exact tie): a search found several sites holding the same kind
    of records and the request names nothing (a filter value, a field) that one of them lacks."""
    if not ranked or not ranked[0].measure.honest:
        return []
    top, skip = ranked[0], {id(m) for m in tied or []}
    return [
        m
        for m in _best_of_other_sites(ranked)
        if id(m) not in skip
        and m.measure.honest
        and not m.measure.table
        and set(top.measure.good) <= set(m.measure.good)
    ]


def ties_of(ranked: list[Measured]) -> list[Measured]:
    """The best measured table of each other site that measured exactly as the first (honest, score)."""
    if not ranked or not ranked[0].measure.honest:
        return []
    top = ranked[0]
    return [
        m for m in _best_of_other_sites(ranked) if m.measure.honest and m.measure.score == top.measure.score
    ]


def _best_of_other_sites(ranked: list[Measured]) -> list[Measured]:
    """The first (best measured) table of each site after the first table's own site, in rank order."""
    seen, out = {site_of(ranked[0].candidate)}, []
    for m in ranked[1:]:
        site = site_of(m.candidate)
        if site not in seen:
            seen.add(site)
            out.append(m)
    return out


def best_honest(
    tested: list[tuple[Any, Any]], requested: list[str], *, expected_rows: int | None = None
) -> tuple[Any, Any, Measure] | None:
    """Among (spec, report) pairs in the order they were tried (best measured first), the best one
    reaching the honest bar (the earlier one of equal score), or None."""
    scored = [
        (i, s, r, measure(r, requested, expected_rows=expected_rows, whole=read_whole(s)))
        for i, (s, r) in enumerate(tested)
    ]
    ok = [x for x in scored if x[3].honest]
    if not ok:
        return None
    _, s, r, m = min(ok, key=lambda x: (-x[3].score, x[0]))
    return s, r, m
