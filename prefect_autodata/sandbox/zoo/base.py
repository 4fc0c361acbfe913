"""The layout zoo's shared vocabulary: record kinds, record sets, drawn sites and families.

Why: the zoo's families (HTML, API, JS, structured data) are written by different people; this
module is the one contract they all build against, so a family never depends on another.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from starlette.routing import BaseRoute

FieldType = Literal["text", "int", "number", "money", "date", "url", "percent", "height"]


@dataclass(frozen=True)
class FieldDef:
    """One field of a record kind and the labels a site may print for it."""

    name: str
    type: FieldType
    labels: tuple[str, ...]
    labels_de: tuple[str, ...] = ()
    labels_es: tuple[str, ...] = ()


@dataclass(frozen=True)
class KindDef:
    """A kind of record (paper, used car, ...) with its fields, identity and filterable scope."""

    name: str
    domain: str
    singular: str
    plural: str
    fields: tuple[FieldDef, ...]
    title_field: str
    key: tuple[str, ...]
    scope_fields: tuple[str, ...] = ()

    def field(self, name: str) -> FieldDef:
        """The field called `name` (KeyError when the kind has none)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    @property
    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]


@dataclass
class RecordSet:
    """Records as one site displays them ("$23,495"), keyed by FieldDef.name."""

    kind: KindDef
    records: list[dict[str, Any]]
    generated: bool
    # The same records' raw values (int years, date objects, floats), aligned with ``records``; what
    # the catalog's filters compare (a display string like "Mar 3, 2021" is not comparable).
    raw: list[dict[str, Any]] = field(default_factory=list)
    # How this site formats values ({"date": "%b %d, %Y", "thousands": True, ...}); for the docs and tests.
    style: dict[str, Any] = field(default_factory=dict)


@dataclass
class ZooSite:
    """One drawn site: routes relative to its root, mounted by the server under /<host>."""

    host: str
    family: str
    routes: list[BaseRoute]
    entry_path: str
    notes: dict[str, Any] = field(default_factory=dict)


class Family(Protocol):
    """A layout family: builds a complete small site presenting a record set."""

    name: str
    kinds: tuple[str, ...] | None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite: ...
