"""The Instruct2DS metric as a pure function: per-attribute precision/recall/F1, averaged over attributes.

The rule (README "Scoring": each attribute of a record is a unit; numerics rounded to 4 decimals;
P/R/F1 per attribute, then averaged):

1. Columns are matched case-insensitively; ``fields`` (default: the truth's columns) are scored.
   A field the prediction lacks scores P = R = F1 = 0; extra predicted columns are ignored.
2. Every value is normalised (``normalise``): strip + collapse whitespace + Unicode NFC; numbers
   (and numeric strings) rounded half-up to 4 decimals and printed canonically (82 == 82.0 == "82");
   dates and timestamps at midnight → "YYYY-MM-DD" (also "March 29, 2024", "2024/03/29", "02-11-2006",
   "29.03.2024"...);
   sandbox URLs ``http://127.0.0.1:PORT/<host>/<path>`` (any loopback host, any port) →
   ``https://<host>/<path>``; author lists (a column named AUTHORS) → "First Last, First Last".
   None, NaN and "" are *missing*: they are not units, neither in the truth nor in the prediction.
   A number with its unit and the bare number are one fact when the unit is the same ("20 mpg" ==
   20 in a column whose unit is "mpg"), in both directions (``_same_units``): the product lands the
   number and records the unit in its spec (``FieldRule.unit``), a truth may keep the text as shown.
3. Per attribute, truth and prediction are multisets of normalised non-missing values; true positives
   are the multiset intersection. P = TP / |pred|, R = TP / |truth|, F1 their harmonic mean.
   Both empty → 1.0 (nothing to find, nothing invented); one side empty → 0 on that side.
4. ``precision``, ``recall`` and ``f1`` are the unweighted means over the scored attributes.
5. Rows: whole records (tuples of normalised values over the scored fields, missing as a token)
   matched as multisets → ``row_precision`` and ``row_recall``.

Multisets (not record alignment) are what the benchmark scores: an attribute value is a fact, so a
correct value counts even when the collector orders rows differently or a sibling attribute is wrong.
Rows give the stricter, record-level view beside it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

_MISSING = "\x00<missing>"
_WS = re.compile(r"\s+")
# C0 controls HTML cannot carry: the sites drop them (sites/_html.py), so scoring ignores them too
# (NUL is kept: it marks the missing token).
_CTRL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")
_ISO_DT = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$"
)
_SLASH_YMD = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$")
_SLASH_DMY = re.compile(r"^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$")
_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
_MDY = re.compile(r"^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$")
_DMY = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})$")
_LOOPBACK_URL = re.compile(
    r"^https?://(?:127(?:\.\d{1,3}){3}|localhost|\[::1\])(?::\d+)?/([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(/.*)?$",
    re.IGNORECASE,
)
_URL = re.compile(r"^(https?)://([^/?#]+)(.*)$", re.IGNORECASE)


class AttributeScore(BaseModel):
    """P/R/F1 of one attribute, with the multiset sizes they came from."""

    precision: float
    recall: float
    f1: float
    true_positives: int
    predicted: int
    expected: int


class Score(BaseModel):
    """The benchmark metric for one collected dataset against its ground truth."""

    precision: float
    recall: float
    f1: float
    per_attribute: dict[str, AttributeScore]
    row_precision: float
    row_recall: float
    predicted_rows: int
    expected_rows: int
    missing_fields: list[str]

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()


def _date_iso(y: int, m: int, d: int) -> str | None:
    try:
        return date(y, m, d).isoformat()
    except ValueError:
        return None


def _norm_date_string(s: str) -> str | None:
    """ISO form of a date-looking string, or None when it does not look like a date."""
    if mt := _ISO_DT.match(s):
        y, mo, d, hh, mi, ss, _tz = mt.groups()
        iso = _date_iso(int(y), int(mo), int(d))
        if iso is None:
            return None
        if hh is None or (int(hh), int(mi), int(ss or 0)) == (0, 0, 0):
            return iso
        return f"{iso}T{hh}:{mi}:{ss or '00'}"
    if mt := _SLASH_YMD.match(s):
        return _date_iso(int(mt[1]), int(mt[2]), int(mt[3]))
    if mt := _SLASH_DMY.match(s):
        a, sep, b, y = int(mt[1]), mt[2], int(mt[3]), int(mt[4])
        # Day-first when the first part cannot be a month, or with dots ("29.03.2024", "03.04.2024":
        # the European way) unless the second part cannot be one; otherwise US month-first ("02-11-2006").
        day_first = a > 12 or (sep == "." and b <= 12)
        return _date_iso(y, b, a) if day_first else _date_iso(y, a, b)
    if mt := _MDY.match(s):
        month = _MONTHS.get(mt[1].lower())
        return _date_iso(int(mt[3]), month, int(mt[2])) if month else None
    if mt := _DMY.match(s):
        month = _MONTHS.get(mt[2].lower())
        return _date_iso(int(mt[3]), month, int(mt[1])) if month else None
    return None


def _norm_number(x: Decimal) -> str:
    try:
        q = x.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    except InvalidOperation:  # beyond 28 significant digits: rounding to 4 decimals changes nothing
        return format(x.normalize(), "f")
    if q == q.to_integral_value():
        return str(int(q))
    return format(q.normalize(), "f")


def canonical_url(url: str) -> str:
    """Sandbox form → the real URL; lower-case host otherwise, http == https (old PMLR links are http)."""
    if mt := _LOOPBACK_URL.match(url):
        return f"https://{mt[1].lower()}{mt[2] or '/'}"
    if mt := _URL.match(url):
        return f"https://{mt[2].lower()}{mt[3] or '/'}"
    return url


def normalise_authors(value: str) -> str:
    """BibTeX 'Last, First and Last, First' or 'First Last , First Last' → 'First Last, First Last'."""
    if re.search(r"\s+and\s+", value) and "," in value:
        names = []
        for part in re.split(r"\s+and\s+", value):
            bits = [b.strip() for b in part.split(",")]
            if len(bits) == 2 and all(bits):
                names.append(f"{bits[1]} {bits[0]}")
            elif len(bits) == 3 and all(bits):
                names.append(f"{bits[2]} {bits[0]} {bits[1]}")
            else:
                names.append(" ".join(b for b in bits if b))
    else:
        names = [p for p in re.split(r"\s*(?:,|;|\s+and\s+)\s*", value)]
    return ", ".join(n.strip() for n in names if n.strip())


def normalise(value: Any, *, field: str | None = None) -> str:
    """One canonical string per value, so equal facts compare equal (see the module docstring)."""
    if value is None or value is pd.NA:  # pd.NA: nullable columns (DuckDB .df() gives Int64)
        return _MISSING
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (pd.Timestamp, datetime)):
        if pd.isna(value):
            return _MISSING
        value = value.isoformat()
    elif isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (int, float, Decimal)) or (
        hasattr(value, "dtype") and getattr(value, "shape", None) == ()
    ):  # numpy scalars included
        try:
            f = float(value)
        except (TypeError, ValueError):
            value = str(value)
        else:
            if math.isnan(f) or math.isinf(f):
                return _MISSING
            if isinstance(value, float) or (hasattr(value, "dtype") and value.dtype.kind == "f"):
                return _norm_number(Decimal(repr(f)))
            return _norm_number(Decimal(int(value)))
    s = unicodedata.normalize("NFC", _WS.sub(" ", _CTRL.sub("", str(value))).strip())
    if not s or s.lower() in ("nan", "none", "null", "nat"):
        return _MISSING
    if len(s) > 1 and s[0] in "$£€¥" and (_NUMBER.match(s[1:].lstrip()) or _THOUSANDS.match(s[1:].lstrip())):
        s = s[1:].lstrip()  # an amount: "$9,970" is the fact 9970, however a site or a truth writes it
    if (_NUMBER.match(s) or _THOUSANDS.match(s)) and not (len(s) > 1 and s[0] == "0" and s[1].isdigit()):
        # "007" stays a code, "1,234" is a number.
        return _norm_number(Decimal(s.replace(",", "")))
    if (iso := _norm_date_string(s)) is not None:
        return iso
    if s[:4].lower() == "http":
        return canonical_url(s)
    if field is not None and field.lower() == "authors":
        return normalise_authors(s)
    return s


def _norm_float(f: float) -> str:
    """Fast path of ``normalise`` for floats: most values already have at most 4 decimals."""
    if f != f or f in (math.inf, -math.inf):
        return _MISSING
    r = repr(f)
    head, dot, tail = r.partition(".")
    if dot and "e" not in r and len(tail) <= 4:
        return head if tail == "0" else r
    return _norm_number(Decimal(r))


def _norm_float_array(arr: np.ndarray) -> list[str]:
    """Vectorised ``_norm_float``: numpy rounds; values near a half-way tie go the exact Decimal way."""
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = arr * 1e4
        near_tie = np.abs(np.abs(scaled - np.trunc(scaled)) - 0.5) < 1e-6
        rounded = np.round(arr, 4)
    out = []
    for v, r, tie in zip(arr.tolist(), rounded.tolist(), near_tie.tolist(), strict=True):
        if tie or v != v or v in (math.inf, -math.inf):
            out.append(_norm_float(v))
            continue
        text = repr(r) if r != 0 else "0"  # also folds -0.0
        if "e" in text:
            text = _norm_float(v)
        elif text.endswith(".0"):
            text = text[:-2]
        out.append(text)
    return out


def _normalise_column(values: pd.Series, field: str) -> list[str]:
    """Normalise a whole column; typed columns take a fast path, the rest are memoised per value."""
    kind = values.dtype.kind
    items = values.tolist()
    if kind in "iu":  # nullable Int64 columns hold pd.NA for missing values
        return [_MISSING if v is pd.NA else str(v) for v in items]
    if kind == "f":
        return _norm_float_array(values.to_numpy(dtype=float))
    memo: dict[Any, str] = {}
    out = []
    for v in items:
        try:
            out.append(memo[v])
        except (KeyError, TypeError):
            n = normalise(v, field=field)
            try:
                memo[v] = n
            except TypeError:
                pass
            out.append(n)
    return out


def _prf(tp: int, n_pred: int, n_true: int) -> tuple[float, float, float]:
    if n_pred == 0 and n_true == 0:
        return 1.0, 1.0, 1.0
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_true if n_true else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _column(df: pd.DataFrame, name: str) -> str | None:
    wanted = name.strip().lower()
    for col in df.columns:
        if str(col).strip().lower() == wanted:
            return col
    return None


# A normalised value that is one number with its unit ("20 mpg", "1,234 ft", "3.5 L", "12 comments").
_WITH_UNIT = re.compile(
    r"^([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s?([^\W\d_][^\W\d_/.]{0,7}(?:/[^\W\d_]{1,4})?[²³]?\.?)$"
)


def unit_key(unit: str) -> str:
    """One unit however it is written: ``"MPG"`` = ``"mpg"``, ``"mins"`` = ``"min"``, ``"in."`` = ``"in"``."""
    u = unicodedata.normalize("NFC", unit).casefold().rstrip(".")
    if len(u) >= 5 and u.endswith("ies"):
        return u[:-3] + "y"  # "replies" = "reply"
    return u[:-1] if len(u) >= 3 and u.endswith("s") and not u.endswith("ss") else u


def _column_unit(values: list[str]) -> str | None:
    """The unit most (60%) of a column's values are written with (``"20 mpg"``...), else None."""
    filled = [v for v in values if v != _MISSING]
    units = Counter(unit_key(m[2]) for v in filled if (m := _WITH_UNIT.match(v)))
    if not units:
        return None
    ((unit, n),) = units.most_common(1)
    return unit if n >= 0.6 * len(filled) else None


def _strip_unit(values: list[str], unit: str) -> list[str]:
    """``values`` with every "number unit" in ``unit`` written as the bare number; other values as they are."""
    out = []
    for v in values:
        m = _WITH_UNIT.match(v) if v != _MISSING else None
        out.append(_norm_number(Decimal(m[1].replace(",", ""))) if m and unit_key(m[2]) == unit else v)
    return out


def _same_units(truth: list[str], pred: list[str], pred_unit: str | None) -> tuple[list[str], list[str]]:
    """A number with its unit and the bare number are one fact when the unit is the same, in either
    direction: a truth "20 mpg" and a collected 20 whose column's unit is "mpg" (or unknown), a truth 20
    and a collected "20 mpg". The unit of a side is the one its values are written with, else the
    collector's declared unit (``pred_unit``); a side with neither takes the other's. Two known units
    that differ leave both sides as they are (a collected 20 in km/l is not "20 mpg")."""
    t_unit = _column_unit(truth)
    p_unit = _column_unit(pred) or (unit_key(pred_unit) if pred_unit else None)
    if t_unit is None and p_unit is None:
        return truth, pred
    if t_unit is not None and p_unit is not None and t_unit != p_unit:
        return truth, pred
    unit = t_unit or p_unit
    assert unit is not None
    return _strip_unit(truth, unit), _strip_unit(pred, unit)


def spec_units(spec_path: str | None) -> dict[str, str]:
    """The units a saved CollectorSpec records for its columns (``{}`` without a spec), for ``score``."""
    from pathlib import Path

    from prefect_autodata.runtime.spec import CollectorSpec

    if not spec_path or not Path(spec_path).is_file():
        return {}
    return CollectorSpec.from_yaml(Path(spec_path).read_text(encoding="utf-8"), origin=spec_path).units()


def score(
    predicted: pd.DataFrame,
    truth: pd.DataFrame,
    fields: list[str] | None = None,
    *,
    units: dict[str, str] | None = None,
) -> Score:
    """Score a collected dataset against the ground truth (pure; neither frame is modified).

    ``units``: the unit of a collected column's numbers (``CollectorSpec.units()``, matched to the
    fields case-insensitively); a truth written "20 mpg" and a collected 20 in "mpg" are equal."""
    declared = {k.strip().lower(): v for k, v in (units or {}).items()}
    fields = list(truth.columns) if fields is None else list(fields)
    if not fields:
        raise ValueError("score() needs at least one field to compare")
    per: dict[str, AttributeScore] = {}
    missing: list[str] = []
    pred_cols: dict[str, list[str]] = {}
    true_cols: dict[str, list[str]] = {}
    for f in fields:
        tcol = _column(truth, f)
        if tcol is None:
            raise ValueError(f"field {f!r} is not a column of the ground truth")
        true_cols[f] = _normalise_column(truth[tcol], f)
        pcol = _column(predicted, f)
        if pcol is None:
            missing.append(f)
            pred_cols[f] = [_MISSING] * len(predicted)
        else:
            pred_cols[f] = _normalise_column(predicted[pcol], f)
            true_cols[f], pred_cols[f] = _same_units(
                true_cols[f], pred_cols[f], declared.get(f.strip().lower())
            )
        t = Counter(v for v in true_cols[f] if v != _MISSING)
        p = Counter(v for v in pred_cols[f] if v != _MISSING)
        tp = sum((t & p).values())
        n_p, n_t = sum(p.values()), sum(t.values())
        if pcol is None:
            prec, rec, f1 = 0.0, 0.0, 0.0
        else:
            prec, rec, f1 = _prf(tp, n_p, n_t)
        per[f] = AttributeScore(
            precision=prec, recall=rec, f1=f1, true_positives=tp, predicted=n_p, expected=n_t
        )
    true_rows = Counter(zip(*(true_cols[f] for f in fields), strict=True))
    pred_rows = Counter(zip(*(pred_cols[f] for f in fields), strict=True))
    row_tp = sum((true_rows & pred_rows).values())
    n = len(fields)
    return Score(
        precision=sum(a.precision for a in per.values()) / n,
        recall=sum(a.recall for a in per.values()) / n,
        f1=sum(a.f1 for a in per.values()) / n,
        per_attribute=per,
        row_precision=row_tp / len(predicted) if len(predicted) else (1.0 if not len(truth) else 0.0),
        row_recall=row_tp / len(truth) if len(truth) else 1.0,
        predicted_rows=len(predicted),
        expected_rows=len(truth),
        missing_fields=missing,
    )
