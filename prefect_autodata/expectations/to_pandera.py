"""CheckSpec -> pandera ``DataFrameSchema`` (saved as YAML under the workspace's ``schemas/``).

Native pandera forms are used where they exist (required columns, nullability, single-column
uniqueness, ``in_range``/``isin``); everything else, and the compound key and regex checks (which
reuse the key codes the engines share), is a check registered in
``custom.register_pandera`` so it survives ``to_yaml``/``from_yaml``. ``check_index`` maps each
pandera failure back to the CheckSpec check name; it depends only on the spec, so it also
explains failures of a schema reloaded from disk.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.custom import _plain
from prefect_autodata.expectations.results import CheckResult
from prefect_autodata.expectations.spec import (
    AllowedValuesCheck,
    CheckSpec,
    ColumnCheck,
    CompareCheck,
    CompletenessCheck,
    DriftCheck,
    FreshnessCheck,
    NotNullCheck,
    RangeCheck,
    RegexCheck,
    RowCountCheck,
    UniqueCheck,
    WeekdayCheck,
    row_count_bounds,
)
from prefect_autodata.workspace import Workspace


@dataclass
class _Col:
    checks: list[Any] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    nullable: bool = True
    nullable_name: str | None = None
    unique: bool = False
    unique_name: str | None = None
    required: bool = False
    required_name: str | None = None


@dataclass
class CheckIndex:
    """Which CheckSpec check a pandera failure belongs to."""

    column_checks: dict[tuple[str, int], str] = field(default_factory=dict)
    frame_checks: dict[int, str] = field(default_factory=dict)
    required: dict[str, str] = field(default_factory=dict)
    nullable: dict[str, str] = field(default_factory=dict)
    unique: dict[str, str] = field(default_factory=dict)
    compound_unique: str | None = None
    kinds: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (kind, severity)
    referenced: dict[str, list[str]] = field(default_factory=dict)  # column -> check names using it


def _iso(v: Any) -> Any:
    return v.isoformat() if isinstance(v, dt.date) else v


def compile_schema(spec: CheckSpec, *, previous: dict | None = None, columns: list[str] | None = None):
    """CheckSpec -> (pandera DataFrameSchema, CheckIndex). ``previous`` adds the drift checks."""
    import pandera.pandas as pa

    from prefect_autodata.expectations.custom import register_pandera

    register_pandera()
    cols: dict[str, _Col] = {}
    frame_checks: list[Any] = []
    idx = CheckIndex()

    def col(name: str, check_name: str) -> _Col:
        idx.referenced.setdefault(name, []).append(check_name)
        return cols.setdefault(name, _Col())

    def add(c: _Col, check: Any, name: str) -> None:
        c.checks.append(check)
        c.names.append(name)

    def frame(check: Any, name: str) -> None:
        idx.frame_checks[len(frame_checks)] = name
        frame_checks.append(check)

    for check in spec.checks:
        name = check.check_name
        idx.kinds[name] = (check.kind, check.severity)
        if isinstance(check, ColumnCheck):
            c = col(check.column, name)
            c.required = check.required
            c.required_name = name
            if check.dtype != "any":
                add(c, pa.Check.autodata_logical_type(dtype=check.dtype), name)
        elif isinstance(check, NotNullCheck):
            c = col(check.column, name)
            if check.max_null_fraction == 0:
                c.nullable, c.nullable_name = False, name
            else:
                # ignore_na=False: pandera would otherwise hand the check the column without its nulls
                add(
                    c,
                    pa.Check.autodata_null_fraction(max_fraction=check.max_null_fraction, ignore_na=False),
                    name,
                )
        elif isinstance(check, UniqueCheck):
            if len(check.columns) == 1:
                c = col(check.columns[0], name)
                c.unique, c.unique_name = True, name
            else:
                # a registered check rather than the schema's ``unique=``: it shares the key
                # columns' codes with completeness (and GE) instead of hashing them again
                idx.compound_unique = idx.compound_unique or name  # schemas saved with ``unique=``
                for k in check.columns:
                    col(k, name)
                frame(pa.Check.autodata_unique_key(columns=list(check.columns)), name)
        elif isinstance(check, RangeCheck):
            c = col(check.column, name)
            if isinstance(check.min, dt.date) or isinstance(check.max, dt.date):
                add(
                    c,
                    pa.Check.autodata_date_range(min_value=_iso(check.min), max_value=_iso(check.max)),
                    name,
                )
            elif check.min is not None and check.max is not None:
                add(c, pa.Check.in_range(check.min, check.max), name)
            elif check.min is not None:
                add(c, pa.Check.greater_than_or_equal_to(check.min), name)
            else:
                add(c, pa.Check.less_than_or_equal_to(check.max), name)
        elif isinstance(check, AllowedValuesCheck):
            add(col(check.column, name), pa.Check.isin(list(check.values)), name)
        elif isinstance(check, RegexCheck):
            # registered rather than ``str_matches``: the same ``str.match``, once per distinct value
            add(col(check.column, name), pa.Check.autodata_regex(pattern=check.pattern), name)
        elif isinstance(check, CompareCheck):
            col(check.left, name)
            col(check.right, name)
            # compare_ok already passes rows with a missing side; pandera's own null handling
            # (ignore_na) would add an isna() of the whole frame per compare check
            frame(
                pa.Check.autodata_compare(left=check.left, op=check.op, right=check.right, ignore_na=False),
                name,
            )
        elif isinstance(check, RowCountCheck):
            frame(pa.Check.autodata_row_count(min_value=check.min, max_value=check.max), name)
        elif isinstance(check, CompletenessCheck):
            keys = {k: d.model_dump(mode="json", exclude_defaults=True) for k, d in check.keys.items()}
            frame(pa.Check.autodata_completeness(keys=keys, min_fraction=check.min_fraction), name)
        elif isinstance(check, WeekdayCheck):
            add(col(check.column, name), pa.Check.autodata_weekday(), name)
        elif isinstance(check, FreshnessCheck):
            c = col(check.column, name)
            add(
                c, pa.Check.autodata_freshness(max_age_days=check.max_age_days, as_of=_iso(check.as_of)), name
            )
        elif isinstance(check, DriftCheck):
            _drift(check, previous, columns, cols, frame, idx, pa)
        else:  # pragma: no cover - the discriminated union makes this unreachable
            raise ConfigError(f"check {name!r}: kind {check.kind!r} has no pandera form")

    if spec.strict_columns:
        idx.kinds["columns:strict"] = ("column", "error")

    schema_cols = {}
    for name, c in cols.items():
        for i, n in enumerate(c.names):
            idx.column_checks[(name, i)] = n
        if c.required_name:
            idx.required[name] = c.required_name
        if c.nullable_name:
            idx.nullable[name] = c.nullable_name
        if c.unique_name:
            idx.unique[name] = c.unique_name
        required = c.required or (
            c.required_name is None and bool(c.nullable_name or c.unique_name or c.names)
        )
        schema_cols[name] = pa.Column(
            None, checks=c.checks, nullable=c.nullable, unique=c.unique, required=required, name=name
        )
    schema = pa.DataFrameSchema(
        schema_cols,
        checks=frame_checks,
        strict=spec.strict_columns,
        name=spec.name,
    )
    return schema, idx


def _drift(check: DriftCheck, previous, columns, cols, frame, idx: CheckIndex, pa) -> None:
    if not previous:
        return
    base = check.check_name
    prev_n = int(previous.get("row_count") or 0)
    if (check.max_row_count_change is not None or check.max_row_count_decrease is not None) and prev_n:
        lo, hi = row_count_bounds(check, prev_n)
        idx.kinds[f"{base}:row_count"] = ("drift", check.severity)
        frame(pa.Check.autodata_row_count(min_value=lo, max_value=hi), f"{base}:row_count")
    prev_cols = previous.get("columns") or {}
    if check.max_null_rate_increase is not None:
        for name, info in prev_cols.items():
            if columns is not None and name not in columns:
                continue
            allowed = min(1.0, float(info.get("null_rate") or 0.0) + check.max_null_rate_increase)
            if allowed >= 1.0:
                continue
            n = f"{base}:null_rate:{name}"
            idx.kinds[n] = ("drift", check.severity)
            c = cols.setdefault(name, _Col())
            c.checks.append(pa.Check.autodata_null_fraction(max_fraction=round(allowed, 6), ignore_na=False))
            c.names.append(n)
    if check.columns and prev_cols:
        n = f"{base}:columns"
        idx.kinds[n] = ("drift", check.severity)
        types = {c: info.get("type", "mixed") for c, info in prev_cols.items()}
        frame(pa.Check.autodata_schema_drift(previous_columns=types), n)


def save_schema(spec: CheckSpec, workspace: Workspace) -> Path:
    """Write ``<workspace>/schemas/<name>.pandera.yaml`` (atomically)."""
    schema, _ = compile_schema(spec)
    path = workspace.pandera_path(spec.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(schema.to_yaml(), encoding="utf-8")
    tmp.replace(path)
    return path


def load_schema(path: str | Path):
    """Read a pandera YAML schema back (our registered checks are registered first)."""
    import pandera.pandas as pa

    from prefect_autodata.expectations.custom import register_pandera

    register_pandera()
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"pandera schema {p} does not exist")
    try:
        return pa.DataFrameSchema.from_yaml(p)
    except Exception as exc:  # pandera raises several types for malformed YAML
        raise ConfigError(f"{p}: not a valid pandera schema: {exc}") from exc


# --------------------------------------------------------------------------- validation


def _mapped_name(row: dict, idx: CheckIndex) -> str:
    check = str(row.get("check"))
    column = row.get("column")
    number = row.get("check_number")
    if check == "column_in_dataframe":
        missing = str(row.get("failure_case"))
        return idx.required.get(missing) or (idx.referenced.get(missing) or [f"column:{missing}"])[0]
    if check == "column_in_schema":
        return "columns:strict"
    if check == "not_nullable" and column in idx.nullable:
        return idx.nullable[column]
    if check == "field_uniqueness" and column in idx.unique:
        return idx.unique[column]
    if check == "multiple_fields_uniqueness" and idx.compound_unique:
        return idx.compound_unique
    if number is not None and not pd.isna(number):
        if row.get("schema_context") == "DataFrameSchema" and int(number) in idx.frame_checks:
            return idx.frame_checks[int(number)]
        if (column, int(number)) in idx.column_checks:
            return idx.column_checks[(column, int(number))]
    return f"pandera:{check}"


def validate_pandera(
    frame: pd.DataFrame,
    spec: CheckSpec,
    *,
    previous: dict | None = None,
    columns: list[str] | None = None,
    schema=None,
) -> list[CheckResult]:
    """Validate with pandera (lazily, so every failure is collected) and normalise per CheckSpec check.

    ``schema`` lets a caller validate with a schema reloaded from YAML; the names still come from the spec.
    """
    import pandera.errors as pe

    compiled, idx = compile_schema(spec, previous=previous, columns=columns)
    schema = schema if schema is not None else compiled
    failures: dict[str, dict[str, Any]] = {}
    try:
        schema.validate(frame, lazy=True)
    except pe.SchemaErrors as exc:
        cases = exc.failure_cases
        for row in cases.to_dict("records"):
            name = _mapped_name(row, idx)
            f = failures.setdefault(name, {"rows": set(), "cases": [], "native": str(row.get("check"))})
            i = row.get("index")
            if i is not None and not pd.isna(i):
                f["rows"].add(int(i))
            if row.get("schema_context") != "DataFrameSchema" or row.get("index") is None:
                if len(f["cases"]) < 5 and row.get("failure_case") not in f["cases"]:
                    f["cases"].append(row.get("failure_case"))
    except pe.SchemaError as exc:  # non-lazy errors (e.g. a failing dataframe-wide precondition)
        failures["pandera:schema"] = {"rows": set(), "cases": [str(exc)[:200]], "native": "schema"}

    out: list[CheckResult] = []
    names = list(idx.kinds) + [n for n in failures if n not in idx.kinds]
    for name in names:
        kind, severity = idx.kinds.get(name, ("unknown", "error"))
        f = failures.get(name)
        if f is None:
            out.append(CheckResult(check=name, kind=kind, engine="pandera", passed=True, severity=severity))
            continue
        rows = sorted(f["rows"])
        observed: Any = [_plain(x) for x in f["cases"]] or None
        if rows and not f["cases"]:
            observed = {"failing_rows": len(rows), "example_rows": rows[:5]}
        out.append(
            CheckResult(
                check=name,
                kind=kind,
                engine="pandera",
                passed=False,
                severity=severity,
                observed=observed,
                failing_rows=len(rows),
                failing_index=rows,
                native=f["native"],
                message=f"pandera {f['native']} failed" + (f" on {len(rows)} rows" if rows else ""),
            )
        )
    return out
