"""Date checks read a page's own date style: a range or a trading-day grid over "Oct 01, 2015" is a
check of dates, not of ISO text (a right table of dates shown as the page shows them was refused)."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from prefect_autodata.expectations.custom import completeness, range_ok, to_dates


def test_page_styled_dates_are_dates() -> None:
    s = pd.Series(["Oct 01, 2015", "2015-10-02", "5 October 2015", None, "not a date"])
    got = to_dates(s)
    assert list(got[:3]) == [
        pd.Timestamp("2015-10-01"),
        pd.Timestamp("2015-10-02"),
        pd.Timestamp("2015-10-05"),
    ]
    assert got[3:].isna().all()  # a missing value and unreadable text stay missing


def test_range_of_page_styled_dates() -> None:
    s = pd.Series(["Oct 01, 2015", "Dec 31, 2015", "Jan 04, 2016", "not a date", None])
    ok = range_ok(s, dt.date(2015, 10, 1), dt.date(2015, 12, 31))
    # in range passes; a day after the range and unreadable text still fail; missing is not_null's
    assert ok.tolist() == [True, True, False, False, True]


def test_completeness_of_page_styled_days() -> None:
    df = pd.DataFrame({"ticker": ["IEX"] * 3, "date": ["Oct 01, 2015", "Oct 02, 2015", "Oct 05, 2015"]})
    keys = {"ticker": {}, "date": {"start": "2015-10-01", "end": "2015-10-06"}}
    res = completeness(df, keys)
    assert res["expected"] == 4 and res["present"] == 3  # Oct 6 is the one missing session
