"""Candidate collectors: what every inducer hands the engineering loop.

One module below the inducers (engineering, offline/listings, induction/assemble) so that they
share ``CandidateSpec`` without importing each other; the name they give a collector is
``agents.naming.default_name`` (the one name maker).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from prefect_autodata.runtime.spec import CollectorSpec

Method = Literal["api", "bulk", "html", "browser"]


class CandidateSpec(BaseModel):
    """One induced collector with the evidence for it; ``score`` ranks candidates (higher first)."""

    spec: CollectorSpec
    method: Method
    source_url: str
    score: float
    covered: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    rationale: str = ""
    sample_rows: int = 0
