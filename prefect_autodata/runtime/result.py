"""RunResult: what one collector run did, for the CLI (``--json``), reports and the agents."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

RunStatus = Literal["running", "succeeded", "failed", "failed_checks", "aborted"]


class RunResult(BaseModel):
    """One run, as recorded in ``_autodata_runs`` (plus the issues and warnings a person should read)."""

    run_id: str
    collector: str
    table: str
    db: str
    spec_version: str
    status: RunStatus
    rows_fetched: int = 0
    rows_landed: int = 0
    rows_rejected: int = 0
    rows_quarantined: int = 0
    requests: int = 0
    started_at: datetime
    ended_at: datetime | None = None
    error: str | None = None
    failed_step: str | None = None  # a failed run: the step that failed (fetch, extract, validate, land)
    flow_run_id: str | None = None
    cursor_before: Any = None
    cursor_after: Any = None
    checks_status: str | None = None
    warnings: list[str] = Field(default_factory=list)
    issues: list[dict] = Field(default_factory=list)

    @property
    def rows(self) -> int:
        return self.rows_landed

    @property
    def ok(self) -> bool:
        return self.status == "succeeded"

    def summary(self) -> dict:
        """The ``--json`` object: status, table, db, rows, run_id first."""
        data = self.model_dump(mode="json")
        return {
            "status": self.status,
            "table": self.table,
            "db": self.db,
            "rows": self.rows_landed,
            "run_id": self.run_id,
            **data,
        }
