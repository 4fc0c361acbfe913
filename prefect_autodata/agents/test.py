"""Test agent: dry-runs a candidate spec on a small sample and reports precise failures.

The engineering agent's candidates are ranked guesses; this agent checks them against the live
source (the runtime's ``dry_run``: first pages, a few requests) and, with the plan, adds what the
request needs (a target field no rule produces). ``develop`` is the bounded repair loop: on a
failure it reflects on the history of attempts (BaRA-style: what failed, on which URL, which repair
was already tried) and either repairs the spec or moves to the next candidate; it stops on the
first passing spec, when the attempts are used up, or when nothing new is left to try.
"""

from __future__ import annotations

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
    "navigation_records",
    "duplicate_key",
)
"""Findings that fail a dry run: a requested field no rule fills (also a declared column without a
rule), a rule that fills nothing, values that are label text, a listing read only in part, records
read from the site's navigation, a key that repeats. Values of another type than the field's name
implies (``type_conformity``) lower a candidate's rank but do not fail it: a name's expected type is
a guess ("open" is a time, or a price).

A failed test is not the end of a candidate: the engineering loop ranks the dry-run candidates by
what was measured (``agents.ranking``), so when no source has a requested field at all (a site
without supplementary links) the best measured table is still landed as long as it reaches the
honest bar, its missing fields shown as ``rule: null`` in ``collect --json``'s ``fields``."""

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


def _stated_total(spec: CollectorSpec, fetcher: Any) -> tuple[int, str] | None:
    """The total the first listing page states ("Showing 1-20 of 447"), for sources without pagination."""
    from prefect_autodata.agents.induction.pagination import stated_total

    for s in spec.sources:
        if s.kind != "html" or not s.emit or s.pagination is not None or "{" in s.request.url or not fetcher:
            continue
        try:
            text = fetcher.get(s.request.url).text
        except Exception:  # the dry run already reported an unreachable page
            return None
        from prefect_autodata.agents.induction.dom import parse
        from prefect_autodata.agents.induction.dom import text as visible

        root = parse(text)
        body = root.find("body") if root is not None else None
        total = stated_total(visible(body if body is not None else root)) if root is not None else None
        return (total, s.request.url) if total else None
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
    out += table_findings(spec, rep)
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
    return {
        f: {
            "rule": rule_text(rules[f]) if f in rules else None,
            "fill_rate": (rates.get(f) if f in rules else 0.0) if report is not None else None,
        }
        for f in requested
    }


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
