"""Test agent: dry-runs a candidate spec on a small sample and reports precise failures.

The engineering agent's candidates are ranked guesses; this agent checks them against the live
source (the runtime's ``dry_run``: first pages, a few requests) and, with the plan, adds what the
request needs (a target field no rule produces). ``develop`` is the bounded repair loop: on a
failure it reflects on the history of attempts (BaRA-style: what failed, on which URL, which repair
was already tried) and either repairs the spec or moves to the next candidate; it stops on the
first passing spec, when the attempts are used up, or when nothing new is left to try.
"""

from __future__ import annotations

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
    """Dry-run ``spec`` and add plan checks: a requested field no rule produces is reported.

    A missing field is reported but does not fail the test on its own: some requested fields exist
    on no source, and the closest spec beats no dataset (the report says which are absent)."""
    rep: DryRunReport = dry_run(
        spec, max_pages=max_pages, max_requests=max_requests, base_url=base_url, fetcher=fetcher, today=today
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
    # A field filled in most sample rows has a working rule: its gaps are the source's (a statistic
    # not recorded in early seasons), and no repair can fill them. Only a mostly-empty field fails.
    hard = [
        i
        for i in rep.issues
        if i.kind in ("no_records", "type_mismatch", "fetch_error")
        or (i.kind == "empty_field" and (i.ratio is None or i.ratio > SPARSE_FIELD_MAX_EMPTY))
    ]
    return TestReport(
        ok=rep.ok or (bool(rep.rows) and not hard),
        rows=rep.rows,
        requests=rep.requests,
        issues=issues,
        fill_rates=rep.fill_rates,
        sample=rep.sample,
    )


test_spec.__test__ = False  # type: ignore[attr-defined]  # a function named test_* is not a pytest test


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
    """Test candidates best first, repairing locally where the report says how; bounded by ``max_attempts``."""
    if not candidates:
        return DevelopResult(spec=None, stop_reason="no_candidates")
    attempts: list[Attempt] = []
    seen_failures: set[tuple[str, ...]] = set()
    last: tuple[CandidateSpec, TestReport] | None = None
    for idx, cand in enumerate(candidates):
        spec = cand.spec
        tried: set[str] = set()
        repair = ""
        while len(attempts) < max_attempts:
            rep = test_spec(spec, plan, fetcher=fetcher, base_url=base_url, today=today)
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
            last = (cand.model_copy(update={"spec": spec}), rep)
            signature = tuple(sorted(i.kind + str(i.field) for i in rep.issues))
            fixed = _repair(spec, rep, tried)
            if fixed is None:
                seen_failures.add(signature)
                break
            spec, repair = fixed
            tried.add(repair)
        if len(attempts) >= max_attempts:
            break
    # Nothing passed: keep the best-covering candidate only if its sole problems are soft ones.
    if last is not None:
        cand, rep = last
        hard = [i for i in rep.issues if i.kind in ("no_records", "fetch_error")]
        if not hard and rep.rows:
            return DevelopResult(
                spec=cand.spec, candidate=cand, report=rep, attempts=attempts, stop_reason="no_progress"
            )
    reason: StopReason = "attempts_exhausted" if len(attempts) >= max_attempts else "no_progress"
    return DevelopResult(spec=None, report=last[1] if last else None, attempts=attempts, stop_reason=reason)
