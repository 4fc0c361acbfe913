"""The field names and types a user gives (``--fields``, ``--schema`` files) and a first guess at a
field's type from its name.

Below the plan agent and the offline parser, which both read them (``plan`` re-exports them).
"""

from __future__ import annotations

import re
from pathlib import Path

from prefect_autodata.errors import ConfigError

_FIELD_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ .\-]{0,62}$")


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
