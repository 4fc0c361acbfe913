"""Checks with no native form in GE or pandera, written once (vectorised pandas) and exposed to both.

The same functions back the custom Great Expectations expectations (``register_gx``) and the
pandera registered checks (``register_pandera``), so the two engines cannot disagree on what
"complete" or "fresh" means. Registration makes custom checks survive pandera's YAML
round-trip and lets GE suites that name them load from JSON.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import operator
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

OPS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq}

# --------------------------------------------------------------------------- core (pure pandas)

_LOGICAL_OK = {
    "string": {"string"},
    "integer": {"integer"},
    "float": {"float", "integer"},
    "number": {"float", "integer"},
    "boolean": {"boolean"},
    "date": {"date", "datetime"},
    "datetime": {"datetime", "date"},
}


def logical_type(s: pd.Series) -> str:
    """The logical type of a column: string, integer, float, boolean, date, datetime, mixed or empty.

    Typed dtypes answer directly; object columns are inferred from a sample of non-null values
    (cheap on millions of rows).
    """
    dtype = s.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_integer_dtype(dtype):
        return "integer"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "datetime"
    if len(s) > 4000:  # the ends of a long column; a null test of every row costs more than the inference
        sample = s.iloc[np.r_[0:2000, len(s) - 2000 : len(s)]].dropna()
        if sample.empty:  # sparse at both ends: look at every value
            sample = s.dropna()
    else:
        sample = s.dropna()
    if sample.empty:
        return "empty"
    if len(sample) > 2000:
        sample = pd.concat([sample.iloc[:1000], sample.iloc[-1000:]])
    inferred = pd.api.types.infer_dtype(sample, skipna=True)
    return {
        "string": "string",
        "integer": "integer",
        "floating": "float",
        "mixed-integer-float": "float",
        "decimal": "float",
        "boolean": "boolean",
        "date": "date",
        "datetime": "datetime",
        "datetime64": "datetime",
    }.get(inferred, "mixed")


def type_matches(observed: str, expected: str) -> bool:
    return expected == "any" or observed == "empty" or observed in _LOGICAL_OK.get(expected, {expected})


def to_dates(s: pd.Series) -> pd.Series:
    """Dates as datetime64 (NaT where unparseable); accepts date objects, ISO strings or datetimes."""
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return s.dt.tz_localize(None) if getattr(s.dt, "tz", None) is not None else s
    try:
        d = pd.to_datetime(s, errors="coerce", format="ISO8601")
    except (TypeError, ValueError):
        return pd.to_datetime(s.astype("string"), errors="coerce", format="mixed")
    # A page's own date style ("Oct 01, 2015", "3 March 2021") is still a date: the values ISO did
    # not read are read once per distinct text; what no date reading takes stays NaT (a failure).
    left = d.isna() & s.notna()
    if left.any():
        try:
            texts = s[left].astype("string")
            distinct = pd.Series(pd.unique(texts))
            read = pd.to_datetime(distinct, errors="coerce", format="mixed")
            if getattr(read.dt, "tz", None) is not None:
                read = read.dt.tz_localize(None)
            lookup = dict(zip(distinct, read, strict=True))
            filled = d.dt.tz_convert(None) if getattr(d.dt, "tz", None) is not None else d.copy()
            filled[left] = texts.map(lookup).astype(filled.dtype)
            d = filled
        except (TypeError, ValueError, OverflowError):  # mixed zones, a unit too small: left unread
            pass
    return d


def weekday_ok(s: pd.Series) -> pd.Series:
    """True where the date is Monday-Friday or missing (nulls are the not-null check's business).

    Day numbers since 1970-01-01 (a Thursday) give the weekday by integer arithmetic, several times
    cheaper than ``.dt.dayofweek`` on millions of rows.
    """
    d = to_dates(s)
    values = d.to_numpy()
    if values.dtype.kind != "M":  # not datetime64 (an extension dtype): pandas' own accessor
        return d.isna() | (d.dt.dayofweek < 5)
    shared = _per_distinct(d, lambda days: _weekday_mask(days.to_numpy()), null_answer=True)
    if shared is not None:
        return pd.Series(shared, index=s.index)
    return pd.Series(_weekday_mask(values), index=s.index)


def _weekday_mask(values: np.ndarray) -> np.ndarray:
    days = values.astype("datetime64[D]").view("i8")
    return np.isnat(values) | ((days + 3) % 7 < 5)


def _per_distinct(s: pd.Series, fn, *, null_answer: bool | None) -> np.ndarray | None:
    """``fn`` (a boolean test of the distinct values, an Index) evaluated once per distinct value and
    spread through the codes shared with completeness and uniqueness; nulls get ``null_answer``.

    ``None`` (the caller tests every row) where that does not pay (short columns, mostly distinct
    values) or cannot be exact (nulls present and ``null_answer`` is ``None``).
    """
    if len(s) < 10_000:
        return None
    name = s.name if isinstance(s.name, str) else "__value__"
    uniques, codes = _key_codes(s.to_frame(name), name, {})
    if len(uniques) * 2 > len(s) or (null_answer is None and (codes < 0).any()):
        return None
    answers = np.asarray(fn(uniques), dtype=bool)
    return np.append(answers, bool(null_answer))[codes]  # code -1 (null) picks the appended answer


def compare_ok(df: pd.DataFrame, left: str, op: str, right: str) -> pd.Series:
    """True where ``left op right`` holds or either side is missing."""
    a, b = df[left], df[right]
    if all(isinstance(x.dtype, np.dtype) and x.dtype.kind in "iuf" for x in (a, b)):
        x, y = a.to_numpy(), b.to_numpy()  # plain numbers: NaN is the only missing value
        with np.errstate(invalid="ignore"):
            ok = OPS[op](x, y)
        if x.dtype.kind == "f":
            ok |= np.isnan(x)
        if y.dtype.kind == "f":
            ok |= np.isnan(y)
        return pd.Series(ok, index=df.index)
    missing = a.isna() | b.isna()
    with np.errstate(invalid="ignore"):
        return missing | OPS[op](a, b).fillna(False).astype(bool)


def range_ok(s: pd.Series, lo: Any, hi: Any) -> pd.Series:
    """True where lo <= value <= hi or the value is missing; dates compare as dates."""
    if isinstance(lo, (dt.date, str)) or isinstance(hi, (dt.date, str)):
        v = to_dates(s)
        lo = pd.Timestamp(lo) if lo is not None else None
        hi = pd.Timestamp(hi) if hi is not None else None

        def inside(values: np.ndarray) -> np.ndarray:
            ok = np.ones(len(values), dtype=bool)
            if lo is not None:
                ok &= values >= lo.to_datetime64()
            if hi is not None:
                ok &= values <= hi.to_datetime64()
            return ok | np.isnat(values)

        exact = v.dtype.kind == "M" and s.isna().sum() == v.isna().sum()  # nulls are the same rows
        shared = _per_distinct(v, lambda days: inside(days.to_numpy()), null_answer=True) if exact else None
        if shared is not None:
            return pd.Series(shared, index=s.index)
    else:
        v = pd.to_numeric(s, errors="coerce")
    ok = pd.Series(True, index=s.index)
    if lo is not None:
        ok &= v >= lo
    if hi is not None:
        ok &= v <= hi
    return ok | s.isna()


def _domain(df: pd.DataFrame, col: str, domain: dict) -> tuple[pd.Index | None, pd.Series]:
    """Expected values of one key column and the column's values, normalised to compare."""
    values = domain.get("values")
    start, end = domain.get("start"), domain.get("end")
    if start and end:
        freq = "B" if domain.get("weekdays_only", True) else "D"
        seen = to_dates(df[col]).dt.normalize()
        lo, hi = pd.Timestamp(start), pd.Timestamp(end)
        if domain.get("within_observed"):
            first, last = seen.min(), seen.max()
            if pd.isna(first):
                return pd.DatetimeIndex([]), seen
            lo, hi = max(lo, first), min(hi, last)
        days = pd.date_range(lo, hi, freq=freq) if lo <= hi else pd.DatetimeIndex([])
        exclude = pd.DatetimeIndex([pd.Timestamp(x) for x in domain.get("exclude") or []])
        return days.difference(exclude), seen
    if values is not None:
        return pd.Index(pd.unique(pd.Series(values))), df[col]
    if domain.get("contiguous"):
        nums = pd.to_numeric(df[col], errors="coerce")
        if nums.notna().any():
            lo_n, hi_n = int(nums.min()), int(nums.max())
            if hi_n - lo_n <= 1_000_000:
                return pd.Index(range(lo_n, hi_n + 1), dtype="int64"), nums
        return None, df[col]
    return None, df[col]  # the observed values are the domain


_shared: ContextVar[dict | None] = ContextVar("autodata_shared_intermediates", default=None)


@contextmanager
def shared_intermediates() -> Iterator[None]:
    """While active, per-batch intermediates (key codes) are computed once for both engines.

    ``enforce`` hands GE and pandera the same validation view; each engine still evaluates
    every check itself, but the factorised key columns behind completeness are hashed once.
    Entries are bound to the frame object, so a different frame never sees them.
    """
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


def _key_codes(df: pd.DataFrame, col: str, domain: dict) -> tuple[pd.Index, np.ndarray]:
    memo = _shared.get()
    if memo is None or col not in df.columns:
        return _codes(*_domain(df, col, domain))
    key = (col, json.dumps(domain, sort_keys=True, default=str))
    values = df[col]
    hit = memo.get(key)
    if hit is None or not _same_values(hit[0], values):
        hit = memo[key] = (values, _codes(*_domain(df, col, domain)))
    return hit[1]


def prime_intermediates(df: pd.DataFrame, spec: Any) -> None:
    """Compute the shared intermediates of ``spec``'s checks on ``df`` now (before a fork, so both
    processes inherit them instead of each hashing the key columns)."""
    if _shared.get() is None:
        return
    for check in getattr(spec, "checks", []):
        kind = getattr(check, "kind", None)
        if kind == "completeness":
            for col, domain in check.keys.items():
                if col in df.columns:
                    _key_codes(df, col, domain.model_dump(mode="json", exclude_defaults=True))
        elif kind == "unique" and len(check.columns) > 1:
            for col in check.columns:
                if col in df.columns:
                    _key_codes(df, col, {})


def _same_values(a: pd.Series, b: pd.Series) -> bool:
    """Whether two columns hold the same values, cheaply: the same memory, or an equal C-level compare.

    The engines validate the same view but may hand a check a copy of it (pandera copies the frame
    it validates), so identity of the frame object is not enough to share an intermediate.
    """
    if a is b:
        return True
    if len(a) != len(b) or a.dtype != b.dtype:
        return False
    if isinstance(a.dtype, np.dtype) and a.dtype.kind in "biufcmM":
        x, y = a.to_numpy(), b.to_numpy()
        if x.__array_interface__["data"][0] == y.__array_interface__["data"][0] and x.strides == y.strides:
            return True
        if x.dtype.kind in "mM":
            x, y = x.view("i8"), y.view("i8")
        return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"))
    pa_a, pa_b = getattr(a.array, "_pa_array", None), getattr(b.array, "_pa_array", None)
    if pa_a is not None and pa_b is not None:
        return bool(pa_a.equals(pa_b))
    return False


def _codes(idx: pd.Index | None, values: pd.Series) -> tuple[pd.Index, np.ndarray]:
    """The domain and the position of every value in it (-1: not in it, or null).

    ``factorize`` hashes in C on every dtype (Arrow strings included); only the few distinct
    values are then looked up in the domain, instead of boxing a million strings for
    ``get_indexer``. Without a declared domain the distinct observed values are the domain.
    """
    if idx is None:
        dense = _day_codes(values)
        if dense is not None:
            return dense
    local, uniques = pd.factorize(values)
    if idx is None:
        return pd.Index(uniques), local
    lookup = np.append(idx.get_indexer(uniques), -1)  # local code -1 (null) -> -1
    return idx, lookup[local]


def _day_codes(values: pd.Series) -> tuple[pd.Index, np.ndarray] | None:
    """Codes of a column of whole days by arithmetic instead of hashing: the distinct days in order.

    Dates span few distinct days compared with their rows (a trading calendar), so a bitmap over
    the span replaces ``factorize``'s hash table. ``None`` (use ``factorize``) for other columns:
    not datetime64, times of day, or a span much longer than the column.
    """
    if not isinstance(values.dtype, np.dtype) or values.dtype.kind != "M" or not len(values):
        return None
    arr = values.to_numpy()
    unit, count = np.datetime_data(arr.dtype)
    per_day = np.timedelta64(1, "D") // np.timedelta64(count, unit)
    if not per_day:  # coarser than days
        return None
    ints = arr.view("i8")
    nat = np.isnat(arr)
    has_nat = bool(nat.any())
    num = ints // per_day
    exact = num * per_day == ints
    whole_days = (exact | nat).all() if has_nat else exact.all()
    if not whole_days:  # times of day: each instant is its own value
        return None
    valid = num[~nat] if has_nat else num
    if not len(valid):
        return None
    lo, hi = int(valid.min()), int(valid.max())
    span = hi - lo + 1
    if span > max(4 * len(arr), 100_000):
        return None
    num -= lo  # in place: positions in the span (NaT rows are overwritten below)
    if has_nat:
        num[nat] = 0
    present = np.zeros(span, dtype=bool)
    present[num[~nat] if has_nat else num] = True
    rank = np.cumsum(present, dtype=np.int64) - 1
    codes = rank[num]
    if has_nat:
        codes[nat] = -1
    uniques = (np.flatnonzero(present) + lo).astype("datetime64[D]").astype(arr.dtype)
    return pd.Index(uniques), codes


def duplicated_rows(df: pd.DataFrame) -> np.ndarray:
    """``df.duplicated(keep=False)`` (every row whose key occurs more than once; nulls equal each
    other) computed from the key columns' codes.

    The codes are the ones completeness uses, so within ``shared_intermediates`` each key column
    is hashed once for all the checks of both engines; the combined key is then counted with a
    bitmap (``bincount``) instead of a second hash table.
    """
    n = len(df)
    if n == 0 or len(df.columns) == 0:
        return np.zeros(n, dtype=bool)
    combined = np.zeros(n, dtype=np.int64)
    size = 1
    for col in df.columns:
        uniques, codes = _key_codes(df, col, {})
        width = len(uniques) + 1  # code -1 (null) becomes 0: nulls form one value, as in pandas
        if size * width >= 2**62:
            return df.duplicated(keep=False).to_numpy()
        combined = combined * width + (codes + 1)
        size *= width
    if size <= max(4 * n, 1 << 20):
        return np.bincount(combined, minlength=size)[combined] > 1
    return pd.Series(combined).duplicated(keep=False).to_numpy()


#: how many missing key combinations a completeness result names
MISSING_EXAMPLES = 20


def completeness(df: pd.DataFrame, keys: dict[str, dict], min_fraction: float = 1.0) -> dict[str, Any]:
    """How many expected key combinations (the product of the key domains) are present, and the
    first ``MISSING_EXAMPLES`` missing ones.

    Works on integer codes (one ``factorize`` per key, then a bitmap of combinations), so millions of rows
    cost a fraction of a second.
    """
    missing_cols = [c for c in keys if c not in df.columns]
    if missing_cols:
        return {"success": False, "expected": None, "present": 0, "missing": None, "fraction": 0.0,
                "missing_examples": [], "error": f"missing key columns {missing_cols}"}  # fmt: skip
    domains: list[pd.Index] = []
    combined = np.zeros(len(df), dtype=np.int64)
    inside: np.ndarray | None = None  # rows whose every key is in its domain (None: all of them)
    for col, domain in keys.items():
        idx, codes = _key_codes(df, col, domain or {})
        combined *= max(len(idx), 1)
        if len(codes) and codes.min() < 0:
            ok = codes >= 0
            inside = ok if inside is None else inside & ok
            combined += np.where(ok, codes, 0)
        else:
            combined += codes
        domains.append(idx)
    sizes = [len(d) for d in domains]
    expected = int(np.prod(sizes, dtype=np.float64)) if domains else 0
    if expected >= 2**62:
        raise ValueError(f"completeness key domains are too large ({expected} combinations)")
    codes = combined if inside is None else combined[inside]
    examples: list[Any] = []
    if expected <= 50_000_000:  # a bitmap: O(rows), and the gaps fall out of it
        seen = np.zeros(expected, dtype=bool)
        seen[codes] = True
        present = int(seen.sum())
        gap = np.flatnonzero(~seen)[:MISSING_EXAMPLES] if present < expected else []
    else:
        ordered = np.sort(codes)
        present = int((np.diff(ordered) != 0).sum() + (1 if len(ordered) else 0))
        gap = []
    fraction = 1.0 if expected == 0 else present / expected
    for code in gap:
        item, rest = [], int(code)
        for d, n in zip(reversed(domains), reversed(sizes), strict=True):
            rest, k = divmod(rest, n)
            item.append(_plain(d[k]))
        examples.append(list(reversed(item)))
    return {"success": fraction >= min_fraction, "expected": expected, "present": present,
            "missing": expected - present, "fraction": round(fraction, 6), "missing_examples": examples}  # fmt: skip


def checked_columns(spec: Any) -> set[str]:
    """The columns a CheckSpec's checks read values of (drift's null rates aside: a null test is
    cheap on any dtype, so those columns need no faster view)."""
    out: set[str] = set()
    for check in getattr(spec, "checks", []):
        if getattr(check, "kind", None) == "drift":
            continue
        for attr in ("column", "left", "right"):
            v = getattr(check, attr, None)
            if isinstance(v, str):
                out.add(v)
        out.update(c for c in getattr(check, "columns", None) or [] if isinstance(c, str))
        out.update(k for k in getattr(check, "keys", None) or {} if isinstance(k, str))
    return out


def for_validation(df: pd.DataFrame, only: set[str] | None = None) -> pd.DataFrame:
    """A view of the batch in the dtypes checks run fastest on: the same values at the same positions.

    The runner's casts produce Python objects and pandas' masked arrays, on which every null
    test, hash, comparison and regex is a per-object loop or a mask-juggling copy:

    * ``date`` objects -> datetime64 (the original logical type is kept in ``attrs``);
    * ``str`` objects -> Arrow strings, only when every non-null value is a ``str`` (a mixed
      column stays as it is, so type checks still see the mix);
    * masked ``Float64`` -> float64 (NA -> NaN: both are missing to every check);
    * masked ``Int64`` and friends -> their NumPy integer type when nothing is missing (with
      nulls they stay masked: a float view would change the logical type).

    ``only`` limits the conversions to the columns checks read (``checked_columns``).
    """
    out = None
    for c in df.columns:
        if only is not None and c not in only:
            continue
        s = df[c]
        conv = _fast_column(s)
        if conv is None:
            continue
        out = df.copy(deep=False) if out is None else out
        out[c] = conv
        if s.dtype == object and conv.dtype.kind == "M":
            out.attrs.setdefault(ORIGINAL_TYPES, {})[str(c)] = "date"
    return df if out is None else out


def _fast_column(s: pd.Series) -> pd.Series | None:
    """``s`` in a vectorised dtype with the same values, or ``None`` if it already is one (or cannot be)."""
    arr = s.array
    if isinstance(arr, pd.arrays.FloatingArray):
        return pd.Series(s.to_numpy(dtype=arr.dtype.numpy_dtype, na_value=np.nan), index=s.index)
    if isinstance(arr, pd.arrays.IntegerArray):
        if s.isna().any():
            return None
        return pd.Series(s.to_numpy(dtype=arr.dtype.numpy_dtype), index=s.index)
    if s.dtype != object:
        return None
    kind = logical_type(s)
    try:
        import pyarrow as pa

        if kind == "date":
            dates = pa.array(s.to_numpy(), type=pa.date32(), from_pandas=True)
            return pd.Series(dates.to_pandas(date_as_object=False), index=s.index).astype("datetime64[s]")
        if kind == "string":
            text = pa.array(s.to_numpy(), type=pa.string(), from_pandas=True)  # raises on a non-str value
            return pd.Series(pd.array(text, dtype="str"), index=s.index)
    except (TypeError, ValueError, ArithmeticError, ImportError):  # pa.ArrowTypeError is a TypeError
        if kind == "date":
            return to_dates(s)
    return None


#: ``DataFrame.attrs`` key of a validation view: the logical types its converted columns had
ORIGINAL_TYPES = "autodata_original_types"


def observed_type(df: pd.DataFrame, column: str) -> str:
    """The column's logical type as the caller sent it (a converted date column still reads ``date``)."""
    return (df.attrs.get(ORIGINAL_TYPES) or {}).get(column) or logical_type(df[column])


def freshness(s: pd.Series, max_age_days: int, as_of: Any = None) -> dict[str, Any]:
    """Age in days of the latest date in the column, judged against ``as_of`` (default today, UTC)."""
    d = to_dates(s).dropna()
    ref = pd.Timestamp(as_of) if as_of else pd.Timestamp(dt.datetime.now(dt.UTC).date())
    if d.empty:
        return {"success": False, "latest": None, "age_days": None, "as_of": ref.date().isoformat()}
    latest = d.max().normalize()
    age = int((ref.normalize() - latest).days)
    return {"success": age <= max_age_days, "latest": latest.date().isoformat(), "age_days": age,
            "as_of": ref.date().isoformat()}  # fmt: skip


def schema_drift(df: pd.DataFrame, previous_columns: dict[str, str]) -> dict[str, Any]:
    """New, missing and retyped columns against the previous run's profile (never applied silently)."""
    now = {c: observed_type(df, c) for c in df.columns}
    new = sorted(set(now) - set(previous_columns))
    missing = sorted(set(previous_columns) - set(now))
    retyped = {
        c: f"{previous_columns[c]} -> {now[c]}"
        for c in now
        if c in previous_columns
        and now[c] != previous_columns[c]
        and "empty" not in (now[c], previous_columns[c])
        and {now[c], previous_columns[c]}
        not in ({"integer", "float"}, {"date", "datetime"})  # a null turns ints into floats
    }
    return {"success": not (new or missing or retyped), "new": new, "missing": missing, "retyped": retyped}


def profile(df: pd.DataFrame, *, view: pd.DataFrame | None = None) -> dict[str, Any]:
    """What drift compares next time: row count, and per column its logical type and null rate.

    ``view`` is ``for_validation(df)`` when the caller has it: nulls are counted there (a
    datetime64 null test is vectorised, a column of ``date`` objects is a per-object loop),
    while the types stay those of ``df``.
    """
    n = len(df)
    nulls = (df if view is None else view).isna().sum()
    types = {}
    for c in df.columns:
        s = df[c]
        if view is not None and s.dtype == object and pd.api.types.is_datetime64_any_dtype(view[c].dtype):
            types[c] = "date"  # for_validation converted it because it held dates
        else:
            types[c] = logical_type(s)
    return {
        "row_count": n,
        "columns": {
            str(c): {"type": types[c], "null_rate": round(float(nulls[c]) / n, 6) if n else 0.0}
            for c in df.columns
        },
    }


def null_rates(df: pd.DataFrame, max_null_rates: dict[str, float]) -> dict[str, Any]:
    """Each column's null rate against its bound (drift: the previous rate plus the allowed increase).

    A column the batch lacks counts as over its bound (the schema check says why).
    """
    n = len(df)
    columns: dict[str, dict[str, Any]] = {}
    for col, bound in max_null_rates.items():
        if col not in df.columns:
            columns[col] = {"null_rate": None, "max": bound, "ok": False}
            continue
        rate = round(float(df[col].isna().sum()) / n, 6) if n else 0.0
        columns[col] = {"null_rate": rate, "max": bound, "ok": rate <= bound}
    over = [c for c, v in columns.items() if not v["ok"]]
    return {"success": not over, "over": over, "columns": columns}


def _plain(x: Any) -> Any:
    if isinstance(x, pd.Timestamp):
        return x.date().isoformat() if x == x.normalize() else x.isoformat()
    if isinstance(x, dt.date):
        return x.isoformat()
    if isinstance(x, np.generic):
        return x.item()
    return x


# --------------------------------------------------------------------------- pandera


@cache
def register_pandera() -> None:
    """Register our checks with pandera so schemas that use them round-trip through YAML."""
    from pandera import extensions

    @extensions.register_check_method(statistics=["dtype"], supported_types=pd.Series)
    def autodata_logical_type(s: pd.Series, *, dtype: str) -> bool:
        return type_matches(logical_type(s), dtype)

    @extensions.register_check_method(statistics=["pattern"], supported_types=pd.Series)
    def autodata_regex(s: pd.Series, *, pattern: str) -> pd.Series:
        return regex_match(s, pattern)

    @extensions.register_check_method(statistics=["max_fraction"], supported_types=pd.Series)
    def autodata_null_fraction(s: pd.Series, *, max_fraction: float) -> bool:
        return bool(len(s) == 0 or s.isna().mean() <= max_fraction)

    @extensions.register_check_method(statistics=[], supported_types=pd.Series)
    def autodata_weekday(s: pd.Series) -> pd.Series:
        return weekday_ok(s)

    @extensions.register_check_method(statistics=["min_value", "max_value"], supported_types=pd.Series)
    def autodata_date_range(s: pd.Series, *, min_value: Any, max_value: Any) -> pd.Series:
        return range_ok(s, min_value or None, max_value or None)

    @extensions.register_check_method(statistics=["max_age_days", "as_of"], supported_types=pd.Series)
    def autodata_freshness(s: pd.Series, *, max_age_days: int, as_of: Any) -> bool:
        return bool(freshness(s, max_age_days, as_of or None)["success"])

    @extensions.register_check_method(statistics=["columns"], supported_types=pd.DataFrame)
    def autodata_unique_key(df: pd.DataFrame, *, columns: list[str]) -> pd.Series:
        if any(c not in df.columns for c in columns):
            return pd.Series(False, index=df.index)
        return pd.Series(~duplicated_rows(df[list(columns)]), index=df.index)

    @extensions.register_check_method(statistics=["left", "op", "right"], supported_types=pd.DataFrame)
    def autodata_compare(df: pd.DataFrame, *, left: str, op: str, right: str) -> pd.Series:
        if left not in df.columns or right not in df.columns:
            return pd.Series(False, index=df.index)
        return compare_ok(df, left, op, right)

    @extensions.register_check_method(statistics=["min_value", "max_value"], supported_types=pd.DataFrame)
    def autodata_row_count(df: pd.DataFrame, *, min_value: Any, max_value: Any) -> bool:
        n = len(df)
        return (min_value is None or n >= min_value) and (max_value is None or n <= max_value)

    @extensions.register_check_method(statistics=["keys", "min_fraction"], supported_types=pd.DataFrame)
    def autodata_completeness(df: pd.DataFrame, *, keys: dict, min_fraction: float) -> bool:
        return bool(completeness(df, keys, min_fraction)["success"])

    @extensions.register_check_method(statistics=["previous_columns"], supported_types=pd.DataFrame)
    def autodata_schema_drift(df: pd.DataFrame, *, previous_columns: dict) -> bool:
        return bool(schema_drift(df, previous_columns)["success"])


# --------------------------------------------------------------------------- Great Expectations


def _faster_native_kernels() -> None:
    """Give two of GE's native expectations faster pandas kernels with the same answers.

    The expectations, their metrics, results and Data Docs stay GE's own; only the pandas
    function behind the condition metric changes, registered the way GE registers the original:

    * ``expect_compound_columns_to_be_unique``: ``~df.duplicated(keep=False)`` becomes
      ``duplicated_rows`` (the same rows, from key codes shared with completeness and pandera);
    * ``expect_column_values_to_match_regex``: ``s.astype(str).str.contains(regex)`` is evaluated
      once per distinct value (``regex_contains``) instead of once per row.

    A GE without those providers keeps its own kernels.
    """
    from great_expectations.execution_engine import PandasExecutionEngine
    from great_expectations.expectations.metrics.map_metric_provider import (
        column_condition_partial,
        multicolumn_condition_partial,
    )
    from great_expectations.expectations.registry import register_metric

    def install(module: str, name: str, fn) -> None:
        import importlib

        try:
            native = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            return
        fn_type = fn.metric_fn_type
        quiet = logging.getLogger("great_expectations.expectations.registry")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # GE warns that it is "overwriting metric_provider": we mean to
        try:
            register_metric(
                metric_name=f"{native.condition_metric_name}.{fn_type.metric_suffix}",
                metric_domain_keys=native.condition_domain_keys,
                metric_value_keys=native.condition_value_keys,
                execution_engine=PandasExecutionEngine,
                metric_class=native,
                metric_provider=fn,
                metric_fn_type=fn_type,
            )
        finally:
            quiet.setLevel(level)

    @multicolumn_condition_partial(engine=PandasExecutionEngine)
    def unique_rows(cls, column_list, **kwargs):
        return pd.Series(~duplicated_rows(column_list), index=column_list.index)

    @column_condition_partial(engine=PandasExecutionEngine)
    def match_regex(cls, column, regex, **kwargs):
        return regex_contains(column, regex)

    metrics = "great_expectations.expectations.metrics"
    install(
        f"{metrics}.multicolumn_map_metrics.compound_columns_unique", "CompoundColumnsUnique", unique_rows
    )
    install(f"{metrics}.column_map_metrics.column_values_match_regex", "ColumnValuesMatchRegex", match_regex)


def regex_contains(s: pd.Series, pattern: str) -> pd.Series:
    """``s.astype(str).str.contains(pattern)`` (GE's regex test), evaluated once per distinct value.

    A key-like text column repeats a few hundred values over millions of rows; matching the
    distinct values and spreading the answers through the (shared) codes gives the same result
    for a fraction of the regex work. Columns with nulls or mostly distinct values use pandas.
    """
    spread = _per_distinct_text(s, lambda u: u.astype(str).str.contains(pattern), null_answer=None)
    return s.astype(str).str.contains(pattern) if spread is None else spread


def regex_match(s: pd.Series, pattern: str) -> pd.Series:
    """``s.str.match(pattern)`` (pandera's ``str_matches``; nulls False), once per distinct value."""
    spread = _per_distinct_text(s, lambda u: u.str.match(pattern), null_answer=False)
    return s.str.match(pattern) if spread is None else spread


def _per_distinct_text(s: pd.Series, fn, *, null_answer: bool | None) -> pd.Series | None:
    """``_per_distinct`` for text columns: ``fn`` tests a Series of the distinct strings."""
    if not pd.api.types.is_string_dtype(s.dtype):
        return None
    hits = _per_distinct(
        s, lambda u: fn(pd.Series(u)).fillna(False).to_numpy(dtype=bool), null_answer=null_answer
    )
    return None if hits is None else pd.Series(hits, index=s.index)


@cache
def register_gx() -> dict[str, type]:
    """Define our custom GE expectations (and their metrics) once per process; GE registers them by name."""
    from great_expectations.core.metric_domain_types import MetricDomainTypes
    from great_expectations.execution_engine import PandasExecutionEngine
    from great_expectations.expectations.expectation import BatchExpectation, ColumnMapExpectation
    from great_expectations.expectations.metrics import ColumnMapMetricProvider, column_condition_partial
    from great_expectations.expectations.metrics.metric_provider import metric_value
    from great_expectations.expectations.metrics.table_metric_provider import TableMetricProvider
    from great_expectations.render import (
        LegacyDiagnosticRendererType,
        LegacyRendererType,
        RenderedStringTemplateContent,
    )
    from great_expectations.render.renderer.renderer import renderer
    from great_expectations.render.util import num_to_str

    def _kwargs(configuration, result) -> dict:
        """Renderers are called with a configuration, a result, or both (GE's dispatch contract)."""
        cfg = configuration or (getattr(result, "expectation_config", None) if result else None)
        return dict(cfg.kwargs) if cfg is not None else {}

    def _sentence(template: str, params: dict, runtime_configuration: dict | None) -> list:
        """One prescriptive sentence, styled like GE's native ones (column names as badges)."""
        styling = (runtime_configuration or {}).get("styling")
        return [
            RenderedStringTemplateContent(
                content_block_type="string_template",
                string_template={"template": template, "params": params, "styling": styling},
            )
        ]

    def _mostly(kw: dict, params: dict) -> str:
        mostly = kw.get("mostly")
        if mostly is None or mostly >= 1.0:
            return ""
        params["mostly_pct"] = num_to_str(mostly * 100, no_scientific=True)
        return ", at least $mostly_pct % of the time"

    def _observed(result) -> dict:
        value = ((result.result or {}) if result is not None else {}).get("observed_value")
        return value if isinstance(value, dict) else {}

    def _n(x) -> str:
        return num_to_str(x, use_locale=True, precision=20) if isinstance(x, (int, float)) else str(x)

    def _domain_text(col: str, domain: dict) -> str:
        if domain.get("values") is not None:
            return f"{col} (one of {len(domain['values'])} values)"
        if domain.get("start") and domain.get("end"):
            days = "weekdays" if domain.get("weekdays_only", True) else "days"
            skip = domain.get("exclude") or []
            extra = f" except {len(skip)} holidays" if skip else ""
            return f"{col} ({days} {domain['start']} to {domain['end']}{extra})"
        return f"{col} (every value seen)"

    def _table(execution_engine, metric_domain_kwargs) -> pd.DataFrame:
        df, _, _ = execution_engine.get_compute_domain(
            metric_domain_kwargs, domain_type=MetricDomainTypes.TABLE
        )
        return df

    class ColumnValuesAutodataWeekday(ColumnMapMetricProvider):
        condition_metric_name = "column_values.autodata_weekday"

        @column_condition_partial(engine=PandasExecutionEngine)
        def _pandas(cls, column, **kwargs):
            return weekday_ok(column)

    class ExpectColumnValuesToBeWeekdays(ColumnMapExpectation):
        """Expect dates to fall on Monday to Friday (no weekend rows in trading data)."""

        map_metric = "column_values.autodata_weekday"
        success_keys = ("mostly",)

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            kwargs = _kwargs(configuration, result)
            params = {"column": kwargs.get("column")}
            tail = _mostly(kwargs, params)
            return _sentence(
                f"$column values must fall on a weekday (Monday to Friday){tail}.",
                params,
                runtime_configuration,
            )

    class ColumnValuesAutodataDateBetween(ColumnMapMetricProvider):
        condition_metric_name = "column_values.autodata_date_between"
        condition_value_keys = ("min_value", "max_value")

        @column_condition_partial(engine=PandasExecutionEngine)
        def _pandas(cls, column, min_value=None, max_value=None, **kwargs):
            return range_ok(column, min_value, max_value)

    class ExpectColumnValuesToBeBetweenDates(ColumnMapExpectation):
        """Expect dates (date objects, ISO strings or datetimes) to lie within [min_value, max_value]."""

        min_value: str | None = None
        max_value: str | None = None
        map_metric = "column_values.autodata_date_between"
        success_keys = ("min_value", "max_value", "mostly")

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            kwargs = _kwargs(configuration, result)
            lo, hi = kwargs.get("min_value"), kwargs.get("max_value")
            params = {"column": kwargs.get("column"), "min_value": lo, "max_value": hi}
            if lo is not None and hi is not None:
                rule = "between $min_value and $max_value"
            elif lo is not None:
                rule = "on or after $min_value"
            else:
                rule = "on or before $max_value"
            tail = _mostly(kwargs, params)
            return _sentence(f"$column dates must be {rule}{tail}.", params, runtime_configuration)

    def _table_metric(name: str, keys: tuple[str, ...], fn):
        attrs = {"metric_name": name, "value_keys": keys}

        def _pandas(
            cls, execution_engine, metric_domain_kwargs, metric_value_kwargs, metrics, runtime_configuration
        ):
            return fn(
                _table(execution_engine, metric_domain_kwargs),
                **{k: metric_value_kwargs.get(k) for k in keys},
            )

        attrs["_pandas"] = metric_value(engine=PandasExecutionEngine)(_pandas)
        return type(f"Table{name.split('.')[-1].title().replace('_', '')}", (TableMetricProvider,), attrs)

    _table_metric(
        "table.autodata_logical_type",
        ("column", "dtype"),
        lambda df, column, dtype: {
            "present": column in df.columns,
            "observed": observed_type(df, column) if column in df.columns else None,
        },
    )
    _table_metric(
        "table.autodata_completeness",
        ("keys", "min_fraction"),
        lambda df, keys, min_fraction: completeness(df, keys, min_fraction),
    )
    _table_metric(
        "table.autodata_freshness",
        ("column", "max_age_days", "as_of"),
        lambda df, column, max_age_days, as_of: (
            freshness(df[column], max_age_days, as_of)
            if column in df.columns
            else {"success": False, "latest": None, "error": f"column {column!r} is missing"}
        ),
    )
    _table_metric(
        "table.autodata_null_rates",
        ("max_null_rates",),
        lambda df, max_null_rates: null_rates(df, max_null_rates or {}),
    )
    _table_metric(
        "table.autodata_schema_drift",
        ("previous_columns",),
        lambda df, previous_columns: schema_drift(df, previous_columns),
    )

    class ExpectColumnToHaveLogicalType(BatchExpectation):
        """Expect a column to exist and hold values of a logical type (string, integer, float, date, ...)."""

        column: str
        dtype: str
        required: bool = True  # False: a missing column passes (its type is checked when present)
        metric_dependencies = ("table.autodata_logical_type",)
        success_keys = ("column", "dtype", "required")

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            kwargs = _kwargs(configuration, result)
            params = {"column": kwargs.get("column"), "dtype": kwargs.get("dtype")}
            rule = "must exist and hold" if kwargs.get("required", True) else "when present, must hold"
            return _sentence(f"$column {rule} values of logical type $dtype.", params, runtime_configuration)

        @classmethod
        @renderer(renderer_type=LegacyDiagnosticRendererType.OBSERVED_VALUE)
        def _diagnostic_observed_value_renderer(
            cls, configuration=None, result=None, runtime_configuration=None, **kw
        ):
            value = ((result.result or {}) if result is not None else {}).get("observed_value")
            return "--" if value is None else str(value)

        def _validate(self, metrics, runtime_configuration=None, execution_engine=None):
            m = metrics["table.autodata_logical_type"]
            ok = type_matches(m["observed"], self.dtype) if m["present"] else not self.required
            return {
                "success": ok,
                "result": {"observed_value": m["observed"] if m["present"] else "missing column"},
            }

    class ExpectTableKeysToBeComplete(BatchExpectation):
        """Expect every combination of the key domains (e.g. tickers x trading days) to be present."""

        keys: dict
        min_fraction: float = 1.0
        metric_dependencies = ("table.autodata_completeness",)
        success_keys = ("keys", "min_fraction")

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            kwargs = _kwargs(configuration, result)
            keys = kwargs.get("keys") or {}
            params = {f"key_{i}": _domain_text(c, d or {}) for i, (c, d) in enumerate(keys.items())}
            combo = " x ".join(f"$key_{i}" for i in range(len(keys)))
            fraction = kwargs.get("min_fraction", 1.0)
            if fraction is None or fraction >= 1.0:
                tail = ""
            else:
                params["min_pct"] = num_to_str(fraction * 100, no_scientific=True)
                tail = ", at least $min_pct % of them"
            return _sentence(
                f"Every combination of {combo} must have a row{tail}.", params, runtime_configuration
            )

        @classmethod
        @renderer(renderer_type=LegacyDiagnosticRendererType.OBSERVED_VALUE)
        def _diagnostic_observed_value_renderer(
            cls, configuration=None, result=None, runtime_configuration=None, **kw
        ):
            m = _observed(result)
            if m.get("error"):
                return str(m["error"])
            if m.get("expected") is None:
                return "--"
            text = (
                f"{_n(m.get('present'))} of {_n(m.get('expected'))} combinations present "
                f"({num_to_str(100 * float(m.get('fraction') or 0), precision=4)}%)"
            )
            if m.get("missing"):
                examples = "; ".join(" ".join(str(v) for v in e) for e in m.get("missing_examples") or [])
                text += f"; {_n(m['missing'])} missing" + (f", e.g. {examples}" if examples else "")
            return text

        def _validate(self, metrics, runtime_configuration=None, execution_engine=None):
            m = metrics["table.autodata_completeness"]
            return {"success": bool(m["success"]), "result": {"observed_value": m}}

    class ExpectColumnMaxToBeFresh(BatchExpectation):
        """Expect the latest date in a column to be at most ``max_age_days`` old."""

        column: str
        max_age_days: int
        as_of: str | None = None
        metric_dependencies = ("table.autodata_freshness",)
        success_keys = ("column", "max_age_days", "as_of")

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            kwargs = _kwargs(configuration, result)
            params = {
                "column": kwargs.get("column"),
                "max_age_days": kwargs.get("max_age_days"),
                "as_of": kwargs.get("as_of") or "the run date",
            }
            return _sentence(
                "The latest $column must be at most $max_age_days days old (as of $as_of).",
                params,
                runtime_configuration,
            )

        @classmethod
        @renderer(renderer_type=LegacyDiagnosticRendererType.OBSERVED_VALUE)
        def _diagnostic_observed_value_renderer(
            cls, configuration=None, result=None, runtime_configuration=None, **kw
        ):
            m = _observed(result)
            if m.get("error"):
                return str(m["error"])
            if not m.get("latest"):
                return "no dates"
            return f"latest {m['latest']}, {m.get('age_days')} days old on {m.get('as_of')}"

        def _validate(self, metrics, runtime_configuration=None, execution_engine=None):
            m = metrics["table.autodata_freshness"]
            return {"success": bool(m["success"]), "result": {"observed_value": m}}

    class ExpectTableSchemaToMatchPrevious(BatchExpectation):
        """Expect no new, missing or retyped columns compared with the previous run."""

        previous_columns: dict
        metric_dependencies = ("table.autodata_schema_drift",)
        success_keys = ("previous_columns",)

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            previous = _kwargs(configuration, result).get("previous_columns") or {}
            params = {"n": len(previous)}
            return _sentence(
                "Columns must match the previous run ($n columns): no new, missing or retyped columns.",
                params,
                runtime_configuration,
            )

        @classmethod
        @renderer(renderer_type=LegacyDiagnosticRendererType.OBSERVED_VALUE)
        def _diagnostic_observed_value_renderer(
            cls, configuration=None, result=None, runtime_configuration=None, **kw
        ):
            m = _observed(result)
            parts = []
            if m.get("new"):
                parts.append("new: " + ", ".join(m["new"]))
            if m.get("missing"):
                parts.append("missing: " + ", ".join(m["missing"]))
            if m.get("retyped"):
                parts.append("retyped: " + ", ".join(f"{c} ({t})" for c, t in m["retyped"].items()))
            return "; ".join(parts) if parts else ("same columns and types" if m else "--")

        def _validate(self, metrics, runtime_configuration=None, execution_engine=None):
            m = metrics["table.autodata_schema_drift"]
            return {"success": bool(m["success"]), "result": {"observed_value": m}}

    class ExpectTableNullRatesToStayWithin(BatchExpectation):
        """Expect each column's null rate to stay within its bound (drift against the previous run).

        One expectation for every column of a drift check instead of one per column: the answers
        are split back into one result per column (``drift:null_rate:<column>``).
        """

        max_null_rates: dict
        metric_dependencies = ("table.autodata_null_rates",)
        success_keys = ("max_null_rates",)

        @classmethod
        @renderer(renderer_type=LegacyRendererType.PRESCRIPTIVE)
        def _prescriptive_renderer(cls, configuration=None, result=None, runtime_configuration=None, **kw):
            bounds = _kwargs(configuration, result).get("max_null_rates") or {}
            return _sentence(
                "Null rates of $n columns must stay within the previous run's rate plus the allowed increase.",
                {"n": len(bounds)},
                runtime_configuration,
            )

        @classmethod
        @renderer(renderer_type=LegacyDiagnosticRendererType.OBSERVED_VALUE)
        def _diagnostic_observed_value_renderer(
            cls, configuration=None, result=None, runtime_configuration=None, **kw
        ):
            m = _observed(result)
            cols = m.get("columns") or {}
            over = [
                f"{c} {_n(round(100 * (v.get('null_rate') or 0), 3))}% > {_n(round(100 * v['max'], 3))}%"
                for c, v in cols.items()
                if not v.get("ok")
            ]
            return ("over: " + ", ".join(over)) if over else (f"{len(cols)} columns within" if m else "--")

        def _validate(self, metrics, runtime_configuration=None, execution_engine=None):
            m = metrics["table.autodata_null_rates"]
            return {"success": bool(m["success"]), "result": {"observed_value": m}}

    _faster_native_kernels()
    return {
        "weekdays": ExpectColumnValuesToBeWeekdays,
        "date_range": ExpectColumnValuesToBeBetweenDates,
        "logical_type": ExpectColumnToHaveLogicalType,
        "completeness": ExpectTableKeysToBeComplete,
        "freshness": ExpectColumnMaxToBeFresh,
        "schema_drift": ExpectTableSchemaToMatchPrevious,
    }
