"""One result shape for both engines, so reports, DuckDB and the CLI never care who checked what."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

Engine = Literal["gx", "pandera"]


class CheckResult(BaseModel):
    """The outcome of one check on one engine (one row of ``_autodata_checks``)."""

    check: str
    kind: str
    engine: Engine
    passed: bool
    severity: Literal["error", "warn"] = "error"
    observed: Any = None
    failing_rows: int = 0
    message: str = ""
    #: the engine's own name for what ran (GE expectation type / pandera check name)
    native: str = ""
    #: row positions (0-based, in the validated frame) this check blames; not stored in DuckDB
    failing_index: list[int] = Field(default_factory=list, exclude=True, repr=False)

    def observed_text(self) -> str:
        """Observed values are heterogeneous (numbers, dicts, lists): store them as short JSON text."""
        if self.observed is None:
            return ""
        text = json.dumps(self.observed, default=str)
        # long enough for a completeness result's 20 missing combinations
        return text if len(text) <= 2000 else text[:1997] + "..."

    def as_row(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "engine": self.engine,
            "passed": self.passed,
            "observed": self.observed_text(),
            "failing_rows": self.failing_rows,
            "severity": self.severity,
            "kind": self.kind,
            "message": self.message,
        }
