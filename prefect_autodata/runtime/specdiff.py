"""The unified diff of a collector spec's YAML against the version it replaces (``collect`` and the CLI show it)."""

from __future__ import annotations

import difflib


def spec_diff(previous: str | None, current: str, name: str) -> str:
    """Unified diff of the spec YAML against the version it replaces (empty when unchanged)."""
    if previous is None:
        return ""
    return "".join(
        difflib.unified_diff(
            previous.splitlines(keepends=True),
            current.splitlines(keepends=True),
            fromfile=f"{name} (previous)",
            tofile=f"{name} (new)",
        )
    )
