"""Exchange trading calendars: the days a market was open, holidays and special closures included.

Completeness checks expect one row per instrument per *session* and relative dates such as
``last_trading_day`` must skip exchange holidays, so both ask this module instead of counting
weekdays. Sessions come from ``exchange_calendars`` (imported lazily: it costs a second or two);
outside the range that package knows, weekdays are the best estimate and that is what is returned.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

DEFAULT_EXCHANGE = "XNYS"


@lru_cache(maxsize=16)
def _calendar(exchange: str):
    import exchange_calendars as xcals

    return xcals.get_calendar(exchange)


def _weekdays(start: date, end: date) -> list[date]:
    out, d = [], start
    while d <= end:
        if d.weekday() < 5:
            out.append(d)
        d += timedelta(days=1)
    return out


def sessions(start: date, end: date, exchange: str = DEFAULT_EXCHANGE) -> list[date]:
    """The trading days of ``exchange`` from ``start`` to ``end`` inclusive (weekdays where unknown)."""
    if start > end:
        return []
    cal = _calendar(exchange)
    first, last = cal.first_session.date(), cal.last_session.date()
    out: list[date] = []
    if start < first:
        out += _weekdays(start, min(end, first - timedelta(days=1)))
    lo, hi = max(start, first), min(end, last)
    if lo <= hi:
        out += [ts.date() for ts in cal.sessions_in_range(lo.isoformat(), hi.isoformat())]
    if end > last:
        out += _weekdays(max(start, last + timedelta(days=1)), end)
    return out


def closed_weekdays(start: date, end: date, exchange: str = DEFAULT_EXCHANGE) -> list[date]:
    """Weekdays in the range on which the exchange did not trade (holidays, special closures)."""
    open_days = set(sessions(start, end, exchange))
    return [d for d in _weekdays(start, end) if d not in open_days]


def last_trading_day(today: date, exchange: str = DEFAULT_EXCHANGE) -> date:
    """The latest session strictly before ``today``."""
    window = sessions(today - timedelta(days=14), today - timedelta(days=1), exchange)
    if window:
        return window[-1]
    d = today - timedelta(days=1)  # pragma: no cover - no market closes for two weeks
    while d.weekday() >= 5:
        d -= timedelta(days=1)
    return d
