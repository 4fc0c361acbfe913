"""The local artifact cache: bulky evidence stays on disk, agents pass its ID.

Content-addressed (the ID is a hash of the bytes, so storing the same page twice costs
nothing), with a size limit (least recently used entries go first) and a TTL. Each entry is a
content file plus a small JSON metadata record, so a person can inspect the cache with ``ls``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from prefect_autodata.errors import ConfigError, TerminalError

KINDS = ("html", "json", "text", "screenshot", "spec", "log", "csv", "other")


class CacheMiss(TerminalError):
    """The ID is unknown, expired or evicted: the agent must fetch the evidence again."""


class CacheEntry(BaseModel):
    """Metadata of one artifact (the content is a separate file)."""

    cache_id: str
    kind: str
    summary: str
    owner: str = ""
    media_type: str = "application/octet-stream"
    size: int
    created: float
    last_access: float
    ttl_s: float | None = Field(
        default=None, description="Seconds until expiry; None means the cache default."
    )


class ArtifactCache:
    """Disk-backed, content-addressed store with LRU size eviction and TTL expiry."""

    def __init__(
        self,
        root: Path | str,
        *,
        max_bytes: int = 512 * 1024 * 1024,
        ttl_s: float | None = 7 * 24 * 3600,
        clock: Callable[[], float] = time.time,
        on_event: Callable[[str, dict], None] | None = None,  # (event, data) → e.g. Trace.emit
    ) -> None:
        if max_bytes <= 0:
            raise ConfigError(f"cache max_bytes must be positive, got {max_bytes}")
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_bytes = max_bytes
        self.ttl_s = ttl_s
        self.clock = clock
        self.on_event = on_event

    # -- paths -------------------------------------------------------------------------------

    def _data(self, cache_id: str) -> Path:
        return self.root / cache_id[2:4] / cache_id

    def _meta(self, cache_id: str) -> Path:
        return self.root / cache_id[2:4] / f"{cache_id}.json"

    @staticmethod
    def make_id(content: bytes) -> str:
        return "c_" + hashlib.sha256(content).hexdigest()[:16]

    def _emit(self, event: str, **data) -> None:
        if self.on_event is not None:
            self.on_event(event, data)

    # -- API ---------------------------------------------------------------------------------

    def put(
        self,
        content: bytes | str,
        *,
        kind: str,
        summary: str,
        owner: str = "",
        media_type: str | None = None,
        ttl_s: float | None = None,
    ) -> CacheEntry:
        """Store ``content``; returns its entry (same bytes → same ID)."""
        if kind not in KINDS:
            raise ConfigError(f"cache kind {kind!r} is not one of {', '.join(KINDS)}")
        from prefect_autodata.redact import redact_bytes, redact_text

        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        data = redact_bytes(data)  # a page echoing a credential we sent is stored without it
        summary = redact_text(summary)
        if len(data) > self.max_bytes:
            raise ConfigError(
                f"artifact of {len(data)} bytes exceeds the cache limit max_bytes={self.max_bytes}"
            )
        cache_id = self.make_id(data)
        now = self.clock()
        summary = " ".join(summary.split())[:200]
        entry = CacheEntry(
            cache_id=cache_id,
            kind=kind,
            summary=summary,
            owner=owner,
            media_type=media_type
            or ("text/plain; charset=utf-8" if isinstance(content, str) else "application/octet-stream"),
            size=len(data),
            created=now,
            last_access=now,
            ttl_s=ttl_s,
        )
        path = self._data(cache_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        self._write_meta(entry)
        self._emit("cache_put", cache_id=cache_id, kind=kind, size=len(data), owner=owner, summary=summary)
        self.evict()
        return entry

    def _write_meta(self, entry: CacheEntry) -> None:
        meta = self._meta(entry.cache_id)
        tmp = meta.with_suffix(".tmp")
        tmp.write_text(entry.model_dump_json())
        os.replace(tmp, meta)

    def meta(self, cache_id: str) -> CacheEntry:
        """Metadata without touching LRU order; raises CacheMiss when unknown or expired."""
        path = self._meta(cache_id) if cache_id.startswith("c_") and len(cache_id) == 18 else None
        if path is None or not path.exists():
            raise CacheMiss(f"cache ID {cache_id!r} is not in the local cache at {self.root}")
        entry = CacheEntry.model_validate(json.loads(path.read_text()))
        if self._expired(entry):
            self._remove(cache_id)
            raise CacheMiss(
                f"cache ID {cache_id!r} expired (TTL {self._ttl(entry):.0f}s); fetch the evidence again"
            )
        return entry

    def get(self, cache_id: str, *, reader: str = "") -> bytes:
        """The artifact's bytes; refreshes its LRU position."""
        entry = self.meta(cache_id)
        try:
            data = self._data(cache_id).read_bytes()
        except FileNotFoundError as exc:
            raise CacheMiss(f"cache ID {cache_id!r}: content file is missing under {self.root}") from exc
        self._write_meta(entry.model_copy(update={"last_access": self.clock()}))
        self._emit("cache_get", cache_id=cache_id, size=len(data), reader=reader)
        return data

    def get_text(self, cache_id: str, *, reader: str = "") -> str:
        return self.get(cache_id, reader=reader).decode("utf-8", errors="replace")

    def __contains__(self, cache_id: object) -> bool:
        try:
            self.meta(str(cache_id))
        except CacheMiss:
            return False
        return True

    def entries(self) -> list[CacheEntry]:
        out = []
        for meta in self.root.glob("*/c_*.json"):
            try:
                out.append(CacheEntry.model_validate(json.loads(meta.read_text())))
            except (OSError, ValueError):
                continue
        return sorted(out, key=lambda e: e.created)

    def total_bytes(self) -> int:
        return sum(e.size for e in self.entries())

    def _ttl(self, entry: CacheEntry) -> float | None:
        return entry.ttl_s if entry.ttl_s is not None else self.ttl_s

    def _expired(self, entry: CacheEntry) -> bool:
        ttl = self._ttl(entry)
        return ttl is not None and self.clock() - entry.created > ttl

    def _remove(self, cache_id: str) -> None:
        for p in (self._data(cache_id), self._meta(cache_id)):
            p.unlink(missing_ok=True)

    def evict(self) -> list[str]:
        """Drop expired entries, then least recently used ones until under ``max_bytes``."""
        removed: list[str] = []
        live = []
        for e in self.entries():
            if self._expired(e):
                self._remove(e.cache_id)
                removed.append(e.cache_id)
            else:
                live.append(e)
        total = sum(e.size for e in live)
        for e in sorted(live, key=lambda e: (e.last_access, e.created)):
            if total <= self.max_bytes:
                break
            self._remove(e.cache_id)
            removed.append(e.cache_id)
            total -= e.size
        for cid in removed:
            self._emit("cache_evict", cache_id=cid)
        return removed
