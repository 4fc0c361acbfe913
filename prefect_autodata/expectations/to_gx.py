"""CheckSpec -> Great Expectations 1.x ExpectationSuite (JSON under the workspace's ``expectations/``).

Compilation is a pure function producing the suite's JSON form, so it needs no GE import and no
context; ``load_suite`` turns it into a real ``ExpectationSuite``. Every expectation carries
``meta.autodata_check`` so results map back to the CheckSpec check that asked for them. Checks
with no native expectation use our custom expectations (``custom.register_gx``), never dropped.
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from prefect_autodata.errors import ConfigError
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

#: expectation types that evaluate row by row (GE can name the failing rows)
ROW_LEVEL_TYPES = frozenset(
    {
        "expect_column_values_to_not_be_null",
        "expect_column_values_to_be_unique",
        "expect_compound_columns_to_be_unique",
        "expect_column_values_to_be_between",
        "expect_column_values_to_be_in_set",
        "expect_column_values_to_match_regex",
        "expect_column_pair_values_a_to_be_greater_than_b",
        "expect_column_pair_values_to_be_equal",
        "expect_column_values_to_be_weekdays",
        "expect_column_values_to_be_between_dates",
    }
)


#: meta key of an expectation whose answer validate_gx splits into one result per column (the
#: value is the check-name prefix; the observed value lists the columns)
PER_COLUMN = "autodata_per_column"


def _jsonable(v: Any) -> Any:
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def _exp(type_: str, check, kw: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    return {
        "type": type_,
        "kwargs": {k: _jsonable(v) for k, v in kw.items() if v is not None},
        "meta": {"autodata_check": name or check.check_name, "kind": check.kind, "severity": check.severity},
    }


def expectations_for(
    check, spec: CheckSpec, previous: dict | None = None, columns: list[str] | None = None
) -> list[dict]:
    """The GE expectation configurations (JSON form) one check compiles to."""
    if isinstance(check, ColumnCheck):
        out = []
        if check.required and check.dtype == "any":
            # the logical-type expectation already fails a missing column ("missing column"); one
            # expectation instead of two halves GE's per-expectation cost for typed columns
            out.append(_exp("expect_column_to_exist", check, {"column": check.column}))
        if check.dtype != "any":
            out.append(
                _exp(
                    "expect_column_to_have_logical_type",
                    check,
                    {
                        "column": check.column,
                        "dtype": check.dtype,
                        "required": None if check.required else False,
                    },
                )
            )
        return out
    if isinstance(check, NotNullCheck):
        mostly = 1.0 - check.max_null_fraction
        return [
            _exp(
                "expect_column_values_to_not_be_null",
                check,
                {"column": check.column, "mostly": mostly if mostly < 1.0 else None},
            )
        ]
    if isinstance(check, UniqueCheck):
        if len(check.columns) == 1:
            return [_exp("expect_column_values_to_be_unique", check, {"column": check.columns[0]})]
        return [_exp("expect_compound_columns_to_be_unique", check, {"column_list": list(check.columns)})]
    if isinstance(check, RangeCheck):
        if isinstance(check.min, dt.date) or isinstance(check.max, dt.date):
            return [
                _exp(
                    "expect_column_values_to_be_between_dates",
                    check,
                    {"column": check.column, "min_value": check.min, "max_value": check.max},
                )
            ]
        return [
            _exp(
                "expect_column_values_to_be_between",
                check,
                {"column": check.column, "min_value": check.min, "max_value": check.max},
            )
        ]
    if isinstance(check, AllowedValuesCheck):
        return [
            _exp(
                "expect_column_values_to_be_in_set",
                check,
                {"column": check.column, "value_set": check.values},
            )
        ]
    if isinstance(check, RegexCheck):
        return [
            _exp(
                "expect_column_values_to_match_regex", check, {"column": check.column, "regex": check.pattern}
            )
        ]
    if isinstance(check, CompareCheck):
        if check.op == "==":
            kw = {"column_A": check.left, "column_B": check.right, "ignore_row_if": "either_value_is_missing"}
            return [_exp("expect_column_pair_values_to_be_equal", check, kw)]
        a, b = (check.left, check.right) if check.op in (">=", ">") else (check.right, check.left)
        kw = {
            "column_A": a,
            "column_B": b,
            "or_equal": check.op in (">=", "<="),
            "ignore_row_if": "either_value_is_missing",
        }
        return [_exp("expect_column_pair_values_a_to_be_greater_than_b", check, kw)]
    if isinstance(check, RowCountCheck):
        return [
            _exp(
                "expect_table_row_count_to_be_between",
                check,
                {"min_value": check.min, "max_value": check.max},
            )
        ]
    if isinstance(check, CompletenessCheck):
        keys = {k: d.model_dump(mode="json", exclude_defaults=True) for k, d in check.keys.items()}
        return [
            _exp(
                "expect_table_keys_to_be_complete", check, {"keys": keys, "min_fraction": check.min_fraction}
            )
        ]
    if isinstance(check, WeekdayCheck):
        return [_exp("expect_column_values_to_be_weekdays", check, {"column": check.column})]
    if isinstance(check, FreshnessCheck):
        kw = {"column": check.column, "max_age_days": check.max_age_days, "as_of": check.as_of}
        return [_exp("expect_column_max_to_be_fresh", check, kw)]
    if isinstance(check, DriftCheck):
        return _drift(check, previous, columns)
    raise ConfigError(f"check {check.check_name!r}: kind {check.kind!r} has no Great Expectations form")


def _drift(check: DriftCheck, previous: dict | None, columns: list[str] | None) -> list[dict]:
    """Drift needs the previous run's profile; the first run has nothing to compare with."""
    if not previous:
        return []
    out = []
    base = check.check_name
    prev_n = int(previous.get("row_count") or 0)
    if (check.max_row_count_change is not None or check.max_row_count_decrease is not None) and prev_n:
        lo, hi = row_count_bounds(check, prev_n)
        out.append(
            _exp(
                "expect_table_row_count_to_be_between",
                check,
                {"min_value": lo, "max_value": hi},
                f"{base}:row_count",
            )
        )
    prev_cols = previous.get("columns") or {}
    if check.max_null_rate_increase is not None:
        bounds = {}
        for col, info in prev_cols.items():
            if columns is not None and col not in columns:
                continue  # reported once by drift:columns instead
            allowed = min(1.0, float(info.get("null_rate") or 0.0) + check.max_null_rate_increase)
            if allowed < 1.0:
                bounds[col] = round(allowed, 6)
        if bounds:
            # one expectation for all columns (GE's fixed cost is per expectation); validate_gx
            # splits its answer into one result per column, named as pandera names them
            exp = _exp(
                "expect_table_null_rates_to_stay_within",
                check,
                {"max_null_rates": bounds},
                f"{base}:null_rate",
            )
            exp["meta"][PER_COLUMN] = f"{base}:null_rate:"
            out.append(exp)
    if check.columns and prev_cols:
        types = {c: info.get("type", "mixed") for c, info in prev_cols.items()}
        out.append(
            _exp(
                "expect_table_schema_to_match_previous", check, {"previous_columns": types}, f"{base}:columns"
            )
        )
    return out


def compile_suite(
    spec: CheckSpec, *, previous: dict | None = None, columns: list[str] | None = None
) -> dict[str, Any]:
    """CheckSpec -> the JSON form of a GE 1.x ExpectationSuite named after the collector."""
    expectations: list[dict] = []
    if spec.strict_columns:
        declared = list(spec.columns())
        expectations.append(
            {
                "type": "expect_table_columns_to_match_set",
                "kwargs": {"column_set": declared, "exact_match": True},
                "meta": {"autodata_check": "columns:strict", "kind": "column", "severity": "error"},
            }
        )
    for check in spec.checks:
        expectations.extend(expectations_for(check, spec, previous, columns))
    return {
        "name": spec.name,
        "expectations": expectations,
        "meta": {"autodata_checkspec_version": spec.version, "policy": spec.policy},
        "notes": None,
    }


def save_suite(spec: CheckSpec, workspace: Workspace, *, previous: dict | None = None) -> Path:
    """Write the suite JSON to ``<workspace>/expectations/<name>.json`` (atomically)."""
    path = workspace.suite_path(spec.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(compile_suite(spec, previous=previous), indent=2), encoding="utf-8")
    tmp.replace(path)
    return path


def suite_from_json(data: dict[str, Any]):
    """The JSON form -> a real ``great_expectations.ExpectationSuite`` (custom expectations registered)."""
    import great_expectations as gx
    from great_expectations.expectations.expectation_configuration import ExpectationConfiguration

    from prefect_autodata.expectations.custom import register_gx

    register_gx()
    gx_context()  # GE needs an active project to build suites
    expectations = []
    for e in data["expectations"]:
        try:
            cfg = ExpectationConfiguration(type=e["type"], kwargs=e["kwargs"], meta=e.get("meta") or {})
            expectations.append(cfg.to_domain_obj())
        except Exception as exc:  # GE raises many types for bad kwargs; name the expectation
            raise ConfigError(
                f"suite {data['name']!r}: expectation {e.get('type')!r} is invalid: {exc}"
            ) from exc
    return gx.ExpectationSuite(name=data["name"], expectations=expectations, meta=data.get("meta") or {})


def load_suite(path: str | Path):
    """Read a suite JSON file written by ``save_suite`` (or edited by hand) back into GE."""
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"expectation suite {p} does not exist")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{p}: not valid JSON: {exc}") from exc
    return suite_from_json(data)


# --------------------------------------------------------------------------- validation

_gx_lock = threading.Lock()


@cache
def gx_context():
    """One ephemeral GE context per process: building one is cheap, importing GE (~7 s) is not."""
    import logging

    import great_expectations as gx
    from great_expectations.execution_engine import pandas_execution_engine

    from prefect_autodata.expectations.custom import register_gx

    register_gx()
    # GE fingerprints every in-memory batch under 1 GB by hashing all of it (seconds on millions of
    # rows) only to label the batch; our run id labels it instead
    pandas_execution_engine.HASH_THRESHOLD = 0
    # quiet before the context exists: it logs an INFO line ("Created temporary directory ...") on
    # whatever handler the host process installed (Prefect's console handler, in a flow run)
    # (some GE modules pin their own logger to INFO, so the package level alone is not enough)
    for name in [n for n in logging.root.manager.loggerDict if n.startswith("great_expectations")]:
        if logging.getLogger(name).level and logging.getLogger(name).level < logging.ERROR:
            logging.getLogger(name).setLevel(logging.ERROR)
    logging.getLogger("great_expectations").setLevel(logging.ERROR)
    ctx = gx.get_context(mode="ephemeral")
    try:
        ctx.variables.progress_bars = {"globally": False, "metric_calculations": False}
    except Exception:  # older/newer GE without this variable: progress bars only cost log noise
        pass
    # GE's import leaves ~300k long-lived objects (modules, registries, pydantic models) that the
    # cyclic garbage collector would rescan in every full collection: ~0.2 s each, and validating
    # a large batch allocates enough to trigger one every few runs. They live as long as the
    # process, so move them (and whatever is alive now) out of the collector's generations; only
    # cyclic garbage among them would be kept, refcounting still frees everything else.
    gc.collect()
    gc.freeze()
    return ctx


#: first pass: counts and up to 20 example values per expectation (what Data Docs shows). BASIC,
#: not SUMMARY: SUMMARY adds the unexpected-index list and index query, and GE's pandas engine builds
#: both by copying the whole batch (every column) once more per row-level expectation (~40% of GE's
#: time on a clean 1.2M-row batch). Failing rows come from the second pass instead.
FIRST_PASS_FORMAT = {
    "result_format": "BASIC",
    "partial_unexpected_count": 20,
    "include_unexpected_rows": False,
}
#: second pass, only for row-level expectations that failed: every failing row (quarantine needs them)
COMPLETE_FORMAT = {"result_format": "COMPLETE", "include_unexpected_rows": False}

_batch_definitions: dict[str, Any] = {}


def _batch_definition(asset: str):
    """The whole-dataframe batch definition of one asset, created once per process (GE setup is slow)."""
    bd = _batch_definitions.get(asset)
    if bd is None:
        ctx = gx_context()
        try:
            ds = ctx.data_sources.get("autodata")
        except (KeyError, LookupError, ValueError):
            ds = ctx.data_sources.add_pandas("autodata")
        try:
            a = ds.get_asset(asset)
        except LookupError:
            a = ds.add_dataframe_asset(asset)
        try:
            bd = a.get_batch_definition("whole")
        except (LookupError, KeyError):
            bd = a.add_batch_definition_whole_dataframe("whole")
        _batch_definitions[asset] = bd
    return bd


@contextmanager
def built_once_configurations() -> Iterator[None]:
    """While a suite validates, build each expectation's configuration once instead of on every read.

    GE 1.x recomputes ``Expectation.configuration`` (pydantic ``dict()`` + a new
    ``ExpectationConfiguration``) on each access, and its validator reads it ~80 times per
    expectation while building the metric graph: ~10 ms per expectation whatever the batch size.
    Nothing modifies an expectation during validation (GE deep-copies before it adds the batch id),
    so the first build is reused. Entries hold their expectation, so an id is never reused while
    the cache lives; the original property is back when the block exits. Same results either way
    (tested); a GE without that property validates uncached.
    """
    from great_expectations.expectations.expectation import Expectation

    original = Expectation.__dict__.get("configuration")
    if not isinstance(original, property) or original.fget is None:
        yield
        return
    build = original.fget
    memo: dict[int, tuple[Any, Any]] = {}

    def configuration(self):
        hit = memo.get(id(self))
        if hit is None or hit[0] is not self:
            hit = memo[id(self)] = (self, build(self))
        return hit[1]

    Expectation.configuration = property(configuration, doc=original.__doc__)
    try:
        yield
    finally:
        Expectation.configuration = original


def run_suite(frame: pd.DataFrame, suite, *, asset: str = "batch", result_format: dict | None = None):
    """Validate a pandas frame with a GE suite through the shared context; returns GE's validation result.

    ``result_format`` defaults to COMPLETE (every failing row index).
    """
    with _gx_lock:
        batch = _batch_definition(asset).get_batch(batch_parameters={"dataframe": frame})
        with built_once_configurations(), domain_records_once():
            return batch.validate(suite, result_format=result_format or COMPLETE_FORMAT)


@contextmanager
def domain_records_once() -> Iterator[None]:
    """While a suite validates, compute each distinct metric domain of the batch once.

    GE's pandas engine asks ``get_domain_records`` for the same domain several times per
    expectation (the condition, the filtered row count, the unexpected values: three
    ``dropna`` passes over the batch for each column-pair comparison). The answer depends only
    on the domain kwargs (batch id, columns, row condition, ``ignore_row_if``), so the first
    answer is reused until the block exits (the original method is back afterwards). Each caller
    gets its own shallow copy: with pandas' copy-on-write (always on from pandas 3) a caller that
    modified its frame would not change what the next one gets.
    """
    from great_expectations.execution_engine import PandasExecutionEngine

    original = PandasExecutionEngine.__dict__.get("get_domain_records")
    if original is None or int(pd.__version__.split(".")[0]) < 3:
        yield
        return
    memo: dict[tuple[int, str], pd.DataFrame] = {}

    def get_domain_records(self, domain_kwargs: dict) -> pd.DataFrame:
        try:
            key = (id(self), json.dumps(domain_kwargs, sort_keys=True))
        except (TypeError, ValueError):  # a kwarg JSON cannot spell: no reuse
            return original(self, domain_kwargs)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = original(self, domain_kwargs)
        return hit.copy(deep=False)

    PandasExecutionEngine.get_domain_records = get_domain_records
    try:
        yield
    finally:
        PandasExecutionEngine.get_domain_records = original


def _key(cfg) -> str:
    return json.dumps(
        [cfg.type, cfg.kwargs, (cfg.meta or {}).get("autodata_check")], sort_keys=True, default=str
    )


def _failing_indexes(frame: pd.DataFrame, res, asset: str) -> dict[str, list]:
    """Every failing row of each failed row-level expectation: a COMPLETE rerun of just those (real GE)."""
    import great_expectations as gx

    failed = [
        r.expectation_config
        for r in res.results
        if not r.success
        and r.expectation_config.type in ROW_LEVEL_TYPES
        and not (
            (r.exception_info or {}).get("raised_exception") if isinstance(r.exception_info, dict) else False
        )
    ]
    if not failed:
        return {}
    with _gx_lock:
        sub = gx.ExpectationSuite(
            name=f"{asset}-failing-rows", expectations=[c.to_domain_obj() for c in failed]
        )
    full = run_suite(frame, sub, asset=asset, result_format=COMPLETE_FORMAT)
    return {
        _key(r.expectation_config): (r.result or {}).get("unexpected_index_list") or [] for r in full.results
    }


#: expectations that look at the batch's whole column set (a narrower batch would change their answer)
WHOLE_TABLE_TYPES = frozenset(
    {
        "expect_table_columns_to_match_set",
        "expect_table_columns_to_match_ordered_list",
        "expect_table_column_count_to_equal",
        "expect_table_column_count_to_be_between",
        "expect_table_schema_to_match_previous",
    }
)


def suite_columns(frame: pd.DataFrame, suite) -> pd.DataFrame:
    """The batch narrowed to the columns the suite's expectations name (same rows, same index).

    GE's pandas engine copies the whole batch, every column, once or more per row-level
    expectation (dropping nulls, picking unexpected rows); columns no expectation reads only
    make those copies longer. A suite that looks at the column set as a whole gets every column.
    """
    named: set[str] = set()
    for e in suite.expectations:
        if e.expectation_type in WHOLE_TABLE_TYPES:
            return frame
        kw = e.configuration.kwargs
        for key in ("column", "column_A", "column_B"):
            if isinstance(kw.get(key), str):
                named.add(kw[key])
        named.update(c for c in kw.get("column_list") or [] if isinstance(c, str))
        named.update(k for k in (kw.get("keys") or {}) if isinstance(k, str))
        named.update(k for k in (kw.get("max_null_rates") or {}) if isinstance(k, str))
    keep = [c for c in frame.columns if c in named]
    return frame if len(keep) == len(frame.columns) else frame[keep]


def validate_gx(
    frame: pd.DataFrame,
    spec: CheckSpec,
    *,
    previous: dict | None = None,
    columns: list[str] | None = None,
    run_id: str | None = None,
    suite=None,
) -> tuple[list[CheckResult], Any]:
    """Validate with real GE and normalise per CheckSpec check; also return GE's own result (for Data Docs)."""
    if suite is None:
        suite = suite_from_json(compile_suite(spec, previous=previous, columns=columns))
    frame = suite_columns(frame, suite)
    res = run_suite(frame, suite, asset=spec.name, result_format=FIRST_PASS_FORMAT)
    indexes = _failing_indexes(frame, res, spec.name)
    grouped: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    per_column: list[CheckResult] = []
    for r in res.results:
        cfg = r.expectation_config
        meta = cfg.meta or {}
        if meta.get(PER_COLUMN):
            per_column += _split_per_column(r, meta)
            continue
        name = meta.get("autodata_check") or cfg.type
        if name not in grouped:
            order.append(name)
            grouped[name] = {
                "passed": True,
                "rows": set(),
                "observed": None,
                "count": 0,
                "native": [],
                "msg": [],
            }
            grouped[name]["kind"] = meta.get("kind", "unknown")
            grouped[name]["severity"] = meta.get("severity", "error")
        g = grouped[name]
        g["native"].append(cfg.type)
        result = r.result or {}
        exc = (r.exception_info or {}) if isinstance(r.exception_info, dict) else {}
        if exc.get("raised_exception"):
            g["passed"] = False
            g["msg"].append(f"{cfg.type} raised: {str(exc.get('exception_message'))[:200]}")
            g["observed"] = g["observed"] or "error"
            continue
        if not r.success:
            g["passed"] = False
            idx = indexes.get(_key(cfg)) or []
            if cfg.type in ROW_LEVEL_TYPES:
                g["rows"].update(int(i) for i in idx if isinstance(i, (int, np.integer)))
            g["count"] += int(result.get("unexpected_count") or 0)
            g["msg"].append(_missing_rows_text(result.get("observed_value")) or f"{cfg.type} failed")
            if g["observed"] is None:
                if "observed_value" in result:
                    g["observed"] = _plain_json(result["observed_value"])
                elif "partial_unexpected_list" in result:
                    g["observed"] = {
                        "unexpected_count": result.get("unexpected_count"),
                        "unexpected_percent": result.get("unexpected_percent"),
                        "examples": _plain_json(result.get("partial_unexpected_list", [])[:5]),
                    }
        elif g["observed"] is None and "observed_value" in result:
            g["observed"] = _plain_json(result["observed_value"])
    out = []
    for name in order:
        g = grouped[name]
        rows = sorted(g["rows"])
        out.append(
            CheckResult(
                check=name,
                kind=g["kind"],
                engine="gx",
                passed=g["passed"],
                severity=g["severity"],
                observed=g["observed"],
                failing_rows=len(rows) or g["count"],
                failing_index=rows,
                native=",".join(dict.fromkeys(g["native"])),
                message="; ".join(g["msg"]),
            )
        )
    return out + per_column, res


def _split_per_column(r, meta: dict) -> list[CheckResult]:
    """One CheckResult per column from a per-column table expectation (drift null rates)."""
    cfg = r.expectation_config
    prefix = meta[PER_COLUMN]
    exc = (r.exception_info or {}) if isinstance(r.exception_info, dict) else {}
    observed = ((r.result or {}).get("observed_value") or {}).get("columns") or {}
    out = []
    for col in (cfg.kwargs or {}).get("max_null_rates") or {}:
        info = observed.get(col)
        raised = bool(exc.get("raised_exception"))
        passed = bool(info and info.get("ok")) and not raised
        out.append(
            CheckResult(
                check=f"{prefix}{col}",
                kind=meta.get("kind", "drift"),
                engine="gx",
                passed=passed,
                severity=meta.get("severity", "error"),
                observed=_plain_json(info) if info else ("error" if raised else None),
                failing_rows=0,
                failing_index=[],
                native=cfg.type,
                message=""
                if passed
                else (
                    f"{cfg.type} raised: {str(exc.get('exception_message'))[:200]}"
                    if raised
                    else f"{cfg.type} failed"
                ),
            )
        )
    return out


def _missing_rows_text(observed: Any) -> str | None:
    """A completeness failure in words: how many expected rows are missing and which (the first 20)."""
    if not isinstance(observed, dict) or not observed.get("missing") or observed.get("expected") is None:
        return None
    examples = "; ".join(" ".join(str(v) for v in e) for e in observed.get("missing_examples") or [])
    text = f"{observed['missing']} of {observed['expected']} expected rows missing"
    return text + (f", first {len(observed.get('missing_examples') or [])}: {examples}" if examples else "")


def _plain_json(v: Any) -> Any:
    return json.loads(json.dumps(v, default=str))
