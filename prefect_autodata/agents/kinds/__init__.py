"""Record-kind plug-ins: optional domain knowledge that refines a generic ``Request``.

A ``RecordKind`` knows one kind of record well (papers of a conference, daily stock prices, ...): how
to recognise a request for it (``detect``), its vocabulary (user words → its column names), its default
fields, its typed scope (``scope_model``), the expected size and extra checks. A kind is never required:
a request no kind recognises goes through the same path with ``kind = None``.

Adding a kind is one module with a ``RecordKind`` subclass and one line: ``register(MyKind())``. The
built-in kinds are imported at the end of this module; a kind defined elsewhere (a test, a user package)
registers itself when imported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar

from prefect_autodata.agents.request import ExpectedSize, KindScope, use_scope_defaults

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request

AddTerm = Callable[[str, float], None]


@dataclass
class Mention:
    """A date mention found by the generic parser: a day, a period, a year or a season."""

    kind: str
    start: date
    end: date
    span: tuple[int, int]
    ambiguous: bool = False


@dataclass
class Context:
    """What the generic parser saw, handed to every kind's detector and refiner."""

    text: str  # normalised sentence (dashes and spaces folded)
    today: date
    mentions: list[Mention] = field(default_factory=list)
    blocked: list[tuple[int, int]] = field(default_factory=list)  # spans already explained (dates)
    has_source: bool = False
    entity: str | None = None  # the generic noun phrase ("book", "daily price"), if the sentence has one
    memo: dict[str, Any] = field(default_factory=dict)  # kinds share costly finds (team names, ...)

    @property
    def date_spans(self) -> list[tuple[int, int]]:
        return [m.span for m in self.mentions]

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.text, re.I) is not None

    def entity_head(self) -> str | None:
        """The last word of the generic entity phrase ("job posting" → "posting")."""
        return self.entity.split()[-1].lower() if self.entity else None

    def entity_is(self, *heads: str) -> bool:
        """True when there is no generic entity, or its head is one of ``heads``: weak keyword evidence
        of a kind must not override a sentence that plainly names another kind of record."""
        h = self.entity_head()
        return h is None or h in heads


@dataclass(frozen=True)
class Check:
    """An extra check a kind implies (e.g. High ≥ Low); the validation agent turns it into a rule."""

    name: str
    kind: str  # "compare" | "range" | "unique"
    columns: tuple[str, ...]
    op: str | None = None
    min: float | None = None
    max: float | None = None


class RecordKind:
    """Base class of a record-kind plug-in; subclasses override what they know."""

    name: ClassVar[str] = ""
    domain: ClassVar[str] = "unknown"
    singular: ClassVar[str] = "record"
    plural: ClassVar[str] = "records"
    default_fields: ClassVar[list[str]] = []
    # user words (lower case, singular) → this kind's column name
    vocabulary: ClassVar[dict[str, str]] = {}
    field_types: ClassVar[dict[str, str]] = {}
    scope_model: ClassVar[type[KindScope]] = KindScope
    # Words that name this kind's records in a sentence (regex); the default detector scores them.
    keywords: ClassVar[str | None] = None
    # Whether "in <Place>" stays a generic location filter (False where the typed scope covers it:
    # "in NeurIPS 2019", "in Boston" name a venue or a team there).
    location_filters: ClassVar[bool] = True

    def detect(self, ctx: Context) -> float:
        """How strongly the sentence asks for this kind (0 = not at all; the highest wins)."""
        if self.keywords and ctx.has(self.keywords):
            return 40.0
        return 0.0

    def refine(self, req: Request, ctx: Context) -> None:
        """Fill the typed scope, questions and assumptions of a request of this kind."""
        req.kind_scope = self.scope_model()

    def fields_for(self, req: Request) -> list[str]:
        """The default target fields for this request."""
        return list(self.default_fields)

    def expected_size(self, req: Request) -> ExpectedSize | None:
        return None

    def checks(self, req: Request) -> list[Check]:
        return []

    def terms(self, req: Request, add: AddTerm, t: dict[str, float]) -> None:
        """Add the words that identify this request's records on a page or in a search hit:
        ``add(text, weight)`` tokenises and keeps the larger weight; ``t[word] = w`` sets one.
        By default the kind's nouns and the request's filter values."""
        add(self.singular, 1.5)
        add(self.plural, 1.5)
        for f in req.filters:
            for v in f.value if isinstance(f.value, list) else [f.value]:
                if isinstance(v, str):
                    add(v, 2.0)

    def search_queries(self, req: Request) -> list[str]:
        """Web-search queries that should surface a source, most specific first."""
        return []

    def who(self, req: Request) -> list[str]:
        """The named subjects of the scope (for the plan's one-line summary and the collector's name)."""
        return []

    def map_field(self, word: str) -> str | None:
        """This kind's column for a user's field word, if it has one (plural or singular)."""
        from prefect_autodata.agents.vocab import singular

        def norm(x: str) -> str:
            return " ".join(singular(w) for w in re.findall(r"[a-z0-9]+", x.lower()))

        key = word.lower().strip()
        if key in self.vocabulary:
            return self.vocabulary[key]
        by_norm = {norm(k): v for k, v in self.vocabulary.items()}
        if norm(key) in by_norm:
            return by_norm[norm(key)]
        for col in [*self.default_fields, *dict.fromkeys(self.vocabulary.values())]:
            if col.lower() == key or norm(col.replace("_", " ")) == norm(key):
                return col
        return None

    def names_for(self, col: str) -> list[str]:
        """Every word of this kind's vocabulary for column ``col`` ("hits", "ba" ...): the other names a
        page may label the column by, handed to the matcher as the field's aliases."""
        return [word for word, c in self.vocabulary.items() if c == col]


_REGISTRY: dict[str, RecordKind] = {}


def register(kind: RecordKind) -> RecordKind:
    """Make ``kind`` available to the plan agent (one line per kind module)."""
    if not kind.name:
        raise ValueError("a RecordKind needs a name")
    _REGISTRY[kind.name] = kind
    _SCOPE_DEFAULTS.clear()
    return kind


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)
    _SCOPE_DEFAULTS.clear()


def registered() -> list[RecordKind]:
    return list(_REGISTRY.values())


def get(name: str | None) -> RecordKind | None:
    return _REGISTRY.get(name) if name else None


def detect(ctx: Context) -> RecordKind | None:
    """The registered kind that claims the sentence most strongly, or None."""
    best: tuple[float, RecordKind | None] = (0.0, None)
    for k in _REGISTRY.values():
        s = k.detect(ctx)
        if s > best[0]:
            best = (s, k)
    return best[1]


_SCOPE_DEFAULTS: dict[str, Any] = {}


def scope_default(name: str) -> tuple[bool, Any]:
    """(True, default) when some registered kind's scope declares ``name``; else (False, None)."""
    if not _SCOPE_DEFAULTS:
        for k in _REGISTRY.values():
            for fname, info in k.scope_model.model_fields.items():
                if fname not in _SCOPE_DEFAULTS:
                    _SCOPE_DEFAULTS[fname] = info
    info = _SCOPE_DEFAULTS.get(name)
    if info is None:
        return False, None
    return True, info.get_default(call_default_factory=True)


use_scope_defaults(scope_default)

BUILTIN = ("paper", "stock", "nba", "mlb")  # order breaks ties; each module ends with register(...)


def _load_builtins() -> None:
    import importlib

    for mod in BUILTIN:
        importlib.import_module(f"prefect_autodata.agents.kinds.{mod}")


_load_builtins()
