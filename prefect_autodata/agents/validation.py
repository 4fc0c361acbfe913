"""Validation agent: designs the CheckSpec from the request, the spec and what the sources stated.

Checks come from three places, never from a memorised site: the spec's columns (types, the key is
unique and not null), the field names' general meaning (prices and counts are not negative, a high
is at least the low, a date lies in the requested range and on a weekday for trading data), and the
request's scope (every requested ticker × every trading day; exactly the requested years; the row
count a source page states, e.g. "All 679 accepted papers").
"""

from __future__ import annotations

import re
from datetime import date

from prefect_autodata.agents.evidence import Evidence
from prefect_autodata.agents.offline.induction import norm
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.expectations.spec import (
    AllowedValuesCheck,
    CheckSpec,
    ColumnCheck,
    CompareCheck,
    CompletenessCheck,
    KeyDomain,
    NotNullCheck,
    RangeCheck,
    RowCountCheck,
    UniqueCheck,
    WeekdayCheck,
)
from prefect_autodata.ohcache.messages import CheckProposal, ValidationMessage
from prefect_autodata.runtime.spec import CollectorSpec

_DTYPE = {
    "string": "string",
    "integer": "integer",
    "float": "float",
    "boolean": "boolean",
    "date": "date",
    "timestamp": "datetime",
    "json": "any",
}
_NON_NEGATIVE = re.compile(
    r"^(adj)?(open|high|low|close|volume)$|^(gp|gs|w|l|min|fgm|fga|fg3m|fg3a|ftm|fta|oreb|dreb|reb|ast|stl|blk|"
    r"tov|pf|pts|ab|r|h|hr|2b|3b|rbi|bb|so|sb|cs|g|cg|sho|sv|ip|er|hb|era|divcash|weight)$"
)
_STATED_COUNT = re.compile(
    r"\b(?:all|total(?: of)?)\s+([\d,]{1,7})\s+(?:accepted\s+)?(?:papers|records|rows|items)\b", re.I
)


def _col(columns: dict[str, str], *names: str) -> str | None:
    for n in names:
        for c in columns:
            if norm(c) == n:
                return c
    return None


def stated_count(evidence: Evidence | None, plan: ParsedInstruction) -> int | None:
    """A record count a visited page states for the request ("All 679 accepted papers of NeurIPS 2017")."""
    if evidence is None:
        return None
    years = {str(y) for y in plan.years}
    found = []
    for p in evidence.ok_pages():
        text = f"{p.title} {p.text_excerpt}"
        if plan.venue and plan.venue.abbr.lower() not in text.lower():
            continue
        if years and not any(y in text for y in years):
            continue
        for m in _STATED_COUNT.finditer(text):
            # The sentence stating the count must itself name the requested year (not only the title).
            window = text[m.start() : m.end() + 80]
            if years and not any(y in window for y in years):
                continue
            found.append(int(m.group(1).replace(",", "")))
    if len(set(found)) == 1 and len(years) <= 1 and not plan.track:
        return found[0]
    return None


def design_checks(
    plan: ParsedInstruction,
    spec: CollectorSpec,
    evidence: Evidence | None = None,
    *,
    name: str | None = None,
    today: date | None = None,
) -> CheckSpec:
    """The CheckSpec for the table ``spec`` lands, derived from the request and the evidence."""
    columns = {c.name: c.type for c in spec.output_columns()}
    checks: list = [ColumnCheck(column=c, dtype=_DTYPE[t]) for c, t in columns.items()]
    for k in spec.primary_key:
        checks.append(NotNullCheck(column=k))
    checks.append(UniqueCheck(columns=list(spec.primary_key)))
    for c in columns:
        if _NON_NEGATIVE.match(norm(c)) and columns[c] in ("integer", "float"):
            checks.append(RangeCheck(column=c, min=0, severity="warn"))
    # Cross-field rules of price bars.
    hi, lo = _col(columns, "high"), _col(columns, "low")
    if hi and lo:
        checks.append(CompareCheck(left=hi, op=">=", right=lo))
        for side in ("open", "close"):
            c = _col(columns, side)
            if c:
                checks.append(CompareCheck(left=c, op=">=", right=lo, severity="warn"))
                checks.append(CompareCheck(left=c, op="<=", right=hi, severity="warn"))
    fgm, fga = _col(columns, "fgm"), _col(columns, "fga")
    if fgm and fga:
        checks.append(CompareCheck(left=fga, op=">=", right=fgm, severity="warn"))
    # Scope from the request.
    day = _col(columns, "date")
    if plan.entity == "stock" and day:
        start, end = plan.start_date, plan.end_date
        if plan.dates and len(plan.dates) == 1:
            start = end = plan.dates[0]
        if start and end:
            end = min(end, today or date.today())
            checks.append(RangeCheck(column=day, min=start, max=end))
            checks.append(WeekdayCheck(column=day))
            tick = _col(columns, "ticker", "symbol")
            keys = {day: KeyDomain()}
            if tick and plan.tickers:
                keys[tick] = KeyDomain(values=list(plan.tickers))
                checks.append(AllowedValuesCheck(column=tick, values=list(plan.tickers)))
            elif tick:
                keys[tick] = KeyDomain()
            # Every ticker on every day any ticker traded (exchange holidays are not known offline).
            checks.append(CompletenessCheck(keys=keys, min_fraction=0.99))
    year = _col(columns, "year", "season")
    if year and plan.years and columns[year] == "integer":
        checks.append(RangeCheck(column=year, min=min(plan.years), max=max(plan.years)))
    elif year and plan.end_year and columns[year] == "integer":
        checks.append(RangeCheck(column=year, max=plan.end_year))
    stated = stated_count(evidence, plan)
    if stated:
        checks.append(RowCountCheck(name="row_count_stated", min=stated, max=stated))
    elif plan.expected_size and not plan.expected_size.approx:
        n = plan.expected_size.rows
        checks.append(RowCountCheck(min=n, max=n))
    else:
        checks.append(RowCountCheck(min=1))
    return CheckSpec(name=name or spec.name, policy="quarantine", checks=checks)


def to_message(checks: CheckSpec) -> ValidationMessage:
    """The CheckSpec as the validation role's OHCache message."""
    props = []
    for c in checks.checks:
        data = c.model_dump(mode="json", exclude_none=True, exclude={"name", "kind", "severity"})
        column = data.pop("column", None)
        props.append(
            CheckProposal(
                name=c.check_name, kind=c.kind, column=column, params=data, rationale=c.__doc__ or ""
            )
        )
    return ValidationMessage(checks=props, notes=f"{len(props)} checks, policy {checks.policy}")
