"""A bridge until the generic ``Request`` (issue 12) replaces ``ParsedInstruction``.

The rule-based parser knows six record kinds and refuses every other sentence ("cannot tell what
records are wanted"), or misreads one ("price" → a stock request without a ticker). When the user
has said *where* (``--source``) and *what* (``--fields``, or a trailing "with a, b and c" list),
that refusal is not needed: the generic induction reads the fields from the source. This opens
such a plan as an unknown-kind request; a plan the parser resolved is returned unchanged.
"""

from __future__ import annotations

import re
from typing import Any

_WITH = re.compile(
    r"\bwith\s+(?:(?:their|its|the|each\s+\w+'s)\s+)?([A-Za-z][\w \-]*(?:\s*,\s*[A-Za-z][\w \-]*)*"
    r"(?:\s*,?\s+and\s+[A-Za-z][\w \-]*))\s*[.!?]?\s*$",
    re.I,
)


def requested_names(plan: Any) -> list[str]:
    """The requested field names of a plan (the generic Request's ``field_names`` or a name list)."""
    if plan is None:
        return []
    names = getattr(plan, "field_names", None)
    if names is None:
        names = getattr(plan, "fields", None) or []
    return [n if isinstance(n, str) else str(getattr(n, "name", n)) for n in names]


def entity_noun(plan: Any) -> str | None:
    """The singular noun of what is requested ("book", "country"), when the plan knows it."""
    ent = getattr(plan, "entity", None)
    noun = getattr(ent, "singular", None)
    return noun if isinstance(noun, str) and noun else None


def fields_from_sentence(text: str) -> list[str]:
    """``"... with title, author and price"`` → ``["title", "author", "price"]`` ([] when no such list)."""
    m = _WITH.search(text.strip())
    if not m:
        return []
    parts = re.split(r"\s*,\s*|\s+and\s+", m.group(1))
    out = [re.sub(r"^(?:the|their|its)\s+", "", p.strip(), flags=re.I) for p in parts if p.strip()]
    out = [p for p in out if p and len(p.split()) <= 4]
    return list(dict.fromkeys(out))


def open_request(parsed: Any, *, fields: list[str] | None, sources: list[str] | None) -> Any:
    """``parsed`` with its refusal lifted when sources and fields are known (else unchanged)."""
    if parsed.is_resolved or not sources:
        return parsed
    names = list(fields or []) or fields_from_sentence(parsed.text)
    if not names:
        return parsed
    note = "record kind not recognised: collecting the requested fields from the given source"
    return parsed.model_copy(
        update={
            "entity": "unknown",
            "domain": "unknown",
            "missing": [],
            "fields": names,
            "fields_source": "user",
            "tickers": [],
            "teams": [],
            "players": [],
            "venue": None,
            "expected_size": None,
            "assumptions": [*parsed.assumptions, note],
        }
    )
