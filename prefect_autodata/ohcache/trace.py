"""The run trace: every hyperedge, tool call, cache access, LLM call and token count, as JSONL.

One file per collection run under ``<workspace>/traces/<run_id>.jsonl`` so ``autodata trace RUN``
can print it long after the run. Secrets registered with the trace (API keys) and anything that
looks like a bearer token are scrubbed before a line is written.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from prefect_autodata.errors import ConfigError

_KEYLIKE = re.compile(r"\b(sk-[A-Za-z0-9_\-]{8,}|Bearer\s+[A-Za-z0-9_\-.]{8,})")
REDACTED = "***"


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """Remove secrets and key-shaped strings from ``text``."""
    from prefect_autodata.redact import redact_text

    for s in secrets:
        if s and len(s) >= 4:
            text = text.replace(s, REDACTED)
    return redact_text(_KEYLIKE.sub(REDACTED, text))  # secrets by value: resolved and sent credentials


def _scrub(obj: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(obj, str):
        return redact(obj, secrets)
    if isinstance(obj, dict):
        return {k: _scrub(v, secrets) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_scrub(v, secrets) for v in obj]
    return obj


class Trace:
    """Append-only event log, in memory and (when ``path`` is set) in a JSONL file."""

    def __init__(self, run_id: str, path: Path | str | None = None, secrets: Iterable[str] = ()) -> None:
        self.run_id = run_id
        self.path = Path(path) if path is not None else None
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    @classmethod
    def for_run(cls, traces_dir: Path, run_id: str, secrets: Iterable[str] = ()) -> Trace:
        return cls(run_id, Path(traces_dir) / f"{run_id}.jsonl", secrets)

    def add_secret(self, secret: str | None) -> None:
        if secret:
            self._secrets = (*self._secrets, secret)

    def emit(self, event: str, **data: Any) -> dict[str, Any]:
        record = _scrub(
            {"run_id": self.run_id, "ts": round(time.time(), 3), "event": event, **data}, self._secrets
        )
        line = json.dumps(record, default=str, ensure_ascii=False)
        with self._lock:
            self.events.append(record)
            if self.path is not None:
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(line + "\n")
        return record

    def of_event(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]

    @staticmethod
    def load(path: Path | str) -> list[dict[str, Any]]:
        path = Path(path)
        if not path.exists():
            raise ConfigError(f"no trace at {path}")
        out = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"trace {path} line {n} is not JSON: {exc.msg}") from exc
        return out


def find_trace(traces_dir: Path, run: str) -> Path:
    """A run ID (or unique prefix) or a path → the trace file."""
    p = Path(run)
    if p.suffix == ".jsonl" and p.exists():
        return p
    exact = Path(traces_dir) / f"{run}.jsonl"
    if exact.exists():
        return exact
    matches = sorted(Path(traces_dir).glob(f"{run}*.jsonl")) if Path(traces_dir).exists() else []
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise ConfigError(f"no trace for run {run!r} in {traces_dir}")
    raise ConfigError(f"run {run!r} is ambiguous: {', '.join(m.stem for m in matches[:5])}")


def format_trace(events: list[dict[str, Any]]) -> str:
    """Human-readable lines, one per event, plus per-agent token totals."""
    lines = []
    tokens: dict[str, int] = {}
    for e in events:
        k = e.get("event")
        if k == "edge":
            lines.append(
                f"#{e['seq']:>3} {e['source']:>11} → {','.join(e['targets'])}: {e.get('headline', '')}"
            )
        elif k == "tool_call":
            status = "ok" if e.get("ok", True) else f"error: {e.get('error', '')}"
            lines.append(
                f"     {e.get('role', ''):>11} tool {e.get('tool')}({_short(e.get('arguments'))}) {status}"
            )
        elif k in ("cache_put", "cache_get", "cache_evict"):
            lines.append(f"     {'cache':>11} {k[6:]} {e.get('cache_id')} {e.get('summary', '')}".rstrip())
        elif k == "llm_call":
            lines.append(
                f"     {e.get('role', ''):>11} llm {e.get('model')} in={e.get('prompt_tokens')} "
                f"out={e.get('completion_tokens')} ${e.get('cost_usd', 0):.4f}"
            )
        elif k == "context":
            tokens[e["role"]] = tokens.get(e["role"], 0) + int(e.get("tokens", 0))
        else:
            lines.append(
                f"     {k}: {_short({x: y for x, y in e.items() if x not in ('run_id', 'ts', 'event')})}"
            )
    if tokens:
        lines.append("context tokens: " + ", ".join(f"{r}={n}" for r, n in sorted(tokens.items())))
    return "\n".join(lines)


def _short(obj: Any, n: int = 100) -> str:
    s = json.dumps(obj, default=str, ensure_ascii=False) if not isinstance(obj, str) else obj
    return s if len(s) <= n else s[: n - 1] + "…"
