"""The Request: what one sentence asks to collect, for any kind of record.

The plan agent's core object (it replaced the six-entity ``ParsedInstruction``): the entity as a noun
phrase, the wanted fields (with where each came from), generic filters, a time scope resolved against
``today``, coverage, a recurring cadence, the sources named in the sentence, and — only when a
record-kind plug-in (``agents/kinds/``) recognised the request — that kind's name and typed scope.
``unresolved`` holds questions the user can answer; it is non-empty only when nothing sensible can be
collected (no entity, no source, or a contradiction).

Consumers read a kind's typed scope through the Request: ``request.kind_scope`` or, for brevity, the
scope's attribute on the request itself (``request.tickers``); a name any registered kind declares reads
as that kind's default when the request is of another kind (or of none).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field, SerializeAsAny

from prefect_autodata.errors import ConfigError


def _no_scope_default(name: str) -> tuple[bool, Any]:
    return False, None


_scope_default: Callable[[str], tuple[bool, Any]] = _no_scope_default


def use_scope_defaults(lookup: Callable[[str], tuple[bool, Any]]) -> None:
    """Set where a scope attribute of no kind of this request reads its default (``(found, value)``):
    the kind registry (``agents/kinds``) installs its ``scope_default`` when it loads, so that this
    module, below the kinds, needs not import them."""
    global _scope_default
    _scope_default = lookup


FieldOrigin = Literal["fields", "schema", "sentence", "kind_default"]
FilterOp = Literal["eq", "in", "range", "ge", "le", "contains"]
MAX_INSTRUCTION_CHARS = 2000


class EntityName(BaseModel):
    """The kind of thing wanted, as the user would say it: "book"/"books", "job posting"/"job postings"."""

    singular: str
    plural: str


class RequestField(BaseModel):
    """One wanted field: the user's word, a normalised name to match columns by, and its origin."""

    name: str
    normalized: str
    type: str | None = None
    unit: str | None = None
    origin: FieldOrigin = "sentence"
    # Other names of the field a record kind knows (its vocabulary for the same column): a page may
    # label the column by any of them ("Hits" for the user's "h").
    aliases: list[str] = Field(default_factory=list)


class Filter(BaseModel):
    """A generic predicate on a field (or the entity): ``track eq Findings``, ``price le 20``."""

    field: str  # "*": any of the record's fields ("Nikon only" names a value, not its field)
    op: FilterOp
    value: Any
    # Other spellings of the same values a page may show (a team's abbreviation beside its name);
    # a row filter keeps a row showing any of them.
    aliases: list[Any] = Field(default_factory=list)


class TimeScope(BaseModel):
    """When: absolute (dates, years, ranges) or relative ("last 30 days", resolved against today)."""

    kind: Literal["absolute", "relative"] = "absolute"
    phrase: str | None = None
    start_date: date | None = None
    end_date: date | None = None
    years: list[int] = Field(default_factory=list)
    start_year: int | None = None
    end_year: int | None = None
    dates: list[date] = Field(default_factory=list)
    all_history: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "phrase": self.phrase,
            "start": self.start_date.isoformat() if self.start_date else None,
            "end": self.end_date.isoformat() if self.end_date else None,
            "years": list(self.years),
            "dates": [d.isoformat() for d in self.dates],
            "all_history": self.all_history,
        }


class Cadence(BaseModel):
    """A recurring wish, kept verbatim; ``cron`` when the phrase maps onto one."""

    phrase: str
    cron: str | None = None
    timezone: str | None = None


class ExpectedSize(BaseModel):
    """How many rows to expect; ``approx`` is True unless the count is certain from the request alone."""

    rows: int
    approx: bool = True
    basis: str


class KindScope(BaseModel):
    """Base of a record kind's typed scope (venue and track, tickers, teams, players, ...)."""

    template: str | None = None


class Request(BaseModel):
    """What the sentence asks for. Years follow the source's convention (a season is named by its
    first calendar year).

    ``sources`` holds what the sentence (and ``--source``) names as the place to collect from, in two
    forms: an address (a URL ``https://…`` or a bare domain ``pixelmart.com``), fetched as it is, and a
    site's *name* (``PixelMart``, ``Harbor Works``: "on PixelMart", "from the PixelMart site"), which is
    no URL: discovery searches for it and keeps the results whose title, host or header carry it
    (``agents/sites.py``). A sentence pointing at a site it does not name ("on this site") with no
    ``--source`` is ``unresolved`` ("which site? (give --source URL)")."""

    text: str
    entity: EntityName | None = None
    fields: list[RequestField] = Field(default_factory=list)
    all_fields: bool = False
    filters: list[Filter] = Field(default_factory=list)
    time_scope: TimeScope | None = None
    coverage: str = "all"
    cadence: Cadence | None = None
    sources: list[str] = Field(default_factory=list)
    kind: str | None = None
    domain: str = "unknown"
    kind_scope: SerializeAsAny[KindScope] | None = None
    expected_size: ExpectedSize | None = None
    assumptions: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)

    # ---------------------------------------------------------------- generic views

    @property
    def is_resolved(self) -> bool:
        return not self.unresolved

    @property
    def missing(self) -> list[str]:
        """The questions to answer before anything can be collected (same list as ``unresolved``)."""
        return self.unresolved

    @property
    def field_names(self) -> list[str]:
        """The target column names, in order."""
        return [f.name for f in self.fields]

    @property
    def fields_source(self) -> str:
        """ "user" when the fields came from the user (flag, schema or sentence), else "default"."""
        return "default" if not self.fields or self.fields[0].origin == "kind_default" else "user"

    def _time(self, name: str, default: Any) -> Any:
        return getattr(self.time_scope, name) if self.time_scope is not None else default

    @property
    def years(self) -> list[int]:
        return self._time("years", [])

    @property
    def start_year(self) -> int | None:
        return self._time("start_year", None)

    @property
    def end_year(self) -> int | None:
        return self._time("end_year", None)

    @property
    def start_date(self) -> date | None:
        return self._time("start_date", None)

    @property
    def end_date(self) -> date | None:
        return self._time("end_date", None)

    @property
    def dates(self) -> list[date]:
        return self._time("dates", [])

    @property
    def all_history(self) -> bool:
        return self._time("all_history", False)

    @property
    def template(self) -> str | None:
        return self.kind_scope.template if self.kind_scope is not None and not self.unresolved else None

    def filter_values(self, field: str) -> list[Any]:
        """Values a filter on ``field`` admits (eq/in/contains), in order."""
        out: list[Any] = []
        for f in self.filters:
            if f.field == field and f.op in ("eq", "in", "contains"):
                out += list(f.value) if isinstance(f.value, list | tuple | set) else [f.value]
        return out

    def __getattr__(self, name: str) -> Any:
        # A kind's typed scope, read through the request (``request.tickers``); any name a registered
        # kind's scope declares falls back to that declared default.
        if not name.startswith("_"):
            scope = self.__dict__.get("kind_scope")
            if scope is not None and name in type(scope).model_fields:
                return getattr(scope, name)
            found, value = _scope_default(name)
            if found:
                return value
        return super().__getattr__(name)

    def to_json(self) -> dict[str, Any]:
        """The fixed JSON shape of ``autodata plan --json``. "All columns" ("every statistic the site
        has") shows as a first field named ``*``: every column the source offers, the listed ones after it
        (a kind's defaults, when a kind knows the records)."""
        every = [{"name": "*", "normalized": "*", "type": None}] if self.all_fields else []
        return {
            "entity": self.entity.singular if self.entity else None,
            "fields": every
            + [{"name": f.name, "normalized": f.normalized, "type": f.type} for f in self.fields],
            "filters": [{"field": f.field, "op": f.op, "value": _jsonable(f.value)} for f in self.filters],
            "time_scope": self.time_scope.to_json() if self.time_scope else None,
            "coverage": self.coverage,
            "cadence": self.cadence.model_dump() if self.cadence else None,
            "sources": list(self.sources),
            "kind": self.kind,
            "unresolved": list(self.unresolved),
        }


def _jsonable(v: Any) -> Any:
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, list | tuple | set):
        return [_jsonable(x) for x in v]
    return v


# ------------------------------------------------------------------ input checks

_EN_WORDS = frozenset(
    """a an the of all every each any with and or for from in on to by at as is are be me my i we our
    please get collect give fetch download find list show scrape gather pull compile build grab want need
    their its his her this that these those which who whose where when what data records table since
    between until through up last past top first daily per each""".split()
)
_FOREIGN_WORDS = frozenset(
    """der die das und von mit alle allen für den dem des ein eine sammle sammeln bitte
    el los las del con todos todas para una unos recopila recoge obtener
    les des avec tous toutes pour une dans sur recueillir collecter
    il gli della dei con tutti tutte per raccogli
    het een alle voor verzamel""".split()
)


def check_instruction(text: str | None) -> str:
    """Reject input nothing sensible can be read from (empty, huge, control characters, not English).

    Raises ``ConfigError`` with one line saying what is wrong; returns the text unchanged otherwise.
    """
    if text is None or not text.strip():
        raise ConfigError(
            "the instruction is empty: say what to collect, e.g. 'every book with title and price'"
        )
    if len(text) > MAX_INSTRUCTION_CHARS:
        raise ConfigError(
            f"the instruction is {len(text)} characters long; keep it under {MAX_INSTRUCTION_CHARS} "
            "(one sentence saying what to collect)"
        )
    bad = sorted(
        {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cc", "Cf") and c not in "\t\n\r"}
    )
    if bad:
        raise ConfigError(f"the instruction contains control characters ({', '.join(bad[:5])}); remove them")
    letters = [c for c in text if c.isalpha()]
    latin = sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    words = re.findall(r"[^\W\d_]+", text.lower())
    english = sum(w in _EN_WORDS for w in words)
    foreign = sum(w in _FOREIGN_WORDS for w in words)
    if (letters and latin < 0.5 * len(letters)) or (foreign >= 2 and foreign > english):
        raise ConfigError("the instruction does not read as English; write it in English, please")
    return text
