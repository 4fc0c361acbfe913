"""Candidate collectors: what every inducer hands the engineering loop, and the name it gives them.

One module below the inducers (engineering, offline/induction_html, induction/assemble) so that they
share ``CandidateSpec`` and ``spec_name`` without importing each other.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.offline.instruction import ParsedInstruction
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


def spec_name(plan: ParsedInstruction) -> str:
    """A readable, valid collector name from the plan (entity + scope)."""
    bits: list[str] = []
    if plan.venue:
        bits.append(plan.venue.abbr)
    bits += plan.tickers[:3] or (["sp500"] if plan.all_sp500 else [])
    bits += [t.abbr for t in plan.teams[:2]]
    bits += [p.split()[-1] for p in plan.players[:3]]
    if plan.track:
        bits.append(plan.track.split()[0])
    label = plan.kind or (plan.entity.singular if plan.entity else None)
    if label and label != "paper":
        bits.insert(0, label.replace("_", "-"))
    ys = plan.years
    if ys:
        bits.append(str(ys[0]) if len(ys) == 1 else f"{ys[0]}-{ys[-1]}")
    elif plan.start_date:
        bits.append(plan.start_date.isoformat())
    name = re.sub(r"[^a-z0-9]+", "-", "-".join(bits).lower()).strip("-") or "collector"
    return name[:60].strip("-")
