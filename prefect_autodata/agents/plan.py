"""The plan agent: one sentence → a ``Request`` (entity, fields, filters, time scope, kind) and the plan.

Offline it wraps the rule-based parser (``offline/instruction.py``) and renders the result as the
plan role's message; the LLM backend answers the same schema from ``prompts/plan.yaml``. When the
instruction cannot be resolved the plan says exactly what is missing (``Unresolvable``, with the
questions that would help) instead of guessing, and no collector is written.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from prefect_autodata.agents import kinds
from prefect_autodata.agents.offline.instruction import parse_request
from prefect_autodata.agents.request import Request
from prefect_autodata.errors import ConfigError, TerminalError
from prefect_autodata.ohcache.messages import FieldSpec, PlanMessage, PlanStep, Role

_FIELD_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ .\-]{0,62}$")


class Unresolvable(TerminalError):
    """The instruction does not say enough to collect anything; ``missing`` lists what to add."""

    def __init__(self, parsed: Request) -> None:
        self.parsed = parsed
        self.missing = list(parsed.missing)
        super().__init__("cannot collect this yet: " + "; ".join(self.missing))


def parse_fields(fields: str | list[str] | None) -> list[str] | None:
    """``--fields a,b,c`` (or a list) → names; None when not given. Rejects empty or odd names."""
    if fields is None:
        return None
    names = [f.strip() for f in (fields.split(",") if isinstance(fields, str) else fields)]
    names = [n for n in names if n]
    if not names:
        raise ConfigError("--fields is empty: give comma-separated column names, e.g. Date,Close")
    for n in names:
        if not _FIELD_RE.match(n):
            raise ConfigError(f"--fields: {n!r} is not a usable column name (letters, digits, '_', '-', '.')")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"--fields names {', '.join(dup)} more than once")
    return names


def fields_from_schema_file(path: str | Path) -> list[str]:
    """Field names from a schema file: YAML/JSON (a list, ``fields:`` or ``columns:`` of names/mappings) or one name per line."""
    return [n for n, _ in schema_from_file(path)]


_TYPES = {
    "str": "string",
    "string": "string",
    "text": "string",
    "int": "integer",
    "integer": "integer",
    "float": "number",
    "number": "number",
    "double": "number",
    "decimal": "decimal",
    "money": "decimal",
    "bool": "boolean",
    "boolean": "boolean",
    "date": "date",
    "datetime": "datetime",
    "timestamp": "datetime",
    "url": "url",
}


def schema_from_file(path: str | Path) -> list[tuple[str, str | None]]:
    """(name, type) pairs from a schema file: YAML/JSON (a list of names or ``{name, type}`` mappings,
    ``fields:``/``columns:``/``properties:``, or ``name: type`` pairs) or one name per line."""
    import json

    import yaml

    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"schema file {p} does not exist")
    text = p.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if p.suffix == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ConfigError(f"schema file {p} is not valid YAML/JSON: {exc}") from exc
    if isinstance(data, dict):
        inner = data.get("fields") or data.get("columns") or data.get("properties")
        data = inner if inner is not None else data
    pairs: list[tuple[str, str | None]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            t = v.get("type") if isinstance(v, dict) else v
            pairs.append((str(k), str(t) if t is not None else None))
    elif isinstance(data, str):
        pairs = [(n, None) for n in data.split()]
    elif isinstance(data, list):
        for d in data:
            if isinstance(d, dict) and "name" in d:
                pairs.append((str(d["name"]), str(d["type"]) if d.get("type") else None))
            elif isinstance(d, dict) and len(d) == 1:
                ((k, v),) = d.items()
                pairs.append((str(k), str(v) if v is not None else None))
            elif d is not None:
                pairs.append((str(d), None))
    else:
        raise ConfigError(f"schema file {p}: expected a list of field names (or 'fields:'/'columns:')")
    names = parse_fields([n for n, _ in pairs]) or []
    out = []
    for n, (_, t) in zip(names, pairs, strict=True):
        if t is not None and t.lower() not in _TYPES:
            raise ConfigError(
                f"schema file {p}: field {n!r} has unknown type {t!r} (use one of {', '.join(sorted(set(_TYPES.values())))})"
            )
        out.append((n, _TYPES[t.lower()] if t is not None else None))
    return out


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


_DATE_NAMES = re.compile(r"(^|_)(date|day|birthdate)$", re.I)
_TEXT_NAMES = re.compile(
    r"(name|title|author|abstract|conference|abbr|track|link|url|country|ticker|team|player|height)",
    re.I,
)


def guess_type(field: str) -> str:
    """A first guess at a field's type from its name; the engineering agent types columns from data."""
    if _DATE_NAMES.search(field):
        return "date"
    if field.upper().endswith("LINK") or field.lower().endswith("url"):
        return "url"
    if _TEXT_NAMES.search(field):
        return "string"
    if field.upper() in ("YEAR", "SEASON", "GP", "GS", "W", "L", "G") or field.lower().endswith("year"):
        return "integer"
    return "number"


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
