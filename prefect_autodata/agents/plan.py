"""The plan agent: one sentence → a ``Request`` (entity, fields, filters, time scope, kind) and the plan.

Offline it wraps the rule-based parser (``offline/instruction.py``) and renders the result as the
plan role's message; the LLM backend answers the same schema from ``prompts/plan.yaml``. When the
instruction cannot be resolved the plan says exactly what is missing (``Unresolvable``, with the
questions that would help) instead of guessing, and no collector is written.
"""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents import kinds
from prefect_autodata.agents.fields import guess_type
from prefect_autodata.agents.offline.instruction import parse_request
from prefect_autodata.agents.request import Request
from prefect_autodata.errors import TerminalError
from prefect_autodata.ohcache.messages import FieldSpec, PlanMessage, PlanStep, Role


class Unresolvable(TerminalError):
    """The instruction does not say enough to collect anything; ``missing`` lists what to add."""

    def __init__(self, parsed: Request) -> None:
        self.parsed = parsed
        self.missing = list(parsed.missing)
        super().__init__("cannot collect this yet: " + "; ".join(self.missing))


def make_plan(
    instruction: str,
    *,
    fields: list[str] | None = None,
    schema: list[tuple[str, str | None]] | None = None,
    today: date | None = None,
    sources: list[str] | None = None,
) -> Request:
    """Read ``instruction`` into a Request (``--fields`` / ``--schema`` override the proposed fields;
    ``--source`` URLs count as named sources)."""
    return parse_request(instruction, fields=fields, schema=schema, today=today, sources=sources)


def require_resolved(parsed: Request) -> Request:
    """Raise ``Unresolvable`` naming what is missing; the caller collects nothing."""
    if not parsed.is_resolved:
        raise Unresolvable(parsed)
    return parsed


def scope_sentence(p: Request) -> str:
    """The plan's scope in one sentence (what, who, when, how many)."""
    kind = kinds.get(p.kind)
    who: list[str] = kind.who(p) if kind is not None else []
    who += [f"{f.field} {f.op} {f.value}" for f in p.filters if kind is None]
    when = ""
    if p.dates:
        when = ", ".join(d.isoformat() for d in p.dates)
    elif p.start_date and p.end_date:
        when = f"{p.start_date.isoformat()}..{p.end_date.isoformat()}"
    elif p.years:
        when = str(p.years[0]) if len(p.years) == 1 else f"{p.years[0]}-{p.years[-1]}"
    elif p.all_history:
        when = "full history" + (f" up to {p.end_year}" if p.end_year else "")
    size = (
        f"; about {p.expected_size.rows} rows ({p.expected_size.basis})"
        if p.expected_size and p.expected_size.approx
        else (f"; exactly {p.expected_size.rows} rows" if p.expected_size else "")
    )
    what = p.kind or (p.entity.singular if p.entity else "unknown")
    return f"{what} records for {', '.join(who) or 'unspecified entities'}, {when or 'no time range'}{size}"


def plan_message(p: Request, *, artifacts: list[str] | None = None) -> PlanMessage:
    """Render a Request as the plan role's message (goals, steps, schema, scope)."""
    fields = p.field_names or ["value"]
    notes = "; ".join([*(f"assumption: {a}" for a in p.assumptions), *(f"missing: {m}" for m in p.missing)])
    types = {f.name: f.type for f in p.fields if f.type}
    steps = [
        PlanStep(
            name="find sources",
            agent=Role.WEB,
            description="visit the given or searched sources; capture pages, APIs and bulk files",
            expected_output="evidence: pages and endpoints in the cache",
        ),
        PlanStep(
            name="choose method",
            agent=Role.BLUEPRINT,
            description="API or bulk file first, HTML second, a browser last",
            depends_on=["find sources"],
        ),
        PlanStep(
            name="write collector",
            agent=Role.ENGINEERING,
            description="wrapper induction to a CollectorSpec with the target fields",
            depends_on=["choose method"],
        ),
        PlanStep(
            name="dry run",
            agent=Role.TEST,
            description="run the spec on a sample and report precise failures",
            depends_on=["write collector"],
            acceptance=["records extracted", "no target field mostly empty", "values match column types"],
        ),
        PlanStep(
            name="design checks",
            agent=Role.VALIDATION,
            description="types, keys, ranges, cross-field rules and completeness from the request",
            depends_on=["choose method"],
        ),
    ]
    return PlanMessage(
        goals=[p.text.strip() or "(empty instruction)"],
        steps=steps,
        target_schema=[
            FieldSpec(
                name=f, type={"decimal": "number"}.get(types.get(f) or "", types.get(f) or guess_type(f))
            )
            for f in fields
        ],
        scope=scope_sentence(p),
        notes=notes,
        artifacts=list(artifacts or []),
    )
