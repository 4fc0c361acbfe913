"""The vectorised kernels behind the checks give exactly pandas' answers (with and without shared codes)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest

from prefect_autodata.expectations import custom

pytestmark = pytest.mark.unit

PATTERN = r"^[A-Z][A-Z0-9.\-]{0,9}$"


def _frame(n: int = 30_000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    tickers = np.array(["AAPL", "MSFT", "brk.b", "X1", "BF-B", "ÄBC", "A" * 12, "ZZ"], dtype=object)
    days = pd.to_datetime("1985-01-01") + pd.to_timedelta(rng.integers(0, 15_000, n), unit="D")
    df = pd.DataFrame(
        {
            "ticker": pd.Series(tickers[rng.integers(0, len(tickers), n)], dtype="str"),
            "date": pd.Series(days).astype("datetime64[us]"),
            "close": rng.normal(100, 20, n).round(1),
        }
    )
    holes = rng.integers(0, n, 40)
    df.loc[holes[:20], "ticker"] = None
    df.loc[holes[20:], "date"] = pd.NaT
    df.loc[holes[10:30], "close"] = np.nan
    return df


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize(
    "cols", [["ticker", "date"], ["ticker", "close"], ["date"], ["ticker", "date", "close"]]
)
def test_duplicated_rows_is_pandas_duplicated_keep_false(shared, cols):
    df = _frame()
    df = pd.concat([df, df.iloc[:500]], ignore_index=True)  # real duplicates, nulls included
    if shared:
        with custom.shared_intermediates():
            got = custom.duplicated_rows(df[cols])
    else:
        got = custom.duplicated_rows(df[cols])
    np.testing.assert_array_equal(got, df[cols].duplicated(keep=False).to_numpy())


def test_day_codes_match_factorize_and_refuse_times_of_day():
    d = _frame()["date"]
    uniques, codes = custom._day_codes(d)
    local, expected = pd.factorize(d)
    assert (codes == -1).sum() == (local == -1).sum()
    ok = codes >= 0
    assert (uniques[codes[ok]] == expected[local[ok]]).all()
    assert list(uniques) == sorted(uniques)
    with_time = pd.Series(pd.to_datetime(["2024-01-02 10:00", "2024-01-02 00:00"]))
    assert custom._day_codes(with_time) is None


@pytest.mark.parametrize("shared", [False, True])
def test_regex_contains_is_the_native_pandas_answer(shared):
    s = _frame()["ticker"].dropna().reset_index(drop=True)
    for col in (s, s.astype(object)):
        if shared:
            with custom.shared_intermediates():
                got = custom.regex_contains(col, PATTERN)
        else:
            got = custom.regex_contains(col, PATTERN)
        np.testing.assert_array_equal(got.to_numpy(), col.astype(str).str.contains(PATTERN).to_numpy())


@pytest.mark.parametrize("shared", [False, True])
def test_regex_match_is_pandas_str_match_with_nulls(shared):
    s = _frame()["ticker"]
    for col in (s, s.astype(object)):
        if shared:
            with custom.shared_intermediates():
                got = custom.regex_match(col, PATTERN)
        else:
            got = custom.regex_match(col, PATTERN)
        expected = col.str.match(PATTERN).fillna(False).astype(bool)
        np.testing.assert_array_equal(got.to_numpy(dtype=bool), expected.to_numpy())


@pytest.mark.parametrize("shared", [False, True])
def test_weekday_and_date_range_are_the_pandas_answers(shared):
    d = _frame()["date"]
    lo, hi = dt.date(1990, 1, 1), dt.date(2020, 12, 31)
    expected_week = (d.isna() | (d.dt.day_of_week < 5)).to_numpy()
    expected_range = (((d >= pd.Timestamp(lo)) & (d <= pd.Timestamp(hi))) | d.isna()).to_numpy()
    if shared:
        with custom.shared_intermediates():
            week, inside = custom.weekday_ok(d), custom.range_ok(d, lo, hi)
    else:
        week, inside = custom.weekday_ok(d), custom.range_ok(d, lo, hi)
    np.testing.assert_array_equal(week.to_numpy(), expected_week)
    np.testing.assert_array_equal(inside.to_numpy(), expected_range)
    only_min = custom.range_ok(d, lo, None).to_numpy()
    np.testing.assert_array_equal(only_min, ((d >= pd.Timestamp(lo)) | d.isna()).to_numpy())


def test_compare_ok_on_plain_and_masked_numbers():
    a = pd.Series([1.0, 2.0, np.nan, 4.0, 5.0])
    b = pd.Series([1.0, 3.0, 1.0, np.nan, 4.0])
    expected = [True, False, True, True, True]
    df = pd.DataFrame({"a": a, "b": b})
    assert custom.compare_ok(df, "a", ">=", "b").tolist() == expected
    masked = df.astype("Float64")
    assert custom.compare_ok(masked, "a", ">=", "b").tolist() == expected


def test_validation_view_keeps_values_and_leaves_mixed_columns_alone():
    df = pd.DataFrame(
        {
            "s": pd.Series(["a", None, "b"], dtype=object),
            "mixed": pd.Series(["a", 1, None], dtype=object),
            "f": pd.Series([1.5, None, 2.0], dtype="Float64"),
            "i": pd.Series([1, 2, 3], dtype="Int64"),
            "i_null": pd.Series([1, None, 3], dtype="Int64"),
            "d": pd.Series([dt.date(2024, 1, 2), None, dt.date(2024, 1, 3)], dtype=object),
        }
    )
    view = custom.for_validation(df)
    assert str(view["s"].dtype) == "str" and view["s"].isna().tolist() == [False, True, False]
    assert view["mixed"].dtype == object and view["mixed"].tolist()[:2] == ["a", 1]
    assert view["f"].dtype == np.float64 and np.isnan(view["f"][1]) and view["f"][2] == 2.0
    assert view["i"].dtype == np.int64 and view["i"].tolist() == [1, 2, 3]
    assert str(view["i_null"].dtype) == "Int64"  # a float view would change its logical type
    assert view["d"].dtype.kind == "M" and custom.observed_type(view, "d") == "date"
    assert custom.for_validation(df, only={"f"})["s"].dtype == object  # only the columns checks read
    for c in df.columns:
        assert custom.logical_type(df[c]) == custom.observed_type(view, c) or c == "d"
