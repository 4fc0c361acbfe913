"""Normalize: raw records -> typed frame. The one place a record becomes a row that can land.

``normalize(spec, collected)`` does, in order: gather the emitting sources' records into one untyped
frame (``raw_frame``), apply the spec's ``python`` step (when declared), then cast every column to its
declared type (``to_frame``; rows with an uncastable value or an empty key are rejected with a reason,
never coerced). The real run and the dry run both call it, so the test agent checks exactly the frame
production lands. Extraction (runner/extract) never types; landing (landing/load) never casts.
"""

from __future__ import annotations

import re
import threading
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
    if normalized.fetched and frame.good.empty and frame.n_rejected:
        reason = frame.rejected[ERROR].iloc[0]
        raise NoRecordsError(
            f"all {frame.n_rejected} fetched row(s) were rejected (e.g. {reason}); refusing to report an empty success"
        )


@dataclass
class Frame:
    """Typed rows ready to land, plus the rows that were rejected and why."""

    good: pd.DataFrame  # or a ``load.Stage`` holding them (a streamed run)
    rejected: pd.DataFrame  # the rejected rows (a streamed run keeps the first ones; all are counted)
    issues: list[Issue]
    rejected_total: int | None = None  # a streamed run: how many were rejected (None: len(rejected))

    @property
    def n_rejected(self) -> int:
        return len(self.rejected) if self.rejected_total is None else self.rejected_total


def raw_frame(spec: CollectorSpec, collected: Collected) -> pd.DataFrame:
    """All emitting sources' rows as one untyped DataFrame (columns: output columns + lineage + _error)."""
    parts: list[pd.DataFrame | list[dict]] = []
    for s in spec.sources:
        if not s.emit:
            continue
        o = collected.outputs.get(s.name)
        if o is None:
            continue
        parts.extend(o.frames)
        if o.rows:
            parts.append(o.rows)
    return raw_from_parts(spec, parts)


def raw_columns(spec: CollectorSpec) -> list[str]:
    return [*(c.name for c in spec.output_columns()), LINEAGE_URL, LINEAGE_AT, ERROR]


def raw_from_parts(spec: CollectorSpec, parts: list[pd.DataFrame | list[dict]]) -> pd.DataFrame:
    """Pages (frames of the columnar path, lists of record dicts) as one untyped frame, in the given order."""
    cols = raw_columns(spec)
    frames = [p if isinstance(p, pd.DataFrame) else pd.DataFrame.from_records(p) for p in parts if len(p)]
    if not frames:
        return pd.DataFrame(columns=cols)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0].reset_index(drop=True)
    for c in cols:
        if c not in df.columns:
            df[c] = None
    return df[cols]


def to_frame(spec: CollectorSpec, raw: pd.DataFrame) -> Frame:
    """Cast each column to its declared type; rows with an uncastable value or a null key are rejected."""
    frame, bad, _ = _typed(spec, raw)
    frame.issues.extend(type_issues(spec, bad, len(raw)))
    return frame


def type_issues(spec: CollectorSpec, bad: dict[str, tuple[int, Any]], rows: int) -> list[Issue]:
    """``type_mismatch`` issues from per-column (uncastable count, first such value) over ``rows`` rows."""
    out = []
    for col in spec.output_columns():
        if col.name not in bad:
            continue
        n, sample = bad[col.name]
        msg = f"column {col.name!r}: {n} value(s) are not {col.type} (e.g. {sample!r})"
        out.append(
            Issue(kind="type_mismatch", source="*", field=col.name, message=msg, ratio=float(n / rows))
        )
    return out


def _typed(spec: CollectorSpec, raw: pd.DataFrame) -> tuple[Frame, dict[str, tuple[int, Any]], Any]:
    """The typed frame (no issues yet); per column, how many values could not be cast and the first one;
    the mask of the raw rows kept as good."""
    bad_by_col: dict[str, tuple[int, Any]] = {}
    df = raw.copy()
    reasons = pd.Series(df[ERROR].where(df[ERROR].notna(), None), index=df.index, dtype=object)
    for col in spec.output_columns():
        casted, bad = cast_column(df[col.name], col)
        df[col.name] = casted
        if bad.any():
            sample = raw.loc[bad, col.name].iloc[0]
            msg = f"column {col.name!r}: {int(bad.sum())} value(s) are not {col.type} (e.g. {sample!r})"
            reasons = reasons.where(~bad | reasons.notna(), msg)
            bad_by_col[col.name] = (int(bad.sum()), sample)
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
    return Frame(good, rejected.reset_index(drop=True), []), bad_by_col, ~bad_rows.to_numpy()


#: rows a streamed run types at a time (bounds its memory; the result does not depend on it)
STREAM_BATCH_ROWS = 50_000


class StreamNormalizer:
    """Normalize records as pages arrive: ``add`` buffers a page, every ``batch_rows`` rows the buffer is
    typed (``to_frame``'s casts, batch by batch) and handed to ``sink.append(good, parts)`` with each
    row's page position (``sink`` is a ``load.Stage``).

    For specs without a ``python`` step (a step sees the whole record set, so such a run normalizes
    once, as the dry run does). ``finish`` returns what ``normalize`` would: the issues over all rows
    (counts and ratios of the whole run), the rejected rows (the first ``keep_rejected`` kept, all
    counted) and the number of rows fetched. Thread-safe: pages may arrive from fetch threads.
    """

    def __init__(
        self,
        spec: CollectorSpec,
        sink: Any,
        *,
        batch_rows: int | None = None,
        keep_rejected: int = 1_000,
    ) -> None:
        self.spec, self.sink = spec, sink
        self.batch_rows, self.keep_rejected = batch_rows or STREAM_BATCH_ROWS, keep_rejected
        self.fetched = 0
        self.rejected_rows = 0
        self._rejected: list[pd.DataFrame] = []
        self._bad: dict[str, tuple[int, Any]] = {}
        self._buffer: list[tuple[int, pd.DataFrame | list[dict]]] = []
        self._buffered = 0
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()

    def add(self, part: int, page: pd.DataFrame | list[dict]) -> None:
        """One page of raw records (a frame or record dicts); ``part`` orders pages as the requests do."""
        if not len(page):
            return
        with self._lock:
            self._buffer.append((part, page))
            self._buffered += len(page)
            full = self._buffered >= self.batch_rows
        if full:
            self.flush()

    def flush(self) -> None:
        """Type and hand on everything buffered, ``batch_rows`` (plus at most one page) at a time.

        Fetch threads keep adding pages while one flush runs; taking the whole buffer at once would let a
        batch grow with the number of threads, so the buffer is drained in bounded batches.
        """
        with self._flush_lock:
            while True:
                with self._lock:
                    pages, n = [], 0
                    while self._buffer and n < self.batch_rows:
                        part, page = self._buffer.pop(0)
                        pages.append((part, page))
                        n += len(page)
                    self._buffered -= n
                if not pages:
                    return
                self._flush_pages(pages)

    def _flush_pages(self, pages: list[tuple[int, pd.DataFrame | list[dict]]]) -> None:
        raw = raw_from_parts(self.spec, [p for _, p in pages])
        parts = pd.Series([part for part, p in pages for _ in range(len(p))], dtype="int64")
        frame, bad, kept = _typed(self.spec, raw)
        self.fetched += len(raw)
        for c, (n, sample) in bad.items():
            had = self._bad.get(c)
            self._bad[c] = (n + had[0], had[1]) if had else (n, sample)
        if len(frame.rejected):
            self.rejected_rows += len(frame.rejected)
            room = self.keep_rejected - sum(len(r) for r in self._rejected)
            if room > 0:
                self._rejected.append(frame.rejected.head(room))
        if len(frame.good):
            good_parts = parts[kept].reset_index(drop=True)
            self.sink.append(frame.good, good_parts)

    def tally(self) -> dict[str, Any]:
        """What this normalizer counted, for a writer to ``absorb`` (a fan-out worker's partition): rows
        fetched and rejected, the first rejected rows, per column the values that failed their cast."""
        self.flush()
        rejected = pd.concat(self._rejected, ignore_index=True) if self._rejected else None
        return {
            "fetched": self.fetched,
            "rejected": self.rejected_rows,
            "rejected_head": rejected,
            "bad": self._bad,
        }

    def absorb(self, tally: dict[str, Any]) -> None:
        """Add a partition's ``tally`` (its rows went to the sink apart: ``Stage.append_parquet``), so
        ``finish`` reports the issues and rejected rows of the whole run, as one process would."""
        with self._lock:
            self.fetched += tally["fetched"]
            self.rejected_rows += tally["rejected"]
            for c, (n, sample) in tally["bad"].items():
                had = self._bad.get(c)
                self._bad[c] = (n + had[0], had[1]) if had else (n, sample)
            head = tally.get("rejected_head")
            room = self.keep_rejected - sum(len(r) for r in self._rejected)
            if head is not None and len(head) and room > 0:
                self._rejected.append(head.head(room))

    def finish(self) -> Normalized:
        """Flush the rest: the frame (``good`` is the sink), as ``normalize`` returns it; ``raw`` is not kept."""
        self.flush()
        cols = raw_columns(self.spec)
        rejected = (
            pd.concat(self._rejected, ignore_index=True) if self._rejected else pd.DataFrame(columns=cols)
        )
        issues = type_issues(self.spec, self._bad, self.fetched) if self.fetched else []
        frame = Frame(self.sink, rejected, issues, rejected_total=self.rejected_rows)
        return Normalized(frame, pd.DataFrame(columns=cols), self.fetched)


def _required_fields(spec: CollectorSpec) -> list[str]:
    out = []
    for s in spec.sources:
        if s.emit:
            out += [f.name for f in [*s.fields, *(s.detail.fields if s.detail else [])] if f.required]
    return list(dict.fromkeys(out))


def _present(s: pd.Series) -> pd.Series:
    if isinstance(s.dtype, pd.StringDtype):  # every value a str: vectorized (no Python call per value)
        return s.notna() & (s.str.strip() != "")
    return s.notna() & ~s.map(lambda v: isinstance(v, str) and v.strip() == "")


def cast_column(s: pd.Series, col: ColumnSpec) -> tuple[pd.Series, pd.Series]:
    """(typed series, mask of values that were present but could not be cast)."""
    t = col.type
    textual = s.dtype == object or pd.api.types.is_string_dtype(s.dtype)  # pandas 3 infers "str"
    present = _present(s) if textual else s.notna()
    if t == "string":
        if isinstance(s.dtype, pd.StringDtype):  # already strings: ``_to_str`` would return each unchanged
            return s.astype(object).where(s.notna(), None), pd.Series(False, index=s.index)
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
            if isinstance(s.dtype, pd.StringDtype):  # ``_iso`` of a str is the str stripped
                iso = vals.str.strip()
            else:
                iso = vals.map(_iso, na_action="ignore")
            ts = pd.to_datetime(iso, utc=True, errors="coerce", format="ISO8601")
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


# -- durations ----------------------------------------------------------------------------------------

_ISO_DURATION = re.compile(
    r"^P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?$",
    re.I,
)
# Minutes per unit word, as pages write durations ("1 hour 20 minutes", "1h 20m", "80 min", "2 Std.").
_DURATION_UNITS = {
    **dict.fromkeys("d day days tag tage dia dias jour jours".split(), 1440.0),
    **dict.fromkeys("h hr hrs hour hours std stunde stunden hora horas heure heures ora ore".split(), 60.0),
    **dict.fromkeys("m min mins minute minutes minuten minuto minutos minuti".split(), 1.0),
    **dict.fromkeys("s sec secs second seconds sek sekunden segundos secondes".split(), 1 / 60),
}
_DURATION_PART = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\W\d_]+)\.?")
_DURATION_GLUE = re.compile(r"^(?:[\s,+]|and|und|y|et|e)*$", re.I)


def duration_minutes(v: Any) -> int | float:
    """A duration as minutes: ISO 8601 (``"PT1H20M"`` → 80) or worded (``"1 hour 20 minutes"``, ``"1h 20m"``,
    ``"80 min"``). A bare number, a clock time or any other text is an error (its unit is unknown)."""
    s = " ".join(str(v).split())
    total = 0.0
    iso = _ISO_DURATION.match(s)
    if iso and s.upper() not in ("P", "PT") and any(iso.groupdict().values()):
        per = {"d": 1440.0, "h": 60.0, "m": 1.0, "s": 1 / 60}
        total = sum(float(x) * per[k] for k, x in iso.groupdict().items() if x)
    else:
        pos, parts = 0, 0
        for m in _DURATION_PART.finditer(s):
            unit = _DURATION_UNITS.get(m.group(2).lower())
            if unit is None or not _DURATION_GLUE.match(s[pos : m.start()]):
                raise ValueError(f"{v!r} is not a duration")
            total += float(m.group(1).replace(",", ".")) * unit
            pos, parts = m.end(), parts + 1
        if not parts or not _DURATION_GLUE.match(s[pos:]):
            raise ValueError(f"{v!r} is not a duration")
    total = round(total, 4)
    return int(total) if total.is_integer() else total
