"""CollectorSpec: the reusable collector as data, not code.

Agents (or a person) write it, the runtime executes it, a deployment reruns it with zero LLM
calls. It is YAML on disk, diffable in review, and versioned by a content hash of its canonical
JSON form (``spec.version``).

Shape (YAML)::

    name: aapl-2024
    base_url: http://127.0.0.1:8765          # user-named host (allowed by the SSRF policy)
    table: aapl_2024                          # default: name with '-' -> '_'
    primary_key: [date]
    columns: [{name: date, type: date}, {name: close, type: float}]
    sources:
      - name: prices
        kind: json                            # json | csv | html | browser | crawl
        request: {url: "{base_url}/api/x/{ticker}/prices", params: {startDate: "{start}"}}
        params:                               # expanded as a cartesian product
          ticker: {values: [AAPL]}
          start: {date: "2024-01-01"}
        records: {jsonpath: "$[*]"}
        fields:
          - {name: date, jsonpath: "$.date", transforms: [{op: parse_date}]}
    incremental: {cursor: date, param: start, step_days: 1}
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from prefect_autodata.errors import ConfigError
from prefect_autodata.runtime.columns import is_system_name
from prefect_autodata.runtime.policy import CrawlPolicy, FetchPolicy

SPEC_VERSION = 1
MEDIA_COLUMN = "media"  # crawl sources with verify_media: the page's verified media URLs (JSON list)
ColumnType = Literal["string", "integer", "float", "boolean", "date", "timestamp", "json"]
_IDENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ ]{0,62}$")  # "2B", "3B": baseball columns start with a digit
_PARAM = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
MAX_PAGES = 100_000  # pages per request / crawl: a typo'd 10**9 is a clear error, not a run that never ends
MAX_RANGE = 100_000  # values one integer range parameter may expand to
MAX_REQUESTS = 1_000_000  # requests one source's parameter product may expand to


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Transform(_Model):
    """One typed step applied to an extracted value, in order (``strip``, ``parse_date``, ``number``...)."""

    op: Literal[
        "strip",
        "lower",
        "upper",
        "parse_date",
        "parse_timestamp",
        "number",
        "integer",
        "split",
        "join",
        "absolute_url",
        "map",
        "regex",
        "replace",
        "default",
        "first",
        "prefix",
        "suffix",
        "collapse_whitespace",
        "bibtex_authors",
        "duration_minutes",
    ]
    format: str | None = Field(
        None, description="parse_date/parse_timestamp: strptime format; default: ISO/dateutil."
    )
    sep: str | None = Field(None, description="split/join separator.")
    mapping: dict[str, Any] | None = Field(None, description="map: value -> replacement.")
    pattern: str | None = Field(None, description="regex/replace: the pattern.")
    group: int | str = Field(1, description="regex: capture group returned.")
    value: Any = Field(None, description="default/prefix/suffix/replace: the value used.")
    strict: bool = Field(True, description="map: unknown values are an error (False: keep them).")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        """Accept ``"strip"`` and ``{"split": ", "}`` as YAML-friendly shorthands."""
        if isinstance(data, str):
            return {"op": data}
        if isinstance(data, dict) and "op" not in data and len(data) == 1:
            ((op, arg),) = data.items()
            if isinstance(arg, dict) and not (op == "map" and "mapping" not in arg):
                return {"op": op, **arg}
            key = {
                "split": "sep",
                "join": "sep",
                "parse_date": "format",
                "parse_timestamp": "format",
                "map": "mapping",
                "regex": "pattern",
                "default": "value",
                "prefix": "value",
                "suffix": "value",
            }.get(op)
            return {"op": op, key: arg} if key else {"op": op}
        return data

    @model_validator(mode="after")
    def _needs(self) -> Transform:
        need = {"map": "mapping", "regex": "pattern", "replace": "pattern", "split": "sep"}.get(self.op)
        if need and getattr(self, need) is None:
            raise ValueError(f"transform {self.op!r} needs {need!r}")
        if self.pattern is not None:
            try:
                re.compile(self.pattern)
            except re.error as exc:
                raise ValueError(f"transform {self.op!r}: invalid regex {self.pattern!r}: {exc}") from exc
        return self


class Selector(_Model):
    """Where something is in a response: exactly one of css / xpath / jsonpath / regex."""

    css: str | None = None
    xpath: str | None = None
    jsonpath: str | None = None
    regex: str | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Selector:
        given = [k for k in ("css", "xpath", "jsonpath", "regex") if getattr(self, k) is not None]
        if len(given) > 1:
            raise ValueError(f"give exactly one of css, xpath, jsonpath, regex (got {', '.join(given)})")
        _check_selector(self)
        return self

    @property
    def kind(self) -> str | None:
        for k in ("css", "xpath", "jsonpath", "regex"):
            if getattr(self, k) is not None:
                return k
        return None

    @property
    def expr(self) -> str | None:
        k = self.kind
        return getattr(self, k) if k else None


def _check_selector(sel: Selector) -> None:
    """Compile selectors now so a typo fails at load time with the field name, not mid-run."""
    try:
        if sel.css is not None:
            from lxml.cssselect import CSSSelector

            CSSSelector(sel.css)
        elif sel.xpath is not None:
            from lxml import etree

            etree.XPath(sel.xpath)
        elif sel.jsonpath is not None:
            from jsonpath_ng.ext import parse

            parse(sel.jsonpath)
        elif sel.regex is not None:
            re.compile(sel.regex)
    except Exception as exc:  # each library raises its own type
        raise ValueError(f"invalid {sel.kind} selector {sel.expr!r}: {exc}") from exc


class FieldRule(Selector):
    """One output column of a record: where its value is, how to clean it, what type it has.

    No selector: ``const`` gives a fixed value, ``from_param`` a request parameter, ``from_url``
    the page URL. ``attr`` picks an attribute (``href``) instead of the text; ``all`` keeps every
    match (joined by ``join`` if given).
    """

    name: str
    type: ColumnType = "string"
    attr: str | None = Field(None, description="HTML attribute to read (e.g. href); default: text content.")
    all: bool = Field(False, description="Keep every match as a list (use a join transform to flatten).")
    join: str | None = Field(None, description="Join all matches with this separator (implies all).")
    const: Any = Field(None, description="A fixed value for every record.")
    from_param: str | None = Field(None, description="Take the value of this request parameter.")
    from_url: bool = Field(False, description="Take the URL of the page the record came from.")
    required: bool = Field(False, description="A record missing this field is rejected (not landed).")
    internal: bool = Field(
        False, description="Used inside the run only (e.g. a detail.url_field): not a column of the table."
    )
    may_become_null: bool = Field(
        False,
        description="A later run may replace a stored value with null (by default an upsert keeps the stored "
        "non-null value and warns: a vanished source field must not erase good data).",
    )
    transforms: list[Transform] = Field(default_factory=list)
    unit: str | None = Field(
        None,
        description="The unit the column's numbers are in, as the page writes it ('mpg', 'm', '$'): the "
        "value is read as its number and the unit is kept here (a value in another unit reads null).",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _IDENT.match(v) or is_system_name(v):
            raise ValueError(
                f"field name {v!r} must be letters, digits, '_' or spaces (at most 63), not starting _autodata"
            )
        return v

    @model_validator(mode="after")
    def _has_origin(self) -> FieldRule:
        origins = sum(
            [self.kind is not None, self.const is not None, self.from_param is not None, self.from_url]
        )
        if origins != 1:
            raise ValueError(
                f"field {self.name!r} needs exactly one of css/xpath/jsonpath/regex/const/from_param/from_url"
            )
        return self


class ParamSpec(_Model):
    """Values for one template parameter: a list, an integer range, a (relative) date, or another source's rows."""

    values: list[Any] | None = None
    range: tuple[int, int] | None = Field(
        None, description="Inclusive integer range, e.g. years [2015, 2024]."
    )
    date: str | None = Field(
        None,
        description="A date: ISO (2024-01-01) or relative: today, today-1, last_trading_day, start_of_year, end_of_year.",
    )
    format: str = Field("%Y-%m-%d", description="strftime format used to render a date parameter.")
    from_source: str | None = Field(None, description="Name of an earlier source whose rows give the values.")
    field: str | None = Field(None, description="with from_source: the field of those rows.")

    @model_validator(mode="after")
    def _one(self) -> ParamSpec:
        given = [k for k in ("values", "range", "date", "from_source") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of values, range, date, from_source (got {given or 'none'})")
        if self.from_source is not None and not self.field:
            raise ValueError("from_source needs field")
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError(f"range start {self.range[0]} is after end {self.range[1]}")
        if self.range is not None and self.range[1] - self.range[0] + 1 > MAX_RANGE:
            raise ValueError(
                f"range [{self.range[0]}, {self.range[1]}] has {self.range[1] - self.range[0] + 1} values, "
                f"more than the cap of {MAX_RANGE}"
            )
        if self.date is not None:
            from prefect_autodata.runtime.templates import resolve_date

            resolve_date(self.date)  # raises ValueError naming the expression
        return self


class RequestTemplate(_Model):
    """A request with ``{param}`` placeholders (also ``{base_url}``, ``{secret:NAME}``)."""

    url: str
    method: Literal["GET", "POST"] = "GET"
    params: dict[str, str] = Field(default_factory=dict, description="Query parameters (templated).")
    headers: dict[str, str] = Field(default_factory=dict, description="Headers (templated).")


class Pagination(_Model):
    """How to get the next page; stops on an empty page, a repeated page, or ``max_pages``."""

    kind: Literal["page", "offset", "cursor", "next_link", "link_header"]
    param: str | None = Field(None, description="page/offset/cursor: the query parameter to set.")
    start: int = Field(1, description="page: first page number; offset: first offset (use 0).")
    size: int | None = Field(None, description="offset: page size (the offset step).")
    size_param: str | None = Field(None, description="offset: query parameter carrying the page size.")
    next: Selector | None = Field(
        None, description="cursor: where the next cursor is; next_link: the next URL."
    )
    total: Selector | None = Field(None, description="Where the total record count is (stops exactly).")
    max_pages: int = Field(1000, ge=1, le=MAX_PAGES, description="Hard bound on pages per request.")

    @model_validator(mode="after")
    def _needs(self) -> Pagination:
        if self.kind in ("page", "offset", "cursor") and not self.param:
            raise ValueError(f"pagination {self.kind!r} needs param")
        if self.kind == "offset" and not self.size:
            raise ValueError("pagination 'offset' needs size")
        if self.kind in ("cursor", "next_link") and self.next is None:
            raise ValueError(f"pagination {self.kind!r} needs next (a selector)")
        return self


class BrowserOptions(_Model):
    """Rendering in Chromium: what to wait for, how far to scroll, which button loads more."""

    wait_for: str | None = Field(None, description="CSS selector to wait for before capturing the DOM.")
    scroll_steps: int = Field(0, ge=0, le=200)
    load_more_selector: str | None = None
    max_clicks: int = Field(0, ge=0, le=500)


class DetailSpec(_Model):
    """List -> detail: follow each record's ``url_field`` and extract more fields from that page."""

    url_field: str
    kind: Literal["json", "html", "browser"] = "html"
    fields: list[FieldRule]
    browser: BrowserOptions | None = None


class Source(_Model):
    """One kind of request and how records come out of its responses."""

    name: str = "main"
    kind: Literal["json", "csv", "html", "browser", "crawl"]
    request: RequestTemplate
    params: dict[str, ParamSpec] = Field(default_factory=dict)
    pagination: Pagination | None = None
    records: Selector = Field(
        default_factory=Selector,
        description="What one record is (JSON array path, CSS row selector...); empty: the whole response.",
    )
    fields: list[FieldRule] = Field(min_length=1)
    detail: DetailSpec | None = None
    browser: BrowserOptions | None = None
    crawl: CrawlPolicy | None = Field(
        None, description="kind crawl: BFS bounds; records come from every page."
    )
    verify_media: bool = Field(
        False,
        description="kind crawl: download every image/video a page shows and keep only those that pass "
        "BaRA's gates (in the DOM, 2xx, MIME matches, new content hash) as the page's `media` column.",
    )
    emit: bool = Field(True, description="False: rows only feed another source's parameters (not landed).")
    allow_empty: bool = Field(False, description="True: a page with no records is not an error.")

    @field_validator("params")
    @classmethod
    def _param_names(cls, v: dict[str, ParamSpec]) -> dict[str, ParamSpec]:
        for k in v:
            if not _PARAM.match(k) or k in ("base_url", "cursor"):
                raise ValueError(f"parameter name {k!r} is invalid or reserved")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Source:
        names = [f.name for f in self.fields] + [f.name for f in (self.detail.fields if self.detail else [])]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"source {self.name!r}: duplicate field names {sorted(dup)}")
        if self.detail and self.detail.url_field not in [f.name for f in self.fields]:
            raise ValueError(
                f"detail.url_field {self.detail.url_field!r} is not a field of source {self.name!r}"
            )
        if self.verify_media and self.kind != "crawl":
            raise ValueError(f"source {self.name!r}: verify_media needs kind crawl")
        if self.kind == "csv" and self.records.kind not in (None,):
            raise ValueError("csv sources take no records selector (each CSV row is a record)")
        combos = 1
        for p in self.params.values():
            combos *= (
                len(p.values) if p.values is not None else (p.range[1] - p.range[0] + 1 if p.range else 1)
            )
        if combos > MAX_REQUESTS:
            raise ValueError(
                f"source {self.name!r}: its parameters expand to {combos} requests, more than the cap of "
                f"{MAX_REQUESTS}"
            )
        if self.crawl is not None and self.crawl.pages > MAX_PAGES:
            raise ValueError(
                f"source {self.name!r}: crawl.pages {self.crawl.pages} is over the cap of {MAX_PAGES}"
            )
        for f in self.fields:
            if f.from_param and f.from_param not in self.params and f.from_param not in ("cursor",):
                raise ValueError(
                    f"field {f.name!r}: from_param {f.from_param!r} is not a parameter of the source"
                )
        return self


class Incremental(_Model):
    """Fetch only what is new: the max landed ``cursor`` column (+ step) becomes parameter ``param``."""

    cursor: str = Field(description="Column whose max landed value is the stored cursor (e.g. date).")
    param: str = Field(description="Parameter that receives cursor + step on the next run.")
    step_days: int = Field(1, description="For date cursors: days added to the stored cursor.")
    step: int | float = Field(0, description="For numeric cursors: amount added to the stored cursor.")
    end_param: str | None = Field(
        None, description="Date parameter bounding the range; requests whose start is past it are skipped."
    )
    partition_by: str | None = Field(
        None,
        description="A column filled from a parameter (e.g. ticker): the cursor is kept per value of it, so "
        "each request resumes from its own partition's last landed value.",
    )


class PythonStep(_Model):
    """Escape hatch: ``def transform(rows: list[dict]) -> list[dict]`` run in a sandboxed subprocess."""

    code: str
    timeout_s: float = Field(30.0, gt=0, le=3600)
    memory_mb: int = Field(512, ge=64, le=65536)


class ColumnSpec(_Model):
    name: str
    type: ColumnType = "string"
    description: str | None = None
    unit: str | None = Field(None, description="The unit of the column's numbers; default: its fields' unit.")


class CollectorSpec(_Model):
    """A reusable collector: sources -> records -> typed columns -> one DuckDB table with lineage."""

    spec_version: int = SPEC_VERSION
    name: str
    description: str | None = None
    base_url: str | None = Field(
        None, description="Origin the source URLs are relative to; substituted as {base_url}."
    )
    table: str | None = Field(None, description="DuckDB table name; default: name with '-' -> '_'.")
    primary_key: list[str] = Field(min_length=1)
    columns: list[ColumnSpec] = Field(
        default_factory=list, description="Declared columns; default: from fields."
    )
    sources: list[Source] = Field(min_length=1)
    incremental: Incremental | None = None
    python: PythonStep | None = None
    politeness: FetchPolicy = Field(default_factory=FetchPolicy)
    tags: list[str] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        from prefect_autodata.workspace import validate_name

        try:
            return validate_name(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from exc

    @field_validator("base_url")
    @classmethod
    def _base(cls, v: str | None) -> str | None:
        if v is None:
            return v
        if not re.match(r"^https?://[^/\s]+", v):
            raise ValueError(f"base_url {v!r} must be an http(s) URL")
        return v.rstrip("/")

    @model_validator(mode="after")
    def _consistent(self) -> CollectorSpec:
        names = [s.name for s in self.sources]
        if len(set(names)) != len(names):
            raise ValueError(f"source names must be unique (got {names})")
        seen: set[str] = set()
        for s in self.sources:
            for p in s.params.values():
                if p.from_source and p.from_source not in seen:
                    raise ValueError(
                        f"source {s.name!r}: from_source {p.from_source!r} must be an earlier source"
                    )
            seen.add(s.name)
        if not any(s.emit for s in self.sources):
            raise ValueError("at least one source must emit rows (emit: true)")
        cols = {c.name for c in self.output_columns()}
        for k in self.primary_key:
            if k not in cols:
                raise ValueError(f"primary_key column {k!r} is not a column (columns: {sorted(cols)})")
        if self.incremental:
            if self.incremental.cursor not in cols:
                raise ValueError(f"incremental.cursor {self.incremental.cursor!r} is not a column")
            if not any(self.incremental.param in s.params for s in self.sources):
                raise ValueError(
                    f"incremental.param {self.incremental.param!r} is not a parameter of any source"
                )
            part = self.incremental.partition_by
            if part is not None and self.partition_param() is None:
                raise ValueError(
                    f"incremental.partition_by {part!r} must be a field taken from a request parameter "
                    "(from_param) of the source that has incremental.param"
                )
        if self.table is not None:
            from prefect_autodata.workspace import table_name

            try:
                table_name(self.table)
            except ConfigError as exc:
                raise ValueError(f"table: {exc}") from exc
        return self

    # -- derived ------------------------------------------------------------------------------------------

    def partition_param(self) -> str | None:
        """The request parameter behind ``incremental.partition_by`` (None: one global cursor)."""
        inc = self.incremental
        if inc is None or inc.partition_by is None:
            return None
        for s in self.sources:
            if inc.param not in s.params:
                continue
            for f in s.fields:
                if f.name == inc.partition_by and f.from_param:
                    return f.from_param
        return None

    @property
    def table_name(self) -> str:
        from prefect_autodata.workspace import table_name

        return table_name(self.table or self.name)

    def nullable_updates(self) -> set[str]:
        """Columns whose stored value a later run may replace with null (``may_become_null`` fields)."""
        out: set[str] = set()
        for s in self.sources:
            for f in [*s.fields, *(s.detail.fields if s.detail else [])]:
                if f.may_become_null:
                    out.add(f.name)
        return out

    def output_columns(self) -> list[ColumnSpec]:
        """Declared columns first, then any emitted field not declared (typed by the field)."""
        out = {c.name: c for c in self.columns}
        for s in self.sources:
            if not s.emit:
                continue
            for f in [*s.fields, *(s.detail.fields if s.detail else [])]:
                if not f.internal:
                    col = out.setdefault(f.name, ColumnSpec(name=f.name, type=f.type, unit=f.unit))
                    if col.unit is None and f.unit is not None:
                        out[f.name] = col.model_copy(update={"unit": f.unit})
            if s.verify_media:
                out.setdefault(MEDIA_COLUMN, ColumnSpec(name=MEDIA_COLUMN, type="json"))
        return list(out.values())

    def units(self) -> dict[str, str]:
        """The unit of each output column whose numbers have one (``{"fuel_economy": "mpg"}``)."""
        return {c.name: c.unit for c in self.output_columns() if c.unit}

    @property
    def version(self) -> str:
        """Content hash of the canonical JSON form: the collector version (stable across YAML formatting)."""
        canon = json.dumps(
            self.model_dump(mode="json", exclude_none=True), sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(canon.encode()).hexdigest()[:16]

    # -- YAML ---------------------------------------------------------------------------------------------

    def to_yaml(self) -> str:
        data = _name_first(self.model_dump(mode="json", exclude_none=True, exclude_defaults=True))
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)

    @classmethod
    def from_yaml(cls, text: str, *, origin: str = "spec") -> CollectorSpec:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"{origin}: not valid YAML: {' '.join(str(exc).split())}") from exc
        return cls.parse(data, origin=origin)

    @classmethod
    def parse(cls, data: Any, *, origin: str = "spec") -> CollectorSpec:
        """Validate a dict; any problem becomes one ConfigError naming the field path."""
        if not isinstance(data, dict):
            raise ConfigError(f"{origin}: a CollectorSpec must be a mapping, not {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(f"{origin}: {format_validation_error(exc, data)}") from exc

    @classmethod
    def load(cls, path: str | Path) -> CollectorSpec:
        p = Path(path)
        return cls.from_yaml(read_text_file(p, "spec"), origin=str(p))

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(self.to_yaml(), encoding="utf-8")
        tmp.replace(p)
        return p


def read_text_file(path: str | Path, what: str = "file") -> str:
    """A UTF-8 text file's contents, or one ConfigError saying why not (directory, unreadable, binary,
    not UTF-8): bad files are bad input, never a traceback."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{what} {p} is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {p}: {exc.strerror or exc}") from exc
    if b"\x00" in data[:65536]:
        raise ConfigError(f"{what} {p} is a binary file, not YAML text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{what} {p} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from exc


def _name_first(node: Any) -> Any:
    """Readable YAML: every mapping starts with its ``name``."""
    if isinstance(node, dict):
        keys = sorted(node, key=lambda k: k != "name")
        return {k: _name_first(node[k]) for k in keys}
    if isinstance(node, list):
        return [_name_first(x) for x in node]
    return node


def _loc_to_path(loc: tuple, data: Any) -> str:
    """Turn pydantic's loc into a readable path, naming list items by their ``name`` when they have one."""
    parts: list[str] = []
    node = data
    for item in loc:
        if isinstance(item, int):
            name = (
                node[item].get("name")
                if isinstance(node, list) and item < len(node) and isinstance(node[item], dict)
                else None
            )
            parts[-1:] = [
                f"{parts[-1] if parts else ''}[{name!r}]" if name else f"{parts[-1] if parts else ''}[{item}]"
            ]
            node = node[item] if isinstance(node, list) and item < len(node) else None
        else:
            parts.append(str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts) or "(root)"


def format_validation_error(exc: ValidationError, data: Any) -> str:
    """The first error, named by its field path: one clear line for the CLI."""
    errors = exc.errors()
    e = errors[0]
    loc = tuple(
        x for x in e["loc"] if not (isinstance(x, str) and x in ("function-after", "function-before"))
    )
    msg = e["msg"].removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{_loc_to_path(loc, data)}: {msg}{more}"


def json_schema() -> dict:
    """The published JSON Schema of a CollectorSpec (docs/collector-spec.md embeds it)."""
    return CollectorSpec.model_json_schema()


def mirrored(spec: CollectorSpec, mirror: str) -> CollectorSpec:
    """The same spec served from a local mirror: ``https://host/path`` becomes ``<mirror>/host/path``.

    Used by ``--sandbox`` and tests: the mirror serves each real host under a path prefix named
    after it, so the spec itself keeps the real URLs.
    """
    mirror = mirror.rstrip("/")

    def move(url: str) -> str:
        return re.sub(r"^https?://([^/{}\s]+)", lambda m: f"{mirror}/{m.group(1)}", url)

    data = spec.model_dump(mode="json", exclude_none=True)
    if data.get("base_url"):
        data["base_url"] = move(data["base_url"])
    for s in data["sources"]:
        s["request"]["url"] = move(s["request"]["url"])
    return CollectorSpec.model_validate(data)


def secret_names(spec: CollectorSpec) -> set[str]:
    """Names of the ``{secret:NAME}`` placeholders a spec uses (resolved only at run time)."""
    out: set[str] = set()
    for s in spec.sources:
        for text in [s.request.url, *s.request.params.values(), *s.request.headers.values()]:
            out.update(m.group(1) for m in re.finditer(r"\{secret:([A-Za-z0-9_]+)\}", text))
    return out


_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "x-auth-token", "x-access-token"})


_CREDENTIAL_NAME = re.compile(r"key|token|secret|auth|passw|signature|credential", re.I)


_TOKEN_VALUE = re.compile(r"^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9_\-]{16,}$")


def _credential(name: str, value: str) -> bool:
    """A parameter/header named like a credential whose value looks like a key (8+ chars with a digit),
    or any value that is a long random token (16+ letters and digits mixed: a key the docs gave, sent
    under a name of the site's own)."""
    v = str(value or "")
    if _TOKEN_VALUE.match(v) and not re.fullmatch(r"[0-9a-f]{8}-?[0-9a-f]{4}-?.*", v, re.I):
        return sum(c.isdigit() for c in v) >= 3 and sum(c.isalpha() for c in v) >= 3
    return (
        bool(_CREDENTIAL_NAME.search(name)) and len(v) >= 8 and any(c.isdigit() for c in v) and " " not in v
    )


def externalize_secrets(spec: CollectorSpec) -> tuple[CollectorSpec, dict[str, str]]:
    """Move literal credentials (``token=...`` query values, ``Authorization`` headers) out of a spec.

    Agents copy what they observe, e.g. a demo key printed on an API's docs page; a reviewable, deployable
    spec must not carry it. Each literal becomes ``{secret:<COLLECTOR>_<PARAM>}`` and the observed values
    are returned so the caller can hand them to the run (env) or a Prefect Secret block, never to YAML.
    """
    from prefect_autodata.runtime.urlnorm import SECRET_PARAMS

    data = spec.model_dump(mode="json")
    found: dict[str, str] = {}
    prefix = re.sub(r"[^A-Za-z0-9]+", "_", spec.name).strip("_").upper()

    def secret_for(key: str, value: str) -> str:
        if not value or "{" in value:
            return value
        name = f"{prefix}_{re.sub(r'[^A-Za-z0-9]+', '_', key).strip('_').upper()}"
        found[name] = value
        return "{secret:" + name + "}"

    for source in data.get("sources", []):
        for request in (source.get("request"), (source.get("detail") or {}).get("request")):
            if not request:
                continue
            params = request.get("params") or {}
            for key, value in params.items():
                if key.lower() in SECRET_PARAMS or _credential(key, value):
                    params[key] = secret_for(key, value)
            headers = request.get("headers") or {}
            for key, value in headers.items():
                if key.lower() in _SECRET_HEADERS or _credential(key, value):
                    headers[key] = secret_for(key, value)
    if not found:
        return spec, {}
    return CollectorSpec.model_validate(data), found
