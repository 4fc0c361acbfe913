"""CheckSpec: the backend-neutral description of what a collected table must satisfy.

The validation agent (or a person) writes it; the compilers turn it into a Great Expectations
suite and a pandera schema; ``enforce`` runs both before landing. It is plain data (YAML on
disk, diffable in review) so that scheduled reruns validate without any agent.

Every check kind is a small typed model, so a program can build a spec directly::

    CheckSpec(name="sp500-daily", policy="quarantine", checks=[
        ColumnCheck(column="close", dtype="float"),
        UniqueCheck(columns=["ticker", "date"]),
        *between("low", "open", "high"),
    ])
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from prefect_autodata.errors import ConfigError
from prefect_autodata.workspace import validate_name

Severity = Literal["error", "warn"]
Policy = Literal["fail", "quarantine", "warn"]
DType = Literal["string", "integer", "float", "number", "boolean", "date", "datetime", "any"]
CompareOp = Literal[">=", ">", "<=", "<", "==", "!="]
Scalar = bool | int | float | str


class _Check(BaseModel):
    """Fields every check shares: a stable name (shown in reports and stored in DuckDB) and a severity."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = Field(default=None, description="Stable name; derived from the check when omitted.")
    severity: Severity = Field(default="error", description="'warn' failures never block landing.")

    #: row-level checks can blame individual rows (so quarantine can isolate them)
    row_level: ClassVar[bool] = False

    def default_name(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    @property
    def check_name(self) -> str:
        return self.name or self.default_name()


class ColumnCheck(_Check):
    """The column exists and holds values of the given logical type."""

    kind: Literal["column"] = "column"
    column: str
    dtype: DType = "any"
    required: bool = True

    def default_name(self) -> str:
        return f"column:{self.column}"


class NotNullCheck(_Check):
    """At most ``max_null_fraction`` of the values are null (0 means none at all)."""

    kind: Literal["not_null"] = "not_null"
    column: str
    max_null_fraction: float = Field(default=0.0, ge=0.0, le=1.0)
    row_level: ClassVar[bool] = True

    def default_name(self) -> str:
        return f"not_null:{self.column}"


class UniqueCheck(_Check):
    """One column, or a compound key of several, identifies each row."""

    kind: Literal["unique"] = "unique"
    columns: list[str] = Field(min_length=1)
    row_level: ClassVar[bool] = True

    def default_name(self) -> str:
        return f"unique:{','.join(self.columns)}"


class RangeCheck(_Check):
    """Values (numbers or dates) lie within [min, max]; either bound may be open."""

    kind: Literal["range"] = "range"
    column: str
    min: float | dt.date | None = None
    max: float | dt.date | None = None
    row_level: ClassVar[bool] = True

    @model_validator(mode="after")
    def _bounds(self) -> RangeCheck:
        if self.min is None and self.max is None:
            raise ValueError("range needs min or max")
        if self.min is not None and self.max is not None:
            if isinstance(self.min, dt.date) != isinstance(self.max, dt.date):
                raise ValueError("range min and max must both be numbers or both be dates")
            if self.min > self.max:  # type: ignore[operator]
                raise ValueError(f"range min {self.min} is above max {self.max}")
        return self

    def default_name(self) -> str:
        return f"range:{self.column}"


class AllowedValuesCheck(_Check):
    """Every non-null value is one of ``values``."""

    kind: Literal["allowed"] = "allowed"
    column: str
    values: list[Scalar] = Field(min_length=1)
    row_level: ClassVar[bool] = True

    def default_name(self) -> str:
        return f"allowed:{self.column}"


class RegexCheck(_Check):
    """Every non-null value matches ``pattern`` (Python ``re.match`` semantics, anchored at the start)."""

    kind: Literal["regex"] = "regex"
    column: str
    pattern: str
    row_level: ClassVar[bool] = True

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        import re

        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"invalid regex {v!r}: {exc}") from exc
        return v

    def default_name(self) -> str:
        return f"regex:{self.column}"


class CompareCheck(_Check):
    """A cross-column comparison that holds on every row where both sides are present (``high >= low``)."""

    kind: Literal["compare"] = "compare"
    left: str
    op: CompareOp
    right: str
    row_level: ClassVar[bool] = True

    @model_validator(mode="after")
    def _distinct(self) -> CompareCheck:
        if self.left == self.right:
            raise ValueError(f"compare needs two different columns, got {self.left!r} twice")
        return self

    def default_name(self) -> str:
        return f"compare:{self.left}{self.op}{self.right}"


class RowCountCheck(_Check):
    """The batch has between ``min`` and ``max`` rows."""

    kind: Literal["row_count"] = "row_count"
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _bounds(self) -> RowCountCheck:
        if self.min is None and self.max is None:
            raise ValueError("row_count needs min or max")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"row_count min {self.min} is above max {self.max}")
        return self

    def default_name(self) -> str:
        return "row_count"


class KeyDomain(BaseModel):
    """The values one key column is expected to take.

    ``values`` lists them; ``start``/``end`` describe a daily calendar (weekdays only by default,
    minus ``exclude`` such as exchange holidays); neither means "every value seen in the batch".
    ``within_observed`` clips a calendar to the first and last day the batch holds (an incremental
    run's delta); ``contiguous`` expects every integer from the smallest to the largest value seen
    (seasons: a gap is a missing season).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    values: list[Scalar] | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    weekdays_only: bool = True
    exclude: list[dt.date] = Field(default_factory=list)
    within_observed: bool = False
    contiguous: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> KeyDomain:
        if self.values is not None and (self.start or self.end):
            raise ValueError("a key domain is either values or a start/end calendar, not both")
        if self.contiguous and (self.values is not None or self.start or self.end):
            raise ValueError(
                "a contiguous key domain takes its range from the batch: no values, start or end"
            )
        if self.within_observed and not self.start:
            raise ValueError("within_observed clips a calendar: it needs start and end")
        if (self.start is None) != (self.end is None):
            raise ValueError("a calendar key domain needs both start and end")
        if self.start and self.end and self.start > self.end:
            raise ValueError(f"calendar start {self.start} is after end {self.end}")
        return self


class CompletenessCheck(_Check):
    """Every combination of the key domains is present (e.g. tickers x trading days)."""

    kind: Literal["completeness"] = "completeness"
    keys: dict[str, KeyDomain] = Field(min_length=1)
    min_fraction: float = Field(default=1.0, ge=0.0, le=1.0)

    @field_validator("keys", mode="before")
    @classmethod
    def _none_is_observed(cls, v: Any) -> Any:
        if isinstance(v, list):
            v = {k: None for k in v}
        if isinstance(v, dict):
            return {k: (d if d is not None else {}) for k, d in v.items()}
        return v

    def default_name(self) -> str:
        return f"completeness:{'x'.join(self.keys)}"


class WeekdayCheck(_Check):
    """Dates fall on Monday-Friday (trading data has no weekend rows)."""

    kind: Literal["weekdays"] = "weekdays"
    column: str
    row_level: ClassVar[bool] = True

    def default_name(self) -> str:
        return f"weekdays:{self.column}"


class FreshnessCheck(_Check):
    """The latest date in ``column`` is at most ``max_age_days`` before ``as_of`` (default: today)."""

    kind: Literal["freshness"] = "freshness"
    column: str
    max_age_days: int = Field(ge=0)
    as_of: dt.date | None = None

    def default_name(self) -> str:
        return f"freshness:{self.column}"


class DriftCheck(_Check):
    """Compare the batch with the previous run's profile; disabled parts are ``None``/``False``.

    Expands into ``drift:row_count``, ``drift:null_rate:<col>`` and ``drift:columns`` results.
    """

    kind: Literal["drift"] = "drift"
    max_row_count_change: float | None = Field(default=0.5, ge=0.0, description="relative, 0.5 = +/-50%")
    max_row_count_decrease: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="relative, tighter bound on shrinking (0.02: at most 2% fewer rows than the last good run)",
    )
    max_null_rate_increase: float | None = Field(default=0.1, ge=0.0, le=1.0)
    columns: bool = Field(default=True, description="new, missing and retyped columns fail")

    def default_name(self) -> str:
        return "drift"


def row_count_bounds(check: DriftCheck, prev_n: int) -> tuple[int, int | None]:
    """The drift row-count window around the last good run's ``prev_n`` rows."""
    change, decrease = check.max_row_count_change, check.max_row_count_decrease
    lo = 0 if change is None else max(0, math.floor(round(prev_n * (1 - change), 6)))
    if decrease is not None:
        lo = max(lo, math.floor(round(prev_n * (1 - decrease), 6)))
    hi = None if change is None else math.ceil(round(prev_n * (1 + change), 6))
    return lo, hi


Check = Annotated[
    ColumnCheck
    | NotNullCheck
    | UniqueCheck
    | RangeCheck
    | AllowedValuesCheck
    | RegexCheck
    | CompareCheck
    | RowCountCheck
    | CompletenessCheck
    | WeekdayCheck
    | FreshnessCheck
    | DriftCheck,
    Field(discriminator="kind"),
]

CHECK_KINDS: tuple[str, ...] = (
    "column",
    "not_null",
    "unique",
    "range",
    "allowed",
    "regex",
    "compare",
    "row_count",
    "completeness",
    "weekdays",
    "freshness",
    "drift",
)


class CheckSpec(BaseModel):
    """All checks for one collector's table plus what to do when they fail."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    name: str
    policy: Policy = "fail"
    strict_columns: bool = Field(default=False, description="columns not declared by a column check fail")
    checks: list[Check] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        try:
            return validate_name(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from exc

    @model_validator(mode="after")
    def _unique_names(self) -> CheckSpec:
        seen: set[str] = set()
        for c in self.checks:
            if c.check_name in seen:
                raise ValueError(f"two checks are named {c.check_name!r}; give one an explicit name")
            seen.add(c.check_name)
        return self

    def add(self, *checks: _Check) -> CheckSpec:
        """Return a copy with more checks (validated again, so duplicate names are caught)."""
        return CheckSpec.model_validate({**self.model_dump(), "checks": [*self.checks, *checks]})

    def columns(self) -> dict[str, ColumnCheck]:
        return {c.column: c for c in self.checks if isinstance(c, ColumnCheck)}

    def by_name(self) -> dict[str, _Check]:
        return {c.check_name: c for c in self.checks}

    # --- YAML -----------------------------------------------------------------------------
    def to_yaml(self) -> str:
        data = self.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)

    @classmethod
    def from_yaml(cls, text: str, *, source: str = "<checks>") -> CheckSpec:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{source}: not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{source}: a CheckSpec must be a mapping with 'name' and 'checks'")
        return cls.parse_obj_or_raise(data, source=source)

    @classmethod
    def parse_obj_or_raise(cls, data: dict, *, source: str = "<checks>") -> CheckSpec:
        """Validate a mapping; a mistake becomes one ConfigError naming the field (``checks[3].op``)."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ConfigError(f"{source}: {_loc(first['loc'])}: {first['msg']}") from exc


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in CHECK_KINDS and out.endswith("]"):
            continue  # the discriminator tag pydantic inserts
        else:
            out += ("." if out else "") + str(part)
    return out or "(root)"


def compare(expr: str, **kw: Any) -> CompareCheck:
    """Build a comparison from text: ``compare("high >= low")``."""
    parts = expr.split()
    if len(parts) != 3 or parts[1] not in (">=", ">", "<=", "<", "==", "!="):
        raise ConfigError(
            f"comparison {expr!r} must look like 'left OP right' with OP one of >= > <= < == !="
        )
    return CompareCheck(left=parts[0], op=parts[1], right=parts[2], **kw)


def between(low: str, mid: str, high: str, **kw: Any) -> list[CompareCheck]:
    """``low <= mid <= high`` as two comparisons (``mid>=low`` and ``mid<=high``)."""
    return [
        CompareCheck(left=mid, op=">=", right=low, **kw),
        CompareCheck(left=mid, op="<=", right=high, **kw),
    ]


def load_checks(path: str | Path) -> CheckSpec:
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"check spec {p} does not exist")
    return CheckSpec.from_yaml(p.read_text(encoding="utf-8"), source=str(p))


def save_checks(spec: CheckSpec, path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(spec.to_yaml(), encoding="utf-8")
    tmp.replace(p)
    return p
