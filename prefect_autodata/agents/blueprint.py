"""The blueprint agent: chooses source and method from the evidence — an API or bulk file first, HTML
second, a browser last — and writes the Blueprint (sources, method, extraction logic, checks, output).

The order is AutoData's: structured endpoints are cheaper, faster and steadier than scraped markup,
and a browser is the most fragile and expensive way to read a page. Within a kind, the source whose
records carry most of the requested fields (by normalised name) and that accepted the plan's own
parameter values wins. Every candidate keeps its score and reason so the engineering agent can fall
back to the next one when the first fails its dry run.
"""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.evidence import Endpoint, Evidence, Page
from prefect_autodata.agents.naming import default_name
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.ohcache.messages import BlueprintMessage, FieldSpec, SourceChoice

SourceKind = Literal["api", "file", "html", "browser"]
KIND_PREFERENCE: dict[str, float] = {"api": 3.0, "file": 2.5, "html": 1.5, "browser": 0.5}


class SourceCandidate(BaseModel):
    """One way to get the data, scored; ``endpoint`` or ``page_url`` points into the evidence."""

    url: str
    kind: SourceKind
    score: float
    field_coverage: float = Field(ge=0, le=1)
    matched_fields: list[str] = Field(default_factory=list)
    why: str = ""
    endpoint: Endpoint | None = None
    page_url: str | None = None
    cache_id: str | None = None


class Blueprint(BaseModel):
    """The blueprint agent's decision: ranked candidates (best first) and the target schema."""

    name: str
    fields: list[str]
    candidates: list[SourceCandidate]
    notes: list[str] = Field(default_factory=list)

    @property
    def chosen(self) -> SourceCandidate | None:
        return self.candidates[0] if self.candidates else None


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def match_fields(targets: list[str], names: list[str]) -> list[str]:
    """Targets whose normalised name equals, or ends/starts with, an observed field name."""
    have = {norm(n) for n in names if n}
    out = []
    for t in targets:
        nt = norm(t)
        if not nt:
            continue
        if nt in have or any(
            len(h) >= 3 and len(nt) >= 3 and (h.endswith(nt) or nt.endswith(h)) for h in have
        ):
            out.append(t)
    return out


def _page_fields(page: Page, targets: list[str]) -> list[str]:
    words = set(re.findall(r"[A-Za-z0-9_]+", page.text_excerpt))
    return match_fields(targets, list(words))


def _dedupe(eps: list[Endpoint]) -> list[Endpoint]:
    seen: set[str] = set()
    out = []
    for e in eps:
        if e.url_template in seen:
            continue
        seen.add(e.url_template)
        out.append(e)
    return out


def choose_blueprint(
    evidence: Evidence, *, fields: list[str] | None = None, name: str | None = None
) -> Blueprint:
    """Rank every observed source for the plan; the first candidate is the blueprint's choice."""
    plan = evidence.plan
    targets = list(fields or plan.field_names)
    terms = d.plan_terms(plan)
    cands: list[SourceCandidate] = []
    for ep in _dedupe(evidence.endpoints):
        if not ep.record_count:
            continue
        matched = match_fields(targets, ep.fields)
        cov = len(matched) / len(targets) if targets else 0.0
        kind: SourceKind = "api" if ep.kind == "json" else "file"
        rejected = sum(len(r.rejected) for r in ep.param_ranges)
        accepted = sum(max(0, len(r.accepted) - 1) for r in ep.param_ranges)
        src = evidence.page(ep.source_page) if ep.source_page else None
        rel = d.relevance(src.title if src else "", ep.example_url, terms)
        score = KIND_PREFERENCE[kind] + 4 * cov + 0.3 * math.log10(1 + ep.record_count) + 0.5 * accepted
        score += 0.1 * rel - 1.0 * rejected
        why = (
            f"{kind} {ep.kind} endpoint ({ep.found_via}) with {ep.record_count} records at "
            f"{ep.record_path_hint or 'the root'!r}; {len(matched)}/{len(targets)} requested fields by name"
        )
        if ep.param_ranges:
            why += "; probes: " + ", ".join(
                f"{r.name} ok {r.accepted[1:]} bad {r.rejected}" for r in ep.param_ranges
            )
        cands.append(
            SourceCandidate(
                url=ep.example_url,
                kind=kind,
                score=round(score, 3),
                field_coverage=round(cov, 3),
                matched_fields=matched,
                why=why,
                endpoint=ep,
                page_url=ep.source_page,
                cache_id=ep.sample_cache_id,
            )
        )
    # pages that document an endpoint which answered records: their tables describe keys, not records
    doc_pages = {ep.source_page for ep in evidence.endpoints if ep.found_via == "docs" and ep.record_count}
    for page in evidence.ok_pages():
        if page.kind not in ("html", "csv") or not (page.record_count or 0) >= 3:
            continue
        matched = _page_fields(page, targets)
        cov = len(matched) / len(targets) if targets else 0.0
        kind = "browser" if page.rendered else ("file" if page.kind == "csv" else "html")
        rel = d.relevance(page.title, page.final_url, terms)
        page_years = set(re.findall(r"\b(?:19|20)\d\d\b", f"{page.title} {page.final_url}"))
        if plan.years and page_years and not page_years & {str(y) for y in plan.years}:
            rel -= 5  # a listing of another year than the one asked for
        score = KIND_PREFERENCE[kind] + 2 * cov + 0.3 * math.log10(1 + (page.record_count or 0)) + 0.3 * rel
        if page.final_url in doc_pages:
            score -= 3.0
        cands.append(
            SourceCandidate(
                url=page.final_url,
                kind=kind,
                score=round(score, 3),
                field_coverage=round(cov, 3),
                matched_fields=matched,
                page_url=page.final_url,
                cache_id=page.cache_id,
                why=f"{kind} page with {page.record_count} repeated records; title {page.title[:80]!r}",
            )
        )
    cands.sort(key=lambda c: -c.score)
    notes = []
    if not cands:
        notes.append("no source with records was observed; widen the search or give --source")
    return Blueprint(name=name or default_name(plan), fields=targets, candidates=cands, notes=notes)


def _ftype(name: str) -> str:
    n = name.lower()
    if n in ("date", "birthdate") or n.endswith("_date"):
        return "date"
    if n.endswith("link") or n.endswith("url"):
        return "url"
    return "string"


def blueprint_message(bp: Blueprint) -> BlueprintMessage:
    """The Blueprint as the role's message (sources best first, method, extraction, checks, output)."""
    plan_fields = bp.fields or ["value"]
    if not bp.candidates:
        return BlueprintMessage(
            name=bp.name,
            sources=[SourceChoice(url="about:blank", kind="html", why="; ".join(bp.notes))],
            method="none: no usable source observed",
            extraction_logic="-",
            output=[FieldSpec(name=f, type=_ftype(f)) for f in plan_fields],
            error_handling="; ".join(bp.notes),
        )
    best = bp.candidates[0]
    msg_kind = {"api": "api", "file": "file", "html": "html", "browser": "browser"}[best.kind]
    sources = [
        SourceChoice(url=c.url, kind=c.kind if c.kind != "file" else "file", why=c.why[:300])
        for c in bp.candidates[:4]
    ]
    if best.endpoint is not None:
        ep = best.endpoint
        method = f"{msg_kind}: GET {ep.url_template} with params {sorted(ep.params)}"
        extraction = (
            f"records at {ep.record_path_hint or '$'}; map {', '.join(best.matched_fields) or 'fields'} "
            "by name, the rest by value similarity"
        )
        pagination = ep.pagination.model_dump_json(exclude_none=True) if ep.pagination else ""
        if ep.headers:
            method += f"; send headers {sorted(ep.headers)} as the page does"
    else:
        method = f"{msg_kind}: read {best.url}"
        extraction = (
            "repeated record regions / tables on the page (wrapper induction); detail links if fields miss"
        )
        pagination = ""
    checks = [f"columns exactly {', '.join(plan_fields)}", "no duplicate records on the natural key"]
    return BlueprintMessage(
        name=bp.name,
        sources=sources,
        method=method[:500],
        extraction_logic=extraction[:500],
        pagination=pagination[:300],
        validation=checks,
        output=[FieldSpec(name=f, type=_ftype(f)) for f in plan_fields],
        error_handling="retry transient errors; fall back to the next source in order if the dry run fails",
        artifacts=[c.cache_id for c in bp.candidates[:4] if c.cache_id],
    )
