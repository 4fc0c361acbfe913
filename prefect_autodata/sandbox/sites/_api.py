"""Shared scaffolding for the sandbox's JSON API sites (FanGraphs, NBA, Tiingo).

Compact JSON bytes (orjson when present), JSON-ready scalars, and a process-wide lazily built data set
that async handlers can await without building it on the event loop.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import anyio
from starlette.responses import Response

T = TypeVar("T")

try:
    import orjson

    def dumps(obj: object) -> bytes:
        """Compact JSON bytes (no spaces), as the real APIs send."""
        return orjson.dumps(obj)
except ImportError:  # pragma: no cover - orjson ships with the locked environment
    import json

    def dumps(obj: object) -> bytes:
        """Compact JSON bytes (no spaces), as the real APIs send."""
        return json.dumps(obj, separators=(",", ":")).encode()


def json_response(
    obj: object,
    status: int = 200,
    headers: dict[str, str] | None = None,
    media_type: str = "application/json",
) -> Response:
    return Response(dumps(obj), status_code=status, media_type=media_type, headers=headers)


def clean(v: object) -> object:
    """A JSON-ready scalar: NaN -> None, whole floats -> int (the APIs send 82, not 82.0)."""
    if isinstance(v, float):
        if math.isnan(v):
            return None
        return int(v) if v.is_integer() and abs(v) < 2**53 else v
    return v


class ProcessData(Generic[T]):
    """A site's data set, built on first use and kept for the life of the process; thread-safe."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._value: T | None = None

    def get(self) -> T:
        value = self._value
        if value is not None:
            return value
        with self._lock:
            if self._value is None:
                self._value = self._build()
        return self._value

    async def aget(self) -> T:
        """``get()`` for handlers: the first build runs on a worker thread, not on the event loop."""
        value = self._value
        return value if value is not None else await anyio.to_thread.run_sync(self.get)
