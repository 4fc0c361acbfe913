"""Test agent: dry-runs a candidate spec on a small sample and reports precise failures.

The engineering agent's candidates are ranked guesses; this agent checks them against the live
source (the runtime's ``dry_run``: first pages, a few requests) and, with the plan, adds what the
request needs (a target field no rule produces). ``develop`` is the bounded repair loop: on a
failure it reflects on the history of attempts (BaRA-style: what failed, on which URL, which repair
was already tried) and either repairs the spec or moves to the next candidate; it stops on the
first passing spec, when the attempts are used up, or when nothing new is left to try.
"""

from __future__ import annotations

import os
import re
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.engineering import CandidateSpec, repair_spec
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.ohcache.messages import CheckResult, TestMessage
from prefect_autodata.runtime.runner import DryRunReport, Issue, dry_run
from prefect_autodata.runtime.spec import CollectorSpec

StopReason = Literal["passed", "attempts_exhausted", "no_progress", "no_candidates"]
SPARSE_FIELD_MAX_EMPTY = 0.5  # an empty_field issue up to this share of rows is the data's, not the rule's


class TestReport(BaseModel):
    """A dry run's outcome plus the plan-level problems, each issue one precise sentence."""

    __test__ = False  # not a pytest class
    ok: bool
    rows: int
    requests: int
    issues: list[Issue] = Field(default_factory=list)
    fill_rates: dict[str, float] = Field(default_factory=dict)
    sample: list[dict] = Field(default_factory=list)
    #: specs the findings say how to derive (``derive``: a list's members read as the records, a merged
    #: value split by its units), each with what was changed; the ranking measures them as candidates
    derived: list[tuple[str, CollectorSpec]] = Field(default_factory=list, exclude=True)

    def lines(self) -> list[str]:
        return [i.message for i in self.issues]


class Attempt(BaseModel):
    """One step of the repair loop: which candidate, what was changed, what the dry run said."""

    candidate: int
    source_url: str
    repair: str = ""
    ok: bool
    issues: list[str] = Field(default_factory=list)
    rows: int = 0


class DevelopResult(BaseModel):
    """The spec the development loop settled on (None when nothing passed) and how it got there."""

    spec: CollectorSpec | None
    candidate: CandidateSpec | None = None
    report: TestReport | None = None
    attempts: list[Attempt] = Field(default_factory=list)
    stop_reason: StopReason


class _FetchOnce:
    """A fetcher that answers each URL once (the response, or the same error, again after that), and
    parses each page once (``parsed``): the findings, the stated total and the derived specs read it."""

    def __init__(self, fetcher: Any) -> None:
        self._fetcher, self._got, self._roots = fetcher, {}, {}

    def parsed(self, url: str) -> Any:
        """The page at ``url`` parsed (``dom.parse``), once; raises as ``get`` does."""
        from prefect_autodata.agents.induction.dom import parse

        if url not in self._roots:
            self._roots[url] = parse(self.get(url).text)
        return self._roots[url]

    def get(self, url: str) -> Any:
        if url not in self._got:
            try:
                self._got[url] = (self._fetcher.get(url), None)
            except Exception as exc:  # the callers treat an unreachable page as no page
                self._got[url] = (None, exc)
        resp, exc = self._got[url]
        if exc is not None:
            raise exc
        return resp


def test_spec(
    spec: CollectorSpec,
    plan: ParsedInstruction | None = None,
    *,
    fetcher: Any = None,
    base_url: str | None = None,
    today: date | None = None,
    max_requests: int = 6,
    max_pages: int = 2,
) -> TestReport:
    """Dry-run ``spec`` and add per-field findings (``field_findings``) for the requested fields.

    A rule null in every sampled row, or a listing read short of its stated total, fails the test,
    so the engineering agent repairs or tries its next candidate; a requested field no rule fills
    (also a declared column without a rule) is reported as not produced (see FAILING_FINDINGS)."""
    rep: DryRunReport = dry_run(
        spec,
        max_pages=max_pages,
        max_requests=max_requests,
        base_url=base_url,
        fetcher=fetcher,
        today=today,
        sample_rows=SAMPLE_ROWS,
    )
    issues = list(rep.issues)
    if plan is not None and plan.field_names:
        have = {c.name for c in spec.output_columns()}
        for f in plan.field_names:
            if f not in have:
                issues.append(
                    Issue(
                        kind="missing_field",
                        source="*",
                        field=f,
                        message=f"requested field {f!r} is produced by no rule of the spec",
                    )
                )
    # The findings, the stated total and the derived specs all read the listing's first page: once.
    fetcher = _FetchOnce(fetcher) if fetcher is not None else None
    found = field_findings(spec, rep, requested_names(plan), fetcher=fetcher)
    issues += found
    # A field filled in most sample rows has a working rule: its gaps are the source's (a statistic
    # not recorded in early seasons), and no repair can fill them. Only a mostly-empty field fails.
    hard = [
        i
        for i in rep.issues
        if i.kind in ("no_records", "type_mismatch", "fetch_error")
        or (i.kind == "empty_field" and (i.ratio is None or i.ratio > SPARSE_FIELD_MAX_EMPTY))
    ] + [i for i in issues if i.kind in FAILING_FINDINGS]
    return TestReport(
        ok=(rep.ok or bool(rep.rows)) and not hard,
        rows=rep.rows,
        requests=rep.requests,
        issues=issues,
        fill_rates=rep.fill_rates,
        sample=rep.sample[:5],
        derived=derive(spec, found, rep, fetcher, requested_names(plan)),
    )


test_spec.__test__ = False  # type: ignore[attr-defined]  # a function named test_* is not a pytest test


# ------------------------------------------------------------------------------------------ per-field findings

from prefect_autodata.agents.induction.requested import requested_names as _names  # noqa: E402


class Requested(list):
    """The requested field names (a list of str) and, as ``required``, those the user named: a
    record kind's default fields (the user named none) are wanted, not required (``ranking.measure``);
    ``narrowed`` when the request keeps only some records (filters, years, named subjects), so a
    smaller table is no sign of a partial one (``ranking.compare_sites``)."""

    required: list[str]
    narrowed: bool = False


def requested_names(plan: Any) -> Requested:
    """The plan's requested field names; ``.required`` leaves out fields of origin ``kind_default``."""
    out = Requested(_names(plan))
    fields = getattr(plan, "fields", None) or []
    defaults = {getattr(f, "name", None) for f in fields if getattr(f, "origin", None) == "kind_default"}
    out.required = [f for f in out if f not in defaults]
    if plan is not None:
        named = [getattr(plan, a, None) or [] for a in ("filters", "years", "teams", "players", "tickers")]
        out.narrowed = any(named)
    return out


FAILING_FINDINGS = (
    "null_field",
    "short_of_total",
    "missing_field",
    "not_produced",
    "label_text",
    "merged_fields",
    "navigation_records",
    "nested_records",
    "swapped_fields",
    "duplicate_key",
    "wrong_values",
    "same_values",
    "header_mismatch",
    "summary_rows",
    "header_rows",
    "number_in_text",
    "footnote_marks",
    "date_text",
)
"""Findings that fail a dry run: a requested field no rule fills (also a declared column without a
rule), a rule that fills nothing, values that are label text (a label, a column header, another
field's label constant over the records), values that hold another requested field's value too
(``312 Posts 48 Topics`` read as the topics), a listing read only in part, records read from the
site's navigation, records that are groups of records, a key that repeats; values that flatly
contradict the field's name (``wrong_values``: a year of 5-digit numbers, an age of words), two fields
reading the same values (``same_values``), a table cell under a header that does not name its field
while another column's header does (``header_mismatch``), summary rows and repeated header rows among
the records (``summary_rows``, ``header_rows``), a field named for one number that reads it inside
the same text in every row (``number_in_text``: "#3 of 87 hotels" as the rank), values carrying a
page's reference marks (``footnote_marks``: "Meridian Tower[2]"), a date written as text that no
rule parses (``date_text``: "Tuesday, June 21, 2011"). Values of another
type than the field's name implies (``type_conformity``) lower a candidate's rank but do not fail it: a name's expected type is
a guess ("open" is a time, or a price).

A failed test is not the end of a candidate: the engineering loop ranks the dry-run candidates by
what was measured (``agents.ranking``), so when no source has a requested field at all (a site
without supplementary links) the best measured table is still landed as long as it reaches the
honest bar, its missing fields shown as ``rule: null`` in ``collect --json``'s ``fields``."""

FLAG_FINDINGS = ("template_values", "merged_values")
"""Findings that flag a column without failing the dry run or costing the candidate: what a landed
column holds is doubtful but not flatly wrong, and the field says so (``fields_report``'s ``finding``):
a per-record measure (a rating, a percentage) that is one constant in every sampled row while the
records differ (a widget's template text, ``template_values``), a date or number that holds another
requested field's value of the same row inside it (``merged_values``: "by Ann Lee at March 16, 2010"
as the date beside the author Ann Lee)."""

SAMPLE_ROWS = 30
"""Rows of the dry run's sample the per-field findings look at (duplicates, label text, pages)."""


def produced_rules(spec: CollectorSpec) -> dict[str, Any]:
    """Output field name → the rule that fills it (declared columns without a rule are absent)."""
    out: dict[str, Any] = {}
    for s in spec.sources:
        if not s.emit:
            continue
        for f in [*s.fields, *(s.detail.fields if s.detail else [])]:
            if not f.internal:
                out.setdefault(f.name, f)
    return out


def rule_text(rule: Any) -> str:
    """A rule in one short line: ``xpath //dt[...]`` / ``const 'x'`` / ``param year``."""
    if rule.kind is not None:
        return f"{rule.kind} {rule.expr}" + (f" @{rule.attr}" if rule.attr else "")
    if rule.const is not None:
        return f"const {rule.const!r}"
    if rule.from_param is not None:
        return f"param {rule.from_param}"
    return "page url"


def _parsed_page(fetcher: Any, url: str) -> Any:
    """``url`` parsed: once per test through ``_FetchOnce.parsed``, else parsed here."""
    from prefect_autodata.agents.induction.dom import parse

    if isinstance(fetcher, _FetchOnce):
        return fetcher.parsed(url)
    return parse(fetcher.get(url).text)


def _stated_total(spec: CollectorSpec, fetcher: Any) -> tuple[int, str] | None:
    """The total the first listing page states ("Showing 1-20 of 447"), for sources without pagination
    (the page ``_listing_pages`` parsed, not parsed again)."""
    from prefect_autodata.agents.induction.dom import text as visible
    from prefect_autodata.agents.induction.pagination import stated_total

    for s in spec.sources:
        url = _page_url(spec, s)
        if s.kind != "html" or not s.emit or s.pagination is not None or url is None or not fetcher:
            continue
        try:
            root = _parsed_page(fetcher, url)
        except Exception:  # the dry run already reported an unreachable page
            return None
        body = root.find("body") if root is not None else None
        total = stated_total(visible(body if body is not None else root)) if root is not None else None
        return (total, url) if total else None
    return None


def field_findings(
    spec: CollectorSpec, rep: DryRunReport, requested: list[str], *, fetcher: Any = None
) -> list[Issue]:
    """Per requested field: produced at all, filled at all, values of the type its name implies,
    filled alike on every sampled page; and the rows against a listing's stated total."""
    from prefect_autodata.agents.induction.matching import dominant_type, expected_type, type_agreement
    from prefect_autodata.runtime.runner import LINEAGE_URL

    out: list[Issue] = []
    rules = produced_rules(spec)
    declared = {c.name for c in spec.columns}
    pages = _listing_pages(spec, fetcher) if rep.rows else []
    headers = set().union(*(_column_headers(root) for _, root in pages)) if pages else set()
    listing_fields = {r.name for s, _ in pages for r in s.fields}
    for f in requested:
        if f not in rules:
            if f in declared:  # the existing check counts declared columns as produced
                out.append(
                    Issue(
                        kind="not_produced",
                        source="*",
                        field=f,
                        message=f"requested field {f!r} is a declared column but no rule fills it",
                    )
                )
            continue
        rate = rep.fill_rates.get(f)
        if rep.rows and rate == 0:
            out.append(
                Issue(
                    kind="null_field",
                    source="*",
                    field=f,
                    ratio=1.0,
                    message=f"field {f!r} is null in every one of {rep.rows} sampled rows "
                    f"(rule {rule_text(rules[f])})",
                )
            )
            continue
        values = [r.get(f) for r in rep.sample if r.get(f) not in (None, "")]
        label = _label_share(values, requested)
        # a rule that climbs from its record to the table's header row (the room over a grid cell)
        # reads a header by design: it is the record's value, not a header row read as a record
        over = "ancestor::table" in str(getattr(rules[f], "xpath", None) or "")
        if len(values) >= 2 and label < 0.5 and f in listing_fields and not over:
            label = max(label, _header_share(values, headers))
        if len(values) >= 2 and label < 0.5:
            label = max(label, _other_label_share(values, f, requested))
        if len(values) >= 2 and label >= 0.5:
            out.append(
                Issue(
                    kind="label_text",
                    source="*",
                    field=f,
                    ratio=round(label, 4),
                    message=f"field {f!r} holds label or header text, not values "
                    f"(e.g. {str(values[0])[:40]!r}; rule {rule_text(rules[f])})",
                )
            )
            continue
        other = _merged_with(values, f, requested)
        if other:
            out.append(
                Issue(
                    kind="merged_fields",
                    source="*",
                    field=f,
                    message=f"field {f!r} holds the value of {other!r} too, each after its own label "
                    f"(e.g. {str(values[0])[:40]!r}; rule {rule_text(rules[f])})",
                )
            )
            continue
        if len(values) >= 3 and type_agreement(f, values) < 0:
            kind, _ = dominant_type(values)
            out.append(
                Issue(
                    kind="type_conformity",
                    source="*",
                    field=f,
                    message=f"field {f!r} should hold {expected_type(f)} values but the sample holds {kind} "
                    f"(e.g. {str(values[0])[:40]!r})",
                )
            )
        by_page: dict[str, list[bool]] = {}
        for r in rep.sample:
            by_page.setdefault(str(r.get(LINEAGE_URL)), []).append(r.get(f) not in (None, ""))
        if len(by_page) > 1:
            rates = {u: sum(v) / len(v) for u, v in by_page.items()}
            if max(rates.values()) == 1.0 and min(rates.values()) == 0.0:
                empty = next(u for u, r in rates.items() if r == 0.0)
                out.append(
                    Issue(
                        kind="inconsistent_field",
                        source="*",
                        field=f,
                        url=empty,
                        message=f"field {f!r} is filled on some sampled pages and empty on {empty}",
                    )
                )
    out += swapped_fields(spec, rep, requested, skip={i.field for i in out if i.kind in FAILING_FINDINGS})
    out += unit_swaps(spec, rep, requested, skip={i.field for i in out if i.kind in FAILING_FINDINGS})
    failing = {i.field for i in out if i.kind in FAILING_FINDINGS}
    out += value_findings(rules, rep.sample, requested, failing)
    out += number_findings(rules, rep.sample, requested, failing)
    out += footnote_findings(rules, rep.sample, requested, failing)
    out += date_findings(rules, rep.sample, requested, failing)
    out += flag_findings(
        rules, rep.sample, requested, failing | {i.field for i in out if i.kind == "number_in_text"}
    )
    out += header_findings(pages, requested, failing)
    out += row_findings(rep.sample, requested, headers)
    out += table_findings(spec, rep)
    for s, root in pages:
        nested = nested_records(s, root)
        if nested is not None:
            out.append(nested)
    got = _stated_total(spec, fetcher) if rep.rows else None
    if got and got[0] > rep.rows:
        out.append(
            Issue(
                kind="short_of_total",
                source="*",
                url=got[1],
                message=f"{got[1]} states {got[0]} records but the spec reads {rep.rows} and follows no pages",
            )
        )
    return out


_LABEL_END = re.compile(r"[:：]\s*$")
_NAV_STEP = re.compile(r"(?:^|/|\s|>)(?:nav|header|footer)(?:$|[\[/\s.#:>])", re.I)


def _label_share(values: list[Any], requested: list[str]) -> float:
    """Share of ``values`` that are label text: ending in a colon, or naming a requested field."""
    from prefect_autodata.agents.induction.matching import name_score

    if not values:
        return 0.0
    n = 0
    for v in values:
        t = str(v).strip()
        if not t or len(t) > 40:
            continue
        if _LABEL_END.search(t) or any(name_score(r, t) >= 0.95 for r in requested):
            n += 1
    return n / len(values)


def table_findings(spec: CollectorSpec, rep: DryRunReport) -> list[Issue]:
    """Findings about the table as a whole: records read from the site's navigation, duplicate rows,
    a primary key that repeats in the sample, a filter step that kept none of the sampled records."""
    from prefect_autodata.runtime.runner import LINEAGE_URL

    out: list[Issue] = []
    for s in spec.sources:
        expr = (s.records.xpath or s.records.css or "") if s.records is not None and s.emit else ""
        if expr and _NAV_STEP.search(expr):
            out.append(
                Issue(
                    kind="navigation_records",
                    source=s.name,
                    message=f"source {s.name!r} reads its records from the site's navigation ({expr!r})",
                )
            )
    sample = [{k: v for k, v in r.items() if k != LINEAGE_URL} for r in rep.sample]
    if len(sample) >= 2:
        rows = [tuple(sorted((k, str(v)) for k, v in r.items())) for r in sample]
        dup = 1 - len(set(rows)) / len(rows)
        if dup > 0:
            out.append(
                Issue(
                    kind="duplicate_rows",
                    source="*",
                    ratio=round(dup, 4),
                    message=f"{100 * dup:.0f}% of the {len(rows)} sampled rows repeat another row",
                )
            )
        pk = [k for k in spec.primary_key if all(k in r for r in sample)]
        keys = [tuple(str(r.get(k)) for k in pk) for r in sample]
        if pk and len(set(keys)) < len(keys) and len(set(rows)) == len(rows):
            out.append(
                Issue(
                    kind="duplicate_key",
                    source="*",
                    field=pk[0] if len(pk) == 1 else None,
                    message=f"primary key {pk} repeats in the sample ({len(keys) - len(set(keys))} of "
                    f"{len(keys)} rows) although the rows differ",
                )
            )
    if rep.rows and not rep.sample and spec.python is not None:
        out.append(
            Issue(
                kind="filter_kept_none",
                source="*",
                message=f"the python step kept none of the {rep.rows} sampled records",
            )
        )
    return out


def fields_report(spec: CollectorSpec | None, report: Any, requested: list[str]) -> dict[str, dict[str, Any]]:
    """``collect --json``'s ``fields``: per requested field, the rule that fills it (or None) and its fill rate."""
    rules = produced_rules(spec) if spec is not None else {}
    rates = getattr(report, "fill_rates", {}) or {}
    out = {
        f: {
            "rule": rule_text(rules[f]) if f in rules else None,
            "fill_rate": (rates.get(f) if f in rules else 0.0) if report is not None else None,
        }
        for f in requested
    }
    # a landed column the test doubts says why, so a reader does not take it on trust
    for i in getattr(report, "issues", None) or []:
        f = getattr(i, "field", None)
        if f in out and out[f]["rule"] and "finding" not in out[f]:
            if i.kind in FAILING_FINDINGS or i.kind in FLAG_FINDINGS:
                out[f]["finding"] = f"{i.kind}: {i.message}"[:200]
    return out


def tried_summary(tested: list[tuple[CollectorSpec, Any]], requested: list[str]) -> str:
    """What was tried per requested field across the tested specs: the honest text of a ``no_spec``."""
    parts = []
    for f in requested:
        seen = []
        for spec, rep in tested:
            rules = produced_rules(spec)
            if f in rules:
                rate = (getattr(rep, "fill_rates", {}) or {}).get(f, 0.0)
                seen.append(f"{rule_text(rules[f])[:80]} ({100 * rate:.0f}% filled)")
        seen = list(dict.fromkeys(seen))
        parts.append(f"{f}: " + ("; ".join(seen[:3]) if seen else "no rule found on any source"))
    return " | ".join(parts)


def to_message(report: TestReport, *, spec_cache_id: str | None = None) -> TestMessage:
    """The report as the test role's OHCache message (one CheckResult per issue, or one pass)."""
    results = [
        CheckResult(name=i.kind + (f":{i.field}" if i.field else ""), passed=False, evidence=i.message)
        for i in report.issues
        if i.kind != "pagination_stopped" or not report.ok
    ]
    if not results:
        results = [
            CheckResult(
                name="dry_run",
                passed=True,
                evidence=f"{report.rows} rows from {report.requests} requests; all fields filled",
            )
        ]
    filled = list(report.fill_rates.values())
    quality = (sum(filled) / len(filled)) if filled else 0.0
    hint = "; ".join(report.lines()[:3])
    return TestMessage(
        results=results,
        quality_score=round(min(1.0, max(0.0, quality if report.ok else quality * 0.5)), 4),
        verdict="pass" if report.ok else "fail",
        repair_hint=hint,
        artifacts=[spec_cache_id] if spec_cache_id else [],
    )


def _repair(spec: CollectorSpec, report: TestReport, tried: set[str]) -> tuple[CollectorSpec, str] | None:
    """One local repair the history has not tried yet, or None (then the next candidate is taken)."""
    fixed = repair_spec(spec, report.issues)
    if fixed is None or fixed[1] in tried:
        return None
    return fixed


def develop(
    candidates: list[CandidateSpec],
    plan: ParsedInstruction | None = None,
    *,
    fetcher: Any = None,
    base_url: str | None = None,
    today: date | None = None,
    max_attempts: int = 4,
) -> DevelopResult:
    """Measure the first few candidates (``ranking.select``), then test them best measured first,
    repairing locally where the report says how, bounded by ``max_attempts``. When none passes, the
    best measured one that reaches the honest bar is kept (``stop_reason`` no_progress), else none."""
    from prefect_autodata.agents import ranking

    if not candidates:
        return DevelopResult(spec=None, stop_reason="no_candidates")
    requested = requested_names(plan)
    size = getattr(plan, "expected_size", None)
    expected = getattr(size, "rows", None) if size is not None else None
    reports: dict[str, TestReport] = {}
    tested: list[tuple[CandidateSpec, TestReport]] = []

    def run(cand: CandidateSpec, spec: CollectorSpec) -> TestReport:
        key = spec.model_dump_json(exclude_none=True)
        if key not in reports:
            reports[key] = test_spec(spec, plan, fetcher=fetcher, base_url=base_url, today=today)
            tested.append((cand.model_copy(update={"spec": spec}), reports[key]))
        return reports[key]

    ranked = ranking.select(candidates, lambda c: run(c, c.spec), requested, expected_rows=expected)
    measured = {id(m.candidate) for m in ranked}
    order = [m.candidate for m in ranked] + [
        c for c in ranking.prior_order(candidates) if id(c) not in measured
    ]
    attempts: list[Attempt] = []
    for idx, cand in enumerate(order):
        spec = cand.spec
        tried: set[str] = set()
        repair = ""
        while len(attempts) < max_attempts:
            rep = run(cand, spec)
            attempts.append(
                Attempt(
                    candidate=idx,
                    source_url=cand.source_url,
                    repair=repair,
                    ok=rep.ok,
                    issues=rep.lines(),
                    rows=rep.rows,
                )
            )
            if rep.ok:
                return DevelopResult(
                    spec=spec, candidate=cand, report=rep, attempts=attempts, stop_reason="passed"
                )
            fixed = _repair(spec, rep, tried)
            if fixed is None:
                break
            spec, repair = fixed
            tried.add(repair)
        if len(attempts) >= max_attempts:
            break
    # Nothing passed: the best measured table that reaches the honest bar, else nothing.
    best = ranking.best_honest([(c.spec, r) for c, r in tested], requested, expected_rows=expected)
    if best is not None:
        spec, rep, _ = best
        cand = next(c for c, r in tested if r is rep)
        return DevelopResult(
            spec=spec, candidate=cand, report=rep, attempts=attempts, stop_reason="no_progress"
        )
    reason: StopReason = "attempts_exhausted" if len(attempts) >= max_attempts else "no_progress"
    last = tested[-1][1] if tested else None
    return DevelopResult(spec=None, report=last, attempts=attempts, stop_reason=reason)


# ------------------------------------------------------------------------------------------ records that hold lists

_STEP = re.compile(r"(/{1,2})([A-Za-z*][\w.-]*(?:\[[^\[\]]*\])*)")
_POS = re.compile(r"\[(\d+)\]")
NESTED_MIN_SLOTS = 2
NESTED_SAMPLE = 12  # records of the first page looked at
"""Field slots a repeated block inside a record must hold (and its alike siblings too) for the record
to be a group of records rather than one: two fields read from ``tr[1]`` whose siblings ``tr[2]``,
``tr[3]`` hold the same slots filled."""


def _steps(expr: str) -> list[tuple[str, str]] | None:
    """A simple relative XPath (``./div[2]/table/tr[1]/td[3]/a``) as (axis, step) pairs, else None."""
    e = expr.strip()
    if not e.startswith("."):
        return None
    rest = e[1:]
    steps = _STEP.findall(rest)
    if not steps or "".join(a + s for a, s in steps) != rest:
        return None
    return steps


def _shape(node: Any) -> frozenset[str]:
    """The element's structure: the tag paths of its descendant elements (text and attributes aside)."""
    out: set[str] = set()

    def walk(n: Any, path: str, depth: int) -> None:
        for c in n:
            if not isinstance(c.tag, str) or depth > 6:
                continue
            p = f"{path}/{c.tag}"
            out.add(p)
            walk(c, p, depth + 1)

    walk(node, "", 0)
    return frozenset(out)


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a) and bool(b) and len(a & b) >= 0.7 * len(a | b)


def nested_records(source: Any, root: Any) -> Issue | None:
    """A ``records`` node that holds a list of alike blocks the rules read fixed members of
    (``tbody/tr[1]/td[2]`` for one field, ``tr[2]/td[4]`` for another) is a group of records, not one:
    a forum category holding its boards, a heading holding its items. Each record's row then mixes the
    first members' values and the page's other records are never read (rows far fewer than the page's
    repeated structures). Found when two or more field slots sit inside a positional step whose alike
    siblings hold the same slots filled, in most records."""
    got = _nested(source, root)
    return got[0] if got else None


def _nested(source: Any, root: Any) -> tuple[Issue, str] | None:
    """``nested_records``'s finding and the path (relative to a record) of the list it found."""
    from prefect_autodata.agents.induction.dom import value_text

    sel = getattr(source, "records", None)
    expr = getattr(sel, "xpath", None) if sel is not None else None
    if not expr:
        return None
    try:
        recs = [r for r in root.xpath(expr) if hasattr(r, "tag") and isinstance(r.tag, str)]
    except Exception:  # an XPath lxml cannot evaluate here: the dry run reports what the runtime says
        return None
    if len(recs) < 2:
        return None
    if len(recs) > NESTED_SAMPLE:  # a fair spread of the records is enough to tell, and cheap
        step = len(recs) / NESTED_SAMPLE
        recs = [recs[int(i * step)] for i in range(NESTED_SAMPLE)]
    # positional step (the path to the list without the index) -> slots read below its members
    groups: dict[str, dict[str, set[int]]] = {}
    for f in source.fields:
        if f.kind != "xpath" or f.internal and f.name != "detail_url":
            continue
        steps = _steps(f.expr or "")
        if not steps:
            continue
        for k, (axis, step) in enumerate(steps):
            m = _POS.search(step)
            if not m:
                continue
            prefix = "." + "".join(a + s for a, s in steps[:k]) + axis + _POS.sub("", step, count=1)
            rest = "".join(a + s for a, s in steps[k + 1 :])
            groups.setdefault(prefix, {}).setdefault("." + rest if rest else ".", set()).add(int(m.group(1)))
    for prefix, slots in groups.items():
        if len(slots) < NESTED_MIN_SLOTS:
            continue
        hit, members_seen, picked = 0, 0, set().union(*slots.values())
        for rec in recs:
            try:
                members = [n for n in rec.xpath(prefix) if hasattr(n, "tag") and isinstance(n.tag, str)]
            except Exception:
                break
            first = min(picked) - 1
            if len(members) < 2 or first >= len(members):
                continue
            shape = _shape(members[first])
            full = 0
            for mem in members:
                if not _alike(shape, _shape(mem)):
                    continue
                filled = 0
                for rest in slots:
                    try:
                        got = mem.xpath(rest)
                    except Exception:
                        got = []
                    got = got if isinstance(got, list) else [got]
                    if any(value_text(g) for g in got):
                        filled += 1
                if filled >= NESTED_MIN_SLOTS:
                    full += 1
            if full >= 2:
                hit += 1
                members_seen += full
        if hit and hit >= 0.5 * len(recs):
            idx = ", ".join(f"[{i}]" for i in sorted(picked))
            issue = Issue(
                kind="nested_records",
                source=source.name,
                message=f"each record of {expr!r} holds a list of alike blocks ({prefix[2:]}: {members_seen} "
                f"in {hit} of {len(recs)} records) and the rules read fixed members of it ({idx}): the "
                "records are groups of records",
            )
            return issue, prefix
    return None


def unnest(spec: CollectorSpec, fetcher: Any) -> CollectorSpec | None:
    """The spec that reads the members of the lists ``nested_records`` found as the records: the rules
    read through a member (``./div[2]/table/tbody/tr[1]/td[2]/a``) read the same slot of every member
    (``./td[2]/a``), and those read beside the list (the category heading above a table of boards) read
    it from the member's ancestor that was the record. None when nothing is nested, or the list's path
    has a ``//`` step (the ancestor is then not a fixed number of steps up)."""
    data = spec.model_dump(mode="json", exclude_none=True)
    changed = False
    for (s, root), src in zip(
        _listing_pages(spec, fetcher),
        [x for x in data["sources"] if _listing_like(x, bool(spec.base_url))],
        strict=False,
    ):
        got = _nested(s, root)
        if got is None or src.get("name") != s.name:
            continue
        prefix = got[1]
        steps = _steps(prefix)
        if not steps or any(a != "/" for a, _ in steps):
            continue
        depth = len(steps)
        src["records"] = {"xpath": f"({s.records.xpath}){prefix[1:]}"}
        for f in src.get("fields", []):
            expr = f.get("xpath")
            if not expr or not expr.strip().startswith("."):
                continue
            fs = _steps(expr)
            inner = None
            if fs and len(fs) > depth:
                head = "." + "".join(
                    a + _POS.sub("", st, count=1) if i == depth - 1 else a + st
                    for i, (a, st) in enumerate(fs[:depth])
                )
                if head == prefix:
                    inner = "." + "".join(a + st for a, st in fs[depth:])
            f["xpath"] = inner if inner is not None else f"./ancestor::*[{depth}]{expr.strip()[1:]}"
        changed = True
    return CollectorSpec.model_validate(data) if changed else None


def _listing_like(src: dict, base: bool = False) -> bool:
    """A dumped source ``_listing_pages`` reads (same filter, on the spec's JSON form)."""
    rec = src.get("records") or {}
    url = (src.get("request") or {}).get("url", "")
    url = url.replace("{base_url}", "") if base else url
    return src.get("kind") == "html" and src.get("emit", True) and bool(rec.get("xpath")) and "{" not in url


def _page_url(spec: CollectorSpec, source: Any) -> str | None:
    """The source's first page as fetched: ``{base_url}`` resolved by the spec's, None while the URL
    still has a parameter (a page per ticker or season is not one listing)."""
    url = source.request.url
    if "{base_url}" in url and spec.base_url:
        url = url.replace("{base_url}", str(spec.base_url).rstrip("/"))
    return None if "{" in url else url


def _listing_pages(spec: CollectorSpec, fetcher: Any) -> list[tuple[Any, Any]]:
    """(source, parsed first page) of each HTML listing source the spec emits from (records by XPath)."""
    out: list[tuple[Any, Any]] = []
    if fetcher is None:
        return out
    for s in spec.sources:
        sel, url = s.records, _page_url(spec, s)
        if s.kind != "html" or not s.emit or sel is None or not sel.xpath or url is None:
            continue
        try:
            root = _parsed_page(fetcher, url)
        except Exception:  # the dry run already reported an unreachable page
            continue
        if root is not None:
            out.append((s, root))
    return out


def _norm_text(v: Any) -> str:
    return " ".join(str(v).split()).strip(" :：").lower()


def _column_headers(root: Any) -> set[str]:
    """The column headers of the page's tables: ``<thead>`` cells, or a first row made of ``<th>``."""
    from prefect_autodata.agents.induction.dom import text

    out: set[str] = set()
    for cell in root.xpath(
        "//thead//th | //thead//td | //table/tr[1][not(td)]/th | //tbody/tr[1][not(td)]/th"
    ):
        t = _norm_text(text(cell))
        if t and len(t) <= 40:
            out.add(t)
    return out


def _header_share(values: list[Any], headers: set[str]) -> float:
    """Share of ``values`` that are a column header of the page (a header row read as a record)."""
    if not values or not headers:
        return 0.0
    return sum(1 for v in values if _norm_text(v) in headers) / len(values)


def _other_label_share(values: list[Any], field: str, requested: list[str]) -> float:
    """1.0 when every record shows the same short wordless text naming another requested field ("Last
    post" above the last poster, read as the number of posts): a label, constant over the records, not a
    value. A constant value that names no other requested field (a venue, a currency), or its own
    ("Main Conference Track" as the track), is left alone."""
    from prefect_autodata.agents.induction.matching import name_score

    texts = {_norm_text(v) for v in values}
    if len(texts) != 1:
        return 0.0
    (t,) = texts
    if not t or len(t) > 40 or re.search(r"\d", t):
        return 0.0
    if name_score(field, t) >= 0.5:  # "Main Conference Track" as the track: the value names its own field
        return 0.0
    return 1.0 if any(name_score(r, t) >= 0.8 for r in requested if r != field) else 0.0


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _merged_with(values: list[Any], field: str, requested: list[str]) -> str | None:
    """The other requested field whose value ``field``'s values hold too: most values hold two or more
    numbers and a word written after the numbers (``values.units``) names another requested field
    ("312 Posts 48 Topics" read as the topics holds the posts). None when not."""
    from prefect_autodata.agents.induction.matching import name_score
    from prefect_autodata.agents.induction.values import units

    texts = [" ".join(str(v).split()) for v in values]
    if len(texts) < 2 or sum(1 for t in texts if len(_NUMBER.findall(t)) >= 2) < 0.6 * len(texts):
        return None
    for u in sorted(units(texts)):
        for r in requested:
            if r != field and name_score(r, u) >= 0.8 and name_score(field, u) < 0.8:
                return r
    return None


def _field_dicts(data: dict) -> list[tuple[dict, dict]]:
    """(source, field rule) for every rule of a dumped spec, the listing's and its detail page's: the
    dicts themselves, so a repair edits them in place."""
    return [
        (src, f)
        for src in data["sources"]
        for f in [*src.get("fields", []), *((src.get("detail") or {}).get("fields", []))]
    ]


def _retyped(data: dict, types: dict[str, str]) -> CollectorSpec | None:
    """The spec of ``data`` with its declared columns of ``types`` given those types, or None when no
    rule was retyped (the repair changed nothing)."""
    for c in data.get("columns", []):
        if c["name"] in types:
            c["type"] = types[c["name"]]
    return CollectorSpec.model_validate(data) if types else None


def derive(
    spec: CollectorSpec, found: list[Issue], rep: DryRunReport, fetcher: Any, requested: list[str] = ()
) -> list[tuple[str, CollectorSpec]]:
    """The spec the findings say how to build, with what was changed (at most one): records that are
    groups read as their members (``unnest``; its own dry run then judges its columns), else the rules
    of swapped fields exchanged (``swap``) and values holding several fields split by their units
    (``separate``), both at once."""
    if any(i.kind == "nested_records" for i in found):
        un = unnest(spec, fetcher)
        if un is not None:
            return [("the members of the lists its records held, read as the records", un)]
    if any(i.kind == "header_mismatch" for i in found):
        rc = recount_cells(spec, _listing_pages(spec, fetcher), found)
        if rc is not None:
            return [("table cells counted with the row's header cells, as the column headers say", rc)]
    out, why = spec, []
    swapped = [i.field for i in found if i.kind == "swapped_fields" and i.field]
    if swapped:
        sw = swap(out, [(swapped[k], swapped[k + 1]) for k in range(0, len(swapped) - 1, 2)])
        if sw is not None:
            out, why = sw, [*why, "the rules of fields whose values fit each other's names exchanged"]
    merged = [i.field for i in found if i.kind == "merged_fields" and i.field]
    if merged:
        sep = separate(out, merged, rep.sample, requested)
        if sep is not None:
            out, why = sep, [*why, "values holding several fields split by their units"]
    marks = [i.field for i in found if i.kind == "footnote_marks" and i.field]
    if marks:
        dn = drop_footnotes(out, marks)
        if dn is not None:
            out, why = dn, [*why, "reference marks removed from the values"]
    dates = [i.field for i in found if i.kind == "date_text" and i.field]
    if dates:
        rd = read_dates(out, dates)
        if rd is not None:
            out, why = rd, [*why, "dates written as text parsed"]
    numbers = [i.field for i in found if i.kind == "number_in_text" and i.field]
    if numbers:
        rn = read_numbers(out, numbers, rep.sample)
        if rn is not None:
            out, why = rn, [*why, "numbers read out of the text around them"]
    if any(i.kind in ("summary_rows", "header_rows") for i in found):
        pages = _listing_pages(spec, fetcher)
        headers = set().union(*(_column_headers(root) for _, root in pages)) if pages else set()
        ex = exclude_rows(out, found, rep.sample, requested, headers)
        if ex is not None:
            out, why = ex, [*why, "summary and header rows left out of the records"]
    return [("; ".join(why), out)] if why else []


def _unit_pattern(unit: str) -> str:
    """A regex reading the number written before ``unit`` ("1,530 Topics" -> "1,530")."""
    return r"(?i)(\d[\d,.]*)\s*" + re.escape(unit)


def separate(
    spec: CollectorSpec, fields: list[str], sample: list[dict], requested: list[str] = ()
) -> CollectorSpec | None:
    """Each merged field reads the number before the unit that names it ("312 Posts 48 Topics" read as the
    topics -> 48); another requested field named by another unit of the same values gets the same rule
    with its unit when it has no rule of its own or a bad one (label text, null). None when no field
    has a unit of its own."""
    from prefect_autodata.agents.induction.matching import name_score
    from prefect_autodata.agents.induction.values import units

    data = spec.model_dump(mode="json", exclude_none=True)
    rules = {}
    for src, f in _field_dicts(data):
        rules.setdefault(f["name"], (src, f))
    changed = False
    for name in fields:
        if name not in rules:
            continue
        texts = [" ".join(str(r.get(name)).split()) for r in sample if r.get(name) not in (None, "")]
        own = [u for u in sorted(units(texts)) if name_score(name, u) >= 0.8]
        if not own:
            continue
        src, rule = rules[name]
        base = {k: v for k, v in rule.items() if k != "transforms"}
        kept = [t for t in rule.get("transforms", []) if t.get("op") in ("strip", "collapse_whitespace")]
        rule["transforms"] = [*kept, {"op": "regex", "pattern": _unit_pattern(own[0]), "group": 1}]
        changed = True
        for other in sorted(units(texts)):
            if other == own[0]:
                continue
            for target in dict.fromkeys([*requested, *rules]):
                if target == name or name_score(target, other) < 0.8:
                    continue
                vals = [r.get(target) for r in sample if r.get(target) not in (None, "")]
                if len({str(v) for v in vals}) > 1 and any(re.search(r"\d", str(v)) for v in vals):
                    continue  # it reads numbers of its own
                new = {**base, "name": target}
                new["transforms"] = [*kept, {"op": "regex", "pattern": _unit_pattern(other), "group": 1}]
                if target in rules:
                    rules[target][1].clear()
                    rules[target][1].update(new)
                else:
                    src.setdefault("fields", []).append(new)
                    rules[target] = (src, new)
                    if data.get("columns") and target not in {c["name"] for c in data["columns"]}:
                        data["columns"].append({"name": target})
    return CollectorSpec.model_validate(data) if changed else None


SWAP_MARGIN = 0.5
"""How much better two fields' values must fit each other's names than their own (``values.fit``, -1..1
each) for the rules to count as swapped."""


def swapped_fields(
    spec: CollectorSpec, rep: DryRunReport, requested: list[str], *, skip: set = frozenset()
) -> list[Issue]:
    """Two requested fields of words whose values fit each other's names clearly better than their own (the
    heading every board of a category repeats read as the board's name, the board's own link as its
    category): the rules read the right slots under the wrong names. Only for a pair of which one rule
    reads beside the record (a group's heading) and the other inside it: two columns of one table row
    (a role and a company) fit names alike too often for their values alone to tell. Both fields are
    reported."""
    from prefect_autodata.agents.induction.matching import type_agreement
    from prefect_autodata.agents.induction.values import TEXTUAL, profile

    rules = produced_rules(spec)
    cols: dict[str, list[Any]] = {}
    for f in requested:
        if f in rules and f not in skip:
            vals = [r.get(f) for r in rep.sample if r.get(f) not in (None, "")]
            # a constant column's shape says little, and numbers fit many names alike (GS and PTS)
            if len(vals) >= 4 and len({str(v) for v in vals}) > 1 and profile(vals).kind in TEXTUAL:
                cols[f] = vals
    out: list[Issue] = []
    names = list(cols)
    done: set[str] = set()
    for i, f in enumerate(names):
        for g in names[i + 1 :]:
            if f in done or g in done or _outside(rules[f]) == _outside(rules[g]):
                continue
            ff, gg = type_agreement(f, cols[f]), type_agreement(g, cols[g])
            fg, gf = type_agreement(f, cols[g]), type_agreement(g, cols[f])
            own, other = ff + gg, fg + gf
            # each field fits the other's values better than its own, and together clearly
            # better: one field's poor fit alone (a name's family guessed wrong) is no swap
            if fg > ff and gf > gg and other >= own + SWAP_MARGIN:
                done |= {f, g}
                for a, b in ((f, g), (g, f)):
                    out.append(
                        Issue(
                            kind="swapped_fields",
                            source="*",
                            field=a,
                            message=f"field {a!r} holds values that look like {b!r}'s and {b!r} like {a!r}'s "
                            f"(e.g. {str(cols[a][0])[:30]!r}; fit {own:.1f} as read, {other:.1f} swapped)",
                        )
                    )
    return out


UNIT_NAMES_OTHER = 0.5  # a unit word names another field this well (name_score) ...
UNIT_NAMES_OWN = 0.3  # ... and its own field at most this well


def unit_swaps(
    spec: CollectorSpec, rep: DryRunReport, requested: list[str], *, skip: set = frozenset()
) -> list[Issue]:
    """Two requested fields of which one holds one number written with a unit word that names the
    other ("+$9.95 shipping" read as the current price beside a shipping cost) while the other holds
    bare numbers: each rule reads the other's slot. Both fields are reported as ``swapped_fields``
    (``derive`` exchanges their rules)."""
    from prefect_autodata.agents.induction.matching import name_score
    from prefect_autodata.agents.induction.values import units

    rules = produced_rules(spec)
    texts: dict[str, list[str]] = {}
    for f in requested:
        if f in rules and f not in skip:
            vals = [" ".join(str(r.get(f)).split()) for r in rep.sample if r.get(f) not in (None, "")]
            if len(vals) >= WRONG_VALUES_MIN:
                texts[f] = vals
    out: list[Issue] = []
    done: set[str] = set()
    for f, vals in texts.items():
        one = sum(1 for t in vals if len(_NUMBER.findall(t)) == 1)
        if f in done or one < WRONG_VALUES_SHARE * len(vals):
            continue
        for u in sorted(units(vals)):
            if name_score(f, u) > UNIT_NAMES_OWN:
                continue
            for g, other in texts.items():
                if g == f or g in done or name_score(g, u) < UNIT_NAMES_OTHER:
                    continue
                bare = sum(1 for t in other if _number(t.lstrip("$€£¥")) is not None)
                if bare < WRONG_VALUES_SHARE * len(other):
                    continue
                done |= {f, g}
                for a, b in ((f, g), (g, f)):
                    out.append(
                        Issue(
                            kind="swapped_fields",
                            source="*",
                            field=a,
                            message=f"field {f!r} holds numbers written as {u!r} (e.g. {vals[0][:30]!r}), which "
                            f"names {g!r}, while {g!r} holds bare numbers: {a!r} reads {b!r}'s slot",
                        )
                    )
                break
            if f in done:
                break
    return out


def _outside(rule: Any) -> bool:
    """Whether a rule reads beside its record (an ancestor's or a preceding heading), not inside it."""
    expr = str(getattr(rule, "xpath", None) or "")
    return "ancestor::" in expr or "preceding::" in expr or "preceding-sibling::" in expr


def swap(spec: CollectorSpec, pairs: list[tuple[str, str]]) -> CollectorSpec | None:
    """``spec`` with the rules of each pair of fields exchanged (their names kept)."""
    data = spec.model_dump(mode="json", exclude_none=True)
    where: dict[str, dict] = {}
    for _, f in _field_dicts(data):
        where.setdefault(f["name"], f)
    changed = False
    for a, b in pairs:
        if a in where and b in where:
            ra, rb = dict(where[a]), dict(where[b])
            where[a].clear()
            where[a].update({**rb, "name": a})
            where[b].clear()
            where[b].update({**ra, "name": b})
            changed = True
            # a declared column's type goes with the rule that fills it
            cols = {c["name"]: c for c in data.get("columns", [])}
            if a in cols and b in cols:
                ta, tb = cols[a].get("type"), cols[b].get("type")
                for c, t in ((cols[a], tb), (cols[b], ta)):
                    c.pop("type", None)
                    if t is not None:
                        c["type"] = t
    return CollectorSpec.model_validate(data) if changed else None


# ------------------------------------------------------------------------------------------ values against names

#: value families whose values are numbers: a column of them with letters and no digit reads another slot
_NUMERIC_FAMILIES = frozenset(
    {"integer", "number", "money", "percent", "duration", "height", "length", "weight"}
)
_YEAR = re.compile(r"(?<!\d)(?:1[5-9]\d\d|20\d\d)(?!\d)")
_BARE_NUMBER = re.compile(r"^[\s$€£¥+\-−.,%\d]*\d[\s$€£¥+\-−.,%\d]*$")
WRONG_VALUES_MIN = 3  # non-empty sampled values a column needs before its values can contradict its name
WRONG_VALUES_SHARE = 0.8  # share of them that must contradict the name


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    t = str(v).strip().replace(",", "")
    return float(t) if re.fullmatch(r"[+-]?\d+(?:\.\d+)?", t) else None


def contradicting_values(field: str, values: list[Any], rule: Any = None) -> str | None:
    """Why ``values`` cannot be what ``field``'s name promises (its word role, ``lexicon.family``), or
    None. Only flat contradictions count, never a guess about format: a year column of 5-digit numbers
    or of words, a number column (an age, a count, a price) of words without a digit, a person column of
    bare numbers, a date without a digit, a percent over 100, a rating of counts (spread over more than
    ten times, all over 100), a url of words, a date read from outside the records that is one constant
    over the whole sample (a page's date, not each record's)."""
    from prefect_autodata.agents.induction.lexicon import family

    texts = [" ".join(str(v).split()) for v in values if v not in (None, "")]
    if len(texts) < WRONG_VALUES_MIN:
        return None
    fam = family(field)
    need = WRONG_VALUES_SHARE * len(texts)
    digitless = [t for t in texts if re.search(r"[^\W\d_]", t) and not re.search(r"\d", t)]
    nums = [x for x in (_number(v) for v in values if v not in (None, "")) if x is not None]
    eg = repr(texts[0][:30])
    if fam == "year":
        wide = [x for x in nums if abs(x) >= 10000]
        if len(wide) >= need:
            return f"a year, but {len(wide)} of {len(texts)} values are numbers of five or more digits (e.g. {eg})"
        if len(digitless) >= need:
            return (
                f"a year, but {len(digitless)} of {len(texts)} values are words without a digit (e.g. {eg})"
            )
    if fam in _NUMERIC_FAMILIES and len(digitless) >= need:
        return f"a {fam}, but {len(digitless)} of {len(texts)} values are words without a digit (e.g. {eg})"
    if fam == "person":
        bare = [t for t in texts if _BARE_NUMBER.match(t)]
        if len(bare) >= need:
            return f"a person, but {len(bare)} of {len(texts)} values are bare numbers (e.g. {eg})"
    if fam == "date":
        if len(digitless) >= need:
            return (
                f"a date, but {len(digitless)} of {len(texts)} values are words without a digit (e.g. {eg})"
            )
        expr = str(getattr(rule, "xpath", None) or "").strip()
        if len(texts) >= 5 and len(set(texts)) == 1 and expr and not expr.startswith("."):
            return (
                f"a date of each record, but it is one constant read from the page ({eg}, rule {expr[:60]})"
            )
    if fam == "percent" and len(nums) >= need and sum(1 for x in nums if abs(x) > 100) >= need:
        return f"a percentage, but {len(texts)} values are mostly over 100 (e.g. {eg})"
    if fam == "rating" and len(nums) >= need and min(nums) >= 100 and max(nums) >= 10 * min(nums):
        return f"a rating, but the values are counts from {min(nums):g} to {max(nums):g} (e.g. {eg})"
    if fam == "url" and sum(1 for t in texts if not re.search(r"[/.:@]", t)) >= need:
        return f"a url, but the values are words without a path (e.g. {eg})"
    return None


def value_findings(rules: dict[str, Any], sample: list[dict], requested: list[str], skip: set) -> list[Issue]:
    """``wrong_values``: a requested field whose values contradict its name (``contradicting_values``);
    ``same_values``: two requested fields of unlike names that read the same values in every sampled row
    (one rule reads the other's slot): the one whose values fit its name worse is reported, both when
    they fit alike."""
    from prefect_autodata.agents.induction.matching import name_score, type_agreement

    out: list[Issue] = []
    cols: dict[str, list[Any]] = {}
    for f in requested:
        if f not in rules or f in skip:
            continue
        vals = [r.get(f) for r in sample if r.get(f) not in (None, "")]
        why = contradicting_values(f, vals, rules[f])
        if why:
            out.append(
                Issue(
                    kind="wrong_values",
                    source="*",
                    field=f,
                    message=f"field {f!r} should hold {why}; rule {rule_text(rules[f])}",
                )
            )
        else:
            cols[f] = vals
    names = [f for f in cols if len(cols[f]) >= WRONG_VALUES_MIN]
    flagged: set[str] = set()
    for i, f in enumerate(names):
        for g in names[i + 1 :]:
            both = [
                (r.get(f), r.get(g))
                for r in sample
                if r.get(f) not in (None, "") or r.get(g) not in (None, "")
            ]
            if len(both) < WRONG_VALUES_MIN or any(str(a) != str(b) for a, b in both):
                continue
            if len({str(a) for a, _ in both}) < 2 or name_score(f, g) >= 0.8 or name_score(g, f) >= 0.8:
                continue  # one constant fits any two names; synonyms ("name", "title") may read one slot
            ff, gg = type_agreement(f, cols[f]), type_agreement(g, cols[g])
            for a, b in ((f, g), (g, f)):
                worse = (ff < gg) if a == f else (gg < ff)
                if (worse or ff == gg) and a not in flagged:
                    flagged.add(a)
                    out.append(
                        Issue(
                            kind="same_values",
                            source="*",
                            field=a,
                            message=f"fields {a!r} and {b!r} read the same values in all {len(both)} sampled "
                            f"rows (e.g. {str(both[0][0])[:30]!r}); {a!r}'s rule {rule_text(rules[a])} reads "
                            "another field's slot",
                        )
                    )
    return out


# ------------------------------------------------------------------------------------------ cells against headers

_CELL_RULE = re.compile(r"^\./(td|th|\*)\[(\d+)\](.*)$")
HEADER_OWN_MAX = 0.3  # a column header naming the field this little says nothing for it
HEADER_OTHER_MIN = 0.95  # ... while another column's header names the field outright


def _span(cell: Any) -> int:
    try:
        return max(1, int(cell.get("colspan") or 1))
    except ValueError:
        return 1


def _header_row(row: Any) -> list[str] | None:
    """The texts of the header row over the table ``row`` is in, one per column (colspans repeated)."""
    from prefect_autodata.agents.induction.dom import text

    table = next((a for a in row.iterancestors() if a.tag == "table"), None)
    if table is None:
        return None
    heads = (
        table.xpath("./thead/tr[last()]")
        or [r for r in table.xpath("./tr | ./tbody/tr") if r.xpath("./th") and not r.xpath("./td")][:1]
    )
    if not heads or heads[0] is row:
        return None
    out: list[str] = []
    for c in heads[0].xpath("./th | ./td"):
        out += [_norm_text(text(c))] * _span(c)
    return out


def _cell_column(row: Any, tag: str, k: int) -> tuple[int, int] | None:
    """(column index, cell index among all cells) of the row's ``tag[k]`` cell (``*``: any cell)."""
    cells = row.xpath("./th | ./td")
    col = 0
    seen = 0
    for idx, c in enumerate(cells):
        if tag == "*" or c.tag == tag:
            seen += 1
            if seen == k:
                return col, idx
        col += _span(c)
    return None


def header_mismatches(source: Any, root: Any, requested: list[str]) -> list[tuple[str, str, str, int]]:
    """Table cells read under a column header that does not name their field while another column's
    header names it outright (``Age`` over the cell read as the season, ``Season`` over another column):
    (field, the header over the cell read, the header naming the field, that header's column, 1-based)."""
    from prefect_autodata.agents.induction.matching import name_score

    sel = getattr(source, "records", None)
    expr = getattr(sel, "xpath", None) if sel is not None else None
    if not expr:
        return []
    try:
        rows = [r for r in root.xpath(expr) if getattr(r, "tag", None) == "tr"][:8]
    except Exception:
        return []
    out = []
    for f in source.fields:
        if f.internal or f.name not in requested or f.kind != "xpath":
            continue
        m = _CELL_RULE.match((f.expr or "").strip())
        if not m:
            continue
        votes: dict[tuple[str, str, int], int] = {}
        for row in rows:
            heads = _header_row(row)
            got = _cell_column(row, m.group(1), int(m.group(2))) if heads else None
            if not heads or got is None or got[0] >= len(heads) or len(set(heads)) < len(heads) * 0.8:
                continue
            own = heads[got[0]]
            scores = [name_score(f.name, h) if h else 0.0 for h in heads]
            best = max(range(len(heads)), key=lambda j: scores[j])
            if (
                name_score(f.name, own) < HEADER_OWN_MAX
                and scores[best] >= HEADER_OTHER_MIN
                and best != got[0]
            ):
                key = (own, heads[best], best + 1)
                votes[key] = votes.get(key, 0) + 1
        if votes and sum(votes.values()) * 2 >= len(rows):
            own, better, col = max(votes, key=votes.get)
            out.append((f.name, own, better, col))
    return out


def header_findings(pages: list[tuple[Any, Any]], requested: list[str], skip: set) -> list[Issue]:
    """``header_mismatch`` per field ``header_mismatches`` finds on a listing's first page."""
    out = []
    for s, root in pages:
        for f, own, better, col in header_mismatches(s, root, requested):
            if f in skip:
                continue
            out.append(
                Issue(
                    kind="header_mismatch",
                    source=s.name,
                    field=f,
                    message=f"field {f!r} reads the column headed {own!r}, while column {col} is headed "
                    f"{better!r}",
                )
            )
    return out


def recount_cells(
    spec: CollectorSpec, pages: list[tuple[Any, Any]], found: list[Issue]
) -> CollectorSpec | None:
    """The spec whose table-cell rules count every cell of the row (``./*[k]``), header cells (``<th>``
    of a row's first column) included, when that is what the header mismatches say: every mismatched
    field's rule ``./td[k]`` sits where the header naming it is the row's k-th cell. None otherwise."""
    bad = {(i.source, i.field) for i in found if i.kind == "header_mismatch"}
    if not bad:
        return None
    data = spec.model_dump(mode="json", exclude_none=True)
    changed, retyped = False, set()
    for s, root in pages:
        mism = [x for x in header_mismatches(s, root, [f for src, f in bad if src == s.name])]
        if not mism:
            continue
        rules = {f.name: f for f in s.fields}
        fits = True
        for name, _own, _better, col in mism:
            m = _CELL_RULE.match((rules[name].expr or "").strip())
            if not m or m.group(1) != "td" or int(m.group(2)) != col:
                fits = False
        if not fits:
            continue
        src = next(x for x in data["sources"] if x.get("name") == s.name)
        for f in src.get("fields", []):
            m = _CELL_RULE.match((f.get("xpath") or "").strip())
            if m and m.group(1) == "td":
                f["xpath"] = f"./*[self::td or self::th][{m.group(2)}]{m.group(3)}"
                # the value type was induced from the cell read before: the new cell's text stays text
                f["transforms"] = [t for t in f.get("transforms", []) if t.get("op") in _TEXT_OPS]
                f.pop("type", None)
                retyped.add(f["name"])
                changed = True
    for c in data.get("columns", []):
        if c["name"] in retyped:
            c.pop("type", None)
    return CollectorSpec.model_validate(data) if changed else None


_TEXT_OPS = ("strip", "collapse_whitespace")


# ------------------------------------------------------------------------------------------ rows that are no records

_SUMMARY_WORDS = frozenset(
    "total totals career average averages avg sum subtotal subtotals grand overall mean".split()
)
_SUMMARY_ALSO = frozenset("per game games season seasons year years yr yrs all of league".split())


def _summary_text(v: str) -> bool:
    """A cell that only says it sums the rows: "Career", "Totals", "Average per game", "Total (3 yrs)" -
    summary words, numbers and a few counted words, led by a summary word ("Total Recall" is a title)."""
    t = re.sub(r"\([^)]*\)", " ", v)
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", t)]
    return (
        bool(words) and words[0] in _SUMMARY_WORDS and all(w in _SUMMARY_WORDS | _SUMMARY_ALSO for w in words)
    )


ROW_MARK_MAX_SHARE = 0.25  # rows of the sample that may be marked: more are the data's own values


def row_marks(sample: list[dict], requested: list[str], headers: set[str]) -> dict[str, tuple[str, set[str]]]:
    """Rows inside the records that are no records, as field -> (kind, the values that mark them): a
    summary row (a text cell starting "Total", "Career", "Average" in a few rows while the other rows
    hold values) and a header row repeated inside the table (two or more cells that are the page's
    column headers or name their own field). Only a minority of the sampled rows counts."""
    from prefect_autodata.agents.induction.matching import name_score
    from prefect_autodata.runtime.runner import LINEAGE_URL

    rows = [{k: v for k, v in r.items() if k != LINEAGE_URL} for r in sample]
    if len(rows) < 4:
        return {}
    most = max(1, int(ROW_MARK_MAX_SHARE * len(rows)))
    out: dict[str, tuple[str, set[str]]] = {}
    summary: dict[str, set[str]] = {}
    n_summary = 0
    for r in rows:
        hit = False
        for f in requested:
            v = r.get(f)
            if isinstance(v, str) and len(v.strip()) <= 30 and _summary_text(v):
                summary.setdefault(f, set()).add(" ".join(v.split()))
                hit = True
        n_summary += hit
    if 0 < n_summary <= most:
        for f, vals in summary.items():
            out[f] = ("summary_rows", vals)
    heads: dict[str, set[str]] = {}
    n_head = 0
    for r in rows:
        cells = [
            f
            for f in requested
            if isinstance(r.get(f), str)
            and r[f].strip()
            and (_norm_text(r[f]) in headers or name_score(f, r[f]) >= 0.95)
        ]
        if len(cells) >= 2:
            n_head += 1
            for f in cells:
                heads.setdefault(f, set()).add(" ".join(r[f].split()))
    if 0 < n_head <= most:
        for f, vals in heads.items():
            out.setdefault(f, ("header_rows", vals))
    return out


def row_findings(sample: list[dict], requested: list[str], headers: set[str]) -> list[Issue]:
    """``summary_rows`` / ``header_rows`` per field ``row_marks`` finds (they fail the dry run; ``derive``
    builds the spec whose records leave those rows out)."""
    out = []
    for f, (kind, vals) in row_marks(sample, requested, headers).items():
        what = "summary rows" if kind == "summary_rows" else "column header rows repeated inside the table"
        shown = ", ".join(repr(v) for v in sorted(vals)[:3])
        out.append(
            Issue(kind=kind, source="*", field=f, message=f"the records include {what} ({f!r} reads {shown})")
        )
    return out


def _literal(v: str) -> str | None:
    if "'" not in v:
        return f"'{v}'"
    return f'"{v}"' if '"' not in v else None


def exclude_rows(
    spec: CollectorSpec, found: list[Issue], sample: list[dict], requested: list[str], headers: set[str]
) -> CollectorSpec | None:
    """The spec whose records leave out the summary and header rows the findings name: each source's
    records get a predicate on the marking field's own rule (``[not(starts-with(normalize-space(./td[1]),
    'Career'))]``). None when no marked field has a rule relative to its record."""
    marks = row_marks(sample, requested, headers)
    want = {i.field for i in found if i.kind in ("summary_rows", "header_rows")}
    data = spec.model_dump(mode="json", exclude_none=True)
    changed = False
    for src in data["sources"]:
        rec = src.get("records") or {}
        if not rec.get("xpath"):
            continue
        conds = []
        for f in src.get("fields", []):
            expr = (f.get("xpath") or "").strip()
            if f["name"] not in want or f["name"] not in marks or not expr.startswith("."):
                continue
            kind, vals = marks[f["name"]]
            for v in sorted(vals):
                lit = _literal(v)
                if lit is None:
                    continue
                test = (
                    "starts-with(normalize-space({e}), {v})"
                    if kind == "summary_rows"
                    else "normalize-space({e})={v}"
                )
                conds.append(test.format(e=expr, v=lit))
        if conds:
            rec["xpath"] = f"({rec['xpath']})[not({' or '.join(conds)})]"
            changed = True
    return CollectorSpec.model_validate(data) if changed else None


# ------------------------------------------------------------------------------------------ numbers inside text

#: value families whose field holds one number: a value that is that number inside the same words in
#: every row ("#3 of 87 hotels in Port Ellery" as the rank) reads the number's sentence, not the number
_ONE_NUMBER_FAMILIES = frozenset({"integer", "number", "money", "percent", "rating"})
_FIRST_NUMBER = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?")
_COMMA_DECIMAL = re.compile(r"^[+-]?\d+,\d{1,2}$")
#: a number as the scorer and the runtime read it already: a currency sign, the number, one unit word
_PLAIN_NUMBER = re.compile(r"^[$£€¥]?\s*[+-]?\d[\d,]*(?:\.\d+)?\s*(?:%|[^\W\d_]{1,10}\.?)?$")
#: words after which a field's name qualifies its head ("rank in the city": a rank)
_QUALIFIER = re.compile(r"\s(?:in|of|at|on|per|for|from|among|within|by)\s")
NUMBER_TEXT_MIN = 3  # non-empty sampled values a column needs
NUMBER_TEXT_SHARE = 0.8  # share of them that must be the number inside one of a few templates


def number_family(field: str) -> str | None:
    """The one-number family (``_ONE_NUMBER_FAMILIES``) ``field``'s name implies, else None: its
    lexicon family, else that of the head before a qualifier ("rank in the city" -> a rank's)."""
    from prefect_autodata.agents.induction.lexicon import family

    fam = family(field)
    if fam in _ONE_NUMBER_FAMILIES:
        return fam
    words = " " + " ".join(field.replace("_", " ").lower().split()) + " "
    m = _QUALIFIER.search(words)
    if m and m.start() > 0 and family(words[: m.start()].strip()) in _ONE_NUMBER_FAMILIES:
        return family(words[: m.start()].strip())
    return None


def number_in_text(field: str, values: list[Any]) -> tuple[str, str] | None:
    """(the text around the number, an example value) when a field named for one number
    (``number_family``) holds in most sampled rows a number inside the same few words ("#3 of 87
    hotels in Port Ellery", "4.5 of 5 stars", "$189*", "91 pts WS"), the number differing between rows:
    the rule reads the number's sentence. None when most values are plain numbers already (a currency
    sign, one unit word: "1,284 reviews"), or the numbers read with a decimal comma."""
    from prefect_autodata.agents.induction.matching import name_score

    if number_family(field) is None:
        return None
    texts = [" ".join(str(v).split()) for v in values if v not in (None, "") and isinstance(v, str)]
    if len(texts) < NUMBER_TEXT_MIN or len(texts) < 0.5 * len([v for v in values if v not in (None, "")]):
        return None
    plain = sum(1 for t in texts if _PLAIN_NUMBER.match(t))
    if plain > (1 - NUMBER_TEXT_SHARE) * len(texts):
        return None
    groups: dict[str, list[str]] = {}  # the text before the number -> the texts after it
    nums: list[str] = []
    for t in texts:
        m = _FIRST_NUMBER.search(t)
        if m is not None:
            groups.setdefault(t[: m.start()], []).append(t[m.end() :])
            nums.append(m.group())
    if not groups or len(set(nums)) < 2 or any(_COMMA_DECIMAL.match(n) for n in nums):
        return None
    pre, posts = max(groups.items(), key=lambda kv: len(kv[1]))
    if len(posts) < NUMBER_TEXT_SHARE * len(texts):
        return None
    label = pre.strip(" :：#$€£¥+-")
    if re.search(r"[^\W\d_]", label) and name_score(field, label) < 0.8:
        return None  # "num ratings 12,408" as the average rating: a label before it names another number
    same = os.path.commonprefix(posts)
    # the rows may differ after the shared text by a word without a digit ("pts WS", "pts WA"); a
    # second number that differs is a range or a pair ("$10 - $25"), no template around one number
    if any(re.search(r"\d", p[len(same) :]) for p in posts) or (len(set(posts)) > 1 and not same.strip()):
        return None
    return pre + "#" + same + ("..." if len(set(posts)) > 1 else ""), texts[0]


def number_findings(
    rules: dict[str, Any], sample: list[dict], requested: list[str], skip: set
) -> list[Issue]:
    """``number_in_text`` per requested field ``number_in_text`` finds (it fails the dry run; ``derive``
    builds the spec whose rule reads the number alone)."""
    out = []
    for f in requested:
        if f not in rules or f in skip:
            continue
        got = number_in_text(f, [r.get(f) for r in sample])
        if got:
            form, eg = got
            out.append(
                Issue(
                    kind="number_in_text",
                    source="*",
                    field=f,
                    message=f"field {f!r} should hold one number but reads it inside the same text in every "
                    f"row ({form[:40]!r}, e.g. {eg[:40]!r}; rule {rule_text(rules[f])})",
                )
            )
    return out


def read_numbers(spec: CollectorSpec, fields: list[str], sample: list[dict]) -> CollectorSpec | None:
    """The spec whose rules of ``fields`` read the first number of their text (``number_in_text``),
    as an integer when every sampled one is whole, else a float. None when no field changed."""
    data = spec.model_dump(mode="json", exclude_none=True)
    retyped: dict[str, str] = {}
    for _, f in _field_dicts(data):
        if f["name"] not in fields or f["name"] in retyped or f.get("internal"):
            continue
        nums = [
            m.group()
            for r in sample
            if isinstance(r.get(f["name"]), str) and (m := _FIRST_NUMBER.search(r[f["name"]]))
        ]
        whole = all("." not in n for n in nums)
        kept = [t for t in f.get("transforms", []) if t.get("op") in _TEXT_OPS]
        f["transforms"] = [
            *kept,
            {"op": "regex", "pattern": r"([+-]?\d[\d,]*(?:\.\d+)?)", "group": 1},
            {"op": "integer" if whole else "number"},
        ]
        f["type"] = "integer" if whole else "float"
        f.pop("unit", None)
        retyped[f["name"]] = f["type"]
    return _retyped(data, retyped)


# ------------------------------------------------------------------------------------------ doubtful columns

#: value families of a measure of each record: one constant over many records is no record's value
_MEASURE_FAMILIES = frozenset({"rating", "percent"})
#: value families whose values hold no other field's words: a date, a time, a number
_NON_TEXT_FAMILIES = frozenset({"date", "time", "year", *_NUMERIC_FAMILIES, "rating"})
TEMPLATE_MIN_ROWS = 6  # sampled rows a constant must fill before it reads as template text
MERGED_MIN_CHARS = 3  # another field's value must be this long to count as held inside


def template_values(field: str, values: list[Any], sample: list[dict], requested: list[str]) -> str | None:
    """Why ``field`` reads template text, or None: a per-record measure (``_MEASURE_FAMILIES``) that
    is one constant in every one of at least ``TEMPLATE_MIN_ROWS`` sampled rows while another
    requested field differs between them (a star widget's "12345678910" as each film's rating)."""
    from prefect_autodata.agents.induction.lexicon import family

    texts = [" ".join(str(v).split()) for v in values if v not in (None, "")]
    if len(texts) < TEMPLATE_MIN_ROWS or len(set(texts)) != 1 or family(field) not in _MEASURE_FAMILIES:
        return None
    varied = [
        g
        for g in requested
        if g != field and len({str(r.get(g)) for r in sample if r.get(g) not in (None, "")}) > 1
    ]
    if not varied:
        return None
    return f"{texts[0][:30]!r} in all {len(texts)} sampled rows while {varied[0]!r} differs"


def merged_values(field: str, sample: list[dict], requested: list[str]) -> str | None:
    """The other requested field whose value of the same row ``field``'s value holds inside it, in most
    sampled rows, when ``field`` is named for a date, a time or a number (``_NON_TEXT_FAMILIES``)
    and the other's value has words: "by Ann Lee at March 16, 2010" as the date beside the author Ann
    Lee. A text field holding another (an address and its town) is left alone."""
    from prefect_autodata.agents.induction.lexicon import family

    if family(field) not in _NON_TEXT_FAMILIES:
        return None
    rows = [r for r in sample if r.get(field) not in (None, "")]
    if len(rows) < WRONG_VALUES_MIN:
        return None
    for g in requested:
        if g == field:
            continue
        hits = 0
        for r in rows:
            mine, other = " ".join(str(r[field]).split()), " ".join(str(r.get(g) or "").split())
            if (
                len(other) >= MERGED_MIN_CHARS
                and re.search(r"[^\W\d_]", other)
                and len(mine) > len(other)
                and other.lower() in mine.lower()
            ):
                hits += 1
        if hits >= WRONG_VALUES_SHARE * len(rows):
            return g
    return None


def flag_findings(rules: dict[str, Any], sample: list[dict], requested: list[str], skip: set) -> list[Issue]:
    """``template_values`` and ``merged_values`` (``FLAG_FINDINGS``) per requested field."""
    out = []
    for f in requested:
        if f not in rules or f in skip:
            continue
        vals = [r.get(f) for r in sample]
        why = template_values(f, vals, sample, requested)
        if why:
            out.append(
                Issue(
                    kind="template_values",
                    source="*",
                    field=f,
                    message=f"field {f!r} reads one text of the page's template, not each record's value "
                    f"({why}; rule {rule_text(rules[f])})",
                )
            )
            continue
        other = merged_values(f, sample, requested)
        if other:
            eg = next(str(r[f]) for r in sample if r.get(f) not in (None, ""))
            out.append(
                Issue(
                    kind="merged_values",
                    source="*",
                    field=f,
                    message=f"field {f!r} holds {other!r}'s value of the same row inside its own "
                    f"(e.g. {eg[:40]!r}; rule {rule_text(rules[f])})",
                )
            )
    return out


# ------------------------------------------------------------------------------------------ footnote marks

#: a reference mark written after a value ("Meridian Tower[2]", "7.41[11]", "[a]", "[note 3]",
#: "[citation needed]"): the page's citation, no part of the value
_FOOTNOTE_RULE = r"\s*\[(?:\d{1,3}|[a-z]|(?:[Nn]ote|NB|nb|n) ?\d{1,3}|[Cc]itation needed)\]"
_FOOTNOTE = re.compile(_FOOTNOTE_RULE)
FOOTNOTE_MIN = 2  # values of the sample that must carry a mark


def footnote_findings(
    rules: dict[str, Any], sample: list[dict], requested: list[str], skip: set
) -> list[Issue]:
    """``footnote_marks``: a requested field of which at least ``FOOTNOTE_MIN`` sampled values end a
    word with a reference mark ("Meridian Tower[2]"): the rule reads the cell's citation with its
    value (it fails the dry run; ``derive`` builds the spec that removes the marks)."""
    out = []
    for f in requested:
        if f not in rules or f in skip:
            continue
        texts = [" ".join(str(r.get(f)).split()) for r in sample if isinstance(r.get(f), str)]
        marked = [t for t in texts if _FOOTNOTE.search(t) and _FOOTNOTE.sub("", t).strip()]
        if len(marked) >= FOOTNOTE_MIN:
            out.append(
                Issue(
                    kind="footnote_marks",
                    source="*",
                    field=f,
                    message=f"field {f!r} reads reference marks with its values ({len(marked)} of {len(texts)}, "
                    f"e.g. {marked[0][:40]!r}; rule {rule_text(rules[f])})",
                )
            )
    return out


def drop_footnotes(spec: CollectorSpec, fields: list[str]) -> CollectorSpec | None:
    """The spec whose rules of ``fields`` remove reference marks first (``footnote_marks``)."""
    data = spec.model_dump(mode="json", exclude_none=True)
    changed = False
    for _, f in _field_dicts(data):
        if f["name"] in fields and not f.get("internal"):
            ts = f.get("transforms", [])
            k = next((i for i, t in enumerate(ts) if t.get("op") not in _TEXT_OPS), len(ts))
            f["transforms"] = [
                *ts[:k],
                {"op": "replace", "pattern": _FOOTNOTE_RULE, "value": ""},
                *ts[k:],
            ]
            changed = True
    return CollectorSpec.model_validate(data) if changed else None


# ------------------------------------------------------------------------------------------ dates as text

_TIME_OF_DAY = re.compile(r"\d:\d\d|\d\s*[ap]\.?m\b", re.I)
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def date_text(field: str, values: list[Any], rule: Any = None) -> str | None:
    """An example when a field named for a date (lexicon family ``date``) holds every sampled value as
    text that names its month in words and its year in four digits, without a time of day ("Tuesday,
    June 21, 2011"), and its rule parses no date: the value is a date written for people, and reads as
    one (``read_dates``). A date without its year ("Nov 21", "Saturday, April 9th") is left as it is."""
    from prefect_autodata.agents.induction.lexicon import MONTHS, family
    from prefect_autodata.runtime.extract import _parse_date

    if family(field) != "date" or any(
        t.op in ("parse_date", "parse_timestamp") for t in getattr(rule, "transforms", None) or []
    ):
        return None
    texts = [" ".join(str(v).split()) for v in values if v not in (None, "")]
    if len(texts) < WRONG_VALUES_MIN or not all(isinstance(v, str) for v in values if v not in (None, "")):
        return None
    for t in texts:
        words = {w.lower().rstrip(".") for w in re.findall(r"[^\W\d_]+\.?", t)}
        if _ISO_DAY.match(t) or not words & set(MONTHS) or not _YEAR.search(t) or _TIME_OF_DAY.search(t):
            return None
        try:
            day = _parse_date(t, None)
        except Exception:
            return None
        if str(day.year) not in t:
            return None
    return texts[0]


def date_findings(rules: dict[str, Any], sample: list[dict], requested: list[str], skip: set) -> list[Issue]:
    """``date_text`` per requested field ``date_text`` finds (it fails the dry run; ``derive`` builds the
    spec whose rule parses the date)."""
    out = []
    for f in requested:
        if f not in rules or f in skip:
            continue
        eg = date_text(f, [r.get(f) for r in sample], rules[f])
        if eg:
            out.append(
                Issue(
                    kind="date_text",
                    source="*",
                    field=f,
                    message=f"field {f!r} should hold dates but reads them as text (e.g. {eg[:40]!r}; rule "
                    f"{rule_text(rules[f])})",
                )
            )
    return out


def read_dates(spec: CollectorSpec, fields: list[str]) -> CollectorSpec | None:
    """The spec whose rules of ``fields`` parse their text as a date (``date_text``), typed ``date``."""
    data = spec.model_dump(mode="json", exclude_none=True)
    retyped: dict[str, str] = {}
    for _, f in _field_dicts(data):
        if f["name"] in fields and not f.get("internal"):
            f["transforms"] = [*f.get("transforms", []), {"op": "parse_date"}]
            f["type"] = retyped[f["name"]] = "date"
    return _retyped(data, retyped)
