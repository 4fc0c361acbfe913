"""Normalize: raw records -> typed frame. The one place a record becomes a row that can land.

``normalize(spec, collected)`` does, in order: gather the emitting sources' records into one untyped
frame (``raw_frame``), apply the spec's ``python`` step (when declared), then cast every column to its
declared type (``to_frame``; rows with an uncastable value or an empty key are rejected with a reason,
never coerced). The real run and the dry run both call it, so the test agent checks exactly the frame
production lands. Extraction (runner/extract) never types; landing (landing/load) never casts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

import pandas as pd

from prefect_autodata.errors import NoRecordsError
from prefect_autodata.runtime.columns import (
    DUCKDB_TYPES,  # noqa: F401 - re-exported
    ERROR,
)
from prefect_autodata.runtime.columns import FETCHED_AT as LINEAGE_AT
from prefect_autodata.runtime.columns import SOURCE_URL as LINEAGE_URL
from prefect_autodata.runtime.issues import Issue
from prefect_autodata.runtime.spec import CollectorSpec, ColumnSpec

if TYPE_CHECKING:
    from prefect_autodata.runtime.runner import Collected


@dataclass
class Normalized:
    """What normalize produced: the typed frame, the untyped rows it was cast from, rows fetched."""

    frame: Frame
    raw: pd.DataFrame  # after the python step, before casting (fill rates are measured on it)
    fetched: int  # rows the sources produced, before the python step


def normalize(spec: CollectorSpec, collected: Collected) -> Normalized:
    """Raw records -> python step (if any) -> typed frame. Raises TerminalError if the python step fails."""
    raw = raw_frame(spec, collected)
    fetched = len(raw)
    raw = apply_python_step(spec, raw)
    return Normalized(to_frame(spec, raw), raw, fetched)


def apply_python_step(spec: CollectorSpec, raw: pd.DataFrame) -> pd.DataFrame:
    """The spec's sandboxed ``python`` step on the raw records (no-op without one); keeps the frame's columns."""
    if spec.python is None:
        return raw
    from prefect_autodata.runtime.pytransform import run_python_step

    columns = list(raw.columns)
    records = raw.astype(object).where(raw.notna(), None).to_dict("records")
    rows = run_python_step(spec.python, records)
    out = pd.DataFrame.from_records(rows) if rows else raw.iloc[0:0]
    for c in columns:
        if c not in out.columns:
            out[c] = None
    return out


def require_rows(normalized: Normalized) -> None:
    """A run whose every fetched row was rejected is a failure, never an empty success."""
    frame = normalized.frame
    if normalized.fetched and frame.good.empty and len(frame.rejected):
        reason = frame.rejected[ERROR].iloc[0]
        raise NoRecordsError(
            f"all {len(frame.rejected)} fetched row(s) were rejected (e.g. {reason}); refusing to report an empty success"
        )


@dataclass
class Frame:
    """Typed rows ready to land, plus the rows that were rejected and why."""

    good: pd.DataFrame
    rejected: pd.DataFrame
    issues: list[Issue]


def raw_frame(spec: CollectorSpec, collected: Collected) -> pd.DataFrame:
    """All emitting sources' rows as one untyped DataFrame (columns: output columns + lineage + _error)."""
    cols = [c.name for c in spec.output_columns()]
    parts = []
    for s in spec.sources:
        if not s.emit:
            continue
        o = collected.outputs.get(s.name)
        if o is None:
            continue
        parts.extend(o.frames)
        if o.rows:
            parts.append(pd.DataFrame.from_records(o.rows))
    if not parts:
        return pd.DataFrame(columns=[*cols, LINEAGE_URL, LINEAGE_AT, ERROR])
    df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].reset_index(drop=True)
    for c in [*cols, LINEAGE_URL, LINEAGE_AT, ERROR]:
        if c not in df.columns:
            df[c] = None
    return df[[*cols, LINEAGE_URL, LINEAGE_AT, ERROR]]


def to_frame(spec: CollectorSpec, raw: pd.DataFrame) -> Frame:
    """Cast each column to its declared type; rows with an uncastable value or a null key are rejected."""
    issues: list[Issue] = []
    df = raw.copy()
    reasons = pd.Series(df[ERROR].where(df[ERROR].notna(), None), index=df.index, dtype=object)
    for col in spec.output_columns():
        casted, bad = cast_column(df[col.name], col)
        df[col.name] = casted
        if bad.any():
            sample = raw.loc[bad, col.name].iloc[0]
            msg = f"column {col.name!r}: {int(bad.sum())} value(s) are not {col.type} (e.g. {sample!r})"
            reasons = reasons.where(~bad | reasons.notna(), msg)
            issues.append(
                Issue(kind="type_mismatch", source="*", field=col.name, message=msg, ratio=float(bad.mean()))
            )
    for rule in _required_fields(spec):
        missing = df[rule].isna()
        reasons = reasons.where(~missing | reasons.notna(), f"required field {rule!r} is empty")
    for k in spec.primary_key:
        missing = df[k].isna()
        reasons = reasons.where(~missing | reasons.notna(), f"primary key {k!r} is empty")
    bad_rows = reasons.notna()
    lineage_at = pd.to_datetime(df[LINEAGE_AT], utc=True)
    df[LINEAGE_AT] = lineage_at
    good = df.loc[~bad_rows].drop(columns=[ERROR]).reset_index(drop=True)
    rejected = df.loc[bad_rows].copy()
    rejected[ERROR] = reasons[bad_rows]
    return Frame(good, rejected.reset_index(drop=True), issues)


def _required_fields(spec: CollectorSpec) -> list[str]:
    out = []
    for s in spec.sources:
        if s.emit:
            out += [f.name for f in [*s.fields, *(s.detail.fields if s.detail else [])] if f.required]
    return list(dict.fromkeys(out))


def _present(s: pd.Series) -> pd.Series:
    return s.notna() & ~s.map(lambda v: isinstance(v, str) and v.strip() == "")


def cast_column(s: pd.Series, col: ColumnSpec) -> tuple[pd.Series, pd.Series]:
    """(typed series, mask of values that were present but could not be cast)."""
    t = col.type
    textual = s.dtype == object or pd.api.types.is_string_dtype(s.dtype)  # pandas 3 infers "str"
    present = _present(s) if textual else s.notna()
    if t == "string":
        out = s.map(_to_str, na_action="ignore").astype(object)
        out = out.where(s.notna(), None)
        return out, pd.Series(False, index=s.index)
    if t in ("integer", "float"):
        if textual:
            cleaned = s.map(lambda v: str(v).replace(",", "").strip() if isinstance(v, str) else v)
            num = pd.to_numeric(cleaned.where(present), errors="coerce")
        else:
            num = pd.to_numeric(s, errors="coerce")
        bad = present & num.isna()
        if t == "integer":
            frac = num.notna() & (num % 1 != 0)
            bad = bad | frac
            num = num.where(~frac)
            return num.astype("Int64"), bad
        return num.astype("Float64"), bad
    if t == "boolean":
        m = {
            "true": True,
            "false": False,
            "yes": True,
            "no": False,
            "1": True,
            "0": False,
            "t": True,
            "f": False,
        }
        out = s.map(lambda v: v if isinstance(v, bool) else m.get(str(v).strip().lower()), na_action="ignore")
        bad = present & out.isna()
        return out.astype("boolean"), bad
    if t in ("date", "timestamp"):
        if pd.api.types.is_datetime64_any_dtype(s):
            ts = pd.to_datetime(s, utc=True)
        else:
            vals = s.where(present)
            ts = pd.to_datetime(
                vals.map(_iso, na_action="ignore"), utc=True, errors="coerce", format="ISO8601"
            )
            left = present & ts.isna()
            if left.any():  # non-ISO strings: slower dateutil parse, row by row
                ts.loc[left] = pd.to_datetime(vals[left].map(_loose_date), utc=True, errors="coerce")
        bad = present & ts.isna()
        if t == "date":
            return ts.dt.tz_convert(None).dt.normalize(), bad  # datetime64; landing stores it as DATE
        return ts, bad
    if t == "json":
        import json

        out = s.map(lambda v: json.dumps(v, default=str), na_action="ignore")
        return out.where(s.notna(), None), pd.Series(False, index=s.index)
    raise ValueError(t)


def _to_str(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _iso(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.isoformat()
    if isinstance(v, date):
        return v.isoformat()
    return str(v).strip()


def _loose_date(v: Any) -> Any:
    from dateutil import parser

    try:
        return parser.parse(str(v))
    except (ValueError, OverflowError):
        return None
