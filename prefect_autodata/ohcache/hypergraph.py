"""The oriented message hypergraph (AutoData Eq. 2-3).

A hyperedge is (one source agent, a non-empty target set that excludes the source, a time
index, a message). An agent's context at time t is exactly the messages whose target set
contains it and whose time index is before t, in order. Nothing else can reach an agent: there
is no shared transcript to leak from.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.messages import CacheNotice, FreeText, Role, RoleMessage

Body = RoleMessage | CacheNotice | FreeText


@dataclass(frozen=True)
class Hyperedge:
    """One message in flight. ``seq`` is the time index t (strictly increasing per hypergraph)."""

    seq: int
    source: Role
    targets: frozenset[Role]
    body: Body
    at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def kind(self) -> str:
        if isinstance(self.body, CacheNotice):
            return "cache_notice"
        if isinstance(self.body, FreeText):
            return "free_text"
        return "role_message"

    def headline(self) -> str:
        b = self.body
        if isinstance(b, CacheNotice):
            return f"cache {b.cache_id} ({b.kind}): {b.summary}"
        if isinstance(b, FreeText):
            return b.text[:80].replace("\n", " ")
        return b.headline()

    def to_record(self) -> dict[str, Any]:
        """JSON-ready form for the trace."""
        body = self.body.model_dump(mode="json") if isinstance(self.body, BaseModel) else self.body
        return {
            "seq": self.seq,
            "source": self.source.value,
            "targets": sorted(t.value for t in self.targets),
            "kind": self.kind,
            "schema": type(self.body).__name__,
            "at": self.at.isoformat(),
            "headline": self.headline(),
            "body": body,
        }


# What agents receive in their inbox.
Message = Hyperedge


class Hypergraph:
    """Append-only hyperedges with a per-role index, so context lookups never scan others' mail."""

    def __init__(self) -> None:
        self._edges: list[Hyperedge] = []
        self._by_target: dict[Role, list[Hyperedge]] = {}
        self._seq = itertools.count()

    def add(self, source: Role | str, targets: Iterable[Role | str], body: Body) -> Hyperedge:
        src = Role(source)
        tgt = frozenset(Role(t) for t in targets)
        if not tgt:
            raise ConfigError(f"hyperedge from {src.value!r} has an empty target set")
        if src in tgt:
            raise ConfigError(f"hyperedge from {src.value!r} lists its own source among targets")
        edge = Hyperedge(seq=next(self._seq), source=src, targets=tgt, body=body)
        self._edges.append(edge)
        for t in tgt:
            self._by_target.setdefault(t, []).append(edge)
        return edge

    def context(self, role: Role | str, before: int | None = None) -> list[Hyperedge]:
        """Eq. 3: the messages addressed to ``role`` with time index < ``before`` (all, if None), in order."""
        edges = self._by_target.get(Role(role), [])
        if before is None:
            return list(edges)
        return [e for e in edges if e.seq < before]

    @property
    def edges(self) -> list[Hyperedge]:
        return list(self._edges)

    def __len__(self) -> int:
        return len(self._edges)

    @property
    def now(self) -> int:
        """The time index the next edge will get."""
        return self._edges[-1].seq + 1 if self._edges else 0
