"""What each LLM role answers with (its structured output) and how a reply becomes the role's message.

Every role answers one JSON object. Three roles answer more than their message schema says:

- **plan** answers the ``Request`` (the shape of ``autodata plan --json``: entity, fields, filters, time
  scope, coverage, cadence, sources, kind, unresolved). It is merged into the offline parse of the same
  sentence (``--fields``/``--schema`` always win; a record kind's typed scope and expected size come from
  the kind plug-ins) and rendered as the plan message exactly as the offline plan is. A reply that does not
  validate gets one repair turn; after that the offline parse is the plan (``plan_fallback`` in the trace).
- **engineering** answers its message with ``spec`` a full ``CollectorSpec`` (its JSON Schema is the
  structured output); a spec that does not validate is explained to the model and repaired.
- **test** may answer anything that fits its schema: the verdict it posts is the one *measured* by the
  test agent's dry run (``agents.toolset.measure_spec``), never the model's own.

``response_format`` is a JSON-Schema structured output where the endpoint supports it (the client falls
back to validated JSON when it does not).
"""

from __future__ import annotations

import contextvars
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from prefect_autodata.agents.request import (
    Cadence,
    EntityName,
    Filter,
    FilterOp,
    Request,
    RequestField,
    TimeScope,
)
from prefect_autodata.errors import AutoDataError
from prefect_autodata.ohcache.formatter import FormatRejected, Formatter, explain, extract_json
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import (
    CheckResult,
    EngineeringMessage,
    ManagerMessage,
    Role,
    RoleMessage,
    TestMessage,
    schema_for,
)

_FORMATTER = Formatter(enabled=True)


# ------------------------------------------------------------------------------------------ plan: the Request


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReplyField(_Reply):
    name: str = Field(min_length=1, max_length=63, description="The column name, as the user names it.")
    normalized: str | None = None
    type: str | None = Field(
        default=None, description="string, integer, number, decimal, date, datetime, url"
    )
    unit: str | None = None


class ReplyEntity(_Reply):
    singular: str = Field(min_length=1)
    plural: str | None = None


class ReplyFilter(_Reply):
    field: str = Field(min_length=1, description='A field name, or "*" for any field.')
    op: FilterOp
    value: Any


class ReplyTime(_Reply):
    kind: Literal["absolute", "relative"] = "absolute"
    phrase: str | None = None
    start: str | None = Field(default=None, description="ISO date")
    end: str | None = Field(default=None, description="ISO date")
    years: list[int] = Field(default_factory=list)
    dates: list[str] = Field(default_factory=list)
    all_history: bool = False


class ReplyCadence(_Reply):
    phrase: str
    cron: str | None = None
    timezone: str | None = None


class RequestReply(_Reply):
    """The plan agent's structured output: what the sentence asks to collect."""

    entity: str | ReplyEntity | None = Field(
        description="The kind of record, singular: 'book', 'job posting'."
    )
    fields: list[str | ReplyField] = Field(default_factory=list)
    filters: list[ReplyFilter] = Field(default_factory=list)
    time_scope: ReplyTime | None = None
    coverage: str = "all"
    cadence: str | ReplyCadence | None = None
    sources: list[str] = Field(default_factory=list)
    kind: str | None = None
    unresolved: list[str] = Field(default_factory=list, description="Only what truly blocks collecting.")


def _column(name: str) -> str:
    from prefect_autodata.agents.fields import _FIELD_RE

    name = name.strip()
    return name if _FIELD_RE.match(name) else (re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_") or "value")


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _date(text: str | None) -> Any:
    from datetime import date

    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        return None


def request_from_reply(reply: RequestReply, offline: Request) -> Request:
    """The model's reading of the sentence, merged into the offline parse ``offline`` of the same sentence.

    The model's entity, fields, filters, time scope, coverage, cadence and unresolved questions win;
    ``--fields``/``--schema`` (``offline``'s fields of that origin) always win over both; a record kind's
    typed scope, its expected size and the ``--source`` URLs stay the offline parse's."""
    from prefect_autodata.agents.fields import _TYPES

    req = offline.model_copy(deep=True)
    if isinstance(reply.entity, str) and reply.entity.strip():
        e = reply.entity.strip().lower()
        req.entity = EntityName(singular=e, plural=_plural(e))
    elif isinstance(reply.entity, ReplyEntity):
        e = reply.entity.singular.strip().lower()
        req.entity = EntityName(singular=e, plural=(reply.entity.plural or _plural(e)).lower())
    user_given = bool(offline.fields) and offline.fields[0].origin in ("fields", "schema")
    if reply.fields and not user_given:
        # the rules' reading of the same field (its normalised name, e.g. a kind's column, and its type)
        known = {f.name.lower(): f for f in offline.fields}
        known.update({f.normalized: f for f in offline.fields})
        fields: list[RequestField] = []
        for f in reply.fields:
            f = ReplyField(name=f) if isinstance(f, str) else f
            name = _column(f.name)
            if name in {x.name for x in fields}:
                continue
            rule = known.get(name.lower()) or known.get(
                (f.normalized or name).strip().lower().replace(" ", "_")
            )
            normalized = f.normalized or (rule.normalized if rule else name.strip().lower().replace(" ", "_"))
            t = _TYPES.get((f.type or "").lower()) or (rule.type if rule else None)
            fields.append(
                RequestField(
                    name=name,
                    normalized=normalized,
                    type=t,
                    unit=f.unit,
                    origin="sentence",
                )
            )
        req.fields = fields
    if "filters" in reply.model_fields_set:
        req.filters = [Filter(field=f.field, op=f.op, value=f.value) for f in reply.filters]
    if reply.time_scope is not None:
        t = reply.time_scope
        years = sorted(set(t.years))
        req.time_scope = TimeScope(
            kind=t.kind,
            phrase=t.phrase,
            start_date=_date(t.start),
            end_date=_date(t.end),
            years=years,
            start_year=years[0] if years else None,
            end_year=years[-1] if years else None,
            dates=[d for d in (_date(x) for x in t.dates) if d is not None],
            all_history=t.all_history,
        )
    elif "time_scope" in reply.model_fields_set:
        req.time_scope = None
    req.coverage = reply.coverage or offline.coverage
    if reply.cadence is None:
        req.cadence = offline.cadence if "cadence" not in reply.model_fields_set else None
    else:
        c = ReplyCadence(phrase=reply.cadence) if isinstance(reply.cadence, str) else reply.cadence
        same = offline.cadence is not None and offline.cadence.phrase.lower() == c.phrase.lower()
        req.cadence = offline.cadence if same else Cadence(phrase=c.phrase, cron=c.cron, timezone=c.timezone)
    req.sources = list(dict.fromkeys([*offline.sources, *reply.sources]))
    if reply.kind and reply.kind != offline.kind:
        req.assumptions.append(
            f"the plan agent read the records as {reply.kind!r}; the typed scope is "
            + (f"the {offline.kind!r} kind's" if offline.kind else "generic")
        )
    req.unresolved = [u for u in reply.unresolved if u.strip()]
    req.assumptions.append("request read by the LLM plan agent")
    return req


def instruction_of(inbox: list[Message]) -> str:
    """The user's sentence as the manager passed it on ("Request: ... | fields: ...")."""
    for edge in inbox:
        if isinstance(edge.body, ManagerMessage) and edge.body.instruction.startswith("Request:"):
            return edge.body.instruction[len("Request:") :].split(" | ")[0].strip()
    return ""


# ------------------------------------------------------------------------------------------ engineering


def engineering_schema() -> dict[str, Any]:
    """The engineering agent's structured output: its message with ``spec`` a full CollectorSpec."""
    from prefect_autodata.runtime.spec import CollectorSpec

    spec = CollectorSpec.model_json_schema()
    defs = spec.pop("$defs", {})
    return {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "rationale": {"type": "string"},
            "spec": spec,
            "spec_cache_id": {"type": ["string", "null"]},
            "artifacts": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["title", "spec", "rationale"],
        "additionalProperties": False,
        "$defs": defs,
    }


# ------------------------------------------------------------------------------------------ per role


def _compact(schema: Any) -> Any:
    """A JSON Schema without its ``title`` keys (pydantic's titles repeat the names: tokens, no meaning)."""
    if isinstance(schema, dict):
        return {
            k: _compact(v) if k != "properties" else {n: _compact(p) for n, p in v.items()}
            for k, v in schema.items()
            if k != "title"
        }
    if isinstance(schema, list):
        return [_compact(x) for x in schema]
    return schema


def output_schema(role: Role) -> dict[str, Any]:
    """The JSON Schema a role's final reply must match."""
    if role is Role.PLAN:
        return _compact(RequestReply.model_json_schema())
    if role is Role.ENGINEERING:
        return _compact(engineering_schema())
    return _compact(schema_for(role).model_json_schema())


def response_format(role: Role) -> dict[str, Any]:
    """The OpenAI ``response_format`` asking for ``output_schema(role)`` (non-strict: pydantic schemas)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": f"{role.value}_reply", "schema": output_schema(role), "strict": False},
    }


def _squad() -> Any:
    """The running collection's squad context, or None outside one (a role run on its own)."""
    from prefect_autodata.agents.context import current
    from prefect_autodata.errors import ConfigError

    try:
        return current()
    except ConfigError:
        return None


def _latest(inbox: list[Message], kind: type) -> Any:
    for edge in reversed(inbox):
        if isinstance(edge.body, kind):
            return edge.body
    return None


def _json(role: Role, content: str) -> Any:
    try:
        return extract_json(content)
    except json.JSONDecodeError as exc:
        raise FormatRejected(role, f"reply is not valid JSON ({exc.msg} at char {exc.pos})") from exc


@dataclass
class PlanSlot:
    """The plan agent run on its own (``autodata plan --backend llm``): the offline parse it refines
    (with ``--fields``/``--schema`` applied) and the Request it settled on."""

    offline: Request
    request: Request | None = None
    source: str = ""


PLAN_SLOT: contextvars.ContextVar[PlanSlot | None] = contextvars.ContextVar(
    "autodata_plan_slot", default=None
)


def offline_request(inbox: list[Message]) -> Request:
    """The offline parse of the sentence: the squad's (or the standalone plan's), else the rule-based
    parser's on the inbox's request."""
    ctx = _squad()
    if ctx is not None and ctx.parsed is not None:
        return ctx.parsed
    slot = PLAN_SLOT.get()
    if slot is not None:
        return slot.offline
    from prefect_autodata.agents.plan import make_plan

    return make_plan(instruction_of(inbox))


def plan_reply(content: str, inbox: list[Message], tools: Any) -> RoleMessage:
    """The plan agent's reply (a Request) as its plan message; the Request is cached and, in a collection
    run, becomes the squad's plan. A full plan message (goals, steps, ...) is accepted as it is."""
    obj = _json(Role.PLAN, content)
    if isinstance(obj, dict) and obj.keys() & {"goals", "steps", "target_schema", "scope"}:
        return _FORMATTER.parse(Role.PLAN, obj)
    try:
        reply = RequestReply.model_validate(obj)
    except ValidationError as exc:
        raise FormatRejected(Role.PLAN, "not a Request: " + explain(exc)) from exc
    req = request_from_reply(reply, offline_request(inbox))
    return settle_request(req, tools, source="llm")


def settle_request(req: Request, tools: Any, *, source: str) -> RoleMessage:
    """Cache ``req``, make it the squad's plan, and render it as the plan message."""
    from prefect_autodata.agents.plan import plan_message

    cid = tools.store(
        req.model_dump_json(),
        kind="json",
        summary=f"request ({source}): {req.entity.singular if req.entity else '?'}; fields {', '.join(req.field_names)}",
        media_type="application/json",
    )
    ctx = _squad()
    if ctx is not None:
        ctx.parsed = req
    slot = PLAN_SLOT.get()
    if slot is not None:
        slot.request, slot.source = req, source
    tools.runtime.trace.emit("plan_request", source=source, request=req.to_json())
    return plan_message(req, artifacts=[cid])


def engineering_reply(content: str) -> RoleMessage:
    """The engineering message, its ``spec`` validated as a CollectorSpec (the squad's spec under test)."""
    from prefect_autodata.runtime.spec import CollectorSpec

    msg = _FORMATTER.parse(Role.ENGINEERING, content)
    assert isinstance(msg, EngineeringMessage)
    try:
        spec = CollectorSpec.parse(msg.spec)
    except AutoDataError as exc:
        raise FormatRejected(Role.ENGINEERING, f"spec is not a valid CollectorSpec: {exc}") from exc
    ctx = _squad()
    if ctx is not None:
        from prefect_autodata.agents.mirror import unmirrored

        ctx.spec = unmirrored(spec, ctx.mirror)
    return msg


def test_reply(content: str, inbox: list[Message], tools: Any) -> RoleMessage:
    """The test message with the *measured* verdict: the spec under test dry-run by the test agent."""
    from prefect_autodata.agents.test import to_message
    from prefect_autodata.agents.toolset import measure_spec

    claimed = _FORMATTER.parse(Role.TEST, content)
    ctx = _squad()
    if ctx is None:
        return claimed
    eng = _latest(inbox, EngineeringMessage)
    spec = eng.spec if eng is not None else ctx.spec
    trace = tools.runtime.trace
    if spec is None:
        trace.emit("test_measured", claimed=claimed.verdict, verdict="fail", why="no spec to test")
        return TestMessage(
            results=[CheckResult(name="spec", passed=False, evidence="no spec was posted to test")],
            quality_score=0.0,
            verdict="fail",
            repair_hint="post a CollectorSpec first",
        )
    try:
        m = measure_spec(ctx, spec)
    except AutoDataError as exc:
        trace.emit("test_measured", claimed=claimed.verdict, verdict="fail", why=str(exc)[:300])
        return TestMessage(
            results=[CheckResult(name="spec", passed=False, evidence=str(exc)[:1000])],
            quality_score=0.0,
            verdict="fail",
            repair_hint=str(exc)[:500],
        )
    ctx.test_reports.append(m.report)
    msg = to_message(m.report, spec_cache_id=eng.spec_cache_id if eng is not None else None)
    trace.emit(
        "test_measured", claimed=claimed.verdict, verdict=msg.verdict, why=m.measure.why, rows=m.report.rows
    )
    return msg


test_reply.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


def settle(role: Role, content: str, inbox: list[Message], tools: Any) -> RoleMessage:
    """A role's final reply as the message it posts (raises ``FormatRejected`` with what to repair)."""
    if role is Role.PLAN:
        return plan_reply(content, inbox, tools)
    if role is Role.ENGINEERING:
        return engineering_reply(content)
    if role is Role.TEST:
        return test_reply(content, inbox, tools)
    return _FORMATTER.parse(role, content)


__all__ = [
    "RequestReply",
    "engineering_schema",
    "instruction_of",
    "offline_request",
    "output_schema",
    "request_from_reply",
    "response_format",
    "settle",
    "settle_request",
]
