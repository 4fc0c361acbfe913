"""Validation agent: designs the CheckSpec from the request, the spec and what the sources stated.

Checks come from three places, never from a memorised site: the spec's columns (types, the key is
unique and not null), the field names' general meaning (prices and counts are not negative, a high
is at least the low, a date lies in the requested range and on a weekday for trading data), and the
request's scope (every requested ticker × every trading day; exactly the requested years; the row
count a source page states, e.g. "All 679 accepted papers").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from prefect_autodata.agents.evidence import Evidence
from prefect_autodata.agents.offline.induction import norm
from prefect_autodata.expectations.spec import (
    AllowedValuesCheck,
    CheckSpec,
    ColumnCheck,
    CompareCheck,
    CompletenessCheck,
    DriftCheck,
    KeyDomain,
    NotNullCheck,
    RangeCheck,
    RowCountCheck,
    UniqueCheck,
    WeekdayCheck,
)
from prefect_autodata.ohcache.messages import CheckProposal, ValidationMessage
from prefect_autodata.runtime import trading_calendar
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


#: a listing's statement of its size: "Showing 1-20 of 447", "447 results", "679 papers"
_LISTING_TOTAL = re.compile(
    r"\b(?:showing|displaying|results?)\s+\d[\d,]*\s*(?:-|–|—|to)\s*\d[\d,]*\s+of\s+(?:about\s+)?([\d,]{1,9})\b"
    r"|\b([\d,]{1,9})\s+(?:accepted\s+)?(?:papers|records|rows|items|results|entries|articles)\s+(?:found|in total|total)\b",
    re.I,
)
#: relative tolerance of a row-count expectation derived from an approximate plan size
ROW_COUNT_TOLERANCE = 0.1
#: a full (non-incremental) rerun may have at most this share fewer rows than the last good run
ROW_COUNT_SHRINK = 0.02
#: a column's null rate may rise by at most this much over the last good run
NULL_RATE_INCREASE = 0.1


def _col(columns: dict[str, str], *names: str) -> str | None:
    for n in names:
        for c in columns:
            if norm(c) == n:
                return c
    return None


@dataclass
class Scope:
    """What the request says about coverage, read from whichever plan object the caller has.

    The plan agent's output is being generalised; this adapter reads the attributes the
    validation agent needs by name (``ParsedInstruction`` has them all today), so a Request
    exposing the same names works unchanged and missing ones simply mean "not stated".
    """

    entity: str = "unknown"
    tickers: list[str] = field(default_factory=list)
    all_sp500: bool = False
    start_date: date | None = None
    end_date: date | None = None
    dates: list[date] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    end_year: int | None = None
    teams: list[Any] = field(default_factory=list)
    venue_abbr: str | None = None
    track: str | None = None
    expected_rows: int | None = None
    expected_approx: bool = True
    expected_basis: str = ""
    # What the request itself states (an expectation it does not state is a soft note, never a
    # reason to refuse a table): whether a record kind knows the records (a season grid, a trading
    # calendar), whether the time scope was open-ended ("since 2009", "the past 3 seasons": the end
    # is today, not a season the request named), the coverage and the filters' values.
    kind_known: bool = True
    time_open: bool = False
    coverage: str = "all"
    filter_values: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, plan: Any) -> Scope:
        if isinstance(plan, Scope):
            return plan
        size = getattr(plan, "expected_size", None)
        venue = getattr(plan, "venue", None)
        return cls(
            # the record kind, if one recognised it (a Request's ``kind``; an older plan's ``entity``)
            entity=str(
                getattr(plan, "kind", None) or _text_or_none(getattr(plan, "entity", None)) or "unknown"
            ),
            tickers=list(getattr(plan, "tickers", None) or []),
            all_sp500=bool(getattr(plan, "all_sp500", False)),
            start_date=getattr(plan, "start_date", None),
            end_date=getattr(plan, "end_date", None),
            dates=list(getattr(plan, "dates", None) or []),
            years=[int(y) for y in getattr(plan, "years", None) or []],
            end_year=getattr(plan, "end_year", None),
            teams=list(getattr(plan, "teams", None) or []),
            venue_abbr=getattr(venue, "abbr", None) if venue is not None else None,
            track=getattr(plan, "track", None),
            expected_rows=getattr(size, "rows", None) if size is not None else None,
            expected_approx=bool(getattr(size, "approx", True)) if size is not None else True,
            expected_basis=str(getattr(size, "basis", "") or "") if size is not None else "",
            kind_known=bool(getattr(plan, "kind", None)) if hasattr(plan, "kind") else True,
            time_open=getattr(getattr(plan, "time_scope", None), "kind", None) == "relative",
            coverage=str(getattr(plan, "coverage", None) or "all"),
            filter_values=[
                v
                for f in getattr(plan, "filters", None) or []
                for v in (f.value if isinstance(f.value, list) else [f.value])
            ],
        )


def _text_or_none(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def stated_count(evidence: Evidence | None, plan: Any) -> int | None:
    """A record count a visited page states for the request ("All 679 accepted papers of NeurIPS 2017",
    "Showing 1-20 of 447" on a listing of the requested year)."""
    return _stated(evidence, plan)[0]


def _stated(evidence: Evidence | None, plan: Any) -> tuple[int | None, bool]:
    """The stated count, and whether it is the request's own: a sentence stating the total of the
    requested records ("All 679 accepted papers of NeurIPS 2017") on a page that names every value
    the request filters by (a total of all restaurants says nothing of the Chinese ones), for a
    request that wants all of them (not the top 10); a listing's page counter never is."""
    if evidence is None:
        return None, False
    scope = Scope.of(plan)
    named = [str(v).lower() for v in scope.filter_values if isinstance(v, str) and v != "*"]
    own = scope.coverage == "all" and len(named) == sum(isinstance(v, str) for v in scope.filter_values)
    years = {str(y) for y in scope.years}
    found = []
    for p in evidence.ok_pages():
        text = f"{p.title} {p.text_excerpt}"
        if scope.venue_abbr and scope.venue_abbr.lower() not in text.lower():
            continue
        if years and not any(y in text for y in years):
            continue
        for m in _STATED_COUNT.finditer(text):
            # The sentence stating the count must itself name the requested year (not only the title).
            window = text[m.start() : m.end() + 80]
            if years and not any(y in window for y in years):
                continue
            found.append(int(m.group(1).replace(",", "")))
            own = own and all(v in text.lower() for v in named)
        for m in _LISTING_TOTAL.finditer(text):  # a listing's own counter: the page is the listing
            found.append(int((m.group(1) or m.group(2)).replace(",", "")))
            # a page counter is the source's number (it may count other items, or pages the spec
            # does not follow), not one the request states: a shortfall is reported, never blocking
            own = False
    if len(set(found)) == 1 and len(years) <= 1 and not scope.track:
        return found[0], own
    return None, False


def _row_bounds(expected: int, tolerance: float) -> tuple[int, int]:
    # rounded first: 200 * 1.1 is 220.00000000000003 in binary floating point
    return max(0, math.floor(round(expected * (1 - tolerance), 6))), math.ceil(
        round(expected * (1 + tolerance), 6)
    )


def design_checks(
    plan: Any,
    spec: CollectorSpec,
    evidence: Evidence | None = None,
    *,
    name: str | None = None,
    today: date | None = None,
    tolerance: float = ROW_COUNT_TOLERANCE,
) -> CheckSpec:
    """The CheckSpec for the table ``spec`` lands, derived from the request and the evidence.

    Coverage is what the request asks for, not what the batch happens to hold: every requested
    instrument on every session of the exchange calendar, every requested season (of every team),
    the total a listing states, the plan's expected size within ``tolerance``. Every spec also
    gets drift against the last good run (columns appearing, vanishing or changing type; null
    rates per column); the first run records the baseline. A collector with an incremental cursor
    lands only new rows each run, so the grid is clipped to the dates the batch covers and the
    row-count expectations (which describe the whole request) are left to the first run's checks.
    """
    scope = Scope.of(plan)
    incremental = spec.incremental is not None
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
    expected: int | None = None  # rows the request implies (exactly, with named tickers)
    exact = ongoing = False
    day = _col(columns, "date")
    if scope.entity == "stock" and day:
        start, end = scope.start_date, scope.end_date
        if scope.dates and len(scope.dates) == 1:
            start = end = scope.dates[0]
        if start and end:
            now = today or date.today()
            # A range that reaches today or later is still being filled: the grid ends at the last
            # completed session (today's bar may not exist yet) and later rows may come.
            ongoing = end >= now and start < now
            requested_end = end
            end = trading_calendar.last_trading_day(now) if ongoing else min(end, now)
        if start and end and start <= end:
            checks.append(RangeCheck(column=day, min=start, max=requested_end))
            checks.append(WeekdayCheck(column=day))
            sessions = trading_calendar.sessions(start, end)
            closed = trading_calendar.closed_weekdays(start, end)
            tick = _col(columns, "ticker", "symbol")
            keys = {day: KeyDomain(start=start, end=end, exclude=closed, within_observed=incremental)}
            n_tickers = len(scope.tickers) or None
            exact = bool(scope.tickers)
            if tick and scope.tickers:
                keys = {tick: KeyDomain(values=list(scope.tickers)), **keys}
                checks.append(AllowedValuesCheck(column=tick, values=list(scope.tickers)))
            elif tick:
                keys = {tick: KeyDomain(), **keys}
                if scope.all_sp500 and scope.expected_rows:  # ~503 constituents
                    n_tickers = round(scope.expected_rows / max(1, _weekdays(start, end)))
            # Every ticker on every NYSE session of the requested range: a missing month, day or
            # ticker is a missing row, whatever else the batch holds.
            # With no instrument named the grid is the source's own choice: a gap is reported.
            checks.append(
                CompletenessCheck(
                    keys=keys,
                    min_fraction=1.0 if scope.tickers else 0.99,
                    severity="error" if scope.tickers else "warn",
                )
            )
            if n_tickers and sessions:
                expected = n_tickers * len(sessions)
    year = _col(columns, "year", "season")
    if year and scope.years and columns[year] == "integer":
        checks.append(RangeCheck(column=year, min=min(scope.years), max=max(scope.years)))
        if scope.entity != "stock":  # every requested season (of every team the batch names)
            keys = {year: KeyDomain(values=sorted(set(scope.years)))}
            team = _col(columns, "team_abbr", "team_name", "team", "team_id", "franchise")
            if len(scope.teams) <= 1:
                team = None  # one team (or none named): the seasons are the grid
            if team:
                keys[team] = KeyDomain()
            # every season the request names, when a record kind knows the records form a season
            # grid; an open range ("since 2009") ends at today, not at a season the request named,
            # and a generic record's year is a filter, not a promise of a record every year: reported
            firm = scope.kind_known and not scope.time_open
            checks.append(
                CompletenessCheck(
                    name=f"completeness:seasons:{year}", keys=keys, severity="error" if firm else "warn"
                )
            )
    elif year and columns[year] == "integer" and year in spec.primary_key and scope.entity != "stock":
        if scope.end_year:
            checks.append(RangeCheck(column=year, max=scope.end_year))
        # every season between the first and the last one collected: a gap is a missing season, or
        # a source that keeps only some seasons (no season was asked for): reported, never blocking
        checks.append(
            CompletenessCheck(
                name=f"completeness:seasons:{year}", keys={year: KeyDomain(contiguous=True)}, severity="warn"
            )
        )
    elif year and scope.end_year and columns[year] == "integer":
        checks.append(RangeCheck(column=year, max=scope.end_year))
    if not incremental:
        stated, own = _stated(evidence, scope)
        if stated and own:
            checks.append(RowCountCheck(name="row_count_stated", min=stated, max=stated))
        elif stated:
            # a total of more than the request asks for (a filter, a top N): reported, never blocking
            checks.append(RowCountCheck(name="row_count_stated", min=stated, max=stated, severity="warn"))
            checks.append(RowCountCheck(name="row_count_any", min=1))
        elif expected and exact:
            checks.append(RowCountCheck(min=expected, max=None if ongoing else expected))
        elif expected:
            lo_n, hi_n = _row_bounds(expected, tolerance)
            checks.append(RowCountCheck(min=max(1, lo_n), max=None if ongoing else hi_n))
        elif scope.expected_rows and not scope.expected_approx:
            checks.append(RowCountCheck(min=scope.expected_rows, max=scope.expected_rows))
        elif scope.expected_rows:
            # the plan's estimate from what it knows of the world ("30 teams per season"), not a
            # figure the source or the request states: a source holding other rows is reported
            lo_n, hi_n = _row_bounds(scope.expected_rows, tolerance)
            checks.append(RowCountCheck(min=max(1, lo_n), max=hi_n, severity="warn"))
            checks.append(RowCountCheck(name="row_count_any", min=1))
        else:
            checks.append(RowCountCheck(min=1))
    else:
        checks.append(RowCountCheck(min=1))
    # Drift against the last good run (the first run records the baseline). A full collector asks
    # for the same scope again, so it may grow but hardly shrink (ROW_COUNT_SHRINK); the batch of
    # an incremental run is a delta, so its size says nothing about the previous one's.
    checks.append(
        DriftCheck(
            max_row_count_change=None if incremental else 0.5,
            max_row_count_decrease=None if incremental else ROW_COUNT_SHRINK,
            max_null_rate_increase=NULL_RATE_INCREASE,
        )
    )
    if not incremental:  # any shrinking at all is worth a look (a warning: the batch still lands)
        checks.append(
            DriftCheck(
                name="drift_shrink",
                severity="warn",
                max_row_count_change=None,
                max_row_count_decrease=0.0,
                max_null_rate_increase=None,
                columns=False,
            )
        )
    return CheckSpec(name=name or spec.name, policy="quarantine", checks=checks)


def _weekdays(start: date, end: date) -> int:
    return sum(1 for i in range((end - start).days + 1) if (start + timedelta(days=i)).weekday() < 5)


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
